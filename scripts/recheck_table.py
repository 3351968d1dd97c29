"""Re-solve the optimal table's solved entries with the current search and compare.

A change to the search that should leave every value as it was (a new cut, a new
key for the transposition table) is checked here against everything the table has
proven, not only against the tests' games::

    python scripts/recheck_table.py --specs 'p\\d+c\\d+b' --max-codes 12000
    python scripts/recheck_table.py --table OLD.json   # e.g. from git show REV:...

Each entry is solved in this process, one at a time (``jobs=1``), and printed with
the table's value, the new one and both times. The exit status is 1 if any value
differs (or a search fails), 0 otherwise; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm.errors import OptimalMMError  # noqa: E402
from optimal_mm.search import OBJECTIVES, solve  # noqa: E402


#: What a solved entry must hold to be re-solved and compared.
FIELDS = ("spec", "codes", "objective", "guesses", "value", "seconds")


def entries(table: dict, specs: str, max_codes: int, objectives,
            min_codes: int = 0) -> list[tuple[str, dict]]:
    """The solved entries whose spec matches ``specs`` (a regular expression, whole
    spec), of ``min_codes`` to ``max_codes`` codes, smallest games first; a solved
    entry without one of :data:`FIELDS` is refused (ValueError)."""
    pattern = re.compile(specs)
    out = []
    for key, e in table["entries"].items():
        if e.get("status") != "solved":
            continue
        missing = [field for field in FIELDS if field not in e]
        if missing:  # refused before any search, not after one
            raise ValueError(f"entry {key} has no {', '.join(missing)}")
        if (pattern.fullmatch(e["spec"]) and min_codes <= e["codes"] <= max_codes
                and (not objectives or e["objective"] in objectives)):
            out.append((key, e))
    return sorted(out, key=lambda item: (item[1]["codes"], item[0]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", default=str(ROOT / "results" / "optimal_table.json"),
                    help="the table's JSON (default: results/optimal_table.json)")
    ap.add_argument("--specs", default=r".*", help="regular expression a spec must match")
    ap.add_argument("--min-codes", type=int, default=0)
    ap.add_argument("--max-codes", type=int, default=2000)
    ap.add_argument("--objectives", nargs="*", default=[], choices=OBJECTIVES,
                    metavar="OBJECTIVE", help=f"only these ({', '.join(OBJECTIVES)}; "
                                              f"default all)")
    args = ap.parse_args(argv)
    if not 0 <= args.min_codes <= args.max_codes:
        ap.error(f"--min-codes and --max-codes must be 0 <= min <= max, got "
                 f"{args.min_codes} and {args.max_codes}")
    try:
        re.compile(args.specs)
    except re.error as exc:
        print(f"recheck_table: --specs is not a regular expression: {exc}", file=sys.stderr)
        return 2
    try:
        table = json.loads(Path(args.table).read_text(encoding="utf-8"))
        todo = entries(table, args.specs, args.max_codes, args.objectives, args.min_codes)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"recheck_table: cannot read {args.table}: {exc}", file=sys.stderr)
        return 2
    bad = 0
    for key, e in todo:
        start = time.perf_counter()
        try:
            value = solve(e["spec"], e["objective"], guesses=e["guesses"], jobs=1).value
        except OptimalMMError as exc:
            value = f"error: {exc}"
        seconds = time.perf_counter() - start
        same = value == e["value"]
        bad += not same
        print(f"{'ok ' if same else 'DIFFERS'} {key}: table {e['value']}, now {value} "
              f"({seconds:.1f} s; table {e['seconds']} s)", flush=True)
    print(f"{len(todo)} entries re-solved, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("recheck_table.py", main))
