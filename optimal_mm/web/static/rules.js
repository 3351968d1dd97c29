// The rules of a Mastermind-family game, for the page: codes, scoring, answers.
//
// The same rules as optimal_mm/game.py, written again in plain JavaScript so that
// the page needs no server: a game is P pegs over C colours written with one
// alphabet character each, with or without repeated colours, scored black-white
// (black: right colour in the right place; white: the remaining colour matches,
// colours counted with multiplicity) or black only. Codes are numbered in
// lexicographic order, as in Python, so an index means the same code on both
// sides. tests/test_web_page.py checks this scorer against the Python one.

export const MIN_PEGS = 1, MAX_PEGS = 1024, MIN_COLOURS = 2, MAX_COLOURS = 1024;
/** Games of more colours write codes as colour numbers: the page does not play them. */
export const MAX_ALPHABET_COLOURS = 36;
export const SCORINGS = ["black-white", "black"];
/** The page enumerates at most this many codes (bigger games are refused). */
export const MAX_PAGE_CODES = 2_000_000;
const SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PRESETS = { mastermind: ["p4c6", "123456"], "bulls-and-cows": ["p4c10n", "0123456789"] };

/** A game whose rules are wrong or too big for the page. */
export class GameError extends Error {}

/** Python's repr of a JSON value, so that messages read like the command line's. */
export function pyRepr(value) {
  if (typeof value === "string") return "'" + value.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  if (typeof value === "object")
    return "{" + Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ") + "}";
  return String(value);
}

/** Python's json.dumps of a value (", " and ": " between items). */
function pyJson(value) {
  if (Array.isArray(value)) return "[" + value.map(pyJson).join(", ") + "]";
  if (value !== null && typeof value === "object")
    return "{" + Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(", ") + "}";
  return JSON.stringify(value);
}

/** A value quoted in a message, cut to 40 characters (the Python reader's _short). */
export function pyShort(value) {
  const text = typeof value === "string" ? pyRepr(value) : pyJson(value);
  return text.length <= 40 ? text : text.slice(0, 37) + "...";
}

export function defaultAlphabet(colours) {
  return colours <= 9 ? "123456789".slice(0, colours) : SYMBOLS.slice(0, colours);
}

export function countCodes(pegs, colours, repeats) {
  if (repeats) return colours ** pegs;
  let n = 1;
  for (let i = 0; i < pegs; i++) n *= colours - i;
  return Math.max(n, 0);
}

function isInt(v) { return typeof v === "number" && Number.isInteger(v); }

export class Game {
  /**
   * @param {object} rules {pegs, colours, repeats, scoring, alphabet}; checked as
   *   Game.from_dict checks them, with the same messages.
   */
  constructor({ pegs, colours, repeats = true, scoring = "black-white", alphabet = null }) {
    if (!isInt(pegs) || pegs < MIN_PEGS || pegs > MAX_PEGS)
      throw new GameError(`pegs must be ${MIN_PEGS}..${MAX_PEGS}, got ${pyRepr(pegs)}`);
    if (!isInt(colours) || colours < MIN_COLOURS || colours > MAX_COLOURS)
      throw new GameError(`colours must be ${MIN_COLOURS}..${MAX_COLOURS}, got ${pyRepr(colours)}`);
    if (!SCORINGS.includes(scoring))
      throw new GameError(`scoring must be one of ('black-white', 'black'), got ${pyRepr(scoring)}`);
    if (!repeats && pegs > colours)
      throw new GameError(`a game without repeats needs at least as many colours as pegs ` +
                          `(got ${pegs} pegs, ${colours} colours)`);
    if (colours > MAX_ALPHABET_COLOURS)
      throw new GameError(`the page plays games of at most ${MAX_ALPHABET_COLOURS} colours, ` +
                          `got ${colours}`);
    alphabet = alphabet || defaultAlphabet(colours);
    if (typeof alphabet !== "string" || [...alphabet].length !== colours ||
        new Set(alphabet).size !== colours)
      throw new GameError(`alphabet must have ${colours} distinct characters, got ${pyRepr(alphabet)}`);
    if (/\s/.test(alphabet))
      throw new GameError(`alphabet may not contain white space: ${pyRepr(alphabet)}`);
    Object.assign(this, { pegs, colours, repeats, scoring, alphabet: [...alphabet] });
    this.nCodes = countCodes(pegs, colours, repeats);
    this._codes = null;
  }

  /** The game of a tree file's `game` object (raises GameError like Game.from_dict). */
  static fromDict(data) {
    if (data === null || typeof data !== "object" || Array.isArray(data))
      throw new GameError(`game must be an object, got ${pyRepr(data)}`);
    for (const key of ["pegs", "colours", "repeats", "scoring"])
      if (!(key in data)) throw new GameError(`game is missing the field ${pyRepr(key)}`);
    if (typeof data.repeats !== "boolean")
      throw new GameError(`game.repeats must be true or false, got ${pyRepr(data.repeats)}`);
    return new Game(data);
  }

