"""Playing a game against a person: the computer as codebreaker or as codemaker.

This module holds the *state* of a game in progress, apart from any input or
output, so that the command line (``optimal-mm play`` and ``optimal-mm
challenge``), a test or another program can drive it the same way.

:class:`Codebreaker`
    The person hides a secret; the computer guesses. The codebreaker keeps the
    set of *remaining* secrets, the codes that agree with every answer given so
    far. Each answer filters that set: the secrets kept are those that would have
    produced the same answer to the same guess. Its guesses come from a strategy
    tree while the answers follow branches of the tree (instant, and optimal when
    the tree is), else from a *chooser*, a function
    ``choose(secrets, depth) -> code index`` such as those of
    :mod:`optimal_mm.heuristics`.

    People make mistakes when they score by hand. If an answer leaves no secret
    that agrees with all answers, :meth:`Codebreaker.tell` raises
    :class:`~optimal_mm.errors.InconsistentAnswersError` and keeps the state it
    had before that answer, so the answer can simply be entered again;
    :meth:`Codebreaker.undo` takes back earlier answers.

:class:`Codemaker`
    The computer hides a secret, drawn with a :class:`random.Random` passed in
    (never a global seed, so a seeded game replays exactly), and answers the
    person's guesses.

>>> from optimal_mm import Game
>>> import random
>>> game = Game.from_spec("p2c3")
>>> maker = Codemaker(game, random.Random(1))
>>> breaker = Codebreaker(game, chooser=lambda secrets, depth: int(secrets[0]))
>>> while not breaker.solved:
...     guess = breaker.next_guess()
...     breaker.tell(maker.guess(guess))
>>> breaker.secret == maker.reveal(), breaker.guesses == maker.guesses
(True, True)
"""

from __future__ import annotations

import random
from importlib import resources
from typing import Callable

import numpy as np

from .errors import InconsistentAnswersError, InvalidAnswerError, InvalidTreeError, TooLargeError
from .game import Game, random_code
from .history import Turn, answer_id, check_history, describe_conflict, smallest_conflict
from .tree import Node, Strategy

#: ``choose(secrets, depth) -> code index``: picks the next guess for the remaining
#: ``secrets`` (an int64 array of code indices); ``depth`` is 1 for the first guess.
Chooser = Callable[[np.ndarray, int], int]

#: The heuristic used when neither a tree nor a chooser is given.
DEFAULT_HEURISTIC = "knuth"


def describe_answer(game: Game, answer: int) -> str:
    """The answer in words, for people who do not think in black and white pegs.

    >>> g = Game.from_spec("mastermind")
    >>> describe_answer(g, g.parse_answer("1B2W"))
    '1 right colour in the right place, 2 right colours in the wrong place'
    >>> describe_answer(g, g.parse_answer("0B1W"))
    '1 right colour in the wrong place'
    >>> describe_answer(g, g.parse_answer("0 0"))
    'nothing right'
    >>> describe_answer(Game.from_spec("bulls-and-cows"), 6)
    '1 bull, 1 cow'
    """
    black, white = game.decode_answer(answer)
    if answer == game.win:
        return "all right: solved"
    if black == 0 and white == 0:
        return "nothing right"
    if game.name == "bulls-and-cows":
        return f"{black} bull{'s' * (black != 1)}, {white} cow{'s' * (white != 1)}"
    if game.black_only:
        return f"{black} in the right place"
    parts = []
    if black:
        parts.append(f"{black} right colour{'s' * (black != 1)} in the right place")
    if white:
        parts.append(f"{white} right colour{'s' * (white != 1)} in the wrong place")
    return ", ".join(parts)


def shipped_tree_name(game: Game) -> str:
    """File name of the tree shipped for ``game`` in ``optimal_mm/data``."""
    return f"{game.name}.json.gz"


def load_shipped_strategy(game: Game) -> Strategy | None:
    """The strategy tree shipped with the package for ``game``, or None if there is none.

    Shipped trees live in ``optimal_mm/data/<game.name>.json.gz`` and are read
    through :mod:`importlib.resources`, so they are found in an installed wheel
    as well as in a source checkout.
    """
    entry = resources.files("optimal_mm").joinpath("data", shipped_tree_name(game))
    if not entry.is_file():
        return None
    with resources.as_file(entry) as path:
        return Strategy.load(path)


