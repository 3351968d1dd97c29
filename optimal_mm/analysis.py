"""How much a guess tells: remaining secrets, partitions and their information.

After some guesses and answers, the *remaining* secrets are the codes that would
have given exactly those answers. The next guess splits them into parts, one per
answer. If ``n`` secrets remain (all equally likely) and an answer leaves
``c`` of them, that answer

* has probability ``c / n``;
* leaves ``log2 c`` bits of uncertainty ("bits left");
* gained ``log2 n - log2 c`` bits ("bits gained").

The *entropy* of the answer, ``sum (c/n) * bits gained``, is the information the
guess gives on average; the most informative guesses are those of highest
entropy (the ``entropy`` heuristic of :mod:`optimal_mm.heuristics` plays them).

>>> from optimal_mm import Game
>>> game = Game.from_spec("bulls-and-cows")
>>> table = partition_table(game, "0123", remaining_after(game, []))
>>> round(table.entropy, 2)
2.77
>>> [(row.key, row.count) for row in table.rows][:3]
[('0B0W', 360), ('0B1W', 1440), ('0B2W', 1260)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .game import Game
from .heuristics import counts_for, entropy_of, partition_keys


@dataclass(frozen=True)
class PartitionRow:
    """One answer to a guess and the secrets it leaves."""

    answer: int
    key: str
    count: int
    probability: float
    bits_left: float
    bits_gained: float


@dataclass(frozen=True)
class PartitionTable:
    """The partition of ``secrets`` remaining secrets by ``guess``, answer by answer.

    ``rows`` hold the answers that occur, in answer order (by black, then white);
    ``consistent`` tells whether the guess may itself be the secret.
    """

    guess: str
    secrets: int
    consistent: bool
    entropy: float
    rows: tuple[PartitionRow, ...]

    def __str__(self) -> str:
        head = (f"guess {self.guess} against {self.secrets} remaining secret"
                f"{'s' if self.secrets != 1 else ''}"
                f" ({'may be the secret' if self.consistent else 'cannot be the secret'})")
        lines = [head, f"{'answer':>7} {'count':>7} {'probability':>11} "
                       f"{'bits left':>9} {'bits gained':>11}"]
        for r in self.rows:
            lines.append(f"{r.key:>7} {r.count:>7} {r.probability:>11.4f} "
                         f"{r.bits_left:>9.3f} {r.bits_gained:>11.3f}")
        parts = f"{len(self.rows)} part{'s' if len(self.rows) != 1 else ''}"
        lines.append(f"entropy of the answer: {self.entropy:.3f} bits in {parts} "
                     f"(of {math.log2(self.secrets):.3f} bits left)")
        return "\n".join(lines)


@dataclass(frozen=True)
class GuessInfo:
    """A candidate guess with its entropy, number of parts and largest part."""

    guess: str
    entropy: float
    parts: int
    largest: int
    consistent: bool


def remaining_after(game: Game, history) -> np.ndarray:
    """Code indices of the secrets consistent with every ``(guess, answer)`` in ``history``.

    Parameters
    ----------
    game : Game
    history : iterable of (str, int or str)
        Guesses as code strings; answers as answer ids or as text that
        :meth:`Game.parse_answer` reads (``"1B2W"``, ``"12"``).

    Returns
    -------
    numpy.ndarray
        Sorted int64 indices; empty when no secret fits the history.

    Raises
    ------
    InvalidCodeError, InvalidAnswerError
        For a guess or answer the game does not allow.

    >>> from optimal_mm import Game
    >>> g = Game.from_spec("bulls-and-cows")
    >>> len(remaining_after(g, [("0123", g.parse_answer("0B1W"))]))
    1440
    """
    game.check_enumerable("analyse")
    secrets = np.arange(game.n_codes, dtype=np.int64)
    for guess, answer in history:
        g = game.code_index(guess)
        a = game.parse_answer(answer) if isinstance(answer, str) else int(answer)
        if a not in game.possible_answers:
            game.parse_answer(game.answer_str(a))  # raises with the game's wording
        secrets = secrets[game.answers(g, secrets) == a]
    return secrets


def partition_table(game: Game, guess: "str | int", secrets) -> PartitionTable:
    """The partition of ``secrets`` by ``guess``, with probabilities and bits.

    Parameters
    ----------
    game : Game
    guess : str or int
        A code string or code index.
    secrets : array of int
        The remaining secrets (code indices), e.g. from :func:`remaining_after`.

    Raises
    ------
    InvalidCodeError
        For an illegal guess.
    ValueError
        When ``secrets`` is empty.
    """
    game.check_enumerable("analyse")
    g = game.code_index(guess)
    secrets = np.unique(np.asarray(secrets, dtype=np.int64))
    n = len(secrets)
    if n == 0:
        raise ValueError("no secret remains, so there is nothing to partition")
    counts = counts_for(game, [g], secrets)[0]
    rows = []
    for a in np.flatnonzero(counts):
        c = int(counts[a])
        rows.append(PartitionRow(int(a), game.answer_str(int(a)), c, c / n, math.log2(c),
                                 math.log2(n) - math.log2(c)))
    entropy = float(entropy_of(counts[None, :], n)[0])
    return PartitionTable(game.code_str(g), n, bool(np.isin(g, secrets)), entropy, tuple(rows))


def best_guesses(game: Game, secrets, n: int = 5) -> list[GuessInfo]:
    """The ``n`` most informative guesses (highest entropy) against ``secrets``.

    Every legal code is scored (cost ``N * len(secrets)`` answers). Ties, as in
    the ``entropy`` heuristic, go to a guess that may be the secret, then to the
    lower code.

    >>> from optimal_mm import Game
    >>> g = Game.from_spec("mastermind")
    >>> [(b.guess, round(b.entropy, 3)) for b in best_guesses(g, range(g.n_codes), 2)]
    [('1234', 3.057), ('1235', 3.057)]
    """
    game.check_enumerable("rank guesses in")
    secrets = np.unique(np.asarray(secrets, dtype=np.int64))
    if len(secrets) == 0:
        raise ValueError("no secret remains, so there is no guess to rank")
    if n < 1:
        raise ValueError(f"the number of guesses to list must be at least 1, got {n}")
    m = len(secrets)
    candidates = np.arange(game.n_codes, dtype=np.int64)
    consistent = np.isin(candidates, secrets)
    # Pass 1: keys for every code; pass 2 recomputes the few partitions listed.
    keys = _entropy_keys(game, secrets)
    order = np.lexsort((candidates, ~consistent, keys))[:n]
    counts = counts_for(game, candidates[order], secrets)
    entropies = entropy_of(counts, m)
    return [GuessInfo(game.code_str(int(c)), float(h), int(np.count_nonzero(row)),
                      int(row.max()), bool(consistent[c]))
            for c, h, row in zip(candidates[order], entropies, counts)]


def _entropy_keys(game: Game, secrets: np.ndarray) -> np.ndarray:
    """The ``entropy`` key of every code against ``secrets`` (sorted, distinct):
    ``sum c log2 c`` over its parts, rounded so that equal partitions tie exactly."""
    m = len(secrets)
    chunk = max(1, 8_000_000 // m)
    keys = []
    for start in range(0, game.n_codes, chunk):
        guesses = np.arange(start, min(start + chunk, game.n_codes), dtype=np.int64)
        keys.append(partition_keys("entropy", counts_for(game, guesses, secrets), m))
    return np.concatenate(keys)


@dataclass(frozen=True)
class InformationGroup:
    """The guesses that give the same information: ``bits`` (the entropy of the
    answer), how many ``guesses`` give it, how many of them ``may_win`` (may be the
    secret) and the lowest of them as an ``example``."""

    bits: float
    guesses: int
    may_win: int
    example: str


def information_groups(game: Game, secrets) -> list[InformationGroup]:
    """Every legal next guess against ``secrets``, grouped by the information its
    answer gives, least informative first.

    Two guesses fall in one group when their partitions have the same entropy
    (equal part sizes, or sizes whose entropies tie exactly). After 0123 scored
    0 bulls 1 cow in Bulls and Cows this is the table of second guesses of
    ``shared/seeds/001``: 18 groups, from 1 guess giving 0 bits (0123 itself) to
    1440 guesses giving 2.859 bits.

    >>> from optimal_mm import Game
    >>> g = Game.from_spec("bulls-and-cows")
    >>> groups = information_groups(g, remaining_after(g, [("0123", "0B1W")]))
    >>> len(groups), sum(x.guesses for x in groups), (round(groups[-1].bits, 3), groups[-1].guesses)
    (18, 5040, (2.859, 1440))
    """
    secrets = np.unique(np.asarray(secrets, dtype=np.int64))
    if len(secrets) == 0:
        raise ValueError("no secret remains, so there is no guess to rank")
    m = len(secrets)
    keys = _entropy_keys(game, secrets)
    may_win = np.zeros(game.n_codes, dtype=bool)
    may_win[secrets] = True
    values, first, inverse, sizes = np.unique(keys, return_index=True, return_inverse=True,
                                              return_counts=True)
    wins = np.bincount(inverse.ravel(), weights=may_win, minlength=len(values))
    bits = np.log2(m) - values / m
    bits[np.abs(bits) < 1e-9] = 0.0  # a guess that tells nothing, up to rounding
    groups = [InformationGroup(float(b), int(c), int(w), game.code_str(int(f)))
              for b, f, c, w in zip(bits, first, sizes, wins)]
    return sorted(groups, key=lambda x: x.bits)
