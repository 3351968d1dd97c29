// Reading strategy-tree files (docs/FORMAT.md) in the page, and replaying them.
//
// The page reads what `optimal-mm verify` reads, in the same order and with the
// same messages (docs/FORMAT.md, "What the reader checks"): gzip, UTF-8, JSON,
// the document's required fields and their types, the shape of every node, then
// the replay of every secret, which is the definition of a correct tree. A file
// that fails any check is refused with one readable line naming the first defect,
// so a damaged or foreign file never reaches the rest of the page.
//
// Replay carries the secrets that reach each node down the tree; they are kept on
// the node (`node.secrets`), so the page knows at every node which codes are still
// possible and how many guesses each subtree needs, without scoring again.

import { Game, GameError, pyRepr, pyShort } from "./rules.js";

export const FORMAT_NAME = "optimal-mm-strategy";
export const FORMAT_VERSION = 1;
const GUESS_RULES = ["any", "consistent"];

/** A tree file that cannot be used; the message is one line for the person. */
export class TreeFileError extends Error {}

/** Bytes of a file, gunzipped when they start with the gzip magic number. */
async function gunzipIfNeeded(bytes, name) {
  if (!(bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b)) return bytes;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    // The browser's own reason ("Failed to fetch") says nothing to a person.
    throw new TreeFileError(`${pyRepr(name)} is a damaged gzip file: it cannot be decompressed ` +
                            `(corrupt data, cut short, or a bad checksum)`);
  }
}

/** Parse the JSON text of a file, telling a file cut short from other damage. */
function parseJson(bytes, name) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TreeFileError(`${pyRepr(name)} is not UTF-8 text`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const cut = text.trim() === "" || /end of (JSON|data) input|Unterminated string/i.test(err.message);
    throw new TreeFileError(`${pyRepr(name)} is ${cut ? "truncated" : "malformed"} JSON: ${err.message}`);
  }
}

/**
 * Read a tree file's bytes (.json or .json.gz) into a replayed Tree.
 * Throws TreeFileError with a one-line message, prefixed by the file's name.
 */
export async function readTreeFile(bytes, name) {
  const doc = parseJson(await gunzipIfNeeded(bytes, name), name);
  try {
    return treeFromDocument(doc);
  } catch (err) {
    if (err instanceof TreeFileError) throw new TreeFileError(`${pyRepr(name)}: ${err.message}`);
    throw err;
  }
}

function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function isInt(v) { return typeof v === "number" && Number.isInteger(v); }

/** Check a parsed document and replay it (Strategy.from_dict, then validate). */
export function treeFromDocument(doc) {
  if (!isObject(doc))
    throw new TreeFileError(`a strategy document must be a JSON object, got ${pyShort(doc)}`);
  if (doc.format !== FORMAT_NAME)
    throw new TreeFileError(`wrong format ${pyRepr(doc.format)}: expected ${pyRepr(FORMAT_NAME)}`);
  if (doc.version !== FORMAT_VERSION)
    throw new TreeFileError(`unsupported version ${pyRepr(doc.version)}: this reader knows version ${FORMAT_VERSION}`);
  for (const key of ["game", "guesses", "objective", "root"])
    if (!(key in doc)) throw new TreeFileError(`document is missing the field ${pyRepr(key)}`);
  let game;
  try {
    game = Game.fromDict(doc.game);
  } catch (err) {
    if (err instanceof GameError) throw new TreeFileError(`bad game: ${err.message}`);
    throw err;
  }
  if (!GUESS_RULES.includes(doc.guesses))
    throw new TreeFileError(`'guesses' must be one of ('any', 'consistent'), got ${pyRepr(doc.guesses)}`);
  if (typeof doc.objective !== "string" || !doc.objective)
    throw new TreeFileError(`'objective' must be a non-empty string, got ${pyRepr(doc.objective)}`);
  const cap = doc.max_guesses ?? null;
  if (cap !== null && (!isInt(cap) || cap < 1))
    throw new TreeFileError(`'max_guesses' must be a positive integer or null, got ${pyRepr(cap)}`);
  const optimal = "optimal" in doc ? doc.optimal : false;
  if (typeof optimal !== "boolean")
    throw new TreeFileError(`'optimal' must be true or false, got ${pyRepr(optimal)}`);
  const declared = doc.stats == null ? null : statsFromDocument(doc.stats);
  const meta = doc.meta ?? {};
  if (!isObject(meta)) throw new TreeFileError(`'meta' must be an object, got ${pyShort(meta)}`);
  const tree = {
    game, guesses: doc.guesses, objective: doc.objective, maxGuesses: cap, optimal, declared, meta,
    root: nodesFromDocument(doc.root),
  };
  try {
    tree.stats = replay(tree);
  } catch (err) {
    if (err instanceof GameError) throw new TreeFileError(err.message);
    throw err;
  }
  if (cap !== null && tree.stats.max > cap)
    throw new TreeFileError(`tree needs ${tree.stats.max} guesses but declares max_guesses ${cap}`);
  if (declared && JSON.stringify(declared) !== JSON.stringify(tree.stats))
    throw new TreeFileError(`stats mismatch: file declares ${pyRepr(declared)}, ` +
                            `replay finds ${pyRepr(tree.stats)}`);
  return tree;
}

