#!/usr/bin/env python3
"""Benchmark the exact solver; write the figures to results/bench.{md,json}.

Each case runs in a fresh process (``python -m optimal_mm solve ...``) so its wall
time includes start-up, loading the compiled kernels and building the answer table,
as a user would see it; one untimed warm-up run builds the kernels first (the
ahead-of-time build, or numba's on-disk JIT cache with ``--kernels jit``). The
median of ``--repeat`` runs is reported, with the peak resident memory of the
largest process (parent or worker). The symmetry comparison records the search
counters with and without symmetry reduction.

Usage::

    python scripts/bench.py                 # the default cases
    python scripts/bench.py --cases mastermind-wc p4c7-wc --repeat 3
    python scripts/bench.py --quick         # mastermind only
    python scripts/bench.py --cases mastermind-exp --kernels jit --merge
    python scripts/bench.py --cpp-solver ~/src/mastermind --side-by-side-only --merge

Side by side with the C++ exact solver (``--cpp-solver DIR``, a checkout of
fancidev/mastermind; nothing of it is copied into this project): the script builds
its ``mmstrat`` program in a scratch folder outside the project (``--cpp-build``)
and runs ``mmstrat -r RULES -s optimal -S`` and ``optimal-mm solve GAME --objective
expected --jobs 1`` in turn, ``--repeat`` times each, interleaved so that both see
the same load. Reported per game, as medians: the whole command's wall time; the
search (ours: the ``time`` the command prints, search and tree; the C++ solver's:
its whole time less its start-up); and the start-up (ours: the whole command less
the search, i.e. Python, imports, loading the kernels, the answer table and
writing the result; the C++ solver's: ``mmstrat -v``). The load average is
recorded before and after.

Figures are only meaningful on the machine they were measured on: the output
records its CPU count and model. With ``--merge`` the rows of earlier runs stay
beside the new ones, so each row records the run that measured it (its CPU, its
command and the date), and the page numbers the runs and names each row's.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from optimal_mm.cli import at_least
from optimal_mm.machine import cpu_model
from optimal_mm.search import check_jobs
from optimal_mm.tree import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"


def timed_run(cmd, timeout: float, env=None) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``cmd`` to its end (its output captured); the process and its wall time.

    ``subprocess.run(..., timeout=)`` waits by polling the child with sleeps that grow
    to 50 ms, so its end is seen late: a command of 0.07 s reads as 0.11 s, and every
    small game's time is rounded up to that grid. Here the wait blocks until the child
    exits, and a timer kills it past ``timeout`` (:class:`subprocess.TimeoutExpired`).
    """
    expired = threading.Event()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)

    def kill():
        expired.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        out, err = proc.communicate()
    finally:
        timer.cancel()
    wall = time.perf_counter() - start
    if expired.is_set():
        raise subprocess.TimeoutExpired(cmd, timeout, out, err)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), wall


# name: (game, objective, extra args, target seconds from the issues, reference note)
CASES = {
    "mastermind-wc": ("mastermind", "worst-case", [], 1.0, ""),
    "mastermind-exp": ("mastermind", "expected", [], 0.5, "C++ solver 0.16 s"),
    "mastermind-exp-max5": ("mastermind", "expected", ["--max-guesses", "5"], None, ""),
    "p4c7-wc": ("p4c7", "worst-case", [], 10.0, "C solver: 87 s to prove 5 impossible"),
    "p4c7-exp": ("p4c7", "expected", [], 30.0, "C++ solver 28 s"),
    "bulls-and-cows-wc": ("bulls-and-cows", "worst-case", [], 60.0, ""),
    "bulls-and-cows-exp": ("bulls-and-cows", "expected", [], 170.0, "C++ solver 167 s"),
    "p4c8n-exp": ("p4c8n", "expected", [], 2.0, "C++ solver 1.05 s"),
    "p4c8-exp": ("p4c8", "expected", [], 250.0, "C++ solver 242 s"),
    "p5c4-wc": ("p5c4", "worst-case", [], 60.0, ""),
    "p5c4-exp": ("p5c4", "expected", [], None, "C++ solver 0.24 s"),
    "p6c3-wc": ("p6c3", "worst-case", [], 60.0, ""),
    # Black-only scoring, where the open cells of the optimal table are: the keys of
    # the global form and the skew-aware bound, under the fewest-at-worst cost.
    "p6c6nb-faw": ("p6c6nb", "fewest-at-worst", [], None, ""),
    "p4c8nb-faw-consistent": ("p4c8nb", "fewest-at-worst", ["--guesses", "consistent"],
                              None, ""),
}
DEFAULT = ["mastermind-wc", "mastermind-exp", "mastermind-exp-max5", "p4c8n-exp", "p5c4-wc",
           "p5c4-exp", "p6c3-wc", "p4c7-wc", "p4c7-exp", "bulls-and-cows-wc",
           "bulls-and-cows-exp"]


