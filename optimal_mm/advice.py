"""Exact advice from any position: the best next guess, its value, and grades.

A *position* is what a codebreaker knows after some guesses: the secrets still
consistent with the answers (:mod:`optimal_mm.history`). Its value depends only on
that set ``S`` of remaining secrets (and on the rule for guesses), so the advice
for a player who made guesses of their own is the exact search of
:mod:`optimal_mm.search` run on ``S`` as a sub-state:

``expected``
    ``value`` is the least total number of guesses still to come, the next one
    included, summed over the secrets of ``S`` (each equally likely; divide by
    ``|S|`` for the average). From the start of Mastermind it is 5625.
``worst-case``
    ``value`` is the least number of guesses, the next one included, that always
    suffices from ``S``. From the start of Mastermind it is 5.

The guesses tried at the position are cut to one per orbit of the symmetries
that fix the guesses played and ``S`` (:mod:`optimal_mm.symmetry`); deeper nodes
use the compiled search's own reductions, so the value is exact.

Where a shipped optimal tree (``optimal_mm/data``) reaches the position, that is
where the answers follow its branches, its guess and the total of its subtree
are the answer at once: a subtree of an optimal expected-case tree is optimal for
its own secrets (otherwise swapping in a better one would improve the tree). So
are the positions that a symmetry (renaming colours, permuting places) maps onto
the tree's: after 0123 = 0 bulls 1 cow, the second guess 4561 of
``shared/seeds/001`` is the tree's 1456 renamed (:meth:`Advisor.tree_position`).

Elsewhere the search runs under a time limit, in a child process that is stopped
when the limit is reached. Then the advice is a heuristic's (the ``entropy``
rule for the expected case, Knuth's for the worst case, the first consistent code
with consistent guesses only), its value the heuristic's own from that position,
an upper bound, and ``proven`` is false. The heuristic's tree is grown in full to
count that value, without a limit (seconds even for Bulls and Cows).

*Grading* a guess ``g`` at ``S``: its value is that of playing ``g`` and then
the best play, ``|S| + sum of the parts' values`` (expected) or ``1 + the largest
part's value`` (worst case), the part of ``g`` itself excluded. The loss is that
value less the best value at ``S``: expected guesses lost (per secret, the total
divided by ``|S|``) and worst case lost.

*Ranking* values every guess so: one per class of guesses that the symmetries
fixing the position map onto each other (:func:`optimal_mm.symmetry.orbit_sizes`;
with black-only scoring and repeats, each position's colours renamed on its own where
that leaves fewer classes: :func:`guess_classes`), each class with the number of codes
it holds, best first (:meth:`Advisor.rank`).
From the start of Mastermind: 1123 5625, 1234 5673, 1122 5702, 1112 5791, 1111 6318
(a test checks two of them against a search without symmetry). The classes are
valued in a child process, the likeliest first (the smallest largest part), and
those the time limit leaves are reported as not valued.

>>> from optimal_mm import Game
>>> from optimal_mm.history import parse_history
>>> game = Game.from_spec("p3c3")
>>> advisor = Advisor(game, time_limit=None, strategy=None)
>>> advisor.advise([]).value, advisor.advise([], "worst-case").value
(73, 4)
>>> grade = advisor.grade(parse_history(game, "111=0B0W"))[0]
>>> grade.guess, grade.best_guess, round(grade.expected_lost, 4), grade.worst_lost
('111', '112', 0.4815, 0)
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from dataclasses import dataclass

import numpy as np

from ._search_arrays import INF, NO_CAP
from .errors import (InvalidOptionError, InvalidTreeError, OptimalMMError, TooLargeError,
                     check_time_limit)
from .game import Game
from .history import Turn, check_history, consistent_secrets
from .search import check_feasible
from .search_context import _context, node_guess_classes
from .symmetry import orbit_sizes, position_colour_sizes
from .tree import Node, Strategy

OBJECTIVES = ("expected", "worst-case")
#: Seconds a position may be searched before the advice falls back to a heuristic.
DEFAULT_TIME_LIMIT = 60.0
#: Transposition-table entries of the search (the 8-million default of ``solve``
#: allocates more than one position needs).
TABLE_ENTRIES = 2_000_000
#: The heuristic advising when the time runs out, per objective.
FALLBACK_HEURISTICS = {"expected": "entropy", "worst-case": "knuth"}
#: Advice is offered for games of at most this many codes: every position of a bigger
#: one (p5c8: a 1 GiB answer table) costs far more than a move may take, although
#: ``solve`` searches it (:func:`~optimal_mm.search.check_feasible`).
MAX_ADVICE_CODES = 12_000


def command_beyond_advice(game: Game) -> str:
    """The command to suggest for a game too big for exact advice.

    ``strategy`` builds the whole tree of a heuristic, which lists every code: it
    is suggested for the games whose codes can be listed, by the very check
    ``strategy`` makes (:meth:`~optimal_mm.game.Game.check_enumerable`). A bigger
    game is played move by move by ``play`` with the consistent-guess player
    (:mod:`optimal_mm.consistent`), which never lists codes.

    >>> command_beyond_advice(Game.from_spec("p5c8"))
    'optimal-mm strategy p5c8 --heuristic entropy'
    >>> command_beyond_advice(Game.from_spec("p12c12"))
    'optimal-mm play p12c12 --heuristic cp-sat'
    """
    from .player import CONSISTENT_PLAYER

    try:
        game.check_enumerable("build a whole strategy tree for")
    except TooLargeError:
        return f"optimal-mm play {game.spec} --heuristic {CONSISTENT_PLAYER}"
    return f"optimal-mm strategy {game.spec} --heuristic {FALLBACK_HEURISTICS['expected']}"


@dataclass(frozen=True)
class Advice:
    """The best next guess at a position and its value (see the module docstring).

    ``source`` says where it came from: ``"tree"`` (a shipped optimal tree),
    ``"search"`` (the exact search) or ``"heuristic"`` (the time ran out;
    ``proven`` is then false and ``value`` the heuristic's, an upper bound).
    """

    remaining: int
    guess: str
    objective: str
    value: int
    proven: bool
    source: str

    def to_dict(self) -> dict:
        """The JSON form: ``remaining``, ``guess``, ``objective``, ``value``, ``proven``."""
        return {"remaining": self.remaining, "guess": self.guess, "objective": self.objective,
                "value": self.value, "proven": self.proven}

    @property
    def average(self) -> float:
        """Expected objective: the average number of guesses still to come."""
        return self.value / self.remaining


@dataclass(frozen=True)
class Grade:
    """How much the guess of turn ``turn`` (1 for the first) cost against the best.

    ``expected_value``/``best_expected`` are totals over the ``remaining`` secrets;
    ``worst_value``/``best_worst`` worst cases, all counting from that guess on.
    Values are ``None`` where the time limit ran out before they were proven.
    ``allowed`` is False for a guess that the guess rule forbids: with consistent
    guesses only (hard mode), one that cannot be the secret. It is graded all the
    same (played, then the best consistent play), and the line says it broke the rule.
    """

    turn: int
    guess: str
    remaining: int
    best_guess: str | None
    expected_value: int | None
    best_expected: int | None
    worst_value: int | None
    best_worst: int | None
    allowed: bool = True

    @property
    def expected_lost(self) -> float | None:
        """Expected guesses lost (per secret) by this guess against the best one."""
        if self.expected_value is None or self.best_expected is None:
            return None
        return (self.expected_value - self.best_expected) / self.remaining

    @property
    def worst_lost(self) -> int | None:
        """Guesses lost in the worst case by this guess against the best one."""
        if self.worst_value is None or self.best_worst is None:
            return None
        return self.worst_value - self.best_worst

    def __str__(self) -> str:
        """One line, such as
        ``guess 2 5611 (312 left): lost +0.0673 expected, +1 worst case; best 2355``."""
        head = f"guess {self.turn} {self.guess} ({self.remaining} left)"
        if self.expected_lost is None and self.worst_lost is None:
            return f"{head}: not graded, the time limit ran out"
        exp = "?" if self.expected_lost is None else f"+{self.expected_lost:.4f}"
        worst = "?" if self.worst_lost is None else f"+{self.worst_lost}"
        best = "" if self.expected_lost == 0 or self.best_guess is None \
            else f"; best {self.best_guess}"
        unproven = "" if "?" not in (exp, worst) else " (?: the time limit ran out)"
        rule = "" if self.allowed else "; not a consistent guess, which the rule forbids"
        return f"{head}: lost {exp} expected, {worst} worst case{best}{unproven}{rule}"

    def to_dict(self) -> dict:
        """The JSON form of the grade (losses ``null`` where not proven)."""
        return {"turn": self.turn, "guess": self.guess, "remaining": self.remaining,
                "best": self.best_guess, "expected_lost": self.expected_lost,
                "worst_lost": self.worst_lost, "allowed": self.allowed}


@dataclass(frozen=True)
class RankedGuess:
    """A class of guesses equivalent at a position: its first code ``guess``, the
    ``codes`` it holds, and ``value``, the exact value of playing any of them and then
    the best play (as :attr:`Advice.value`; ``None``: not valued within the time
    limit)."""

    guess: str
    codes: int
    value: int | None

    def to_dict(self) -> dict:
        return {"guess": self.guess, "codes": self.codes, "value": self.value}


@dataclass(frozen=True)
class Ranking:
    """Every class of guesses at a position, valued exactly: best first, then those
    the time limit left (``value`` None), in the order they would have been valued.

    Invariant: the classes hold every guess allowed at the position once (every
    code, or with consistent guesses every remaining secret).
    """

    remaining: int
    objective: str
    guesses: tuple[RankedGuess, ...]

    @property
    def complete(self) -> bool:
        """Whether every class was valued (the best is then proven best)."""
        return all(r.value is not None for r in self.guesses)

    def lost(self, ranked: RankedGuess) -> float | int | None:
        """What ``ranked`` loses against the best class valued: expected guesses per
        secret (expected) or guesses in the worst case."""
        best = self.guesses[0].value
        if ranked.value is None or best is None:
            return None
        if self.objective == "expected":
            return (ranked.value - best) / self.remaining
        return ranked.value - best

    def to_dict(self) -> dict:
        """The JSON form: ``remaining``, ``objective``, ``complete``, ``ranking``."""
        return {"remaining": self.remaining, "objective": self.objective,
                "complete": self.complete, "ranking": [r.to_dict() for r in self.guesses]}


def guess_classes(game: Game, played, secrets, consistent: bool) -> tuple:
    """``(representatives, sizes)``: the classes of guesses :meth:`Advisor.rank` values,
    those of the renamings of colours and positions that fix the position
    (:func:`~optimal_mm.symmetry.orbit_sizes`), or, with black-only scoring and
    repeats, those of each position's colours renamed on its own
    (:func:`~optimal_mm.symmetry.position_colour_sizes`) where they are fewer, as the
    search itself chooses (p3c4b's 64 first guesses are one class, not three).
    With ``consistent``, only the secrets are guesses."""
    candidates = secrets if consistent else None
    found = orbit_sizes(game, played, secrets, candidates)
    if game.black_only and game.repeats:
        other = position_colour_sizes(game, played, secrets, candidates)
        if len(other[0]) < len(found[0]):
            return other
    return found


class Advisor:
    """Exact advice for one game and guess rule.

    Parameters
    ----------
    game : Game
    guesses : {"any", "consistent"}
        Whether every guess must be a code still possible (hard mode).
    time_limit : float or None
        Seconds one position may be searched (``None``: no limit, in this process).
    strategy : Strategy, "shipped" or None
        An optimal expected-case tree whose positions are answered at once;
        ``"shipped"`` (the default) takes the tree shipped for the game, if any.

    Raises
    ------
    TooLargeError
        For a game of more than :data:`MAX_ADVICE_CODES` codes, or too big for exact search.
    """

    def __init__(self, game: Game, guesses: str = "any",
                 time_limit: float | None = DEFAULT_TIME_LIMIT, strategy="shipped"):
        if guesses not in ("any", "consistent"):
            raise InvalidOptionError(f"guesses must be 'any' or 'consistent', got {guesses!r}")
        check_time_limit(time_limit, "the time limit")
        if game.n_codes > MAX_ADVICE_CODES:
            raise TooLargeError(
                f"{game.spec} has {game.n_codes:,} codes: exact advice is limited to "
                f"{MAX_ADVICE_CODES:,} codes (e.g. p4c8, p4c10n, p5c6, p6c4). Use "
                f"'{command_beyond_advice(game)}' instead")
        check_feasible(game)
        if strategy == "shipped":
            from .player import load_shipped_strategy

            strategy = load_shipped_strategy(game)
        self.game = game
        self.guesses = guesses
        self.time_limit = time_limit
        usable = (strategy is not None and strategy.optimal and strategy.objective == "expected"
                  and strategy.max_guesses is None and strategy.guesses == guesses
                  and strategy.game == game)
        self.strategy: Strategy | None = strategy if usable else None

    # ------------------------------------------------------------- advice
    def advise(self, turns, objective: str = "expected") -> Advice:
        """The best next guess after ``turns`` (:class:`~optimal_mm.history.Turn`).

        Raises
        ------
        InconsistentAnswersError
            When no secret fits the answers (naming the smallest conflicting set).
        """
        _check_objective(objective)
        turns = list(turns)
        secrets = check_history(self.game, turns)
        played = self._played(turns)
        if objective == "expected":
            position = self.tree_position(turns)
            if position is not None:
                return Advice(len(secrets), position.guess, objective, position.total, True,
                              "tree")
        found = self._limited(_best, (self.game, self.guesses, objective, played, secrets))
        if found is not None:
            value, guess = found
            return Advice(len(secrets), self.game.code_str(guess), objective, value, True,
                          "search")
        return self._heuristic(objective, secrets)

    def guess_value(self, turns, guess: "str | int", objective: str = "expected") -> int | None:
        """The exact value of playing ``guess`` after ``turns`` and then the best
        play (``None`` if the time limit ran out)."""
        _check_objective(objective)
        turns = list(turns)
        secrets = check_history(self.game, turns)
        g = self.game.code_index(guess)
        return self._limited(_played_value, (self.game, self.guesses, objective,
                                             self._played(turns), secrets, g))

    def rank(self, turns, objective: str = "expected", jobs: int | None = None) -> Ranking:
        """Every guess at the position after ``turns``, one per class of equivalent
        guesses, valued exactly (:class:`Ranking`; see the module docstring). Under a
        time limit, ``jobs`` child processes (default: one per core) value the
        classes, each every ``jobs``-th in order of promise; without one, this
        process values them in turn.

        >>> from optimal_mm import Game
        >>> advisor = Advisor(Game.from_spec("p3c3"), time_limit=None, strategy=None)
        >>> [(r.guess, r.codes, r.value) for r in advisor.rank([]).guesses]
        [('112', 18, 73), ('123', 6, 80), ('111', 3, 86)]
        """
        _check_objective(objective)
        turns = list(turns)
        secrets = check_history(self.game, turns)
        played = self._played(turns)
        reps, sizes = guess_classes(self.game, played, secrets, self.guesses == "consistent")
        ctx = _ctx(self.game, self.guesses)  # built here: a forked child inherits it

        def promise(i):  # the smallest largest part, then the least sum of squares
            parts = [len(part) for _, part in ctx.split(int(reps[i]), secrets)]
            return max(parts, default=0), sum(n * n for n in parts), i

        order = sorted(range(len(reps)), key=promise)
        head = (self.game, self.guesses, objective, played, secrets)
        if self.time_limit is None:
            values = list(_class_values(*head, [int(reps[i]) for i in order]))
        else:
            jobs = max(1, min(jobs or os.cpu_count() or 1, len(order)))
            shares = [order[j::jobs] for j in range(jobs)]  # the likeliest spread out
            found, _ = streams_with_time_limit(
                _class_values, [(*head, [int(reps[i]) for i in share]) for share in shares],
                self.time_limit)
            by_class = {i: v for share, got in zip(shares, found) for i, v in zip(share, got)}
            values = [by_class.get(i) for i in order]
        ranked = [RankedGuess(self.game.code_str(int(reps[i])), int(sizes[i]), v)
                  for i, v in zip(order, values)]
        valued = sorted((r for r in ranked if r.value is not None), key=lambda r: r.value)
        return Ranking(len(secrets), objective,
                       tuple(valued + [r for r in ranked if r.value is None]))

    def grade(self, turns) -> list[Grade]:
        """A :class:`Grade` for the guess of every turn, against the best guess
        before it; both objectives. The answers must fit together."""
        turns = list(turns)
        check_history(self.game, turns)
        return [self.grade_turn(turns[:i], turns[i].guess) for i in range(len(turns))]

    def grade_turn(self, turns, guess: str) -> Grade:
        """The :class:`Grade` of playing ``guess`` after ``turns``."""
        turns = list(turns)
        secrets = check_history(self.game, turns)
        g = self.game.code_index(guess)
        played = self._played(turns)
        position = self.tree_position(turns)
        tree = (position.total, position.guess) if position is not None else (None, None)
        expected = self._limited(_expected_grade, (self.game, self.guesses, played, secrets, g,
                                                   *tree))
        worst = self._limited(_worst_grade, (self.game, self.guesses, played, secrets, g))
        best_guess, best_exp, value_exp = expected or (tree[1], tree[0], None)
        best_wc, value_wc = worst or (None, None)
        allowed = self.guesses != "consistent" or bool(np.any(secrets == g))
        return Grade(len(turns) + 1, self.game.code_str(g), len(secrets), best_guess,
                     value_exp, best_exp, value_wc, best_wc, allowed)

    def tree_position(self, turns) -> "TreePosition | None":
        """Where the optimal tree answers the position after ``turns``, or None.

        The tree answers every position that a symmetry of the game (a renaming of
        the colours and a permutation of the positions) maps onto one of its nodes:
        the guesses, renamed, are the tree's guesses down a path and the answers its
        branches (answers do not change under a symmetry). The tree's guess there,
        renamed back, is optimal for the position, with the same value. Tried for
        every permutation of the positions, the identity first; the renaming of
        colours is read off the guesses. Unknown or winning answers leave the tree.
        """
        if self.strategy is None:
            return None
        game = self.game
        if any(t.answer is None or t.answer == game.win for t in turns):
            return None
        played = [game.parse_code(t.guess) for t in turns]
        for order in itertools.permutations(range(game.pegs)):
            found = _follow(game, self.strategy.root, turns, played, order)
            if found is not None:
                node, path, renaming = found
                total, _ = subtree_cost(game, node, consistent_secrets(game, path))
                return TreePosition(node, total, _rename_back(game, node.guess, order, renaming))
        return None

    # ------------------------------------------------------------ helpers
    def _played(self, turns) -> tuple[int, ...]:
        return tuple(self.game.code_index(t.guess) for t in turns)

    def _limited(self, fn, args):
        """``fn(*args)``, or None when it does not finish within the time limit."""
        if self.time_limit is None:
            return fn(*args)
        return run_with_time_limit(fn, args, self.time_limit)

    def _heuristic(self, objective: str, secrets: np.ndarray) -> Advice:
        from .heuristics import make_chooser
        from .tree import grow

        name = FALLBACK_HEURISTICS[objective] if self.guesses == "any" else "first-consistent"
        node = grow(self.game, make_chooser(self.game, name), secrets)
        total, worst = subtree_cost(self.game, node, secrets)
        return Advice(len(secrets), node.guess, objective,
                      total if objective == "expected" else worst, False, "heuristic")


@dataclass(frozen=True)
class TreePosition:
    """A position the optimal tree answers: its ``node``, the ``total`` of its
    subtree, and the tree's ``guess`` renamed into the player's colours and places."""

    node: Node
    total: int
    guess: str


def _follow(game: Game, root: Node, turns, played, order):
    """``(node, path, renaming)`` when the symmetry that takes position ``order[i]``
    to ``i`` and renames colours (``renaming``, read off the guesses) maps the
    guesses ``played`` onto a path of the tree from ``root``; else None."""
    renaming, used = {}, set()
    node, path = root, []
    for turn, colours in zip(turns, played):
        if node is None:
            return None
        theirs = game.parse_code(node.guess)
        for i, place in enumerate(order):
            c, d = colours[place], theirs[i]
            if renaming.get(c, d) != d or (c not in renaming and d in used):
                return None
            renaming[c] = d
            used.add(d)
        path.append(Turn(node.guess, turn.answer))
        node = node.next.get(game.answer_str(turn.answer))
    return (node, path, renaming) if node is not None else None


def _rename_back(game: Game, code: str, order, renaming) -> str:
    """The code that the symmetry (``order``, ``renaming``) maps onto ``code``.

    Colours of ``code`` that no played colour is renamed to are taken back to
    themselves where that colour is free, else to the lowest free colour."""
    back = {d: c for c, d in renaming.items()}
    free = [c for c in range(game.colours) if c not in renaming]
    colours = [0] * game.pegs
    for i, d in enumerate(game.parse_code(code)):
        if d not in back:
            back[d] = d if d in free else free[0]
            free.remove(back[d])
        colours[order[i]] = back[d]
    return "".join(game.alphabet[c] for c in colours)


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise InvalidOptionError(f"objective must be one of {', '.join(OBJECTIVES)}, "
                                 f"got {objective!r}")


def subtree_cost(game: Game, node: Node, secrets) -> tuple[int, int]:
    """``(total, worst)`` guesses the subtree at ``node`` takes over ``secrets``
    (the secrets reaching it), counting its own guess as the first.

    Raises :class:`InvalidTreeError` where a secret finds no branch.
    """
    total = worst = 0
    stack = [(node, np.asarray(secrets, dtype=np.int64), 1)]
    while stack:
        node, part, depth = stack.pop()
        answers = game.answers(game.code_index(node.guess), part)
        for a in np.unique(answers):
            a = int(a)
            if a == game.win:
                total += depth
                worst = max(worst, depth)
                continue
            child = node.next.get(game.answer_str(a))
            if child is None:
                raise InvalidTreeError(f"no branch {game.answer_str(a)} after {node.guess}")
            stack.append((child, part[answers == a], depth + 1))
    return total, worst


# How long a child stopped by SIGTERM may take to end before SIGKILL ends it. A fork
# keeps its parent's signal handlers until :func:`_child` resets them, and a fork of a
# process with threads may wait forever on a lock another thread held at the fork:
# SIGTERM then only sets a Python handler's flag, and joining such a child would wait
# with it.
_TERM_GRACE_SECONDS = 5.0


def run_with_time_limit(fn, args, seconds: float):
    """``fn(*args)`` in a child process, or None if it has not finished after
    ``seconds`` (the child is then stopped). The compiled search cannot be
    interrupted from within, so a process is the unit that can be stopped.

    Forked where the platform allows (the child inherits the answer tables);
    elsewhere ``fn`` must be importable by name and the arguments picklable.
    """
    items, _ = stream_with_time_limit(_once, (fn, args), seconds)
    return items[0] if items else None  # its answer, even if the limit came before its end


def stream_with_time_limit(fn, args, seconds: float) -> tuple[list, bool]:
    """``(items, ended)``: what the generator ``fn(*args)``, run in a child process
    (as :func:`run_with_time_limit` runs a function), yielded within ``seconds``, and
    whether it ended by then. The child is stopped at the limit; an exception it
    raises is raised here."""
    (items,), (ended,) = streams_with_time_limit(fn, [args], seconds)
    return items, ended


def streams_with_time_limit(fn, arg_lists, seconds: float) -> tuple[list, list]:
    """``(items, ended)``, one list each per entry of ``arg_lists``: the generators
    ``fn(*args)``, each in a child process of its own, all at once, and what each
    yielded within ``seconds`` of the start, and whether it ended by then. Every
    child is stopped at the limit; the first exception one raises is raised here
    (the others stopped)."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    mp = multiprocessing.get_context(method)
    children, pipes = [], []
    deadline = time.monotonic() + seconds
    items = [[] for _ in arg_lists]
    ended = [False] * len(arg_lists)
    try:
        for args in arg_lists:
            receive, send = mp.Pipe(duplex=False)
            child = mp.Process(target=_child, args=(send, fn, args), daemon=True)
            children.append(child)
            pipes.append(receive)
            with _stop_signals_blocked():
                child.start()
            send.close()
        waiting = dict(enumerate(pipes))
        while waiting:
            left = deadline - time.monotonic()
            ready = multiprocessing.connection.wait(list(waiting.values()), max(0.0, left))
            if not ready:
                break
            for i in [i for i, pipe in waiting.items() if pipe in ready]:
                try:
                    kind, value = pipes[i].recv()
                except EOFError:  # the child died before it had ended
                    children[i].join()
                    raise OptimalMMError(f"the search process ended without an answer "
                                         f"(exit status {children[i].exitcode})") from None
                if kind == "error":
                    raise value
                if kind == "end":
                    ended[i] = True
                    del waiting[i]
                else:
                    items[i].append(value)
        return items, ended
    finally:
        for child in children:
            if child.is_alive():
                child.terminate()
        for child, pipe in zip(children, pipes):
            child.join(_TERM_GRACE_SECONDS)
            if child.is_alive():  # (see _TERM_GRACE_SECONDS)
                child.kill()
                child.join()
            pipe.close()


#: The signals blocked while a child is started (:func:`_stop_signals_blocked`).
_STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


@contextlib.contextmanager
def _stop_signals_blocked():
    """Block SIGTERM and SIGINT in this thread while a child is started.

    A fork keeps its parent's handlers until :func:`_child` resets them; the command
    line's SIGTERM handler raises, and so does Python's for SIGINT. A SIGTERM from
    :func:`streams_with_time_limit`'s limit that reached a fork in between raised in
    the parent's frames, which the fork then ran on (once under pytest, where it
    failed a test in the copied process); a Ctrl-C there would have too. The fork
    inherits the mask, so such a signal waits until :func:`_child` has set SIGTERM's
    default action (it then ends the child) and SIGINT ignored (it is dropped), and
    unblocks them; in this process one that came meanwhile is raised on leaving, as
    it would have been.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _once(fn, args):
    """``fn(*args)`` as a generator of one item (:func:`run_with_time_limit`)."""
    yield fn(*args)


def _child(send, fn, args) -> None:
    # The parent ends this process with SIGTERM once it has its answer or its time is
    # up, and handles Ctrl-C itself: neither may run the handlers a fork inherits (the
    # command line's SIGTERM raises, which printed a traceback under the answer).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # started with them blocked (_stop_signals_blocked)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    try:
        for item in fn(*args):
            send.send(("item", item))
        message = ("end", None)
    except Exception as exc:  # sent back and raised in the parent
        message = ("error", exc)
    send.send(message)
    send.close()


# The searches, module-level functions of plain arguments (run in a child process).
def _ctx(game, guesses):
    return _context(game, guesses == "consistent", TABLE_ENTRIES)


def _best(game, guesses, objective, played, secrets):
    """``(value, guess)``: the best guess at ``secrets`` after the guesses ``played``."""
    if objective == "expected":
        return _best_expected(game, guesses, played, secrets)
    return _best_worst(game, guesses, played, secrets)


def _best_expected(game, guesses, played, secrets):
    n = len(secrets)
    if n <= 2:  # the first secret, then the other
        return 2 * n - 1, int(secrets[0])
    ctx = _ctx(game, guesses)
    top = node_guess_classes(game, played, secrets, ctx.consistent)
    value, guess = ctx.exp(secrets, INF, NO_CAP, top)
    return int(value), int(guess)


def _best_worst(game, guesses, played, secrets):
    n = len(secrets)
    if n == 1:
        return 1, int(secrets[0])
    ctx = _ctx(game, guesses)
    top = node_guess_classes(game, played, secrets, ctx.consistent)
    d = next(d for d in range(1, NO_CAP + 1) if ctx.lb[d, n] < INF)
    while not ctx.wc(secrets, d, top):
        d += 1
    return d, ctx.wc_guess(secrets, d)


def _played_value(game, guesses, objective, played, secrets, guess):
    """The value of playing ``guess`` at ``secrets``, then the best play."""
    ctx = _ctx(game, guesses)
    parts = [part for _, part in ctx.split(guess, secrets)]
    after = (*played, guess)
    if objective == "expected":
        return len(secrets) + sum(_best_expected(game, guesses, after, p)[0] for p in parts)
    return 1 + max((_best_worst(game, guesses, after, p)[0] for p in parts), default=0)


def _class_values(game, guesses, objective, played, secrets, reps):
    """The value of each guess of ``reps`` at ``secrets`` (:func:`_played_value`), in
    turn, as a generator: a child stopped at its time limit has sent those done."""
    for guess in reps:
        yield _played_value(game, guesses, objective, played, secrets, guess)


def _expected_grade(game, guesses, played, secrets, guess, tree_total, tree_guess):
    """``(best guess as text, best total, total of guess)`` at ``secrets``; the best
    from the optimal tree where it reaches the position (``tree_total``, ``tree_guess``)."""
    if tree_total is None:
        best_total, best_guess = _best_expected(game, guesses, played, secrets)
    else:
        best_total, best_guess = tree_total, game.code_index(tree_guess)
    if guess == best_guess:
        return game.code_str(best_guess), best_total, best_total
    return (game.code_str(best_guess), best_total,
            _played_value(game, guesses, "expected", played, secrets, guess))


def _worst_grade(game, guesses, played, secrets, guess):
    """``(best worst case, worst case of guess)`` at ``secrets``."""
    return (_best_worst(game, guesses, played, secrets)[0],
            _played_value(game, guesses, "worst-case", played, secrets, guess))
