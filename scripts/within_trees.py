#!/usr/bin/env python3
"""Trees that close open worst cases: writes results/within.{json,md} and the trees.

For each worst-case entry of ``results/optimal_table.json`` that timed out with a
proven lower bound ``L`` (its search refuted ``L - 1`` guesses), the bounded search of
:mod:`optimal_mm.within` looks for a tree of ``L`` guesses. A tree found closes the
entry, t* = L: the refutation is the table's, the tree is saved under
``results/trees/within/`` and replayed (every secret) here before it is counted.
None found proves nothing: the entry stays open. With ``--upper N`` it looks instead
for the shallowest tree of ``L + 1`` ... ``L + N`` guesses: an upper bound, which the
table shows as ``≥ L, ≤ D‡``.

Each entry runs in its own process under ``--time-limit`` seconds (killed at the
limit: the compiled search cannot be interrupted otherwise), one at a time;
results are merged into ``results/within.json`` as each entry ends (written
atomically), so an interrupted run keeps what it finished. Usage::

    python scripts/within_trees.py                       # every open worst case
    python scripts/within_trees.py --only p4c10nb/any --time-limit 3600
    python scripts/within_trees.py --upper 3             # else the shallowest of L+1..L+3
    python scripts/within_trees.py --render              # the markdown from the JSON
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "optimal_table.json"
OUT_JSON = ROOT / "results" / "within.json"
OUT_MD = ROOT / "results" / "within.md"
TREES = ROOT / "results" / "trees" / "within"


def counting_bound(spec: str) -> int:
    """The fewest guesses the counting bound allows for all of ``spec``'s codes."""
    from optimal_mm import Game
    from optimal_mm._search_arrays import NO_CAP, INF, lower_bound_table

    game = Game.from_spec(spec)
    lb = lower_bound_table(game.n_codes, len(game.possible_answers) - 1)
    return next(d for d in range(1, NO_CAP + 1) if lb[d, game.n_codes] < INF)


def wc_low(key: str, entries: dict) -> tuple[int, str]:
    """The best lower bound proven on the open worst case ``key``
    (``spec/guesses/worst-case``) and its source: the bound its timed-out search had
    proven (one more than the last depth refuted), the counting bound, and for
    consistent guesses the any-guess entry's value or bound."""
    spec, guesses, _ = key.split("/")
    lows = [(counting_bound(spec), "counting")]
    if entries[key].get("bound"):
        lows.append((entries[key]["bound"], "refuted by its search"))
    if guesses == "consistent":
        twin = entries.get(f"{spec}/any/worst-case", {})
        twin_low = twin.get("value") if twin.get("status") == "solved" else twin.get("bound")
        if twin_low:
            lows.append((twin_low, "the any-guess " + ("optimum" if twin.get("status")
                                                       == "solved" else "bound")))
    return max(lows, key=lambda item: item[0])


def open_worst_cases(table: dict) -> list[tuple[str, str, int]]:
    """``(spec, guesses, L)`` of every timed-out worst-case entry, ``L`` the best
    lower bound proven on it (:func:`wc_low`: its search's, the counting
    bound, for consistent guesses the any-guess entry's), smallest game first."""
    entries = table["entries"]
    rows = []
    for key, entry in entries.items():
        if entry["objective"] == "worst-case" and entry["status"] == "timeout":
            rows.append((entry["codes"], entry["spec"], entry["guesses"],
                         wc_low(key, entries)[0]))
    return [(spec, guesses, low) for _, spec, guesses, low in sorted(rows)]


def tree_path(spec: str, guesses: str, depth: int) -> Path:
    return TREES / f"{spec}-{guesses}-within-{depth}.json.gz"


