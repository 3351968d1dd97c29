"""``scripts/open_cells.py``: every open cell of the optimal table beside what its
checkpoint holds, checked on a small table whose one checkpoint is a real run with
part of its work taken away."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from optimal_mm import Game
from optimal_mm.checkpoint import read_entries
from optimal_mm.search import Solver
from optimal_mm import search_parts

from checkpoint_entries import drop_entries
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]


def _entry(spec, guesses, objective, status, **more):
    return {"spec": spec, "guesses": guesses, "objective": objective, "status": status,
            "codes": Game.from_spec(spec).n_codes, "seconds": 61.0, **more}


def _table(path: Path) -> None:
    entries = [
        _entry("p4c6", "any", "expected", "timeout", bound=5500),  # open, checkpointed
        _entry("p4c6", "any", "worst-case", "solved", value=5),  # solved: not listed
        # Solved, with a tree deeper than t*: the total within t* is needed, not run
        _entry("p3c4", "any", "worst-case", "solved", value=4),
        _entry("p3c4", "any", "expected", "solved", value=206, tree_max=5),
        _entry("p3c3", "any", "expected", "timeout"),  # open, no checkpoint
        _entry("p3c3", "any", "worst-case", "timeout"),
        # Open, but closed through the same game under the other scoring (§)
        _entry("p3c3n", "any", "expected", "timeout"),
        _entry("p3c3nb", "any", "expected", "solved", value=14, tree_max=3),
        *(_entry(spec, "any", objective, "solved", value=3) for spec in ("p3c3n", "p3c3nb")
          for objective in ("worst-case", "fewest-at-worst")),
    ]
    path.write_text(json.dumps({"meta": {}, "entries": {
        f"{e['spec']}/{e['guesses']}/{e['objective']}": e for e in entries}}))


def test_every_open_cell_is_listed_with_its_checkpoint(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    script = load_script("open_cells")
    table, checkpoints, out = tmp_path / "table.json", tmp_path / "ck", tmp_path / "out"
    out.mkdir()
    _table(table)
    folder = checkpoints / "p4c6-expected"  # the table script's name for the entry
    Solver(Game.from_spec("p4c6"), jobs=1, checkpoint=folder,
           table_entries=60_003).solve("expected")
    first_parts = []  # two of the first guess's part tasks removed: a run stopped there

    def keep(fn, args):
        if (fn == "_exp_part_task" and len(args[0]) == 1 and args[4]  # (a tree: not a
                and len(first_parts) < 2):  # chain's small part, its value alone)
            return first_parts.append(args) or False
        return True

    assert drop_entries(folder, keep) == 2
    held = len(list(folder.glob("task-*.json")))
    assert script.main(["--table", str(table), "--checkpoints", str(checkpoints),
                        "--out", str(out)]) == 0
    doc = json.loads((out / "open_cells.json").read_text())
    cells = {c["key"]: c for c in doc["cells"]}
    assert sorted(cells) == ["p3c3/any/expected", "p3c3/any/worst-case",
                             "p3c4/any/fewest-at-worst", "p3c4/any/worst-then-expected",
                             "p4c6/any/expected", "p4c6/any/fewest-at-worst"]
    assert cells["p3c4/any/worst-then-expected"]["status"] == "not run"
    # A total within t* is at least the optimal total: the table says so of it too.
    assert cells["p3c4/any/worst-then-expected"]["cell"] == "(not run) ≥ 206"
    # ... and its run takes it as a floor, which the checkpoint report cannot count
    assert cells["p3c4/any/worst-then-expected"]["floor"] == {
        "value": 206, "entry": "p3c4/any/expected", "tree": None}
    assert cells["p4c6/any/expected"]["floor"] is None
    mm = cells["p4c6/any/expected"]
    assert mm["cell"] == "(timeout) ≥ 5500" and mm["codes"] == 1296
    ck = mm["checkpoint"]
    # Every entry is timed but the answers found in pieces (the chains' small parts),
    # which are timed as their pieces are
    in_pieces = sum(bool((timing or {}).get("pieces")) for *_, timing in read_entries(folder))
    assert ck["entries"] == held and ck["stale_entries"] == 0
    assert ck["timed_entries"] == held - in_pieces and in_pieces > 0
    assert ck["cpu_seconds"] > 0 and ck["latest_finished"].startswith("20")
    (row,) = [r for r in ck["left"] if r["what"].startswith("tasks of the first guess")]
    assert row["tasks"] == 2 and row["estimate_seconds"] is not None
    assert cells["p3c3/any/expected"]["checkpoint"] is None
    md = (out / "open_cells.md").read_text()
    assert "| p4c6/any/expected | 1296 | (timeout) ≥ 5500 | 61 | " in md
    assert "2 tasks of the first guess's exact solve" in md
    assert f"6 open cells (3 never run); 1 with a checkpoint, holding {held:,} tasks" in md
    assert "| p3c3/any/expected | 27 | (timeout) | 61 | no checkpoint |" in md
    assert "p3c3n/" not in md  # 14§: closed through p3c3nb
    assert ("nothing counted; a floor applies (p3c4/any/expected's 206): the search stops "
            "where it meets it") in md
    # --only prints those games' cells and leaves the files (the whole list) alone
    before = {f.name: f.read_bytes() for f in out.iterdir()}
    assert script.main(["--table", str(table), "--checkpoints", str(checkpoints),
                        "--out", str(out), "--only", "p3c3"]) == 0
    assert {f.name: f.read_bytes() for f in out.iterdir()} == before
    printed = capsys.readouterr().out.splitlines()
    assert printed[-2:] == ["p3c3/any/expected: (timeout); nothing counted",
                            "p3c3/any/worst-case: (timeout); nothing counted"]


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    script = ROOT / "scripts" / "open_cells.py"
    run = subprocess.run([sys.executable, str(script), "--table", str(tmp_path / "none.json"),
                          "--out", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("open_cells.py: cannot read the table ")
    assert len(run.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
    table = tmp_path / "table.json"
    _table(table)
    run = subprocess.run([sys.executable, str(script), "--table", str(table), "--only",
                          "p3c3", "p9c9", "--out", str(tmp_path)], capture_output=True,
                         text=True)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "open_cells.py: not in the table: p9c9\n"
    missing = tmp_path / "no-checkpoints"  # mistyped: it had counted nothing, silently
    run = subprocess.run([sys.executable, str(script), "--table", str(table), "--checkpoints",
                          str(missing), "--out", str(tmp_path)], capture_output=True,
                         text=True)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"open_cells.py: --checkpoints {str(missing)!r} is not a directory\n"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["table.json"]
    # The runs the commands to go on are made from, damaged: refused the same way
    doc = json.loads(table.read_text())
    for runs in ([{"note": "no command"}], "abc", [5]):
        table.write_text(json.dumps({**doc, "meta": {"runs": runs}}))
        run = subprocess.run([sys.executable, str(script), "--table", str(table), "--out",
                              str(tmp_path)], capture_output=True, text=True)
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr.endswith("meta.runs is not a list of runs, each with its command\n")
        assert sorted(f.name for f in tmp_path.iterdir()) == ["table.json"]


def test_the_shipped_list_matches_the_shipped_table():
    """results/open_cells.json lists exactly the open cells of
    results/optimal_table.json: rerun the script whenever the table changes."""
    script = load_script("open_cells")
    table = json.loads((ROOT / "results" / "optimal_table.json").read_text())
    entries = table["entries"]
    open_keys = [key for key, e in entries.items() if e.get("status") != "solved"
                 and not script.closed_elsewhere(script.open_cell(entries, e))]
    pairs = {(e["spec"], e["guesses"]) for e in entries.values()}
    open_keys += [f"{spec}/{guesses}/{objective}" for spec, guesses in pairs
                  for objective in script.OBJECTIVES
                  if f"{spec}/{guesses}/{objective}" not in entries
                  and script.eligible(entries, spec, guesses, objective)]
    shipped = json.loads((ROOT / "results" / "open_cells.json").read_text())
    assert [c["key"] for c in shipped["cells"]] == sorted(open_keys)
    for c in shipped["cells"]:
        if c["checkpoint"]:  # named from the repository's root
            assert c["checkpoint"]["directory"].startswith("results/checkpoints/")
        if c["key"] in entries:
            assert c["cell"] == script.open_cell(entries, entries[c["key"]])
        else:
            assert c["status"] == "not run" and c["cell"].startswith("(not run)")


def test_each_shipped_open_cell_says_how_to_go_on():
    """Each open cell's command, made from the latest recorded run that took it, runs
    that cell alone from its checkpoint, with that run's options; and the page lists
    them."""
    script = load_script("open_cells")
    tables = sys.modules["optimal_tables"]
    table = json.loads((ROOT / "results" / "optimal_table.json").read_text())
    shipped = json.loads((ROOT / "results" / "open_cells.json").read_text())
    page = (ROOT / "results" / "open_cells.md").read_text()
    parser = tables.build_parser()
    for c in shipped["cells"]:
        command = c["resume"]
        assert command == tables.resume_command(table["meta"]["runs"], c["spec"],
                                                c["guesses"], c["objective"])
        assert f"* {c['key']}: `{command}`" in page
        words = command.split()
        assert words[:2] == ["python", "scripts/optimal_tables.py"]
        args = parser.parse_args(words[2:])
        assert (args.only, args.guesses, args.objectives) == (
            [c["spec"]], [c["guesses"]], [c["objective"]])
        assert args.retry_timeouts and args.checkpoint == "results/checkpoints"
        assert args.max_codes >= c["codes"]
    # p5c8n's fewest at 7 goes on with the options of its own long runs (p4c8nb's
    # fewest at 9, the example until it was solved, with theirs too)
    p5c8n = next(c for c in shipped["cells"] if c["key"] == "p5c8n/any/fewest-at-worst")
    args = parser.parse_args(p5c8n["resume"].split()[2:])
    assert (args.jobs, args.table_entries, args.chain_secrets,
            args.checkpoint_min_seconds) == (2, 64_000_000, 250, 0.5)
    # A cell no recorded run took has none
    assert script.cell_state(table["entries"], {
        "spec": "p2c2", "guesses": "any", "objective": "expected", "status": "timeout"},
        ROOT / "results" / "checkpoints", runs=[])["resume"] is None
