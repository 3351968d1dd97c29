"""Sub-commands ``strategy`` (heuristic trees) and ``analyze`` (what a guess tells).

``optimal-mm strategy mastermind --heuristic knuth -o knuth.json.gz`` builds the
tree that Knuth's rule plays, prints its stats and writes it atomically.

``optimal-mm analyze bulls-and-cows 4561 --after 0123=0B1W --best 5`` prints how
guess 4561 splits the secrets left after 0123 scored 0 bulls 1 cow, and the five
most informative guesses there; ``--all`` groups every possible next guess by the
information it gives (bits, and how many guesses give it).
"""

from __future__ import annotations

import shlex
import sys
import time

from ..analysis import best_guesses, information_groups, partition_table
from ..game import Game
from ..heuristics import (HEURISTICS, build_strategy, check_heuristic, check_move_time,
                          make_chooser)
from ..history import check_history, parse_history, turn_text
from ..outputs import check_output_path, is_stdout
from ..wording import remain, remains


def register(sub) -> None:
    """Add this module's sub-commands to the parser."""
    p = sub.add_parser("strategy", help="build the strategy tree a heuristic plays",
                       description="Build the complete strategy tree of a one-move-lookahead "
                                   "heuristic, print its stats, optionally save it.")
    p.add_argument("game", metavar="GAME", help="preset (mastermind, bulls-and-cows) or spec "
                                                "(p4c6, p4c10n, p3c5b)")
    p.add_argument("--heuristic", required=True, metavar="H",
                   help=f"one of: {', '.join(HEURISTICS)}")
    p.add_argument("--first", metavar="CODE", help="force the first guess")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of random-consistent and of big games' samples (default 0)")
    p.add_argument("--move-time", type=float, default=60.0, metavar="S",
                   help="seconds one move may take in a big game (default 60)")
    p.add_argument("--consistent", action="store_true",
                   help="score only codes that may still be the secret (a scoring "
                        "heuristic restricted to consistent guesses)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the tree here (.json or .json.gz), atomically; '-' writes "
                        "the JSON to standard output (the report then goes to stderr)")
    p.set_defaults(func=run_strategy)

    p = sub.add_parser("analyze", help="how a guess splits the remaining secrets",
                       description="Print the partition of the remaining secrets by a guess: "
                                   "count, probability, bits left and bits gained per answer, "
                                   "and the entropy of the answer.")
    p.add_argument("game", metavar="GAME", help="preset or spec, e.g. bulls-and-cows")
    p.add_argument("guess", metavar="GUESS", nargs="?",
                   help="the guess to analyse (may be left out with --best or --all)")
    p.add_argument("--after", action="append", default=[], metavar="GUESS=ANSWER",
                   help="an earlier guess and its answer, e.g. 0123=0B1W, 0123=01 or "
                        "'0123=0 1' ('?' for an unknown answer); repeat for several")
    p.add_argument("--best", type=int, metavar="N",
                   help="also list the N most informative next guesses")
    p.add_argument("--all", action="store_true",
                   help="group every possible next guess by the information of its answer: "
                        "bits, how many guesses give it, how many of them may be the secret")
    p.set_defaults(func=run_analyze)


def run_strategy(args) -> int:
    game = Game.from_spec(args.game)
    check_heuristic(args.heuristic)
    if args.consistent:
        make_chooser(game, args.heuristic, consistent=True)  # refuses logik, at once
    game.check_enumerable("build a whole strategy tree for")
    if args.first is not None:
        game.code_index(args.first)
    check_move_time(args.move_time)
    if args.output:
        check_output_path(args.output)  # before the work, not after it
    report = sys.stderr if args.output and is_stdout(args.output) else sys.stdout
    start = time.perf_counter()
    tree = build_strategy(game, args.heuristic, first=args.first, seed=args.seed,
                          move_time=args.move_time, consistent=args.consistent)
    stats = tree.validate()
    seconds = time.perf_counter() - start
    tree.meta["command"] = "optimal-mm " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    rule = " (consistent guesses)" if tree.guesses == "consistent" else ""
    print(f"{game.name} {args.heuristic}{rule}: first guess {tree.root.guess}; {stats}",
          file=report)
    print(f"built and validated in {seconds:.2f} s", file=report)
    write_tree(tree, args.output, report)
    return 0


def write_tree(tree, output, report) -> None:
    """Save ``tree`` to ``output`` (atomically; ``-``: standard output) if one was
    asked for, and say where on ``report``."""
    if output:
        tree.save(output)
        print("wrote the tree to standard output" if is_stdout(output)
              else f"wrote {output}", file=report)


def run_analyze(args) -> int:
    game = Game.from_spec(args.game)
    game.check_enumerable("analyse")
    if args.guess is None and args.best is None and not args.all:
        raise ValueError("give a GUESS to analyse, --best N or --all")
    if args.best is not None and args.best < 1:
        raise ValueError(f"--best must be at least 1, got {args.best}")
    history = parse_history(game, args.after)
    guess = None if args.guess is None else game.code_index(args.guess)
    secrets = check_history(game, history)
    if history:
        print(f"{len(secrets)} of {game.n_codes} secrets {remains(len(secrets))} after "
              + ", ".join(turn_text(game, t) for t in history))
    if guess is not None:
        print(partition_table(game, guess, secrets))
    if args.best:
        if guess is not None:
            print()
        print(f"most informative guesses ({remain(len(secrets), 'secret')}):")
        print(f"{'guess':>{max(5, game.pegs)}} {'entropy':>8} {'parts':>5} {'largest':>7} "
              f"may win")
        for info in best_guesses(game, secrets, args.best):
            print(f"{info.guess:>{max(5, game.pegs)}} {info.entropy:>8.3f} {info.parts:>5} "
                  f"{info.largest:>7} {'yes' if info.consistent else 'no'}")
    if args.all:
        if guess is not None or args.best:
            print()
        print_information_groups(game, information_groups(game, secrets), len(secrets))
    return 0


def print_information_groups(game: Game, groups, remaining: int) -> None:
    """The table of ``--all``: one line per information value, then the total."""
    width = max(5, game.pegs)
    print(f"information of every next guess ({remain(remaining, 'secret')}):")
    print(f"{'bits':>7} {'guesses':>8} {'may win':>8} {'e.g.':>{width}}")
    for group in groups:
        print(f"{group.bits:>7.3f} {group.guesses:>8} {group.may_win:>8} "
              f"{group.example:>{width}}")
    print(f"{'total':>7} {sum(g.guesses for g in groups):>8} "
          f"{sum(g.may_win for g in groups):>8}")
