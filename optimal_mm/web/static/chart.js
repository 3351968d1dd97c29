// The distribution of game lengths as an inline SVG bar chart (no library).

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Draw one bar per number of guesses: depthCounts[i] secrets are found with
 * exactly i + 1 guesses. `current` (a number of guesses, or null) is drawn in
 * another colour: the length of the game being played.
 */
export function renderLengthChart(container, depthCounts, current = null) {
  const width = 460, height = 240, left = 48, right = 12, top = 36, bottom = 40;
  const total = depthCounts.reduce((s, c) => s + c, 0);
  const guesses = depthCounts.reduce((s, c, i) => s + c * (i + 1), 0);
  const most = Math.max(1, ...depthCounts);
  const slot = (width - left - right) / Math.max(1, depthCounts.length);
  const plot = height - top - bottom;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
                             id: "length-chart" });
  chart.append(svg("title", {}, "Number of secrets found with each number of guesses"));
  chart.append(svg("text", { x: left, y: 14, "font-size": 12 },
                   `${total} secrets, ${guesses} guesses in all, average ${(guesses / total).toFixed(4)}`));
  chart.append(svg("line", { x1: left, y1: top + plot, x2: width - right, y2: top + plot, stroke: "#555" }));
  chart.append(svg("line", { x1: left, y1: top, x2: left, y2: top + plot, stroke: "#555" }));
  for (const frac of [0, 0.5, 1]) {
    const y = top + plot * (1 - frac);
    chart.append(svg("text", { x: left - 6, y: y + 4, "text-anchor": "end", "font-size": 10 },
                     String(Math.round(most * frac))));
  }
  depthCounts.forEach((count, i) => {
    const h = plot * count / most;
    const x = left + i * slot + slot * 0.15;
    const bar = svg("rect", { class: "bar" + (current === i + 1 ? " current" : ""), x, y: top + plot - h,
                              width: slot * 0.7, height: h, "data-guesses": i + 1, "data-count": count });
    bar.append(svg("title", {}, `${count} secrets need ${i + 1} guesses`));
    chart.append(bar);
    chart.append(svg("text", { x: x + slot * 0.35, y: top + plot - h - 3, "text-anchor": "middle",
                               "font-size": 10, class: "bar-label" }, String(count)));
    chart.append(svg("text", { x: x + slot * 0.35, y: top + plot + 14, "text-anchor": "middle",
                               "font-size": 11 }, String(i + 1)));
  });
  chart.append(svg("text", { x: left + (width - left - right) / 2, y: height - 6, "text-anchor": "middle",
                             "font-size": 11 }, "guesses needed"));
  container.replaceChildren(chart);
}
