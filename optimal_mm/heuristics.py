"""One-move-lookahead heuristics: fast, good, not optimal strategies.

A heuristic picks each guess by looking one move ahead. Given the set ``S`` of
secrets still possible, a candidate guess ``g`` splits ``S`` into *parts*, one
per answer (the *partition* of ``S`` by ``g``). A good guess leaves small parts,
and the score-based heuristics differ only in how they measure "small":

``knuth``
    Minimise the largest part (Knuth 1977): the worst case of the next move.
``entropy``
    Maximise the entropy of the answer, ``-sum p log2 p`` with ``p = |part| / |S|``
    (Neuwirth 1982): the expected information gained.
``most-parts``
    Maximise the number of non-empty parts (Kooi 2005).
``expected-size``
    Minimise ``sum |part|**2`` (Irving 1979), which is ``|S|`` times the expected
    size of the part the secret falls in.

Every part counts, the all-black one (size 1 when ``g`` is in ``S``) included.
Ties are broken the same way for all four: prefer a guess that may be the secret
(it is in ``S``, so it may win at once), then the lowest code index. Two rules
need no scores:

``first-consistent``
    Play the lowest-index code still possible.
``random-consistent``
    Play a code still possible, drawn by a generator seeded from ``seed`` and the
    remaining set itself, so a tree and a live game (which reach the same node
    through the same answers) play the same code.

One rule mixes both, as the Slovak Logik program (seed 002) describes it:

``logik``
    Open with "two pairs" (``1122``, ``11223``, ``112233``: colours ``1, 1, 2, 2,
    3, 3, ...``); then play the first code still possible while at least
    :data:`LOGIK_THRESHOLD` (2000) remain; below that, Knuth's minimax over every
    code when the game has at most 2000 codes, else over the remaining codes only.
    Ties as above: a possible secret first, then the lowest code.

Exact shortcuts
---------------
These never change which guess is chosen:

* With one or two secrets left every heuristic plays the lowest remaining code
  (a consistent guess then splits ``S`` into singletons, which no guess beats).
* At the root (every code possible) the score of a guess depends only on its
  *colour pattern*: renaming colours maps the codes onto themselves, so ``1123``
  and ``5536`` split the codes into parts of the same sizes under the same
  answers. The lowest-index code of each pattern is the one whose colours appear
  in order ``0, 1, 2, ...``, so only those few codes are scored (15 for
  Mastermind, one for a game without repeats). This makes the first move cheap
  even for games with millions of codes.

Every move under the clock
--------------------------
Every move, the first included, is scored in chunks (the first of
:data:`FIRST_CHUNK_WORK` answers, the next sized at the speed measured to take
about :data:`CHUNK_SECONDS`), with a look at the clock between two chunks: once
``move_time`` seconds have been spent, the best guess *scored so far* is played
and the move is reported as cut short (:class:`MoveReport`, read from the
chooser's ``last_move``). A move is deterministic as long as the budget is not
hit; when it is, the choice depends on the machine's speed.

When scoring every candidate would take more than :data:`FULL_WORK` answers
(never for Mastermind or Bulls and Cows, whose trees are therefore exact to the
rules above), the candidates are first *ranked* by their scores on a seeded
sample of :data:`RANK_SECRETS` remaining secrets and then scored exactly in that
order, so that the guesses most likely to be best are scored before the clock
runs out. At the root of p8c8 that ranks the 4,140 colour patterns in a moment
and scores the most promising ones against all 16.8 million codes first. Beyond
the root, the candidates of such big moves are the remaining codes plus a random
sample of other codes (seeded from ``seed`` and ``S``), at most
:data:`MAX_RANKED` of them ranked.

>>> from optimal_mm import Game
>>> game = Game.from_spec("mastermind")
>>> choose = make_chooser(game, "knuth")
>>> game.code_str(choose(np.arange(game.n_codes), 1))
'1122'
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

import numpy as np

from . import __version__
from .errors import InvalidOptionError, UnknownHeuristicError
from .game import Game, as_game, partition_counts
from .tree import Strategy, grow

#: The heuristics this module knows, by name.
HEURISTICS = ("knuth", "entropy", "most-parts", "expected-size", "first-consistent",
              "random-consistent", "logik")
#: Heuristics that play only codes that may still be the secret.
CONSISTENT_HEURISTICS = ("first-consistent", "random-consistent")
#: Score every legal code as long as ``N * |S|`` stays under this many answers.
FULL_WORK = 60_000_000
#: In a big game, sample about this many answers' worth of other codes per move.
SAMPLE_WORK = 20_000_000
#: ... but never fewer than this many other codes, nor more than MAX_SAMPLE.
MIN_SAMPLE = 256
MAX_SAMPLE = 200_000
#: Answers computed per chunk between two looks at the clock: at most ...
CHUNK_WORK = 20_000_000
#: ... and at first, after which a chunk takes about CHUNK_SECONDS at the speed measured;
#: never more than MAX_CHUNK_GUESSES guesses (their part counts are held at once).
FIRST_CHUNK_WORK = 1_000_000
CHUNK_SECONDS = 0.5
MAX_CHUNK_GUESSES = 65_536
#: Candidates of a big move are ranked on a sample of this many remaining secrets ...
RANK_SECRETS = 2048
#: ... and at most this many candidates are ranked (and so scored) in one move.
MAX_RANKED = 16_384
#: Remaining sets larger than this are hashed (for seeds) by a subset of this size.
HASHED_SECRETS = 1_000_000
#: ``logik`` plays the first consistent code while at least this many codes remain,
#: and its minimax looks at every code only in games of at most this many codes.
LOGIK_THRESHOLD = 2000


@dataclass(frozen=True)
class MoveReport:
    """How one move was chosen.

    Attributes
    ----------
    scored : int
        Candidate guesses scored exactly against every remaining secret.
    candidates : int
        Candidate guesses the move meant to score.
    seconds : float
        Wall time of the move.
    cut_short : bool
        Whether the clock stopped the scoring before every candidate was scored
        (the best guess scored so far was played).
    note : str
        Anything else the player should know about the move.
    """

    scored: int
    candidates: int
    seconds: float
    cut_short: bool
    note: str = ""

    def describe(self) -> str:
        """One line for the player: what the clock did to this move.

        >>> MoveReport(120, 4140, 60.2, True).describe()
        'move cut short after 60.2 s: best of 120 of 4,140 candidate guesses scored'
        """
        note = f"; {self.note}" if self.note else ""
        if self.cut_short:
            return (f"move cut short after {self.seconds:.1f} s: best of {self.scored:,} of "
                    f"{self.candidates:,} candidate guesses scored{note}")
        return f"{self.scored:,} candidate guesses scored in {self.seconds:.1f} s{note}"


def check_heuristic(name: str, also: tuple[str, ...] = ()) -> str:
    """Return ``name`` if it is a known heuristic, else raise.

    ``also`` names other players the caller accepts, listed in the message.

    Raises
    ------
    UnknownHeuristicError
        Quoting the name and listing the valid ones.

    >>> check_heuristic("knuth")
    'knuth'
    """
    if name not in HEURISTICS:
        raise UnknownHeuristicError(
            f"unknown heuristic {name!r}: choose one of {', '.join(HEURISTICS + also)}")
    return name


def check_move_time(move_time) -> float:
    """Seconds one move may take: a finite number above 0, the one rule of every caller.

    >>> check_move_time(5), check_move_time("0.5")
    (5.0, 0.5)
    >>> check_move_time(float("nan"))
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --move-time must be a finite number of seconds above 0, got nan
    """  # noqa: E501 (a doctest's output line)
    try:
        value = float(move_time) if not isinstance(move_time, bool) else math.nan
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise InvalidOptionError(f"--move-time must be a finite number of seconds above 0, "
                                 f"got {move_time!r}")
    return value


def make_chooser(game: Game, name: str, first: str | None = None, seed: int = 0,
                 move_time: float = 60.0, consistent: bool = False) -> "HeuristicChooser":
    """A function that plays the heuristic ``name`` in ``game``.

    Parameters
    ----------
    game : Game
    name : str
        One of :data:`HEURISTICS`.
    first : str, optional
        A code to play first instead of the heuristic's own choice; used when
        ``depth == 1`` and every code is still possible.
    seed : int
        Seeds ``random-consistent`` and the candidate sample of big games.
    move_time : float
        Seconds one move may take (see the module docstring).
    consistent : bool
        Score only the codes that may still be the secret (the scoring heuristics
        restricted to consistent guesses, as a player who never guesses a code
        already ruled out); the first move still scores one code of each pattern,
        since every code is possible then. The consistent heuristics play so anyway.

    Returns
    -------
    HeuristicChooser
        ``choose(secrets, depth) -> int``: the code index to play when the
        ``secrets`` (an int64 array of code indices, in any order) are still
        possible, at guess number ``depth`` (1 for the first guess). Its
        ``last_move`` (a :class:`MoveReport`) says how the last move went.

    Raises
    ------
    UnknownHeuristicError
        For a name not in :data:`HEURISTICS`.
    InvalidCodeError
        For a ``first`` that is not a legal code of the game.
    InvalidOptionError
        For ``consistent`` with ``logik``, whose opening is not a consistent rule.
    """
    check_heuristic(name)
    if consistent and name == "logik":
        raise InvalidOptionError("logik opens with two pairs whatever is possible: "
                                 "it has no consistent-guesses form")
    first_index = None if first is None else game.code_index(first)
    return HeuristicChooser(game, name, first_index, int(seed), check_move_time(move_time),
                            bool(consistent))


class HeuristicChooser:
    """``choose(secrets, depth) -> code index`` for one heuristic; see :func:`make_chooser`.

    Attributes
    ----------
    last_move : MoveReport or None
        How the last move was chosen (None before the first).
    """

    def __init__(self, game: Game, name: str, first_index: int | None, seed: int,
                 move_time: float, consistent: bool = False):
        self.game, self.name, self.seed, self.move_time = game, name, seed, move_time
        self.first_index, self.consistent = first_index, consistent
        self.last_move: MoveReport | None = None

    def __call__(self, secrets, depth: int) -> int:
        start = time.perf_counter()
        secrets = sorted_distinct(secrets)
        if len(secrets) == 0:
            raise ValueError("no secret is possible: nothing to choose from")
        guess, scored, candidates = self._choose(secrets, depth, start + self.move_time)
        self.last_move = MoveReport(scored, candidates, time.perf_counter() - start,
                                    scored < candidates)
        return guess

    def _choose(self, secrets: np.ndarray, depth: int, deadline: float):
        """(guess, candidates scored, candidates meant to be scored)."""
        game, name = self.game, self.name
        everything = len(secrets) == game.n_codes
        if self.first_index is not None and depth == 1 and everything:
            return self.first_index, 1, 1
        if name == "logik" and everything:
            return game.index_of_colours(two_pairs(game)), 1, 1
        if (len(secrets) <= 2 or name == "first-consistent"
                or (name == "logik" and len(secrets) >= LOGIK_THRESHOLD)):
            return int(secrets[0]), 1, 1
        if name == "random-consistent":
            rng = _rng(self.seed, secrets, b"random-consistent")
            return int(secrets[rng.integers(len(secrets))]), 1, 1
        if name == "logik":
            pool = (np.arange(game.n_codes, dtype=np.int64)
                    if game.n_codes <= LOGIK_THRESHOLD else secrets)
            return _best_of(game, "knuth", pool, secrets, self.seed, deadline)
        return _best_scored(game, name, secrets, self.seed, deadline, self.consistent)


def sorted_distinct(codes) -> np.ndarray:
    """The code indices sorted and without repeats, as int64; O(N) when they already are.

    (``np.unique`` hashes, which takes a minute on the 16.8 million codes of p8c8.)

    >>> sorted_distinct([3, 1, 3, 2]).tolist()
    [1, 2, 3]
    """
    codes = np.asarray(codes, dtype=np.int64)
    if len(codes) < 2 or bool(np.all(codes[1:] > codes[:-1])):
        return codes
    codes = np.sort(codes)
    return codes[np.concatenate(([True], codes[1:] != codes[:-1]))]


def two_pairs(game: Game) -> tuple[int, ...]:
    """The "two pairs" opening of the Logik rule: colours ``0, 0, 1, 1, 2, 2, ...``.

    Knuth's ``1122`` for four pegs, ``11223`` for five, ``112233`` for six (seed
    002); colours wrap round when there are too few, and a game without repeats
    gets its lowest code instead.

    >>> from optimal_mm import Game
    >>> games = [Game.from_spec(s) for s in ("p4c6", "p5c8", "p6c7")]
    >>> [g.format_code(two_pairs(g)) for g in games]
    ['1122', '11223', '112233']
    """
    if not game.repeats:
        return tuple(range(game.pegs))
    return tuple((i // 2) % game.colours for i in range(game.pegs))


def build_strategy(game: Game, name: str, first: str | None = None, seed: int = 0,
                   move_time: float = 60.0, consistent: bool = False) -> Strategy:
    """The complete strategy tree that heuristic ``name`` plays in ``game``.

    Parameters are those of :func:`make_chooser`. The tree's ``objective`` is the
    heuristic's name, ``optimal`` is false, ``guesses`` is ``"consistent"`` for the
    heuristics that only play possible codes and with ``consistent``, and ``meta``
    records the solver, the wall time and the parameters.

    >>> from optimal_mm import Game
    >>> tree = build_strategy(Game.from_spec("p3c3"), "knuth")
    >>> print(tree.validate())
    secrets 27, total 74, average 2.7407, max 4 (for 2 secrets), depth counts 1/7/17/2
    """
    game = as_game(game)
    game.check_enumerable("build a whole strategy tree for")
    start = time.perf_counter()
    choose = make_chooser(game, name, first=first, seed=seed, move_time=move_time,
                          consistent=consistent)
    root = grow(game, choose)
    seconds = time.perf_counter() - start
    meta = {"solver": f"optimal_mm {__version__}", "seconds": round(seconds, 3),
            "heuristic": name, "first": first, "seed": seed, "move_time": move_time,
            "consistent": bool(consistent)}
    consistent = consistent or name in CONSISTENT_HEURISTICS
    return Strategy(game, root, guesses="consistent" if consistent else "any",
                    objective=name, max_guesses=None, optimal=False, meta=meta)


# --------------------------------------------------------------------- scoring
def partition_keys(name: str, counts: np.ndarray, n: int) -> np.ndarray:
    """Keys to *minimise* for each row of a ``(G, A)`` partition-count array.

    ``knuth``: the largest part; ``most-parts``: minus the number of parts;
    ``expected-size``: the sum of squared part sizes; ``entropy``:
    ``sum c log2 c`` over the parts, since the entropy is ``log2 n - that / n``.
    Entropy keys are computed from each row's sorted counts and rounded to 1e-8,
    so two guesses with the same part sizes (or sizes that tie exactly, like
    4+1+1+1+1 and 2+2+2+2) get equal keys.
    """
    if name == "knuth":
        return counts.max(axis=1).astype(np.int64)
    if name == "most-parts":
        return -np.count_nonzero(counts, axis=1).astype(np.int64)
    if name == "expected-size":
        c = counts.astype(np.int64)
        return (c * c).sum(axis=1)
    if name == "entropy":
        return np.round(_xlogx_sums(counts), 8)
    raise UnknownHeuristicError(f"heuristic {name!r} does not score partitions")


def _xlogx_sums(counts: np.ndarray) -> np.ndarray:
    c = np.sort(counts, axis=1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(c > 0, c * np.log2(np.where(c > 0, c, 1.0)), 0.0)
    return terms.sum(axis=1)


def entropy_of(counts: np.ndarray, n: int) -> np.ndarray:
    """Entropy in bits of the answer, for each row of a ``(G, A)`` count array."""
    if n <= 0:
        return np.zeros(len(counts))
    return np.log2(n) - _xlogx_sums(counts) / n


def pattern_representatives(game: Game) -> np.ndarray:
    """Indices of the lowest-index code of every colour pattern, in increasing order.

    A code is its pattern's lowest when its colours first appear in the order
    0, 1, 2, ... (so ``1123``, ``1213`` but not ``2113``). Renaming colours is a
    symmetry of every game here, so at the root these codes score exactly like
    all codes.

    >>> from optimal_mm import Game
    >>> g = Game.from_spec("mastermind")
    >>> [g.code_str(i) for i in pattern_representatives(g)][:5]
    ['1111', '1112', '1121', '1122', '1123']
    >>> g = Game.from_spec("p4c10n")
    >>> [g.code_str(i) for i in pattern_representatives(g)]
    ['0123']
    """
    out = []

    def extend(prefix: list[int], used: int):
        if len(prefix) == game.pegs:
            out.append(game.index_of_colours(prefix))
            return
        for c in range(min(used + 1, game.colours)):
            if c < used and not game.repeats:
                continue
            extend(prefix + [c], max(used, c + 1))

    extend([], 0)
    return np.array(sorted(out), dtype=np.int64)


def _rng(seed: int, secrets: np.ndarray, salt: bytes) -> np.random.Generator:
    """A generator seeded from ``seed`` and the (sorted) remaining set only.

    Sets of more than :data:`HASHED_SECRETS` codes are hashed by their size and an
    evenly spaced subset of that many (hashing all 16.8 million codes of p8c8 at
    every move would cost seconds).
    """
    h = hashlib.blake2b(digest_size=16)
    h.update(salt)
    h.update(int(seed).to_bytes(16, "little", signed=True))
    if len(secrets) > HASHED_SECRETS:
        h.update(len(secrets).to_bytes(8, "little"))
        secrets = secrets[::len(secrets) // HASHED_SECRETS + 1]
    h.update(np.ascontiguousarray(secrets, dtype="<i8").tobytes())
    return np.random.default_rng(int.from_bytes(h.digest(), "little"))


def counts_for(game: Game, guesses, secrets) -> np.ndarray:
    """:func:`optimal_mm.game.partition_counts` (on one thread when the work is small:
    :data:`optimal_mm.kernels.PARALLEL_WORK`)."""
    return partition_counts(game, np.asarray(guesses, dtype=np.int64), secrets)


def _pick(keys: np.ndarray, candidates: np.ndarray, secrets: np.ndarray) -> int:
    """Lowest key; among ties a possible secret; then the lowest index."""
    tied = candidates[keys == keys.min()]
    consistent = tied[np.isin(tied, secrets, assume_unique=True)]
    return int((consistent if len(consistent) else tied).min())


def _best_scored(game: Game, name: str, secrets: np.ndarray, seed: int, deadline: float,
                 consistent: bool = False):
    """(guess, scored, candidates) of a scoring heuristic: see the module docstring;
    with ``consistent``, among the ``secrets`` only."""
    n_codes, n = game.n_codes, len(secrets)
    if n == n_codes:
        candidates = pattern_representatives(game)
    elif consistent:
        candidates = secrets
    elif n_codes * n <= FULL_WORK:
        candidates = np.arange(n_codes, dtype=np.int64)
    else:
        candidates = _sampled_candidates(game, secrets, seed)
    return _best_of(game, name, candidates, secrets, seed, deadline)


def _sampled_candidates(game: Game, secrets: np.ndarray, seed: int) -> np.ndarray:
    """Big games: the remaining codes plus a seeded sample of others, shuffled."""
    n = len(secrets)
    rng = _rng(seed, secrets, b"candidates")
    n_others = min(game.n_codes - n, MAX_SAMPLE, max(MIN_SAMPLE, SAMPLE_WORK // n))
    others = np.empty(0, dtype=np.int64)
    while len(others) < n_others:
        draw = rng.integers(0, game.n_codes, size=2 * (n_others - len(others)) + 16)
        draw = draw[~np.isin(draw, secrets)]
        others = np.unique(np.concatenate([others, draw]))
    others = rng.permutation(others)[:n_others]
    return rng.permutation(np.concatenate([secrets, others]))


def _best_of(game: Game, name: str, candidates: np.ndarray, secrets: np.ndarray, seed: int,
             deadline: float):
    """Score ``candidates`` in chunks until done or past ``deadline``; the best scored.

    Returns (guess, scored, candidates). Big moves (over :data:`FULL_WORK`
    answers) rank the candidates on a sample of secrets first, in at most a third
    of the time left, so that the most promising are scored first.
    """
    n, total = len(secrets), len(candidates)
    if total * n > FULL_WORK:
        now = time.perf_counter()
        candidates = _ranked(game, name, candidates, secrets, seed,
                             now + (deadline - now) / 3)
    keys, done = _score_until(game, name, candidates, secrets, deadline)
    return _pick(keys, candidates[:done], secrets), done, total


def _score_until(game: Game, name: str, candidates: np.ndarray, secrets: np.ndarray,
                 deadline: float) -> tuple[np.ndarray, int]:
    """Keys of the first candidates, chunk by chunk, until all are scored or the
    clock passes ``deadline`` (at least one chunk is scored); and how many."""
    n = len(secrets)
    largest = max(1, min(MAX_CHUNK_GUESSES, CHUNK_WORK // n))
    chunk = max(1, min(largest, FIRST_CHUNK_WORK // n))
    keys, done = [], 0
    while done < len(candidates):
        part = candidates[done:done + chunk]
        began = time.perf_counter()
        keys.append(partition_keys(name, counts_for(game, part, secrets), n))
        done += len(part)
        now = time.perf_counter()
        if now >= deadline:
            break
        # Next chunk: about CHUNK_SECONDS at the speed just measured.
        rate = len(part) / max(now - began, 1e-6)
        chunk = int(min(largest, max(1, rate * CHUNK_SECONDS)))
    return np.concatenate(keys), done


def _ranked(game: Game, name: str, candidates: np.ndarray, secrets: np.ndarray,
            seed: int, deadline: float) -> np.ndarray:
    """The candidates ranked by ``deadline``, best first by their keys on a sample of
    :data:`RANK_SECRETS` secrets (at most :data:`MAX_RANKED` of them; a stable sort
    keeps the given order among ties)."""
    rng = _rng(seed, secrets, b"rank")
    sample = secrets
    if len(secrets) > RANK_SECRETS:
        sample = np.sort(rng.choice(secrets, RANK_SECRETS, replace=False))
    keys, done = _score_until(game, name, candidates[:MAX_RANKED], sample, deadline)
    return candidates[:done][np.argsort(keys, kind="stable")]
