"""Histories up to symmetry next to what the search evaluates; writes results/symmetry.{md,json}.

Two different counts, side by side for one game (Mastermind by default):

* **Histories** (:mod:`optimal_mm.counting`): sequences of ``D`` (guess, answer)
  pairs, any guess and any answer, all of them and up to renaming colours and
  positions (Burnside's lemma). This is how the survey "Rozważmy Masterminda"
  (D. Pawlik, A. Zabłocki, Delta) counts: ``(1296 * 14)**3``, about 5.9 trillion
  states at depth 3, about 415 million up to symmetry.
* **The search's own figures**: the first-guess classes it tries, the states it
  meets after one guess and one possible answer (parts that are not all black), the
  second guesses it tries there (one per orbit of the group fixing the first guess
  and the part, :func:`optimal_mm.symmetry.orbit_representatives`), and the
  counters ``solve --stats`` prints, with and without symmetry reduction (the
  expected case without it is out of reach: over 120 s, results/bench.md).

Run from the repository root::

    python scripts/symmetry_table.py                 # mastermind, depths 1..3
    python scripts/symmetry_table.py --game p4c10n --depth 4
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from optimal_mm import Game
from optimal_mm.counting import MAX_DEPTH, check_countable, count_histories
from optimal_mm.errors import InvalidOptionError
from optimal_mm.outputs import check_output_path
from optimal_mm.search import solve
from optimal_mm.symmetry import orbit_representatives
from optimal_mm.tree import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent


def search_levels(game: Game) -> dict:
    """First guesses, second-level states and second guesses the search tries, with
    and without symmetry reduction."""
    table = game.answer_table()
    everything = np.arange(game.n_codes, dtype=np.int64)

    def parts(g):
        row = table[g]
        return [everything[row == a] for a in np.unique(row) if a != game.win]

    reps = [int(g) for g in orbit_representatives(game, [])]
    with_states = [(g, part) for g in reps for part in parts(g)]
    without_states = sum(len(parts(g)) for g in range(game.n_codes))
    return {
        "first_guesses": {"with": len(reps), "without": game.n_codes},
        "second_states": {"with": len(with_states), "without": without_states},
        "second_guesses": {
            "with": sum(len(orbit_representatives(game, [g], secrets=part))
                        for g, part in with_states),
            "without": without_states * game.n_codes},
    }


def search_counters(game: Game, objective: str, symmetry: bool) -> dict:
    sol = solve(game, objective, jobs=1, symmetry=symmetry)
    return {"objective": objective, "symmetry": symmetry, "value": sol.value,
            "states": sol.stats.states, "table_hits": sol.stats.table_hits,
            "guesses_evaluated": sol.stats.guesses}


def markdown(doc: dict) -> str:
    game = doc["game"]
    first = doc["histories"][0]
    lines = [
        f"# Histories up to symmetry: {game}",
        "",
        f"Made by `{doc['command']}`; each row of the first table is also "
        f"`optimal-mm symmetry {game} --depth D`.",
        "",
        "## Histories",
        "",
        f"A history of depth D is a sequence of D (guess, answer) pairs: any of the "
        f"{first['codes']:,} codes as the guess and any of the {first['answers']} answers "
        f"the game can give (all black included; no secret need fit them). Classes are "
        f"the orbits of the group {first['group']} (order {first['group_order']:,}), "
        f"counted exactly by Burnside's lemma over cycle types "
        f"(`optimal_mm/counting.py`); *guess sequences* are the classes of the D guesses "
        f"alone (the group fixes every answer, so classes = answers^D x guess sequences).",
        "",
        "| depth | histories | up to symmetry | ratio | guess sequences up to symmetry |",
        "|---|---|---|---|---|",
    ]
    for c in doc["histories"]:
        lines.append(f"| {c['depth']} | {c['histories']:,} | {c['orbits']:,} | "
                     f"{c['ratio']:,} | {c['guess_orbits']:,} |")
    if game == "mastermind" and len(doc["histories"]) >= 3:
        c = doc["histories"][2]
        lines += [
            "",
            f"The survey \"Rozważmy Masterminda\" (D. Pawlik, A. Zabłocki, Delta) sizes the "
            f"states at depth 3 as (1296 x 14)^3 = {c['histories']:,}, \"about 5.9 "
            f"trillion\" (5.97, truncated), and says renaming colours and/or positions "
            f"leaves \"about 415 million\", \"over 10000 times\" fewer: exactly "
            f"{c['orbits']:,} classes, {c['ratio']:,} times fewer. Its figures are this "
            f"definition: ordered (guess, answer) pairs, any answer, the group S6 x S4.",
        ]
    levels = doc["search_levels"]
    lines += [
        "",
        "## What the search evaluates",
        "",
        "The search counts differently: after a guess it only follows the answers that "
        "some secret gives (and not all black), and at each state it tries one guess per "
        "orbit of the group fixing the history and the secrets left (`solve --stats`; "
        "`--no-symmetry` switches the reduction off).",
        "",
        "| level | with symmetry | without |",
        "|---|---|---|",
        f"| first guesses (classes) | {levels['first_guesses']['with']:,} | "
        f"{levels['first_guesses']['without']:,} |",
        f"| states after one guess and answer | {levels['second_states']['with']:,} | "
        f"{levels['second_states']['without']:,} |",
        f"| second guesses at those states | {levels['second_guesses']['with']:,} | "
        f"{levels['second_guesses']['without']:,} |",
        "",
        "Whole searches (`optimal-mm solve " + game + " --objective OBJ --jobs 1 --stats "
        "[--no-symmetry]`):",
        "",
        "| objective | symmetry | value | states | table hits | guesses evaluated |",
        "|---|---|---|---|---|---|",
    ]
    for r in doc["search"]:
        lines.append(f"| {r['objective']} | {'on' if r['symmetry'] else 'off'} | {r['value']} "
                     f"| {r['states']:,} | {r['table_hits']:,} | {r['guesses_evaluated']:,} |")
    lines.append("| expected | off | | over 120 s (results/bench.md) | | |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mastermind")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "results" / "symmetry"),
                        help="output stem: STEM.md and STEM.json (default results/symmetry)")
    args = parser.parse_args(argv)
    game = Game.from_spec(args.game)
    if not 1 <= args.depth <= MAX_DEPTH:  # refused before any work or file
        raise InvalidOptionError(f"--depth must be 1..{MAX_DEPTH}, got {args.depth}")
    check_countable(game)
    out = Path(args.out)
    for path in (out.with_suffix(".json"), out.with_suffix(".md")):
        check_output_path(path)
    command = "python scripts/symmetry_table.py " + " ".join(argv or sys.argv[1:])
    doc = {
        "game": game.name,
        "command": command.strip(),
        "histories": [count_histories(game, d).to_dict() for d in range(1, args.depth + 1)],
        "search_levels": search_levels(game),
        "search": [search_counters(game, "worst-case", True),
                   search_counters(game, "worst-case", False),
                   search_counters(game, "expected", True)],
    }
    text = markdown(doc)
    atomic_write_text(out.with_suffix(".json"), json.dumps(doc, indent=2) + "\n")
    atomic_write_text(out.with_suffix(".md"), text)
    print(text)
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("symmetry_table.py", main))
