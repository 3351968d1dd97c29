#!/usr/bin/env python3
"""Proven-optimal strategy trees; writes results/trees/<game>-<objective>[...].json.gz.

Each tree is solved by the project's exact search (``optimal_mm.search.solve``),
replayed on every secret (``Strategy.validate``) and written atomically, with the
command that made it, its value and the search time in the tree's ``meta``. A
summary of every tree made so far goes to ``results/optimal_trees.md`` and
``.json``. The expected-case trees of mastermind and bulls-and-cows, and Logik's with
consistent guesses only, are also copied into ``optimal_mm/data/`` (``--ship``), where
``optimal-mm play`` finds them.

Long runs lose no finished work: a tree already present (and valid) is kept, unless
``--redo``. Usage::

    python scripts/make_trees.py                          # every tree below
    python scripts/make_trees.py --only mastermind-expected --ship
    python scripts/make_trees.py --list                   # names and commands

Searches run with ``--jobs`` processes (default: all cores).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "results" / "trees"
SUMMARY = ROOT / "results" / "optimal_trees"
DATA = ROOT / "optimal_mm" / "data"

# name: (game, objective, guesses, max_guesses, published value or None, source)
TREES_TO_MAKE = {
    "mastermind-worst-case": ("mastermind", "worst-case", "any", None, 5, "Knuth 1977"),
    "mastermind-expected": ("mastermind", "expected", "any", None, 5625,
                            "Koyama and Lai 1993"),
    "mastermind-expected-max5": ("mastermind", "expected", "any", 5, 5626,
                                 "Koyama and Lai 1993"),
    "mastermind-worst-case-consistent": ("mastermind", "worst-case", "consistent", None,
                                         None, None),
    "mastermind-expected-consistent": ("mastermind", "expected", "consistent", None, 5660,
                                       "Super Master Mind, optimal strategy page"),
    "p4c7-worst-case": ("p4c7", "worst-case", "any", None, 6, "Jager and Peczarski 2009"),
    "p4c7-expected": ("p4c7", "expected", "any", None, 11228, "Ville 2013"),
    "bulls-and-cows-worst-case": ("bulls-and-cows", "worst-case", "any", None, 7,
                                  "Jager and Peczarski 2015"),
    "bulls-and-cows-expected": ("bulls-and-cows", "expected", "any", None, 26274,
                                "Tanaka 1996"),
    "p4c8-expected": ("p4c8", "expected", "any", None, 20471, "arfst23/Mastermind 2023"),
    "mastermind-fewest-at-worst": ("mastermind", "fewest-at-worst", "any", None, None, None),
    "p4c7-fewest-at-worst": ("p4c7", "fewest-at-worst", "any", None, None, None),
    "bulls-and-cows-fewest-at-worst": ("bulls-and-cows", "fewest-at-worst", "any", None, None,
                                       None),
    # Hours of search over several runs: made with --checkpoint results/checkpoints,
    # which resumes from the committed checkpoint (docs/LOGIK_EXPECTED.md).
    "p5c8-expected-consistent": ("p5c8", "expected", "consistent", None, None, None),
    # 22 minutes of search, in results/checkpoints as well (the optimal table's entry
    # p5c8n/any/worst-case reads the same checkpoint).
    "p5c8n-worst-case": ("p5c8n", "worst-case", "any", None, None, None),
    # Two hours over two sittings (docs/RUNS.md), from results/checkpoints too.
    "p8c3-worst-case": ("p8c3", "worst-case", "any", None, None, None),
    # Logik's worst case, 7 with 6 refuted: 34 minutes on two cores (docs/LOGIK.md),
    # rebuilt from its committed checkpoint in seconds.
    "p5c8-worst-case": ("p5c8", "worst-case", "any", None, None, None),
    # 7.4 h of processor time over seven runs of the optimal table (docs/RUNS.md),
    # rebuilt from the table's committed checkpoint in under a second.
    "p6c7nb-expected-consistent": ("p6c7nb", "expected", "consistent", None, None, None),
    # The uncapped optima of the table's open capped totals, from the table's
    # committed checkpoints in under a second each: the table bounds each capped
    # part by their subtrees (scripts/table_entries.py, floor_tree).
    "p4c8nb-expected": ("p4c8nb", "expected", "any", None, None, None),
    "p5c7nb-expected": ("p5c7nb", "expected", "any", None, None, None),
    "p5c6b-expected": ("p5c6b", "expected", "any", None, None, None),
    # The capped totals that meet those uncapped optima (their trees, the floor:
    # FLOORS), from the table's checkpoints in seconds each.
    "p4c8nb-worst-then-expected": ("p4c8nb", "worst-then-expected", "any", None, None, None),
    "p5c7nb-worst-then-expected": ("p5c7nb", "worst-then-expected", "any", None, None, None),
    # Over three hours of processor time in the table's runs (docs/RUNS.md), read
    # back from its committed checkpoint (tasks under half a second searched again).
    "p5c6b-worst-then-expected": ("p5c6b", "worst-then-expected", "any", None, None, None),
    # 3.7 h of processor time over the optimal table's runs (docs/RUNS.md), read
    # back from its committed checkpoint in seconds (tasks under half a second, which
    # the table's runs did not keep, are searched again and not kept either).
    "p4c9-fewest-at-worst": ("p4c9", "fewest-at-worst", "any", None, None, None),
    # About ten hours of wall time over twelve runs of the optimal table (docs/RUNS.md),
    # read back from its committed checkpoint.
    "p5c6b-fewest-at-worst": ("p5c6b", "fewest-at-worst", "any", None, None, None),
    # 19.9 h of processor time over the optimal table's runs of 2026-12-03 to
    # 2026-12-06 (docs/RUNS.md), read back from its committed checkpoint in seconds; its
    # subtrees bound the parts of p6c7n's total within 7 guesses (table_entries.py,
    # floor_tree).
    "p6c7n-expected": ("p6c7n", "expected", "any", None, None, None),
    # The total within 7 guesses: 29124, one above that optimum, 6.3 h of processor
    # time timed over six runs of the optimal table on 2026-12-06 (docs/RUNS.md), read
    # back from its committed checkpoint with p6c7n-expected as its floor.
    "p6c7n-worst-then-expected": ("p6c7n", "worst-then-expected", "any", None, None,
                                  None),
    # The optimal worst cases of the games whose capped cells (fewest-at-worst,
    # worst-then-expected) are open, several from the table's committed checkpoints:
    # each tree keeps within t*, so it bounds those cells from above until their own
    # searches build a better tree (scripts/table_entries.py, ceiling_for).
    **{f"{spec}-worst-case": (spec, "worst-case", "any", None, None, None)
       for spec in ("p4c10b", "p4c10nb", "p4c9nb", "p5c6b", "p6c7nb", "p7c7n", "p7c7nb")},
    "p4c10nb-worst-case-consistent": ("p4c10nb", "worst-case", "consistent", None, None,
                                      None),
}
# Trees searched with another tree's total as a lower bound (solve
# --lower-bound-tree): an uncapped optimum bounds the capped one, and each of its
# subtrees the part it starts from (optimal_mm.search.LowerBound).
FLOORS = {"p4c8nb-worst-then-expected": "p4c8nb-expected",
          "p5c7nb-worst-then-expected": "p5c7nb-expected",
          "p5c6b-worst-then-expected": "p5c6b-expected",
          "p6c7n-worst-then-expected": "p6c7n-expected"}
# The search options of the optimal table's runs, whose checkpoints these read
TABLE_OPTIONS = {"split_secrets": 500, "wc_tree": "first", "chain_secrets": 250}
OPTIONS = {name: TABLE_OPTIONS for name in FLOORS}
OPTIONS["p5c6b-worst-then-expected"] = {**TABLE_OPTIONS, "checkpoint_min_seconds": 0.5}
OPTIONS["p4c9-fewest-at-worst"] = {"split_secrets": 500, "wc_tree": "first",
                                   "checkpoint_min_seconds": 0.5}
OPTIONS["p5c6b-fewest-at-worst"] = {**TABLE_OPTIONS, "checkpoint_min_seconds": 0.5}
# As the table's runs that solved it searched (two jobs, chains of 250 secrets)
OPTIONS["p6c7n-expected"] = {"chain_secrets": 250, "checkpoint_min_seconds": 0.5,
                             "table_entries": 64000000}
OPTIONS["p6c7n-worst-then-expected"] = OPTIONS["p6c7n-expected"]
# The worst cases as the table's runs that solved them split their tasks (their
# checkpoints then read back whole), each with the first feasible guess's tree, far
# faster to build than the small-total one
for _name in ("p4c10nb-worst-case", "p6c7nb-worst-case", "p4c10nb-worst-case-consistent"):
    OPTIONS[_name] = {"split_secrets": 500, "wc_tree": "first"}
for _name in ("p4c10b", "p4c9nb", "p5c6b", "p7c7n", "p7c7nb"):
    OPTIONS[f"{_name}-worst-case"] = {"wc_tree": "first"}
SHIPPED = {"mastermind-expected": "mastermind", "bulls-and-cows-expected": "bulls-and-cows",
           "p5c8-expected-consistent": "logik"}

# Values whose search is longer than one run: what is proven so far, the verified tree
# that gives the best bound (if any, in results/trees/, its figures read from the file),
# and the page that gives the estimate, how far the run got and how to resume it.
OPEN_VALUES = [
    {"game": "p5c8", "objective": "expected", "guesses": "any",
     "proven": "167,045 <= total <= 179,929: the search's root lower bound with any "
               "guesses (first guess 11234, probed), and the consistent-only optimum (this "
               "tree: consistent guesses are guesses too)",
     "tree": "p5c8-expected-consistent", "page": "docs/LOGIK_EXPECTED.md",
     "open": "run started with --checkpoint results/checkpoints/p5c8-expected-any "
             "(2026-11-24; the same command resumes it), but estimated at weeks on 2 "
             "cores: each big part has about 560 rival second guesses within the "
             "bound's 7 % gap, and the two rivals of the 7051-secret part timed were "
             "not refuted in 1,400 s of processor time each "
             "(results/p5c8-exp-any-rivals-7051.json); "
             "it needs a stronger bound at depth 2-3 or a cluster"},
]


def command_line(game, objective, guesses, cap, name=None) -> str:
    cmd = f"optimal-mm solve {game} --objective {objective}"
    if guesses != "any":
        cmd += f" --guesses {guesses}"
    if cap is not None:
        cmd += f" --max-guesses {cap}"
    if name in FLOORS:
        cmd += f" --lower-bound-tree results/trees/{FLOORS[name]}.json.gz"
    for option, value in OPTIONS.get(name, {}).items():
        cmd += f" --{option.replace('_', '-')} {value}"
    return cmd


def tree_value(objective: str, stats) -> int:
    """The figure a tree of ``objective`` is optimal for, read from its replay stats."""
    if objective == "worst-case":
        return stats.max
    if objective == "fewest-at-worst":
        return stats.at_worst
    return stats.total


def make(name: str, jobs: int, redo: bool, checkpoint: str | None = None) -> dict:
    """Solve one tree (or check the one already there); its summary entry."""
    from optimal_mm import Game
    from optimal_mm.search import solve
    from optimal_mm.tree import Strategy

    spec, objective, guesses, cap, published, source = TREES_TO_MAKE[name]
    path = TREES / f"{name}.json.gz"
    game = Game.from_spec(spec)
    if path.exists() and not redo:
        strategy = Strategy.load(path)
        stats = strategy.validate()
        seconds = strategy.meta.get("seconds")
        value = tree_value(objective, stats)
        print(f"{name}: kept {path.relative_to(ROOT)} (value {value})", flush=True)
    else:
        command = command_line(spec, objective, guesses, cap, name)
        print(f"{name}: solving ({command}) ...", flush=True)
        start = time.perf_counter()
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        options = {"jobs": jobs, **OPTIONS.get(name, {})}
        if checkpoint:  # a killed run, rerun the same way, resumes (docs/LONG_RUNS.md)
            options["checkpoint"] = str(Path(checkpoint) / name)
        if name in FLOORS:
            options["floor"] = _floor(FLOORS[name], game, guesses)
        sol = solve(game, objective, guesses, cap, **options)
        if sol.strategy is None:
            raise SystemExit(f"{name}: no tree ({'; '.join(sol.proof)})")
        strategy = sol.strategy
        strategy.meta["command"] = command
        strategy.meta["proof"] = sol.proof
        strategy.meta["states"] = sol.stats.states
        stats = strategy.validate()
        value = sol.value
        seconds = round(time.perf_counter() - start, 2)
        strategy.meta["seconds"] = seconds
        # The time depends on the processes used and on what else the machine ran.
        strategy.meta["jobs"] = jobs
        if load is not None:
            strategy.meta["load_at_start"] = round(load, 1)
        TREES.mkdir(parents=True, exist_ok=True)
        strategy.save(path)
        print(f"{name}: value {value}, {stats}, {seconds} s", flush=True)
    return {"name": name, "game": spec, "objective": objective, "guesses": guesses,
            "max_guesses": cap, "value": value, "total": stats.total, "max": stats.max,
            "average": round(stats.total / stats.secrets, 4),
            "depth_counts": list(stats.depth_counts), "first_guess": strategy.root.guess,
            "seconds": seconds, "file": str(path.relative_to(ROOT)),
            "jobs": strategy.meta.get("jobs"), "load_at_start": strategy.meta.get("load_at_start"),
            "resumed_tasks": strategy.meta.get("resumed_tasks") or None,
            "published": published, "source": source,
            "command": command_line(spec, objective, guesses, cap, name)}


def _floor(name: str, game, guesses: str):
    """The lower bound that the tree ``name`` (made above it, in results/trees/)
    proves for a search of ``game``: a one-line exit where it is missing."""
    from optimal_mm.search import LowerBound
    from optimal_mm.tree import Strategy

    path = TREES / f"{name}.json.gz"
    if not path.exists():
        raise SystemExit(f"make_trees.py: error: the lower bound's tree {name} is not in "
                         f"results/trees/: make it first (--only {name})")
    return LowerBound.from_tree(Strategy.load(path), f"results/trees/{name}.json.gz",
                                game, guesses)


def _seconds_cell(entry) -> str:
    """The search time, with the jobs and the load average at its start when recorded
    (trees made with all cores on a quiet machine say nothing more)."""
    seconds = str(entry["seconds"])
    if entry.get("jobs") not in (None, -1):
        seconds += f" (jobs {entry['jobs']}"
        if entry.get("load_at_start") is not None:
            seconds += f", load {entry['load_at_start']}"
        seconds += ")"
    if entry.get("resumed_tasks"):
        seconds += (f": the last run only, which read {entry['resumed_tasks']:,} finished "
                    f"tasks of earlier runs from its checkpoint")
    return seconds


def update_summary(made: dict) -> None:
    """Put the trees ``made`` (name: entry) into the summary as it is now and rewrite
    it (JSON and page), under an exclusive lock on a file beside it: another run of
    the script (other trees, on other cores) may have written its own since this one
    started, and they stay, where the summary as read at the start would have lost
    them."""
    with open(SUMMARY.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        entries = {}
        if SUMMARY.with_suffix(".json").exists():
            entries = json.loads(SUMMARY.with_suffix(".json").read_text()).get("trees", {})
        write_summary({**entries, **made})


def write_summary(entries: dict) -> None:
    doc = {"machine": f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
           "trees": entries}
    tmp = SUMMARY.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, SUMMARY.with_suffix(".json"))
    lines = ["# Proven-optimal strategy trees", "",
             "Made by `python scripts/make_trees.py` on " + doc["machine"] + "; each tree "
             "is in `results/trees/` and passes `optimal-mm verify`. *value*: the worst case "
             "(worst-case objective), the total (expected objective) or the number of "
             "secrets that need all *max* guesses (fewest-at-worst objective: the fewest "
             "over the trees with the optimal worst case; its *total* is the least among "
             "those trees with that number), proven by this project's search; *s*: "
             "wall time of the search and tree when it was made (all cores, "
             "unless the cell names the jobs and the load average of the machine at the "
             "start: those ran beside other work; for timings on a quiet machine see "
             "`bench.md`). "
             "*published*: the value in the literature (\"published claim\" where it is "
             "only claimed), = agrees, ≠ differs.", "",
             "| tree | value | total | average | max | depth counts | first guess | s | "
             "published |", "|---|---|---|---|---|---|---|---|---|"]
    for name in TREES_TO_MAKE:
        e = entries.get(name)
        if e is None:
            continue
        pub = ""
        if e["published"] is not None:
            mark = "=" if e["value"] == e["published"] else "≠"
            pub = f"{e['published']} {mark} ({e['source']})"
        lines.append(f"| [{name}](trees/{name}.json.gz) | {e['value']} | {e['total']} | "
                     f"{e['average']} | {e['max']} | {'/'.join(map(str, e['depth_counts']))} "
                     f"| {e['first_guess']} | {_seconds_cell(e)} | {pub} |")
    lines += ["", "## Open values", "",
              "Searches longer than one run, each with its page (estimate, how far it "
              "got, how to resume). A tree here is verified but not proven optimal.", "",
              "| game | objective | guesses | proven so far | tree | still open | page |",
              "|---|---|---|---|---|---|---|"]
    from optimal_mm.tree import Strategy

    for v in OPEN_VALUES:
        tree = ""
        if v["tree"]:
            stats = Strategy.load(TREES / f"{v['tree']}.json.gz").validate()
            tree = (f"[{v['tree']}](trees/{v['tree']}.json.gz): max {stats.max}, "
                    f"total {stats.total}")
        lines.append(f"| {v['game']} | {v['objective']} | {v['guesses']} | {v['proven']} "
                     f"| {tree} | {v['open']} | [{v['page']}](../{v['page']}) |")
    tmp = SUMMARY.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, SUMMARY.with_suffix(".md"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=list(TREES_TO_MAKE), metavar="NAME",
                        help="only these trees (default: all)")
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--redo", action="store_true", help="solve again even if present")
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="keep finished search tasks in DIR/<tree>, so that a killed "
                             "run resumes")
    parser.add_argument("--ship", action="store_true",
                        help="copy the mastermind and bulls-and-cows expected trees into "
                             "optimal_mm/data/ for the player")
    parser.add_argument("--list", action="store_true", help="list the trees and exit")
    parser.add_argument("--summary", action="store_true",
                        help="solve nothing: rewrite the summary from its JSON and the "
                             "open values")
    args = parser.parse_args(argv)
    if args.list:
        for name, (spec, obj, guesses, cap, *_rest) in TREES_TO_MAKE.items():
            print(f"{name}: {command_line(spec, obj, guesses, cap, name)}")
        return 0
    if args.summary:
        update_summary({})
        return 0
    for name in args.only or list(TREES_TO_MAKE):
        update_summary({name: make(name, args.jobs, args.redo, args.checkpoint)})
        if args.ship and name in SHIPPED:
            DATA.mkdir(exist_ok=True)
            target = DATA / f"{SHIPPED[name]}.json.gz"
            tmp = target.with_suffix(".tmp")
            shutil.copyfile(TREES / f"{name}.json.gz", tmp)
            os.replace(tmp, target)
            print(f"{name}: shipped as {target.relative_to(ROOT)}", flush=True)
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("make_trees.py", main))
