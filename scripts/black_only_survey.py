#!/usr/bin/env python3
"""Why black-only games are the table's open entries; writes results/black_only.md.

Reads ``results/optimal_table.json`` (``scripts/optimal_tables.py``) and, for each
game with an entry that timed out and for its black-white twin, sets side by side
what drives the branch and bound of the exact search:

* the answers other than all black (``r``), the branching the lower bounds assume;
* the least, over every first guess, of its largest part: the balanced-tree bound
  assumes ``n / r`` secrets per answer, black-only answers are far from that;
* the root's balanced-tree bound against the proven optimum (its *gap*), t*, and the
  states the search expanded, where the table has them;
* the root's skew-aware bound (:mod:`optimal_mm._skew_bound`, black-only games: the
  blacks a guess can earn are capped by the per-position colour counts) and its gap;
* for an open expected entry, where the optimum lies: at least the best of those
  bounds and of the bound the table's timed-out search had proven, at most the least
  total of the one-move-lookahead heuristics' complete trees (any guesses, each
  verified by replaying every secret), of the best tree the timed-out search had
  found, and of the table's optimum with consistent guesses or, open too, its
  search's best tree (a consistent strategy is one with any guesses), so the branch
  and bound still has that bracket to close;
* for every worst-case entry that timed out (any size), where t* lies: at least the
  best bound proven (its search's, the counting bound, the any-guess entry's for
  consistent guesses), at most the least worst case of a verified heuristic tree
  that plays by the entry's guess rule (:func:`wc_bracket`).

With ``--compare KEY ...`` it also solves those table entries again (``jobs=1``) and
sets the states and seconds beside the table's, which were recorded before the
skew-aware bound; the comparisons are kept in ``results/black_only.json`` and shown
on every later run. Usage::

    python scripts/black_only_survey.py
    python scripts/black_only_survey.py --compare p4c5b/any/expected p4c6b/any/expected
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

# The heuristics that play consistent guesses only: their trees bound an open worst
# case with consistent guesses (and, like every tree, one with any guesses).
from optimal_mm.heuristics import CONSISTENT_HEURISTICS
# The lower bounds of an open worst case and the trees that close one: shared with
# the script that looks for those trees (scripts/within_trees.py).
from table_store import load_table
from within_trees import least_tree, wc_low

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "optimal_table.json"
OUT = ROOT / "results" / "black_only.md"
COMPARE = ROOT / "results" / "black_only.json"
#: Solved black-only games from this many codes on are shown for comparison.
SOLVED_FROM = 500


def root_figures(spec: str) -> dict:
    """Codes, ``r``, the least largest part over first guesses, the root bounds."""
    import numpy as np

    from optimal_mm import Game
    from optimal_mm._search_arrays import NO_CAP, lower_bound_table
    from optimal_mm._skew_bound import skew_bound
    from optimal_mm.game import partition_counts

    game = Game.from_spec(spec)
    n = game.n_codes
    codes = np.arange(n, dtype=np.int64)
    counts = partition_counts(game, codes, codes).astype(np.int64)
    counts[:, game.win] = 0
    r = len(game.possible_answers) - 1
    lb = lower_bound_table(n, r)
    skew = (int(skew_bound(codes, np.ascontiguousarray(game.codes), game.colours, lb[NO_CAP],
                           False)) if game.black_only else None)
    return {"codes": n, "r": r, "largest": int(counts.max(axis=1).min()),
            "bound": int(lb[NO_CAP, n]), "skew": skew}


#: The heuristics whose trees give an open game its upper bound (any guesses).
UPPER_HEURISTICS = ("knuth", "entropy", "most-parts", "expected-size")


#: The trees that play consistent guesses only, as (heuristic, restricted): the
#: consistent heuristics, and the scoring ones restricted to consistent guesses.
CONSISTENT_TREES = ([(name, False) for name in CONSISTENT_HEURISTICS]
                    + [(name, True) for name in UPPER_HEURISTICS])
#: Every tree an open entry with any guesses may take its upper bound from.
ANY_TREES = [(name, False) for name in UPPER_HEURISTICS] + CONSISTENT_TREES


def tree_label(name: str, restricted: bool) -> str:
    """How the tables name a heuristic tree: ``entropy``, ``entropy, consistent``."""
    return f"{name}, consistent" if restricted else name


@functools.lru_cache(maxsize=None)
def heuristic_tree(spec: str, name: str, restricted: bool = False) -> tuple[int, int]:
    """``(total, max)`` of heuristic ``name``'s complete tree of ``spec`` (with
    ``restricted``, scoring consistent guesses only), validated: every secret replayed
    (seed 0 where the heuristic draws at random)."""
    from optimal_mm import Game
    from optimal_mm.heuristics import build_strategy

    stats = build_strategy(Game.from_spec(spec), name, consistent=restricted).validate()
    return stats.total, stats.max


def best_tree(spec: str) -> tuple[int, str]:
    """The least total of the trees of :data:`ANY_TREES` for ``spec`` and the tree's
    label (:func:`tree_label`)."""
    return min((heuristic_tree(spec, *tree)[0], tree_label(*tree)) for tree in ANY_TREES)


def shallowest_tree(spec: str, guesses: str) -> tuple[int, str]:
    """The least worst case of the heuristic trees of ``spec`` that play by the guess
    rule ``guesses`` (:data:`CONSISTENT_TREES`, or for any guesses :data:`ANY_TREES`),
    and the tree's label."""
    trees = CONSISTENT_TREES if guesses == "consistent" else ANY_TREES
    return min((heuristic_tree(spec, *tree)[1], tree_label(*tree)) for tree in trees)