def check_strategy_game(strategy: Strategy, game: Game, where: str = "the tree") -> None:
    """Raise :class:`InvalidTreeError` unless ``strategy`` was built for ``game``.

    Two games are the same when pegs, colours, repeats, scoring *and* alphabet
    agree: a tree's codes are strings over its alphabet.
    """
    if strategy.game == game:
        return
    theirs, ours = strategy.game, game
    if theirs.spec == ours.spec:
        raise InvalidTreeError(
            f"{where} is for {theirs.spec} with alphabet {theirs.alphabet!r}, "
            f"but the game uses {ours.alphabet!r}")
    raise InvalidTreeError(f"{where} is for {theirs.name}, not for {ours.name}")


class Codebreaker:
    """The computer guesses a secret that the person keeps.

    Parameters
    ----------
    game : Game
    strategy : Strategy, optional
        A tree to follow. It must be for ``game`` (else :class:`InvalidTreeError`).
        Trees are taken as valid: call :meth:`Strategy.validate` first on a file
        of unknown origin.
    chooser : callable, optional
        ``choose(secrets, depth) -> code index``, asked for a guess when there is
        no tree. Without tree or chooser, the :data:`DEFAULT_HEURISTIC` of
        :mod:`optimal_mm.heuristics` is made on first use.

    Attributes
    ----------
    history : list of Turn
        The guesses played and the answers they got, in order.
    last_move : MoveReport or None
        How the chooser chose the last guess (:class:`optimal_mm.heuristics.MoveReport`),
        None when it came from the tree or the chooser does not say.

    Raises
    ------
    TooLargeError
        For games with too many codes to enumerate.

    Examples
    --------
    With a chooser that plays the first remaining secret, in a 2-peg, 3-colour
    game, two answers ``0B0W`` leave only one secret, and an answer that
    contradicts them is refused:

    >>> g = Game.from_spec("p2c3")
    >>> cb = Codebreaker(g, chooser=lambda secrets, depth: int(secrets[0]))
    >>> cb.next_guess()
    '11'
    >>> cb.tell("0 0"); cb.remaining, cb.next_guess()
    (4, '22')
    >>> cb.tell("0B0W"); cb.secret
    '33'
    >>> cb.tell("1 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InconsistentAnswersError: no secret gives all these answers: ...
    """

    def __init__(self, game: Game, strategy: Strategy | None = None,
                 chooser: Chooser | None = None):
        if not game.is_enumerable:
            raise TooLargeError(
                f"{game.spec} is too big to list its codes, as this codebreaker does: "
                f"play it with the consistent-guess player (optimal_mm.consistent)")
        if strategy is not None:
            check_strategy_game(strategy, game)
        self.game = game
        self.strategy = strategy
        self._chooser = chooser
        self.history: list[Turn] = []
        self._secrets = np.arange(game.n_codes, dtype=np.int64)
        self._node: Node | None = strategy.root if strategy is not None else None
        self._guess: int | None = None
        self._answers: np.ndarray | None = None  # of the remaining secrets to _guess
        self._solved = False
        self.last_move = None
        # States before each answer, for undo: (secrets, node).
        self._before: list[tuple[np.ndarray, Node | None]] = []

    # ---------------------------------------------------------------- state
    @property
    def remaining(self) -> int:
        """Number of secrets that agree with every answer so far."""
        return int(len(self._secrets))

    @property
    def remaining_secrets(self) -> list[str]:
        """The secrets that agree with every answer so far (can be long early on)."""
        return [self.game.code_str(int(s)) for s in self._secrets]

    @property
    def solved(self) -> bool:
        """True once a guess got the all-black answer."""
        return self._solved

    @property
    def secret(self) -> str | None:
        """The secret when the answers determine it (one remaining), else None."""
        return self.game.code_str(int(self._secrets[0])) if self.remaining == 1 else None

    @property
    def guesses(self) -> int:
        """Number of answered guesses, the winning one included."""
        return len(self.history)

    @property
    def on_tree(self) -> bool:
        """Whether the next guess comes from the strategy tree."""
        return self._node is not None

    # ----------------------------------------------------------------- play
    def next_guess(self) -> str:
        """The guess to play now (asking the tree, else the chooser, once per turn).

        Calling it again before :meth:`tell` returns the same guess.
        """
        if self._solved:
            raise RuntimeError("the game is over: the secret was found")
        if self._guess is None:
            self.last_move = None
            self._guess = self._choose()
        return self.game.code_str(self._guess)

    def _choose(self) -> int:
        if self._node is not None:
            return self.game.code_index(self._node.guess)
        if self.remaining == 1:
            return int(self._secrets[0])
        if self._chooser is None:
            self._chooser = default_chooser(self.game)
        guess = self.game.code_index(int(self._chooser(self._secrets, self.guesses + 1)))
        self.last_move = getattr(self._chooser, "last_move", None)
        answers = self._answers_to(guess)
        if answers[0] != self.game.win and np.all(answers == answers[0]):
            # A guess that cannot tell the remaining secrets apart would repeat forever;
            # any remaining secret always makes progress.
            guess = int(self._secrets[0])
        else:
            self._answers = answers  # kept for tell(): one pass over big sets, not two
        return guess

    def _answers_to(self, guess: int) -> np.ndarray:
        """Answers of the remaining secrets to ``guess`` (all codes without indexing)."""
        everything = self.remaining == self.game.n_codes
        return self.game.answers(guess, None if everything else self._secrets)

    def tell(self, answer: "int | str") -> None:
        """Record the answer to the current guess and keep the secrets that agree.

        Parameters
        ----------
        answer : int or str
            An answer id of the game, or text for :meth:`Game.parse_answer`
            (``"2 1"``, ``"2B1W"``, ``"21"``).

        Raises
        ------
        InvalidAnswerError
            For text that is malformed or an answer that can never occur.
        InconsistentAnswersError
            When no secret agrees with all answers, this one included (or a tree
            being followed has no branch for it). Nothing is recorded: the state
            is the one before this call, so the answer can be entered again.
        """
        game = self.game
        answer = answer_id(game, answer)
        guess_str = self.next_guess()
        guess = self._guess
        key = game.answer_str(answer)
        answers = self._answers if self._answers is not None else self._answers_to(guess)
        kept = self._secrets[answers == answer]
        if len(kept) == 0:
            turns = [*self.history, Turn(guess_str, answer)]
            conflict = smallest_conflict(game, turns)
            error = InconsistentAnswersError(
                f"no secret gives all these answers: {self._describe(guess_str, key)}; "
                f"{describe_conflict(game, turns, conflict)} "
                + ("cannot be right" if len(conflict) == 1 else "contradict each other"))
            error.conflict = conflict
            raise error
        node = self._node
        if answer != game.win and node is not None:
            if key not in node.next:
                raise InconsistentAnswersError(
                    f"the tree has no branch for these answers: {self._describe(guess_str, key)}")
            node = node.next[key]
        self._before.append((self._secrets, self._node))
        self.history.append(Turn(guess_str, answer))
        self._secrets, self._node, self._guess, self._answers = kept, node, None, None
        self._solved = answer == game.win

    def undo(self) -> Turn:
        """Take back the last answer (and its guess); returns the turn removed.

        Raises :class:`IndexError` when no answer has been given.
        """
        if not self.history:
            raise IndexError("no answer to take back")
        self._secrets, self._node = self._before.pop()
        self._guess, self._answers, self._solved = None, None, False
        return self.history.pop()

    def correct(self, index: int, answer: "int | str") -> None:
        """Change the answer of the earlier turn ``index`` (0 for the first) and
        replay the rest, e.g. to mend one of the answers an
        :class:`~optimal_mm.errors.InconsistentAnswersError` named (its ``conflict``
        attribute holds their indices). Guesses stay as they were played; the
        tree is followed as long as they are its guesses, the chooser after that.
        The guess awaiting an answer is chosen again.

        Raises
        ------
        IndexError
            For a turn that was not played.
        InvalidAnswerError, InconsistentAnswersError
            For an impossible answer, or answers that still contradict each other
            (named); nothing is changed then.

        >>> g = Game.from_spec("p2c3")
        >>> cb = Codebreaker(g, chooser=lambda secrets, depth: int(secrets[0]))
        >>> cb.tell("0 0"); cb.tell("0 0"); cb.secret
        '33'
        >>> cb.correct(0, "1 0"); cb.remaining, cb.history[0].answer == g.parse_answer("1 0")
        (2, True)
        """
        if not 0 <= index < len(self.history):
            raise IndexError(f"there is no answer #{index + 1} to correct")
        game = self.game
        answer = game.parse_answer(answer) if isinstance(answer, str) else int(answer)
        if not game.is_possible_answer(answer):
            raise InvalidAnswerError(f"answer {answer!r} can never occur in {game.spec}")
        if answer == game.win and index != len(self.history) - 1:
            raise InvalidAnswerError(f"answer {game.answer_str(answer)} to #{index + 1} would "
                                     f"have ended the game there")
        turns = list(self.history)
        turns[index] = Turn(turns[index].guess, answer)
        check_history(game, turns)
        self.history, self._before, self._guess, self._solved = [], [], None, False
        self._answers = None
        self._secrets = np.arange(game.n_codes, dtype=np.int64)
        self._node = self.strategy.root if self.strategy is not None else None
        for turn in turns:
            node = self._node
            if node is not None and (node.guess != turn.guess or turn.answer == game.win):
                node = None
            elif node is not None:
                node = node.next.get(game.answer_str(turn.answer))
            g = game.code_index(turn.guess)
            self._before.append((self._secrets, self._node))
            self.history.append(turn)
            self._secrets = self._secrets[game.answers(g, self._secrets) == turn.answer]
            self._node = node
            self._solved = turn.answer == game.win

    def _describe(self, guess: str, key: str) -> str:
        turns = [f"{t.guess} {self.game.answer_str(t.answer)}" for t in self.history]
        return ", ".join(turns + [f"{guess} {key}"])


