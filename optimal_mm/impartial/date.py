"""The date game: move to a later day of the month or the same day of a later month.

A position is a date, ``day.month`` (``20.1`` is 20 January). A move goes to a
later day of the same month (``20.1`` to ``25.1``) or to the same day of a
later month (``20.1`` to ``20.5``), when that date exists; whoever reaches 31
December wins (no move leaves it). February has 28 days, 29 with ``leap``.

The game starts before any date is named: the first player names any January
date. That start is the position :data:`START` (written ``start``), whose moves
are the 31 January dates; the winning first choices are the January dates of
value 0.

The book fills the table from 31.12 backwards (``SG(30.12) = 1``,
``SG(29.12) = 2``, ``SG(31.10) = 1``, ``SG(31.8) = 2``), notes that the rule
of the table is complicated, but that the winning dates follow a simple
relation between day and month once October is filled.

>>> game = DateGame()
>>> game.format(game.parse("20.1")), game.parse("31.12")
('20.1', (31, 12))
>>> game.parse("31.2")
Traceback (most recent call last):
...
optimal_mm.impartial.errors.InvalidPositionError: '31.2' is not a date: February has 28 days
"""

from __future__ import annotations

from .errors import InvalidPositionError
from .game import ImpartialGame, parse_int, register_game

#: The position before the first date is named.
START = "start"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@register_game
class DateGame(ImpartialGame):
    """Dates as ``(day, month)``; the target is 31 December.

    Parameters
    ----------
    leap : bool
        February has 29 days.
    """

    name = "date"
    aliases = ("calendar", "dates")
    options = ("leap",)
    notation = "day.month, e.g. 20.1 (or 'start', before the first date is named)"
    move_hint = "the date you move to, day.month"

    def __init__(self, leap: bool = False):
        self.leap = bool(leap)

    def rules(self) -> dict:
        return {"leap": self.leap}

    def describe(self) -> str:
        year = "a leap year (29 February)" if self.leap else "February of 28 days"
        return (f"date game: move to a later day of the same month or the same day of a "
                f"later month; whoever reaches 31.12 wins; {year}")

    def days_in(self, month: int) -> int:
        """Days in ``month`` (1..12)."""
        return 29 if month == 2 and self.leap else _DAYS[month - 1]

    def dates(self):
        """Every date of the year, in calendar order."""
        return [(day, month) for month in range(1, 13) for day in range(1, self.days_in(month) + 1)]

    def parse(self, text: str):
        stripped = str(text).strip()
        if stripped.lower() == START:
            return START
        day_text, dot, month_text = stripped.partition(".")
        if not dot:
            raise InvalidPositionError(f"a date is written day.month, e.g. 20.1; got {text!r}")
        day = parse_int(day_text, f"the day of {text!r}", InvalidPositionError, 1, 31)
        month = parse_int(month_text, f"the month of {text!r}", InvalidPositionError, 1, 12)
        if day > self.days_in(month):
            raise InvalidPositionError(f"{stripped!r} is not a date: {MONTHS[month - 1]} has "
                                       f"{self.days_in(month)} days")
        return day, month

    def format(self, position) -> str:
        return START if position == START else f"{position[0]}.{position[1]}"

    def start(self):
        return START

    def moves(self, position):
        if position == START:
            return [(day, 1) for day in range(1, 32)]
        day, month = position
        later_days = [(d, month) for d in range(day + 1, self.days_in(month) + 1)]
        later_months = [(day, m) for m in range(month + 1, 13) if day <= self.days_in(m)]
        return later_days + later_months

    def why_illegal(self, position, target) -> str:
        if target == START:
            return ": the game cannot go back to its start"
        if position == START:
            return ": the first date must be in January"
        (day, month), (new_day, new_month) = position, target
        if new_day != day and new_month != month:
            return ": change the day or the month, not both"
        if (new_day, new_month) == (day, month):
            return ": a move must change the date"
        return ": dates only move forward"
