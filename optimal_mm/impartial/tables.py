"""Book-style tables of values: heaps, the calendar, card totals, two Nim heaps.

The chapter teaches each game by filling a table of Sprague-Grundy values by
hand: heap sizes for the subtraction game, a grid of days by months for the
date game, the totals for the card game (with the values the book computes from
the cards left). :func:`value_table` builds the same tables from the solver, as
a :class:`ValueTable` that renders as aligned text and converts to JSON
(:meth:`ValueTable.to_dict`), with notes stating what the table shows (the
period, the winning dates and their rule, where the book's card values differ
from the exact ones).

>>> from optimal_mm.impartial import find_game
>>> table = value_table(find_game("subtraction"), up_to=8)
>>> [row[1] for row in table.rows]
[0, 1, 2, 3, 4, 5, 6, 0, 1]
>>> table.notes[0]
'values repeat with period 7 from heap 0: SG(p) = p mod 7'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InvalidOptionError, TooLargeError
from .book_cards import available_values, book_values
from .cards import LIMIT
from .errors import InvalidPositionError
from .grundy import solver_for

#: Largest heap a subtraction table lists, and largest heap of a Nim table.
MAX_TABLE_HEAP = 10_000
MAX_NIM_TABLE_HEAP = 100
DEFAULT_HEAPS = {"subtraction": 20, "nim": 7}


@dataclass
class ValueTable:
    """A table of values: column headers, rows of cells (``None``: no such position), notes."""

    game: str
    rules: dict
    misere: bool
    title: str
    columns: list[str]
    rows: list[list]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain JSON values: ``game``, ``rules``, ``misere``, ``title``, ``columns``,
        ``rows`` (lists of cells, ``null`` where no position exists) and ``notes``."""
        return {"game": self.game, "rules": self.rules, "misere": self.misere,
                "title": self.title, "columns": self.columns, "rows": self.rows,
                "notes": self.notes}

    def render(self) -> str:
        """Aligned text: the title, the header, one line per row, then the notes."""
        cells = [[str(c) for c in self.columns]]
        cells += [["." if c is None else str(c) for c in row] for row in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = [self.title, ""]
        for row in cells:
            lines.append("  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip())
        if self.notes:
            lines.append("")
            lines += self.notes
        return "\n".join(lines) + "\n"


def _kind(misere: bool) -> str:
    return "misère values" if misere else "Sprague-Grundy values"


def subtraction_table(game, up_to: int | None = None, misere: bool = False) -> ValueTable:
    """Heaps ``0..up_to`` (default 20) with their values and who wins."""
    up_to = DEFAULT_HEAPS["subtraction"] if up_to is None else up_to
    if up_to > MAX_TABLE_HEAP:
        raise TooLargeError(f"a table lists at most {MAX_TABLE_HEAP} heaps, got --up-to {up_to}")
    solver = solver_for(game, misere=misere)
    rows = [[n, solver.value(n), "wins" if solver.wins(n) else "loses"] for n in range(up_to + 1)]
    seq = solver.sequence
    rule = ""
    if seq.preperiod == 0 and list(seq.values) == list(range(seq.period)):
        rule = f": SG(p) = p mod {seq.period}"
    notes = [f"values repeat with period {seq.period} from heap {seq.preperiod}{rule}",
             "heaps that lose for the player to move: "
             + ", ".join(str(n) for n in range(up_to + 1) if not solver.wins(n))]
    return ValueTable(game.name, game.rules(), misere,
                      f"{game.describe()}\n{_kind(misere)} of heaps 0..{up_to}",
                      ["heap", "value", "mover"], rows, notes)


def date_rule(zero_dates) -> str | None:
    """The rule in words when every date of value 0 has the same ``day - month``."""
    differences = {day - month for day, month in zero_dates}
    if len(differences) != 1:
        return None
    d = differences.pop()
    return (f"a date wins for the player who reaches it (value 0) exactly when "
            f"day - month = {d}: the day is the month plus {d}")


def date_table(game, misere: bool = False) -> ValueTable:
    """Days 1..31 by months 1..12 (``None`` for dates that do not exist)."""
    solver = solver_for(game, misere=misere)
    rows = []
    for day in range(1, 32):
        rows.append([day] + [solver.value((day, month)) if day <= game.days_in(month) else None
                             for month in range(1, 13)])
    zero = [d for d in game.dates() if solver.value(d) == 0]
    notes = ["dates of value 0 (the player who reaches one wins): "
             + ", ".join(game.format(d) for d in zero),
             "winning first choices (January dates of value 0): "
             + ", ".join(game.format(d) for d in solver.winning_moves(game.start()))]
    rule = date_rule(zero)
    if rule:
        notes.append(rule)
    return ValueTable(game.name, game.rules(), misere,
                      f"{game.describe()}\n{_kind(misere)}, days down, months across",
                      ["day"] + [str(m) for m in range(1, 13)], rows, notes)


def cards_table(game, position=None, misere: bool = False) -> ValueTable:
    """Totals from the position's total to 50, for the position's cards left: the book's
    value (from the set of values left) beside the exact value (from the counts)."""
    if position is None:
        position = game.start()
    elif isinstance(position, str):
        position = game.parse(position)
    total, counts = position
    solver = solver_for(game, misere=misere)
    available = available_values(position)
    book = book_values(available)
    rows, differ = [], []
    for t in range(LIMIT, total - 1, -1):
        exact = solver.value((t, counts))
        rows.append([t, book[t], exact])
        if (book[t] == 0) != (exact == 0):
            differ.append(t)
    zero_book = [t for t in range(LIMIT, total - 1, -1) if book[t] == 0]
    zero_exact = [t for t in range(LIMIT, total - 1, -1) if solver.value((t, counts)) == 0]
    notes = [f"cards left {','.join(map(str, counts))} (values {','.join(map(str, available))})",
             "book zero totals: " + " ".join(map(str, zero_book)),
             "exact zero totals: " + " ".join(map(str, zero_exact)),
             ("totals where the book's value and the exact value disagree on who wins: "
              + " ".join(map(str, differ))) if differ else
             "the book's values and the exact values agree on who wins at every total"]
    if misere:
        notes.append("the book's values are for normal play")
    return ValueTable(game.name, game.rules(), misere,
                      f"{game.describe()}\nbook values (values left, copies unlimited) and "
                      f"exact {_kind(misere)} (these counts) by total",
                      ["total", "book", "exact"], rows, notes)


def nim_table(game, up_to: int | None = None, misere: bool = False) -> ValueTable:
    """Two heaps ``a`` (down) and ``b`` (across), ``0..up_to`` (default 7)."""
    up_to = DEFAULT_HEAPS["nim"] if up_to is None else up_to
    if up_to > MAX_NIM_TABLE_HEAP:
        raise TooLargeError(f"a Nim table has heaps up to {MAX_NIM_TABLE_HEAP}, got "
                            f"--up-to {up_to}")
    solver = solver_for(game, misere=misere)
    rows = [[a] + [solver.value((a, b)) for b in range(up_to + 1)] for a in range(up_to + 1)]
    notes = ["the value of heaps a, b is a XOR b; a, b loses exactly when a = b"] \
        if not misere else ["misère: a, b loses exactly when a = b >= 2, or a + b = 1"]
    return ValueTable(game.name, game.rules(), misere,
                      f"{game.describe()}\n{_kind(misere)} of two heaps a (down), b (across)",
                      ["a\\b"] + [str(b) for b in range(up_to + 1)], rows, notes)


def value_table(game, position=None, up_to: int | None = None,
                misere: bool = False) -> ValueTable:
    """The book-style table of ``game`` (see the module docstring).

    Parameters
    ----------
    game : ImpartialGame
    position : str, optional
        Cards only: the cards left (and the first total listed).
    up_to : int, optional
        Subtraction and Nim: the largest heap listed.
    misere : bool

    Raises
    ------
    InvalidOptionError
        If an argument does not apply to the game, or the game has no table (sums).
    """
    builders = {"subtraction": "up_to", "date": None, "cards": "position", "nim": "up_to"}
    if game.name not in builders:
        raise InvalidOptionError(f"the {game.name} game has no table; try one of "
                                 f"{', '.join(builders)}")
    takes = builders[game.name]
    if position is not None and takes != "position":
        raise InvalidPositionError(f"the {game.name} table takes no position, got {position!r}")
    if up_to is not None and takes != "up_to":
        raise InvalidOptionError(f"--up-to does not apply to the {game.name} table")
    if up_to is not None and (isinstance(up_to, bool) or up_to < 0):
        raise InvalidOptionError(f"--up-to must be 0 or more, got {up_to!r}")
    if game.name == "subtraction":
        return subtraction_table(game, up_to, misere)
    if game.name == "date":
        return date_table(game, misere)
    if game.name == "cards":
        return cards_table(game, position, misere)
    return nim_table(game, up_to, misere)
