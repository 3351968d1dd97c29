"""What a large-n strategy is, and how one is played against an answer source.

A strategy is a generator: it *yields* each question (an array of colour
numbers), receives the black-peg answer through ``send``, and *returns* the
secret once the answers determine it. :func:`play` drives it against any answer
source (a :class:`~optimal_mm.largen.oracle.BlackPegOracle`, or a person typing
answers) and ends as the rules of Mastermind do: as soon as a question is
answered with every peg black. If the strategy knows the secret before asking
it, :func:`play` asks it as the last guess (the seed text leaves that last
confirming question out of its counts; :class:`Playthrough` records both).

:class:`LargeCodebreaker` holds such a game in progress for a person who
answers by hand and may err: an answer that contradicts the earlier ones is
refused (and can be entered again), and earlier answers can be taken back or
corrected, as :class:`optimal_mm.player.Codebreaker` allows for the games whose
codes can be listed. Here no list of secrets is kept; three checks find the
contradictions instead:

* the strategy's own, as each answer arrives, where the rules bound the
  answer (a question that changes ``k`` pegs of an earlier one changes its
  answer by at most ``k``): these name the answers that conflict;
* when the answers determine the secret: it must give every answer so far
  (else no secret does, since the strategy finds the secret of any answers
  that have one);
* an all-black answer: the question is then the secret, and it must give every
  earlier answer.

>>> from optimal_mm.largen.coin_weighing import CoinWeighing
>>> game = LargeCodebreaker(CoinWeighing(4, 2))
>>> game.next_guess().tolist()
[0, 0, 0, 0]
>>> game.tell(2)
>>> game.next_guess().tolist()
[1, 0, 0, 0]
>>> game.tell(0)
Traceback (most recent call last):
...
optimal_mm.errors.InconsistentAnswersError: the answers to guesses 1 and 2 contradict each other: guess 2 changes 1 peg of guess 1, so its answer must be 1 or 3, not 0
>>> game.tell(3); game.guesses
2
"""  # noqa: E501 (a doctest's output line)

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generator, Iterable

import numpy as np

from ..errors import InconsistentAnswersError, InvalidAnswerError, InvalidGameError

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


def describe_guesses(numbers: Iterable[int]) -> str:
    """Guesses by their 0-based numbers, as a person counts them (from 1), runs shortened.

    >>> describe_guesses([1]), describe_guesses([0, 1]), describe_guesses([0, 2, 3, 4, 5, 8])
    ('guess 2', 'guesses 1 and 2', 'guesses 1, 3 to 6 and 9')
    """
    numbers = sorted({int(n) + 1 for n in numbers})
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    items: list[str] = []
    for first, last in runs:
        items += ([str(first)] if first == last else [str(first), str(last)]
                  if last == first + 1 else [f"{first} to {last}"])
    if len(numbers) == 1:
        return f"guess {numbers[0]}"
    if len(items) == 1:
        return f"guesses {items[0]}"
    return f"guesses {', '.join(items[:-1])} and {items[-1]}"


def contradiction(conflict: Iterable[int], reason: str) -> InconsistentAnswersError:
    """The error for answers that contradict each other, naming them.

    ``conflict`` holds the 0-based numbers of the questions whose answers cannot
    all be right (one of them is wrong), kept as the error's ``conflict``
    attribute as :meth:`optimal_mm.player.Codebreaker.tell` keeps it; ``reason``
    says why, in the words of the rules.
    """
    conflict = tuple(sorted({int(n) for n in conflict}))
    error = InconsistentAnswersError(
        f"the answers to {describe_guesses(conflict)} contradict each other: {reason}")
    error.conflict = conflict
    return error


def _no_secret_fits(cause: str = "no secret gives them all") -> InconsistentAnswersError:
    """A contradiction found only once several answers met: the answers so far are
    to blame together, with no smaller set named."""
    error = InconsistentAnswersError(f"the answers so far contradict each other: {cause}")
    error.conflict = ()
    return error


