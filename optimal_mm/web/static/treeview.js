// A browsable strategy tree: nodes open and close on click, built lazily.
//
// A Bulls and Cows tree has thousands of nodes; only the rows a person opens are
// ever put in the document. The view starts at the root or at any node (the
// solver's current position), and marks the nodes on the path being played;
// seen from the root, it opens that path as the game goes on.

import { sortedChildren } from "./format.js";
import { el } from "./view.js";

export class TreeBrowser {
  constructor(list, caption) {
    this.list = list;
    this.caption = caption;
    this.tree = null;
    this.top = null;
    this.pathNodes = [];
    this.path = new Set();
    this.current = null;
  }

  /** Show a new tree from its root, one level open. */
  load(tree) {
    this.tree = tree;
    this.pathNodes = [];  // those of the tree shown before are not this one's
    this.path = new Set();
    this.current = null;
    this.showFrom(tree.root);
  }

  /** Make `node` the top of the view, with its children shown. */
  showFrom(node) {
    this.top = node;
    this.list.replaceChildren(this._row(node, node === this.tree.root ? null : node.key));
    this._open(this.list.firstElementChild);
    if (node === this.tree.root) this._reveal();
    const trail = [];
    for (let n = node; n.parent; n = n.parent) trail.unshift(`${n.parent.guess} ${n.key}`);
    this.caption.textContent = trail.length ? `Showing from the position after: ${trail.join(", ")}` : "";
  }

  /** Close every node but the top one. */
  collapseAll() {
    const item = this.list.firstElementChild;
    if (!item) return;
    this._close(item);
    this._open(item);
  }

  /** Open every node shown whose children are hidden, one level deeper. */
  expandLevel() {
    const shown = (li) => {
      for (let up = li.parentElement.closest("li.node"); up; up = up.parentElement.closest("li.node"))
        if (!up.classList.contains("open")) return false;
      return true;
    };
    const closed = [...this.list.querySelectorAll("li.node:not(.open):not(.leaf)")].filter(shown);
    for (const li of closed) this._open(li);
  }

  /** Mark the nodes of the path being played (root first); the last is the current one. */
  markPath(nodes) {
    this.pathNodes = nodes;
    this.path = new Set(nodes.map((n) => n.id));
    this.current = nodes.length ? nodes[nodes.length - 1].id : null;
    if (this.top === this.tree.root) this._reveal();
    for (const li of this.list.querySelectorAll("li.node")) this._mark(li);
  }

  /** Open the nodes of the path played, from the root down to the current node's parent. */
  _reveal() {
    let li = this.list.firstElementChild;
    for (const node of this.pathNodes.slice(1)) {
      this._open(li);
      li = li.querySelector(`:scope > ul > li[data-node-id="${node.id}"]`);
      if (!li) return;
    }
  }

  _mark(li) {
    const id = Number(li.dataset.nodeId);
    li.classList.toggle("on-path", this.path.has(id));
    li.classList.toggle("current", id === this.current);
  }

  _row(node, key) {
    const leaf = node.next.size === 0;
    const li = el("li", { class: "node" + (leaf ? " leaf" : ""), "data-node-id": node.id, role: "treeitem" });
    const reached = node.secrets.length;
    const row = el("div", { class: "row" },
      el("span", { class: "twisty" }, leaf ? "" : "\u25B8"),
      key ? el("span", { class: "key" }, key + " \u2192 ") : null,
      el("span", { class: "guess" }, node.guess),
      el("span", { class: "count" },
         leaf ? "  (found)" : `  (${reached} secret${reached === 1 ? "" : "s"})`));
    row.addEventListener("click", () => (li.classList.contains("open") ? this._close(li) : this._open(li)));
    li.append(row);
    li._node = node;
    this._mark(li);
    return li;
  }

  _open(li) {
    const node = li._node;
    if (node.next.size === 0) return;
    if (!li.querySelector(":scope > ul")) {
      const ul = el("ul", { role: "group" });
      for (const [key, child] of sortedChildren(this.tree.game, node)) ul.append(this._row(child, key));
      li.append(ul);
    }
    li.querySelector(":scope > ul").hidden = false;
    li.classList.add("open");
    li.querySelector(":scope > .row > .twisty").textContent = "\u25BE";
  }

  _close(li) {
    for (const open of [li, ...li.querySelectorAll("li.open")]) {
      const ul = open.querySelector(":scope > ul");
      if (ul) ul.hidden = true;
      open.classList.remove("open");
      open.querySelector(":scope > .row > .twisty").textContent = "\u25B8";
    }
  }
}
