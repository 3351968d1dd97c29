#!/usr/bin/env python3
"""The optimal table's open cells and what their checkpoints hold; writes
results/open_cells.{json,md}.

Every entry of ``results/optimal_table.json`` that is not solved (it timed out, or
its worker failed) is an open cell, unless the table closes it through another
entry (:func:`closed_elsewhere`); so is every cell the table needs and has never
run (``eligible`` in ``scripts/table_entries.py``: a column that builds on a solved
entry), listed as "(not run)". A long entry runs with ``--checkpoint
results/checkpoints`` (``scripts/optimal_tables.py``), its finished tasks kept under
``results/checkpoints/<spec>-<objective>[-consistent]``, and ``optimal-mm checkpoint
DIR`` says what such a directory settles without searching
(:mod:`optimal_mm.checkpoint_report`). This script asks it of every open cell at
once and lays the answers side by side, the plan for the sittings to come:

* what the table says of the cell (its proven bounds, as the table prints them) and
  the longest a run of it went without ending (the table's "> s");
* how much work its checkpoint holds: the entries this version's search reads back
  (entries of an older task format are counted apart: the search recomputes them),
  the processor time their tasks took and when the latest one finished;
* what the report can count of the work left, kind by kind, each priced at the mean
  processor time of the finished tasks of its kind (the second guesses of a rival
  chain's part begun at that part's own mean; rival second guesses, before any is
  timed, at their part's tree under the first second guess), and the counts
  it gives *at most* (parts and rival first guesses not begun, which bounds may cut);
* the command that goes on with it: the options of the latest run of the table that
  took it, narrowed to the cell and resuming its checkpoint
  (``optimal_tables.resume_command``).

An estimate from a sample, as the report says: the figures tell which cells are
hours away and which are weeks away, not when a run will end. Nothing here searches;
the report builds each game's answer table (seconds for the biggest games).

Usage::

    python scripts/open_cells.py                 # every open cell, written to results/
    python scripts/open_cells.py --only p5c6 p4c9  # these games' cells, printed only
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimal_mm.checkpoint_report import report  # noqa: E402
from optimal_mm.checkpoint_summary import duration_text, left_text  # noqa: E402
from optimal_mm.outputs import atomic_write_text  # noqa: E402
from optimal_mm.tree import Strategy  # noqa: E402
from table_entries import (OBJECTIVES, checkpoint_dir, eligible,  # noqa: E402
                           floor_checkpoint, floor_for, floor_tree, shown)
from table_page import open_cell  # noqa: E402
from optimal_tables import resume_command  # noqa: E402

RESULTS = ROOT / "results"


def cell_state(entries: dict, entry: dict, checkpoints: Path, runs=()) -> dict:
    """One open cell: the table's entry, what its checkpoint directory holds (its
    runs of this cell's objective and guess rule, this version's task format) and the
    command that goes on with it (from the latest of the table's ``runs`` that took
    it: ``optimal_tables.resume_command``)."""
    spec, guesses, objective = entry["spec"], entry["guesses"], entry["objective"]
    folder = Path(checkpoint_dir(checkpoints, spec, guesses, objective))
    state = {"key": f"{spec}/{guesses}/{objective}", "spec": spec, "guesses": guesses,
             "objective": objective, "codes": entry.get("codes"),
             "status": entry["status"], "cell": open_cell(entries, entry),
             "seconds": entry.get("seconds"), "checkpoint": None,
             "floor": _floor(entries, spec, guesses, objective),
             "resume": resume_command(runs, spec, guesses, objective)}
    if not folder.is_dir():
        return state
    floor = state["floor"]
    tree = floor and floor["tree"] and (Strategy.load(ROOT / floor["tree"]),
                                        f"the optimal tree {floor['tree']}",
                                        floor_checkpoint(checkpoints, floor["entry"],
                                                         guesses))
    mine = [r for r in report(folder, floor=tree or None)
            if r.run.get("objective") == objective and r.run.get("guesses") == guesses]
    used = [r for r in mine if not r.stale]
    timed = [e for r in used for e in r.timed]
    state["checkpoint"] = {
        "directory": shown(folder),
        "entries": sum(r.entries for r in used),
        "stale_entries": sum(r.entries for r in mine if r.stale),
        "cpu_seconds": round(sum(e.cpu for e in timed), 1),
        "timed_entries": len(timed),
        "latest_finished": max((e.finished for e in timed), default=None),
        "left": [row for r in used for row in r.left()],
    }
    return state


def _floor(entries: dict, spec: str, guesses: str, objective: str) -> dict | None:
    """The lower bound the table's run of this cell takes from another solved entry
    (scripts/table_entries.py, ``floor_for``), with that entry's tree where
    results/trees/ has one: the search stops where it meets it, and takes the parts
    the tree settles unsearched, which the checkpoint report counts when it reads
    the checkpoint with that tree (:func:`cell_state`)."""
    floor = floor_for(entries, spec, guesses, objective)
    if floor is None:
        return None
    tree = floor_tree(floor[1], floor[0])
    return {"value": floor[0], "entry": floor[1], "tree": tree and shown(Path(tree))}


def _floor_text(floor: dict) -> str:
    """The ``left`` column's word on a floor: what it may leave unsearched."""
    text = f"a floor applies ({floor['entry']}'s {floor['value']}"
    if floor["tree"]:
        return (text + f", with its tree `{floor['tree']}`, which this count reads the "
                "checkpoint with: the parts its subtrees settle are solved, each big part "
                "starts from its guess and stops at its subtree's cost): the search stops "
                "where the whole meets it, so it may leave some of this unsearched")
    return text + ("): the search stops where it meets it, so it may leave some of this "
                   "unsearched")


