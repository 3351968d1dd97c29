"""Impartial games as data: rules, notation, and a registry by name.

A game is *impartial* when both players have the same moves from every
position; under *normal play* the player who cannot move loses. Such a game is
nothing but a move graph, so a rule class needs only to say

* how a position is written and read (:meth:`ImpartialGame.parse`,
  :meth:`ImpartialGame.format`),
* which positions one move reaches (:meth:`ImpartialGame.moves`),
* where the game starts (:meth:`ImpartialGame.start`),

and the generic solver (:mod:`optimal_mm.impartial.grundy`) does the rest.
Positions are plain hashable Python values (an ``int`` heap, a ``(day, month)``
pair, a tuple of heaps); :meth:`ImpartialGame.key` may map positions that play
alike to one key (Nim heaps in any order), so the solver stores them once.

Each game is a small class registered under its name and aliases with
:func:`register_game`; :func:`find_game` builds one from a name and the rule
options (``moves`` for the subtraction game, ``leap`` for the date game) and
raises :class:`~optimal_mm.impartial.errors.UnknownImpartialGameError` naming
the bad input.

>>> game = find_game("nim")
>>> game.format(next(iter(game.moves(game.parse("1,2")))))
'0,2'
>>> find_game("chess")
Traceback (most recent call last):
...
optimal_mm.impartial.errors.UnknownImpartialGameError: unknown impartial game 'chess': choose from cards, date, nim, subtraction, sum
"""  # noqa: E501 (a doctest's output line)

from __future__ import annotations

from collections.abc import Hashable, Iterable

from ..errors import InvalidOptionError
from .errors import IllegalMoveError, InvalidPositionError, UnknownImpartialGameError

#: Registered game classes by name and alias.
GAMES: dict[str, type["ImpartialGame"]] = {}


def register_game(cls: type["ImpartialGame"]) -> type["ImpartialGame"]:
    """Class decorator: make ``cls`` findable by :attr:`~ImpartialGame.name` and its aliases."""
    for name in (cls.name, *cls.aliases):
        if name in GAMES and GAMES[name] is not cls:
            raise ValueError(f"impartial game name {name!r} registered twice")
        GAMES[name] = cls
    return cls


def _load_games() -> None:
    """Import the modules of the built-in games (each registers its class)."""
    from . import cards, date, nim, subtraction, sums  # noqa: F401


def game_names() -> list[str]:
    """The registered games' main names, sorted."""
    _load_games()
    return sorted({cls.name for cls in GAMES.values()})


def find_game(name: str, *, moves: str | None = None, leap: bool = False) -> "ImpartialGame":
    """The game called ``name`` with the given rule options.

    Parameters
    ----------
    name : str
        A registered name or alias (``subtraction``, ``date``, ``cards``, ``nim``,
        ``sum``), case-insensitive.
    moves : str, optional
        The subtraction set, ``"1,3,4"`` or ``"1-6"`` (subtraction games and sums).
    leap : bool
        February has 29 days (date games and sums).

    Raises
    ------
    UnknownImpartialGameError
        If no game has that name.
    InvalidOptionError
        If an option does not apply to the game or cannot be parsed.
    """
    _load_games()
    cls = GAMES.get(str(name).strip().lower())
    if cls is None:
        raise UnknownImpartialGameError(
            f"unknown impartial game {name!r}: choose from {', '.join(game_names())}")
    given = {"moves": moves, "leap": leap or None}
    for option, value in given.items():
        if value is not None and option not in cls.options:
            flag = f"--{option}"
            raise InvalidOptionError(f"{flag} does not apply to the {cls.name} game")
    return cls(**{option: given[option] for option in cls.options if given[option] is not None})


