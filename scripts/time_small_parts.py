"""Time a chain's small parts: as one task, and probed then solved one task each.

A rival guess with big parts is searched as a chain (``Solver._guess_by_parts``):
its big parts by their own guesses, its small parts before them. Until 2026-12-06
the small parts were one task (``_exp_guess_task``: probes, then each part in turn
under the budget the others leave it); now they are probed in one task and then
solved exactly, a task each with no budget (``Solver._small_parts``), so that a run
stopped among them keeps the parts done. This script takes the first guess
``--first`` and its parts under ``--below`` secrets, finds their exact total, and
times both ways under bounds that far from it (``--over``: a bound of the total
plus each, a negative one refutes), each in this process with a fresh
transposition table, printing the answers (which must agree) and the processor
seconds: the measurement behind docs/LONG_RUNS.md's "A chain's small parts".

    python scripts/time_small_parts.py p4c10n --first 0123 --below 1500
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import Game, search_tasks  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.errors import OptimalMMError  # noqa: E402
from optimal_mm.search import NO_CAP, Solver  # noqa: E402


def _small_parts(game, first, below, entries):
    """A fresh solver (its own table of ``entries``) in an expected-case session, and
    the arguments of the small parts' task of ``first`` (bound left to fill in)."""
    solver = Solver(game, jobs=1, table_entries=entries)
    session = solver._session("expected", None)
    session.__enter__()
    secrets, _ = solver._root()
    lb = solver._ctx.bounds(0)[NO_CAP]
    parts = [p for _, p in solver._parts(first, secrets)]
    small = [p for p in parts if len(p) < below]
    known = len(secrets) + sum(int(lb[len(p)]) for p in parts if len(p) >= below)
    return solver, session, small, [int(lb[len(p)]) for p in small], known


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--first", required=True, help="the first guess")
    parser.add_argument("--below", type=at_least(2), required=True,
                        help="the small parts: those of fewer secrets")
    parser.add_argument("--over", type=int, nargs="+", default=[60, 1, -3],
                        help="each bound's distance above the small parts' total")
    parser.add_argument("--table-entries", type=at_least(1 << 10), default=1 << 22)
    args = parser.parse_args(argv)
    try:
        game = Game.from_spec(args.game)
        first = game.code_index(args.first)
    except OptimalMMError as exc:
        print(f"time_small_parts: {exc}", file=sys.stderr)
        return 2
    entries = [args.table_entries]

    def fresh():  # each search with a table of its own (a new size is a new one)
        entries[0] += 7
        return _small_parts(game, first, args.below, entries[0])

    solver, session, small, lbs, known = fresh()
    if not small:
        session.__exit__(None, None, None)
        print(f"time_small_parts: {args.first} has no parts under {args.below} secrets",
              file=sys.stderr)
        return 2
    total, _, _ = search_tasks._exp_guess_task(game, False, solver.entries, True, (), first,
                                               small, lbs, known, 10**12, NO_CAP, 0)
    session.__exit__(None, None, None)
    print(f"{args.game} {args.first}: {len(small)} small parts "
          f"{sorted((len(p) for p in small), reverse=True)}, total {total} "
          f"(the big parts at their bounds)")
    for over in args.over:
        bound, seconds, answers = total + over, [], []
        for way in ("one task", "pieces"):
            solver, session, small, lbs, known = fresh()
            start = time.process_time()
            if way == "one task":
                answer = search_tasks._exp_guess_task(game, False, solver.entries, True, (),
                                                      first, small, lbs, known, bound,
                                                      NO_CAP, 0)[0]
            else:
                answer = solver._small_parts((), first, small, lbs, known, bound, NO_CAP,
                                             0, "small parts")[0]
            seconds.append(time.process_time() - start)
            answers.append(answer)
            session.__exit__(None, None, None)
        if answers[0] != answers[1]:  # a broken invariant, never user input
            raise AssertionError(f"under {bound}: one task {answers[0]}, pieces {answers[1]}")
        print(f"bound {bound} ({over:+d}): {answers[0] or 'refuted'}; one task "
              f"{seconds[0]:.2f} s, pieces {seconds[1]:.2f} s of processor time")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("time_small_parts.py", main))
