"""Search rival second guesses again as chains, their small parts first: a check of a race.

A capped race may refute a rival chain with its small parts counted at their total
without the cap (``RivalRaces._small_floor``), never solving them. This script
searches the rivals ``--rivals`` of the part of ``--part`` secrets after ``--first``
again as chains of tasks (``Solver._guess_by_parts``) against ``--budget`` the way
the search did before that floor: the small parts solved first, under the cap
``--max-guesses``, in a checkpoint of its own (``--checkpoint``, a fresh directory
by default, so that nothing of the race is read back), reading the answers of the
search without the cap (``--below``) as lower bounds as the race did. Each rival's
answer is printed: its total if below the budget, else "not below". docs/RUNS.md
(2026-12-06) has it check p6c7n's ten rivals refuted so:

    python scripts/recheck_rivals.py p6c7n --max-guesses 7 --first 123456 --part 1590 \\
        --budget 7890 --below results/checkpoints/p6c7n-expected \\
        --chain-secrets 250 --table-entries 64000000 --rivals 134562 132564 231564
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import Game  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.errors import InvalidOptionError, OptimalMMError  # noqa: E402
from optimal_mm.search import Solver  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--max-guesses", type=at_least(2), required=True,
                        help="the cap (the game's t* for its total within t*)")
    parser.add_argument("--first", required=True, help="the first guess")
    parser.add_argument("--part", type=at_least(2), required=True,
                        help="size of the part after the first guess")
    parser.add_argument("--budget", type=at_least(1), required=True,
                        help="the total a rival must stay below (the race's best)")
    parser.add_argument("--rivals", nargs="+", required=True, help="the second guesses")
    parser.add_argument("--below", metavar="DIR",
                        help="the checkpoint of the search without the cap, only read")
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="this search's own (default: a fresh temporary one)")
    parser.add_argument("--chain-secrets", type=at_least(2), default=250)
    parser.add_argument("--table-entries", type=at_least(1 << 10), default=32_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        game = Game.from_spec(args.game)
        first = game.code_index(args.first)
        rivals = [game.code_index(r) for r in args.rivals]
    except OptimalMMError as exc:
        print(f"recheck_rivals: {exc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        try:
            return _recheck(game, first, rivals, args, args.checkpoint or scratch)
        except OptimalMMError as exc:
            print(f"recheck_rivals: {exc}", file=sys.stderr)
            return 2


def _recheck(game, first, rivals, args, checkpoint) -> int:
    from optimal_mm.checkpoint import Checkpoint

    solver = Solver(game, jobs=args.jobs, table_entries=args.table_entries,
                    checkpoint=checkpoint, chain_secrets=args.chain_secrets)
    with solver._session("worst-then-expected", None):
        if args.below is not None:
            solver._runner.bound_by(Checkpoint(args.below, solver.run_key("expected", None),
                                               writable=False))
        parts = [p for _, p in solver.first_guess_parts(first) if len(p) == args.part]
        if not parts:
            raise InvalidOptionError(f"no part of {args.part} secrets after {args.first}")
        solver._small_floor = lambda task: None  # the small parts first, as before it
        for name, rival in zip(args.rivals, rivals):
            task = solver._rival_task((first,), rival, parts[0], args.budget,
                                      args.max_guesses - 1, 0)
            start = time.perf_counter()
            value = solver._guess_by_parts(*task)
            answer = f"not below {args.budget}" if value is None else f"total {value}"
            print(f"{args.first} {name} (part of {args.part} secrets): {answer} "
                  f"({time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("recheck_rivals.py", main))
