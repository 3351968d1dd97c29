// "The computer guesses": the page replays the tree against the person's secret.
//
// The person thinks of a code; the page shows the tree's guess at the current
// node and offers only the answers the tree allows there (its branches, and the
// winning answer when the guess is itself a code still possible). Every guess is
// instant: it is read from the tree. The codes still possible are computed from
// the game's rules and the answers given, and the path can be undone.

import { canWin, sortedChildren } from "./format.js";
import { answerView, codeView, describeRules, el, renderCodes } from "./view.js";

export class Solver {
  constructor(ids, onChange) {
    this.$ = ids;
    this.onChange = onChange;
    this.tree = null;
    ids.undo.addEventListener("click", () => this.undo());
    ids.restart.addEventListener("click", () => this.restart());
  }

  load(tree) {
    this.tree = tree;
    this.$.rules.textContent = describeRules(tree.game);
    this.restart();
  }

  restart() {
    this.steps = [];      // [{node, key}]: the guesses answered so far
    this.solved = false;
    this.render();
  }

  /** The node whose guess is being played now. */
  get current() {
    if (!this.steps.length) return this.tree.root;
    const { node, key } = this.steps[this.steps.length - 1];
    return key === this.tree.game.winKey ? node : node.next.get(key);
  }

  /** The nodes from the root to the current one. */
  get pathNodes() {
    const nodes = [this.tree.root];
    for (const { node, key } of this.steps) if (node.next.has(key)) nodes.push(node.next.get(key));
    return nodes;
  }

  answer(key) {
    const node = this.current;
    if (this.solved) return;
    if (key !== this.tree.game.winKey && !node.next.has(key)) return;
    this.steps.push({ node, key });
    this.solved = key === this.tree.game.winKey;
    this.render();
  }

  undo() {
    if (!this.steps.length) return;
    this.steps.pop();
    this.solved = false;
    this.render();
  }

  render() {
    const { game } = this.tree;
    const node = this.current;
    const $ = this.$;
    const n = this.steps.length + (this.solved ? 0 : 1);
    $.guess.replaceChildren();
    $.answers.replaceChildren();
    $.result.hidden = !this.solved;
    $.guess.hidden = $.answers.hidden = this.solved;
    if (this.solved) {
      $.result.textContent = `Solved: your secret is ${node.guess}, found with ${n} guess${n === 1 ? "" : "es"}.`;
    } else {
      $.guess.append(el("span", {}, `Guess ${n}:`), codeView(game, node.guess),
                     el("span", { class: "note" },
                        `How many ${game.blackOnly ? "black" : "black and white"} pegs does it score?`));
      const keys = sortedChildren(game, node).map(([key]) => key);
      if (canWin(node)) keys.push(game.winKey);
      for (const key of keys) {
        const win = key === game.winKey;
        $.answers.append(el("button", { "data-answer": key, class: win ? "win" : null,
                                        onclick: () => this.answer(key) },
                            answerView(game, key), win ? " solved" : null));
      }
    }
    $.path.replaceChildren(...this.steps.map(({ node: step, key }) =>
      el("li", { "data-guess": step.guess, "data-answer": key }, codeView(game, step.guess, true), " ",
         answerView(game, key))));
    $.undo.disabled = this.steps.length === 0;
    const history = this.steps.map(({ node: step, key }) => ({ guess: game.codes[step.guessIndex], key }));
    renderCodes($.count, $.codes, game, game.consistentCodes(history));
    this.onChange(this.pathNodes, this.solved ? this.steps.length : null);
  }
}
