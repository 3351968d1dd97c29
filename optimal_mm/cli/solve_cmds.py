"""``optimal-mm solve``: exact search, proof and tree."""

from __future__ import annotations

import sys

from ..game import Game
from ..search import OBJECTIVES, solve


def register(sub) -> None:
    p = sub.add_parser(
        "solve",
        help="prove an optimal strategy exactly and write its tree",
        description="Exact search with colour/position symmetry reduction. worst-case: the "
                    "fewest guesses that always suffice, with a proof that one fewer is "
                    "impossible. expected: the least total number of guesses over all "
                    "secrets, by branch and bound. worst-then-expected: the least total "
                    "among trees with the optimal worst case.",
    )
    p.add_argument("game", help="preset (mastermind, bulls-and-cows) or spec (p4c6, p4c10n, "
                                "p3c5b)")
    p.add_argument("--objective", choices=OBJECTIVES, default="worst-case")
    p.add_argument("--guesses", choices=("any", "consistent"), default="any",
                   help="consistent: every guess could still be the secret (hard mode)")
    p.add_argument("--max-guesses", type=int, metavar="T",
                   help="cap: worst-case answers whether T guesses suffice (exit 1 if not); "
                        "expected finds the least total within T guesses")
    p.add_argument("--jobs", type=int, default=-1,
                   help="worker processes (default: all cores; 1 runs in-process)")
    p.add_argument("--no-symmetry", action="store_true",
                   help="switch off symmetry reduction (for comparison)")
    p.add_argument("--stats", action="store_true",
                   help="print states visited, table hits and guesses evaluated")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="where to write the tree (.json or .json.gz); default "
                        "<game>-<objective>.json.gz in the current folder; '-' for none")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=run_solve)


def _default_output(game: Game, args) -> str:
    parts = [game.name, args.objective]
    if args.guesses == "consistent":
        parts.append("consistent")
    if args.max_guesses is not None:
        parts.append(f"max{args.max_guesses}")
    return "-".join(parts) + ".json.gz"


def run_solve(args) -> int:
    game = Game.from_spec(args.game)
    if args.max_guesses is not None and args.max_guesses < 1:
        raise ValueError(f"--max-guesses must be at least 1, got {args.max_guesses}")
    if args.jobs is not None and args.jobs < -1:
        raise ValueError(f"--jobs must be -1 (all cores) or a positive number, got {args.jobs}")

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"  {message}", file=sys.stderr, flush=True)

    sol = solve(game, args.objective, args.guesses, args.max_guesses,
                jobs=args.jobs, symmetry=not args.no_symmetry, progress=progress)
    rules = f"guesses {sol.guesses}"
    if args.max_guesses is not None:
        rules += f", at most {args.max_guesses} guesses"
    print(f"game {game.name} ({game.spec}, {game.n_codes} codes), objective {args.objective}, "
          f"{rules}")
    for line in sol.proof:
        print(f"proof: {line}")
    if sol.strategy is None:
        what = (f"impossible within {args.max_guesses} guesses" if args.max_guesses is not None
                else "no strategy found")
        print(what)
        if args.stats:
            print(f"search: {sol.stats}")
        print(f"time {sol.seconds:.2f} s")
        return 1
    stats = sol.strategy.declared
    if args.objective == "worst-case":
        status = "optimal (proven)" if sol.strategy.optimal else "within the cap"
        print(f"worst case: {sol.value} guesses, {status}")
    else:
        print(f"optimal total: {sol.value} (average {sol.value / stats.secrets:.4f}), proven")
    first = sol.strategy.root.guess
    print(f"tree: first guess {first}; {stats}")
    if args.stats:
        print(f"search: {sol.stats}")
    print(f"time {sol.seconds:.2f} s")
    out = args.output or _default_output(game, args)
    if out != "-":
        command = f"optimal-mm solve {args.game} --objective {args.objective}"
        if args.guesses != "any":
            command += f" --guesses {args.guesses}"
        if args.max_guesses is not None:
            command += f" --max-guesses {args.max_guesses}"
        sol.strategy.meta["command"] = command
        sol.strategy.save(out)
        print(f"wrote {out}")
    return 0
