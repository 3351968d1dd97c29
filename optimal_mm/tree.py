"""Strategy trees: the codebreaker's complete plan, and its replay.

A strategy tree has one guess per node and one branch per answer that can actually
occur; the all-black answer ends the game and never appears as a branch. The
format (``shared/FORMAT.md``, documented again in ``docs/FORMAT.md``) is exactly
what :meth:`Strategy.to_dict` writes and :meth:`Strategy.from_dict` reads.

Correctness is defined by *replay*: for every possible secret, start at the root,
score the node's guess, stop on all black, else follow the branch of the answer,
which must exist. :meth:`Strategy.validate` does exactly that, for all secrets at
once, a depth at a time (the secrets of every node of one depth in one array, so
that a tree of a thousand nodes costs a few array operations per depth), and
raises :class:`~optimal_mm.errors.InvalidTreeError` naming the first defect (found
again by a walk that carries the secrets of each node down the tree, one node at a
time, to say where it is):

* a guess that is not a legal code of the game;
* a guess that cannot be the secret in a consistent-only tree;
* a missing branch (an answer some secret produces, with no node);
* an unreachable branch (a node no secret reaches);
* a tree deeper than its declared guess cap;
* declared stats that differ from what replay finds.

Saving is atomic (a temporary file renamed over the target; a link is followed and
a device or pipe written through: :mod:`optimal_mm.outputs`), and files ending in
``.gz`` are gzip-compressed. Reading is bounded (:data:`MAX_TREE_BYTES`), strict
(no repeated keys) and works at any depth, as does writing
(:mod:`optimal_mm.strictjson`).
"""

from __future__ import annotations

import json
import os
import re
import reprlib
from dataclasses import dataclass, field

import numpy as np

from . import strictjson
from .errors import InvalidCodeError, InvalidGameError, InvalidTreeError, OptimalMMError
from .game import Game
from .outputs import atomic_write_bytes, atomic_write_text, is_stdout  # noqa: F401

FORMAT_NAME = "optimal-mm-strategy"
FORMAT_VERSION = 1
GUESS_RULES = ("any", "consistent")
#: The most bytes a tree file may hold, or inflate to when it is gzip-compressed,
#: checked while reading: 256 MiB, about 236 times the largest tree shipped (Logik's
#: consistent-only tree: 1,137,550 bytes of JSON for 32,768 secrets, about 35 bytes a
#: secret), so room for trees of games with several million secrets, while
#: ``/dev/zero`` or a gzip bomb costs at most that much memory.
MAX_TREE_BYTES = 256 * 2**20


@dataclass
class Node:
    """One decision: play ``guess``; on answer key ``k`` continue at ``next[k]``."""

    guess: str
    next: dict[str, "Node"] = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"guess": self.guess, "next": {}}
        # Explicit stack: trees can be deeper than Python's recursion limit.
        stack = [(self, out)]
        while stack:
            node, d = stack.pop()
            for key, child in node.next.items():
                cd = {"guess": child.guess, "next": {}}
                d["next"][key] = cd
                stack.append((child, cd))
        return out

    @classmethod
    def from_dict(cls, data, path: str = "root", strict: bool = False) -> "Node":
        """The tree below ``data``, read without recursion (any depth).

        With ``strict`` (``verify``), ``"next": null`` is refused as the schema does;
        otherwise it counts as no branches. A dict that holds itself is refused. An
        error names its node as replay does, by the guesses played and the answers
        received on the way from ``path``: ``root > 123 0B0W > 456 1B2W``.
        """
        if not isinstance(data, dict):
            raise InvalidTreeError(f"{path}: a node must be an object, got {_short(data)}")
        root = cls(_node_guess(data, path))
        stack = [(root, data, path)]
        seen = {id(data)}  # a dict built in memory may hold itself: refuse, never loop
        while stack:
            node, d, p = stack.pop()
            nxt = d.get("next", {})
            if nxt is None and not strict:
                nxt = {}
            if not isinstance(nxt, dict):
                raise InvalidTreeError(f"{p}: 'next' must be an object, got {_short(nxt)}")
            for key, cd in nxt.items():
                cp = f"{p} > {node.guess} {key}"  # the path of the docs: guesses and answers
                if not isinstance(cd, dict):
                    raise InvalidTreeError(f"{cp}: a node must be an object, got {_short(cd)}")
                if id(cd) in seen:
                    raise InvalidTreeError(f"{cp}: this node object is already in the tree "
                                           f"(a cycle or a shared subtree)")
                seen.add(id(cd))
                child = cls(_node_guess(cd, cp))
                node.next[key] = child
                stack.append((child, cd, cp))
        return root

    def iter_nodes(self):
        """Yield ``(depth, node)`` for every node, root at depth 1, depth-first."""
        stack = [(1, self)]
        while stack:
            depth, node = stack.pop()
            yield depth, node
            for key in sorted(node.next, reverse=True):
                stack.append((depth + 1, node.next[key]))

    def count(self) -> int:
        """Number of nodes."""
        return sum(1 for _ in self.iter_nodes())


