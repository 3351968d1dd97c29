"""``optimal-mm solve``: exact search, proof and tree.

Long runs (``docs/LONG_RUNS.md``): progress on stderr (a bar on a terminal, log lines
otherwise, nothing with ``--quiet``), ``--checkpoint DIR`` to resume after a kill,
Ctrl-C or ``--time-limit`` (:class:`~optimal_mm.stopping.time_limit`), ``--backend
dask`` to spread the tasks over a dask cluster, and a memory guard
(``--memory-limit``) that refuses, before anything is built, a run that cannot fit
and shrinks the transposition tables of one that almost does.
"""

from __future__ import annotations

import sys

from ..errors import InvalidOptionError, check_time_limit
from ..game import Game
from ..memory import parse_size  # noqa: F401 (also imported from here)
from ..outputs import check_output_path, is_stdout
from ..progress import make_progress
from ..search import (BACKENDS, OBJECTIVES, LowerBound, Solver, UpperBound, check_ceiling,
                      check_floor, check_max_guesses, physical_memory)
from ..tree import load_verified
from . import add_time_limit, interrupted_status, interruption, time_limited
from .search_options import add_tuning_options, check_tuning, given_tuning


def default_memory_limit() -> int | None:
    """80% of this machine's physical memory (``None`` where it cannot be told)."""
    total = physical_memory()
    return None if total is None else int(total * 0.8)


def register(sub) -> None:
    p = sub.add_parser(
        "solve",
        help="prove an optimal strategy exactly and write its tree",
        description="Exact search with colour/position symmetry reduction. worst-case: the "
                    "fewest guesses that always suffice, with a proof that one fewer is "
                    "impossible. expected: the least total number of guesses over all "
                    "secrets, by branch and bound. worst-then-expected: the least total "
                    "among trees with the optimal worst case. fewest-at-worst: among those "
                    "trees, the fewest secrets that need all t* guesses (ties: the least "
                    "total).",
    )
    p.add_argument("game", help="preset (mastermind, bulls-and-cows) or spec (p4c6, p4c10n, "
                                "p3c5b)")
    p.add_argument("--objective", choices=OBJECTIVES + ("static",), default="worst-case",
                   help="static: the fewest questions asked all at once that tell every "
                        "secret apart (written with the lookup from answers to secrets)")
    p.add_argument("--guesses", choices=("any", "consistent"), default="any",
                   help="consistent: every guess could still be the secret (hard mode)")
    p.add_argument("--max-guesses", type=int, metavar="T",
                   help="cap: worst-case answers whether T guesses suffice (exit 1 if not); "
                        "expected finds the least total within T guesses; fewest-at-worst "
                        "skips the worst-case search and finds the fewest secrets that "
                        "need all T guesses (T = t* known from elsewhere: the search "
                        "proves it again)")
    p.add_argument("--jobs", type=int, default=-1,
                   help="worker processes (default: all cores, or in-process for games of "
                        "at most 2000 codes, where a pool costs more than it saves; "
                        "1 runs in-process, or in one worker with --checkpoint)")
    p.add_argument("--no-symmetry", action="store_true",
                   help="switch off symmetry reduction (for comparison)")
    p.add_argument("--stats", action="store_true",
                   help="print states visited, table hits, guesses evaluated and "
                        "(worst case, any guesses) guesses cut by refuting parts")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="where to write the tree (.json or .json.gz, written atomically; "
                        "checked before the search); default <game>-<objective>.json.gz in "
                        "the current folder; '-' writes the JSON to standard output (the "
                        "report then goes to stderr)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--progress-interval", type=float, default=30.0, metavar="SECONDS",
                   help="when stderr is not a terminal: least seconds between two progress "
                        "lines of a phase (default 30)")
    long = p.add_argument_group("long runs")
    long.add_argument("--checkpoint", metavar="DIR",
                      help="store each finished task in DIR; rerunning the same command "
                           "after a kill or Ctrl-C resumes from there (any --jobs, --backend); "
                           "tasks then run in worker processes, even with --jobs 1, so that "
                           "Ctrl-C is answered at once")
    add_time_limit(long, "what the search had proven; with --checkpoint every finished "
                         "task is kept, and the same command goes on from there")
    long.add_argument("--best-so-far", metavar="FILE",
                      help="expected-case objectives: if the search stops early (time "
                           "limit, Ctrl-C), write the best complete tree it had built to "
                           "FILE (replayed for every secret; not proven optimal, an upper "
                           "bound: 'optimal' false); checked before the search")
    long.add_argument("--lower-bound", type=int, metavar="N",
                      help="expected, worst-then-expected: a lower bound on the optimal "
                           "total proven elsewhere (for worst-then-expected, the optimal "
                           "total without the cap, which no capped tree beats): the search "
                           "stops as soon as its tree meets it, its rivals unsearched. The "
                           "answer is only as sound as N; a tree below N refutes it (exit 2)")
    long.add_argument("--lower-bound-tree", metavar="FILE",
                      help="expected, worst-then-expected: as --lower-bound, from an "
                           "optimal expected-case tree of the game without a cap (e.g. "
                           "from solve --objective expected): its total bounds the whole, "
                           "and its subtree below each answer to its first guess bounds "
                           "that part, whose search stops there, trying the tree's guess "
                           "first")
    long.add_argument("--lower-bound-checkpoint", metavar="DIR",
                      help="with --lower-bound or --lower-bound-tree, a search under a cap "
                           "(worst-then-expected, expected with --max-guesses) and "
                           "--checkpoint: the checkpoint of the same game's expected case "
                           "without the cap (same --guesses). Its answers bound the capped "
                           "search's rivals from below: a rival it found to cost at least "
                           "the capped budget is not better here, unsearched. Only read")
    long.add_argument("--upper-bound-tree", metavar="FILE",
                      help="expected-case objectives: a complete tree of the game known "
                           "before (an earlier run's --best-so-far, a tree within the cap "
                           "such as the worst case's for fewest-at-worst and "
                           "worst-then-expected): the best so far from the start, shown "
                           "and written by --best-so-far until the search builds a better "
                           "one (it changes no task: the checkpoint is the same). Checked "
                           "first as verify checks a file, then replayed under the "
                           "search's guess rule and cap; one that fails is refused (exit 2)")
    long.add_argument("--backend", choices=BACKENDS, default="loky",
                      help="how tasks run in parallel: loky (local processes, default), "
                           "threading (no speed-up: for debugging), dask (a dask cluster: "
                           "--scheduler, or a local one of --jobs workers)")
    long.add_argument("--scheduler", metavar="ADDRESS",
                      help="dask scheduler address, e.g. tcp://HOST:8786 (--backend dask)")
    long.add_argument("--memory-limit", metavar="SIZE",
                      help="memory this machine may use, e.g. 4G or 500M (default 80%% of "
                           "physical memory): refuse a run that cannot fit, shrink the "
                           "transposition tables of one that almost does")
    add_tuning_options(p.add_argument_group(
        "search tuning", "how the work is cut into tasks, kept and sized; what the search "
                         "proves is the same whatever they are. The worst case's tree "
                         "may be another optimal one under other --split-secrets or "
                         "--wc-tree, which its meta records where not the default"))
    p.set_defaults(func=run_solve)


