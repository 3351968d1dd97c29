#!/usr/bin/env python3
"""Bring the cells a run of the optimal table proved in another checkout into this one.

A table run of hours is best made in a checkout of its own (``git worktree add``):
the code it imports and the checkpoints it writes then stay as they were when it
began, while work on this checkout goes on. When it ends, its results are in that
checkout's ``results/``. This script merges them here, cell by cell, as if the run
had been made here:

* each cell named by ``--only`` takes the other checkout's entry, merged into this
  table's as a run's result is (``table_entries.merged_entry``: a timeout keeps the
  best bounds of both, an error never wipes a proof), under the table's lock;
* the runs that checkout recorded and this table lacks are added to its run
  paragraphs, in their order, each ``--note`` given as the note of one of them, in
  the same order;
* the cell's upper tree (``results/upper_trees.json`` and ``trees/upper/``), where
  the other checkout's differs from this one's and is the tree of its merged ``≤``;
* the checkpoint's task files that this checkout lacks, under
  ``results/checkpoints/<spec>-<objective>[-consistent]`` (a task file is named by
  its task, so one already here is kept as it is).

Nothing is searched. The table's page and the upper trees' page are rewritten; run
``python scripts/open_cells.py`` after it for the open cells' report. A cell the
other checkout lacks, an entry or tree there that cannot be read, or a merge that
would lose a proof (a solved cell against an open one), is refused before anything
is written: one line, exit 2.

Usage::

    python scripts/merge_table_run.py ../tablerun --only p6c7n/any/expected \\
        --note "2026-12-06, 09:29 to 11:34 UTC, commit 19c05f5, ...: what it did"
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm.errors import OptimalMMError  # noqa: E402
from optimal_mm.outputs import atomic_write_bytes  # noqa: E402
from optimal_mm.tree import Strategy  # noqa: E402

import table_store  # noqa: E402
from table_entries import RESULTS, checkpoint_dir, merged_entry  # noqa: E402
from upper_index import figures, read_field, rows, update_index  # noqa: E402


class MergeError(OptimalMMError):
    """A merge refused before anything is written: what is wrong, in one line."""


def read_source(source: Path, keys: list[str]) -> tuple[dict, list, list]:
    """The other checkout's entries of ``keys``, its recorded runs and its upper trees'
    rows; :class:`MergeError` where it is not a checkout with a table holding them."""
    table = source / "results" / "optimal_table.json"
    if not table.is_file():
        raise MergeError(f"{str(source)!r} has no results/optimal_table.json")
    try:
        entries = read_field(table, "entries", dict)
        meta = read_field(table, "meta", dict)
        upper = rows(source / "results")
    except ValueError as exc:
        raise MergeError(f"cannot read {exc}") from None
    missing = [k for k in keys if k not in entries]
    if missing:
        raise MergeError(f"not in {str(table)!r}: {' '.join(missing)}")
    for key in keys:
        check_entry(key, entries[key], table)
    return {k: entries[k] for k in keys}, meta.get("runs", []), upper


#: What every entry of the table holds, whatever its status.
ENTRY_KEYS = frozenset({"spec", "codes", "guesses", "objective", "status", "seconds"})
STATUSES = ("solved", "timeout", "error")


def check_entry(key: str, entry, table: Path) -> None:
    """Refuse an entry that the table could not hold: not an object, one lacking a
    field of :data:`ENTRY_KEYS`, of another cell than its key, or of an unknown
    status (a solved one without its value)."""
    ok = (isinstance(entry, dict) and ENTRY_KEYS <= entry.keys()
          and key == f"{entry['spec']}/{entry['guesses']}/{entry['objective']}"
          and entry["status"] in STATUSES
          and (entry["status"] != "solved" or "value" in entry))
    if not ok:
        raise MergeError(f"{str(table)!r}: entry {key} is not a table entry (it needs "
                         f"{', '.join(sorted(ENTRY_KEYS))}, a status of "
                         f"{', '.join(STATUSES)}, and its value once solved)")


def check_no_proof_lost(ours: dict, theirs: dict) -> None:
    """Refuse a cell solved here that the other checkout has open: its run began from
    an older table, and merging it would only be a mistake of direction."""
    lost = [k for k, e in theirs.items()
            if ours.get(k, {}).get("status") == "solved" and e["status"] != "solved"]
    if lost:
        raise MergeError(f"solved here, open there (merging would lose the proof): "
                         f"{' '.join(lost)}")


def new_runs(ours: list, theirs: list, notes: list[str] | None) -> list:
    """The runs of the other checkout this table lacks, in its order; ``notes``, if
    given, replace their notes one by one (refused unless there are as many runs to
    bring as notes). A run here that differs from one there by its note alone is the
    same run, its note rewritten by an earlier merge: it is not brought again. (Two
    runs of one command differ by when they began, ``started``, recorded since
    2026-12-06; two older ones of one command were one run, the later replacing the
    earlier.)"""
    def bare(run):
        return {k: v for k, v in run.items() if k != "note"}

    brought = [dict(r) for r in theirs if bare(r) not in map(bare, ours)]
    if notes:
        if len(brought) != len(notes):
            raise MergeError(f"{len(notes)} --note for {len(brought)} run(s) to bring "
                             f"(one each, in their order)")
        for run, note in zip(brought, notes):
            run["note"] = note
    return brought


def copy_tasks(source: Path, target: Path) -> int:
    """Copy the task files of checkpoint folder ``source`` that ``target`` lacks, each
    written whole (a temporary file renamed); returns how many were copied."""
    if not source.is_dir():
        return 0
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    for path in sorted(source.iterdir()):
        if not path.is_file() or (target / path.name).exists():
            continue
        fd, tmp = tempfile.mkstemp(dir=target, prefix=f".{path.name}.")
        os.close(fd)
        try:
            shutil.copyfile(path, tmp)
            os.replace(tmp, target / path.name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        copied += 1
    return copied


def merge(source: Path, keys: list[str], notes: list[str] | None = None,
          results: Path | None = None) -> list[str]:
    """Merge cells ``keys`` of the checkout at ``source`` into the table, upper trees
    and checkpoints under ``results`` (this checkout's by default); returns the lines
    that say what changed. Every refusal comes before anything is written; then the
    checkpoint tasks, the table and the upper trees are written in that order, so that
    a merge cut short leaves nothing that the same merge run again would not complete.
    """
    results = RESULTS if results is None else results
    if (source / "results").resolve() == results.resolve():
        raise MergeError(f"{str(source)!r} is this checkout")
    theirs, their_runs, their_upper = read_source(source, keys)
    # The checks on the table as it is now; made again under its lock when it is written
    try:
        here = (json.loads(table_store.JSON_PATH.read_text())
                if table_store.JSON_PATH.exists() else {})
    except ValueError as exc:
        raise MergeError(f"cannot read {str(table_store.JSON_PATH)!r}: {exc}") from None
    check_no_proof_lost(here.get("entries", {}), theirs)
    new_runs(here.get("meta", {}).get("runs", []), their_runs, notes)
    trees, said, kept = {}, [], rows(results)
    for row in their_upper:  # each replayed for every secret before anything is written
        if row["key"] in theirs and row not in kept:
            replayed = figures(Strategy.load(source / "results" / row["file"]))
            if any(replayed[k] != row[k] for k in replayed):
                said.append(f"{row['key']}: upper tree not taken: its file replays as "
                            f"{replayed}, not as its row says")
            else:
                trees[row["key"]] = row
    for key in keys:
        spec, guesses, objective = key.split("/")
        folder = Path(checkpoint_dir("", spec, guesses, objective))
        copied = copy_tasks(source / "results" / "checkpoints" / folder,
                            results / "checkpoints" / folder)
        said.append(f"{key}: {copied} task file(s) copied to checkpoints/{folder}")

    def change(entries, meta):
        check_no_proof_lost(entries, theirs)  # again, under the lock
        runs = new_runs(meta.get("runs", []), their_runs, notes)
        for key, entry in theirs.items():
            entries[key] = merged_entry(entries.get(key), entry)
        meta["runs"] = meta.get("runs", []) + runs
        said.append(f"table: {', '.join(keys)}; {len(runs)} run(s) added")

    entries, _ = table_store.update_table(change)
    # A tree is the cell's witness only where the merged table's ≤ is its figure
    made = [row for key, row in trees.items()
            if entries[key]["status"] == "timeout" and row["value"] == entries[key].get("best")]
    for row in made:
        (results / row["file"]).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(results / row["file"], (source / "results" / row["file"])
                           .read_bytes())
        said.append(f"{row['key']}: upper tree {row['value']}, replayed ({row['file']})")
    if made:
        update_index(results, entries, made, rewrite=True)
    return said


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the other checkout's folder")
    parser.add_argument("--only", nargs="+", required=True, metavar="SPEC/GUESSES/OBJECTIVE",
                        help="the cells to bring, e.g. p6c7n/any/expected")
    parser.add_argument("--note", action="append", dest="notes", metavar="NOTE",
                        help="the note of a run brought (its paragraph in the table's "
                             "runs): once for each run, in their order")
    args = parser.parse_args(argv)
    try:
        for line in merge(args.source, args.only, args.notes):
            print(line)
    except (OSError, ValueError) as exc:  # the project's errors subclass ValueError
        print(f"merge_table_run.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # Ctrl-C, bad input: one line, its status

    sys.exit(guarded("merge_table_run.py", main))
