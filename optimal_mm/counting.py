"""Counting game histories up to symmetry, exactly, by Burnside's lemma.

A *history* of depth ``D`` is a sequence of ``D`` (guess, answer) pairs: any code
of the game as the guess and any answer the game can give (the all-black answer
included, consistency with some secret not required). That is how the survey
"Rozważmy Masterminda" (D. Pawlik, A. Zabłocki, Delta) sizes the tree of game
states a proof must cover: for Mastermind and ``t = 4`` it counts the states at
depth 3 as ``(1296 * 14)**3``, about 5.9 trillion, and says that identifying
states that differ only by renaming colours and/or positions cuts them to about
415 million. Both figures follow from this definition: 5,973,090,729,984
histories, 414,988,840 orbits (:func:`count_histories`).

Which renamings preserve the scoring, and so map histories to equivalent
histories (a renaming ``phi`` turns the answer of ``g`` on ``s`` into the answer
of ``phi(g)`` on ``phi(s)``, which is the same answer)?

* Black-white scoring, and any game without repeats: ``S_C x S_P``, a renaming of
  the colours together with a permutation of the positions,
  ``c'[pi(i)] = sigma(c[i])``; order ``C! P!``.
* Black-only scoring with repeats: the wreath product ``S_C wr S_P``: each
  position may rename its colours on its own (a black is a position where guess
  and secret agree, which any such renaming keeps), then the positions are
  permuted; order ``C!**P P!``. With black-white scoring a renaming of one
  position's colours changes white counts; without repeats it maps codes to codes
  that repeat a colour, which are not in the game.

Burnside's lemma: the number of orbits of a finite group ``G`` on a set ``X`` is
the average number of points an element fixes, ``|X/G| = sum_g |Fix(g)| / |G|``.
The group fixes every answer, so an element fixes ``(f(g) * A)**D`` histories of
depth ``D``, where ``f(g)`` is the number of codes it fixes and ``A`` the number of
answers; and ``f(g)`` depends only on the *cycle types* of ``sigma`` and ``pi``
(conjugate elements fix equally many points), so the sum runs over pairs of
partitions of ``C`` and ``P`` (55 terms for Mastermind), never over the
17,280 elements of ``S_6 x S_4``:

* with repeats, a code fixed by ``(sigma, pi)`` is constant along each cycle of
  ``pi`` up to ``sigma``: on a cycle of length ``L`` its colour ``c`` must satisfy
  ``sigma**L(c) = c``, which ``sum_{d | L} d m_d(sigma)`` colours do (``m_d``:
  ``sigma``'s cycles of length ``d``);
* without repeats the colours along a cycle of length ``L`` must also differ, so
  the cycle takes a whole ``sigma``-cycle of length exactly ``L`` (and one of its
  ``L`` starting points), each ``sigma``-cycle used at most once:
  ``prod_L m_L(sigma)! / (m_L(sigma) - k_L(pi))! * L**k_L(pi)``;
* in the wreath product, going round a cycle of ``pi`` of length ``L`` composes
  the ``L`` colour renamings met on it into one permutation ``tau`` of ``S_C``,
  and the fixed codes on the cycle are ``tau``'s fixed colours; each ``tau`` is the
  composite of ``C!**(L-1)`` choices, so the sum factorises over the cycles of
  ``pi`` into ``sum_{tau in S_C} fix(tau)**D``, again a sum over cycle types.

>>> count = count_histories(Game.from_spec("mastermind"), 3)
>>> count.histories, count.orbits
(5973090729984, 414988840)
>>> count_histories(Game.from_spec("mastermind"), 1).guess_orbits  # 1111 1112 1122 1123 1234
5
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

from .errors import InvalidOptionError, TooLargeError
from .game import Game

#: Deepest history :func:`count_histories` counts (the counts have ~4.3 D digits
#: for Mastermind; beyond this they are of no use and only slow to print).
MAX_DEPTH = 50
#: The most pairs of cycle types (colours' times positions') Burnside's sum may run
#: over: about ten seconds (p4c60, 4.8 million, takes 18 s; p20c20, 0.39 million,
#: 2.7 s, on a 2-core VM); p25c25 would be 3.8 million, p99c99 about 3e16.
MAX_TERMS = 1_000_000


def partition_count(n: int) -> int:
    """How many partitions ``n`` has (the cycle types of ``S_n``), by Euler's
    recurrence over the parts' sizes, without listing them.

    >>> [partition_count(n) for n in (0, 4, 6, 25)]
    [1, 5, 11, 1958]
    """
    ways = [1] + [0] * n
    for part in range(1, n + 1):
        for total in range(part, n + 1):
            ways[total] += ways[total - part]
    return ways[n]


def check_countable(game: Game) -> None:
    """Refuse a game whose Burnside sum has more than :data:`MAX_TERMS` pairs of cycle
    types, before any of it is summed (:class:`~optimal_mm.errors.TooLargeError`)."""
    terms = partition_count(game.colours) * partition_count(game.pegs)
    if terms > MAX_TERMS:
        raise TooLargeError(f"{game.spec}: Burnside's sum would run over {terms:,} pairs "
                            f"of cycle types (colours' times positions'), more than the "
                            f"{MAX_TERMS:,} counted here")


def partitions(n: int, largest: int | None = None):
    """The partitions of ``n`` as non-increasing tuples (the cycle types of ``S_n``).

    >>> list(partitions(4))
    [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    """
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first,) + rest


def class_size(cycle_type: tuple[int, ...]) -> int:
    """How many permutations of ``S_n`` (``n = sum(cycle_type)``) have this cycle type.

    >>> class_size((2, 1, 1)), class_size((3, 1)), class_size((1, 1, 1, 1))
    (6, 8, 1)
    """
    out = factorial(sum(cycle_type))
    for length, count in Counter(cycle_type).items():
        out //= length**count * factorial(count)
    return out


def cycle_counts(cycle_type: tuple[int, ...], longest: int) -> tuple[int, ...]:
    """``(m_1, ..., m_longest)``: how many cycles of each length up to ``longest``.

    >>> cycle_counts((3, 2, 2, 1), 4)
    (1, 2, 1, 0)
    """
    cycles = Counter(cycle_type)
    return tuple(cycles.get(d, 0) for d in range(1, longest + 1))


def fixed_codes(pi_type: tuple[int, ...], colour_cycles: tuple[int, ...], repeats: bool) -> int:
    """Codes fixed by a position permutation of cycle type ``pi_type`` together with a
    colour renaming with ``colour_cycles[d - 1]`` cycles of length ``d`` (for every
    ``d`` up to the number of pegs; see the module docstring).

    >>> fixed_codes((1, 1, 1, 1), (6, 0, 0, 0), True)   # the identity fixes all 6**4
    1296
    >>> fixed_codes((2, 2), (4, 1, 0, 0), True)         # (12)(34) with one colour swap
    36
    >>> fixed_codes((2, 2), (2, 2, 0, 0), False)        # distinct colours: 2 cycles, 2 ways
    8
    """
    out = 1
    if repeats:
        for length in pi_type:
            out *= sum(d * colour_cycles[d - 1] for d in range(1, length + 1)
                       if length % d == 0)
        return out
    for length, needed in Counter(pi_type).items():
        available = colour_cycles[length - 1]
        if available < needed:
            return 0
        out *= factorial(available) // factorial(available - needed) * length**needed
    return out


@dataclass(frozen=True)
class SymmetryGroup:
    """The renamings of a game that preserve its scoring (see the module docstring).

    ``per_position`` is true for the wreath product ``S_C wr S_P`` (black-only
    scoring with repeats), false for ``S_C x S_P``.
    """

    pegs: int
    colours: int
    repeats: bool
    per_position: bool

    @classmethod
    def of(cls, game: Game) -> "SymmetryGroup":
        """The group of ``game``'s scoring-preserving renamings."""
        return cls(game.pegs, game.colours, game.repeats, game.black_only and game.repeats)

    @property
    def name(self) -> str:
        if self.per_position:
            return f"S{self.colours} wr S{self.pegs}"
        return f"S{self.colours} x S{self.pegs}"

    @property
    def order(self) -> int:
        colour_part = factorial(self.colours) ** (self.pegs if self.per_position else 1)
        return colour_part * factorial(self.pegs)

    def fixed_point_power_sum(self, power: int) -> int:
        """``sum over g in G of f(g)**power``, ``f(g)`` the codes ``g`` fixes: by
        Burnside, ``|G|`` times the number of orbits on ``power``-tuples of codes."""
        colour_types = _colour_types(self.colours, self.pegs)
        if self.per_position:
            # sum over tau in S_C of fix(tau)**power, by cycle type of tau
            per_cycle = sum(count * cycles[0] ** power for cycles, count in colour_types)
            c_fact = factorial(self.colours)
            total = 0
            for lam in partitions(self.pegs):
                term = class_size(lam)
                for length in lam:
                    term *= c_fact ** (length - 1) * per_cycle
                total += term
            return total
        pi_types = [(lam, class_size(lam)) for lam in partitions(self.pegs)]
        return sum(size * count * fixed_codes(lam, cycles, self.repeats) ** power
                   for cycles, count in colour_types for lam, size in pi_types)

    def orbits_of_tuples(self, length: int) -> int:
        """Orbits of the group on ``length``-tuples of codes (Burnside's lemma)."""
        total = self.fixed_point_power_sum(length)
        orbits, rest = divmod(total, self.order)
        if rest:  # Burnside's sum is a multiple of |G|: a broken formula, never input
            raise AssertionError(f"{self.name}: Burnside sum {total} not a multiple of "
                                 f"{self.order}")
        return orbits


@lru_cache(maxsize=None)
def _colour_types(colours: int, pegs: int) -> tuple:
    """The colour renamings of ``S_colours`` grouped by what the fixed-code count sees:
    ``((m_1, ..., m_pegs), how many)`` with ``m_d`` the cycles of length ``d``
    (a cycle of ``pi`` has at most ``pegs`` positions, so longer colour cycles never
    matter). For 36 colours and 4 pegs this folds 17,977 cycle types into 3,523 terms."""
    grouped: Counter = Counter()
    for mu in partitions(colours):
        grouped[cycle_counts(mu, pegs)] += class_size(mu)
    return tuple(grouped.items())


@dataclass(frozen=True)
class HistoryCount:
    """Histories of ``depth`` (guess, answer) pairs, all of them and up to symmetry."""

    spec: str
    depth: int
    codes: int
    answers: int
    group: str
    group_order: int
    histories: int
    orbits: int
    guess_orbits: int

    @property
    def ratio(self) -> float:
        """How many histories one orbit stands for, on average."""
        return self.histories / self.orbits

    def to_dict(self) -> dict:
        return {"game": self.spec, "depth": self.depth, "codes": self.codes,
                "answers": self.answers, "group": self.group, "group_order": self.group_order,
                "histories": self.histories, "orbits": self.orbits,
                "guess_orbits": self.guess_orbits, "ratio": round(self.ratio, 1)}


def count_histories(game: Game, depth: int) -> HistoryCount:
    """Histories of ``depth`` (guess, answer) pairs of ``game``: all, and up to the
    group of :meth:`SymmetryGroup.of` (see the module docstring).

    Parameters
    ----------
    game : Game
    depth : int
        Number of (guess, answer) pairs, 0 to :data:`MAX_DEPTH`.

    Returns
    -------
    HistoryCount
        ``histories = (codes * answers)**depth``; ``orbits`` those up to symmetry;
        ``guess_orbits`` the orbits of the guess sequences alone (the group fixes
        every answer, so ``orbits = answers**depth * guess_orbits``).

    Raises
    ------
    InvalidOptionError
        For a depth outside 0..MAX_DEPTH.
    TooLargeError
        For a game whose sum is too long to run (:func:`check_countable`).

    Examples
    --------
    >>> c = count_histories(Game.from_spec("p3c5b"), 2)
    >>> c.group, c.answers, c.histories, c.orbits
    ('S5 wr S3', 4, 250000, 64)
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        raise InvalidOptionError(f"depth must be 0..{MAX_DEPTH}, got {depth!r}")
    check_countable(game)
    group = SymmetryGroup.of(game)
    answers = len(game.possible_answers)
    guess_orbits = group.orbits_of_tuples(depth)
    return HistoryCount(game.spec, depth, game.n_codes, answers, group.name, group.order,
                        (game.n_codes * answers) ** depth, answers**depth * guess_orbits,
                        guess_orbits)