def _write_best_so_far(solver, path) -> None:
    """Write the stopped search's best complete tree to ``path`` (--best-so-far), or
    say that it had none."""
    best = solver.best_so_far()
    if best is None:
        print(f"optimal-mm solve: no complete tree yet; nothing written to {path}",
              file=sys.stderr)
        return
    best.save(path, stats=best.declared)
    print(f"optimal-mm solve: wrote the best tree so far, not proven optimal, to {path}: "
          f"first guess {best.root.guess}; {best.declared}", file=sys.stderr)


def _floor(args, game: Game) -> "LowerBound | None":
    """The lower bound that --lower-bound or --lower-bound-tree gives (with
    --lower-bound-checkpoint's directory), or None."""
    if args.lower_bound is not None and args.lower_bound_tree is not None:
        raise InvalidOptionError("give --lower-bound or --lower-bound-tree, not both")
    below = args.lower_bound_checkpoint
    if below is not None:
        if args.lower_bound is None and args.lower_bound_tree is None:
            raise InvalidOptionError("--lower-bound-checkpoint needs --lower-bound or "
                                     "--lower-bound-tree")
        if args.checkpoint is None:
            raise InvalidOptionError("--lower-bound-checkpoint needs --checkpoint (the "
                                     "search looks its own tasks up first)")
    if args.lower_bound is not None:
        return check_floor(args.objective,
                           LowerBound(args.lower_bound, "given on the command line",
                                      checkpoint=below))
    if args.lower_bound_tree is None:
        return None
    check_floor(args.objective, 0)  # the objective takes one, before the file is read
    tree = load_verified(args.lower_bound_tree)[0]  # its stats checked, as verify does
    return LowerBound.from_tree(tree, f"the optimal tree {args.lower_bound_tree}", game,
                                args.guesses, checkpoint=below)