def _worker(spec, guesses, depth, breadth, exact, path, queue, wc_tree="small-total"):
    from optimal_mm import Game
    from optimal_mm.within import WithinStats, find_within

    stats = WithinStats()
    start = time.perf_counter()
    tree = find_within(Game.from_spec(spec), depth, breadth=breadth, exact=exact,
                       guesses=guesses, stats=stats, wc_tree=wc_tree,
                       report=lambda line: print(f"  {spec}/{guesses}: {line}",
                                                 file=sys.stderr, flush=True))
    seconds = round(time.perf_counter() - start, 2)
    if tree is not None:
        tree.meta["command"] = (f"python scripts/within_trees.py --only {spec}/{guesses} "
                                f"--breadth {breadth} --exact {exact}"
                                + ("" if wc_tree == "small-total" else f" --wc-tree {wc_tree}"))
        tree.save(path)
    queue.put({"found": tree is not None, "seconds": seconds, "stats": str(stats),
               "tree_stats": None if tree is None else tree.declared.to_dict()})


def _covers(kept: dict, record: dict) -> bool:
    """Whether the search of ``kept`` (which found no tree) went at least as far as
    that of ``record`` (which found none either): as wide a beam, as many secrets
    searched exactly, the same tree rule, and ended unless ``record`` did not end
    either. Then ``record`` tells nothing new and ``kept`` stays.

    >>> old = {"breadth": 6, "exact": 300, "status": "done"}
    >>> _covers(old, {"breadth": 3, "exact": 150, "status": "done"})
    True
    >>> _covers(old, {"breadth": 8, "exact": 150, "status": "done"})
    False
    >>> _covers(dict(old, status="timeout"), {"breadth": 3, "exact": 150, "status": "done"})
    False
    """
    return (kept.get("breadth", 0) >= record.get("breadth", 0)
            and kept.get("exact", 0) >= record.get("exact", 0)
            and kept.get("wc_tree") == record.get("wc_tree")
            and (kept.get("status") == "done" or record.get("status") != "done"))