  get blackOnly() { return this.scoring === "black"; }

  /** The spec string, e.g. p4c10n or p3c5b. */
  get spec() {
    return `p${this.pegs}c${this.colours}` + (this.repeats ? "" : "n") + (this.blackOnly ? "b" : "");
  }

  /** The preset name (mastermind, bulls-and-cows) when the game is one, else the spec. */
  get name() {
    for (const [name, [spec, alphabet]] of Object.entries(PRESETS))
      if (spec === this.spec && alphabet === this.alphabet.join("")) return name;
    return this.spec;
  }

  /** Every legal code as an array of colour numbers, in lexicographic order (built once). */
  get codes() {
    if (this._codes) return this._codes;
    if (this.nCodes > MAX_PAGE_CODES)
      throw new GameError(`${this.spec} has ${this.nCodes.toLocaleString("en")} codes, more than ` +
                          `the ${MAX_PAGE_CODES.toLocaleString("en")} this page enumerates`);
    const out = [];
    const code = new Array(this.pegs);
    const used = new Array(this.colours).fill(false);
    const place = (pos) => {
      if (pos === this.pegs) { out.push(Uint8Array.from(code)); return; }
      for (let c = 0; c < this.colours; c++) {
        if (!this.repeats && used[c]) continue;
        code[pos] = c; used[c] = true;
        place(pos + 1);
        used[c] = false;
      }
    };
    place(0);
    this._codes = out;
    this._index = new Map(out.map((colours, i) => [this.codeStr(colours), i]));
    return out;
  }

  /** The string of a code given as colour numbers or as an index. */
  codeStr(code) {
    if (typeof code === "number") code = this.codes[code];
    let s = "";
    for (const c of code) s += this.alphabet[c];
    return s;
  }

  /** Index of a code string written exactly over the alphabet, or -1. */
  indexOf(text) {
    this.codes;
    const i = this._index.get(text);
    return i === undefined ? -1 : i;
  }

  /**
   * Colour numbers of a code typed by a person: checks length, alphabet and
   * repeats and throws GameError saying what is wrong (like Game.parse_code).
   */
  parseCode(text) {
    const chars = [...String(text).trim()];
    if (chars.length !== this.pegs)
      throw new GameError(`code ${pyRepr(text)} has ${chars.length} symbols; ${this.spec} codes have ${this.pegs}`);
    const colours = chars.map((ch) => {
      let c = this.alphabet.indexOf(ch);
      if (c < 0) c = this.alphabet.indexOf(ch.toUpperCase());
      if (c < 0) throw new GameError(
        `code ${pyRepr(text)} has symbol ${pyRepr(ch)} outside the alphabet ${pyRepr(this.alphabet.join(""))}`);
      return c;
    });
    if (!this.repeats && new Set(colours).size !== colours.length)
      throw new GameError(`code ${pyRepr(text)} repeats a colour, which ${this.spec} forbids`);
    return Uint8Array.from(colours);
  }

  /** {black, white} of a guess against a secret, both as colour-number arrays. */
  score(guess, secret) {
    let black = 0;
    const inGuess = new Array(this.colours).fill(0), inSecret = new Array(this.colours).fill(0);
    for (let i = 0; i < this.pegs; i++) {
      if (guess[i] === secret[i]) black++;
      inGuess[guess[i]]++; inSecret[secret[i]]++;
    }
    if (this.blackOnly) return { black, white: 0 };
    let common = 0;
    for (let c = 0; c < this.colours; c++) common += Math.min(inGuess[c], inSecret[c]);
    return { black, white: common - black };
  }

  /** The format's answer key: "1B2W", or "2B" in a black-only game. */
  answerKey({ black, white }) { return this.blackOnly ? `${black}B` : `${black}B${white}W`; }

  /** The key of the winning answer (all pegs black). */
  get winKey() { return this.answerKey({ black: this.pegs, white: 0 }); }

  /** {black, white} of a format answer key, or null when the key is malformed. */
  parseAnswerKey(key) {
    const m = typeof key === "string" &&
      (this.blackOnly ? /^(0|[1-9][0-9]*)B$/ : /^(0|[1-9][0-9]*)B(0|[1-9][0-9]*)W$/).exec(key);
    if (!m) return null;
    return { black: Number(m[1]), white: this.blackOnly ? 0 : Number(m[2]) };
  }

  /** Sort order of answer keys: by black pegs, then white. */
  compareKeys(a, b) {
    const x = this.parseAnswerKey(a), y = this.parseAnswerKey(b);
    return x.black - y.black || x.white - y.white;
  }

  /**
   * Indices of the codes that agree with every (guess, answer) of a history:
   * the secrets still possible. history: [{guess: colour array, key: answer key}].
   */
  consistentCodes(history) {
    const out = [];
    const codes = this.codes;
    for (let i = 0; i < codes.length; i++) {
      if (history.every(({ guess, key }) => this.answerKey(this.score(guess, codes[i])) === key))
        out.push(i);
    }
    return out;
  }
}
