"""Static (non-adaptive) play: the fewest questions asked all at once.

The codebreaker writes down ``k`` questions before hearing any answer; the
answers together must tell every secret apart. The least such ``k`` is the
game's *static* value. For two colours and black pegs only, the answer to a
question is ``n`` minus its Hamming distance to the secret, so the static value
of ``pNc2b`` is the metric dimension of the hypercube ``Q_n`` (OEIS A303735:
1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8 for n = 1..13).

The search proves minimality by iterative deepening: for ``k`` from the
counting bound (``answers**k >= codes``) upwards, a depth-first search either
finds ``k`` questions or shows that none exist. A state is the partition of the
secrets by the answers so far; it is cut off when

* a class has more secrets than the remaining questions can split
  (``answers**r``), or
* two secrets of one class differ on no question still allowed (each pair keeps
  a bit set of the questions that separate it), and

a question that splits no class is never taken (a smallest set has none).
Symmetry (:mod:`optimal_mm.symmetry`): only one question per orbit of the group
fixing the questions already chosen is tried, and later questions are drawn only
from orbits not before that one, which keeps every set reachable in one
canonical order.

>>> from optimal_mm import Game
>>> solution = solve_static(Game.from_spec("p4c2b"))
>>> solution.size, solution.validate()
(4, 16)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from . import symmetry
from .errors import InvalidTreeError, TooLargeError
from .game import Game
from .tree import atomic_write_text

#: Games with more codes than this are refused (the pair bit sets grow as N**3 / 8 bytes).
MAX_STATIC_CODES = 1024
FORMAT = "optimal_mm.static/1"


@dataclass
class StaticSolution:
    """A smallest set of questions that tells every secret apart, and its proof."""

    game: Game
    questions: list[int]
    optimal: bool = True
    proof: list[str] = field(default_factory=list)
    nodes: int = 0

    @property
    def size(self) -> int:
        return len(self.questions)

    def lookup(self) -> dict[tuple[int, ...], int]:
        """Answers (one per question) -> the secret (code index) they identify."""
        table = self.game.answer_table()
        rows = table[np.asarray(self.questions, dtype=np.int64)].T if self.questions else \
            np.zeros((self.game.n_codes, 0), dtype=np.uint8)
        return {tuple(int(a) for a in row): s for s, row in enumerate(rows)}

    def validate(self) -> int:
        """Check that every secret gets its own answers; return the number of secrets."""
        found = self.lookup()
        if len(found) != self.game.n_codes:
            raise InvalidTreeError(f"{self.size} static questions leave "
                                   f"{self.game.n_codes - len(found)} secrets ambiguous")
        return len(found)

    def to_dict(self, command: str | None = None) -> dict:
        game = self.game
        out = {
            "format": FORMAT,
            "game": game.to_dict(),
            "size": self.size,
            "optimal": self.optimal,
            "proof": self.proof,
            "questions": [game.code_str(q) for q in self.questions],
            "lookup": {" ".join(game.answer_str(a) for a in answers): game.code_str(s)
                       for answers, s in sorted(self.lookup().items())},
        }
        if command:
            out["command"] = command
        return out

    def save(self, path, command: str | None = None) -> None:
        """Write the questions and the answers -> secret lookup as JSON, atomically."""
        atomic_write_text(path, json.dumps(self.to_dict(command), indent=1) + "\n")


def counting_bound(game: Game) -> int:
    """Least ``k`` with ``answers**k >= codes``: no fewer questions can work."""
    answers, k = len(game.possible_answers), 0
    while answers**k < game.n_codes:
        k += 1
    return k


def solve_static(game: Game, symmetric: bool = True) -> StaticSolution:
    """The fewest static questions for ``game``, proven minimal by exhaustive search.

    Raises
    ------
    TooLargeError
        For games of more than :data:`MAX_STATIC_CODES` codes.
    """
    if game.n_codes > MAX_STATIC_CODES:
        raise TooLargeError(f"static search handles games of at most {MAX_STATIC_CODES} "
                            f"codes; {game.spec} has {game.n_codes:,}")
    search = _Search(game, symmetric)
    k = counting_bound(game)
    proof = [f"counting bound: {len(game.possible_answers)} answers, {game.n_codes} codes: "
             f"at least {k} questions"]
    while True:
        found = search.run(k)
        if found is not None:
            proof.append(f"{k} questions found ({search.nodes} search nodes in all)")
            return StaticSolution(game, found, True, proof, search.nodes)
        proof.append(f"{k} questions impossible (exhaustive search, {search.nodes} nodes so far)")
        k += 1


@lru_cache(maxsize=None)
def _pair_indices(size: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(size, 1)


class _Search:
    def __init__(self, game: Game, symmetric: bool):
        self.game, self.symmetric = game, symmetric
        self.n = game.n_codes
        self.table = game.answer_table().astype(np.int64)
        self.base = int(self.table.max()) + 1
        self.n_answers = len(game.possible_answers)
        self.words = (self.n + 63) // 64
        self.nodes = 0
        bit = np.zeros((self.n, self.words), dtype=np.uint64)
        bit[np.arange(self.n), np.arange(self.n) // 64] = np.uint64(1) << (
            np.arange(self.n) % 64).astype(np.uint64)
        self.bit = bit
        # separates[i, j]: bit set of the questions answering secrets i and j differently
        sep = np.zeros((self.n, self.n, self.words), dtype=np.uint64)
        for q in range(self.n):
            row = self.table[q]
            sep[row[:, None] != row[None, :]] |= bit[q]
        self.separates = sep

    def run(self, k: int) -> list[int] | None:
        classes = np.zeros(self.n, dtype=np.int64)
        allowed = np.ones(self.n, dtype=bool)
        return self._dfs([], classes, allowed, k, self.symmetric)

    def _mask_bits(self, mask: np.ndarray) -> np.ndarray:
        return np.bitwise_or.reduce(self.bit[mask], axis=0) if mask.any() else \
            np.zeros(self.words, dtype=np.uint64)

    def _pairs(self, classes: np.ndarray):
        order = np.argsort(classes, kind="stable")
        keys = classes[order]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        ends = np.r_[starts[1:], len(keys)]
        firsts, seconds = [], []
        for a, b in zip(starts, ends):
            if b - a > 1:
                members = order[a:b]
                i, j = _pair_indices(b - a)
                firsts.append(members[i])
                seconds.append(members[j])
        if not firsts:
            return None
        return np.concatenate(firsts), np.concatenate(seconds)

    def _dfs(self, chosen, classes, allowed, left, symmetric):
        self.nodes += 1
        sizes = np.bincount(classes)
        if sizes.max() <= 1:
            return list(chosen)
        if left == 0 or sizes.max() > self.n_answers**left:
            return None
        pairs = self._pairs(classes)
        need = np.bitwise_and.reduce(self.separates[pairs[0], pairs[1]], axis=0) \
            if left == 1 else None
        allowed_bits = self._mask_bits(allowed)
        if left == 1:
            hit = need & allowed_bits
            if not hit.any():
                return None
            word = int(np.flatnonzero(hit)[0])
            value = int(hit[word])
            return list(chosen) + [word * 64 + (value & -value).bit_length() - 1]
        # every pair must be separable by some allowed question
        if not ((self.separates[pairs[0], pairs[1]] & allowed_bits).any(axis=1)).all():
            return None
        labels = None
        if symmetric:
            gens = [g for g in symmetry.stabilizer_generators(self.game, chosen)
                    if np.array_equal(allowed[g], allowed)]
            if gens:
                labels = symmetry.orbit_labels(self.n, gens)
        if labels is None:
            labels = np.arange(self.n, dtype=np.int64)
            symmetric = False
        candidates = np.flatnonzero(allowed & (labels == np.arange(self.n)))
        # most classes first: a set that works is found sooner
        refined = [(q, classes * self.base + self.table[q]) for q in candidates]
        counts = [len(np.unique(r)) for _, r in refined]
        current = len(sizes[sizes > 0])
        for index in np.argsort(counts, kind="stable")[::-1]:
            if counts[index] == current:
                continue
            q, keys = refined[index]
            next_allowed = allowed & (labels >= q)
            next_allowed[q] = False
            _, compact = np.unique(keys, return_inverse=True)
            found = self._dfs(chosen + [int(q)], compact.astype(np.int64), next_allowed,
                              left - 1, symmetric)
            if found is not None:
                return found
        return None
