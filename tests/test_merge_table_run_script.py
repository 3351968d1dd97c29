"""``scripts/merge_table_run.py``: a table run made in another checkout, brought here
cell by cell (entry, run paragraph, upper tree, checkpoint tasks), or refused whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimal_mm import Game
from optimal_mm.search import solve

from script_loader import load_script

KEY = "p3c4/any/expected"
BASE = {"spec": "p3c4", "codes": 64, "guesses": "any", "published": None, "source": None}
WC = {**BASE, "objective": "worst-case", "status": "solved", "value": 4, "seconds": 0.1}
RUN = {"command": "python scripts/optimal_tables.py --only p3c4 --time-limit 60",
       "time_limit": 60.0, "parallel": 1, "note": "the first run"}
LATER = {"command": "python scripts/optimal_tables.py --only p3c4 --time-limit 90",
         "time_limit": 90.0, "parallel": 1, "note": "B"}


def _table(path: Path, expected: dict, runs: list) -> None:
    path.mkdir(parents=True, exist_ok=True)
    doc = {"meta": {"machine": "2 CPUs", "time_limit": 60, "max_codes": 64, "runs": runs},
           "entries": {"p3c4/any/worst-case": WC, KEY: expected}}
    (path / "optimal_table.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")


@pytest.fixture
def checkouts(tmp_path, monkeypatch):
    """This checkout's results (``here``: the cell open at ≥ 150, ≤ 300) and another
    checkout whose run narrowed it to ≥ 190, ≤ the total of a real tree, kept as its
    upper tree, with one checkpoint task this checkout has too and one it lacks."""
    script = load_script("merge_table_run")
    upper_index = load_script("upper_index")
    here, there = tmp_path / "here", tmp_path / "there"
    monkeypatch.setattr(script.table_store, "JSON_PATH", here / "optimal_table.json")
    monkeypatch.setattr(script.table_store, "MD_PATH", here / "optimal_table.md")
    monkeypatch.setattr(script, "RESULTS", here)
    open_cell = {**BASE, "objective": "expected", "status": "timeout", "seconds": 60.0,
                 "bound": 150, "best": 300}
    _table(here, open_cell, [RUN])
    strategy = solve(Game.from_spec("p3c4"), "expected").strategy  # optimal: 206
    total = strategy.validate().total
    tree = Path("trees") / "upper" / "p3c4-any-expected.json.gz"
    (there / "results" / tree).parent.mkdir(parents=True)
    strategy.save(there / "results" / tree)
    row = upper_index.row(KEY, strategy, tree, "optimal-mm solve p3c4 ...", total)
    (there / "results" / "upper_trees.json").write_text(json.dumps({"trees": [row]}))
    _table(there / "results", {**open_cell, "bound": 190, "best": total, "seconds": 90.0},
           [RUN, LATER])
    for folder, names in ((here / "checkpoints", {"task-a.json": "ours"}),
                          (there / "results" / "checkpoints",
                           {"task-a.json": "theirs", "task-b.json": "b"})):
        (folder / "p3c4-expected").mkdir(parents=True)
        for name, text in names.items():
            (folder / "p3c4-expected" / name).write_text(text)
    return script, here, there, total


def test_a_cell_comes_with_its_run_tree_and_tasks(checkouts):
    script, here, there, total = checkouts
    said = script.merge(there, [KEY], notes=["2026-12-06, 09:29 to 11:34 UTC: its run"])
    doc = json.loads((here / "optimal_table.json").read_text())
    entry = doc["entries"][KEY]
    assert (entry["bound"], entry["best"], entry["seconds"]) == (190, total, 90.0)
    assert doc["entries"]["p3c4/any/worst-case"] == WC
    assert doc["meta"]["runs"] == [RUN, {**LATER, "note": "2026-12-06, 09:29 to 11:34 UTC: "
                                                          "its run"}]
    page = (here / "optimal_table.md").read_text()
    assert f"(timeout) ≥ 190, ≤ {total}" in page and "09:29 to 11:34 UTC: its run" in page
    tree = "trees/upper/p3c4-any-expected.json.gz"
    assert (here / tree).read_bytes() == (there / "results" / tree).read_bytes()
    rows = json.loads((here / "upper_trees.json").read_text())["trees"]
    assert [(r["key"], r["value"]) for r in rows] == [(KEY, total)]
    assert (here / "upper_trees.md").exists()
    tasks = here / "checkpoints" / "p3c4-expected"
    assert (tasks / "task-a.json").read_text() == "ours"  # a task here stays as it is
    assert (tasks / "task-b.json").read_text() == "b"
    assert sorted(p.name for p in tasks.iterdir()) == ["task-a.json", "task-b.json"]
    assert said == [f"{KEY}: 1 task file(s) copied to checkpoints/p3c4-expected",
                    f"table: {KEY}; 1 run(s) added",
                    f"{KEY}: upper tree {total}, replayed ({tree})"]
    # Again: nothing more to bring (the run there is the one here, its note aside),
    # and the table as it was
    before = (here / "optimal_table.json").read_text()
    said = script.merge(there, [KEY])
    assert (here / "optimal_table.json").read_text() == before
    assert said == [f"{KEY}: 0 task file(s) copied to checkpoints/p3c4-expected",
                    f"table: {KEY}; 0 run(s) added"]


def test_runs_of_one_command_come_each_with_its_note(checkouts):
    # A long cell resumed by the same command, sitting after sitting: each run has
    # its paragraph, told apart by when it began (a run here of that command stays)
    script, here, there, _ = checkouts
    doc = json.loads((there / "results" / "optimal_table.json").read_text())
    doc["meta"]["runs"] = [RUN, {**RUN, "started": "2026-12-06T12:11:44Z", "note": "B"},
                           {**RUN, "started": "2026-12-06T13:07:15Z", "note": "C"}]
    (there / "results" / "optimal_table.json").write_text(json.dumps(doc))
    said = script.merge(there, [KEY], notes=["the first of the two", "the second"])
    runs = json.loads((here / "optimal_table.json").read_text())["meta"]["runs"]
    assert runs == [RUN, {**RUN, "started": "2026-12-06T12:11:44Z",
                          "note": "the first of the two"},
                    {**RUN, "started": "2026-12-06T13:07:15Z", "note": "the second"}]
    assert f"table: {KEY}; 2 run(s) added" in said
    page = (here / "optimal_table.md").read_text()
    assert "(begun 2026-12-06T13:07:15Z): one process per entry" in page


def _untouched(here: Path):
    """Every file under ``here`` with its bytes, but the table's lock (empty)."""
    return {p.name: p.read_bytes() for p in here.rglob("*")
            if p.is_file() and p.suffix != ".lock"}