def run_entry(spec, guesses, depth, breadth, exact, limit, wc_tree="small-total") -> dict:
    """One entry in its own process; its record (``found``, ``seconds``, ...).

    ``wc_tree`` is the tree rule of the exact worst-case searches below ``exact``
    secrets (``find_within``); recorded only when it is not the default."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    path = tree_path(spec, guesses, depth)
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = ctx.Process(target=_worker, args=(spec, guesses, depth, breadth, exact, str(path),
                                            queue, wc_tree), daemon=True)
    start = time.perf_counter()
    proc.start()
    proc.join(limit)
    record = {"spec": spec, "guesses": guesses, "depth": depth, "breadth": breadth,
              "exact": exact, "time_limit": limit}
    if wc_tree != "small-total":
        record["wc_tree"] = wc_tree
    if proc.is_alive():
        proc.kill()
        proc.join()
        record.update(found=False, status="timeout",
                      seconds=round(time.perf_counter() - start, 1))
        return record
    try:
        result = queue.get(timeout=10) if proc.exitcode == 0 else None
    except Exception:  # queue.Empty: ended without a word
        result = None
    if result is None:
        record.update(found=False, status="error", exitcode=proc.exitcode)
        return record
    record.update(result, status="done")
    if record["found"]:
        record["tree"] = str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return record


def load_results() -> dict:
    if OUT_JSON.exists():
        return json.loads(OUT_JSON.read_text())
    return {"entries": {}}


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def verified(record: dict) -> bool:
    """Whether a found tree is on disk, for its game and rule, within its depth, and
    replays every secret (what the markdown and the survey count)."""
    from optimal_mm.tree import Strategy

    if not record.get("found"):
        return False
    tree = Strategy.load(ROOT / record["tree"])
    stats = tree.validate()
    return (tree.game.spec == record["spec"] and tree.guesses == record["guesses"]
            and stats.max <= record["depth"] and stats.secrets == tree.game.n_codes)


def standing(key: str, depth: int, table: dict | None) -> str:
    """What the table says of entry ``key`` (``spec/guesses``) now, where that
    supersedes a search of ``depth`` guesses that found no tree: solved since by the
    exhaustive search, or its proven lower bound raised above ``depth``."""
    if table is None:
        return ""
    full = key + "/worst-case"
    entry = table["entries"].get(full)
    if entry is None:
        return ""
    if entry["status"] == "solved":
        return f"t\\* = {entry['value']} since proven by its search"
    low, source = wc_low(full, table["entries"])
    spec, guesses = key.split("/")
    twin = table["entries"].get(f"{spec}/consistent/worst-case", {})
    if guesses == "any" and twin.get("status") == "solved" and twin["value"] == low:
        return f"t\\* = {low} since the consistent optimum meets its bound"
    if low > depth:
        return f"L since raised to {low} ({source})"
    return ""


def least_tree(key: str, results: dict | None = None) -> int | None:
    """The fewest guesses of a tree found for the open worst case ``key``
    (``spec/guesses``), at its bound or above it (``--upper``), replayed here for
    every secret; None if none. For any guesses, a tree of consistent guesses
    counts too: it is a strategy with any guesses."""
    results = load_results() if results is None else results
    spec, guesses = key.split("/")
    keys = [key] + ([f"{spec}/consistent"] if guesses == "any" else [])
    depths = [r["depth"] for k in keys for r in (results["entries"].get(k),
                                                 results.get("upper", {}).get(k))
              if r and verified(r)]
    return min(depths, default=None)


def _row(key: str, r: dict, table: dict | None) -> str:
    ok = verified(r)
    found = ("**found: t\\* = %d**" % r["depth"]) if ok else (
        "none found" if r.get("status") == "done" else r.get("status", "?"))
    ts = r.get("tree_stats") or {}
    at = ts.get("depth_counts", [None])[-1] if ok else ""
    total = ts.get("total", "") if ok else ""
    tree = f"`{r['tree']}`" if ok else ""
    seconds = r.get("seconds", "")
    if r.get("status") == "timeout":
        seconds = f"> {r['time_limit']}"
    exact = r["exact"] if "wc_tree" not in r else f"{r['exact']} ({r['wc_tree']})"
    return (f"| {r['spec']}/{r['guesses']} | {r['depth']} | {found} | {at} | "
            f"{total} | {r['breadth']} | {exact} | {seconds} | {tree} | "
            f"{standing(key, r['depth'], table)} |")


def render(results: dict, table: dict | None = None) -> str:
    lines = ["# Open worst cases closed by a tree (`optimal-mm within`)", "",
             "For each worst-case entry of the optimal table (results/optimal_table.md) "
             "that timed out with a proven lower bound L (its search refuted L - 1 "
             "guesses), the bounded search of `optimal_mm/within.py` looked for a tree "
             "of L guesses (a beam of *breadth* guesses over nodes of more than *exact* "
             "secrets, the exact worst-case search below, its tree rule in brackets "
             "where it is not the default: `first`, `--wc-tree first`). A tree found, "
             "replayed here "
             "for every secret, closes the entry: t* = L. None found proves nothing; "
             "*since* says where the table has moved on (the entry solved by its "
             "exhaustive search, or its bound raised above L).",
             "", "Produced by `python scripts/within_trees.py` on 2 CPUs (one entry at "
             "a time, each in its own process).", "",
             "| entry | L (proven) | tree within L | secrets at L | total | breadth | exact "
             "| seconds | tree file | since |", "|---|---|---|---|---|---|---|---|---|---|"]
    for key, r in sorted(results["entries"].items()):
        lines.append(_row(key, r, table))
    upper = results.get("upper", {})
    if upper:
        lines += ["", "## Upper bounds: the shallowest tree found above L", "",
                  "Where no tree of L guesses was found, `python scripts/within_trees.py "
                  "--upper N` looked for one of L + 1, L + 2, ... L + N guesses, the "
                  "shallowest first: a tree found, replayed for every secret, proves "
                  "t* ≤ its depth (the table's cell then reads ≥ L, ≤ depth‡); a tree of "
                  "consistent guesses bounds the any-guess entry as well.", "",
                  "| entry | depth | tree within depth | secrets at its deepest | total | "
                  "breadth | exact | seconds | tree file | since |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for key, r in sorted(upper.items()):
            lines.append(_row(key, r, table).replace("**found: t\\* = %d**" % r["depth"],
                                                     "found: t\\* ≤ %d" % r["depth"]))
    return "\n".join(lines) + "\n"


def upper_bound(key: str, low: int, args, results: dict) -> dict:
    """Look for the shallowest tree of ``low + 1`` ... ``low + args.upper`` guesses for
    the open worst case ``key`` (none deeper than a tree already found), and merge
    the first found into ``results["upper"]``; the results as written."""
    spec, guesses = key.split("/")
    have = least_tree(key, results)  # == low: closed, nothing to try
    top = low + args.upper if have is None else min(low + args.upper, have - 1)
    for depth in range(low + 1, top + 1):
        record = run_entry(spec, guesses, depth, args.breadth, args.exact, args.time_limit,
                           args.wc_tree)
        print(f"{key} within {depth} (upper bound): "
              f"{'found' if record['found'] else record['status']} "
              f"({record.get('seconds', '?')} s)", flush=True)
        if record["found"]:
            results = load_results()  # another run may have written meanwhile
            kept = least_tree(key, results)
            if kept is None or kept > depth:
                results.setdefault("upper", {})[key] = record
                write_atomic(OUT_JSON, json.dumps(results, indent=1, sort_keys=True) + "\n")
            break
    return results


def main(argv=None) -> int:
    from optimal_mm.search import WC_TREE_RULES

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", metavar="SPEC/GUESSES",
                        help="only these entries, e.g. p4c10nb/any")
    parser.add_argument("--time-limit", type=float, default=1800.0)
    parser.add_argument("--breadth", type=int, default=3)
    parser.add_argument("--exact", type=int, default=150)
    parser.add_argument("--wc-tree", choices=WC_TREE_RULES, default="small-total",
                        help="tree rule of the exact worst-case searches of small parts: "
                             "'first' keeps the first guess the proof finds (faster), "
                             "'small-total' the least total among them")
    parser.add_argument("--redo", action="store_true",
                        help="search entries already found again")
    parser.add_argument("--render", action="store_true",
                        help="search nothing: rewrite the markdown from the JSON")
    parser.add_argument("--upper", type=int, default=0, metavar="N",
                        help="instead of a tree of L guesses, look for the shallowest of "
                             "L + 1 ... L + N (an upper bound; kept only if shallower "
                             "than the one already found)")
    args = parser.parse_args(argv)
    if args.upper < 0:
        parser.error("--upper must not be negative")
    from optimal_mm.errors import OptimalMMError, check_time_limit
    from optimal_mm.within import check_within_options

    try:  # refused before any entry is touched
        check_time_limit(args.time_limit)
        check_within_options(1, args.breadth, args.exact)
    except OptimalMMError as exc:
        parser.error(str(exc))
    from table_store import load_table  # here: the workers need none of it

    results = load_results()
    if not args.render:
        table = load_table(TABLE)
        todo = open_worst_cases(table)
        if args.only:
            unknown = set(args.only) - {f"{s}/{g}" for s, g, _ in todo}
            if unknown:
                print(f"within_trees.py: error: not an open worst case with a proven bound: "
                      f"{', '.join(sorted(unknown))}", file=sys.stderr)
                return 2
            todo = [t for t in todo if f"{t[0]}/{t[1]}" in args.only]
        for spec, guesses, depth in todo:
            key = f"{spec}/{guesses}"
            if args.upper:
                results = upper_bound(key, depth, args, results)
                continue
            old = results["entries"].get(key)
            if old and old.get("found") and old["depth"] == depth and not args.redo:
                continue
            record = run_entry(spec, guesses, depth, args.breadth, args.exact, args.time_limit,
                           args.wc_tree)
            print(f"{key} within {depth}: {'found' if record['found'] else record['status']} "
                  f"({record.get('seconds', '?')} s)", flush=True)
            # Read again before the merge: another run may have written meanwhile; and
            # a tree found there at this depth is kept over a search that found none,
            # as is a search that found none and was at least as wide as this one.
            results = load_results()
            kept = results["entries"].get(key)
            if not (kept and kept["depth"] == depth and not record["found"]
                    and (kept.get("found") or _covers(kept, record))):
                results["entries"][key] = record
            write_atomic(OUT_JSON, json.dumps(results, indent=1, sort_keys=True) + "\n")
    write_atomic(OUT_MD, render(results, load_table(TABLE)))
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("within_trees.py", main))