def default_chooser(game: Game, name: str = DEFAULT_HEURISTIC, seed: int = 0,
                    move_time: float = 60.0) -> Chooser:
    """The chooser of heuristic ``name`` from :mod:`optimal_mm.heuristics`."""
    from . import heuristics  # imported here: only needed when no tree is followed

    return heuristics.make_chooser(game, name, seed=seed, move_time=move_time)


#: The player name that selects :class:`optimal_mm.consistent.ConsistentCodebreaker`.
CONSISTENT_PLAYER = "cp-sat"


def heuristic_codebreaker(game: Game, name: str | None = None, seed: int = 0,
                          move_time: float = 60.0):
    """A codebreaker that plays heuristic ``name`` (default :data:`DEFAULT_HEURISTIC`).

    ``"cp-sat"`` (:data:`CONSISTENT_PLAYER`), and any game too big to list its
    codes (not :attr:`Game.is_enumerable`), get the consistent-guess player of
    :mod:`optimal_mm.consistent`; the other names the :class:`Codebreaker` with
    the chooser of :mod:`optimal_mm.heuristics`.

    Raises
    ------
    UnknownHeuristicError
        For a name that is neither.
    """
    from . import heuristics

    name = name or DEFAULT_HEURISTIC
    if name != CONSISTENT_PLAYER:
        heuristics.check_heuristic(name, also=(CONSISTENT_PLAYER,))
    if name == CONSISTENT_PLAYER or not game.is_enumerable:
        from .consistent import ConsistentCodebreaker  # imports OR-Tools

        return ConsistentCodebreaker(game, move_time=move_time, seed=seed)
    return Codebreaker(game, chooser=default_chooser(game, name, seed=seed,
                                                     move_time=move_time))


