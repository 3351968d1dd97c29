"""Sub-command ``within``: a tree of at most D guesses, by a bounded search.

``optimal-mm within p4c8nb 9 -o p4c8nb-9.json.gz`` looks for a strategy that finds
every secret within 9 guesses (:mod:`optimal_mm.within`: a beam over the big nodes,
the exact worst-case search below ``--exact`` secrets), validates it by replaying
every secret and writes it atomically. Exit status 0 with a tree, 1 when none was
found (which proves nothing), 2 on bad input, 124 when ``--time-limit`` passed first.
"""

from __future__ import annotations

import shlex
import sys
import time

from ..errors import check_time_limit
from ..game import Game
from ..outputs import check_output_path, is_stdout
from .analysis_cmds import write_tree
from ..search import WC_TREE_RULES
from ..within import BREADTH, EXACT_SECRETS, WithinStats, check_within_options, find_within
from ..wording import plural
from . import add_time_limit, interrupted_status, interruption, time_limited


def register(sub) -> None:
    """Add ``within`` to the parser."""
    p = sub.add_parser(
        "within", help="find a tree of at most D guesses by a bounded search",
        description="Look for a strategy that finds every secret within D guesses: at "
                    "each node of more than --exact secrets, the --breadth most promising "
                    "guesses (least largest part, then least sum of squared parts) are "
                    "tried in turn; smaller nodes are decided by the exact worst-case "
                    "search. A tree found proves that D guesses suffice (with a proof that "
                    "D - 1 do not, from `solve`, it settles the worst case); none found "
                    "proves nothing (exit status 1).")
    p.add_argument("game", metavar="GAME", help="preset (mastermind, bulls-and-cows) or spec "
                                                "(p4c6, p4c10n, p3c5b)")
    p.add_argument("depth", type=int, metavar="D", help="the most guesses allowed")
    p.add_argument("--breadth", type=int, default=BREADTH, metavar="K",
                   help=f"guesses tried at a node above --exact secrets (default {BREADTH})")
    p.add_argument("--exact", type=int, default=EXACT_SECRETS, metavar="N",
                   help=f"nodes of at most N secrets are decided by the exact search "
                        f"(default {EXACT_SECRETS})")
    p.add_argument("--guesses", choices=("any", "consistent"), default="any",
                   help="any code, or only codes that may still be the secret")
    p.add_argument("--wc-tree", choices=WC_TREE_RULES, default="small-total",
                   help="how a node decided exactly picks its guesses: small-total "
                        "(default) or first (the search's own guess: faster, a larger "
                        "total; as for solve)")
    p.add_argument("--quiet", action="store_true",
                   help="do not report the guesses tried at the top two levels")
    add_time_limit(p, "how far the search had gone (no tree: this proves nothing)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the tree here (.json or .json.gz), atomically; '-' writes "
                        "the JSON to standard output (the report then goes to stderr)")
    p.set_defaults(func=run_within)


def run_within(args) -> int:
    game = Game.from_spec(args.game)
    check_within_options(args.depth, args.breadth, args.exact)
    check_time_limit(args.time_limit)
    if args.output:
        check_output_path(args.output)  # before the work, not after it
    report = sys.stderr if args.output and is_stdout(args.output) else sys.stdout
    stats = WithinStats()
    start = time.perf_counter()
    lines = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    rule = " (consistent guesses)" if args.guesses == "consistent" else ""
    try:
        with time_limited(args.time_limit):
            tree = find_within(game, args.depth, breadth=args.breadth, exact=args.exact,
                               guesses=args.guesses, report=lines, stats=stats,
                               wc_tree=args.wc_tree)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, --time-limit
        print(f"optimal-mm within: {interruption(exc)}; no tree within "
              f"{plural(args.depth, 'guess')} found so far (this proves nothing); {stats}; "
              f"{time.perf_counter() - start:.2f} s", file=sys.stderr)
        return interrupted_status(exc)
    seconds = time.perf_counter() - start
    proof = stats.proof(game, args.exact)
    if tree is None and proof is not None:
        print(f"{game.name}{rule}: no tree within {plural(args.depth, 'guess')} exists "
              f"({proof}); {seconds:.2f} s", file=report)
        return 1
    if tree is None:
        print(f"{game.name}{rule}: no tree within {plural(args.depth, 'guess')} found (breadth "
              f"{args.breadth}, exact below {args.exact + 1} secrets; this proves nothing); "
              f"{stats}; {seconds:.2f} s", file=report)
        return 1
    tree.meta["command"] = "optimal-mm " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    print(f"{game.name}{rule}: a tree within {plural(args.depth, 'guess')}: first guess "
          f"{tree.root.guess}; {tree.declared}", file=report)
    print(f"{stats}; found and validated in {seconds:.2f} s", file=report)
    write_tree(tree, args.output, report)
    return 0
