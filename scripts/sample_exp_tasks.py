#!/usr/bin/env python3
"""Time a seeded sample of the expected-case search's tasks; write them to results/.

An expected-case run (``optimal-mm solve GAME --objective expected``) works in the
order :class:`optimal_mm.search.Solver` documents:

0. every first-guess class is ranked by a *probed* bound (each part's balanced-tree
   bound raised by one null-window search); the least goes first;
1. that first guess is solved exactly: each part under :data:`SPLIT_SECRETS`
   secrets is one task (``_exp_part_task``); a bigger part is split by its own
   second guesses: the parts of its most promising one are tasks of the same
   batch, then its other second guesses are *rivals* (``_exp_guess_task``, budget
   the best total so far) while their bound is below that total;
2. every other first-guess class whose probed bound is below the total of (1) is a
   rival task with that total as budget.

This script measures (0) per class, and times a seeded random sample of the tasks
of (1) (``--count``, ``--seed``), each in a forked child with an empty
transposition table and a time limit (``forked_timing.py``), so that the whole run
can be estimated before it is started (docs/LOGIK_EXPECTED.md does it for p5c8).
With ``--rivals SIZE``, the part of that size is taken through (1) as the search
does with a big part: all the tasks of its first second guess, then its first
``--rival-count`` rivals against the incumbent (and, with ``--exact-rivals``, each
rival's parts solved exactly too, for comparison); with ``--rival-budget TOTAL``,
against TOTAL instead, without the incumbent's tasks (for a part whose incumbent
alone would take hours).
``scripts/estimate_exp_run.py`` extrapolates the run from these files.

Usage::

    python scripts/sample_exp_tasks.py p5c8 --guesses consistent --count 12 --limit 120
    python scripts/sample_exp_tasks.py p5c8 --guesses consistent --count 0 --rivals 429
    python scripts/sample_exp_tasks.py p5c8 --guesses any --count 0 --rivals 7051 \
        --rival-budget 33367 --rival-count 2 --limit 1800

Timings are as the machine's load allows: the output records the load average
before and after, each task's processor time beside its wall time, and the counts
(states, guesses evaluated), which do not depend on the load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402

from optimal_mm._search_arrays import NO_CAP  # noqa: E402
from optimal_mm.outputs import atomic_write_text, check_output_path  # noqa: E402
from optimal_mm.search import DEFAULT_TABLE_ENTRIES, Solver  # noqa: E402
from optimal_mm.search_parts import SPLIT_SECRETS  # noqa: E402
from optimal_mm.search_tasks import _exp_guess_task, _exp_part_task, part_task  # noqa: E402
from forked_timing import seconds, start_sampler, time_forked  # noqa: E402  (beside this script)
from optimal_mm.cli import at_least  # noqa: E402


def rank_first_guesses(solver, reps, limit):
    """Phase (0) for every first-guess class in ``reps``: the parts' sizes, the
    balanced-tree bound and the probed bound on its total (timed in one forked child
    per class, as the search probes them: in sequence, one table), in the order the
    search would try them (probed bound, then code)."""
    game, ctx = solver.game, solver._ctx
    n = game.n_codes
    lb = ctx.bounds(0)[NO_CAP]
    rows = []
    for g in reps:
        g = int(g)
        parts = solver._parts(g, ctx.all_guesses)
        lbs = [int(lb[len(p)]) for _, p in parts]

        def run(g=g, parts=parts, lbs=lbs):
            before = ctx.counters.copy()
            probed = [solver._probe(g, p, b, NO_CAP, 0) for (_, p), b in zip(parts, lbs)]
            return probed, ctx.counters - before

        row = time_forked(run, limit)
        probed = row.pop("result", None)
        rows.append({"guess": game.code_str(g), "parts": [len(p) for _, p in parts],
                     "balanced_bound": n + sum(lbs),
                     "probed_bound": None if probed is None else n + sum(probed),
                     "probe": row})
    rows.sort(key=lambda r: (r["probed_bound"] if r["probed_bound"] is not None
                             else r["balanced_bound"], game.code_index(r["guess"])))
    return rows


def phase_one_tasks(solver, first):
    """The tasks of phase (1) for ``first``, as ``(kind, history, part)``, and, per
    part of :data:`SPLIT_SECRETS` secrets or more, its split: the second guesses in
    the search's order with their bounds."""
    ctx = solver._ctx
    tasks, splits = [], []
    for _, part in solver._parts(first, ctx.all_guesses):
        if len(part) < SPLIT_SECRETS:
            tasks.append(("part", (first,), part))
            continue
        plan = solver.exp_second_guesses((first,), part, NO_CAP, 0)
        second = plan[0][0]
        subs = [sub for _, sub in ctx.split(second, part)]
        splits.append({"secrets": len(part), "second_guesses": len(plan),
                       "first_second_guess": solver.game.code_str(second),
                       "bounds": [b for _, b in plan], "parts": [len(s) for s in subs]})
        tasks.extend(("split", (first, second), sub) for sub in subs)
    return tasks, splits


