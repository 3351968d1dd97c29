// Small DOM helpers shared by the page's panels: elements, codes and answers.

const PEG_COLOURS = ["#d62728", "#2ca02c", "#1f77b4", "#e6b800", "#ff7f0e", "#9467bd",
                     "#8c564b", "#e377c2", "#17becf", "#7f7f7f"];

/** A new element: el("li", {class: "x", "data-id": 3}, child, "text", ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

/**
 * A code drawn as pegs: coloured circles for games of up to ten colours with
 * repeats (Mastermind), plain boxes otherwise (digits of Bulls and Cows).
 */
export function codeView(game, text, small = false) {
  const coloured = game.repeats && game.colours <= PEG_COLOURS.length;
  const pegs = [...text].map((ch) => {
    const c = game.alphabet.indexOf(ch);
    return coloured
      ? el("span", { class: "peg", style: `background:${PEG_COLOURS[c]}` }, ch)
      : el("span", { class: "peg plain" }, ch);
  });
  return el("span", { class: "code" + (small ? " small" : ""), "data-code": text, title: text }, pegs);
}

/** An answer key with its key pegs (black and white dots). */
export function answerView(game, key) {
  const { black, white } = game.parseAnswerKey(key);
  const dots = [];
  for (let i = 0; i < black; i++) dots.push(el("span", { class: "keypeg black" }));
  for (let i = 0; i < white; i++) dots.push(el("span", { class: "keypeg white" }));
  return el("span", { class: "answer" }, el("span", { class: "key" }, key),
            el("span", { class: "keypegs" }, dots));
}

/** "4 pegs over 123456, repeats allowed" */
export function describeRules(game) {
  return `${game.pegs} pegs over ${game.alphabet.join("")}, ` +
    (game.repeats ? "repeated colours allowed" : "no repeated symbol") +
    (game.blackOnly ? ", black pegs only" : "");
}

/** The codes still possible: the count, and the list itself when it is short. */
export function renderCodes(countNode, listNode, game, indices, shortList = 40) {
  countNode.textContent = String(indices.length);
  listNode.replaceChildren();
  if (indices.length <= shortList) {
    for (const i of indices) listNode.append(el("span", { class: "possible" }, game.codeStr(i)));
  } else {
    listNode.append(el("span", { class: "note" }, `(listed when ${shortList} or fewer)`));
  }
}
