"""Every first guess of small games valued exactly; writes results/first_guesses.{md,json}.

For each game, the first guesses one per class (the renamings of colours and
positions map the codes of a class onto each other, and every code of a class is
worth as much as any other), with the number of codes in each class, valued as
``optimal-mm hint GAME --rank`` values them (:meth:`optimal_mm.advice.Advisor.rank`):

* *expected*: the least total number of guesses over all secrets, the first one
  included, when that guess comes first and the best play follows;
* *worst case*: the fewest guesses that then always suffice;

each with any guesses and with consistent guesses only (at the start every code is
consistent, so the classes are the same). The best class of each column is the
game's optimum, which ``tests/test_results.py`` checks against the optimal table.

Run from the repository root::

    python scripts/first_guesses.py                       # the default games
    python scripts/first_guesses.py --games p4c8 --time-limit 3600 --merge
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from optimal_mm import Game
from optimal_mm.advice import MAX_ADVICE_CODES, Advisor
from optimal_mm.cli import at_least
from optimal_mm.errors import InvalidOptionError, check_time_limit
from optimal_mm.machine import cpu_model
from optimal_mm.outputs import check_output_path
from optimal_mm.tree import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
#: The games valued by default, with repeats and black-and-white answers, whose four
#: rankings take seconds to two minutes (p6c4 and p4c8 the longest). A game without
#: repeats has one class of first guesses (any code is any other renamed), and so
#: has a black-only game with repeats (each position's colours renamed on its own):
#: its optimal table's row says all there is.
DEFAULT_GAMES = ["p3c4", "p3c5", "p3c6", "p3c7", "p3c8", "p4c4", "p4c5", "mastermind",
                 "p4c7", "p4c8", "p5c3", "p5c4", "p5c5", "p6c3", "p6c4", "p7c3"]
#: The columns: (guess rule, objective), as the optimal table keys them.
COLUMNS = [("any", "expected"), ("any", "worst-case"),
           ("consistent", "expected"), ("consistent", "worst-case")]


def rank_game(game: Game, time_limit: float, jobs: int | None = None) -> dict:
    """The game's classes of first guesses, each valued in every column (by ``jobs``
    processes: :meth:`~optimal_mm.advice.Advisor.rank`), in the order of the first
    column's ranking; ``complete`` and ``seconds`` per column."""
    values, complete, seconds, order = {}, {}, {}, []
    for rule, objective in COLUMNS:
        start = time.perf_counter()
        ranking = Advisor(game, rule, time_limit, strategy=None).rank([], objective, jobs)
        seconds[f"{rule}/{objective}"] = round(time.perf_counter() - start, 2)
        complete[f"{rule}/{objective}"] = ranking.complete
        for r in ranking.guesses:
            values.setdefault(r.guess, {"guess": r.guess, "codes": r.codes})
            values[r.guess][f"{rule}/{objective}"] = r.value
        if not order:
            order = [r.guess for r in ranking.guesses]
    return {"game": game.name, "spec": game.spec, "codes": game.n_codes,
            "classes": [values[g] for g in order], "complete": complete,
            "seconds": seconds}


def _size(entry: dict) -> tuple:
    game = Game.from_spec(entry["spec"])
    return game.pegs, game.colours, entry["spec"]


def _cell(row: dict, column: str, best, codes: int) -> str:
    value = row.get(column)
    if value is None:
        return "not valued"
    text = f"{value} ({value / codes:.4f})" if column.endswith("expected") else str(value)
    return f"**{text}**" if value == best else text