class LargeCodebreaker:
    """A large-n strategy in play against a person: its questions, the answers so
    far, and the secret once found (see the module docstring for the checks).

    Parameters
    ----------
    strategy : LargeStrategy

    Attributes
    ----------
    questions, answers : list
        The questions answered and their answers (black pegs), in order.
    known_after : int or None
        Questions answered when the secret became known.

    Notes
    -----
    A generator cannot step back, and one that has raised cannot go on; but a
    strategy asks the same questions whenever it gets the same answers, so
    every step back (a refused answer, :meth:`undo`, :meth:`correct`) replays
    the answers kept on a fresh generator: a few hundred questions of ``n``
    pegs, instant at the pace of a person.
    """

    def __init__(self, strategy: LargeStrategy):
        self.strategy = strategy
        self._restart()

    def _restart(self) -> None:
        self.questions: list[np.ndarray] = []
        self.answers: list[int] = []
        self.known_after: int | None = None
        self._secret: np.ndarray | None = None     # known, awaiting its all-black answer
        self._solved = False
        self._questions = self.strategy.questions()
        self._pending = np.asarray(next(self._questions))

    # ---------------------------------------------------------------- state
    @property
    def pegs(self) -> int:
        return self.strategy.pegs

    @property
    def guesses(self) -> int:
        """Questions answered, the winning one included."""
        return len(self.answers)

    @property
    def solved(self) -> bool:
        """True once a question got the all-black answer."""
        return self._solved

    @property
    def secret(self) -> np.ndarray | None:
        """The secret once the answers determine it, else None."""
        if self._solved:
            return self.questions[-1]
        return self._secret

    def next_guess(self) -> np.ndarray:
        """The question awaiting an answer (the same until :meth:`tell`)."""
        if self._solved:
            raise RuntimeError("the game is over: the secret was found")
        return self._pending

    def playthrough(self) -> Playthrough:
        """The game so far as a :class:`Playthrough`."""
        return Playthrough(self.pegs, list(self.questions), list(self.answers),
                           self.known_after, self.secret)

    # ----------------------------------------------------------------- play
    def tell(self, answer: int) -> None:
        """Record the black pegs of the question awaiting an answer.

        Raises
        ------
        InvalidAnswerError
            For a number of black pegs outside ``0..pegs``.
        InconsistentAnswersError
            When the answers, this one included, contradict each other; its
            ``conflict`` holds the 0-based numbers of the answers that do, or is
            empty when only all the answers so far together are to blame.
            Nothing is recorded: the answer can be entered again.
        """
        question = self.next_guess()
        answer = int(answer)
        n, number = self.pegs, self.guesses
        if not 0 <= answer <= n:
            raise InvalidAnswerError(f"answer {answer} is not a number of black pegs "
                                     f"0..{n}")
        if self._secret is not None and answer != n:
            those = "the one" if number == 1 else "those"
            raise _no_secret_fits(
                f"{those} to {describe_guesses(range(number))} "
                f"leave{'s' * (number == 1)} only one secret, guess {number + 1}, so its "
                f"answer must be {n}, not {answer}")
        if answer == n:
            self._check_secret(question, with_number=number)
            self._keep(question, answer)
            self.known_after = self.known_after or self.guesses
            self._solved = True
            return
        try:
            following = self._questions.send(answer)
        except StopIteration as stop:
            secret = np.asarray(stop.value)
            if any(int(np.count_nonzero(q == secret)) != a
                   for q, a in zip(self.questions + [question], self.answers + [answer])):
                self._replay(self.answers)
                raise _no_secret_fits() from None
            self._keep(question, answer)
            self._secret, self.known_after, self._pending = secret, self.guesses, secret
            return
        except InconsistentAnswersError as exc:
            self._replay(self.answers)
            if getattr(exc, "conflict", None):
                raise
            raise _no_secret_fits() from exc
        self._keep(question, answer)
        self._pending = np.asarray(following)

    def _keep(self, question, answer: int) -> None:
        self.questions.append(question)
        self.answers.append(answer)

    def _check_secret(self, code, with_number: int) -> None:
        """Refuse the all-black answer to question ``with_number`` unless ``code`` gives
        every earlier answer."""
        for i, (q, a) in enumerate(zip(self.questions, self.answers)):
            blacks = int(np.count_nonzero(q == code))
            if blacks != a:
                raise contradiction(
                    (i, with_number),
                    f"if guess {with_number + 1} is the secret, guess {i + 1} scores "
                    f"{blacks}, not {a}")

    def _replay(self, answers: list[int], asked: list | None = None) -> None:
        """Start again and give ``answers``; on a refusal, the state is left as it was.

        With ``asked`` (the questions the answers were given to), stop at the first
        question the strategy no longer asks: the answers from there on were to
        other questions.
        """
        saved = dict(self.__dict__)
        self._restart()
        try:
            for k, answer in enumerate(answers):
                if asked is not None and not np.array_equal(self.next_guess(), asked[k]):
                    break
                self.tell(answer)
        except Exception:
            self.__dict__.update(saved)
            raise

    def undo(self) -> int:
        """Take back the last answer (and its question); returns the answer removed.

        Raises :class:`IndexError` when no answer has been given.
        """
        if not self.answers:
            raise IndexError("no answer to take back")
        answers = self.answers[:-1]
        last = self.answers[-1]
        self._replay(answers)
        return last

    def correct(self, index: int, answer: int) -> int:
        """Change the answer to question ``index`` (0 for the first) and replay the
        later answers; returns how many of them were dropped.

        The strategy asks its later questions again with the corrected answer;
        each later answer is kept while its question is asked again, and from the
        first question that changed on, the answers are dropped (they were to
        other questions): those questions are asked anew.

        Raises
        ------
        IndexError
            For a question not answered.
        InvalidAnswerError, InconsistentAnswersError
            For an impossible answer, or answers that still contradict each other;
            nothing is changed then.
        """
        if not 0 <= index < len(self.answers):
            raise IndexError(f"there is no answer #{index + 1} to correct")
        answer = int(answer)
        if not 0 <= answer <= self.pegs:
            raise InvalidAnswerError(f"answer {answer} is not a number of black pegs "
                                     f"0..{self.pegs}")
        if answer == self.pegs and index != len(self.answers) - 1:
            raise InvalidAnswerError(f"answer {answer} to #{index + 1} would have ended the "
                                     f"game there")
        answers = list(self.answers)
        answers[index] = answer
        before = len(answers)
        self._replay(answers, asked=self.questions)
        return before - len(self.answers)


def play(strategy: LargeStrategy, ask: Callable[[np.ndarray], int],
         on_answer: Callable[[int, np.ndarray, int], None] | None = None) -> Playthrough:
    """Play ``strategy`` against ``ask`` (question -> black pegs) until all pegs are black.

    ``on_answer(number, question, answer)`` is called after each answer (for
    printing as the game goes).

    Raises
    ------
    InconsistentAnswersError
        When the answers contradict each other (no secret gives them all).
    InvalidAnswerError
        For an answer outside ``0..pegs``.
    """
    game = LargeCodebreaker(strategy)
    while not game.solved:
        question = game.next_guess()
        answer = int(ask(question))
        game.tell(answer)
        if on_answer is not None:
            on_answer(game.guesses, question, answer)
    return game.playthrough()
