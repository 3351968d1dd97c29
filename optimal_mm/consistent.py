"""Consistent guesses for games of any size, found by a constraint solver.

The enumerating players (:mod:`optimal_mm.heuristics`, strategy trees) keep the
list of secrets still possible, which stops at :data:`~optimal_mm.game.MAX_ENUMERATED_CODES`
codes: p9c9 already has 387 million. This player keeps only the *answers*. A code
is *consistent* when it would have given every answer received so far; playing a
consistent code always makes progress (it is either the secret or excluded by
its own answer), and finding one is a constraint problem of modest size whatever
the number of codes:

* one boolean ``x[p, c]`` per position and colour, exactly one colour per
  position (and, without repeats, each colour at most once);
* for each guess ``g`` answered ``(b, w)``: the blacks ``sum_p x[p, g_p] == b``;
  and, for black-white scoring, the colours in common
  ``sum_c min(k_c, n_c) == b + w``, where ``k_c`` is how often ``g`` uses colour
  ``c`` and ``n_c = sum_p x[p, c]`` how often the secret does (``min`` is a
  native constraint of the solver, so the model is exact, not relaxed).

The solver is OR-Tools' CP-SAT (a clause-learning solver over integer and
boolean variables with linear constraints), run on one thread with a seed so
that a game replays.

A move first *samples* consistent codes: each solve gets a random code as a
hint (so the solutions spread over the space) and excludes the codes already
found, until :data:`SAMPLE_SIZE` codes are found, none is left, or the move's
clock runs out. Then every sampled code is scored against the sample as if the
sample were the remaining secrets, and the one whose partition of the sample has
the smallest sum of squared part sizes (Irving's expected size) is played; ties
go to the code found first. With ``sample_size=1`` the player plays the first
consistent code the solver finds.

When the clock runs out before the solver finds any consistent code, the move
falls back on :func:`fallback_guess`: the random code, of a few hundred drawn
afresh each move, that comes closest to agreeing with the answers, and never a
code already played (a guess played again tells nothing).

>>> from optimal_mm import Game
>>> game = Game.from_spec("p12c12")
>>> breaker = ConsistentCodebreaker(game, move_time=5, seed=1, sample_size=4)
>>> secret = game.parse_code("0123456789AB")
>>> while not breaker.solved:
...     guess = game.parse_code(breaker.next_guess())
...     breaker.tell(game.score_colours(guess, secret))
>>> breaker.secret
'0123456789AB'
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import numpy as np

from .errors import InconsistentAnswersError
from .game import Game, random_code
from .heuristics import MoveReport
from .history import Turn, answer_id

#: The name of this player for ``optimal-mm play --heuristic``.
NAME = "cp-sat"
#: Consistent codes sampled per move (the best of them on the sample is played).
SAMPLE_SIZE = 24
#: Random codes drawn, when no consistent code was found in time, to pick the
#: fallback guess from (see :func:`fallback_guess`).
FALLBACK_DRAWS = 256


class ConsistentCodebreaker:
    """The computer guesses a secret by playing codes consistent with every answer.

    It has the interface of :class:`optimal_mm.player.Codebreaker` that a game
    needs (:meth:`next_guess`, :meth:`tell`, :meth:`undo`, :attr:`solved`,
    :attr:`secret`, :attr:`guesses`, :attr:`history`), but never lists codes, so
    it plays games of any size. :attr:`remaining` is None: the number of secrets
    still possible is not known.

    Parameters
    ----------
    game : Game
    move_time : float
        Seconds one move may take; the sampling stops when they are spent.
    seed : int
        Seeds the hints and the solver, so that a game replays (on a machine of
        the same speed, when the clock stops a move).
    sample_size : int
        Consistent codes to sample per move (see the module docstring).
    """

    def __init__(self, game: Game, move_time: float = 60.0, seed: int = 0,
                 sample_size: int = SAMPLE_SIZE):
        _require_ortools()
        if sample_size < 1:
            raise ValueError(f"sample_size must be at least 1, got {sample_size!r}")
        self.game = game
        self.move_time = float(move_time)
        self.seed = int(seed)
        self.sample_size = int(sample_size)
        self.history: list[Turn] = []
        self.last_move: MoveReport | None = None
        self._colours: list[tuple[int, ...]] = []  # the guesses, as colour numbers
        self._guess: tuple[int, ...] | None = None
        self._known: tuple[int, ...] | None = None  # a consistent code found by tell()
        self._started: float | None = None  # when tell() began the next move's work
        self._solved = False

    # ---------------------------------------------------------------- state
    @property
    def remaining(self) -> None:
        """Not known to this player (it never lists the codes)."""
        return None

    @property
    def solved(self) -> bool:
        """True once a guess got the all-black answer."""
        return self._solved

    @property
    def secret(self) -> str | None:
        """The secret once found, else None."""
        return self.history[-1].guess if self._solved else None

    @property
    def guesses(self) -> int:
        """Number of answered guesses, the winning one included."""
        return len(self.history)

    # ----------------------------------------------------------------- play
    def next_guess(self) -> str:
        """The guess to play now; calling it again before :meth:`tell` returns the same."""
        if self._solved:
            raise RuntimeError("the game is over: the secret was found")
        if self._guess is None:
            self._guess = self._choose()
        return self.game.format_code(self._guess)

    def tell(self, answer: "int | str") -> None:
        """Record the answer to the current guess.

        Raises
        ------
        InvalidAnswerError
            For text that is malformed or an answer that can never occur.
        InconsistentAnswersError
            When the solver proves that no code gives all the answers; nothing is
            recorded then, so the answer can be entered again.
        """
        game = self.game
        answer = answer_id(game, answer)
        guess_text = self.next_guess()
        guess = self._guess
        started = time.perf_counter()
        pairs = self._pairs() + [(guess, answer)]
        known = None
        if answer != game.win:
            hint = random_code(game, self._rng(len(pairs)))
            found, proven_empty = _solve(game, pairs, [], hint, self.seed, self.move_time)
            if proven_empty:
                raise self._contradiction(Turn(guess_text, answer))
            known = found
        self.history.append(Turn(guess_text, answer))
        self._colours.append(guess)
        self._guess, self._known, self._started = None, known, started
        self._solved = answer == game.win

    def undo(self) -> Turn:
        """Take back the last answer (and its guess); returns the turn removed."""
        if not self.history:
            raise IndexError("no answer to take back")
        self._colours.pop()
        self._guess, self._known, self._started, self._solved = None, None, None, False
        return self.history.pop()

    # -------------------------------------------------------------- choosing
    def _contradiction(self, *more: Turn) -> InconsistentAnswersError:
        turns = [f"{t.guess} {self.game.answer_str(t.answer)}" for t in self.history + list(more)]
        return InconsistentAnswersError("no secret gives all these answers: " + ", ".join(turns))

    def _pairs(self) -> list[tuple[tuple[int, ...], int]]:
        return [(g, t.answer) for g, t in zip(self._colours, self.history)]

    def _rng(self, salt: "int | str") -> random.Random:
        return random.Random(f"{self.seed}/{salt}/{self.game.spec}")

    def _choose(self) -> tuple[int, ...]:
        # The move's clock starts when its answer came in: tell() already solved once.
        start = self._started or time.perf_counter()
        deadline = start + self.move_time
        sample, exhausted = self._sample(deadline)
        if sample:
            guess, note = best_on_sample(self.game, sample), ""
        else:  # out of time before any consistent code
            # Seeded by the move, so that each move draws other codes and a game replays.
            rng = self._rng(f"fallback/{len(self.history)}")
            guess = fallback_guess(self.game, self._pairs(), rng)
            note = "no consistent code found in time: a random code is played"
        seconds = time.perf_counter() - start
        cut = not exhausted and len(sample) < self.sample_size
        self.last_move = MoveReport(len(sample), self.sample_size if cut else len(sample),
                                    seconds, cut, note)
        return guess

    def _sample(self, deadline: float) -> tuple[list[tuple[int, ...]], bool]:
        """Up to :attr:`sample_size` distinct consistent codes (none when the clock ran
        out before the first); and whether no other is left."""
        game, pairs = self.game, self._pairs()
        rng = self._rng(len(pairs))
        if not pairs:  # every code is consistent before the first answer
            codes = (random_code(game, rng) for _ in range(self.sample_size))
            return list(dict.fromkeys(codes)), True
        sample = [self._known] if self._known is not None else []
        while len(sample) < self.sample_size:
            left = deadline - time.perf_counter()
            if left <= 0 and sample:
                return sample, False
            found, proven_empty = _solve(game, pairs, sample, random_code(game, rng),
                                         rng.randrange(2**31), max(left, 0.0))
            if found is None:
                if proven_empty and not sample:
                    raise self._contradiction()
                return sample, proven_empty
            sample.append(found)
        return sample, False


def best_on_sample(game: Game, sample: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The code of ``sample`` whose partition of ``sample`` has the least sum of squared
    part sizes; the first such.

    >>> g = Game.from_spec("p2c3")
    >>> best_on_sample(g, [(0, 0), (0, 1), (1, 0), (1, 2)])
    (0, 1)
    """
    if len(sample) <= 2:
        return sample[0]
    codes = np.asarray(sample, dtype=np.int64)
    answers = answer_matrix(game, codes, codes)
    keys = [int(np.square(np.unique(row, return_counts=True)[1]).sum()) for row in answers]
    return sample[int(np.argmin(keys))]


