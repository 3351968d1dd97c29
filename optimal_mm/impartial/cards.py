"""The card game: take a card, add its value to a total that may not pass 50.

Four cards of each value 1 (ace) to 6 lie face up. The players in turn take a
card and add its value to a running total, which may not exceed 50; a player
with no card left that fits loses, so reaching 50 exactly wins. A position is
the total and how many cards of each value are left, written
``TOTAL:A,B,C,D,E,F``; the game starts at ``0:4,4,4,4,4,4``.

The exact solution (:class:`CardGame` with the generic solver) keeps the counts
in the position: 51 totals by 5**6 count vectors at most, of which 11,358
positions are reachable from the start (``results/impartial.md``). The book's own
program approximates; that player is in :mod:`optimal_mm.impartial.book_cards`.

>>> game = CardGame()
>>> game.format(game.start())
'0:4,4,4,4,4,4'
>>> game.format(game.parse_move(game.parse("16:0,4,4,4,4,2"), "2"))
'18:0,3,4,4,4,2'
"""

from __future__ import annotations

from .errors import IllegalMoveError, InvalidPositionError
from .game import ImpartialGame, parse_int, register_game

#: The total that may not be passed.
LIMIT = 50
#: Card values 1..VALUES, COPIES of each.
VALUES = 6
COPIES = 4


@register_game
class CardGame(ImpartialGame):
    """Positions ``(total, counts)``, ``counts[v - 1]`` cards of value ``v`` left."""

    name = "cards"
    aliases = ("card",)
    notation = "TOTAL:A,B,C,D,E,F (the total, then the cards left of each value 1..6)"
    move_hint = "the value of the card you take, 1 (ace) to 6"

    def describe(self) -> str:
        return (f"cards: {COPIES} cards of each value 1 to {VALUES}; take a card and add it "
                f"to the total, which may not pass {LIMIT}; a player with no card that fits "
                f"loses")

    def parse(self, text: str):
        total_text, colon, counts_text = str(text).partition(":")
        counts = counts_text.split(",")
        if not colon or len(counts) != VALUES:
            raise InvalidPositionError(
                f"a card position is TOTAL:A,B,C,D,E,F (the total, then the cards left of "
                f"each value 1..{VALUES}), e.g. 0:4,4,4,4,4,4; got {text!r}")
        total = parse_int(total_text, f"the total of {text!r}", InvalidPositionError, 0, LIMIT)
        return total, tuple(parse_int(c, f"each count of {text!r}", InvalidPositionError, 0,
                                      COPIES) for c in counts)

    def format(self, position) -> str:
        total, counts = position
        return f"{total}:{','.join(map(str, counts))}"

    def start(self):
        return 0, (COPIES,) * VALUES

    def moves(self, position):
        return [self.take(position, value) for value in self.playable(position)]

    @staticmethod
    def playable(position) -> list[int]:
        """The card values that may be taken: some left, and the total stays within the limit."""
        total, counts = position
        return [v for v in range(1, VALUES + 1) if counts[v - 1] and total + v <= LIMIT]

    @staticmethod
    def take(position, value: int):
        """The position after taking a card of ``value``."""
        total, counts = position
        return total + value, counts[:value - 1] + (counts[value - 1] - 1,) + counts[value:]

    def describe_move(self, position, target) -> str:
        value = target[0] - position[0]
        return f"take {'an ace' if value == 1 else f'a {value}'}: total {target[0]}, " \
               f"cards left {','.join(map(str, target[1]))}"

    def parse_move(self, position, text: str):
        """A move is the value of the card taken (``6``)."""
        value = parse_int(text, "a card", IllegalMoveError, 1, VALUES)
        total, counts = position
        if not counts[value - 1]:
            raise IllegalMoveError(f"no card of value {value} is left")
        if total + value > LIMIT:
            raise IllegalMoveError(f"a {value} would take the total {total} past {LIMIT}")
        return self.take(position, value)
