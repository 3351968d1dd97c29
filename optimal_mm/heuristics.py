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

Big games
---------
Scoring every code against every remaining secret costs ``N * |S|`` answers. When
that exceeds :data:`FULL_WORK` (it never does for Mastermind or Bulls and Cows,
whose trees are therefore exact to the rules above), the candidate guesses are
restricted to the remaining codes plus a random sample of other codes (seeded
from ``seed`` and ``S``), scored in chunks, and the search stops once
``move_time`` seconds have been spent on the move: the best guess *scored so far*
is played. Such a move is still deterministic as long as the budget is not hit;
when it is, the choice depends on the machine's speed.

>>> from optimal_mm import Game
>>> game = Game.from_spec("mastermind")
>>> choose = make_chooser(game, "knuth")
>>> game.code_str(choose(np.arange(game.n_codes), 1))
'1122'
"""

from __future__ import annotations

import hashlib
import time

import numpy as np

from . import __version__
from .errors import UnknownHeuristicError
from .game import Game, partition_counts
from .tree import Strategy, grow

#: The heuristics this module knows, by name.
HEURISTICS = ("knuth", "entropy", "most-parts", "expected-size", "first-consistent",
              "random-consistent")
#: Heuristics that play only codes that may still be the secret.
CONSISTENT_HEURISTICS = ("first-consistent", "random-consistent")
#: Score every legal code as long as ``N * |S|`` stays under this many answers.
FULL_WORK = 60_000_000
#: In a big game, sample about this many answers' worth of other codes per move.
SAMPLE_WORK = 20_000_000
#: ... but never fewer than this many other codes.
MIN_SAMPLE = 256
#: Answers computed per chunk between two looks at the clock.
CHUNK_WORK = 20_000_000


def check_heuristic(name: str) -> str:
    """Return ``name`` if it is a known heuristic, else raise.

    Raises
    ------
    UnknownHeuristicError
        Quoting the name and listing the valid ones.

    >>> check_heuristic("knuth")
    'knuth'
    """
    if name not in HEURISTICS:
        raise UnknownHeuristicError(
            f"unknown heuristic {name!r}: choose one of {', '.join(HEURISTICS)}")
    return name


def make_chooser(game: Game, name: str, first: str | None = None, seed: int = 0,
                 move_time: float = 60.0):
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
        Seconds one move may take in a big game (see the module docstring).

    Returns
    -------
    callable
        ``choose(secrets, depth) -> int``: the code index to play when the
        ``secrets`` (an int64 array of code indices, in any order) are still
        possible, at guess number ``depth`` (1 for the first guess).

    Raises
    ------
    UnknownHeuristicError
        For a name not in :data:`HEURISTICS`.
    InvalidCodeError
        For a ``first`` that is not a legal code of the game.
    """
    check_heuristic(name)
    first_index = None if first is None else game.code_index(first)
    seed = int(seed)
    move_time = float(move_time)

    def choose(secrets, depth: int) -> int:
        secrets = np.unique(np.asarray(secrets, dtype=np.int64))  # sorted, distinct
        if len(secrets) == 0:
            raise ValueError("no secret is possible: nothing to choose from")
        if first_index is not None and depth == 1 and len(secrets) == game.n_codes:
            return first_index
        if len(secrets) <= 2 or name == "first-consistent":
            return int(secrets[0])
        if name == "random-consistent":
            return int(secrets[_rng(seed, secrets, b"random-consistent").integers(len(secrets))])
        return _best_scored(game, name, secrets, seed, move_time)

    return choose


def build_strategy(game: Game, name: str, first: str | None = None, seed: int = 0,
                   move_time: float = 60.0) -> Strategy:
    """The complete strategy tree that heuristic ``name`` plays in ``game``.

    Parameters are those of :func:`make_chooser`. The tree's ``objective`` is the
    heuristic's name, ``optimal`` is false, ``guesses`` is ``"consistent"`` for the
    heuristics that only play possible codes, and ``meta`` records the solver,
    the wall time and the parameters.

    >>> from optimal_mm import Game
    >>> tree = build_strategy(Game.from_spec("p3c3"), "knuth")
    >>> print(tree.validate())
    secrets 27, total 74, average 2.7407, max 4 (for 2 secrets), depth counts 1/7/17/2
    """
    start = time.perf_counter()
    choose = make_chooser(game, name, first=first, seed=seed, move_time=move_time)
    root = grow(game, choose)
    seconds = time.perf_counter() - start
    meta = {"solver": f"optimal_mm {__version__}", "seconds": round(seconds, 3),
            "heuristic": name, "first": first, "seed": seed, "move_time": move_time}
    return Strategy(game, root,
                    guesses="consistent" if name in CONSISTENT_HEURISTICS else "any",
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
    >>> [Game.from_spec("p4c10n").code_str(i) for i in pattern_representatives(Game.from_spec("p4c10n"))]
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
    """A generator seeded from ``seed`` and the (sorted) remaining set only."""
    h = hashlib.blake2b(digest_size=16)
    h.update(salt)
    h.update(int(seed).to_bytes(16, "little", signed=True))
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


def _best_scored(game: Game, name: str, secrets: np.ndarray, seed: int,
                 move_time: float) -> int:
    n_codes, n = game.n_codes, len(secrets)
    if n == n_codes:
        candidates = pattern_representatives(game)
        return _pick(partition_keys(name, counts_for(game, candidates, secrets), n),
                     candidates, secrets)
    if n_codes * n <= FULL_WORK:
        candidates = np.arange(n_codes, dtype=np.int64)
        return _pick(partition_keys(name, counts_for(game, candidates, secrets), n),
                     candidates, secrets)
    return _best_sampled(game, name, secrets, seed, move_time)


def _best_sampled(game: Game, name: str, secrets: np.ndarray, seed: int,
                  move_time: float) -> int:
    """Big games: remaining codes plus a sample of others, in chunks, under a clock."""
    start = time.perf_counter()
    n = len(secrets)
    rng = _rng(seed, secrets, b"candidates")
    n_others = min(game.n_codes - n, max(MIN_SAMPLE, SAMPLE_WORK // n))
    others = np.empty(0, dtype=np.int64)
    while len(others) < n_others:
        draw = rng.integers(0, game.n_codes, size=2 * (n_others - len(others)) + 16)
        draw = draw[~np.isin(draw, secrets)]
        others = np.unique(np.concatenate([others, draw]))
    others = rng.permutation(others)[:n_others]
    candidates = rng.permutation(np.concatenate([secrets, others]))
    chunk = max(1, CHUNK_WORK // n)
    keys, done = [], 0
    while done < len(candidates):
        part = candidates[done:done + chunk]
        keys.append(partition_keys(name, counts_for(game, part, secrets), n))
        done += len(part)
        if time.perf_counter() - start >= move_time:
            break
    return _pick(np.concatenate(keys), candidates[:done], secrets)