def markdown(doc: dict) -> str:
    lines = [
        "# First guesses, valued exactly",
        "",
        "Made by `python scripts/first_guesses.py` (each game's own command under its "
        "table). Each game's first guesses, one per class: the "
        "renamings of colours and positions map the codes of a class onto each other, "
        "and every code of a class is worth as much as any other (*codes*: how many "
        "the class holds). *expected*: the least total number of guesses over all "
        "secrets, this first one included, when the class's guess comes first and the "
        "best play follows (in brackets the average); *worst case*: the fewest guesses "
        "that then always suffice. With any guesses, and with consistent guesses only "
        "(each guess a code that may still be the secret). In bold, each column's best: "
        "the game's optimum, as results/optimal_table.md has it (mastermind's 5625 and "
        "p4c7's 11228 among them, published long ago). Each ranking is `optimal-mm hint "
        "GAME --rank [--objective worst-case] [--guesses consistent]`, every value in it "
        "proven by the exact search.",
    ]
    for g in doc["games"]:
        heading = g["game"] if g["game"] == g["spec"] else f"{g['game']} ({g['spec']})"
        lines += ["", f"## {heading}: {g['codes']:,} codes, {len(g['classes'])} classes", "",
                  "| first guess | codes | expected, any guesses | worst case, any guesses "
                  "| expected, consistent | worst case, consistent |",
                  "|---|---:|---:|---:|---:|---:|"]
        best = {}
        for rule, objective in COLUMNS:
            column = f"{rule}/{objective}"
            valued = [c[column] for c in g["classes"] if c.get(column) is not None]
            best[column] = min(valued, default=None)
        for row in g["classes"]:
            cells = [_cell(row, f"{rule}/{objective}", best[f"{rule}/{objective}"],
                           g["codes"]) for rule, objective in COLUMNS]
            lines.append(f"| {row['guess']} | {row['codes']:,} | " + " | ".join(cells) + " |")
        open_ = [c for c, done in g["complete"].items() if not done]
        timing = ", ".join(f"{c} {s} s" for c, s in g["seconds"].items())
        lines += ["", f"`{g['command']}`; seconds per ranking ({g['machine']}, "
                      f"{g['jobs']} process{'es' if g['jobs'] != 1 else ''}): {timing}."
                  + (f" Not every class valued within the time limit: {', '.join(open_)}; "
                     f"its best is the best of those valued." if open_ else "")]
    return "\n".join(lines) + "\n"


def earlier_games(path: Path) -> list:
    """The games of an earlier run's JSON that ``--merge`` keeps; a file that is not
    such a JSON is refused in one line (:class:`InvalidOptionError`), before any
    work."""
    try:
        games = json.loads(path.read_text())["games"]
        if not all(isinstance(g, dict) and {"game", "spec", "classes"} <= g.keys()
                   for g in games):
            raise ValueError("a game without its name, spec or classes")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidOptionError(f"--merge: {path} is not a first_guesses.py JSON "
                                 f"({exc.__class__.__name__}: {exc})") from None
    return games


def recorded_command(argv) -> str:
    """The command to record beside a game's figures: ``--out`` left out (where this
    run wrote says nothing to a reader of ``results/``).

    >>> recorded_command(["--games", "p4c8", "--out", "/tmp/x", "--merge"])
    'python scripts/first_guesses.py --games p4c8 --merge'
    >>> recorded_command(["--out=/tmp/x"])
    'python scripts/first_guesses.py'
    """
    words, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word == "--out":
            skip = True
        elif not word.startswith("--out="):
            words.append(word)
    return " ".join(["python scripts/first_guesses.py", *words])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=DEFAULT_GAMES, metavar="GAME",
                        help=f"presets or specs (default: {' '.join(DEFAULT_GAMES)})")
    parser.add_argument("--time-limit", type=float, default=600.0, metavar="S",
                        help="seconds each ranking may take (default 600); the classes "
                             "it leaves are marked not valued")
    parser.add_argument("--jobs", type=at_least(1, 1024), metavar="N",
                        help="processes that value a ranking's classes at once (default: "
                             "one per core)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the games of the JSON that are not valued now")
    parser.add_argument("--out", default=str(ROOT / "results" / "first_guesses"),
                        help="output stem: STEM.md and STEM.json (default "
                             "results/first_guesses)")
    args = parser.parse_args(argv)
    check_time_limit(args.time_limit, "--time-limit")
    games = [Game.from_spec(spec) for spec in args.games]  # refused before any work
    for game in games:
        if game.n_codes > MAX_ADVICE_CODES:
            raise InvalidOptionError(f"{game.spec}: {game.n_codes:,} codes, more than the "
                                     f"{MAX_ADVICE_CODES:,} a ranking is offered for")
    out = Path(args.out)
    for path in (out.with_suffix(".json"), out.with_suffix(".md")):
        check_output_path(path)
    kept = []
    if args.merge and out.with_suffix(".json").exists():
        names = {g.name for g in games}
        kept = [g for g in earlier_games(out.with_suffix(".json")) if g["game"] not in names]
    command = recorded_command(sys.argv[1:] if argv is None else argv)
    doc = {"command": command, "games": kept}
    for game in games:
        print(f"{game.name}: ranking its first guesses", file=sys.stderr, flush=True)
        jobs = args.jobs or os.cpu_count() or 1
        doc["games"].append({**rank_game(game, args.time_limit, jobs), "command": command,
                             "machine": cpu_model(), "jobs": jobs})
        doc["games"].sort(key=_size)  # a merge keeps the page in order of pegs, colours
        # Written after each game: a run stopped later keeps the games it finished.
        atomic_write_text(out.with_suffix(".json"), json.dumps(doc, indent=1) + "\n")
        atomic_write_text(out.with_suffix(".md"), markdown(doc))
    print(markdown(doc))
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("first_guesses.py", main))
