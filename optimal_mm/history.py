"""Answer histories: the guesses played, their answers, and what they leave.

A *history* is the list of guesses played so far with the answer each got. The
*remaining* (or consistent) secrets are the codes that would have given exactly
those answers. People score by hand, so a history may be wrong in two ways:

Unknown answers
    An answer written ``?`` was not recorded. It constrains nothing: the secrets
    kept are those consistent with *some* answer to that guess, i.e. all of them.

Conflicting answers
    When no secret fits every answer, at least one answer is wrong. The useful
    diagnosis is the smallest set of answers that already contradict each other:
    one of *those* must be corrected, and the others are not to blame. That is a
    minimum unsatisfiable subset. Each answer is a set of codes (those it allows);
    a subset of answers conflicts when the sets do not meet. For histories of up to
    :data:`EXACT_CONFLICT_TURNS` answers every subset is tried, smallest first (at
    most ``2**12`` intersections of bit vectors over the codes), so the set named
    is a smallest one; for longer histories a *minimal* one is named (no answer
    can be dropped from it), found by deleting answers one at a time.

>>> from optimal_mm import Game
>>> game = Game.from_spec("mastermind")
>>> turns = parse_history(game, "1123=1B1W 1123=0B0W 3456=?")
>>> len(consistent_secrets(game, turns[2:]))
1296
>>> smallest_conflict(game, turns)
(0, 1)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .errors import InconsistentAnswersError, InvalidAnswerError
from .game import Game

#: Histories of at most this many known answers get a smallest conflicting set;
#: longer ones a minimal one.
EXACT_CONFLICT_TURNS = 12
#: How an unknown answer is written.
UNKNOWN = "?"


@dataclass(frozen=True)
class Turn:
    """One guess and the answer it got: an answer id of the game, or ``None`` when
    the answer is unknown (written ``?``)."""

    guess: str
    answer: int | None


def answer_id(game: Game, answer: "int | str") -> int:
    """The answer id of ``answer`` (an id, or text for :meth:`Game.parse_answer`).

    Raises :class:`InvalidAnswerError` for text that is malformed or an answer
    that can never occur in the game.
    """
    if isinstance(answer, str):
        answer = game.parse_answer(answer)
    answer = int(answer)
    if not game.is_possible_answer(answer):
        raise InvalidAnswerError(f"answer {answer!r} can never occur in {game.spec}")
    return answer


def turn_text(game: Game, turn: Turn) -> str:
    """``"1123=1B1W"`` (``"1123=?"`` for an unknown answer): the form
    :func:`parse_history` reads."""
    answer = UNKNOWN if turn.answer is None else game.answer_str(turn.answer)
    return f"{turn.guess}={answer}"


def parse_turn(game: Game, text: str) -> Turn:
    """``"0123=0B1W"`` (or ``0123=01``, ``0123=?``) -> :class:`Turn`, checking both halves.

    Raises
    ------
    InvalidCodeError, InvalidAnswerError
        Quoting the bad guess or answer.

    >>> g = Game.from_spec("bulls-and-cows")
    >>> parse_turn(g, "0123=01")
    Turn(guess='0123', answer=1)
    """
    guess, sep, answer = text.partition("=")
    guess, answer = guess.strip(), answer.strip()
    if not sep or not guess or not answer:
        raise InvalidAnswerError(f"{text!r}: expected GUESS=ANSWER, e.g. "
                                 f"{game.code_str(0)}={game.answer_str(0)} or "
                                 f"{game.code_str(0)}={UNKNOWN}")
    code = game.code_str(game.code_index(guess))
    if answer == UNKNOWN:
        return Turn(code, None)
    return Turn(code, game.parse_answer(answer))


def parse_history(game: Game, text: "str | list[str]") -> list[Turn]:
    """Turns from ``"1123=1B1W 3456=0B2W"`` (space or comma separated) or a list of
    such items.

    >>> g = Game.from_spec("mastermind")
    >>> [turn_text(g, t) for t in parse_history(g, "1123=1B1W, 3456=?")]
    ['1123=1B1W', '3456=?']
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_turn(game, item) for item in items]