def _node_guess(d: dict, path: str) -> str:
    guess = d.get("guess")
    if not isinstance(guess, str):
        raise InvalidTreeError(f"{path}: node has no string 'guess' (got {_short(guess)})")
    extra = set(d) - {"guess", "next"}
    if extra:
        raise InvalidTreeError(f"{path}: unknown node field(s) {sorted(extra)}")
    return guess


def _short(value) -> str:
    """At most 40 characters quoting ``value`` (control characters escaped), whatever it is."""
    try:
        if isinstance(value, str):
            text = repr(value[:40])
        elif value is None or isinstance(value, (bool, int, float)):
            text = json.dumps(value)
        else:
            text = reprlib.repr(value)
    except (ValueError, TypeError, RecursionError):  # a 5000-digit int, an odd object
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Stats:
    """What replay finds: secrets, guesses summed over them, the worst case, depths."""

    secrets: int
    total: int
    max: int
    depth_counts: tuple[int, ...]

    @property
    def average(self) -> float:
        return self.total / self.secrets if self.secrets else 0.0

    @property
    def at_worst(self) -> int:
        """Secrets that need all ``max`` guesses (the ``fewest-at-worst`` objective)."""
        return self.depth_counts[-1] if self.depth_counts else 0

    @property
    def at_worst_text(self) -> str:
        """``"539 secrets"``, ``"1 secret"``: :attr:`at_worst` in words."""
        return f"{self.at_worst} secret{'' if self.at_worst == 1 else 's'}"

    def to_dict(self) -> dict:
        return {"secrets": self.secrets, "total": self.total, "max": self.max,
                "depth_counts": list(self.depth_counts)}

    @classmethod
    def from_counts(cls, depth_counts) -> "Stats":
        counts = [int(c) for c in depth_counts]
        while counts and counts[-1] == 0:
            counts.pop()
        total = sum((i + 1) * c for i, c in enumerate(counts))
        return cls(sum(counts), total, len(counts), tuple(counts))

    def __str__(self) -> str:
        counts = "/".join(str(c) for c in self.depth_counts)
        return (f"secrets {self.secrets}, total {self.total}, average {self.average:.4f}, "
                f"max {self.max} (for {self.at_worst_text}), depth counts {counts}")


# Plain ASCII decimal, no leading zeros, at most two digits (a count is at most 10 pegs),
# nothing around (fullmatch: "$" would allow "\n").
_ANSWER_BW = re.compile(r"(0|[1-9][0-9]?)B(0|[1-9][0-9]?)W")
_ANSWER_B = re.compile(r"(0|[1-9][0-9]?)B")


def _guess_index(game: Game, guess, path: str) -> int:
    """Index of a node's guess, which a file must write exactly over the alphabet."""
    try:
        g = game.code_index(guess)
    except (InvalidCodeError, InvalidGameError) as exc:
        raise InvalidTreeError(f"{path}: illegal guess: {exc}") from None
    if game.code_str(g) != guess:
        # parse_code forgives spaces and case in user input; a file must be exact.
        raise InvalidTreeError(
            f"{path}: illegal guess: code {guess!r} is not written exactly over "
            f"the alphabet {game.alphabet!r}")
    return g