def within_depth(key: str) -> int | None:
    """The fewest guesses of a tree ``scripts/within_trees.py`` found for the open
    worst case ``key`` (results/within.json), replayed here for every secret; None if
    none."""
    return least_tree(key.rsplit("/", 1)[0])


def wc_bracket(key: str, entries: dict) -> tuple[int, str, int, str]:
    """Where the open worst case ``key`` (``spec/guesses/worst-case``) lies:
    ``(low, its source, high, its source)``. ``low``: :func:`wc_low`; ``high``: the
    least worst case of a heuristic tree that plays by its rule
    (:func:`shallowest_tree`), of the tree the bounded search of ``optimal-mm
    within`` found (:func:`within_depth`), and for any guesses the consistent entry's
    value (a consistent strategy is one with any guesses)."""
    spec, guesses, _ = key.split("/")
    twin = entries.get(f"{spec}/consistent/worst-case", {})
    high = shallowest_tree(spec, guesses)
    if guesses == "any" and twin.get("status") == "solved" and twin["value"] < high[0]:
        high = (twin["value"], "the consistent optimum")
    found = within_depth(key)
    if found is not None and found < high[0]:
        high = (found, "the tree of `within` (results/within.md)")
    return (*wc_low(key, entries), *high)


def wc_lines(entries: dict) -> list[str]:
    """The section on the open worst cases of every size (:func:`wc_bracket`)."""
    keys = sorted((k for k, e in entries.items()
                   if e["objective"] == "worst-case" and e["status"] == "timeout"),
                  key=lambda k: (entries[k]["codes"], k))
    lines = ["", "## The open worst cases", "",
             "Every worst-case entry of the table that timed out, whatever its size: t* "
             "lies between the best lower bound proven (*≥*: its own search's, one more "
             "than the last depth it refuted; the counting bound; for consistent guesses, "
             "the any-guess entry's value or bound) and the least worst case of a complete "
             "tree that plays by the entry's guess rule (*≤*: the heuristic trees, "
             + ", ".join(UPPER_HEURISTICS) + " with any guesses (any-guess entries only) "
             "and restricted to consistent guesses (*, consistent*), and "
             + ", ".join(CONSISTENT_HEURISTICS) + ", each verified by "
             "replaying every secret; the tree found by the bounded search of "
             "`optimal-mm within`, results/within.md; or the consistent optimum). An "
             "entry closes when they meet (**closed**).", "",
             "| entry | codes | ≥ | from | ≤ | from | seconds tried |",
             "|---|---|---|---|---|---|---|"]
    for key in keys:
        low, low_from, high, high_from = wc_bracket(key, entries)
        name = key.rsplit('/', 1)[0] + (" (**closed**: t\\* = %d)" % low if low == high else "")
        lines.append(f"| {name} | {entries[key]['codes']} | {low} | "
                     f"{low_from} | {high} | {high_from} | {entries[key]['seconds']} |")
    return lines


def bracket(game: str, entries: dict, fig: dict) -> tuple[int, int, str]:
    """Where the open expected optimum (any guesses) of ``game`` lies: ``(low, high,
    source of high)``. ``low`` is the best of the root bounds in ``fig``
    (:func:`root_figures`) and of the bound the table's timed-out search had proven;
    ``high`` the least total of a strategy known to exist: the heuristic trees
    (:func:`best_tree`), the timed-out search's best tree, and the consistent entry's
    optimum or, open too, its best tree (a consistent strategy is one with any
    guesses)."""
    ex = entries.get(f"{game}/any/expected", {})
    cons = entries.get(f"{game}/consistent/expected", {})
    low = max(v for v in (fig["bound"], fig["skew"], ex.get("bound")) if v)
    trees = [best_tree(game)]
    if ex.get("best"):
        trees.append((ex["best"], "the timed-out search's best tree"))
    if cons.get("status") == "solved":
        trees.append((cons["value"], "the consistent optimum"))
    elif cons.get("best"):
        trees.append((cons["best"], "the consistent search's best tree"))
    high, name = min(trees, key=lambda tree: tree[0])
    return low, high, name


