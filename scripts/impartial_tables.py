"""Solve the impartial games of the book's chapter; write results/impartial.md and .json.

Everything comes from :mod:`optimal_mm.impartial` (searches over the move
graphs; the XOR shortcuts are checked against plain search here too):

* the subtraction game: the period of its values, the losing heaps (normal and
  misère play), other move sets, a heap of a million matches;
* the date game: every date's value, the winning dates and their rule in words,
  the winning first choices (also in a leap year);
* the card game: which first cards win, the book's position after ace, ace, 6,
  ace, 6, ace (total 16), the book's values beside the exact ones there, and
  where the book's approximate player differs from the exact solution over
  every position reachable from the start, with the games between the two;
* Nim: the losing positions of three heaps up to 7, by search, against
  Bouton's rule, and the misère rule;
* sums: a few sums, their value by the XOR rule and by search.

Run from the repository root::

    python scripts/impartial_tables.py

It takes a few seconds; no timing is reported.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from optimal_mm import __version__
from optimal_mm.impartial import GrundySolver, find_game, solve_position, solver_for
from optimal_mm.impartial.book_cards import (BookCardPlayer, available_values, compare_with_exact,
                                             play_out)
from optimal_mm.impartial.periodic import find_period
from optimal_mm.impartial.players import ExactPlayer
from optimal_mm.impartial.tables import value_table
from optimal_mm.tree import atomic_write_text

COMMAND = "python scripts/impartial_tables.py"
BOOK_POSITION_CARDS = ("1", "1", "6", "1", "6", "1")
SUBTRACTION_SETS = ("1-6", "1,3,4", "2,5,7", "1,4", "3,5,8,9")
SUMS = ("subtraction:9+nim:3,4+date:20.1", "date:25.10+date:30.11",
        "cards:40:1,1,1,1,1,1+subtraction:20", "nim:1,2,3+nim:4,5")


def subtraction_section() -> tuple[dict, list[str]]:
    rows = []
    for moves in SUBTRACTION_SETS:
        game = find_game("subtraction", moves=moves)
        row = {"moves": moves}
        for misere in (False, True):
            mu, lam = find_period(game.moves_allowed, 1 if misere else 0)
            solver = game.solver(misere=misere)
            losing = [n for n in range(mu + lam) if not solver.wins(n)]
            row["misere" if misere else "normal"] = {
                "preperiod": mu, "period": lam, "losing_heaps_in_first_period": losing}
        rows.append(row)
    big = solve_position(find_game("subtraction"), "1000000").to_dict()
    doc = {"sets": rows, "heap_of_a_million": big}
    lines = ["## Subtraction game (game 16)", "",
             "A move takes a number of matches from the set; taking the last match wins. "
             "Values repeat from heap *preperiod* with period *period* (found by Brent's "
             "cycle search on the windows of values, a proof, not a guess); a heap loses for "
             "the player to move exactly when it is congruent to a listed heap modulo the "
             "period (from the preperiod on).", "",
             "| moves | period | losing heaps (normal play) | misère period "
             "| losing heaps (misère) |",
             "|---|---:|---|---:|---|"]
    for row in rows:
        n, m = row["normal"], row["misere"]
        lines.append(f"| {row['moves']} | {n['period']} (from {n['preperiod']}) | "
                     f"{', '.join(map(str, n['losing_heaps_in_first_period']))} | "
                     f"{m['period']} (from {m['preperiod']}) | "
                     f"{', '.join(map(str, m['losing_heaps_in_first_period']))} |")
    lines += ["", "With the book's moves 1 to 6: SG(p) = p mod 7, the multiples of 7 lose (the "
              "book's rule); under misère play the heaps of 1 mod 7 lose.",
              f"A heap of 1,000,000 (`optimal-mm impartial solve subtraction 1000000 --json`): "
              f"`{json.dumps(big, ensure_ascii=False)}`.", ""]
    return doc, lines


def date_section() -> tuple[dict, list[str]]:
    doc, lines = {}, ["## Date game (game 17)", ""]
    for leap in (False, True):
        game = find_game("date", leap=leap)
        table = value_table(game)
        solver = solver_for(game)
        zero = [game.format(d) for d in game.dates() if solver.value(d) == 0]
        first = [game.format(d) for d in solver.winning_moves(game.start())]
        doc["leap" if leap else "common"] = {"winning_dates": zero, "winning_first_choices": first,
                                             "table": table.to_dict()}
        if not leap:
            lines += ["Sprague-Grundy value of every date (`optimal-mm impartial table date`; "
                      "days down, months across, `.` for no such date):", "", "```",
                      table.render().rstrip("\n"), "```", ""]
        else:
            same = "the same" if zero == doc["common"]["winning_dates"] else "different"
            lines += [f"In a leap year (`--leap`, 29 February) the winning dates are {same}: "
                      f"{', '.join(zero)}; winning first choice {', '.join(first)}.", ""]
    rule = [n for n in doc["common"]["table"]["notes"] if "day - month" in n]
    lines += ["**Rule in words.** " + (rule[0][0].upper() + rule[0][1:] + ". " if rule else "")
              + "So the first player names 20 January and then always answers with the date "
              "whose day is its month plus 19 (the book's equivalence: (d, m) ~ (31, 12) when "
              "d - m = 31 - 12). Why it works: from a date with day < month + 19, move the day "
              "up to month + 19; from a date with day > month + 19, move the month up to "
              "day - 19; and no move joins two such dates (a move changes d - m). Both targets "
              "exist because every month m has at least m + 19 days (November: 30 = 11 + 19), "
              "which is why, as the book says, the lengths of the months do not matter.", ""]
    return doc, lines


def cards_section() -> tuple[dict, list[str]]:
    game = find_game("cards")
    solver = solver_for(game)
    book = BookCardPlayer(game)
    start = game.start()
    first = {v: solver.value(game.take(start, v)) == 0 for v in game.playable(start)}
    position = start
    for card in BOOK_POSITION_CARDS:
        position = game.parse_move(position, card)
    at16 = solve_position(game, position, solver=solver)
    table = value_table(game, game.format(position))
    comparison = compare_with_exact(game, solver)
    exact = ExactPlayer(game, rng=random.Random(0), solver=solver)
    games = {}
    for label, players in (("book first", (book, exact)), ("exact first", (exact, book))):
        winner, line = play_out(game, *players)
        games[label] = {"winner": ("book", "exact")[winner] if label == "book first"
                        else ("exact", "book")[winner],
                        "cards": [b[0] - a[0] for a, b in zip(line, line[1:])]}
    misses = [game.format(p) for p in comparison.book_misses]
    miss_examples = []
    for p in comparison.book_misses[:12]:
        winning = [b[0] - p[0] for b in solver.winning_moves(p)]
        miss_examples.append({"position": game.format(p), "book_takes": book.choose_card(p),
                              "winning_cards": winning})
    doc = {"start": {"value": solver.value(start),
                     "winning_first_cards": [v for v, ok in first.items() if ok],
                     "book_first_card": book.choose_card(start)},
           "book_position": {**at16.to_dict(), "book_takes": book.choose_card(position),
                             "table": table.to_dict()},
           "comparison": {"reachable_positions": comparison.positions,
                          "won_positions": comparison.won_positions,
                          "book_misses": len(misses),
                          "value_disagreements": comparison.value_disagreements,
                          "first_misses": miss_examples},
           "games": games}
    win_cards = ", ".join(map(str, doc["start"]["winning_first_cards"]))
    lines = ["## Card game (game 18)", "",
             "Exact solution: the position holds the total and the cards left of each value "
             f"(`TOTAL:A,B,C,D,E,F`); {comparison.positions} positions are reachable from "
             "the start `0:4,4,4,4,4,4`.", "",
             f"**From the start** (`optimal-mm impartial solve cards`): value "
             f"{doc['start']['value']}; the first player wins by taking a **{win_cards}**. "
             f"The book's rule (reach 50 up to a multiple of 7, so total 1) takes an ace "
             f"(book player's first card: {doc['start']['book_first_card']}), which loses.", "",
             f"**The book's position** after ace, ace, 6, ace, 6, ace, `{at16.position}` "
             f"(`optimal-mm impartial solve cards {at16.position}`): value {at16.value}, the "
             f"player to move wins, by going to {', '.join(at16.winning_moves)} (cards "
             f"{', '.join(str(int(p.split(':')[0]) - 16) for p in at16.winning_moves)}). The "
             f"book takes a {doc['book_position']['book_takes']} (to 18), one of them.", "",
             "Book values (from the values left, "
             f"{','.join(map(str, available_values(position)))}, "
             "copies unlimited) beside the exact values (these counts, kept at every total as "
             f"the book's column does), `optimal-mm impartial table cards {at16.position}`:",
             "", "```",
             table.render().rstrip("\n"), "```", "",
             "**Where the book's approximate player differs from the exact solution**, over "
             f"every position reachable from the start (`compare_with_exact`): of "
             f"{comparison.won_positions} positions that win for the player to move, the "
             f"book's move throws the win away in **{len(misses)}**; the book's value of the "
             f"total and the exact value disagree on who wins in "
             f"{comparison.value_disagreements} of the {comparison.positions} positions. "
             "The first of those misses:", "",
             "| position | book takes | winning cards |", "|---|---:|---|"]
    for m in miss_examples:
        lines.append(f"| {m['position']} | {m['book_takes']} | "
                     f"{', '.join(map(str, m['winning_cards']))} |")
    lines += ["", "Games between the two players (the exact player breaks ties with "
              "`random.Random(0)`):", ""]
    for label, g in games.items():
        lines.append(f"* {label}: the **{g['winner']}** player wins; cards "
                     f"{' '.join(map(str, g['cards']))}.")
    lines.append("")
    return doc, lines


def nim_section() -> tuple[dict, list[str]]:
    game = find_game("nim")
    search = GrundySolver(game, use_theorems=False)
    losing, mismatches = [], 0
    for a in range(1, 8):
        for b in range(a, 8):
            for c in range(b, 8):
                zero = search.value((a, b, c)) == 0
                mismatches += zero != (a ^ b ^ c == 0)
                if zero:
                    losing.append(f"{a},{b},{c}")
    misere = GrundySolver(game, misere=True)
    misere_rule_breaks = sum(misere.wins((a, b, c)) != game.misere_wins_by_rule((a, b, c))
                             for a in range(8) for b in range(8) for c in range(8))
    doc = {"losing_three_heaps_up_to_7": losing, "xor_rule_mismatches": mismatches,
           "misere_rule_mismatches": misere_rule_breaks}
    lines = ["## Nim (game 19)", "",
             "Losing positions (for the player to move) of three non-empty heaps up to 7, by "
             f"plain search: {' '.join(losing)} ({len(losing)} positions; the book's 1,2,3 and "
             f"1,4,5 among them). Bouton's rule (XOR of the heaps = 0) disagrees with the search "
             f"on {mismatches} of the 84 positions; value = XOR for every position of "
             "`tests/test_impartial_solver.py` too.",
             f"Misère Nim (`--misere`), all 512 positions of three heaps 0..7: Bouton's misère "
             f"rule (play as normal while a heap has 2 or more; with heaps of 0 and 1 only, "
             f"win with an even number of ones) disagrees with the search on "
             f"{misere_rule_breaks}.", ""]
    return doc, lines


def sums_section() -> tuple[dict, list[str]]:
    game = find_game("sum")
    rows = []
    for text in SUMS:
        position = game.parse(text)
        by_xor = GrundySolver(game).value(position)
        by_search = GrundySolver(game, use_theorems=False)
        rows.append({"position": text, "xor_of_parts": by_xor,
                     "search": by_search.value(position),
                     "positions_searched": by_search.positions_stored(),
                     "misere_wins": GrundySolver(game, misere=True).wins(position)})
    lines = ["## Sums", "",
             "Value of a sum by the XOR of its parts' values and by a search over the whole "
             "sum (`optimal-mm impartial solve sum POSITION`), and who wins under misère play "
             "(search only):", "",
             "| position | XOR of parts | search | positions searched | misère: mover wins |",
             "|---|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| `{r['position']}` | {r['xor_of_parts']} | {r['search']} | "
                     f"{r['positions_searched']} | {'yes' if r['misere_wins'] else 'no'} |")
    lines.append("")
    return {"rows": rows}, lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    doc = {"command": COMMAND, "solver": f"optimal_mm {__version__}",
           "source": "J. Arsac, Programming games and puzzles, games 16-19 "
                     "(shared/seeds/003_8090d1d044ad5148.txt)"}
    lines = ["# Impartial games", "",
             "The four games of the chapter on Sprague-Grundy numbers in Jacques Arsac's "
             "*Programming games and puzzles* (games 16 to 19; "
             "`shared/seeds/003_8090d1d044ad5148.txt`), solved by `optimal_mm.impartial`. "
             "Normal play (the player who cannot move loses) unless misère is said. Every "
             "value is this project's search; the book's claims are checked in "
             "`tests/test_impartial_book.py`.", "",
             f"Command: `{COMMAND}` (optimal_mm {__version__}); the data are in "
             "`results/impartial.json`.", ""]
    for key, section in (("subtraction", subtraction_section), ("date", date_section),
                         ("cards", cards_section), ("nim", nim_section), ("sums", sums_section)):
        part, part_lines = section()
        doc[key] = part
        lines += part_lines
    atomic_write_text(results / "impartial.json",
                      json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    atomic_write_text(results / "impartial.md", "\n".join(lines))
    print(f"wrote {results / 'impartial.md'} and {results / 'impartial.json'}")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("impartial_tables.py", main))