def _ceiling(args) -> "UpperBound | None":
    """The tree that --upper-bound-tree gives, or None (checked against the
    search's rules and cap as the search starts: :meth:`UpperBound.fitted`)."""
    if args.upper_bound_tree is None:
        return None
    check_ceiling(args.objective, UpperBound(None))  # the objective takes one, before
    # the file is read
    return UpperBound(load_verified(args.upper_bound_tree)[0], args.upper_bound_tree)


def _default_output(game: Game, args) -> str:
    parts = [game.name, args.objective]
    if args.guesses == "consistent":
        parts.append("consistent")
    if args.max_guesses is not None:
        parts.append(f"max{args.max_guesses}")
    return "-".join(parts) + ".json.gz"


def run_solve(args) -> int:
    game = Game.from_spec(args.game)
    check_time_limit(args.time_limit)
    if args.output == "":
        raise InvalidOptionError("-o needs a file name ('-' for standard output)")
    if args.objective == "static":
        for option, unused in (("--max-guesses", args.max_guesses is None),
                               ("--guesses consistent", args.guesses == "any"),
                               ("--best-so-far", args.best_so_far is None),
                               ("--lower-bound", args.lower_bound is None),
                               ("--lower-bound-tree", args.lower_bound_tree is None),
                               ("--lower-bound-checkpoint",
                                args.lower_bound_checkpoint is None),
                               ("--upper-bound-tree", args.upper_bound_tree is None),
                               ("--checkpoint", args.checkpoint is None)):
            if not unused:
                raise InvalidOptionError(f"{option} does not apply to --objective static")
        return _run_static(args, game)
    check_max_guesses(args.max_guesses)
    if not args.progress_interval >= 0:  # nan too
        raise InvalidOptionError(f"--progress-interval must be 0 or more seconds, got "
                                 f"{args.progress_interval}")
    check_tuning(args)
    floor = _floor(args, game)
    ceiling = _ceiling(args)
    if args.scheduler and args.backend != "dask":
        raise InvalidOptionError("--scheduler needs --backend dask")
    limit = (parse_size(args.memory_limit) if args.memory_limit is not None
             else default_memory_limit())

    out = args.output or _default_output(game, args)
    check_output_path(out)  # before the search, not after it
    if args.best_so_far is not None:
        if args.objective == "worst-case":
            raise InvalidOptionError("--best-so-far needs an expected-case objective: a "
                                     "worst-case search's first tree is its answer")
        check_output_path(args.best_so_far)
    report = sys.stderr if is_stdout(out) else sys.stdout
    progress = make_progress(args.quiet, sys.stderr, args.progress_interval)
    solver = Solver(game, args.guesses, symmetry=not args.no_symmetry, jobs=args.jobs,
                    backend=args.backend, progress=progress, checkpoint=args.checkpoint,
                    scheduler=args.scheduler, memory_limit=limit, **given_tuning(args))
    try:
        with time_limited(args.time_limit):
            sol = solver.solve(args.objective, args.max_guesses, floor, ceiling)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM (cli.Terminated), --time-limit
        progress.close()
        what = interruption(exc)
        so_far = progress.so_far()  # what the search had proven: its bound, best tree
        if so_far:
            what += f" (so far: {so_far})"
        if args.best_so_far is not None:
            _write_best_so_far(solver, args.best_so_far)
        cp = solver.checkpoint
        if cp is not None:
            n = cp.loaded + cp.stored
            print(f"optimal-mm solve: {what}; {n} task{'' if n == 1 else 's'} saved in "
                  f"{args.checkpoint}: rerun the same command to resume", file=sys.stderr)
        else:
            print(f"optimal-mm solve: {what}; nothing saved (--checkpoint DIR makes a "
                  f"long search resumable)", file=sys.stderr)
        return interrupted_status(exc)
    finally:
        progress.close()
    rules = f"guesses {sol.guesses}"
    if args.max_guesses is not None:
        rules += f", at most {args.max_guesses} guesses"
    print(f"game {game.name} ({game.spec}, {game.n_codes} codes), objective {args.objective}, "
          f"{rules}", file=report)
    for line in sol.proof:
        print(f"proof: {line}", file=report)
    if sol.strategy is None:
        what = (f"impossible within {args.max_guesses} guesses" if args.max_guesses is not None
                else "no strategy found")
        print(what, file=report)
        if args.stats:
            print(f"search: {sol.stats}", file=report)
        print(f"time {sol.seconds:.2f} s", file=report)
        _print_checkpoint(solver, args, report)
        return 1
    stats = sol.strategy.declared
    if args.objective == "worst-case" and sol.strategy.optimal:
        print(f"worst case: {sol.value} guesses, optimal (proven)", file=report)
    elif args.objective == "worst-case":  # a cap answers whether it suffices, not t*
        print(f"worst case: {args.max_guesses} guesses suffice (this tree needs at most "
              f"{stats.max}; the least that suffices is proven without --max-guesses)",
              file=report)
    elif args.objective == "fewest-at-worst":
        # Under a cap, the cap as the search used it, which the tree
        # may not reach: then the cap is above t*
        capped = args.max_guesses is not None
        depth = sol.max_guesses if capped else stats.max
        where = f"{depth} guesses" if capped else "the worst case"
        verdict = ""
        if capped:
            verdict = (f"; {depth} is the optimal worst case" if sol.value else
                       f"; {depth} is above the optimal worst case (this tree needs "
                       f"{stats.max})")
        print(f"fewest at {where}: {sol.value} secrets need all {depth} guesses, proven; "
              f"among such trees the least total {stats.total} (average "
              f"{stats.average:.4f}), proven{verdict}", file=report)
    else:
        given = "" if floor is None else f" (given the lower bound {floor.value})"
        print(f"optimal total: {sol.value} (average {sol.value / stats.secrets:.4f}), "
              f"proven{given}", file=report)
    first = sol.strategy.root.guess
    print(f"tree: first guess {first}; {stats}", file=report)
    if args.stats:
        print(f"search: {sol.stats}", file=report)
    print(f"time {sol.seconds:.2f} s", file=report)
    _print_checkpoint(solver, args, report)
    command = f"optimal-mm solve {args.game} --objective {args.objective}"
    if args.guesses != "any":
        command += f" --guesses {args.guesses}"
    if args.max_guesses is not None:
        command += f" --max-guesses {args.max_guesses}"
    if args.lower_bound is not None:
        command += f" --lower-bound {args.lower_bound}"
    if args.lower_bound_tree is not None:
        command += f" --lower-bound-tree {args.lower_bound_tree}"
    sol.strategy.meta["command"] = command
    sol.strategy.save(out, stats=stats)  # validated by the solver as it built the tree
    print("wrote the tree to standard output" if is_stdout(out) else f"wrote {out}",
          file=report)
    return 0


