#!/usr/bin/env python3
"""Why black-only games are the table's open entries; writes results/black_only.md.

Reads ``results/optimal_table.json`` (``scripts/optimal_tables.py``) and, for each
game with an entry that timed out and for its black-white twin, sets side by side
what drives the branch and bound of the exact search:

* the answers other than all black (``r``), the branching the lower bounds assume;
* the least, over every first guess, of its largest part: the balanced-tree bound
  assumes ``n / r`` secrets per answer, black-only answers are far from that;
* the root's balanced-tree bound against the proven optimum (its *gap*), t*, and the
  states the search expanded, where the table has them.

Usage::

    python scripts/black_only_survey.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "optimal_table.json"
OUT = ROOT / "results" / "black_only.md"
#: Solved black-only games from this many codes on are shown for comparison.
SOLVED_FROM = 500


def root_figures(spec: str) -> dict:
    """Codes, ``r``, the least largest part over first guesses, the root bound."""
    import numpy as np

    from optimal_mm import Game
    from optimal_mm._search_arrays import NO_CAP, lower_bound_table
    from optimal_mm.game import partition_counts

    game = Game.from_spec(spec)
    n = game.n_codes
    codes = np.arange(n, dtype=np.int64)
    counts = partition_counts(game, codes, codes).astype(np.int64)
    counts[:, game.win] = 0
    r = len(game.possible_answers) - 1
    return {"codes": n, "r": r, "largest": int(counts.max(axis=1).min()),
            "bound": int(lower_bound_table(n, r)[NO_CAP, n])}


def main() -> int:
    entries = json.loads(TABLE.read_text())["entries"]
    open_entries = sorted(k for k, e in entries.items() if e["status"] != "solved"
                          and e["objective"] in ("worst-case", "expected")
                          and e["codes"] <= 5000)
    specs = sorted({k.split("/")[0] for k in open_entries},
                   key=lambda s: (entries[f"{s}/any/worst-case"]["codes"], s))
    # For comparison: the black-only games of SOLVED_FROM codes or more that solved.
    solved = sorted({e["spec"] for e in entries.values()
                     if e["spec"].endswith("b") and e["objective"] == "expected"
                     and e["guesses"] == "any" and e["status"] == "solved"
                     and e["codes"] >= SOLVED_FROM}, key=lambda s: (
                         entries[f"{s}/any/expected"]["codes"], s))
    lines = ["# Black-only scoring: the open entries of the optimal table", "",
             "Made by `python scripts/black_only_survey.py` from "
             "`results/optimal_table.json`. For each game with an open entry (worst case "
             "or expected, any guesses or consistent, over the table's time limit) and "
             "its black-white twin: *r* = answers other than all black; *largest* = the "
             "least, over every first guess, of its largest part (the lower bounds assume "
             "n / r); *bound* = the balanced-tree bound on the total at the root; "
             "*optimum*, *gap* (optimum over bound) and *states* (expanded by the "
             "expected search) where the table has the expected case solved (any "
             "guesses).", "",
             "| game | codes | r | largest | n / r | t* | bound | optimum | gap | states | "
             "open |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for spec in [*specs, None, *solved]:
        if spec is None:
            lines += ["", f"Solved black-only games of {SOLVED_FROM} codes or more, and "
                      "their twins:", "", lines[4], lines[5]]
            continue
        twin = spec[:-1]  # the same game with black-white scoring
        for game in (spec, twin):
            fig = root_figures(game)
            wc = entries.get(f"{game}/any/worst-case", {})
            ex = entries.get(f"{game}/any/expected", {})
            solved = ex.get("status") == "solved"
            gap = f"{100 * (ex['value'] - fig['bound']) / fig['bound']:.1f}%" if solved else ""
            opened = ", ".join(k.split("/", 1)[1] for k in open_entries
                               if k.split("/")[0] == game)
            lines.append(
                f"| {game} | {fig['codes']} | {fig['r']} | {fig['largest']} | "
                f"{-(-fig['codes'] // fig['r'])} | {wc.get('value') or ''} | {fig['bound']} | "
                f"{ex['value'] if solved else ''} | {gap} | "
                f"{format(ex['states'], ',') if solved and ex.get('states') else ''} | "
                f"{opened} |")
    OUT.parent.mkdir(exist_ok=True)
    tmp = OUT.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, OUT)
    print(f"wrote {OUT.relative_to(ROOT)} ({len(specs)} games with open entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