def depth3_tree(spec: str) -> dict:
    """Size of the depth-3 guess tree, without and with this project's reduction.

    Counted are the guesses to evaluate at depth 3: every sequence guess 1, answer 1,
    guess 2, answer 2, guess 3 in which both answers are possible (not all black) and
    leave at least one secret. Without symmetry every code is a candidate at every
    level. With it, guess 1 ranges over the orbits of the full group, guess 2 over
    the orbits of the group fixing guess 1 and its part (what ``solve`` tries at the
    top of the tree), and guess 3 over one guess per orbit of the colour classes of
    its state (what the compiled search tries below). This is not what the survey
    "Rozważmy Masterminda" counts (5.9 trillion histories with any answer, 415
    million up to symmetry): that count is ``optimal-mm symmetry`` and
    results/symmetry.md.
    """
    import numpy as np

    from optimal_mm import Game
    from optimal_mm import _search_guesses
    from optimal_mm.game import partition_counts
    from optimal_mm.search_context import _Context
    from optimal_mm.symmetry import orbit_representatives

    game = Game.from_spec(spec)
    n, win = game.n_codes, game.win
    everything = np.arange(n, dtype=np.int64)
    table = game.answer_table()
    ctx = _Context(game, False, 0)

    def live(part):
        in_s = np.zeros(n, dtype=np.bool_)
        in_s[part] = True
        guesses, _ = _search_guesses._candidates(part, in_s, everything[:0], everything,
                                                 False, *ctx.rules)
        return len(guesses)

    def parts(g, secrets):
        row = table[g][secrets]
        return [secrets[row == a] for a in np.unique(row) if a != win]

    plain = 0
    for g1 in range(n):
        for p1 in parts(g1, everything):
            counts = partition_counts(game, everything, p1)
            counts[:, win] = 0
            plain += int((counts > 0).sum()) * n
    reduced = 0
    for r1 in orbit_representatives(game, []):
        for p1 in parts(int(r1), everything):
            for r2 in orbit_representatives(game, [int(r1)], secrets=p1):
                reduced += sum(live(p2) for p2 in parts(int(r2), p1))
    return {"game": spec, "without": plain, "with": reduced,
            "ratio": round(plain / reduced, 1)}


def run_once(game, objective, extra, jobs, timeout, symmetry=True, kernels="auto"):
    cmd = [sys.executable, "-m", "optimal_mm", "solve", game, "--objective", objective,
           "--jobs", str(jobs), "--stats", "--quiet", "-o", os.devnull, *extra]
    if not symmetry:
        cmd.append("--no-symmetry")
    env = dict(os.environ, OPTIMAL_MM_KERNELS=kernels)
    proc, wall = timed_run(cmd, timeout, env)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    out = proc.stdout
    value = re.search(r"worst case: (\d+)|optimal total: (\d+)", out)
    search = re.search(r"states ([\d,]+), table hits ([\d,]+), guesses evaluated ([\d,]+)", out)
    return {
        "wall_s": wall,
        "search_s": float(t.group(1)) if (t := re.search(r"^time ([\d.]+) s", out, re.M)) else None,
        "value": int(next(v for v in value.groups() if v)) if value else None,
        "states": int(search.group(1).replace(",", "")) if search else None,
        "table_hits": int(search.group(2).replace(",", "")) if search else None,
        "guesses_evaluated": int(search.group(3).replace(",", "")) if search else None,
    }


