"""Sub-command ``symmetry``: how many game histories there are, and up to symmetry.

``optimal-mm symmetry mastermind --depth 3`` counts the sequences of 1, 2 and 3
(guess, answer) pairs, any guess and any answer, and their classes under renaming
colours and positions (Burnside's lemma, :mod:`optimal_mm.counting`); at depth 3
these are the survey's "5.9 trillion" states and "415 million" essential ones.
"""

from __future__ import annotations

import json

from ..counting import MAX_DEPTH, count_histories
from ..errors import InvalidOptionError
from ..game import Game


def register(sub) -> None:
    """Add ``symmetry`` to the parser."""
    p = sub.add_parser(
        "symmetry", help="count histories of guesses and answers up to symmetry",
        description="Count the histories of 1..D (guess, answer) pairs (any guess, any "
                    "answer the game can give) and, exactly by Burnside's lemma, their "
                    "classes under the renamings that preserve the scoring: colours and "
                    "positions (S_C x S_P), or each position's colours apart for black-only "
                    "games with repeats (S_C wr S_P).")
    p.add_argument("game", metavar="GAME", help="preset (mastermind, bulls-and-cows) or spec "
                                                "(p4c6, p4c10n, p3c5b)")
    p.add_argument("--depth", "-d", type=int, required=True, metavar="D",
                   help=f"number of (guess, answer) pairs, 1..{MAX_DEPTH}; every depth up "
                        f"to D is counted")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.set_defaults(func=run_symmetry)


def run_symmetry(args) -> int:
    game = Game.from_spec(args.game)
    if not 1 <= args.depth <= MAX_DEPTH:
        raise InvalidOptionError(f"--depth must be 1..{MAX_DEPTH}, got {args.depth}")
    counts = [count_histories(game, d) for d in range(1, args.depth + 1)]
    if args.json:
        print(json.dumps({"game": game.name, "spec": game.spec,
                          "depths": [c.to_dict() for c in counts]}, indent=2))
        return 0
    first = counts[0]
    print(f"game {game.name} ({game.spec}, {first.codes:,} codes, {first.answers} answers); "
          f"group {first.group} of order {first.group_order:,}")
    print("a history: D (guess, answer) pairs, any guess and any answer; classes by "
          "Burnside's lemma")
    header = ("depth", "histories", "up to symmetry", "ratio", "guess sequences up to symmetry")
    rows = [(str(c.depth), f"{c.histories:,}", f"{c.orbits:,}", f"{c.ratio:,.1f}",
             f"{c.guess_orbits:,}") for c in counts]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.rjust(w) for cell, w in zip(row, widths)))
    return 0
