#!/usr/bin/env python3
"""Time an expected-case search with chains up to its first N rival guesses.

A long run of the optimal table spends its hours in chains of rival guesses below
the first guess, each rival a small task (``search_tasks._exp_guess_task``), many
of them at histories met once. This script runs the search of one game as those
runs do (one process, ``--chain-secrets`` and ``--split-secrets`` as given, the
first guess's worst-case tree first) with no checkpoint, and stops it when it
begins its rival number ``--rivals + 1``: the work up to there is fixed (the search
is deterministic), so two checkouts compare on it by their processor time, and the
states searched say they did the same work. It prints both:

    python scripts/time_chain_rivals.py p4c10nb --guesses consistent --rivals 60000

Measured so on the 2-core AMD EPYC VM beside two table runs (2026-12-07,
``OPTIMAL_MM_KERNELS=aot``): 102.6 s of processor time before the faster
symmetry at the parts' roots (docs/SEARCH.md, "Symmetry"), 62.3 and 63.2 s in two
runs after, each 1,473,319 states.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import Game, search_context, search_tasks  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.search import Solver  # noqa: E402


class _Enough(Exception):
    """Raised when the search begins the rival after the last one asked for."""


def run(spec: str, guesses: str, rivals: int, chain_secrets: int, split_secrets: int,
        table_entries: int) -> dict:
    """Search ``spec``'s expected case until it begins rival ``rivals + 1`` (or ends):
    ``{"rivals", "states", "guesses", "seconds", "ended"}`` (processor seconds)."""
    game = Game.from_spec(spec)
    count = {"rivals": 0}
    real = search_tasks._rival

    def rival(*args):
        count["rivals"] += 1
        if count["rivals"] > rivals:
            raise _Enough
        return real(*args)

    search_context._CONTEXTS.clear()  # a fresh transposition table
    search_tasks._rival = rival
    start = time.process_time()
    ended = True
    try:
        Solver(game, jobs=1, guesses=guesses, chain_secrets=chain_secrets,
               split_secrets=split_secrets, wc_tree="first",
               table_entries=table_entries).solve("expected")
    except _Enough:
        ended = False
    finally:
        search_tasks._rival = real
    seconds = time.process_time() - start
    ctx = next(iter(search_context._CONTEXTS.values()))
    return {"rivals": min(count["rivals"], rivals), "states": int(ctx.counters[0]),
            "guesses": int(ctx.counters[2]), "seconds": seconds, "ended": ended}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game spec, e.g. p4c10nb")
    parser.add_argument("--guesses", choices=("any", "consistent"), default="any")
    parser.add_argument("--rivals", type=at_least(1), default=60_000,
                        help="stop when the search begins the rival after this many")
    parser.add_argument("--chain-secrets", type=at_least(1), default=250)
    parser.add_argument("--split-secrets", type=at_least(1), default=500)
    parser.add_argument("--table-entries", type=at_least(1 << 10), default=16_000_000)
    args = parser.parse_args(argv)
    out = run(args.game, args.guesses, args.rivals, args.chain_secrets,
              args.split_secrets, args.table_entries)
    how = "the search ended" if out["ended"] else "stopped"
    print(f"{args.game} ({args.guesses} guesses): {out['rivals']:,} rivals, {how}; "
          f"{out['seconds']:.1f} s of processor time, {out['states']:,} states, "
          f"{out['guesses']:,} guesses evaluated")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("time_chain_rivals.py", main))