@pytest.mark.parametrize("case", ["missing cell", "solved here", "itself", "two runs",
                                  "damaged entry", "damaged tree"])
def test_a_merge_that_cannot_be_made_writes_nothing(checkouts, case):
    script, here, there, _ = checkouts
    before = _untouched(here)
    keys, notes, source = [KEY], None, there
    if case == "missing cell":
        keys = [KEY, "p3c4/consistent/expected"]
    elif case == "solved here":
        doc = json.loads((here / "optimal_table.json").read_text())
        doc["entries"][KEY].update(status="solved", value=206)
        (here / "optimal_table.json").write_text(json.dumps(doc))
        before = _untouched(here)
    elif case == "itself":
        source = here.parent / "self"
        (source).mkdir()
        (source / "results").symlink_to(here)
    elif case == "two runs":
        doc = json.loads((there / "results" / "optimal_table.json").read_text())
        doc["meta"]["runs"].append({**LATER, "command": LATER["command"] + " --jobs 2"})
        (there / "results" / "optimal_table.json").write_text(json.dumps(doc))
        notes = ["which of the two?"]
    elif case == "damaged entry":
        doc = json.loads((there / "results" / "optimal_table.json").read_text())
        del doc["entries"][KEY]["seconds"]
        (there / "results" / "optimal_table.json").write_text(json.dumps(doc))
    else:
        tree = there / "results" / "trees" / "upper" / "p3c4-any-expected.json.gz"
        tree.write_bytes(tree.read_bytes()[:40])
    with pytest.raises(ValueError) as error:  # MergeError, or the tree's own error
        script.merge(source, keys, notes=notes)
    words = {"missing cell": "not in", "solved here": "solved here, open there",
             "itself": "is this checkout", "two runs": "1 --note for 2 run(s) to bring",
             "damaged entry": "is not a table entry", "damaged tree": "damaged gzip"}[case]
    assert words in str(error.value) and "\n" not in str(error.value)
    assert _untouched(here) == before


def test_a_tree_that_does_not_replay_as_its_row_says_is_not_taken(checkouts):
    script, here, there, total = checkouts
    index = there / "results" / "upper_trees.json"
    doc = json.loads(index.read_text())
    doc["trees"][0].update(total=total - 1)
    index.write_text(json.dumps(doc))
    said = script.merge(there, [KEY])
    assert any("upper tree not taken" in line for line in said)
    assert not (here / "upper_trees.json").exists()
    assert not (here / "trees").exists()


def test_the_command_line_refuses_in_one_line(checkouts, capsys):
    script, here, there, _ = checkouts
    before = _untouched(here)
    assert script.main([str(there), "--only", "p9c9/any/expected"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("merge_table_run.py: not in ") and "\n" not in err
    assert script.main([str(here.parent / "nowhere"), "--only", KEY]) == 2
    assert "has no results/optimal_table.json" in capsys.readouterr().err
    assert _untouched(here) == before
    assert script.main([str(there), "--only", KEY]) == 0
    assert "1 run(s) added" in capsys.readouterr().out