def open_cells(table: dict, checkpoints: Path, only=None) -> list[dict]:
    """The state of every open cell of ``table`` (of the specs ``only``, if given), in
    the order of their keys: :func:`open_entries`."""
    entries, runs = table["entries"], table.get("meta", {}).get("runs", [])
    cells = [cell_state(entries, entry, checkpoints, runs)
             for entry in open_entries(entries) if not only or entry["spec"] in only]
    return [c for c in cells if not closed_elsewhere(c["cell"])]


def open_entries(entries: dict) -> list[dict]:
    """The entries that are not solved, and for every game and guess rule in the
    table, an entry of status "not run" for each objective it needs and lacks; by
    key."""
    from optimal_mm import Game

    found = {key: e for key, e in entries.items() if e.get("status") != "solved"}
    for spec, guesses in {(e["spec"], e["guesses"]) for e in entries.values()}:
        for objective in OBJECTIVES:
            key = f"{spec}/{guesses}/{objective}"
            if key not in entries and eligible(entries, spec, guesses, objective):
                found[key] = {"spec": spec, "guesses": guesses, "objective": objective,
                              "status": "not run", "codes": Game.from_spec(spec).n_codes,
                              "seconds": None}
    return [found[key] for key in sorted(found)]


def closed_elsewhere(cell: str) -> bool:
    """Whether the table closes an open entry through another one (the same game under
    the other scoring, ``§``, or a tree of ``optimal-mm within``, ``‡``): its cell is
    then a value, where an open cell begins with its status, ``(timeout)``."""
    return not cell.startswith("(")


def _left_text(row: dict) -> str:
    text = left_text(row)
    if row.get("estimate_seconds") is not None:
        basis = f", {row['price_basis']}" if row.get("price_basis") else ""
        text += f" (about {duration_text(row['estimate_seconds'])}{basis})"
    elif row.get("progress"):  # an unpriced chain: how far its race at the head got
        text += f" ({row['progress']})"
    return text


def summary(cells: list[dict]) -> str:
    """One sentence on the list: how many cells, how many never run, how many have a
    checkpoint, and the tasks and processor time those hold."""
    held = [c["checkpoint"] for c in cells if c["checkpoint"]]
    not_run = sum(c["status"] == "not run" for c in cells)
    return (f"{len(cells)} open cells ({not_run} never run); {len(held)} with a "
            f"checkpoint, holding {sum(h['entries'] for h in held):,} tasks that took "
            f"{duration_text(sum(h['cpu_seconds'] for h in held))} of processor time "
            f"(where timed).")