def answer_from_key(game: Game, key: str, path: str = "") -> int:
    """Answer id of a format answer key (``"1B2W"``, or ``"2B"`` for black-only)."""
    pattern = _ANSWER_B if game.black_only else _ANSWER_BW
    m = pattern.fullmatch(key) if isinstance(key, str) else None
    if not m:
        form = "'{b}B'" if game.black_only else "'{b}B{w}W'"
        raise InvalidTreeError(f"{path}: malformed answer key {_short(key)} (expected {form})")
    b = int(m.group(1))
    w = 0 if game.black_only else int(m.group(2))
    if b + w > game.pegs:
        raise InvalidTreeError(f"{path}: answer key {key!r} exceeds {game.pegs} pegs")
    return game.encode_answer(b, w)


def _code_ids(game: Game) -> "dict[str, int] | None":
    """The index of each code's exact string (the only strings a tree may write as a
    guess), for games whose code strings are listed (:meth:`Game.code_str`), made once
    per game; ``None`` for the others, whose guesses are parsed one by one."""
    ids = game.__dict__.get("_tree_code_ids")
    if ids is None:
        strings = game._code_strings
        if strings is None:
            return None
        ids = game.__dict__["_tree_code_ids"] = {text: i for i, text in enumerate(strings)}
    return ids


def _colour_counts(game: Game) -> np.ndarray:
    """``(N, C)`` int8: how many pegs of each colour every code has, made once per game
    (the white count of a pair is ``sum(min(guess's, secret's))`` over the colours)."""
    counts = game.__dict__.get("_tree_colour_counts")
    if counts is None:
        codes = game.codes
        counts = np.zeros((len(codes), game.colours), dtype=np.int8)
        rows = np.arange(len(codes))
        for peg in range(game.pegs):
            np.add.at(counts, (rows, codes[:, peg]), 1)
        game.__dict__["_tree_colour_counts"] = counts
    return counts


#: Pairs scored in one go by :func:`_answers_of`: a few MiB of temporaries at most.
_PAIRS_AT_ONCE = 1 << 16


