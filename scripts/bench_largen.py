"""Questions used by the large-n strategies of seed 004, for n = 8 .. 1024.

For each n, a seeded set of random secrets is played to the end by

* ``coin-weighing`` on ``pNc2b`` (two colours, black pegs only),
* ``blocks`` on ``pNcNb`` (n colours, black pegs only),
* the consistent-guess player of :mod:`optimal_mm.consistent` (CP-SAT), where it
  reaches (``--consistent-max-pegs``), when that module is installed,

and the mean and max number of questions are tabulated beside ``n``,
``2n / log2 n`` (coin weighing) and ``n log2 log2 n`` (blocks). Questions count
the winning guess; "known after" counts the questions until the answers
determine the secret (the seed's count). With ``--static`` it also proves the
static values (:mod:`optimal_mm.static`) of a list of small games, and with
``--exhaustive`` it plays every secret of the small games of the exhaustive tests.

Writes ``results/largen.md``, ``results/largen.json`` and, when matplotlib is
installed (``pip install -e '.[plot]'``), the plot ``results/largen.png``.

Run from the repository root::

    python scripts/bench_largen.py --exhaustive --static
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import platform
import sys
import time
from pathlib import Path

import numpy as np

from optimal_mm import Game, __version__
from optimal_mm.game import MAX_PEGS
from optimal_mm.cli import at_least
from optimal_mm.heuristics import check_move_time
from optimal_mm.largen import BlackPegOracle, Blocks, CoinWeighing, blocks, coin_weighing, play
from optimal_mm.tree import atomic_write_text

SIZES = (8, 16, 32, 64, 128, 256, 512, 1024)
STATIC_GAMES = tuple(f"p{n}c2b" for n in range(1, 9)) + (
    "p2c3b", "p3c3b", "p4c3b", "p2c4b", "p3c4b", "p2c5b",
    "p2c3", "p3c3", "p4c3", "p2c4", "p3c4", "p2c6")
# OEIS A303735 (metric dimension of the hypercube Q_n), n = 1..13
A303735 = (1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8)
MACHINE = "2 CPU cores shared with other work, Linux"


def _theory_player(cls, colours_of):
    def run(n: int, secret: np.ndarray) -> tuple[int, int]:
        record = play(cls(n, colours_of(n)), BlackPegOracle(secret).ask)
        assert record.secret.tolist() == secret.tolist()
        return record.guesses, record.known_after
    return run


def consistent_player(move_time: float):
    """The section-2 consistent-guess player, or None where it is not installed."""
    try:
        from optimal_mm.consistent import ConsistentCodebreaker
    except ImportError:
        return None

    def run(n: int, secret: np.ndarray, spec: str) -> tuple[int, int]:
        game = Game.from_spec(spec)
        breaker = ConsistentCodebreaker(game, move_time=move_time, seed=0)
        colours = tuple(int(c) for c in secret)
        while not breaker.solved:
            guess = game.parse_code(breaker.next_guess())
            breaker.tell(game.score_colours(guess, colours))
        return breaker.guesses, breaker.guesses
    return run


def measure(sizes, n_secrets: int, seed: int, consistent_max: int, move_time: float) -> list:
    players = {
        "coin-weighing": ("c2b", _theory_player(CoinWeighing, lambda n: 2), lambda n: 2),
        "blocks": ("cNb", _theory_player(Blocks, lambda n: n), lambda n: n),
    }
    consistent = consistent_player(move_time)
    rows = []
    for n in sizes:
        row = {"n": n, "2n/log2n": round(2 * n / math.log2(n), 1),
               "n*log2log2n": round(n * math.log2(math.log2(n)), 1)}
        rng = np.random.default_rng([seed, n])
        for name, (kind, run, colours_of) in players.items():
            secrets = [rng.integers(0, colours_of(n), n) for _ in range(n_secrets)]
            start = time.perf_counter()
            used = [run(n, s) for s in secrets]
            row[name] = _summary(used, time.perf_counter() - start)
            if consistent is not None and n <= consistent_max:
                spec = f"p{n}c2b" if kind == "c2b" else f"p{n}c{n}b"
                start = time.perf_counter()
                used = [consistent(n, s, spec) for s in secrets]
                row[f"consistent {kind}"] = _summary(used, time.perf_counter() - start)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _summary(used, seconds: float) -> dict:
    guesses = [g for g, _ in used]
    known = [k for _, k in used]
    return {"mean": round(float(np.mean(guesses)), 2), "max": int(max(guesses)),
            "known_mean": round(float(np.mean(known)), 2), "secrets": len(used),
            "seconds": round(seconds, 2)}


def exhaustive_rows() -> list:
    """Every secret of p4c2b .. p12c2b (coin-weighing) and p4c4b, p5c5b (blocks)."""
    cases = [(CoinWeighing, n, 2, coin_weighing.guess_bound(n)) for n in range(4, 13)]
    cases += [(Blocks, n, n, blocks.guess_bound(n, n)) for n in (4, 5)]
    rows = []
    for cls, n, colours, bound in cases:
        guesses = []
        for secret in itertools.product(range(colours), repeat=n):
            record = play(cls(n, colours), BlackPegOracle(secret).ask)
            assert record.secret.tolist() == list(secret)
            guesses.append(record.guesses)
        row = {"game": f"p{n}c{colours}b", "strategy": cls.name, "secrets": len(guesses),
               "mean": round(float(np.mean(guesses)), 3), "max": max(guesses), "bound": bound}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def static_values(games) -> list:
    from optimal_mm.static import solve_static

    rows = []
    for spec in games:
        game = Game.from_spec(spec)
        start = time.perf_counter()
        solution = solve_static(game)
        seconds = time.perf_counter() - start
        solution.validate()
        row = {"game": spec, "codes": game.n_codes, "static": solution.size,
               "nodes": solution.nodes, "seconds": round(seconds, 2),
               "questions": [game.code_str(q) for q in solution.questions]}
        if game.colours == 2 and game.black_only:
            row["A303735"] = A303735[game.pegs - 1]
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def markdown(doc: dict) -> str:
    rows = doc["rows"]
    extra = sorted({k for r in rows for k in r if k.startswith("consistent")})
    head = ["n", "2n/log2 n", "n log2 log2 n", "coin-weighing mean", "max", "known after",
            "ratio to 2n/log2 n", "blocks mean", "max", "known after",
            "ratio to n log2 log2 n"] + [f"{k} mean / max" for k in extra]
    lines = [
        "# Large games: the theory's strategies (seed 004)",
        "",
        f"Command: `{doc['command']}` (optimal_mm {doc['solver']}, Python {doc['python']}). "
        f"Machine: {MACHINE}.",
        "",
        f"Questions to find a random secret ({doc['secrets']} seeded secrets per n, seed "
        f"{doc['seed']}), the winning guess included; *known after*: mean questions until",
        "the answers determine the secret (the seed text's count). coin-weighing plays "
        "pNc2b, blocks plays pNcNb.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---:|" * len(head),
    ]
    for r in rows:
        cw, bl = r["coin-weighing"], r["blocks"]
        cells = [r["n"], r["2n/log2n"], r["n*log2log2n"], cw["mean"], cw["max"],
                 cw["known_mean"], f"{cw['known_mean'] / r['2n/log2n']:.2f}",
                 bl["mean"], bl["max"], bl["known_mean"],
                 f"{bl['known_mean'] / r['n*log2log2n']:.2f}"]
        cells += [f"{r[k]['mean']} / {r[k]['max']}" if k in r else "-" for k in extra]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    if not extra and consistent_player(1.0) is None:
        lines += ["", "The consistent-guess player (`optimal_mm.consistent`) was not installed "
                      "when this ran; its columns appear when it is."]
    elif not extra:
        most = doc.get("consistent_max_pegs")
        lines += ["", f"The consistent-guess player played none of these sizes (it plays "
                      f"those of at most {most} pegs, `--consistent-max-pegs`)."]
    lines += [
        "",
        "coin-weighing asks the all-colour-1 question, then the rows of explicit detecting",
        "matrices (a recursive doubling; `optimal_mm.largen.weighing`), so it is the same",
        "for every secret but for the adaptive finish; the ratio columns divide the",
        "questions until the secret is known by the theory's figure. blocks spends about",
        "2n on the zero colours and the colour counts of the whole block, then about",
        "2n / (i - 1) on halving level i (the seed's estimate), O(n log log n) in all.",
        "",
    ]
    exhaustive = doc.get("exhaustive")
    if exhaustive:
        lines += [
            "## Every secret of the small games",
            "",
            "Each strategy played against every secret (all found); guesses include the",
            "winning one; *bound*: the most the strategy can take (`guess_bound`).",
            "",
            "| game | strategy | secrets | mean | max | bound |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for r in exhaustive:
            lines.append(f"| {r['game']} | {r['strategy']} | {r['secrets']} | {r['mean']} | "
                         f"{r['max']} | {r['bound']} |")
        lines.append("")
    static = doc.get("static")
    if static:
        lines += [
            "## Static play: the fewest questions asked all at once",
            "",
            "`optimal-mm solve GAME --objective static`: proven minimal by the search of",
            "`optimal_mm.static` (iterative deepening from the counting bound, symmetry",
            "reduction). For pNc2b this is the metric dimension of the hypercube, OEIS A303735.",
            "Seconds are wall time under load and only indicative.",
            "",
            "| game | codes | static questions | A303735 | search nodes | seconds | questions |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        for r in static:
            lines.append(f"| {r['game']} | {r['codes']} | {r['static']} | "
                         f"{r.get('A303735', '')} | {r['nodes']} | {r['seconds']} | "
                         f"{' '.join(r['questions'])} |")
        lines.append("")
    return "\n".join(lines)


def plot(doc: dict, path: Path) -> bool:
    try:
        import matplotlib
    except ImportError:
        print("matplotlib is not installed (pip install -e '.[plot]'): no plot")
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = doc["rows"]
    n = [r["n"] for r in rows]
    fig, ax = plt.subplots(figsize=(7.5, 5))
    ax.plot(n, n, "k:", label="n")
    ax.plot(n, [r["2n/log2n"] for r in rows], "C0--", label="2n / log2 n")
    ax.plot(n, [r["n*log2log2n"] for r in rows], "C1--", label="n log2 log2 n")
    ax.plot(n, [r["coin-weighing"]["mean"] for r in rows], "C0o-",
            label="coin-weighing (pNc2b)")
    ax.plot(n, [r["blocks"]["mean"] for r in rows], "C1s-", label="blocks (pNcNb)")
    for k, style in (("consistent c2b", "C2^-"), ("consistent cNb", "C3v-")):
        pts = [(r["n"], r[k]["mean"]) for r in rows if k in r]
        if pts:
            ax.plot(*zip(*pts), style, label=f"consistent guesses, CP-SAT ({k[11:]})")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel("pegs n")
    ax.set_ylabel("questions (mean over seeded secrets)")
    ax.set_title("Large black-peg games: questions against n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results", help="output folder (default results)")
    parser.add_argument("--secrets", type=at_least(1), default=10,
                        help="secrets per n (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=at_least(3, MAX_PEGS), nargs="+", default=list(SIZES),
                        metavar="N", help=f"numbers of pegs to play, 3..{MAX_PEGS} (the table "
                                          f"divides by n log2 log2 n, 0 at n = 2; default "
                                          f"{' '.join(map(str, SIZES))})")
    parser.add_argument("--exhaustive", action="store_true",
                        help="also play every secret of p4c2b .. p12c2b and p4c4b, p5c5b")
    parser.add_argument("--static", action="store_true",
                        help="also prove the static values of the small games")
    parser.add_argument("--consistent-max-pegs", type=int, default=32,
                        help="largest n for the consistent-guess player (default 32)")
    parser.add_argument("--move-time", type=float, default=10.0,
                        help="seconds per move for the consistent-guess player (default 10)")
    args = parser.parse_args(argv)
    if args.consistent_max_pegs < 0:
        parser.error(f"--consistent-max-pegs must be 0 or more, got {args.consistent_max_pegs}")
    try:
        check_move_time(args.move_time)
    except ValueError as exc:
        parser.error(str(exc))
    command = "python scripts/bench_largen.py " + " ".join(argv if argv is not None
                                                           else sys.argv[1:])
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    doc = {"command": command.strip(), "solver": __version__, "machine": MACHINE,
           "python": platform.python_version(), "secrets": args.secrets, "seed": args.seed,
           "rows": measure(args.sizes, args.secrets, args.seed, args.consistent_max_pegs,
                           args.move_time),
           "exhaustive": exhaustive_rows() if args.exhaustive else None,
           "consistent_max_pegs": args.consistent_max_pegs}
    if args.static:
        doc["static"] = static_values(STATIC_GAMES)
    doc["total_seconds"] = round(time.perf_counter() - start, 1)
    atomic_write_text(results / "largen.json", json.dumps(doc, indent=1) + "\n")
    atomic_write_text(results / "largen.md", markdown(doc)
                      + f"Whole run: {doc['total_seconds']} s.\n")
    wrote = [results / "largen.md", results / "largen.json"]
    if plot(doc, results / "largen.png"):
        wrote.append(results / "largen.png")
    print("wrote " + ", ".join(str(p) for p in wrote))
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("bench_largen.py", main))