class Codemaker:
    """The computer keeps a secret and answers the person's guesses.

    Parameters
    ----------
    game : Game
    rng : random.Random
        Draws the secret; pass ``random.Random(seed)`` for a game that replays.
    secret : str, optional
        Play against this secret instead of drawing one.

    Notes
    -----
    The secret is drawn colour by colour, not as an index into all codes, so
    games far too big to enumerate can still be played.

    Examples
    --------
    >>> import random
    >>> g = Game.from_spec("mastermind")
    >>> maker = Codemaker(g, random.Random(0), secret="4221")
    >>> g.answer_str(maker.guess("1123")), maker.guesses, maker.solved
    ('1B1W', 1, False)
    >>> g.answer_str(maker.guess("4221")), maker.solved
    ('4B0W', True)
    """

    def __init__(self, game: Game, rng: random.Random, secret: str | None = None):
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, got {rng!r}")
        self.game = game
        if secret is None:
            secret = game.format_code(random_code(game, rng))
        self._secret = game.format_code(game.parse_code(secret))
        self.history: list[Turn] = []

    @property
    def guesses(self) -> int:
        """Number of valid guesses answered."""
        return len(self.history)

    @property
    def solved(self) -> bool:
        """True once a guess was the secret."""
        return bool(self.history) and self.history[-1].answer == self.game.win

    def guess(self, code: str) -> int:
        """Answer id of ``code`` against the secret; counts the guess.

        Raises :class:`~optimal_mm.errors.InvalidCodeError` (and counts nothing)
        for a code that is not legal in the game.
        """
        if self.solved:
            raise RuntimeError("the game is over: the secret was found")
        colours = self.game.parse_code(code)
        text = self.game.format_code(colours)
        answer = self.game.score(text, self._secret)
        self.history.append(Turn(text, answer))
        return answer

    def reveal(self) -> str:
        """The secret."""
        return self._secret


