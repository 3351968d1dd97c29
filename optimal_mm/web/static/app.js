// The page: picks a tree, and wires the solver, the challenge, the tree browser
// and the chart to it.
//
// Trees come from the catalogue `trees/index.json` written by `optimal-mm site`
// (or served by `optimal-mm serve`), or from a file the person chooses or drops
// on the page. Every tree is read and replayed by format.js before use; a file
// that fails is refused with one line and the tree in use stays.

import { Challenge } from "./challenge.js";
import { renderLengthChart } from "./chart.js";
import { readTreeFile, TreeFileError } from "./format.js";
import { Solver } from "./solver.js";
import { TreeBrowser } from "./treeview.js";
import { el } from "./view.js";

const $ = (id) => document.getElementById(id);
let tree = null;

const browser = new TreeBrowser($("tree"), $("tree-caption"));
const solver = new Solver({
  rules: $("solver-rules"), guess: $("solver-guess"), answers: $("solver-answers"),
  result: $("solver-result"), path: $("solver-path"), undo: $("solver-undo"),
  restart: $("solver-restart"), count: $("solver-count"), codes: $("solver-codes"),
}, (nodes, solvedIn) => {
  browser.markPath(nodes);
  renderLengthChart($("chart"), tree.stats.depth_counts, solvedIn);
});
const challenge = new Challenge({
  rules: $("challenge-rules"), form: $("challenge-form"), input: $("challenge-input"),
  hint: $("challenge-hint"), reveal: $("challenge-reveal"), again: $("challenge-new"),
  error: $("challenge-error"), hintText: $("challenge-hint-text"), result: $("challenge-result"),
  body: document.querySelector("#challenge-history tbody"),
});

function showError(message) {
  $("error").textContent = message ? `This file cannot be used: ${message}` : "";
  $("error").hidden = !message;
}

function describe(t, source) {
  const s = t.stats;
  const proof = t.optimal ? "proved optimal" : "not proved optimal";
  const cap = t.maxGuesses === null ? "" : `, at most ${t.maxGuesses} guesses`;
  return `${t.game.name} (${t.game.spec}, ${t.game.nCodes} codes) \u00B7 objective ${t.objective}, ` +
    `${proof} \u00B7 guesses ${t.guesses}${cap} \u00B7 total ${s.total}, average ` +
    `${(s.total / s.secrets).toFixed(4)}, worst case ${s.max} \u00B7 ${t.nodes.length} nodes \u00B7 ${source}`;
}

/** Read, check and show a tree from the bytes of a file. */
async function openTree(bytes, name) {
  document.body.dataset.state = "loading";
  let loaded;
  try {
    loaded = await readTreeFile(bytes, name);
  } catch (err) {
    showError(err instanceof TreeFileError ? err.message : `${name}: ${err.message || err}`);
    document.body.dataset.state = "error";
    return false;
  }
  tree = loaded;
  showError(null);
  $("tree-info").textContent = describe(tree, name);
  $("main").hidden = false;
  browser.load(tree);
  solver.load(tree);
  challenge.load(tree);
  document.body.dataset.tree = name;
  document.body.dataset.state = "ready";
  return true;
}

async function openShipped(file) {
  let bytes;
  try {
    const response = await fetch(`trees/${encodeURIComponent(file)}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    showError(`cannot read ${file}: ${err.message}`);
    document.body.dataset.state = "error";
    return;
  }
  await openTree(bytes, file);
}

async function openLocal(file) {
  if (await openTree(new Uint8Array(await file.arrayBuffer()), file.name)) $("tree-select").value = "";
}

async function loadCatalogue() {
  const select = $("tree-select");
  let index;
  try {
    const response = await fetch("trees/index.json");
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    index = await response.json();
  } catch (err) {
    select.replaceChildren(el("option", { value: "" }, "no shipped trees: open a tree file"));
    return;
  }
  const groups = new Map();
  for (const entry of index.trees) {
    if (!groups.has(entry.game)) groups.set(entry.game, el("optgroup", { label: entry.game }));
    const s = entry.stats;
    const average = s ? `, average ${(s.total / s.secrets).toFixed(4)}, worst ${s.max}` : "";
    groups.get(entry.game).append(el("option", { value: entry.file },
      `${entry.objective}${entry.guesses === "consistent" ? " (consistent guesses)" : ""}` +
      `${entry.max_guesses ? ` (at most ${entry.max_guesses})` : ""}` +
      `${entry.optimal ? ", optimal" : ""}${average} \u2014 ${entry.file}`));
  }
  select.replaceChildren(el("option", { value: "" }, "choose a shipped tree"), ...groups.values());
  const wanted = new URLSearchParams(location.search).get("tree");
  const first = index.trees.find((e) => e.file === wanted) ||
    index.trees.find((e) => e.game === "mastermind") || index.trees[0];
  if (first) {
    select.value = first.file;
    await openShipped(first.file);
  }
}

$("tree-select").addEventListener("change", (event) => {
  if (event.target.value) openShipped(event.target.value);
});
$("tree-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  if (file) openLocal(file);
  event.target.value = "";
});
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("dragging");
  const [file] = event.dataTransfer.files;
  if (file) openLocal(file);
});

for (const tab of document.querySelectorAll(".tabs button")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tabs button")) {
      other.setAttribute("aria-selected", String(other === tab));
      $(other.dataset.panel).hidden = other !== tab;
    }
  });
}
$("browse-root").addEventListener("click", () => browser.showFrom(tree.root));
$("browse-current").addEventListener("click", () => browser.showFrom(solver.current));
$("browse-expand").addEventListener("click", () => browser.expandLevel());
$("browse-collapse").addEventListener("click", () => browser.collapseAll());

loadCatalogue();