# ------------------------------------------------------------ the C++ exact solver
#: fancidev/mastermind: the last commit whose lib/ and src/ hold the whole exact
#: solver (later commits move the code to a new folder without it).
CPP_COMMIT = "2b52289"
#: Games run side by side: ours (spec) and the C++ solver's rules.
SIDE_BY_SIDE = {"mastermind": "p4c6r", "p5c4": "p5c4r", "p4c8n": "p4c8n",
                "p4c7": "p4c7r", "bulls-and-cows": "p4c10n", "p4c8": "p4c8r"}
#: The games run side by side unless ``--cpp-games`` names others: the small ones,
#: where start-up weighs most (the big ones take the C++ solver minutes each).
SIDE_BY_SIDE_DEFAULT = ["mastermind", "p5c4", "p4c8n"]
#: Today's compilers refuse two things the 2012 sources do: headers they no longer
#: include implicitly (forced in) and one ordered comparison of a pointer with 0.
_CPP_FLAGS = "-O2 -include limits -include cstdint -include cstring -w"
_CPP_FIXES = {"lib/StrategyTree.cpp": ("(root > 0)", "(root != 0)")}


def build_cpp_solver(checkout: Path, build: Path) -> Path:
    """Build ``mmstrat`` from a fancidev/mastermind checkout into ``build`` (outside
    this project); its path. A git checkout is read at :data:`CPP_COMMIT`."""
    src = build / "src"
    exe = build / "out" / "src" / "mmstrat"
    if exe.exists():
        return exe
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    if (checkout / ".git").exists() or (checkout / "HEAD").exists():
        archive = subprocess.run(["git", "-C", str(checkout), "archive", CPP_COMMIT],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    else:
        shutil.copytree(checkout, src, dirs_exist_ok=True)
    for name, (old, new) in _CPP_FIXES.items():
        path = src / name
        path.write_text(path.read_text().replace(old, new))
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.10)\nproject(mmstrat CXX)\n"
        "add_subdirectory(lib)\nadd_subdirectory(src)\n")
    subprocess.run(["cmake", "-S", str(src), "-B", str(build / "out"),
                    "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_FLAGS={_CPP_FLAGS}"],
                   capture_output=True, check=True)
    subprocess.run(["cmake", "--build", str(build / "out"), "--target", "mmstrat"],
                   capture_output=True, check=True)
    return exe


def run_cpp(exe: Path, rules: str | None, timeout: int) -> dict:
    """One run of the C++ solver's optimal strategy (or ``-v``, its start-up alone)."""
    cmd = [str(exe), "-r", rules, "-s", "optimal", "-S"] if rules else [str(exe), "-v"]
    proc, wall = timed_run(cmd, timeout)
    total = re.search(r"^optimal\s+(\d+)", proc.stdout, re.M)
    return {"wall_s": wall, "value": int(total.group(1)) if total else None}