def allowed_mask(game: Game, turn: Turn) -> np.ndarray:
    """Boolean vector over all codes: which secrets ``turn`` allows."""
    if turn.answer is None:
        return np.ones(game.n_codes, dtype=bool)
    return game.answers(game.code_index(turn.guess)) == turn.answer


def consistent_secrets(game: Game, turns) -> np.ndarray:
    """Sorted int64 code indices of the secrets that fit every turn (empty if none)."""
    secrets = np.arange(game.n_codes, dtype=np.int64)
    for turn in turns:
        if turn.answer is not None:
            secrets = secrets[game.answers(game.code_index(turn.guess), secrets) == turn.answer]
    return secrets


def smallest_conflict(game: Game, turns) -> tuple[int, ...] | None:
    """Indices (into ``turns``) of a smallest set of answers no secret fits together,
    or ``None`` when some secret fits them all.

    Exact (a minimum unsatisfiable subset) for up to :data:`EXACT_CONFLICT_TURNS`
    known answers; beyond, a minimal one (dropping any answer leaves a secret).
    Among sets of the same size the one of earliest answers is named.
    """
    turns = list(turns)
    known = [i for i, t in enumerate(turns) if t.answer is not None]
    masks = {i: allowed_mask(game, turns[i]) for i in known}
    if np.logical_and.reduce([masks[i] for i in known] or [np.ones(1, bool)]).any():
        return None
    if len(known) <= EXACT_CONFLICT_TURNS:
        for size in range(1, len(known) + 1):
            for subset in itertools.combinations(known, size):
                if not np.logical_and.reduce([masks[i] for i in subset]).any():
                    return subset
    kept = list(known)
    for i in reversed(known):  # drop the latest answers first: blame the earliest
        rest = [j for j in kept if j != i]
        if rest and not np.logical_and.reduce([masks[j] for j in rest]).any():
            kept = rest
    return tuple(kept)


def describe_conflict(game: Game, turns, conflict) -> str:
    """``"#1 1123=1B1W and #2 1123=0B0W"``: the answers of ``conflict``, numbered from 1."""
    items = [f"#{i + 1} {turn_text(game, turns[i])}" for i in conflict]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def check_history(game: Game, turns) -> np.ndarray:
    """The secrets consistent with ``turns``; raises when there is none.

    Raises
    ------
    InconsistentAnswersError
        Naming the smallest set of answers that contradict each other, or a winning
        answer that a turn follows (the game ended there).

    >>> g = Game.from_spec("mastermind")
    >>> len(check_history(g, parse_history(g, "1123=1B1W 3456=?")))
    230
    >>> check_history(g, parse_history(g, "1111=0B1W"))
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InconsistentAnswersError: no secret fits these answers: #1 1111=0B1W is impossible by itself
    >>> check_history(g, parse_history(g, "1123=4B0W 1123=4B0W"))
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InconsistentAnswersError: #1 1123=4B0W won the game: no turn can follow it
    >>> turns = parse_history(g, "1111=00 2222=00 3333=00 4444=00 5555=00 1234=01")
    >>> check_history(g, turns)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InconsistentAnswersError: no secret fits these answers: #1 1111=0B0W,
    #2 2222=0B0W, #3 3333=0B0W, #4 4444=0B0W and #6 1234=0B1W contradict each other
    (one of them is wrong)
    """  # noqa: E501 (a doctest's output line)
    turns = list(turns)
    for i, turn in enumerate(turns[:-1]):
        if turn.answer == game.win:
            raise InconsistentAnswersError(
                f"#{i + 1} {turn_text(game, turn)} won the game: no turn can follow it")
    secrets = consistent_secrets(game, turns)
    if len(secrets) == 0:
        conflict = smallest_conflict(game, turns)
        if len(conflict) == 1:
            raise InconsistentAnswersError(
                f"no secret fits these answers: {describe_conflict(game, turns, conflict)} "
                f"is impossible by itself")
        raise InconsistentAnswersError(
            f"no secret fits these answers: {describe_conflict(game, turns, conflict)} "
            f"contradict each other (one of them is wrong)")
    return secrets
