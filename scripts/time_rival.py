"""Time one rival guess of a big part, as one task or as a chain of tasks.

The expected-case search refutes a rival second guess of a big part as one task
(``_exp_guess_task``) and a rival first guess with big parts as a chain of tasks
(``Solver._guess_by_parts``). This script takes one rival second guess (the part of
``--part`` secrets after ``--first``, the guess ``--rival``) and runs it either way
against ``--budget``, in this process with an empty transposition table, printing
its answer, processor time and counters: the measurement behind the choice of where
chains start (docs/LOGIK_EXPECTED.md).

    python scripts/time_rival.py p5c8 --guesses consistent --first 11234 --part 7051 \\
        --rival 56347 --budget 33367 --mode task
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import Game, search_tasks  # noqa: E402
from optimal_mm.errors import OptimalMMError  # noqa: E402
from optimal_mm.search import NO_CAP, Solver  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--guesses", default="any", choices=("any", "consistent"))
    parser.add_argument("--first", required=True, help="the first guess")
    parser.add_argument("--part", type=at_least(2), required=True,
                        help="size of the part after the first guess")
    parser.add_argument("--rival", required=True, help="the second guess timed")
    parser.add_argument("--budget", type=at_least(1), required=True)
    parser.add_argument("--mode", choices=("task", "chain"), default="task")
    parser.add_argument("--table-entries", type=at_least(0), default=32_000_000)
    args = parser.parse_args(argv)
    try:
        game = Game.from_spec(args.game)
        first, rival = game.code_index(args.first), game.code_index(args.rival)
        solver = Solver(game, args.guesses, jobs=1, table_entries=args.table_entries)
    except OptimalMMError as exc:
        print(f"time_rival: {exc}", file=sys.stderr)
        return 2
    with solver._session("expected", None):
        ctx = solver._ctx
        parts = [p for _, p in solver._parts(first, ctx.all_guesses) if len(p) == args.part]
        if not parts:
            print(f"time_rival: no part of {args.part} secrets after {args.first}",
                  file=sys.stderr)
            return 2
        part = parts[0]
        lb = ctx.bounds(0)[NO_CAP]
        subs = [sub for _, sub in ctx.split(rival, part)]
        lbs = [int(lb[len(q)]) for q in subs]
        print(f"parts {sorted((len(q) for q in subs), reverse=True)}, "
              f"bound {len(part) + sum(lbs)}", flush=True)
        start = time.process_time()
        if args.mode == "task":
            value, _, counters = search_tasks._exp_guess_task(
                game, solver.consistent, args.table_entries, True, (first,), rival, subs,
                lbs, len(part), args.budget, NO_CAP, 0)
            states = int(counters[0])
        else:
            value = solver._guess_by_parts((first,), rival, subs, lbs, len(part),
                                           args.budget, NO_CAP, 0)
            states = solver.stats.states
        print(f"{args.mode}: {'not below the budget' if value is None else value}, "
              f"{time.process_time() - start:.1f} s of processor time, {states:,} states")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("time_rival.py", main))
