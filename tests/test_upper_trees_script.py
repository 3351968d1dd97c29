"""``scripts/upper_trees.py``: the tree behind an open cell's ``≤``, made by resuming
its checkpoint with ``solve --best-so-far``, checked on p4c7's expected case stopped
(as a time limit would stop it) once its first guess was solved exactly."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from optimal_mm import Game
from optimal_mm.progress import Progress
from optimal_mm.search import Solver
from optimal_mm.tree import Strategy

from script_loader import load_script


class _StopAfterPhaseOne(Progress):
    """Stops the search (as Ctrl-C would) once a first guess is solved exactly."""

    def message(self, text):
        if re.fullmatch(r"first guess \S+: .*", text):
            raise KeyboardInterrupt


@pytest.fixture(scope="module")
def stopped_run(tmp_path_factory):
    """A table with p4c7's expected case open at the bound its stopped run reached,
    and that run's checkpoint where the table's runs keep theirs."""
    root = tmp_path_factory.mktemp("upper")
    checkpoints = root / "checkpoints"
    folder = checkpoints / "p4c7-expected"
    folder.mkdir(parents=True)
    solver = Solver(Game.from_spec("p4c7"), jobs=1, checkpoint=folder,
                    progress=_StopAfterPhaseOne())
    with pytest.raises(KeyboardInterrupt):
        solver.solve("expected")
    best = solver.best_so_far().declared.total
    entries = {"p4c7/any/expected": {"spec": "p4c7", "guesses": "any",
                                     "objective": "expected", "status": "timeout",
                                     "best": best, "bound": 10000},
               "p3c3/any/expected": {"spec": "p3c3", "guesses": "any",
                                     "objective": "expected", "status": "timeout"},
               "p4c7/any/worst-case": {"spec": "p4c7", "guesses": "any",
                                       "objective": "worst-case", "status": "solved",
                                       "value": 6}}
    (root / "table.json").write_text(json.dumps({"entries": entries}))
    (root / "out").mkdir()
    shutil.copytree(checkpoints, root / "as-stopped")  # (the tests' resumptions add)
    return root, best


def _args(root, *more):
    return ["--table", str(root / "table.json"), "--checkpoints", str(root / "checkpoints"),
            "--out", str(root / "out"), *more]


def test_the_tree_of_an_open_cell_is_written_replayed_and_listed(stopped_run, capsys):
    root, best = stopped_run
    script = load_script("upper_trees")
    assert script.main(_args(root, "--only", "p4c7/any/expected", "--time-limit", "1",
                             "--checkpoint-min-seconds", "0.5")) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"p4c7/any/expected: {best} (table ≤ {best}), "), said
    (row,) = json.loads((root / "out" / "upper_trees.json").read_text())["trees"]
    tree = Strategy.load(root / "out" / row["file"])
    stats = tree.validate()
    assert not tree.optimal and tree.objective == "expected" and "upper_bound" in tree.meta
    assert row["value"] == row["total"] == stats.total == best == row["table_best"]
    assert row["secrets"] == Game.from_spec("p4c7").n_codes == stats.secrets
    assert row["first_guess"] == tree.root.guess and row["max"] == stats.max
    assert f"--best-so-far {root / 'out' / row['file']}" in row["command"]  # as it ran
    assert row["command"].endswith("--jobs 1 --checkpoint-min-seconds 0.5")
    md = (root / "out" / "upper_trees.md").read_text()
    assert f"| p4c7/any/expected | [{row['file'].split('/')[-1]}]({row['file']}) " in md
    # The markdown alone, from the JSON.
    (root / "out" / "upper_trees.md").unlink()
    assert script.main(_args(root, "--render")) == 0
    assert (root / "out" / "upper_trees.md").read_text() == md


def test_the_tree_of_a_cell_solved_since_is_dropped(stopped_run, tmp_path, capsys):
    """Once the table solves a cell, its tree bounds nothing: a run of the script
    (``--render`` too) drops its row and its file and says so; the other rows stay."""
    root, best = stopped_run
    script = load_script("upper_trees")
    out = tmp_path / "out"
    out.mkdir()
    args = ["--checkpoints", str(root / "checkpoints"), "--out", str(out)]
    assert script.main(["--table", str(root / "table.json"), *args, "--only",
                        "p4c7/any/expected", "--time-limit", "1"]) == 0
    (row,) = json.loads((out / "upper_trees.json").read_text())["trees"]
    # A cell this table does not hold: kept (made when its table had no bound)
    other = {**row, "key": "p9c9/any/expected", "table_best": None}
    (out / "upper_trees.json").write_text(json.dumps({"trees": [row, other]}))
    capsys.readouterr()
    table = json.loads((root / "table.json").read_text())
    table["entries"]["p4c7/any/expected"].update(status="solved", value=best - 1)
    (tmp_path / "solved.json").write_text(json.dumps(table))
    assert script.main(["--render", "--table", str(tmp_path / "solved.json"), *args]) == 0
    said = capsys.readouterr().out
    assert said == (f"p4c7/any/expected: solved since its tree was made (the table's "
                    f"value {best - 1}): its upper tree and row dropped ({row['file']})\n")
    assert not (out / row["file"]).exists()
    assert json.loads((out / "upper_trees.json").read_text())["trees"] == [other]
    md = (out / "upper_trees.md").read_text()
    assert "| p9c9/any/expected |" in md and "| p4c7/any/expected |" not in md
    (line,) = [x for x in md.splitlines() if x.startswith("| p9c9/any/expected |")]
    assert f"| {row['value']:,} | none |" in line
    # Nothing more to drop: the next render says nothing and changes nothing.
    assert script.main(["--render", "--table", str(tmp_path / "solved.json"), *args]) == 0
    assert capsys.readouterr().out == "" and (out / "upper_trees.md").read_text() == md


def test_rows_another_run_wrote_meanwhile_stay(stopped_run, tmp_path, monkeypatch, capsys):
    """Two runs of the script on other cells at once: each merges its rows into the
    index as it is when it writes, so the one that ends last keeps the other's rows
    (it wrote back the index as it had read it at its start, and they were lost)."""
    root, _ = stopped_run
    script = load_script("upper_trees")
    out = tmp_path / "out"
    out.mkdir()
    args = ["--table", str(root / "table.json"), "--checkpoints", str(root / "checkpoints"),
            "--out", str(out), "--time-limit", "1"]

    def row(key):  # what make_tree returns (the searches are not what is tested here)
        return {"key": key, "file": f"trees/upper/{key.split('/')[0]}.json.gz",
                "first_guess": "1123", "value": 11300, "table_best": None, "at_max": 9,
                "max": 7, "total": 11300, "cap": None, "command": "optimal-mm solve ..."}

    mine, theirs, again = (row(f"{spec}/any/expected") for spec in ("p4c7", "p9c9", "p3c3"))
    made = [mine, again]

    def make_tree(entry, *rest):
        if entry["spec"] == "p3c3":  # meanwhile, another run has written its row
            (out / "upper_trees.json").write_text(json.dumps({"trees": [mine, theirs]}))
        return f"{entry['spec']}: made", made.pop(0)

    monkeypatch.setattr(script, "make_tree", make_tree)
    assert script.main([*args, "--only", "p4c7/any/expected"]) == 0
    assert script.main([*args, "--only", "p3c3/any/expected"]) == 0
    rows = json.loads((out / "upper_trees.json").read_text())["trees"]
    assert [r["key"] for r in rows] == ["p3c3/any/expected", "p4c7/any/expected",
                                        "p9c9/any/expected"]
    md = (out / "upper_trees.md").read_text()
    assert all(f"| {r['key']} |" in md for r in rows)


def test_a_known_tree_better_than_the_search_s_is_the_one_written(stopped_run, tmp_path,
                                                                  capsys):
    """The cell resumes from the best tree of ``trees/`` below ``--out`` that fits
    it (``--upper-bound-tree``): stopped before its search beats that tree (here the
    optimal one, which its first batch only equals), the tree written is that one,
    refitted to the cell and replayed, never a worse one."""
    root, best = stopped_run
    # The checkpoint as the run stopped, not as the tests before resumed it: from
    # there, p4c7's search with the optimum as its bound takes about 1.7 s of a
    # 2-core VM, and the limit is a fifth of a second (at 0.05 s, the tree is
    # still written).
    checkpoints = shutil.copytree(root / "as-stopped", tmp_path / "checkpoints")
    known = tmp_path / "out" / "trees" / "p4c7-expected.json.gz"
    known.parent.mkdir(parents=True)
    from optimal_mm.search import solve

    solve(Game.from_spec("p4c7"), "expected", jobs=1).strategy.save(known)
    optimum = Strategy.load(known).validate().total
    assert optimum <= best
    assert load_script("upper_trees").main(
        ["--table", str(root / "table.json"), "--checkpoints", str(checkpoints),
         "--out", str(tmp_path / "out"), "--only", "p4c7/any/expected",
         "--time-limit", "0.2"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"p4c7/any/expected: {optimum} (table ≤ {best}), "), said
    (row,) = json.loads((tmp_path / "out" / "upper_trees.json").read_text())["trees"]
    assert row["command"].endswith(f"--upper-bound-tree {known}")
    tree = Strategy.load(tmp_path / "out" / row["file"])
    assert tree.validate().total == optimum and not tree.optimal
    assert str(known) in tree.meta["upper_bound"]


def test_a_cell_without_a_tree_is_said_and_fails(stopped_run, capsys):
    root, _ = stopped_run
    assert load_script("upper_trees").main(
        _args(root, "--only", "p3c3/any/expected", "--time-limit", "1")) == 1
    assert capsys.readouterr().out.startswith("p3c3/any/expected: no checkpoint at ")
    assert not (root / "out" / "trees" / "upper" / "p3c3-any-expected.json.gz").exists()


@pytest.mark.parametrize("args, says", [
    (["--only", "p9c9/any/expected"], "needs cells of the table"),
    (["--only", "p4c7/any/worst-case"], "not an open cell of an expected-case objective"),
    (["--only", "p4c7/any/expected", "--time-limit", "0"], "--time-limit must be"),
    (["--only", "p4c7/any/expected", "--time-limit", "inf"], "at most 1,000,000"),
    (["--only", "p4c7/any/expected", "--jobs", "-3"], "--jobs must be -1 or 0"),
    (["--only", "p4c7/any/expected", "--checkpoint-min-seconds", "-1"],
     "--checkpoint-min-seconds must be"),
    (["--only", "p4c7/any/expected", "--checkpoint-min-seconds", "nan"],
     "--checkpoint-min-seconds must be"),
    ([], "needs cells of the table"),
])
def test_bad_input_is_one_line_and_writes_nothing(stopped_run, capsys, args, says):
    root, _ = stopped_run
    before = sorted(p.name for p in (root / "out").iterdir())
    assert load_script("upper_trees").main(_args(root, *args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
    assert sorted(p.name for p in (root / "out").iterdir()) == before


def test_a_bad_count_for_solve_is_refused_before_any_cell(stopped_run, capsys):
    # (it went to solve, which refused it, after the index and page were written)
    root, _ = stopped_run
    before = sorted(p.name for p in (root / "out").iterdir())
    for option, value, words in [("--split-secrets", "0", "--split-secrets must be 1 or more"),
                                 ("--table-entries", "-1", "--table-entries must be 0 or more"),
                                 ("--split-depth", "0", "--split-depth must be 1 or more")]:
        assert load_script("upper_trees").main(_args(root, "--only", "p4c7/any/expected",
                                                     option, value)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err  # solve's own words
        assert sorted(p.name for p in (root / "out").iterdir()) == before


@pytest.mark.parametrize("index", ['{"trees": [', '{"trees": 5}', '{"trees": [{"key": 1}]}'])
def test_a_damaged_index_is_one_line_and_left_as_it_is(tmp_path, capsys, index):
    (tmp_path / "upper_trees.json").write_text(index)
    assert load_script("upper_trees").main(["--render", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "upper_trees.json" in err, err
    assert (tmp_path / "upper_trees.json").read_text() == index
    assert not (tmp_path / "upper_trees.md").exists()


def test_a_fewest_at_worst_cell_resumes_under_its_worst_case_entrys_t_star(
        tmp_path, monkeypatch):
    # As the table's runs do: solve --max-guesses t* (no worst-case search first);
    # the expected case gets no cap.
    script = load_script("upper_trees")
    entries = {"p4c7/any/worst-case": {"spec": "p4c7", "guesses": "any", "status": "solved",
                                       "objective": "worst-case", "value": 6}}
    for objective in ("fewest-at-worst", "expected"):
        entries[f"p4c7/any/{objective}"] = {"spec": "p4c7", "guesses": "any",
                                            "objective": objective, "status": "timeout"}
    (tmp_path / "table.json").write_text(json.dumps({"entries": entries}))
    asked = {}
    monkeypatch.setattr(script, "make_tree", lambda entry, checkpoints, out, seconds, args: (
        asked.setdefault(entry["objective"], args) and ("asked", None)))
    assert script.main(["--table", str(tmp_path / "table.json"), "--out", str(tmp_path),
                        "--only", "p4c7/any/fewest-at-worst", "p4c7/any/expected"]) == 1
    assert asked["fewest-at-worst"] == ["--jobs", "1", "--max-guesses", "6"]
    assert asked["expected"] == ["--jobs", "1"]


def test_the_scripts_examples():
    # The script's and those of the index's module, which it imports from scripts/
    import doctest
    import sys

    script = load_script("upper_trees")
    for module in (script, sys.modules["upper_index"]):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
    assert result.attempted >= 1