class Match:
    """The person and the computer each hide a code and guess the other's in turns
    (``shared/seeds/000``: whoever needs fewer guesses wins).

    Each round the person guesses the computer's secret (:attr:`maker`, a
    :class:`Codemaker`), then the computer guesses the person's (:attr:`breaker`,
    a :class:`Codebreaker`, told the person's answers). The seed plays two tours
    one after the other and compares the counts; taking turns gives the same
    result, and the match ends with the first round in which someone finds the
    secret: both in the same round is a draw.

    Parameters
    ----------
    game : Game
    rng : random.Random
        Draws the computer's secret (a seeded one replays the match).
    breaker : Codebreaker
        The computer's side as codebreaker (a tree or a heuristic).

    Examples
    --------
    >>> g = Game.from_spec("p2c3")
    >>> match = Match(g, random.Random(0),
    ...               Codebreaker(g, chooser=lambda secrets, depth: int(secrets[0])))
    >>> mine = "32"
    >>> while match.result is None:
    ...     if match.person_to_play:
    ...         _ = match.person_guess(match.maker.reveal() if match.round > 1 else "11")
    ...     else:
    ...         match.tell(g.score(match.computer_guess(), mine))
    >>> match.result, match.person_guesses, match.computer_guesses
    ('person', 2, 2)
    """

    def __init__(self, game: Game, rng: random.Random, breaker: Codebreaker):
        if breaker.game != game:
            raise InvalidTreeError(f"the codebreaker plays {breaker.game.name}, not {game.name}")
        self.game = game
        self.maker = Codemaker(game, rng)
        self.breaker = breaker

    @property
    def person_guesses(self) -> int:
        """Guesses the person has made at the computer's secret."""
        return self.maker.guesses

    @property
    def computer_guesses(self) -> int:
        """Guesses of the computer that the person has answered."""
        return self.breaker.guesses

    @property
    def round(self) -> int:
        """The round being played (1 for the first)."""
        return self.computer_guesses + 1

    @property
    def person_to_play(self) -> bool:
        """Whether the person guesses next (else the computer awaits an answer)."""
        return self.person_guesses == self.computer_guesses

    @property
    def result(self) -> str | None:
        """``"person"``, ``"computer"`` or ``"draw"`` once a round ends with a secret
        found, else None."""
        if not self.person_to_play or not (self.maker.solved or self.breaker.solved):
            return None
        if self.maker.solved and self.breaker.solved:
            return "draw"
        return "person" if self.maker.solved else "computer"

    def person_guess(self, code: str) -> int:
        """Answer id of the person's guess at the computer's secret."""
        if not self.person_to_play or self.result is not None:
            raise RuntimeError("it is not the person's turn to guess")
        return self.maker.guess(code)

    def computer_guess(self) -> str:
        """The computer's guess at the person's secret (the same until answered)."""
        if self.person_to_play:
            raise RuntimeError("it is not the computer's turn to guess")
        return self.breaker.next_guess()

    def tell(self, answer: "int | str") -> None:
        """The person's answer to the computer's guess (see :meth:`Codebreaker.tell`)."""
        if self.person_to_play:
            raise RuntimeError("the computer has no guess awaiting an answer")
        self.breaker.tell(answer)