def markdown(cells: list[dict], command: str, table: Path = RESULTS / "optimal_table.json",
             checkpoints: Path = RESULTS / "checkpoints") -> str:
    lines = [
        "# Open cells of the optimal table",
        "",
        f"Made by `{command}` from {shown(table)} and {shown(checkpoints)} "
        "(nothing searched: each checkpoint read as `optimal-mm checkpoint DIR` reads "
        "it). *table*: the cell as results/optimal_table.md prints it; *longest run*: "
        "the most seconds a run of it went without ending (the table's \"> s\"); "
        "*entries*: the tasks the search reads back "
        "(those of an older task format, recomputed, in brackets); *processor time*: "
        "what those tasks took, summed over processes; *left*: the work the checkpoint "
        "can count, each kind priced at the mean processor time of its finished tasks "
        "(the second guesses of a rival chain's part begun, at that part's own mean; "
        "rival second guesses with none timed yet, at their part's tree under the "
        "first second guess; \"at most\": bounds may cut some). An estimate from a "
        "sample, not a promise.",
        "",
        summary(cells),
        "",
        "| cell | codes | table | longest run s | entries | processor time | latest task "
        "| left |",
        "|---|---:|---|---:|---:|---:|---|---|",
    ]
    for c in cells:
        ck = c["checkpoint"]
        if ck is None:
            held = ["no checkpoint", "", "", "nothing counted"]
        else:
            entries = f"{ck['entries']:,}" + (f" ({ck['stale_entries']:,})"
                                             if ck["stale_entries"] else "")
            held = [entries,
                    duration_text(ck["cpu_seconds"]) if ck["timed_entries"] else "untimed",
                    ck["latest_finished"] or "",
                    "; ".join(_left_text(r) for r in ck["left"]) or "nothing counted"]
        if c.get("floor"):
            held[-1] += "; " + _floor_text(c["floor"])
        seconds = "" if c["seconds"] is None else f"{c['seconds']:,.0f}"
        cell = c["cell"].replace("|", "\\|")
        lines.append(f"| {c['key']} | {c['codes'] or ''} | {cell} | {seconds} | "
                     + " | ".join(held) + " |")
    lines += ["", "## To go on", "",
              "Each cell's command: the options of the latest run of the table that took "
              "it, narrowed to the cell, resuming its checkpoint "
              "(`optimal_tables.resume_command`). Its `--time-limit` is that run's: give "
              "it what the sitting allows, and stop it well before the sitting ends "
              "(docs/LONG_RUNS.md: \"Ctrl-C\" on the time limit, \"A run in a checkout "
              "of its own\" on running it beside other work and merging it back).", ""]
    for c in cells:
        command = f"`{c['resume']}`" if c.get("resume") else "no run of it recorded"
        lines.append(f"* {c['key']}: {command}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="SPEC",
                        help="only these specs, printed (the files keep the whole list)")
    parser.add_argument("--table", type=Path, default=RESULTS / "optimal_table.json",
                        help="the table to read (default results/optimal_table.json)")
    parser.add_argument("--checkpoints", type=Path, default=RESULTS / "checkpoints",
                        help="the checkpoint root (default results/checkpoints)")
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help="where open_cells.json and open_cells.md go (default "
                             "results/)")
    args = parser.parse_args(argv)
    try:
        table = json.loads(args.table.read_text())
        if not all(isinstance(e, dict) and {"spec", "guesses", "objective"} <= e.keys()
                   for e in table["entries"].values()):
            raise ValueError("an entry without its spec, guesses and objective")
        runs = table.get("meta", {}).get("runs", [])
        if not (isinstance(runs, list) and all(
                isinstance(r, dict) and isinstance(r.get("command"), str) for r in runs)):
            raise ValueError("meta.runs is not a list of runs, each with its command")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"open_cells.py: cannot read the table {str(args.table)!r}: {exc}",
              file=sys.stderr)
        return 2
    if not args.out.is_dir():
        print(f"open_cells.py: --out {str(args.out)!r} is not a directory", file=sys.stderr)
        return 2
    if not args.checkpoints.is_dir():  # a mistyped folder would count nothing, silently
        print(f"open_cells.py: --checkpoints {str(args.checkpoints)!r} is not a directory",
              file=sys.stderr)
        return 2
    unknown = sorted(set(args.only or ()) - {e.get("spec") for e in table["entries"].values()})
    if unknown:
        print(f"open_cells.py: not in the table: {' '.join(unknown)}", file=sys.stderr)
        return 2
    cells = open_cells(table, args.checkpoints, args.only)
    if not args.only:
        command = "python scripts/open_cells.py"
        atomic_write_text(args.out / "open_cells.json",
                          json.dumps({"command": command, "cells": cells}, indent=1,
                                     sort_keys=True) + "\n")
        atomic_write_text(args.out / "open_cells.md",
                          markdown(cells, command, args.table, args.checkpoints))
    for c in cells:
        left = c["checkpoint"]["left"] if c["checkpoint"] else []
        print(f"{c['key']}: {c['cell']}; " + ("; ".join(_left_text(r) for r in left)
                                              or "nothing counted"))
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("open_cells.py", main))
