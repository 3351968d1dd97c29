"""Sums of games: a position made of several games; a move is a move in one of them.

A position of a sum is written as its parts joined by ``+``, each part being
``GAME:POSITION`` in that game's notation: ``subtraction:37+date:20.1+nim:3,4``.
The sum ends when no part has a move. By the Sprague-Grundy theorem, the value
of a sum under normal play is the XOR of the values of its parts, each part
solved on its own (:meth:`SumGame.theorem_value`); the tests check this
against a search over the whole sum. Under misère play there is no such
rule: the sum is searched as one game.

The rule options (``moves``, ``leap``) apply to every part of that kind.

>>> game = SumGame()
>>> position = game.parse("subtraction:9+nim:3,4")
>>> game.format(position)
'subtraction:9+nim:3,4'
>>> from optimal_mm.impartial.grundy import GrundySolver
>>> GrundySolver(game).value(position), GrundySolver(game, use_theorems=False).value(position)
(5, 5)
"""

from __future__ import annotations

from .errors import IllegalMoveError, InvalidPositionError
from .game import ImpartialGame, register_game

#: At most this many parts.
MAX_PARTS = 32


@register_game
class SumGame(ImpartialGame):
    """Tuples of ``(game name, part position)``; a move changes one part.

    Parameters
    ----------
    moves, leap
        Rule options passed to the parts that take them.
    """

    name = "sum"
    options = ("moves", "leap")
    notation = "GAME:POSITION parts joined by '+', e.g. subtraction:9+nim:3,4+date:20.1"
    move_hint = "the whole position after your move"

    def __init__(self, moves: str | None = None, leap: bool = False):
        from .game import GAMES, find_game

        self._moves, self._leap = moves, bool(leap)
        self.parts: dict = {}
        for name in ("subtraction", "date", "cards", "nim"):
            cls = GAMES[name]
            given = {"moves": moves, "leap": leap or None}
            options = {k: v for k, v in given.items() if k in cls.options and v is not None}
            self.parts[name] = find_game(name, **options)

    def rules(self) -> dict:
        out = dict(self.parts["subtraction"].rules())
        out.update(self.parts["date"].rules())
        return out

    def describe(self) -> str:
        return "sum of games: a move is a move in one part; the last player to move wins"

    def parse(self, text: str):
        parts = str(text).split("+")
        if not str(text).strip():
            raise InvalidPositionError("a sum needs parts GAME:POSITION joined by '+', got ''")
        if len(parts) > MAX_PARTS:
            raise InvalidPositionError(f"at most {MAX_PARTS} parts, got {len(parts)} in {text!r}")
        position = []
        for part in parts:
            name, colon, inner = part.partition(":")
            game = self.parts.get(name.strip().lower())
            if not colon or game is None:
                raise InvalidPositionError(
                    f"each part of a sum is GAME:POSITION with GAME one of "
                    f"{', '.join(self.parts)}; got {part.strip()!r} in {text!r}")
            position.append((game.name, game.parse(inner)))
        return tuple(position)

    def format(self, position) -> str:
        return "+".join(f"{name}:{self.parts[name].format(part)}" for name, part in position)

    def start(self):
        raise InvalidPositionError("a sum has no starting position: give one, e.g. "
                                   "subtraction:9+nim:3,4")

    def moves(self, position):
        out = []
        for i, (name, part) in enumerate(position):
            for child in self.parts[name].moves(part):
                out.append(position[:i] + ((name, child),) + position[i + 1:])
        return out

    def key(self, position):
        # repr orders keys of different kinds (a date's 'start' and its (day, month)).
        return tuple(sorted(((name, self.parts[name].key(part)) for name, part in position),
                            key=repr))

    def theorem_value(self, position, value_of) -> int:
        """The XOR of the parts' values (Sprague-Grundy theorem)."""
        total = 0
        for name, part in position:
            total ^= value_of(self.parts[name], part)
        return total

    def parse_move(self, position, text: str):
        target = self.parse(text)
        if [name for name, _ in target] != [name for name, _ in position]:
            raise IllegalMoveError(f"keep the parts {self.format(position)!r} in the same "
                                   f"order; got {text.strip()!r}")
        return self.check_move(position, target)

    def why_illegal(self, position, target) -> str:
        changed = [i for i, (a, b) in enumerate(zip(position, target)) if a != b]
        if len(changed) > 1:
            return ": move in one part only"
        if not changed:
            return ": a move must change one part"
        name, part = position[changed[0]]
        game = self.parts[name]
        return game.why_illegal(part, target[changed[0]][1])