def python_floor(timeout: int) -> float:
    """Wall time of ``python -c "import numpy"``: what any command of a Python package
    built on numpy pays before its own first line runs (the interpreter, its site
    set-up and numpy's import). Measured with ``OPENBLAS_NUM_THREADS=1``, as the
    command itself imports numpy (:mod:`optimal_mm.cli` sets it): OpenBLAS's start of
    a thread per core, which the command never pays, costs little on an idle machine
    but about 0.04 s on a busy 2-core one (0.10 s against 0.06 s, measured)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc, wall = timed_run([sys.executable, "-c", "import numpy"], timeout, env)
    if proc.returncode:
        raise RuntimeError(f"python -c 'import numpy' failed: {proc.stderr.strip()}")
    return wall


def side_by_side(exe: Path, games, repeat: int, timeout: int) -> list[dict]:
    """Ours (``--jobs 1``) and the C++ solver on each game, interleaved run by run,
    with the Python and numpy floor (:func:`python_floor`) measured between them."""
    runs = {g: {"ours": [], "cpp": [], "cpp_startup": [], "floor": []} for g in games}
    for _ in range(repeat):
        for game in games:
            runs[game]["ours"].append(run_once(game, "expected", [], 1, timeout))
            runs[game]["cpp"].append(run_cpp(exe, SIDE_BY_SIDE[game], timeout))
            runs[game]["cpp_startup"].append(run_cpp(exe, None, timeout))
            runs[game]["floor"].append(python_floor(timeout))
    rows = []
    for game in games:
        r = runs[game]
        ours_wall = statistics.median(x["wall_s"] for x in r["ours"])
        ours_search = statistics.median(x["search_s"] for x in r["ours"])
        ours_start = statistics.median(x["wall_s"] - x["search_s"] for x in r["ours"])
        cpp_wall = statistics.median(x["wall_s"] for x in r["cpp"])
        cpp_start = statistics.median(x["wall_s"] for x in r["cpp_startup"])
        rows.append({"game": game, "cpp_rules": SIDE_BY_SIDE[game], "runs": repeat,
                     "value": r["ours"][0]["value"], "cpp_value": r["cpp"][0]["value"],
                     "ours_wall_s": round(ours_wall, 3), "ours_search_s": round(ours_search, 3),
                     "ours_startup_s": round(ours_start, 3), "cpp_wall_s": round(cpp_wall, 3),
                     "cpp_search_s": round(cpp_wall - cpp_start, 3),
                     "cpp_startup_s": round(cpp_start, 4),
                     "python_numpy_floor_s": round(statistics.median(r["floor"]), 3)})
        print(f"{game}: ours {ours_wall:.3f} s, C++ {cpp_wall:.3f} s", file=sys.stderr)
    return rows


PATH_OPTIONS = ("--cpp-solver", "--cpp-build")


def recorded_command(argv) -> str:
    """The command line to record beside the figures, with local paths as ``DIR``.

    Where the C++ checkout and its build lie says nothing to a reader of
    ``results/`` (and differs from machine to machine), so the values of
    ``--cpp-solver`` and ``--cpp-build`` are written as ``DIR``, as the README
    does.
    """
    words, hide = [], False
    for word in argv:
        option = word.split("=", 1)[0]
        if hide:
            words.append("DIR")
        elif option in PATH_OPTIONS and "=" in word:
            words.append(option + "=DIR")
        else:
            words.append(word)
        hide = word in PATH_OPTIONS
    return " ".join(["python scripts/bench.py", *words])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", default=None, choices=sorted(CASES))
    # (refused before any run: --repeat 0 ran the cases all the same)
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=at_least(1), default=900)
    parser.add_argument("--no-symmetry-timeout", type=at_least(1), default=300,
                        help="time limit of each run without symmetry reduction")
    parser.add_argument("--merge", action="store_true",
                        help="keep the figures in results/bench.json of cases not run now")
    parser.add_argument("--long", type=float, default=60.0,
                        help="a case whose first run takes longer is measured once")
    parser.add_argument("--quick", action="store_true", help="mastermind cases only")
    parser.add_argument("--no-symmetry-compare", action="store_true")
    parser.add_argument("--kernels", choices=("auto", "aot", "jit"), default="auto",
                        help="OPTIMAL_MM_KERNELS of the runs: the ahead-of-time build or "
                             "numba's JIT (see optimal_mm.kernels)")
    parser.add_argument("--cpp-solver", metavar="DIR", type=Path,
                        help="a checkout of fancidev/mastermind: build its exact solver "
                             "outside this project and run it side by side with ours")
    parser.add_argument("--cpp-build", metavar="DIR", type=Path,
                        default=Path(tempfile.gettempdir()) / "optimal_mm-cpp-solver",
                        help="where the C++ solver is built (default: a folder in /tmp)")
    parser.add_argument("--cpp-games", nargs="*", default=SIDE_BY_SIDE_DEFAULT,
                        choices=list(SIDE_BY_SIDE),
                        help="games run side by side (default: "
                             f"{' '.join(SIDE_BY_SIDE_DEFAULT)}; the others take the C++ "
                             "solver minutes each)")
    parser.add_argument("--side-by-side-only", action="store_true",
                        help="with --cpp-solver: run only the side-by-side comparison")
    args = parser.parse_args(argv)
    try:
        check_jobs(args.jobs)  # as the commands take it: -1 or 0 for every core
    except ValueError as exc:
        parser.error(str(exc))
    if not 0 <= args.long < float("inf"):
        parser.error(f"--long must be a finite number of seconds of 0 or more, got {args.long}")
    if args.side_by_side_only and args.cpp_solver is None:
        parser.error("--side-by-side-only needs --cpp-solver DIR")
    if args.cpp_solver is not None and not args.cpp_solver.is_dir():  # before the
        # benchmarks of our own, which take minutes, not after them
        parser.error(f"--cpp-solver {args.cpp_solver}: no such folder (a checkout of the "
                     f"C++ solver)")
    if args.cpp_solver and any(args.cpp_build.resolve().is_relative_to(d.resolve())
                               for d in (ROOT, args.cpp_solver)):
        parser.error(f"--cpp-build {args.cpp_build} must be outside this project and the "
                     f"C++ checkout (the build copies the checkout into it)")
    cases = args.cases or (["mastermind-wc", "mastermind-exp"] if args.quick else DEFAULT)
    if args.side_by_side_only:
        cases = []

    machine = {"cpus": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version(),
               "platform": platform.platform()}
    rows = []
    # One untimed run of each objective builds the kernels for every case. The
    # package's bytecode is compiled first: with PYTHONDONTWRITEBYTECODE set (or a
    # read-only install) every timed run would otherwise compile every module again,
    # a cost no installed package pays.
    print(f"warm-up (kernels {args.kernels})", file=sys.stderr, flush=True)
    compileall.compile_dir(ROOT / "optimal_mm", quiet=1)
    for objective in ("worst-case", "expected"):
        run_once("p2c3", objective, [], args.jobs, args.timeout, kernels=args.kernels)
    kernels = _backend(args.kernels)
    for name in cases:
        game, objective, extra, target, note = CASES[name]
        try:
            runs = [run_once(game, objective, extra, args.jobs, args.timeout,
                             kernels=args.kernels)]
            # Long cases are measured once: their run-to-run spread is small next to
            # their length, and the session's time is not.
            while runs[0]["wall_s"] < args.long and len(runs) < args.repeat:
                runs.append(run_once(game, objective, extra, args.jobs, args.timeout,
                                     kernels=args.kernels))
        except subprocess.TimeoutExpired:
            rows.append({"case": name, "game": game, "objective": objective,
                         "timeout_s": args.timeout, "target_s": target, "reference": note,
                         "kernels": kernels})
            print(f"{name}: timed out after {args.timeout} s", file=sys.stderr)
            continue
        walls = [r["wall_s"] for r in runs]
        row = {"case": name, "game": game, "objective": objective, "args": extra,
               "value": runs[0]["value"], "median_s": round(statistics.median(walls), 3),
               "runs_s": [round(w, 3) for w in walls], "target_s": target, "jobs": args.jobs,
               "search_median_s": (round(statistics.median(r["search_s"] for r in runs), 3)
                                   if all(r["search_s"] is not None for r in runs) else None),
               "reference": note, "kernels": kernels, "states": runs[0]["states"],
               "table_hits": runs[0]["table_hits"],
               "guesses_evaluated": runs[0]["guesses_evaluated"]}
        rows.append(row)
        print(f"{name}: value {row['value']}, median {row['median_s']} s", file=sys.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    compare = []
    if args.cpp_solver is not None:
        exe = build_cpp_solver(args.cpp_solver.resolve(), args.cpp_build.resolve())
        load_before = os.getloadavg()
        compare = side_by_side(exe, args.cpp_games, args.repeat, args.timeout)
        load = [round(x, 2) for x in (*load_before, *os.getloadavg())]
        for row in compare:
            row["load_avg_1_5_15_before_after"] = load
    symmetry_rows = []
    if not args.no_symmetry_compare and not args.side_by_side_only:
        for game, objective in (("mastermind", "worst-case"), ("mastermind", "expected"),
                                ("p4c7", "worst-case")):
            on = run_once(game, objective, [], 1, args.timeout, kernels=args.kernels)
            try:
                off = run_once(game, objective, [], 1, args.no_symmetry_timeout,
                               symmetry=False, kernels=args.kernels)
            except subprocess.TimeoutExpired:
                off = None
            symmetry_rows.append({"game": game, "objective": objective, "with": on,
                                  "without": off})
    tree_rows = ([] if args.no_symmetry_compare or args.side_by_side_only
                 else [depth3_tree("mastermind")])

    report = {"machine": machine, "jobs": args.jobs, "repeat": args.repeat, "long_s": args.long,
              "no_symmetry_timeout_s": args.no_symmetry_timeout,
              "peak_rss_mb_largest_process": round(peak_mb, 1), "cases": rows,
              "symmetry": symmetry_rows, "depth3_tree": tree_rows, "side_by_side": compare,
              "command": recorded_command(argv or sys.argv[1:])}
    # Each row says which run measured it: a merge keeps rows of earlier runs, and a
    # figure can be reproduced only with the command (and compared only on the CPU)
    # that gave it.
    stamp = {"cpu": machine["cpu"], "command": report["command"],
             "date": time.strftime("%Y-%m-%d", time.gmtime())}
    for row in (*rows, *compare, *symmetry_rows, *tree_rows):
        row.update(stamp)
    if args.merge and (RESULTS / "bench.json").exists():
        report = merge(json.loads((RESULTS / "bench.json").read_text()), report)
    RESULTS.mkdir(exist_ok=True)
    atomic_write_text(RESULTS / "bench.json", json.dumps(report, indent=2) + "\n")
    atomic_write_text(RESULTS / "bench.md", markdown(report))
    print(markdown(report))
    return 0


def _cpu(row: dict, machine: dict) -> str:
    """The CPU a row was measured on (the report's, for a row that does not say)."""
    return row.get("cpu", machine["cpu"])


def merge(old: dict, report: dict) -> dict:
    """``report`` with the earlier figures of ``old`` kept for every case, game and
    table not measured now. Each row keeps the CPU it was measured on (rows written
    before rows named theirs take the old report's): a merge may join runs of two
    machines, whose figures compare only within one. Each row keeps its run's command
    and date too; the report's own ``command`` is this run's."""
    old_cpu = old.get("machine", {}).get("cpu", "unknown")
    report = dict(report)
    rows, compare = report["cases"], report["side_by_side"]
    measured = {(r["case"], r.get("jobs"), r.get("kernels")) for r in rows}
    kept = [r for r in old.get("cases", [])
            if (r["case"], r.get("jobs", old.get("jobs")), r.get("kernels", "jit"))
            not in measured]
    report["cases"] = [{"cpu": old_cpu, **r} for r in kept] + rows
    if not report["symmetry"]:
        report["no_symmetry_timeout_s"] = old.get("no_symmetry_timeout_s")
        report["symmetry"] = [{"cpu": old_cpu, **r} for r in old.get("symmetry", [])]
    report["depth3_tree"] = report["depth3_tree"] or old.get("depth3_tree", [])
    measured_games = {r["game"] for r in compare}
    report["side_by_side"] = [{"cpu": old_cpu, **r} for r in old.get("side_by_side", [])
                              if r["game"] not in measured_games] + compare
    if not rows:
        report["repeat"], report["long_s"] = old.get("repeat"), old.get("long_s")
        report["jobs"] = old.get("jobs")
    report["peak_rss_mb_largest_process"] = max(
        report["peak_rss_mb_largest_process"], old.get("peak_rss_mb_largest_process", 0))
    return report


def _backend(wanted: str) -> str:
    """The backend the runs use ("aot" or "jit"), as optimal_mm.kernels decides it."""
    code = "from optimal_mm import kernels; print(kernels.backend())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, OPTIMAL_MM_KERNELS=wanted))
    return proc.stdout.strip() or "unknown"


def _rows(report) -> list:
    """Every row of the report, of each of its tables."""
    return [*report["cases"], *report["symmetry"], *report.get("depth3_tree", []),
            *report.get("side_by_side", [])]


def _runs(report) -> dict:
    """The runs that measured the report's rows, numbered by date: each ``(date,
    command)`` to its number (rows of the same day and command are one run's). Runs
    of one day keep the order of their rows in the report, where a merge puts the
    rows of the newer run after the rows it keeps.

    >>> _runs({"cases": [{"date": "2026-12-02", "command": "b"},
    ...                  {"date": "2026-11-26", "command": "a"}, {}],
    ...        "symmetry": [{"date": "2026-12-02", "command": "b"},
    ...                     {"date": "2026-12-02", "command": "a"}]})
    {('2026-11-26', 'a'): 1, ('2026-12-02', 'b'): 2, ('2026-12-02', 'a'): 3}
    """
    seen: dict = {}
    for row in _rows(report):
        if "command" in row:
            seen.setdefault((row["date"], row["command"]), len(seen))
    ordered = sorted(seen, key=lambda run: (run[0], seen[run]))
    return {run: number for number, run in enumerate(ordered, 1)}


def _run_of(row, runs) -> str:
    """The number of the run that measured ``row`` (blank for a row that does not say)."""
    return str(runs[row["date"], row["command"]]) if "command" in row else ""


def markdown(report) -> str:
    m = report["machine"]
    runs = _runs(report)
    lines = [
        "# Exact solver benchmark",
        "",
        f"Machine of the last run: {m['cpus']} CPUs ({m['cpu']}), Python {m['python']}; "
        f"each row names the CPU it was measured on (*cpu*): figures compare only "
        f"within one CPU. "
        f"Wall time of a fresh `optimal-mm solve` process "
        f"(start-up, loading the compiled kernels and the answer table included), "
        f"kernels already built; "
        f"median of {report['repeat']} runs (one run for cases over {report['long_s']} s: "
        f"see *runs*). Peak resident memory of the largest "
        f"process over all runs: {report['peak_rss_mb_largest_process']} MB.",
        "",
        "Runs (the *run* of each row names the one that measured it; the commands "
        "as `python scripts/bench.py` recorded them, a local path as `DIR`):",
        "",
        *(f"{number}. {date}: `{command}`" for (date, command), number in runs.items()),
        *([] if all("command" in r for r in _rows(report)) else
          ["", "A row with no run was measured by an earlier run: see `git log -p "
               "results/bench.json`."]),
        "",
        "*median s*: wall time of the whole command; *search s*: the search and tree "
        "alone, as the command reports it (`time ... s`), without Python start-up, the "
        "kernel load and the worker pool start.",
        "",
        "*kernels*: `aot`, the kernels built ahead of time and imported without numba "
        "(the default); `jit`, numba's JIT with its on-disk cache, which costs every "
        "process numba's import and set-up (see `optimal_mm/kernels.py`).",
        "",
        "*jobs*: the `--jobs` given (-1: the default, all cores except in-process for "
        "games of at most 2000 codes).",
        "",
        "| case | jobs | kernels | value | median s | search s | runs | target s | reference "
        "| states | table hits | guesses evaluated | cpu | run |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["cases"]:
        if "median_s" not in r:
            lines.append(f"| {r['case']} | {r.get('jobs', report['jobs'])} | "
                         f"{r.get('kernels', 'jit')} | timed out after "
                         f"{r['timeout_s']} s | | | | "
                         f"{r['target_s'] or ''} | {r['reference']} | | | | {_cpu(r, m)} | "
                         f"{_run_of(r, runs)} |")
            continue
        search_s = r.get("search_median_s")
        lines.append(f"| {r['case']} | {r.get('jobs', report['jobs'])} | "
                     f"{r.get('kernels', 'jit')} | {r['value']} | "
                     f"{r['median_s']} | "
                     f"{'' if search_s is None else search_s} | {len(r['runs_s'])} "
                     f"| {r['target_s'] or ''} "
                     f"| {r['reference']} | {r['states']:,} | {r['table_hits']:,} | "
                     f"{r['guesses_evaluated']:,} | {_cpu(r, m)} | {_run_of(r, runs)} |")
    if report["symmetry"]:
        lines += ["", "## Symmetry reduction (jobs 1)", "",
                  "| game | objective | states with | states without | guesses evaluated with "
                  "| without | seconds with | without | cpu | run |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for s in report["symmetry"]:
            w, wo = s["with"], s["without"] or {}
            late = f"> {report['no_symmetry_timeout_s']} s"

            def num(value):
                return f"{value:,}" if value is not None else late

            lines.append(f"| {s['game']} | {s['objective']} | {w['states']:,} | "
                         f"{num(wo.get('states'))} | {w['guesses_evaluated']:,} | "
                         f"{num(wo.get('guesses_evaluated'))} | {w['wall_s']:.2f} | "
                         f"{wo['wall_s']:.2f} | {_cpu(s, m)} | {_run_of(s, runs)} |" if wo else
                         f"| {s['game']} | {s['objective']} | {w['states']:,} | {late} | "
                         f"{w['guesses_evaluated']:,} | {late} | {w['wall_s']:.2f} | {late} | "
                         f"{_cpu(s, m)} | {_run_of(s, runs)} |")
    if report.get("side_by_side"):
        lines += ["", "## Side by side with the C++ exact solver (expected case, one thread each)",
                  "",
                  "`optimal-mm solve GAME --objective expected --jobs 1` against fancidev/"
                  "mastermind's `mmstrat -r RULES -s optimal -S` (commit "
                  f"{CPP_COMMIT}, built with `--cpp-solver`), interleaved run by run, "
                  "medians. *whole*: wall time of the command; *search*: ours, the search "
                  "and tree as the command reports them; the C++ solver's, its whole time "
                  "less its start-up; *start-up*: ours, Python, imports, the kernels, the "
                  "answer table and the output (whole less search); the C++ solver's, "
                  "`mmstrat -v`. *Python + numpy*: the wall time of `python -c \"import "
                  "numpy\"` with one OpenBLAS thread (as the command imports it), "
                  "measured between the runs: the floor under any command of a "
                  "Python package built on numpy, ours included. *load*: the machine's "
                  "load average (1, 5, 15 min) before and after; figures taken under load "
                  "are slower for both.", "",
                  "| game | value | runs | whole s (ours) | whole s (C++) | search s (ours, "
                  "jobs 1) | search s (C++, 1 thread) | start-up s (ours) | start-up s (C++) "
                  "| Python + numpy s | load before / after | cpu | run |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in report["side_by_side"]:
            value = (f"{r['value']}" if r["value"] == r["cpp_value"]
                     else f"{r['value']} (C++: {r['cpp_value']})")
            load = r["load_avg_1_5_15_before_after"]
            lines.append(f"| {r['game']} | {value} | {r['runs']} | {r['ours_wall_s']} | "
                         f"{r['cpp_wall_s']} | {r['ours_search_s']} | {r['cpp_search_s']} | "
                         f"{r['ours_startup_s']} | {r['cpp_startup_s']} | "
                         f"{r.get('python_numpy_floor_s', '')} | "
                         f"{'/'.join(map(str, load[:3]))} ; {'/'.join(map(str, load[3:]))} | "
                         f"{_cpu(r, m)} | {_run_of(r, runs)} |")
    for t in report.get("depth3_tree", []):
        lines += ["", "## The depth-3 guess tree", "",
                  f"Guesses to evaluate at depth 3 of {t['game']} (guess, answer, guess, "
                  f"answer, guess; answers possible and not all black): {t['without']:,} "
                  f"without symmetry, {t['with']:,} with this project's reduction (orbits of "
                  f"the full group for guess 1, of the group fixing guess 1 and its part for "
                  f"guess 2, colour classes of the state for guess 3): {t['ratio']:,}x fewer. "
                  f"The survey's 5.9 trillion and 415 million count another thing, histories "
                  f"with any answer: see symmetry.md."
                  + (f" (Run {_run_of(t, runs)}.)" if "command" in t else "")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("bench.py", main))