function statsFromDocument(s) {
  const ok = isObject(s) && ["secrets", "total", "max"].every((k) => isInt(s[k])) &&
    Array.isArray(s.depth_counts) && s.depth_counts.every(isInt);
  if (!ok)
    throw new TreeFileError(`'stats' must hold integers secrets, total, max and a list ` +
                            `depth_counts, got ${pyShort(s)}`);
  return { secrets: s.secrets, total: s.total, max: s.max, depth_counts: s.depth_counts };
}

/** Node objects {guess, next: Map(key -> node), key, parent, depth, path} (no recursion). */
function nodesFromDocument(data) {
  const make = (d, path, key, parent) => {
    if (!isObject(d)) throw new TreeFileError(`${path}: a node must be an object, got ${pyShort(d)}`);
    if (typeof d.guess !== "string")
      throw new TreeFileError(`${path}: node has no string 'guess' (got ${pyShort(d.guess)})`);
    const extra = Object.keys(d).filter((k) => k !== "guess" && k !== "next").sort();
    if (extra.length)
      throw new TreeFileError(`${path}: unknown node field(s) [${extra.map(pyRepr).join(", ")}]`);
    const next = d.next ?? {};
    if (!isObject(next)) throw new TreeFileError(`${path}: 'next' must be an object, got ${pyShort(next)}`);
    return { guess: d.guess, next: new Map(), raw: next, key, parent,
             depth: parent ? parent.depth + 1 : 1, path };
  };
  const root = make(data, "root", null, null);
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    for (const [key, child] of Object.entries(node.raw)) {
      const made = make(child, `${node.path} > ${node.guess} ${key}`, key, node);
      node.next.set(key, made);
      stack.push(made);
    }
    delete node.raw;
  }
  return root;
}

/**
 * Replay every secret through the tree (Strategy.validate): sets on each node
 * `secrets` (the code indices reaching it), `guessIndex` and `id`, and returns
 * the stats {secrets, total, max, depth_counts}.
 */
function replay(tree) {
  const { game } = tree;
  const codes = game.codes;
  const counts = [];
  const all = Int32Array.from(codes.keys());
  const stack = [[tree.root, all, "root"]];
  let id = 0;
  tree.nodes = [];
  while (stack.length) {
    const [node, secrets, path] = stack.pop();
    node.id = id++;
    node.secrets = secrets;
    node.replayPath = path;
    tree.nodes.push(node);
    const g = game.indexOf(node.guess);
    if (g < 0) {
      try {
        game.parseCode(node.guess);
      } catch (err) {
        throw new TreeFileError(`${path}: illegal guess: ${err.message}`);
      }
      throw new TreeFileError(`${path}: illegal guess: code ${pyRepr(node.guess)} is not written ` +
                              `exactly over the alphabet ${pyRepr(game.alphabet.join(""))}`);
    }
    node.guessIndex = g;
    if (tree.guesses === "consistent" && !secrets.includes(g))
      throw new TreeFileError(`${path}: guess ${node.guess} is inconsistent with the answers on ` +
                              `its path in a consistent-guesses tree`);
    const parts = new Map();
    for (const s of secrets) {
      const key = game.answerKey(game.score(codes[g], codes[s]));
      if (!parts.has(key)) parts.set(key, []);
      parts.get(key).push(s);
    }
    if (parts.has(game.winKey)) counts[node.depth] = (counts[node.depth] || 0) + 1;
    for (const key of node.next.keys()) {
      const answer = game.parseAnswerKey(key);
      if (!answer) {
        const form = game.blackOnly ? "'{b}B'" : "'{b}B{w}W'";
        throw new TreeFileError(`${path}: malformed answer key ${pyRepr(key)} (expected ${form})`);
      }
      if (answer.black + answer.white > game.pegs)
        throw new TreeFileError(`${path}: answer key ${pyRepr(key)} exceeds ${game.pegs} pegs`);
      if (key === game.winKey)
        throw new TreeFileError(`${path}: the winning answer ${key} may not be a branch`);
    }
    const found = [...parts.keys()].sort((a, b) => game.compareKeys(a, b));
    for (const key of found) {
      if (key !== game.winKey && !node.next.has(key))
        throw new TreeFileError(`${path}: missing branch ${key} after guess ${node.guess} ` +
                                `(secret ${game.codeStr(parts.get(key)[0])} reaches it)`);
    }
    for (const key of node.next.keys()) {
      if (!parts.has(key))
        throw new TreeFileError(`${path}: unreachable branch ${key} after guess ${node.guess} ` +
                                `(no remaining secret gives that answer)`);
    }
    const keys = [...node.next.keys()].sort((a, b) => game.compareKeys(b, a));
    for (const key of keys)
      stack.push([node.next.get(key), Int32Array.from(parts.get(key)), `${path} > ${node.guess} ${key}`]);
  }
  const depthCounts = [];
  for (let d = 1; d < counts.length; d++) depthCounts.push(counts[d] || 0);
  const total = depthCounts.reduce((sum, c, i) => sum + c * (i + 1), 0);
  return { secrets: codes.length, total, max: depthCounts.length, depth_counts: depthCounts };
}

/** The tree's nodes in order of answer key, for display. */
export function sortedChildren(game, node) {
  return [...node.next.entries()].sort(([a], [b]) => game.compareKeys(a, b));
}

/** Whether the node's guess can win: some secret reaching the node is the guess. */
export function canWin(node) {
  return node.secrets.includes(node.guessIndex);
}
