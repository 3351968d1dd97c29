// "You guess": the page hides a secret and answers the person's guesses.
//
// The secret is drawn in the page (crypto.getRandomValues) and every answer is
// scored there by the game's rules; nothing is asked of a server. The hint shows
// the tree's guess while the person's guesses follow the tree, and otherwise how
// many codes are still possible. When the secret is found, the page says how many
// guesses the tree needs for it.

import { GameError } from "./rules.js";
import { answerView, codeView, describeRules, el } from "./view.js";

export class Challenge {
  constructor(ids) {
    this.$ = ids;
    this.tree = null;
    ids.form.addEventListener("submit", (event) => { event.preventDefault(); this.guess(ids.input.value); });
    ids.hint.addEventListener("click", () => this.showHint());
    ids.reveal.addEventListener("click", () => this.giveUp());
    ids.again.addEventListener("click", () => this.newSecret());
  }

  load(tree) {
    this.tree = tree;
    this.$.rules.textContent = describeRules(tree.game);
    this.newSecret();
  }

  newSecret() {
    const n = this.tree.game.nCodes;
    const draw = new Uint32Array(1);
    crypto.getRandomValues(draw);
    this.secret = draw[0] % n;
    this.history = [];   // [{guess: colours, text, key, left}]
    this.over = false;
    this.$.input.value = "";
    this.$.input.disabled = false;
    this.$.body.replaceChildren();
    for (const node of [this.$.error, this.$.hintText, this.$.result]) node.hidden = true;
  }

  guess(text) {
    if (this.over) return;
    const { game } = this.tree;
    const $ = this.$;
    let colours;
    try {
      colours = game.parseCode(text);
    } catch (err) {
      if (!(err instanceof GameError)) throw err;
      $.error.textContent = err.message;
      $.error.hidden = false;
      return;
    }
    $.error.hidden = true;
    $.hintText.hidden = true;
    const answer = game.score(colours, game.codes[this.secret]);
    const key = game.answerKey(answer);
    const code = game.codeStr(colours);
    this.history.push({ guess: colours, text: code, key });
    const left = game.consistentCodes(this.history).length;
    $.body.append(el("tr", { "data-guess": code, "data-answer": key },
      el("td", {}, String(this.history.length)), el("td", {}, codeView(game, code, true)),
      el("td", {}, answerView(game, key)), el("td", { class: "left" }, String(left))));
    $.input.value = "";
    if (key === game.winKey) this.finish(true);
  }

  /** The node of the tree the person's guesses have followed, or null once they leave it. */
  treeNode() {
    let node = this.tree.root;
    for (const { text, key } of this.history) {
      if (!node || node.guess !== text) return null;
      node = node.next.get(key) || null;
    }
    return node;
  }

  showHint() {
    if (this.over) return;
    const { game } = this.tree;
    const node = this.treeNode();
    const left = game.consistentCodes(this.history).length;
    const $ = this.$;
    $.hintText.replaceChildren();
    if (node) $.hintText.append(`The tree plays `, codeView(game, node.guess, true), ` here (${left} codes still possible).`);
    else $.hintText.append(`Your guesses have left the tree; ${left} codes are still possible.`);
    $.hintText.hidden = false;
  }

  giveUp() {
    if (!this.over) this.finish(false);
  }

  finish(won) {
    const { game } = this.tree;
    this.over = true;
    this.$.input.disabled = true;
    const secret = game.codeStr(this.secret);
    const treeGuesses = this.guessesOfTree(this.secret);
    const n = this.history.length;
    this.$.result.replaceChildren(
      won ? `You found ${secret} in ${n} guess${n === 1 ? "" : "es"}. `
          : `The secret was ${secret}. `,
      `The tree needs ${treeGuesses} guess${treeGuesses === 1 ? "" : "es"} for it.`);
    this.$.result.dataset.secret = secret;
    this.$.result.hidden = false;
  }

  /** How many guesses the tree plays against a secret (an index). */
  guessesOfTree(secret) {
    let node = this.tree.root, depth = 1;
    while (node.guessIndex !== secret) {
      node = [...node.next.values()].find((child) => child.secrets.includes(secret));
      depth++;
    }
    return depth;
  }
}
