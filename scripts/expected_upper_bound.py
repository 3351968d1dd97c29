#!/usr/bin/env python3
"""Write the expected search's first-batch strategy: an upper bound, not a proof.

The exact expected-case search (``optimal-mm solve GAME --objective expected``)
first solves its most promising first guess's batch: every small part exactly and
every big part below its most promising second guess exactly
(:meth:`optimal_mm.search.Solver.expected_upper_bound`). That is already a complete
strategy; the rest of the run (rival second and first guesses) can only lower its
total. When the rivals take days, this script gives the best tree known so far and
its total, verified by replaying every secret, with ``"optimal": false`` in the file.
With ``--checkpoint`` it shares its tasks with the exact run both ways: pointed at
the run's checkpoint it reads the batch back (and computes what is missing, saving
it for the run).

Usage::

    python scripts/expected_upper_bound.py p5c8 --guesses any --jobs 2 \\
        --table-entries 32000000 --checkpoint results/checkpoints/p5c8-expected-any \\
        -o results/trees/p5c8-expected-any-upper-bound.json.gz
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm import Game  # noqa: E402
from optimal_mm.cli import interrupted_status, interruption, on_sigterm  # noqa: E402
from optimal_mm.cli.solve_cmds import default_memory_limit  # noqa: E402
from optimal_mm.errors import OptimalMMError  # noqa: E402
from optimal_mm.outputs import check_output_path  # noqa: E402
from optimal_mm.progress import make_progress  # noqa: E402
from optimal_mm.search import DEFAULT_TABLE_ENTRIES, Solver  # noqa: E402

NAME = Path(__file__).name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--guesses", choices=("any", "consistent"), default="any")
    parser.add_argument("--first", help="first guess (default: the one the search tries "
                                        "first)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--table-entries", type=int, default=DEFAULT_TABLE_ENTRIES)
    parser.add_argument("--checkpoint", metavar="DIR")
    parser.add_argument("--memory-limit", metavar="SIZE",
                        help="memory this machine may use, e.g. 4G (default 80%% of "
                             "physical memory, as optimal-mm solve): a run that cannot fit "
                             "(too many --jobs) is refused up front")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("-o", "--output", required=True, help="tree file (.json or .json.gz)")
    args = parser.parse_args(argv)
    previous = signal.signal(signal.SIGTERM, on_sigterm)  # SIGTERM ends it like Ctrl-C
    try:
        game = Game.from_spec(args.game)
        check_output_path(args.output)  # before hours of search, not after
        progress = make_progress(args.quiet, interval=60)
        # solve's memory guard: too many --jobs for this machine refused up front
        solver = Solver(game, args.guesses, jobs=args.jobs, table_entries=args.table_entries,
                        checkpoint=args.checkpoint, progress=progress,
                        memory_limit=(default_memory_limit() if args.memory_limit is None
                                      else args.memory_limit))
        sol = solver.expected_upper_bound(args.first)
        stats = sol.strategy.save(args.output)
    except OptimalMMError as exc:
        print(f"{NAME}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(f"{NAME}: {interruption(exc)}; nothing written"
              + (f" (finished tasks are in {args.checkpoint})" if args.checkpoint else ""),
              file=sys.stderr)
        return interrupted_status(exc)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"game {game.spec}, guesses {args.guesses}: {sol.proof[0]}")
    print(f"total {sol.value} (average {sol.value / game.n_codes:.4f}), max {stats.max} "
          f"guesses, depth counts {'/'.join(map(str, stats.depth_counts))}; "
          f"{sol.resumed} tasks read back, {sol.seconds:.1f} s")
    print(f"wrote {args.output} (verified: every secret replayed; not proven optimal)")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("expected_upper_bound.py", main))