def _run_static(args, game: Game) -> int:
    from ..static import solve_static

    out = args.output or f"{game.name}-static.json"
    check_output_path(out)  # before the search, not after it
    report = sys.stderr if is_stdout(out) else sys.stdout
    try:
        with time_limited(args.time_limit):
            solution = solve_static(game, symmetric=not args.no_symmetry)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, --time-limit
        print(f"optimal-mm solve: {interruption(exc)}; nothing written", file=sys.stderr)
        return interrupted_status(exc)
    print(f"game {game.name} ({game.spec}, {game.n_codes} codes), objective static",
          file=report)
    for line in solution.proof:
        print(f"proof: {line}", file=report)
    print(f"static: {solution.size} questions, optimal (proven); "
          f"{solution.validate()} secrets told apart", file=report)
    print(f"questions: {' '.join(game.code_str(q) for q in solution.questions)}", file=report)
    solution.save(out, command=f"optimal-mm solve {args.game} --objective static")
    print("wrote the questions to standard output" if is_stdout(out) else f"wrote {out}",
          file=report)
    return 0


def _print_checkpoint(solver: Solver, args, report) -> None:
    cp = solver.checkpoint
    if cp is None:
        return
    line = (f"checkpoint {args.checkpoint}: {cp.loaded} tasks loaded, {cp.stored} computed "
            f"and saved")
    if cp.rejected:
        line += f", {cp.rejected} damaged or foreign entries recomputed"
    if cp.unsaved:
        line += f", {cp.unsaved} could not be saved ({cp.unsaved_reason})"
    print(line, file=report)