def fallback_guess(game: Game, pairs, rng: random.Random,
                   draws: int = FALLBACK_DRAWS) -> tuple[int, ...]:
    """A guess for a move whose clock ran out before any consistent code was found.

    No code known to agree with every answer, the next best is one that comes
    close: of ``draws`` random codes drawn with ``rng``, none of them a guess of
    ``pairs`` ((guess colours, answer id) each), the one that disagrees with the
    fewest answers; ties go to the one whose blacks and colours in common are
    off by the least in total, then to the first drawn. A guess already played is
    never chosen, since its answer is known; nor is it ever close, as it
    disagrees with its own answer. ``rng`` must advance (or be seeded anew) from
    one move to the next, or every move would draw the same codes.

    Drawing and scoring a few hundred codes takes milliseconds even for big games,
    so the move overruns its clock by little. In p2c3, after ``00`` was answered
    1B and ``01`` 0B1W, only ``20`` gives both answers, and the draws find it:

    >>> g = Game.from_spec("p2c3")
    >>> fallback_guess(g, [((0, 0), g.encode_answer(1, 0)), ((0, 1), g.encode_answer(0, 1))],
    ...                random.Random(1))
    (2, 0)
    """
    played = {tuple(guess) for guess, _ in pairs}
    codes = []
    for _ in range(4 * draws):  # bounded: in a tiny game the played guesses may be most codes
        code = random_code(game, rng)
        if code not in played:
            codes.append(code)
            if len(codes) == draws:
                break
    if not codes:  # every draw was a played guess: take the first code not played
        every = (itertools.product(range(game.colours), repeat=game.pegs) if game.repeats
                 else itertools.permutations(range(game.colours), game.pegs))
        left = next((code for code in every if code not in played), None)
        if left is None:
            raise InconsistentAnswersError("every code was played and none won")
        return left
    if not pairs:
        return codes[0]
    drawn = np.asarray(codes, dtype=np.int64)
    guesses = np.asarray([guess for guess, _ in pairs], dtype=np.int64)
    wanted = np.array([game.decode_answer(answer) for _, answer in pairs], dtype=np.int64)
    # In slices, so that the (codes, guesses, colours) counts stay small for big games.
    rows = max(1, 2**22 // (len(pairs) * game.colours))
    off = np.concatenate([_answer_distance(game, drawn[i:i + rows], guesses, wanted)
                          for i in range(0, len(drawn), rows)])
    misses, total = (off > 0).sum(axis=1), off.sum(axis=1)
    return codes[int(np.lexsort((total, misses))[0])]


def _answer_distance(game: Game, codes: np.ndarray, guesses: np.ndarray,
                     wanted: np.ndarray) -> np.ndarray:
    """``(K, G)``: how far each code's answers to ``guesses`` are from the ``wanted``
    (black, white) pairs, as the blacks' difference plus the colours in common's."""
    # Scoring is symmetric: a code scored as the guess gets the guess's answer.
    answers = answer_matrix(game, codes, guesses)
    if game.black_only:
        return np.abs(answers - wanted[:, 0])
    black, white = game.decode_answers(answers)
    return (np.abs(black - wanted[:, 0])
            + np.abs(black + white - wanted[:, 0] - wanted[:, 1]))


def answer_matrix(game: Game, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """``(G, S)`` answer ids of colour-number arrays ``(G, P)`` against ``(S, P)``.

    >>> g = Game.from_spec("mastermind")
    >>> m = answer_matrix(g, np.array([g.parse_code("1123")]), np.array([g.parse_code("4221")]))
    >>> g.answer_str(int(m[0, 0]))
    '1B1W'
    """
    black = (guesses[:, None, :] == secrets[None, :, :]).sum(axis=2)
    if game.black_only:
        return black
    colours = np.arange(game.colours)
    guess_counts = (guesses[:, :, None] == colours).sum(axis=1)
    secret_counts = (secrets[:, :, None] == colours).sum(axis=1)
    common = np.minimum(guess_counts[:, None, :], secret_counts[None, :, :]).sum(axis=2)
    return game.encode_answer(black, common - black)


# ---------------------------------------------------------------- the model
def _require_ortools() -> None:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:  # pragma: no cover - ortools is a core dependency
        from .errors import MissingDependencyError

        raise MissingDependencyError(
            "the consistent-guess player needs OR-Tools: pip install ortools") from None


def _solve(game: Game, pairs, excluded, hint, seed: int, seconds: float):
    """A code consistent with ``pairs`` ((guess colours, answer id) each) and not in
    ``excluded``; returns (code or None, whether none exists for certain).
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    pegs, colours = game.pegs, game.colours
    x = [[model.new_bool_var(f"x{p}_{c}") for c in range(colours)] for p in range(pegs)]
    for row in x:
        model.add_exactly_one(row)
    if not game.repeats:
        for c in range(colours):
            model.add_at_most_one(x[p][c] for p in range(pegs))
    uses = None
    if not game.black_only:
        uses = []
        for c in range(colours):
            n_c = model.new_int_var(0, pegs, f"n{c}")
            model.add(n_c == sum(x[p][c] for p in range(pegs)))
            uses.append(n_c)
    mins: dict[tuple[int, int], object] = {}
    for guess, answer in pairs:
        black, white = game.decode_answer(answer)
        model.add(sum(x[p][c] for p, c in enumerate(guess)) == black)
        if uses is None:
            continue
        terms = []
        for c, k in Counter(guess).items():
            if k >= pegs:  # min(k, n_c) is n_c itself
                terms.append(uses[c])
                continue
            key = (c, k)
            if key not in mins:
                m = model.new_int_var(0, k, f"m{c}_{k}")
                model.add_min_equality(m, [uses[c], k])
                mins[key] = m
            terms.append(mins[key])
        model.add(sum(terms) == black + white)
    for code in excluded:
        model.add(sum(x[p][c] for p, c in enumerate(code)) <= pegs - 1)
    for p, c in enumerate(hint):
        model.add_hint(x[p][c], True)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(seed) % (2**31)
    solver.parameters.max_time_in_seconds = max(float(seconds), 0.001)
    # Ctrl-C belongs to Python (KeyboardInterrupt, then the command's own clean stop):
    # CP-SAT's handler, left on by default, is put back as the system default when
    # the solve ends, so that one Ctrl-C later would kill the process outright.
    solver.parameters.catch_sigint_signal = False
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        code = tuple(next(c for c in range(colours) if solver.boolean_value(x[p][c]))
                     for p in range(pegs))
        return code, False
    return None, status == cp_model.INFEASIBLE
