"""``optimal-mm solve``: exact search, proof and tree.

Long runs (``docs/LONG_RUNS.md``): progress on stderr (a bar on a terminal, log lines
otherwise, nothing with ``--quiet``), ``--checkpoint DIR`` to resume after a kill or
Ctrl-C, ``--backend dask`` to spread the tasks over a dask cluster, and a memory
guard (``--memory-limit``) that refuses, before anything is built, a run that cannot
fit and shrinks the transposition tables of one that almost does.
"""

from __future__ import annotations

import re
import sys

from ..errors import InvalidOptionError
from ..game import Game
from ..progress import make_progress
from ..search import BACKENDS, DEFAULT_TABLE_ENTRIES, OBJECTIVES, Solver, physical_memory

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE_RE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes from ``4G``, ``500M``, ``1.5GiB``, ``64k`` or plain ``123456`` (binary units).

    >>> parse_size("4G"), parse_size("500M"), parse_size("1.5GiB"), parse_size("1000")
    (4294967296, 524288000, 1610612736, 1000)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --memory-limit must be a size like 4G, 500M or 123456 (bytes), got 'lots'
    """
    m = _SIZE_RE.fullmatch(str(text))
    if not m:
        raise InvalidOptionError(f"--memory-limit must be a size like 4G, 500M or 123456 "
                                 f"(bytes), got {text!r}")
    value = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if value <= 0:
        raise InvalidOptionError(f"--memory-limit must be more than 0 bytes, got {text!r}")
    return value


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
    p.add_argument("--objective", choices=OBJECTIVES, default="worst-case")
    p.add_argument("--guesses", choices=("any", "consistent"), default="any",
                   help="consistent: every guess could still be the secret (hard mode)")
    p.add_argument("--max-guesses", type=int, metavar="T",
                   help="cap: worst-case answers whether T guesses suffice (exit 1 if not); "
                        "expected finds the least total within T guesses")
    p.add_argument("--jobs", type=int, default=-1,
                   help="worker processes (default: all cores, or in-process for games of "
                        "at most 2000 codes, where a pool costs more than it saves; "
                        "1 runs in-process)")
    p.add_argument("--no-symmetry", action="store_true",
                   help="switch off symmetry reduction (for comparison)")
    p.add_argument("--stats", action="store_true",
                   help="print states visited, table hits and guesses evaluated")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="where to write the tree (.json or .json.gz); default "
                        "<game>-<objective>.json.gz in the current folder; '-' for none")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--progress-interval", type=float, default=30.0, metavar="SECONDS",
                   help="when stderr is not a terminal: least seconds between two progress "
                        "lines of a phase (default 30)")
    long = p.add_argument_group("long runs")
    long.add_argument("--checkpoint", metavar="DIR",
                      help="store each finished task in DIR; rerunning the same command "
                           "after a kill or Ctrl-C resumes from there (any --jobs, --backend)")
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
    long.add_argument("--table-entries", type=int, default=DEFAULT_TABLE_ENTRIES, metavar="N",
                      help=f"transposition-table entries per process (default "
                           f"{DEFAULT_TABLE_ENTRIES:,}; at most 24 bytes each)")
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
    if args.progress_interval < 0:
        raise InvalidOptionError(f"--progress-interval must be 0 or more seconds, got "
                                 f"{args.progress_interval}")
    if args.table_entries < 0:
        raise InvalidOptionError(f"--table-entries must be 0 or more, got {args.table_entries}")
    if args.scheduler and args.backend != "dask":
        raise InvalidOptionError("--scheduler needs --backend dask")
    limit = (parse_size(args.memory_limit) if args.memory_limit is not None
             else default_memory_limit())

    progress = make_progress(args.quiet, sys.stderr, args.progress_interval)
    solver = Solver(game, args.guesses, symmetry=not args.no_symmetry, jobs=args.jobs,
                    backend=args.backend, table_entries=args.table_entries,
                    progress=progress, checkpoint=args.checkpoint,
                    scheduler=args.scheduler, memory_limit=limit)
    try:
        sol = solver.solve(args.objective, args.max_guesses)
    except KeyboardInterrupt:
        progress.close()
        cp = solver.checkpoint
        if cp is not None:
            n = cp.loaded + cp.stored
            print(f"optimal-mm solve: interrupted; {n} task{'' if n == 1 else 's'} saved in "
                  f"{args.checkpoint}: rerun the same command to resume", file=sys.stderr)
        else:
            print("optimal-mm solve: interrupted; nothing saved (--checkpoint DIR makes a "
                  "long search resumable)", file=sys.stderr)
        return 130
    finally:
        progress.close()
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
        _print_checkpoint(solver, args)
        return 1
    stats = sol.strategy.declared
    if args.objective == "worst-case":
        status = "optimal (proven)" if sol.strategy.optimal else "within the cap"
        print(f"worst case: {sol.value} guesses, {status}")
    elif args.objective == "fewest-at-worst":
        print(f"fewest at the worst case: {sol.value} secrets need all {stats.max} guesses, "
              f"proven; among such trees the least total {stats.total} (average "
              f"{stats.average:.4f}), proven")
    else:
        print(f"optimal total: {sol.value} (average {sol.value / stats.secrets:.4f}), proven")
    first = sol.strategy.root.guess
    print(f"tree: first guess {first}; {stats}")
    if args.stats:
        print(f"search: {sol.stats}")
    print(f"time {sol.seconds:.2f} s")
    _print_checkpoint(solver, args)
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


def _print_checkpoint(solver: Solver, args) -> None:
    cp = solver.checkpoint
    if cp is None:
        return
    line = (f"checkpoint {args.checkpoint}: {cp.loaded} tasks loaded, {cp.stored} computed "
            f"and saved")
    if cp.rejected:
        line += f", {cp.rejected} damaged or foreign entries recomputed"
    print(line)