class ImpartialGame:
    """Base class of the rule classes: subclasses fill in the notation and the moves.

    Class attributes
    ----------------
    name : str
        The registered name (also the game's name in JSON output).
    aliases : tuple of str
        Other names :func:`find_game` accepts.
    options : tuple of str
        The keyword options the constructor takes (``"moves"``, ``"leap"``).
    notation : str
        How a position is written, for help texts and error messages.
    move_hint : str
        What ``impartial play`` asks a person to type for a move.
    """

    name = ""
    aliases: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    notation = ""
    move_hint = "the position after your move"

    # -------------------------------------------------------------- notation
    def parse(self, text: str) -> Hashable:
        """The position written ``text``; raises :class:`InvalidPositionError`."""
        raise NotImplementedError

    def format(self, position: Hashable) -> str:
        """``position`` in the game's notation (``parse(format(p)) == p``)."""
        raise NotImplementedError

    def start(self) -> Hashable:
        """The position the game starts from when none is given."""
        raise NotImplementedError

    # ----------------------------------------------------------------- rules
    def moves(self, position: Hashable) -> Iterable[Hashable]:
        """Every position one move reaches from ``position`` (none: the game is over)."""
        raise NotImplementedError

    def key(self, position: Hashable) -> Hashable:
        """A key equal for positions that play alike; the solver stores values under it."""
        return position

    def theorem_value(self, position: Hashable, value_of) -> int | None:
        """The normal-play value by a theorem instead of a search, or ``None``.

        ``value_of(game, position)`` gives the value of a component game (a sum
        asks it for each part). Subclasses with a shortcut (Nim's XOR, a sum's
        XOR) override this; the tests check every shortcut against the search.
        """
        return None

    def rules(self) -> dict:
        """The rule options as plain JSON values (for tables and exports)."""
        return {}

    def describe(self) -> str:
        """One line stating the rules."""
        return self.name

    # -------------------------------------------------------------- play
    def parse_move(self, position: Hashable, text: str) -> Hashable:
        """The position a person's move ``text`` reaches from ``position``.

        By default ``text`` is the position after the move, in the game's
        notation; games with a shorter way to say a move (a number of matches,
        a card) override this.

        Raises
        ------
        InvalidPositionError
            If ``text`` is not a position of the game.
        IllegalMoveError
            If no single move leads from ``position`` to it.
        """
        target = self.parse(text)
        return self.check_move(position, target)

    def check_move(self, position: Hashable, target: Hashable) -> Hashable:
        """``target`` if one move reaches it from ``position``, else :class:`IllegalMoveError`."""
        if target not in set(self.moves(position)):
            raise IllegalMoveError(
                f"no move leads from {self.format(position)} to {self.format(target)}"
                f"{self.why_illegal(position, target)}")
        return target

    def describe_move(self, position: Hashable, target: Hashable) -> str:
        """A move in words, after "I" or "you" (``"move to 25.1"``)."""
        return f"move to {self.format(target)}"

    def why_illegal(self, position: Hashable, target: Hashable) -> str:
        """A short reason (starting with ``": "``) why ``target`` is not a move, or ``""``."""
        return ""

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.rules().items())
        return f"find_game({self.name!r}{', ' if options else ''}{options})"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.rules() == other.rules()

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(sorted(self.rules().items()))))


def parse_int(text: str, what: str, error=InvalidPositionError, low: int = 0,
              high: int | None = None) -> int:
    """``text`` as an int in ``low..high``; ``error`` quoting ``text`` otherwise."""
    stripped = str(text).strip()
    if not stripped.isdigit():
        raise error(f"{what} must be a whole number, got {text!r}")
    value = int(stripped)
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f"at least {low}"
        raise error(f"{what} must be {bound}, got {text!r}")
    return value


def parse_int_set(text: str, what: str, high: int) -> tuple[int, ...]:
    """A set of positive ints written ``"1,3,4"``, ``"1-6"`` or ``"1-3,5"``, sorted."""
    items: set[int] = set()
    for part in str(text).split(","):
        lo, dash, hi = part.partition("-")
        if dash:
            a = parse_int(lo, what, InvalidOptionError, 1, high)
            b = parse_int(hi, what, InvalidOptionError, 1, high)
            if a > b:
                raise InvalidOptionError(f"{what}: empty range {part.strip()!r} in {text!r}")
            items.update(range(a, b + 1))
        else:
            items.add(parse_int(part, what, InvalidOptionError, 1, high))
    return tuple(sorted(items))
