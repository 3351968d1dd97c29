"""What a large-n strategy is, and how one is played against an answer source.

A strategy is a generator: it *yields* each question (an array of colour
numbers), receives the black-peg answer through ``send``, and *returns* the
secret once the answers determine it. :func:`play` drives it against any answer
source (a :class:`~optimal_mm.largen.oracle.BlackPegOracle`, or a person typing
answers) and ends as the rules of Mastermind do: as soon as a question is
answered with every peg black. If the strategy knows the secret before asking
it, :func:`play` asks it as the last guess (the seed text leaves that last
confirming question out of its counts; :class:`Playthrough` records both).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generator

import numpy as np

from ..errors import InconsistentAnswersError, InvalidGameError

Questions = Generator[np.ndarray, int, np.ndarray]


@dataclass
class Playthrough:
    """The questions and answers of one game, and when the secret became known."""

    pegs: int
    questions: list = field(default_factory=list)
    answers: list = field(default_factory=list)
    known_after: int | None = None
    secret: np.ndarray | None = None

    @property
    def guesses(self) -> int:
        """Questions asked, the winning one included."""
        return len(self.questions)


class LargeStrategy:
    """Base class: a named strategy for some black-peg games, playable at any size."""

    name: str = ""
    summary: str = ""

    def __init__(self, pegs: int, colours: int):
        self.pegs, self.colours = pegs, colours

    @classmethod
    def refusal(cls, pegs: int, colours: int, repeats: bool, black_only: bool) -> str | None:
        """Why the strategy cannot play this game (``None`` when it can)."""
        raise NotImplementedError

    @classmethod
    def check(cls, pegs: int, colours: int, repeats: bool, black_only: bool) -> None:
        """Raise :class:`InvalidGameError` (naming the strategy) where it cannot play."""
        why = cls.refusal(pegs, colours, repeats, black_only)
        if why:
            raise InvalidGameError(f"--heuristic {cls.name} {why}")

    def questions(self) -> Questions:
        """The generator of questions (see the module docstring)."""
        raise NotImplementedError


def play(strategy: LargeStrategy, ask: Callable[[np.ndarray], int],
         on_answer: Callable[[int, np.ndarray, int], None] | None = None) -> Playthrough:
    """Play ``strategy`` against ``ask`` (question -> black pegs) until all pegs are black.

    ``on_answer(number, question, answer)`` is called after each answer (for
    printing as the game goes).

    Raises
    ------
    InconsistentAnswersError
        When the answers contradict each other (no secret gives them all).
    """
    record = Playthrough(strategy.pegs)
    gen = strategy.questions()

    def asked(question) -> int:
        question = np.asarray(question)
        answer = int(ask(question))
        if not 0 <= answer <= strategy.pegs:
            raise InconsistentAnswersError(f"answer {answer} is not 0..{strategy.pegs}")
        record.questions.append(question)
        record.answers.append(answer)
        if on_answer is not None:
            on_answer(len(record.questions), question, answer)
        return answer

    try:
        question = next(gen)
        while True:
            if asked(question) == strategy.pegs:
                record.secret = question
                record.known_after = record.known_after or len(record.questions)
                return record
            question = gen.send(record.answers[-1])
    except StopIteration as stop:
        secret = np.asarray(stop.value)
    record.known_after = len(record.questions)
    record.secret = secret
    if asked(secret) != strategy.pegs:
        raise InconsistentAnswersError(
            f"the answers determine a secret that then scored {record.answers[-1]} blacks")
    return record
