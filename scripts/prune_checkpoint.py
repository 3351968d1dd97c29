#!/usr/bin/env python3
"""Remove a checkpoint's copies of parts too quick to keep.

A rival chain's small parts are solved exactly, one value task each
(``search_tasks.value_task``). A part that is a renaming of one solved before in
the run takes that one's value instead (``RivalRaces._renamed_values``), and the
value is saved as the part's own entry: untimed, with no work of its own. Until
2026-12-07 such a copy was saved whatever the part it renames had taken, even a
part solved in less than ``--checkpoint-min-seconds`` and so never saved itself:
p5c8nb's consistent expected run wrote 23,491 copies in 40 minutes beside 586
other entries. A copy is saved now only where the checkpoint holds the part it
renames; this script removes those saved before that did not.

A copy is an ``_exp_part_task`` entry of a value task (no budget, no tree) with no
timing and no work. It is removed unless the checkpoint holds a value task that is
not a copy, of the same run, guesses left, cap weight and number of secrets: a
renaming has as many secrets as the part it renames, so without such an entry the
part it renames is not held. The rule keeps some copies that the exact test (the
parts, rebuilt, matched by renaming) would remove; it never removes one whose part
is held. Nothing else is touched: a checkpoint is a store of answers, and one
removed is computed again when a run asks for it (here, at the cost of a part
solved in less than the minimum time, then found renamed again).

Usage::

    python scripts/prune_checkpoint.py results/checkpoints/p5c8nb-expected-consistent
    python scripts/prune_checkpoint.py DIR --dry-run    # count, remove nothing
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm._search_arrays import INF  # noqa: E402
from optimal_mm.checkpoint import read_entry  # noqa: E402
from optimal_mm.errors import InvalidOptionError  # noqa: E402


def value_slot_of(entry) -> tuple | None:
    """``(run, guesses left, cap weight, secrets)`` of an entry that is a value task
    (:func:`optimal_mm.search_tasks.value_task`: an ``_exp_part_task`` with no budget
    and no tree), else None."""
    task = entry["task"]
    if task["function"] != "_exp_part_task":
        return None
    _, part, budget, d, want_tree, weight = task["args"]
    if budget != INF or want_tree:
        return None
    run = json.dumps(entry["run"], sort_keys=True)
    return run, d, weight, part["shape"][0]


def is_copy(entry) -> bool:
    """Whether a value task's entry is a renaming's copy: no timing, no work."""
    counters = entry["result"][2]
    return entry["timing"] is None and not any(int(c) for c in counters)


def plan(directory: Path) -> tuple[list[Path], int, int]:
    """``(removable, kept, other)``: the copies whose part is not held, the number of
    copies kept, and the number of the directory's other entries (damaged or
    foreign files are neither read nor touched)."""
    held = set()
    copies = []
    other = 0
    for path in sorted(directory.glob("task-*.json")):
        entry = read_entry(path)
        if entry is None:
            continue
        slot = value_slot_of(entry)
        if slot is None:
            other += 1
        elif is_copy(entry):
            copies.append((slot, path))
        else:
            held.add(slot)
            other += 1
    removable = [path for slot, path in copies if slot not in held]
    return removable, len(copies) - len(removable), other


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="a checkpoint directory")
    parser.add_argument("--dry-run", action="store_true",
                        help="count the copies that would go, remove nothing")
    args = parser.parse_args(argv)
    directory = Path(args.directory)
    if not args.directory or not directory.is_dir():  # ('' would be this folder)
        raise InvalidOptionError(f"checkpoint {args.directory!r} is not a directory")
    removable, kept, other = plan(directory)
    if not args.dry_run:
        for path in removable:
            path.unlink(missing_ok=True)
    verb = "would remove" if args.dry_run else "removed"
    print(f"{directory}: {verb} {len(removable):,} copies of parts not held; kept "
          f"{kept:,} copies (a value task of their size held) and {other:,} other entries")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("prune_checkpoint.py", main))