def time_part(solver, history, part, limit):
    """One ``_exp_part_task`` as a worker runs it (exact value and subtree)."""
    game, entries = solver.game, solver.entries

    def run():
        value, _, counters = _exp_part_task(game, solver.consistent, entries, solver.symmetry,
                                            *part_task(history, part, NO_CAP, 0))
        return value, counters
    return time_forked(run, limit)


def time_rivals(solver, first, size, count, limit, exact=False, budget=None):
    """The part of ``size`` secrets below ``first`` through phase (1) as if it were big
    (it is split whatever its size): every task of its first second guess, then up
    to ``count`` rivals, each against the best total so far
    (``Solver._split_part``); with ``exact``, each rival's parts are also solved
    exactly, one task each, for comparison.

    With ``budget`` (a total the part is known to reach, e.g. from another tree),
    the first second guess's tasks are not run: the rivals are timed against
    ``budget`` instead, which is what they face once the incumbent costs that much
    (the run's own incumbent is at most as good as the part's optimum, so a budget
    from a tree of the part is an upper bound on the budget the run gives them)."""
    game, ctx = solver.game, solver._ctx
    part = next((p for _, p in solver._parts(first, ctx.all_guesses) if len(p) == size), None)
    if part is None:
        raise SystemExit(f"no part of {size} secrets below {game.code_str(first)}")
    plan = solver.exp_second_guesses((first,), part, NO_CAP, 0)
    second = plan[0][0]
    rows, best = [], size
    for _, sub in ctx.split(second, part) if budget is None else ():
        row = {"secrets": len(sub), **time_part(solver, (first, second), sub, limit)}
        rows.append(row)
        print(json.dumps(row), flush=True)
        best = None if best is None or not row["finished"] else best + row["result"]
    if budget is not None:
        best = budget
    out = {"secrets": size, "first_second_guess": game.code_str(second),
           "second_guesses": len(plan), "tasks": rows,
           "incumbent": None if budget is not None else best, "budget_given": budget,
           "rivals": []}
    if best is None:
        return out
    out["rivals_below_incumbent_before_search"] = sum(1 for _, b in plan[1:] if b < best)
    lb = ctx.bounds(0)[NO_CAP]
    for rival, bound in plan[1:1 + count]:
        if bound >= best:
            break
        subs = [sub for _, sub in ctx.split(rival, part)]

        def run(rival=rival, subs=subs, best=best):
            value, _, counters = _exp_guess_task(game, solver.consistent, solver.entries,
                                              solver.symmetry, (first,), rival, subs,
                                              [int(lb[len(q)]) for q in subs], size, best,
                                              NO_CAP, 0)
            return value, counters
        row = {"guess": game.code_str(rival), "bound": bound, "budget": best,
               **time_forked(run, limit)}
        if exact:  # the same rival's parts solved exactly, as the incumbent's were
            tasks = [{"secrets": len(sub), **time_part(solver, (first, rival), sub, limit)}
                     for sub in subs]
            done = all(t["finished"] for t in tasks)
            row["exact"] = {"finished": done, "tasks": tasks,
                            "total": size + sum(t["result"] for t in tasks) if done else None}
        out["rivals"].append(row)
        print(json.dumps(row), flush=True)
        if row.get("result") is not None and row["result"] < best:
            best = row["result"]
    out["best"] = best
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--guesses", choices=("any", "consistent"), default="consistent")
    parser.add_argument("--first", help="the first guess whose tasks are sampled "
                                        "(default: the one the search tries first)")
    parser.add_argument("--count", type=at_least(0), default=12, help="tasks of phase (1) to time")
    parser.add_argument("--seed", type=int, default=1, help="of the random sample")
    parser.add_argument("--min-secrets", type=at_least(0), default=0, metavar="N",
                        help="sample only the tasks of at least N secrets (the big ones, "
                             "which decide an estimate, with a longer --limit)")
    parser.add_argument("--limit", type=seconds, default=120.0, help="seconds per task")
    parser.add_argument("--rivals", type=at_least(2), metavar="SIZE",
                        help="also take the part of SIZE secrets through phase (1), "
                             "split as a big part")
    parser.add_argument("--rival-count", type=at_least(1), default=3,
                        help="with --rivals: how many rivals to time")
    parser.add_argument("--exact-rivals", action="store_true",
                        help="with --rivals: also solve each rival's parts exactly")
    parser.add_argument("--rival-budget", type=int, metavar="TOTAL",
                        help="with --rivals: time the rivals against TOTAL (a total the "
                             "part is known to reach) without solving the first second "
                             "guess's tasks")
    parser.add_argument("--table-entries", type=at_least(0), default=DEFAULT_TABLE_ENTRIES)
    parser.add_argument("-o", "--output",
                        help="default results/<game>-exp-<guesses>-sample.json")
    args = parser.parse_args(argv)
    if args.rival_budget is not None and (args.rivals is None or args.rival_budget < 1):
        parser.error("--rival-budget needs --rivals and a positive total")
    game = start_sampler(args.game, __file__)
    if game is None:
        return 2
    if args.first:
        game.code_index(args.first)  # a bad code refused before any work
    if args.output:
        check_output_path(args.output)  # as is a path that cannot be written
    load_before = os.getloadavg()
    start = time.perf_counter()
    solver = Solver(game, args.guesses, jobs=1, table_entries=args.table_entries)
    _, reps = solver._root()
    setup = round(time.perf_counter() - start, 1)
    ranking = rank_first_guesses(solver, reps, args.limit)
    for row in ranking:
        print(json.dumps(row), flush=True)
    first = game.code_index(args.first or ranking[0]["guess"])
    tasks, splits = phase_one_tasks(solver, first)
    eligible = [i for i, (_, _, part) in enumerate(tasks) if len(part) >= args.min_secrets]
    if not eligible:
        print(f"error: no task of {game.code_str(first)} has {args.min_secrets} secrets or "
              f"more (the largest has {max(len(p) for _, _, p in tasks)})", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    picked = sorted(int(eligible[k]) for k in rng.choice(
        len(eligible), size=min(args.count, len(eligible)), replace=False))
    rows = []
    for i in picked:
        kind, history, part = tasks[i]
        row = {"task": int(i), "kind": kind, "history": [game.code_str(h) for h in history],
               "secrets": len(part), **time_part(solver, history, part, args.limit)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = {
        "command": "python scripts/sample_exp_tasks.py " + " ".join(argv or sys.argv[1:]),
        "game": game.spec, "guesses": args.guesses, "split_secrets": SPLIT_SECRETS,
        "limit_s": args.limit, "table_entries": args.table_entries, "seed": args.seed,
        "min_secrets": args.min_secrets,
        "setup_s": setup,
        "first_guesses": ranking,
        "root_lower_bound": min(r["probed_bound"] or r["balanced_bound"] for r in ranking),
        "first_guess": game.code_str(first),
        "phase_one": {"tasks": len(tasks),
                      "task_sizes": sorted((len(p) for _, _, p in tasks), reverse=True),
                      "split_parts": splits},
        "sample": rows,
    }
    if args.rivals is not None:
        out["rivals"] = time_rivals(solver, first, args.rivals, args.rival_count, args.limit,
                                    args.exact_rivals, args.rival_budget)
    out["machine"] = {"cpus": os.cpu_count(), "processor": platform.processor() or None,
                      "load_before": [round(x, 2) for x in load_before],
                      "load_after": [round(x, 2) for x in os.getloadavg()]}
    path = args.output or str(ROOT / "results" / f"{game.spec}-exp-{args.guesses}-sample.json")
    atomic_write_text(path, json.dumps(out, indent=1) + "\n")
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("sample_exp_tasks.py", main))