def compare(keys, entries, load_note) -> dict:
    """Solve the table entries ``keys`` again; their figures beside the table's."""
    from optimal_mm import Game
    from optimal_mm.search import solve

    solve(Game.from_spec("p2c3"), "expected", jobs=1)  # load the compiled search first
    out = {}
    for key in keys:
        spec, guesses, objective = key.split("/")
        start = time.perf_counter()
        sol = solve(Game.from_spec(spec), objective, guesses, jobs=1)
        old = entries[key]
        out[key] = {"value": sol.value, "states": sol.stats.states,
                    "seconds": round(time.perf_counter() - start, 1), "table_value": old["value"],
                    "table_states": old["states"], "table_seconds": old["seconds"],
                    "note": load_note}
        print(f"{key}: {sol.value}, states {old['states']:,} -> {sol.stats.states:,}", flush=True)
    return out


def compare_lines(rows: dict) -> list[str]:
    lines = ["", "## The skew-aware bound on entries that already solved", "",
             "Made by `python scripts/black_only_survey.py --compare KEY ...`: each entry "
             "solved again with the skew-aware bound (`jobs=1`), beside the states and "
             "seconds the table recorded before it. The states do not depend on the "
             "machine's load, the seconds do.", "",
             "| entry | value | table value | states before | states after | change | "
             "seconds before | seconds after | note |", "|---|---|---|---|---|---|---|---|---|"]
    for key, r in sorted(rows.items()):
        change = 100 * (r["states"] - r["table_states"]) / r["table_states"]
        lines.append(f"| {key} | {r['value']} | {r['table_value']} | {r['table_states']:,} | "
                     f"{r['states']:,} | {change:+.1f}% | {r['table_seconds']} | "
                     f"{r['seconds']} | {r['note'] or ''} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", nargs="*", default=[], metavar="KEY",
                        help="table entries (spec/guesses/objective) to solve again")
    parser.add_argument("--note", help="a remark on the machine's load for --compare")
    args = parser.parse_args(argv)
    from optimal_mm.outputs import atomic_write_text

    entries = load_table(TABLE)["entries"]
    for key in args.compare:  # all refused before the first is solved again
        if entries.get(key, {}).get("status") != "solved":
            parser.error(f"--compare {key}: not a solved entry of the table "
                         f"(spec/guesses/objective, e.g. p4c5b/any/expected)")
    rows = json.loads(COMPARE.read_text())["compare"] if COMPARE.exists() else {}
    if args.compare:
        rows.update(compare(args.compare, entries, args.note))
        atomic_write_text(COMPARE, json.dumps({"compare": rows}, indent=1) + "\n")
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
             "guesses); *skew* = the skew-aware bound at the root (black-only games) and "
             "*skew gap* its gap. Where the expected case (any guesses) is open, "
             "*optimum* gives where it lies: at least the best of those bounds and of the "
             "bound the table's timed-out search had proven (≥), at most the least total "
             "of the heuristic trees (" + ", ".join(UPPER_HEURISTICS) + ", with any guesses "
             "and restricted to consistent ones; " + ", ".join(CONSISTENT_HEURISTICS) + "; "
             "each verified by replaying every secret), the timed-out search's best tree, "
             "or the optimum with consistent guesses only (or its timed-out search's best "
             "tree), whichever is least (≤, with its source), and *gap* "
             "the upper over the lower.", "",
             "| game | codes | r | largest | n / r | t* | bound | optimum | gap | skew | "
             "skew gap | states | open |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
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
            optimum = ex["value"] if solved else ""
            if ex.get("status") == "timeout":  # bracket the open optimum
                low, high, name = bracket(game, entries, fig)
                optimum = f"≥ {low}, ≤ {high} ({name})"
                gap = f"{100 * (high - low) / low:.1f}%"
            skew = fig["skew"] or ""
            skew_gap = f"{100 * (ex['value'] - skew) / skew:.1f}%" if solved and skew else ""
            opened = ", ".join(k.split("/", 1)[1] for k in open_entries
                               if k.split("/")[0] == game)
            lines.append(
                f"| {game} | {fig['codes']} | {fig['r']} | {fig['largest']} | "
                f"{-(-fig['codes'] // fig['r'])} | {wc.get('value') or ''} | {fig['bound']} | "
                f"{optimum} | {gap} | {skew} | {skew_gap} | "
                f"{format(ex['states'], ',') if solved and ex.get('states') else ''} | "
                f"{opened} |")
    lines += wc_lines(entries)
    if rows:
        lines += compare_lines(rows)
    OUT.parent.mkdir(exist_ok=True)
    atomic_write_text(OUT, "\n".join(lines) + "\n")
    games = "game" if len(specs) == 1 else "games"
    print(f"wrote {OUT.relative_to(ROOT)} ({len(specs)} {games} with open entries)")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("black_only_survey.py", main))
