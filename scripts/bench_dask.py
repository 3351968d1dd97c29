"""Benchmark: the dask backend against joblib's loky processes, on this machine.

Each configuration solves the same game with the command line, in a fresh process,
``--repeat`` times; the median is reported, both end to end (process start, pool or
cluster start-up, search, tree written nowhere) and for the search alone (the
``time`` line the command prints). Every run must give the same value, else the
script stops: a faster wrong answer is no result.

Configurations
    * ``jobs 1``: in-process, no pool (the baseline);
    * ``loky``: ``--jobs N``, joblib's default process pool;
    * ``dask``: ``--backend dask --jobs N``, a ``LocalCluster`` of N single-threaded
      worker processes started by the run (what ``--scheduler`` would reach on a real
      cluster, minus the network).

Games: Mastermind, expected case, and p4c7, worst case within 6 guesses (a few
seconds a run each). ``--long`` adds p4c7 expected case (about 11 minutes a run with
two processes on a 2-core machine: off by default).

Writes ``OUT.json`` and ``OUT.md`` (default ``results/bench_dask``), each atomically
(a temporary file renamed into place), with the machine (CPU model, cores, load
average before and after) and the command that produced them.

Usage::

    python scripts/bench_dask.py [--repeat 3] [--jobs 2] [--long] [--out results/bench_dask]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.machine import cpu_model  # noqa: E402
from optimal_mm.tree import atomic_write_text  # noqa: E402

GAMES = [("mastermind", ["--objective", "expected"]),
         ("p4c7", ["--objective", "worst-case", "--max-guesses", "6"])]
LONG = [("p4c7", ["--objective", "expected"])]
VALUE_RE = re.compile(r"^(?:optimal total: (\d+)|worst case: (\d+) guesses|(impossible))",
                      re.MULTILINE)
TIME_RE = re.compile(r"^time ([0-9.]+) s$", re.MULTILINE)


def configurations(jobs: int) -> list[tuple[str, list[str]]]:
    return [("jobs 1 (in-process)", ["--jobs", "1"]),
            (f"loky, {jobs} processes", ["--jobs", str(jobs)]),
            (f"dask LocalCluster, {jobs} workers x 1 thread",
             ["--backend", "dask", "--jobs", str(jobs)])]


def machine() -> dict:
    """CPU model, cores and memory of this machine, from /proc where there is one."""
    model = cpu_model()
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = None
    return {"cpu": model, "cores": os.cpu_count(), "memory_bytes": memory,
            "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version()}


def versions() -> dict:
    out = {}
    for name in ("optimal_mm", "numba", "numpy", "joblib", "dask", "distributed"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def run_once(game: str, options: list[str], config: list[str]) -> tuple[float, float, str]:
    """One solve in a fresh process: (wall seconds, search seconds, value)."""
    cmd = [sys.executable, "-m", "optimal_mm", "solve", game, *options, *config,
           "--quiet", "-o", os.devnull]  # "-" would put the tree on stdout
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_dask: {shlex.join(cmd)} failed ({done.returncode}): "
                         f"{done.stderr.strip().splitlines()[-1:]}")
    m, t = VALUE_RE.search(done.stdout), TIME_RE.search(done.stdout)
    if not m or not t:
        raise SystemExit(f"bench_dask: unexpected output of {shlex.join(cmd)}")
    value = next(g for g in m.groups() if g)
    return wall, float(t.group(1)), value


def markdown(doc: dict) -> str:
    m = doc["machine"]
    lines = [
        "# Dask backend against loky",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, "
        f"{(m['memory_bytes'] or 0) / 2**30:.0f} GiB; {m['system']}, Python {m['python']}. "
        f"Load average (1 min) {doc['load_before'][0]:.2f} before, "
        f"{doc['load_after'][0]:.2f} after: other work shared the machine.",
        "",
        f"Command: `{doc['command']}`. Each cell is the median of {doc['repeat']} runs, each "
        "in a fresh process; *end to end* includes starting Python, the pool or the "
        "cluster; *search* is the `time` the command reports. Versions: "
        + ", ".join(f"{k} {v}" for k, v in doc["versions"].items() if v) + ".",
        "",
        "| game | objective | configuration | value | end to end (s) | search (s) |",
        "|---|---|---|---|---:|---:|",
    ]
    for r in doc["runs"]:
        lines.append(f"| {r['game']} | {' '.join(r['options'])} | {r['configuration']} | "
                     f"{r['value']} | {r['median_wall']:.2f} | {r['median_search']:.2f} |")
    lines += ["", "All runs of a game gave the same value (checked by the script). Dask pays "
              "for starting its scheduler and workers (end to end) and for sending every "
              "task through the scheduler; it is meant for clusters with more cores than "
              "one machine, not to beat loky on one.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--jobs", type=at_least(1), default=2,
                        help="processes or dask workers")
    parser.add_argument("--long", action="store_true",
                        help="also p4c7 expected case (minutes a run)")
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_dask"),
                        help="path without extension for the .json and .md results")
    args = parser.parse_args(argv)
    games = GAMES + (LONG if args.long else [])

    # Warm the numba cache so that no configuration pays for compilation.
    run_once("p3c4", ["--objective", "expected"], ["--jobs", "1"])
    doc = {"machine": machine(), "versions": versions(), "repeat": args.repeat,
           "command": "python scripts/bench_dask.py " + shlex.join(argv if argv is not None
                                                                   else sys.argv[1:]),
           "load_before": list(os.getloadavg()), "runs": []}
    for game, options in games:
        values = set()
        for label, config in configurations(args.jobs):
            walls, searches = [], []
            for _ in range(args.repeat):
                wall, search, value = run_once(game, options, config)
                walls.append(wall)
                searches.append(search)
                values.add(value)
            row = {"game": game, "options": options, "configuration": label,
                   "arguments": config, "value": value, "wall": walls, "search": searches,
                   "median_wall": statistics.median(walls),
                   "median_search": statistics.median(searches)}
            doc["runs"].append(row)
            print(f"{game} {' '.join(options)} | {label}: value {value}, end to end "
                  f"{row['median_wall']:.2f} s, search {row['median_search']:.2f} s",
                  flush=True)
        if len(values) != 1:
            raise SystemExit(f"bench_dask: {game} gave different values {sorted(values)}")
    doc["load_after"] = list(os.getloadavg())
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out.with_suffix(".json"), json.dumps(doc, indent=2) + "\n")
    atomic_write_text(out.with_suffix(".md"), markdown(doc))
    print(f"wrote {out.with_suffix('.json')} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("bench_dask.py", main))
