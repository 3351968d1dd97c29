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

import numpy as np

from . import symmetry
from .errors import InvalidTreeError, TooLargeError
from .game import Game
from .tree import atomic_write_text

#: Games with more codes than this are refused (the pair bit sets take N**3 / 16 bytes).
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

    @classmethod
    def from_dict(cls, data: dict) -> "StaticSolution":
        """The solution :meth:`to_dict` wrote, its questions checked against its lookup.

        Raises
        ------
        InvalidTreeError
            For another format, or questions or a lookup that do not tell every
            secret apart as written.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidTreeError(f"not a static solution ({FORMAT}): "
                                   f"{str(data)[:60]!r}")
        game = Game.from_dict(data["game"])
        solution = cls(game, [game.code_index(q) for q in data["questions"]],
                       bool(data.get("optimal")), list(data.get("proof", [])))
        solution.validate()
        if solution.to_dict()["lookup"] != data.get("lookup"):
            raise InvalidTreeError("the lookup does not match the questions' answers")
        return solution

    @classmethod
    def load(cls, path) -> "StaticSolution":
        """Read a solution written by :meth:`save`."""
        with open(path, encoding="utf-8") as fh:
            return cls.from_dict(json.load(fh))


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
                            f"codes; {game.spec} has more")
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


class _Search:
    """Depth-first search over question sets; a state is the set of secret pairs
    its questions do not yet tell apart (``alive``, as indices into ``first`` and
    ``second``), each pair with the bit set of the questions that separate it."""

    def __init__(self, game: Game, symmetric: bool):
        self.game, self.symmetric = game, symmetric
        self.n = game.n_codes
        self.table = game.answer_table()
        self.n_answers = len(game.possible_answers)
        self.nodes = 0
        self.first, self.second = np.triu_indices(self.n, 1)
        self.separates = self._separating_bits()
        self.words = self.separates.shape[1]

    def _separating_bits(self, chunk: int = 1 << 16) -> np.ndarray:
        """``separates[p]``: bit ``q`` set when question ``q`` answers the two secrets
        of pair ``p`` differently (packed in uint64 words)."""
        words = (self.n + 63) // 64
        out = np.zeros((len(self.first), words), dtype=np.uint64)
        for lo in range(0, len(self.first), chunk):
            i, j = self.first[lo:lo + chunk], self.second[lo:lo + chunk]
            differ = self.table[:, i] != self.table[:, j]            # (questions, pairs)
            packed = np.packbits(differ, axis=0, bitorder="little")
            padded = np.zeros((words * 8, packed.shape[1]), dtype=np.uint8)
            padded[:len(packed)] = packed
            out[lo:lo + chunk] = np.ascontiguousarray(padded.T).view(np.uint64)
        return out

    def _bits(self, mask: np.ndarray) -> np.ndarray:
        packed = np.packbits(mask, bitorder="little")
        padded = np.zeros(self.words * 8, dtype=np.uint8)
        padded[:len(packed)] = packed
        return padded.view(np.uint64)

    def run(self, k: int) -> list[int] | None:
        alive = np.arange(len(self.first), dtype=np.int64)
        return self._dfs([], alive, np.ones(self.n, dtype=bool), k, self.symmetric)

    def _largest_class(self, alive: np.ndarray) -> int:
        """Secrets in the largest class: a class of m secrets has m (m - 1) / 2 pairs alive."""
        counts = np.bincount(self.first[alive], minlength=self.n)
        return int(counts.max()) + 1

    def _dfs(self, chosen, alive, allowed, left, symmetric):
        self.nodes += 1
        if not len(alive):
            return list(chosen)
        if left == 0 or self._largest_class(alive) > self.n_answers**left:
            return None
        seps = self.separates[alive]
        allowed_bits = self._bits(allowed)
        if left == 1:
            hit = np.bitwise_and.reduce(seps, axis=0) & allowed_bits
            if not hit.any():
                return None
            word = int(np.flatnonzero(hit)[0])
            value = int(hit[word])
            return list(chosen) + [word * 64 + (value & -value).bit_length() - 1]
        # every pair must be told apart by some question still allowed
        if not (seps & allowed_bits).any(axis=1).all():
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
        i, j = self.first[alive], self.second[alive]
        still = [alive[self.table[q, i] == self.table[q, j]] for q in candidates]
        # fewest pairs left first (a set that works is found sooner); a question that
        # tells no pair apart is never part of a smallest set
        for index in np.argsort([len(x) for x in still], kind="stable"):
            if len(still[index]) == len(alive):
                break
            q = candidates[index]
            next_allowed = allowed & (labels >= q)
            next_allowed[q] = False
            found = self._dfs(chosen + [int(q)], still[index], next_allowed, left - 1,
                              symmetric)
            if found is not None:
                return found
        return None
