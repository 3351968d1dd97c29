#!/usr/bin/env python3
"""Time a sample of the worst-case search's top-level tasks; write them to results/.

A worst-case run (``optimal-mm solve GAME --objective worst-case``) proves ``t``
with a first guess when every part of the secrets under that guess is solvable
within ``t - 1`` guesses; each part is one task (``optimal_mm.search_tasks._wc_part_task``,
the function the runner sends to its workers and stores in a checkpoint). Before a
run too long to watch, this script times some of those tasks, so that the whole
run can be estimated from them (docs/LOGIK.md does it for p5c8).

Each task runs in a forked child with its own, empty transposition table (the
parent builds the answer table and the compiled search once; the children share
them copy-on-write), so a task's time does not depend on the tasks before it: a
cold-table figure, an upper bound on what a warm worker needs. A task still running
after ``--limit`` seconds is killed and recorded as unfinished, with the limit as a
lower bound on its time. Timings are as the machine's load allows: the output
records the load average before and after.

Usage::

    python scripts/sample_wc_tasks.py p5c8 --first 11234 --depth 6 --sizes 9 35 373
    python scripts/sample_wc_tasks.py p5c8 --first 11234 --depth 6 --all --limit 300
    python scripts/sample_wc_tasks.py p5c8 --first 11234 --depth 6 --probe 25346 --count 6
    python scripts/sample_wc_tasks.py p5c8 --first 11234 --depth 6 --probe 25346 --batch 100

With ``--probe``, one node below a task is taken apart instead (:func:`probe_node`):
how many guesses it has that the counting bound does not cut, and what refuting the
first few of them costs; written to results/<game>-wc-probe-<path>-depth<depth>.json.
With ``--batch N`` as well, the largest parts left by the node's first ``N`` guesses
are searched one after the other in this process, each with a fresh table, and the
time per part is printed (:func:`time_batch`): no fork per part, so the figure is
the search's own, for comparing two versions of the kernels on the same sets.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402

from optimal_mm import kernels, stopping  # noqa: E402
from optimal_mm._search_arrays import INF, NO_CAP, new_stats, new_table  # noqa: E402
from optimal_mm.game import partition_counts  # noqa: E402
from optimal_mm.outputs import atomic_write_text, check_output_path  # noqa: E402
from forked_timing import seconds, start_sampler, time_forked  # noqa: E402  (beside this script)
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.search import DEFAULT_TABLE_ENTRIES  # noqa: E402
from optimal_mm.search_context import _context, _part_guesses  # noqa: E402
from optimal_mm.search_tasks import _wc_part_task  # noqa: E402


def time_call(run, limit):
    """``{feasible, seconds, states, guesses}`` of ``run()`` (``(ok, counters)``) in a
    forked child, or ``finished: False`` after ``limit`` seconds."""
    def run_flag():
        ok, counters = run()
        return bool(ok), counters

    row = time_forked(run_flag, limit)
    if row["finished"]:
        row = {"finished": True, "feasible": row.pop("result"), **row}
    return row


def time_task(game, first, part, depth, entries, limit):
    """One task as a worker runs it: is ``part`` (after ``first``) solvable within ``depth``?"""
    def run():
        ok, _, counters = _wc_part_task(game, False, entries, True, first, part, depth, False)
        return ok, counters
    return time_call(run, limit)


def largest_part(ctx, guess, secrets):
    """The largest part of ``secrets`` under ``guess`` (the first answer on ties)."""
    return max(ctx.split(guess, secrets), key=lambda ap: (len(ap[1]), -ap[0]))[1]


def probe_node(game, ctx, first, path, depth, count, limit):
    """One node below a task, taken apart: the largest part after ``first`` and then
    after each guess of ``path``, with the guesses it has left. Counts its candidate
    guesses (orbit representatives at the task's root, as the search has them, every
    code below) and those the counting bound does not cut, then, for the first
    ``count`` in the search's order (largest part, sum of squares, possible secrets
    first), times their parts, largest first, until one is not solvable in time."""
    part = largest_part(ctx, first, np.arange(game.n_codes, dtype=np.int64))
    for guess in path:
        part = largest_part(ctx, guess, part)
    left = depth - 1 - len(path)
    if path:
        candidates = np.arange(game.n_codes, dtype=np.int64)
    else:
        candidates = np.asarray(_part_guesses(game, (first,), part, False, True))
    counts = partition_counts(game, candidates, part).astype(np.int64)
    counts[:, game.win] = 0
    biggest, squares = counts.max(axis=1), (counts ** 2).sum(axis=1)
    cap = 1
    while cap < len(part) and ctx.lb[left - 1, cap + 1] < INF:
        cap += 1
    kept = np.flatnonzero((biggest <= cap) & (biggest < len(part)))
    in_part = np.isin(candidates, part)
    kept = sorted(kept, key=lambda k: (biggest[k], squares[k], not in_part[k], candidates[k]))
    probed = []
    for k in kept[:count]:
        guess = int(candidates[k])
        parts = sorted(ctx.split(guess, part), key=lambda ap: (-len(ap[1]), ap[0]))
        tried = []
        for _, sub in parts:
            def run(sub=sub):
                before = ctx.counters.copy()
                ok = ctx.wc(sub, left - 1)
                return ok, ctx.counters - before
            row = {"secrets": len(sub), **time_call(run, limit)}
            tried.append(row)
            if not row.get("feasible"):
                break
        probed.append({"guess": game.code_str(guess), "parts": [len(p) for _, p in parts],
                       "tried": tried})
        print(json.dumps(probed[-1]), flush=True)
    return {"path": [game.code_str(first)] + [game.code_str(g) for g in path],
            "secrets": len(part), "guesses_left": left, "candidates": len(candidates),
            "not_cut_by_counting": len(kept), "counting_cap": cap,
            "least_largest_parts": [int(biggest[k]) for k in kept[:10]], "probed": probed}


def time_batch(game, ctx, first, path, depth, count, every=1):
    """``{sets, feasible, seconds_per_set, states, guesses}``: the largest part left by
    each of the first ``count`` guesses of the node that :func:`probe_node` takes
    apart (every ``every``-th of them, in the search's order, to sample the whole
    node), searched within the guesses then left, in this process, each with a
    fresh transposition table (made before the clock starts). None when the counting
    bound leaves no guess at that node (nothing to time)."""
    part = largest_part(ctx, first, np.arange(game.n_codes, dtype=np.int64))
    for guess in path:
        part = largest_part(ctx, guess, part)
    left = depth - 1 - len(path)
    candidates = (np.arange(game.n_codes, dtype=np.int64) if path
                  else np.asarray(_part_guesses(game, (first,), part, False, True)))
    counts = partition_counts(game, candidates, part).astype(np.int64)
    counts[:, game.win] = 0
    biggest, squares = counts.max(axis=1), (counts ** 2).sum(axis=1)
    in_part = np.isin(candidates, part)
    kept = [k for k in range(len(candidates))
            if biggest[k] < len(part) and ctx.lb[left - 1, biggest[k]] < INF]
    kept = sorted(kept, key=lambda k: (biggest[k], squares[k], not in_part[k], candidates[k]))
    sets = [largest_part(ctx, int(candidates[k]), part) for k in kept[::every][:count]]
    if not sets:
        return None
    tables = [new_table(1 << 16) for _ in sets]
    stats = new_stats()
    none = np.empty(0, dtype=np.int64)
    load = os.getloadavg()
    start = time.perf_counter()
    feasible = 0
    for S, tt in zip(sets, tables):
        # Through stopping.run, as the solver calls it: Ctrl-C stops a long set at once.
        ok, _ = stopping.run(lambda counters, S=S, tt=tt: kernels.wc_search(
            S, left - 1, none, ctx.table, ctx.all_guesses, ctx.lb, ctx.win, ctx.n_slots,
            False, tt, counters, *ctx.rules), stats)
        feasible += bool(ok)
    seconds = time.perf_counter() - start
    return {"guesses_not_cut": len(kept), "every": every, "sets": len(sets),
            "secrets": [min(map(len, sets)), max(map(len, sets))],
            "feasible": feasible, "seconds_per_set": round(seconds / len(sets), 4),
            "states": int(stats[0]), "guesses": int(stats[2]),
            "load_before": [round(x, 2) for x in load],
            "load_after": [round(x, 2) for x in os.getloadavg()]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--first", required=True, help="the first guess whose parts are tasks")
    parser.add_argument("--depth", type=at_least(2, NO_CAP), required=True,
                        help="the worst case being proved (parts get depth - 1 guesses)")
    parser.add_argument("--sizes", type=at_least(1), nargs="*", default=[],
                        help="sizes of the parts to time (each part of that size)")
    parser.add_argument("--all", action="store_true", help="every part, smallest first")
    parser.add_argument("--limit", type=seconds, default=120.0, help="seconds per task")
    parser.add_argument("--table-entries", type=at_least(0), default=DEFAULT_TABLE_ENTRIES)
    parser.add_argument("--probe", nargs="*", metavar="GUESS",
                        help="instead of the tasks: the node after the largest part of "
                             "--first, then of each GUESS (probe_node)")
    parser.add_argument("--count", type=at_least(1), default=6,
                        help="with --probe: how many of the node's guesses to time")
    parser.add_argument("--batch", type=at_least(1), metavar="N",
                        help="with --probe: time the largest parts of the node's first N "
                             "guesses in this process instead (time_batch); prints only")
    parser.add_argument("--every", type=at_least(1), default=1, metavar="K",
                        help="with --batch: every K-th of the node's guesses")
    parser.add_argument("-o", "--output",
                        help="default results/<game>-wc-sample-<first>-depth<depth>.json")
    args = parser.parse_args(argv)
    game = start_sampler(args.game, __file__)
    if game is None:
        return 2
    first = game.code_index(args.first)
    for guess in args.probe or ():
        game.code_index(guess)  # a bad code refused before any work
    if args.output:
        check_output_path(args.output)  # as is a path that cannot be written
    ctx = _context(game, False, args.table_entries, True)  # table and kernels, once
    if args.probe is not None and args.batch:
        path = [game.code_index(g) for g in args.probe]
        row = time_batch(game, ctx, first, path, args.depth, args.batch, args.every)
        if row is None:
            print("error: no guess at that node leaves parts the counting bound allows "
                  "within the guesses left (raise --depth)", file=sys.stderr)
            return 2
        print(json.dumps(row))
        return 0
    if args.probe is not None:
        path = [game.code_index(g) for g in args.probe]
        node = probe_node(game, ctx, first, path, args.depth, args.count, args.limit)
        out = {"command": "python scripts/sample_wc_tasks.py " + " ".join(argv or sys.argv[1:]),
               "game": game.spec, "depth": args.depth, "limit_s": args.limit,
               "load_after": [round(x, 2) for x in os.getloadavg()], "node": node}
        name = "-".join(node["path"])
        path = args.output or str(ROOT / "results" / f"{game.spec}-wc-probe-{name}-"
                                                      f"depth{args.depth}.json")
        atomic_write_text(path, json.dumps(out, indent=1) + "\n")
        print(f"written {path}")
        return 0
    secrets = np.arange(game.n_codes, dtype=np.int64)
    parts = sorted(ctx.split(first, secrets), key=lambda ap: (len(ap[1]), ap[0]))
    chosen = parts if args.all else [ap for ap in parts if len(ap[1]) in set(args.sizes)]
    if not chosen:  # an empty sample would be written as if it were one
        sizes = ", ".join(str(len(p)) for _, p in parts)
        asked = (f"no part of {' or '.join(map(str, args.sizes))} secrets"
                 if args.sizes else "no --sizes and no --all")
        parser.error(f"{asked} after {args.first}: give --sizes of these: {sizes}, or --all")
    load_before = os.getloadavg()
    rows = []
    for answer, part in chosen:
        row = {"answer": game.answer_str(answer), "secrets": len(part)}
        row.update(time_task(game, first, part, args.depth - 1, args.table_entries, args.limit))
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = {
        "command": "python scripts/sample_wc_tasks.py " + " ".join(argv or sys.argv[1:]),
        "game": game.spec, "first_guess": args.first, "depth": args.depth,
        "part_sizes": [len(p) for _, p in parts], "limit_s": args.limit,
        "table_entries": args.table_entries,
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor() or None,
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in os.getloadavg()]},
        "tasks": rows,
    }
    path = args.output or str(ROOT / "results" / f"{game.spec}-wc-sample-{args.first}-"
                                                  f"depth{args.depth}.json")
    atomic_write_text(path, json.dumps(out, indent=1) + "\n")
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("sample_wc_tasks.py", main))