def _answers_of(game: Game, table, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Answer of each ``guesses[i]`` against ``secrets[i]``: from the answer table when
    it is built, else scored as whole arrays, by the rule of :meth:`Game.score`
    (black: the pegs that agree; white: the colours in common, less the black), a
    slice of pairs at a time. A tree's level has as many distinct guesses as nodes,
    so scoring a guess at a time (:meth:`Game.answers`) would cost one call per node.
    """
    if table is not None:
        return table[guesses, secrets]
    codes = game.codes
    counts = None if game.black_only else _colour_counts(game)
    out = np.empty(len(secrets), dtype=np.int64)
    for start in range(0, len(secrets), _PAIRS_AT_ONCE):
        part = slice(start, start + _PAIRS_AT_ONCE)
        g, s = guesses[part], secrets[part]
        black = np.count_nonzero(codes[g] == codes[s], axis=1)
        if counts is None:
            out[part] = black
        else:
            common = np.minimum(counts[g], counts[s]).sum(axis=1, dtype=np.int64)
            out[part] = game.encode_answer(black, common - black)
    return out


@dataclass
class Strategy:
    """A complete strategy tree with its rules and provenance.

    Parameters
    ----------
    game : Game
    root : Node
    guesses : {"any", "consistent"}
        Whether every guess must be a code still possible given its path.
    objective : str
        ``"worst-case"``, ``"expected"`` or the heuristic's name.
    max_guesses : int or None
        The cap the tree was built under.
    optimal : bool
        True only when a solver proved no tree under the same rules does better.
    declared : Stats or None
        The stats a loaded file declares (checked by :meth:`validate`).
    meta : dict
        Free-form provenance.
    """

    game: Game
    root: Node
    guesses: str = "any"
    objective: str = "expected"
    max_guesses: int | None = None
    optimal: bool = False
    declared: Stats | None = None
    meta: dict = field(default_factory=dict)

    # ---------------------------------------------------------------- replay
    def validate(self) -> Stats:
        """Replay every secret; return the stats or raise naming the first defect.

        Also checks the declared stats (when present) and the guess cap.
        """
        stats = self._replay()
        if self.max_guesses is not None and stats.max > self.max_guesses:
            raise InvalidTreeError(
                f"tree needs {stats.max} guesses but declares max_guesses {self.max_guesses}"
            )
        if self.declared is not None and self.declared != stats:
            raise InvalidTreeError(
                f"stats mismatch: file declares {self.declared.to_dict()}, "
                f"replay finds {stats.to_dict()}"
            )
        return stats

    def stats(self) -> Stats:
        """Stats found by replay (raises like :meth:`validate` on a broken tree)."""
        return self._replay()

    def _replay(self) -> Stats:
        if self.guesses not in GUESS_RULES:
            raise InvalidTreeError(f"'guesses' must be one of {GUESS_RULES}, got {self.guesses!r}")
        stats = self._replay_levels()
        # On a defect, replay again node by node to name the first one with its path.
        return self._replay_walk() if stats is None else stats

    def _replay_levels(self) -> "Stats | None":
        """Replay every secret a depth at a time: the stats, or ``None`` as soon as
        anything is wrong (then :meth:`_replay_walk` says what).

        The nodes one depth down are a list, the secrets that reach them one array
        beside the index of the node each reaches. A pass over the level's nodes in
        Python reads their guesses and answer keys (each distinct string parsed once)
        into a table ``child[node, answer]``; the rest is whole-array work, the same
        checks as the walk's: the answers of every secret (one look-up in the answer
        table), the wins, a consistent tree's guess among its node's secrets (a node
        has at most one winning secret, the guess itself, so each node must have
        one), a missing branch (a secret whose answer has no child), an unreachable
        one (a child no secret reaches). A tree of ``m`` nodes costs ``m`` short
        steps of Python and a few array operations per depth, instead of a dozen
        array operations per node.
        """
        game = self.game
        slots, win = game.n_answer_slots, game.win
        table = game.__dict__.get("_answer_table")
        consistent = self.guesses == "consistent"
        exact = _code_ids(game)  # every code's string: any other guess is a defect
        guess_ids: dict = {} if exact is None else exact
        key_ids: dict = {}
        level = [self.root]
        secrets = np.arange(game.n_codes, dtype=np.int64)
        at = np.zeros(len(secrets), dtype=np.int64)  # the node of `level` each reaches
        counts = []
        while len(secrets):
            guesses = np.empty(len(level), dtype=np.int64)
            child = np.full(len(level) * slots, -1, dtype=np.int64)
            below: list = []
            for i, node in enumerate(level):
                guess = node.guess
                g = guess_ids.get(guess) if isinstance(guess, str) else None
                if g is None:
                    if exact is not None:
                        return None
                    try:
                        g = guess_ids[guess] = _guess_index(game, guess, "")
                    except InvalidTreeError:
                        return None
                guesses[i] = g
                base = i * slots
                for key, sub in node.next.items():
                    a = key_ids.get(key) if isinstance(key, str) else None
                    if a is None:
                        try:
                            a = key_ids[key] = answer_from_key(game, key)
                        except InvalidTreeError:
                            return None
                    if a == win or child[base + a] >= 0:
                        return None
                    child[base + a] = len(below)
                    below.append(sub)
            answers = _answers_of(game, table, guesses[at], secrets)
            won = answers == win
            wins = int(np.count_nonzero(won))
            if consistent and wins != len(level):
                return None
            counts.append(wins)
            left = ~won
            secrets = secrets[left]
            at = child[at[left] * slots + answers[left]]
            if len(at) and at.min() < 0:
                return None
            if np.count_nonzero(np.bincount(at, minlength=len(below))) != len(below):
                return None
            level = below
        return Stats.from_counts(counts)

    def _replay_walk(self) -> Stats:
        """The reference replay: one node at a time, depth-first, the lowest answer
        first, carrying the secrets that reach each node; raises at the first defect
        in that order (what :meth:`validate` names)."""
        game = self.game
        n = game.n_codes
        table = game.__dict__.get("_answer_table")  # scored already: look answers up
        guess_ids: dict = {}  # guess strings and answer keys seen valid, parsed once
        key_ids: dict = {}
        counts: dict[int, int] = {}
        stack = [(self.root, np.arange(n, dtype=np.int64), 1, "root")]
        while stack:
            node, secrets, depth, path = stack.pop()
            g = guess_ids.get(node.guess) if isinstance(node.guess, str) else None
            if g is None:
                g = _guess_index(game, node.guess, path)
                guess_ids[node.guess] = g
            if self.guesses == "consistent" and not np.any(secrets == g):
                raise InvalidTreeError(
                    f"{path}: guess {node.guess} is inconsistent with the answers on its path "
                    f"in a consistent-guesses tree"
                )
            answers = table[g][secrets] if table is not None else game.answers(g, secrets)
            found = np.bincount(answers, minlength=game.n_answer_slots)
            if found[game.win]:
                counts[depth] = counts.get(depth, 0) + int(found[game.win])
            keys = {}
            for key in node.next:
                a = key_ids.get(key) if isinstance(key, str) else None
                if a is None:
                    a = answer_from_key(game, key, path)
                    key_ids[key] = a
                if a == game.win:
                    raise InvalidTreeError(f"{path}: the winning answer {key} may not be a branch")
                if a in keys:
                    raise InvalidTreeError(f"{path}: answer {key} appears twice")
                keys[a] = key
            for a in np.flatnonzero(found):
                a = int(a)
                if a != game.win and a not in keys:
                    example = game.code_str(int(secrets[np.argmax(answers == a)]))
                    raise InvalidTreeError(
                        f"{path}: missing branch {game.answer_str(a)} after guess {node.guess} "
                        f"(secret {example} reaches it)"
                    )
            for a, key in keys.items():
                if not found[a]:
                    raise InvalidTreeError(
                        f"{path}: unreachable branch {key} after guess {node.guess} "
                        f"(no remaining secret gives that answer)"
                    )
            for a, key in sorted(keys.items(), reverse=True):
                stack.append((node.next[key], secrets[answers == a], depth + 1,
                              f"{path} > {node.guess} {key}"))
        depth_counts = [counts.get(d, 0) for d in range(1, max(counts) + 1)]
        return Stats.from_counts(depth_counts)

    def path_for(self, secret: "str | int") -> list[str]:
        """The guesses the tree plays against ``secret``, the winning guess last."""
        game = self.game
        s = game.code_index(secret)
        node, out = self.root, []
        while True:
            out.append(node.guess)
            a = game.score(node.guess, s)
            if a == game.win:
                return out
            key = game.answer_str(a)
            if key not in node.next:
                raise InvalidTreeError(f"tree has no branch {key} after {'/'.join(out)}")
            node = node.next[key]

    # ------------------------------------------------------------ JSON form
    def to_dict(self, stats: Stats | None = None) -> dict:
        """The interchange document (stats computed by replay unless given)."""
        if stats is None:
            stats = self.validate()
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "game": self.game.to_dict(),
            "guesses": self.guesses,
            "objective": self.objective,
            "max_guesses": self.max_guesses,
            "optimal": bool(self.optimal),
            "stats": stats.to_dict(),
            "root": self.root.to_dict(),
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, doc, strict: bool = False) -> "Strategy":
        """Read an interchange document; raises :class:`InvalidTreeError` on bad shape.

        Field types are always checked exactly (``"version": true`` or ``1.0`` is not
        version 1, a stat must be an integer, not ``"73"`` or ``73.0``). With
        ``strict`` (what ``verify`` uses), the document must also hold every field
        that ``optimal_mm/strategy.schema.json`` requires (``stats`` aside: the caller
        checks that it is there) and no other.
        """
        if not isinstance(doc, dict):
            raise InvalidTreeError(f"a strategy document must be a JSON object, got {_short(doc)}")
        if doc.get("format") != FORMAT_NAME:
            raise InvalidTreeError(
                f"wrong format {reprlib.repr(doc.get('format'))}: expected {FORMAT_NAME!r}")
        version = doc.get("version")
        if not _is_int(version) or version != FORMAT_VERSION:
            raise InvalidTreeError(
                f"unsupported version {_short(version)}: this reader knows version "
                f"{FORMAT_VERSION}")
        # Missing stats are left to the caller, who can say what replay finds.
        required = ([k for k in _REQUIRED if k != "stats"] if strict
                    else ("game", "guesses", "objective", "root"))
        for key in required:
            if key not in doc:
                raise InvalidTreeError(f"document is missing the field {key!r}")
        if strict:
            extra = sorted(set(doc) - set(_REQUIRED) - {"meta"})
            if extra:
                raise InvalidTreeError(f"unknown field(s) {_short(extra)}")
            game_doc = doc["game"]
            if isinstance(game_doc, dict):
                for key in _GAME_FIELDS:
                    if key not in game_doc:
                        raise InvalidTreeError(f"bad game: game is missing the field {key!r}")
                extra = sorted(set(game_doc) - set(_GAME_FIELDS))
                if extra:
                    raise InvalidTreeError(f"bad game: unknown field(s) {_short(extra)}")
        try:
            game = Game.from_dict(doc["game"])
        except InvalidGameError as exc:
            raise InvalidTreeError(f"bad game: {exc}") from None
        guesses = doc["guesses"]
        if guesses not in GUESS_RULES:
            raise InvalidTreeError(f"'guesses' must be one of {GUESS_RULES}, got {guesses!r}")
        objective = doc["objective"]
        if not isinstance(objective, str) or not objective:
            raise InvalidTreeError(f"'objective' must be a non-empty string, got {objective!r}")
        cap = doc.get("max_guesses")
        if cap is not None and (not _is_int(cap) or cap < 1):
            raise InvalidTreeError(f"'max_guesses' must be a positive integer or null, got {cap!r}")
        optimal = doc.get("optimal", False)
        if not isinstance(optimal, bool):
            raise InvalidTreeError(f"'optimal' must be true or false, got {optimal!r}")
        declared = None
        if doc.get("stats") is not None:
            declared = _stats_from_doc(doc["stats"])
        meta = doc.get("meta", {})
        if meta is None and not strict:  # as "next": null, the lenient reader's "none"
            meta = {}
        if not isinstance(meta, dict):  # [], "", 0 and false too: not only what is true
            raise InvalidTreeError(f"'meta' must be an object, got {_short(meta)}")
        return cls(game, Node.from_dict(doc["root"], strict=strict), guesses, objective, cap,
                   optimal, declared, meta)

    # ---------------------------------------------------------------- files
    def save(self, path: "str | os.PathLike", indent: int | None = None,
             stats: Stats | None = None) -> Stats:
        """Validate, then write atomically (gzip when the name ends in ``.gz``, in any case).

        ``path`` may be ``"-"`` (standard output, plain JSON) or a device such as
        ``/dev/null``, which is written through, never replaced
        (:func:`~optimal_mm.outputs.atomic_write_bytes`). ``stats``: what
        :meth:`validate` returned for this tree, unchanged since (the solver validates
        every tree it builds), so that it is not replayed a second time.
        """
        if stats is None:
            stats = self.validate()
        try:
            text = strictjson.dumps(self.to_dict(stats), sort_keys=True, indent=indent)
        except (TypeError, ValueError) as exc:  # meta holding what JSON cannot
            raise InvalidTreeError(f"the tree cannot be written as JSON: {exc}") from None
        data = text.encode("utf-8")
        if str(path).lower().endswith(".gz") and not is_stdout(path):
            # zlib's default level: p5c4's expected tree (36 KB of JSON) in 0.5 ms
            # to 4,635 bytes, against 2.1 ms to 4,408 at gzip's default of 9.
            import gzip  # here, not at import: a solve written to a stream never needs it

            data = gzip.compress(data, compresslevel=6, mtime=0)
        atomic_write_bytes(path, data)
        return stats

    @classmethod
    def load(cls, path: "str | os.PathLike") -> "Strategy":
        """Read a ``.json`` or ``.json.gz`` tree (shape checked, not yet replayed).

        The file may be at most :data:`MAX_TREE_BYTES` long, inflated.
        """
        return cls.from_dict(read_json(path))


_REQUIRED = ("format", "version", "game", "guesses", "objective", "max_guesses", "optimal",
             "stats", "root")
_GAME_FIELDS = ("pegs", "colours", "repeats", "scoring", "alphabet")
_STATS_FIELDS = ("secrets", "total", "max", "depth_counts")


def _is_int(value) -> bool:
    """A JSON integer: an ``int`` that is not a ``bool`` (``1.0`` and ``true`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _stats_from_doc(s) -> Stats:
    """The declared stats, which must be exactly the schema's: four fields, integers."""
    ok = (isinstance(s, dict) and set(s) == set(_STATS_FIELDS)
          and all(_is_int(s[k]) and s[k] >= 0 for k in ("secrets", "total", "max"))
          and isinstance(s["depth_counts"], list)
          and all(_is_int(c) and c >= 0 for c in s["depth_counts"]))
    if not ok:
        raise InvalidTreeError(
            f"'stats' must hold exactly the integers secrets, total, max and a list of "
            f"integers depth_counts, got {_short(s)}")
    return Stats(s["secrets"], s["total"], s["max"], tuple(s["depth_counts"]))


def read_json(path: "str | os.PathLike"):
    """Parse a JSON (optionally gzip) file, mapping every failure to one clear error.

    The file and what it inflates to are bounded by :data:`MAX_TREE_BYTES` (checked
    while reading), the JSON is read strictly (:mod:`optimal_mm.strictjson`: no
    repeated keys, no ``NaN``, no absurdly long integers) and may nest to any depth.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidTreeError(f"a tree file must be named by a path, got {_short(path)}")
    import gzip  # here, not at import: a command that reads no tree never needs it
    import zlib

    name = repr(os.fsdecode(os.fspath(path)))
    try:
        raw = strictjson.read_bounded(path, MAX_TREE_BYTES)
    except strictjson.JSONError as exc:
        raise InvalidTreeError(f"{name} is {exc}: not a strategy tree") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InvalidTreeError(f"{name} is a damaged gzip file: {exc}") from None
    except OSError as exc:
        raise InvalidTreeError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        return strictjson.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidTreeError(f"{name} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        # A string left open runs to the end of the file: the file was cut short.
        cut = exc.pos >= len(raw.rstrip()) - 1 or exc.msg.startswith("Unterminated string")
        what = "truncated" if cut else "malformed"
        raise InvalidTreeError(
            f"{name} is {what} JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:  # strictjson.JSONError, or a number Python cannot convert
        raise InvalidTreeError(f"{name} is not strict JSON: {exc}") from None


def verify_document(doc) -> "tuple[Strategy, Stats]":
    """The checks of ``optimal-mm verify`` on a parsed tree file: the strategy and the
    stats its replay finds, or :class:`InvalidTreeError` naming the first defect.

    The document is read as strictly as the schema (:meth:`Strategy.from_dict` with
    ``strict``), every secret is replayed (:meth:`Strategy.validate`, which also
    checks the guess cap and the declared stats), and, unlike ``validate``, the stats
    must be declared: a file that passes makes no claim that was not checked. Whoever
    publishes trees (``optimal-mm site``, ``serve``) calls this, so that they offer
    only what ``verify`` accepts.
    """
    strategy = Strategy.from_dict(doc, strict=True)
    stats = strategy.validate()
    if strategy.declared is None:
        raise InvalidTreeError(f"the file declares no 'stats' (replay finds {stats.to_dict()})")
    return strategy, stats


def load_verified(path: "str | os.PathLike") -> "tuple[Strategy, Stats]":
    """Read the tree file ``path`` (:func:`read_json`) and check it as
    :func:`verify_document` does; a defect is raised as one
    :class:`InvalidTreeError` that names the file first."""
    doc = read_json(path)
    try:
        return verify_document(doc)
    except OptimalMMError as exc:
        raise InvalidTreeError(f"{os.fsdecode(os.fspath(path))!r}: {exc}") from None


def grow(game: Game, choose, secrets=None) -> Node:
    """Build a complete tree by asking ``choose(secrets, depth)`` for each node's guess.

    ``secrets`` is the int64 array of code indices that reach the node (all codes
    at the root); ``choose`` returns a code index. Raises :class:`InvalidTreeError`
    if a guess leaves a non-empty set unchanged while not winning (the tree would
    never end).
    """
    all_secrets = np.arange(game.n_codes, dtype=np.int64) if secrets is None else secrets
    g = int(choose(all_secrets, 1))
    root = Node(game.code_str(g))
    stack = [(root, g, all_secrets, 1)]
    while stack:
        node, g, secrets, depth = stack.pop()
        answers = game.answers(g, secrets)
        for a in np.unique(answers):
            a = int(a)
            if a == game.win:
                continue
            part = secrets[answers == a]
            if len(part) == len(secrets):
                raise InvalidTreeError(
                    f"guess {game.code_str(g)} does not split {len(part)} remaining secrets")
            cg = int(choose(part, depth + 1))
            child = Node(game.code_str(cg))
            node.next[game.answer_str(a)] = child
            stack.append((child, cg, part, depth + 1))
    return root
