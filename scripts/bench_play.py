"""Play seeded secrets of big games move by move; per-move time, guesses and memory.

Two suites, both played through the library as ``optimal-mm play --secret`` plays:

``heuristics``
    The enumerating heuristics (:mod:`optimal_mm.heuristics`) under the move clock
    on p6c7, p5c8, p7c7 and p8c8: does every move, the first included, keep to
    ``--move-time``, and what does the clock cost in guesses?
``consistent``
    The consistent-guess player on CP-SAT (:mod:`optimal_mm.consistent`) on p8c8
    (beside the heuristics), p10c10, p12c12 and p16c16, games too big to list.

Each game and player runs in a fresh child process so that its peak memory
(``ru_maxrss``) is its own. A move's time is the wall time of ``next_guess``
(choosing the guess) plus ``tell`` (filtering by its answer), which is what a
person waits for; start-up (imports, building the code list once) is counted
apart. The secrets are drawn colour by colour from ``random.Random(f"{seed}/{game}")``.

Run from the repository root (the default run is modest: 2 secrets a game, 5 s a
move; the machine is shared)::

    python scripts/bench_play.py --suite heuristics
    python scripts/bench_play.py --suite consistent
    python scripts/bench_play.py --suite consistent --secrets 5 --move-time 10

It writes ``results/bench_play-<suite>.md`` and ``.json`` (``bench_play.md`` for
both suites at once; the default run takes both, about 10 to 15 minutes on the
shared machine, so they may be run one after the other with ``--suite``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from optimal_mm import Game, __version__
from optimal_mm.cli import at_least
from optimal_mm.heuristics import check_move_time
from optimal_mm.player import heuristic_codebreaker, random_code
from optimal_mm.tree import atomic_write_text

SUITES = {
    "heuristics": [("p6c7", "entropy"), ("p5c8", "entropy"), ("p7c7", "entropy"),
                   ("p8c8", "entropy")],
    "consistent": [("p8c8", "cp-sat"), ("p10c10", "cp-sat"), ("p12c12", "cp-sat"),
                   ("p16c16", "cp-sat")],
}
MACHINE = "2 CPU cores shared with other work, Linux"


def seeded_secrets(game: Game, count: int, seed: int) -> list[str]:
    """``count`` secrets of ``game`` drawn colour by colour (any game size)."""
    rng = random.Random(f"{seed}/{game.spec}")
    return [game.format_code(random_code(game, rng)) for _ in range(count)]


def play_one(spec: str, player: str, secrets: int, move_time: float, seed: int) -> dict:
    """Play the seeded secrets of one game with one player (in this process)."""
    start = time.perf_counter()
    game = Game.from_spec(spec)
    if game.is_enumerable and player != "cp-sat":
        game.codes  # built once per process: start-up, not a move
    startup = time.perf_counter() - start
    games = []
    for secret in seeded_secrets(game, secrets, seed):
        breaker = heuristic_codebreaker(game, player, seed=seed, move_time=move_time)
        moves, cut = [], 0
        while not breaker.solved:
            began = time.perf_counter()
            guess = breaker.next_guess()
            move = breaker.last_move
            breaker.tell(game.score(guess, secret))
            moves.append(time.perf_counter() - began)
            cut += bool(move is not None and move.cut_short)
        games.append({"secret": secret, "guesses": breaker.guesses, "cut_moves": cut,
                      "move_seconds": [round(m, 3) for m in moves]})
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    moves = [m for g in games for m in g["move_seconds"]]
    guesses = [g["guesses"] for g in games]
    return {"game": spec, "player": player, "move_time": move_time, "secrets": secrets,
            "seed": seed, "startup_seconds": round(startup, 2),
            "max_move_seconds": round(max(moves), 2),
            "median_move_seconds": round(statistics.median(moves), 2),
            "mean_guesses": round(statistics.mean(guesses), 2), "max_guesses": max(guesses),
            "cut_moves": sum(g["cut_moves"] for g in games), "moves": len(moves),
            "peak_mib": round(peak_mib), "games": games}


def run_child(spec: str, player: str, args) -> dict:
    """:func:`play_one` in a fresh Python, for a peak memory of its own."""
    cmd = [sys.executable, __file__, "--one", spec, player, "--secrets", str(args.secrets),
           "--move-time", str(args.move_time), "--seed", str(args.seed)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def markdown(rows: list[dict], command: str, seconds: float, load: tuple) -> str:
    lines = [
        "# Playing big games move by move",
        "",
        "Seeded secrets played by `scripts/bench_play.py` as `optimal-mm play --secret`",
        "plays them: each move (choosing the guess, then filtering by its answer) is",
        "timed; start-up (imports, listing the codes once) is apart. *cut* counts the",
        "moves the clock cut short (the best guess scored so far was played). Peak",
        "memory is the child process's maximum resident set.",
        "",
        f"Command: `{command}` (optimal_mm {__version__}, Python "
        f"{platform.python_version()}). Machine: {MACHINE} (load average {load[0]:.1f} at",
        f"the start, {load[1]:.1f} at the end): the seconds are under that load and only",
        "indicative; guesses are counts.",
        "",
        "| game | player | move time (s) | secrets | guesses mean | guesses max | "
        "move max (s) | move median (s) | cut moves | start-up (s) | peak memory (MiB) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['player']} | {r['move_time']:g} | {r['secrets']} | "
            f"{r['mean_guesses']:.2f} | {r['max_guesses']} | {r['max_move_seconds']:.2f} | "
            f"{r['median_move_seconds']:.2f} | {r['cut_moves']}/{r['moves']} | "
            f"{r['startup_seconds']:.2f} | {r['peak_mib']:,} |")
    lines += ["", f"Whole run: {seconds:.0f} s.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=[*SUITES, "all"], default="all")
    parser.add_argument("--secrets", type=at_least(1), default=2,
                        help="secrets per game (default 2)")
    parser.add_argument("--move-time", type=float, default=5.0,
                        help="seconds per move (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", default="results", help="output folder (default results)")
    parser.add_argument("--one", nargs=2, metavar=("GAME", "PLAYER"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:  # refused here, not in the process of each game (which failed in a traceback)
        check_move_time(args.move_time)
    except ValueError as exc:
        parser.error(str(exc))
    if args.one:
        print(json.dumps(play_one(*args.one, args.secrets, args.move_time, args.seed)))
        return 0
    results = Path(args.results)
    if results.exists() and not results.is_dir():
        parser.error(f"--results {args.results} is not a folder")
    try:  # before the games, which take minutes, not after them
        results.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        parser.error(f"--results {args.results}: {exc.strerror or exc}")
    command = "python scripts/bench_play.py" + "".join(
        f" {flag} {value}" for flag, value, default in [
            ("--suite", args.suite, "all"), ("--secrets", args.secrets, 2),
            ("--move-time", f"{args.move_time:g}", "5"), ("--seed", args.seed, 0)]
        if str(value) != str(default))
    cases = [c for name, cs in SUITES.items() if args.suite in (name, "all") for c in cs]
    start = time.perf_counter()
    load_start = os.getloadavg()[0]
    rows = []
    for spec, player in cases:
        row = run_child(spec, player, args)
        rows.append(row)
        print(f"{spec:8} {player:8} guesses {row['mean_guesses']:.2f}/{row['max_guesses']}  "
              f"move max {row['max_move_seconds']:.2f} s median "
              f"{row['median_move_seconds']:.2f} s  cut {row['cut_moves']}/{row['moves']}  "
              f"peak {row['peak_mib']} MiB", flush=True)
    seconds = time.perf_counter() - start
    load = (load_start, os.getloadavg()[0])
    doc = {"command": command, "machine": MACHINE, "solver": f"optimal_mm {__version__}",
           "python": platform.python_version(), "total_seconds": round(seconds, 1),
           "load_average": [round(x, 1) for x in load], "rows": rows}
    stem = "bench_play" if args.suite == "all" else f"bench_play-{args.suite}"
    atomic_write_text(results / f"{stem}.json", json.dumps(doc, indent=2) + "\n")
    atomic_write_text(results / f"{stem}.md", markdown(rows, command, seconds, load))
    print(f"wrote {results / stem}.md and .json")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("bench_play.py", main))
