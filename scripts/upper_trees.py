#!/usr/bin/env python3
"""The trees behind the optimal table's upper bounds; writes results/trees/upper/ and
results/upper_trees.{json,md}.

An open cell of an expected-case objective (``expected``, ``worst-then-expected``,
``fewest-at-worst``) prints ``≤ U`` (results/optimal_table.md): the best complete
tree its search had built when its time limit came. The table's own runs keep that
tree since 2026-12-06 (their worker writes it at the limit:
:func:`upper_index.keep_run_tree`); this script makes it a file anyone can replay
for a cell whose run did not (an older run, one killed outright). It resumes the
cell's checkpoint
(``results/checkpoints/<spec>-<objective>[-consistent]``, as
``scripts/optimal_tables.py --checkpoint results/checkpoints`` left it) with

    optimal-mm solve SPEC --objective OBJECTIVE --guesses GUESSES --checkpoint DIR
        --time-limit S --best-so-far results/trees/upper/<cell>.json.gz

which reads the saved tasks back, rebuilds the first guess's tree from them and, at
the limit, writes the best tree it has (``optimal`` false, ``meta.upper_bound``);
whatever the search finishes in those seconds is saved in the checkpoint like any
other run's work. Each tree is replayed for every secret, and its row gives the
figure the table bounds (the total; for ``fewest-at-worst`` the secrets at the cap,
then the total) beside the table's ``≤`` when it was made. A cell whose search ends
within the limit is solved: the script says so and writes no tree (record it with
the table's own command). A listed cell that the table has since solved loses its
row and its tree, on any run of the script (``--render`` too), which says so: the
table then prints its value, and the tree bounds nothing. The exit status is 1 when
a cell asked for got no tree. Runs of other cells may go at once: each merges its
rows into the index as it is when it writes, under a lock beside it.

Usage::

    python scripts/upper_trees.py --only p4c10/any/fewest-at-worst --time-limit 60
    python scripts/upper_trees.py --render      # rewrite the markdown from the JSON

A ``fewest-at-worst`` cell resumes with its worst-case entry's ``t*`` as
``--max-guesses``, as the table's own runs do (``table_entries.cap_for``), and
every cell from the best tree of ``trees/`` below ``--out`` that fits it
(``--upper-bound-tree``, ``table_entries.ceiling_for``: its own earlier tree, a
tree within its cap), so the tree written is never worse than one known.
``--jobs``, ``--split-secrets``, ``--chain-secrets`` and ``--wc-tree`` go to ``solve``
as they went to the cell's runs (the worst-case split and tree rule decide which of
its tasks the checkpoint holds: with others, the resumed search would compute them
again).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm.cli.search_options import (add_tuning_options, check_tuning,  # noqa: E402
                                           tuning_flags)
from optimal_mm.errors import OptimalMMError, check_time_limit  # noqa: E402
from optimal_mm.search import check_jobs  # noqa: E402
from optimal_mm.tree import Strategy  # noqa: E402
from table_entries import cap_for, ceiling_for, checkpoint_dir, shown  # noqa: E402
from upper_index import (TREE_OBJECTIVES, read_field, row, rows, tree_name,  # noqa: E402
                         update_index)

RESULTS = ROOT / "results"


def make_tree(entry: dict, checkpoints: Path, out_dir: Path, seconds: float,
              solve_args: list[str]) -> tuple[str, dict | None]:
    """Resume one cell's checkpoint for ``seconds`` and keep its best tree: ``(what
    happened, its row or None)``."""
    spec, guesses, objective = entry["spec"], entry["guesses"], entry["objective"]
    key = f"{spec}/{guesses}/{objective}"
    folder = Path(checkpoint_dir(checkpoints, spec, guesses, objective))
    if not folder.is_dir():
        return f"{key}: no checkpoint at {folder}", None
    name = Path("trees") / "upper" / tree_name(key)  # below out_dir
    out = out_dir / name
    out.parent.mkdir(parents=True, exist_ok=True)
    command = ["optimal-mm", "solve", spec, "--objective", objective, "--guesses", guesses,
               "--checkpoint", shown(folder), "--time-limit", f"{seconds:g}",
               "--best-so-far", shown(out), *solve_args]
    with tempfile.TemporaryDirectory() as scratch:
        run = subprocess.run([sys.executable, "-m", "optimal_mm", *command[1:], "--quiet",
                              "-o", str(Path(scratch) / "solved.json.gz")],
                             capture_output=True, text=True, cwd=ROOT)
    last = (run.stderr.strip().splitlines() or [""])[-1]
    if run.returncode == 0:
        return (f"{key}: solved within {seconds:g} s: record it with "
                f"scripts/optimal_tables.py"), None
    if run.returncode != 124 or "wrote the best tree so far" not in run.stderr:
        return f"{key}: no tree ({last or f'exit {run.returncode}'})", None
    made = row(key, Strategy.load(out), name, " ".join(command), entry.get("best"))
    bound = entry.get("best")
    return f"{key}: {made['value']} (table ≤ {'none' if bound is None else bound}), {out}", made


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[], metavar="SPEC/GUESSES/OBJECTIVE",
                        help="the open cells to make trees of, e.g. p4c10/any/fewest-at-worst")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="seconds each resumed search may run (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="solve --jobs (default 1)")
    tuning = parser.add_argument_group(
        "search tuning", "passed on to each resumed search (optimal-mm solve's options; "
                         "only those given): give those of the cell's own runs, which "
                         "results/open_cells.md lists under \"To go on\"")
    add_tuning_options(tuning, defaults=False)
    parser.add_argument("--render", action="store_true",
                        help="search nothing: rewrite the markdown from the JSON (and "
                             "drop the trees of cells solved since)")
    parser.add_argument("--table", type=Path, default=RESULTS / "optimal_table.json")
    parser.add_argument("--checkpoints", type=Path, default=RESULTS / "checkpoints")
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="where upper_trees.{json,md} and trees/upper/ go (default "
                             "results/)")
    args = parser.parse_args(argv)
    try:  # as solve takes them, refused here before any cell is touched
        check_jobs(args.jobs)
        check_time_limit(args.time_limit)
        check_tuning(args)
    except ValueError as exc:
        print(f"upper_trees.py: {exc}", file=sys.stderr)
        return 2
    if not args.out.is_dir():
        print(f"upper_trees.py: --out {str(args.out)!r} is not a directory", file=sys.stderr)
        return 2
    try:
        rows(args.out)
        entries = read_field(args.table, "entries", dict)
    except ValueError as exc:
        print(f"upper_trees.py: cannot read {exc}", file=sys.stderr)
        return 2
    made, missing = [], 0  # the rows of this run's trees; cells asked for with none
    if not args.render:
        bad = [k for k in args.only if k not in entries]
        if bad or not args.only:
            print(f"upper_trees.py: --only needs cells of the table, got "
                  f"{' '.join(bad) or 'none'}", file=sys.stderr)
            return 2
        wrong = [k for k in args.only if entries[k].get("status") != "timeout"
                 or entries[k]["objective"] not in TREE_OBJECTIVES]
        if wrong:
            print(f"upper_trees.py: not an open cell of an expected-case objective: "
                  f"{' '.join(wrong)}", file=sys.stderr)
            return 2
        solve_args = ["--jobs", str(args.jobs), *tuning_flags(args)]
        for key in args.only:
            try:
                # A fewest-at-worst cell resumes under its worst-case entry's t*, as
                # the table's runs do (no worst-case search first)
                cap = cap_for(entries, *key.split("/"))
                # and from the best tree already known for it (its own earlier one,
                # a tree within the cap), which its search may not beat in time
                ceiling = ceiling_for(entries, *key.split("/"), folder=args.out / "trees")
                said, row = make_tree(entries[key], args.checkpoints, args.out,
                                      args.time_limit, solve_args + (
                                          [] if cap is None else
                                          ["--max-guesses", str(cap[0])]) + (
                                          [] if ceiling is None else
                                          ["--upper-bound-tree", shown(ceiling[0])]))
            except (OSError, OptimalMMError) as exc:
                said, row = f"{key}: {exc}", None
            print(said)
            if row is None:
                missing += 1
            else:
                made = [r for r in made if r["key"] != key] + [row]
    update_index(args.out, entries, made, rewrite=not args.render)
    return 1 if missing else 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("upper_trees.py", main))
