"""scripts/make_trees.py: the capped trees it searches with an uncapped tree as floor."""

from __future__ import annotations

import json

import pytest

from optimal_mm import Game
from optimal_mm.search import solve

from script_loader import load_script

script = load_script("make_trees")


def test_a_capped_tree_takes_its_floor_from_the_uncapped_one(tmp_path, monkeypatch):
    # p3c4's total within its worst case, with its uncapped tree as floor: the command
    # names the floor and the table's options, and the tree is the capped optimum.
    monkeypatch.setattr(script, "ROOT", tmp_path)
    monkeypatch.setattr(script, "TREES", tmp_path / "results" / "trees")
    monkeypatch.setitem(script.TREES_TO_MAKE, "p3c4-expected",
                        ("p3c4", "expected", "any", None, None, None))
    monkeypatch.setitem(script.TREES_TO_MAKE, "p3c4-worst-then-expected",
                        ("p3c4", "worst-then-expected", "any", None, None, None))
    monkeypatch.setitem(script.FLOORS, "p3c4-worst-then-expected", "p3c4-expected")
    monkeypatch.setitem(script.OPTIONS, "p3c4-worst-then-expected", script.TABLE_OPTIONS)
    with pytest.raises(SystemExit, match="the lower bound's tree p3c4-expected is not in "
                                         "results/trees/: make it first"):
        script.make("p3c4-worst-then-expected", 1, False)
    script.make("p3c4-expected", 1, False)
    entry = script.make("p3c4-worst-then-expected", 1, False)
    assert entry["command"] == (
        "optimal-mm solve p3c4 --objective worst-then-expected --lower-bound-tree "
        "results/trees/p3c4-expected.json.gz --split-secrets 500 --wc-tree first "
        "--chain-secrets 250")
    plain = solve(Game.from_spec("p3c4"), "worst-then-expected", jobs=1)
    assert entry["value"] == entry["total"] == plain.value


def test_the_capped_trees_agree_with_the_optimal_table():
    from pathlib import Path

    root = Path(script.ROOT)
    summary = json.loads((root / "results" / "optimal_trees.json").read_text())["trees"]
    table = json.loads((root / "results" / "optimal_table.json").read_text())["entries"]
    capped = {n: e for n, e in summary.items() if e["objective"] == "worst-then-expected"}
    assert {"p4c8nb-worst-then-expected", "p5c7nb-worst-then-expected"} <= set(capped)
    for name, e in capped.items():
        cell = table[f"{e['game']}/{e['guesses']}/worst-then-expected"]
        assert cell["status"] == "solved" and cell["value"] == e["value"], name
        assert e["max"] == table[f"{e['game']}/{e['guesses']}/worst-case"]["value"], name
        if name in script.FLOORS:  # the uncapped optimum bounds the capped one
            floor = summary[script.FLOORS[name]]["value"]
            assert e["value"] >= floor, name
            # p4c8nb's and p5c7nb's met it; p5c6b's (59528) stays above its 59388, and
            # p6c7n's (29124) one above its 29123
            above = {"p5c6b-worst-then-expected", "p6c7n-worst-then-expected"}
            assert (e["value"] == floor) == (name not in above), name


def test_trees_another_run_wrote_meanwhile_stay_in_the_summary(tmp_path, monkeypatch):
    """Two runs making other trees at once: each puts its tree into the summary as it
    is when it writes, so that neither loses the other's (each wrote back the summary
    as it had read it at its start)."""
    shipped = json.loads(script.SUMMARY.with_suffix(".json").read_text())["trees"]
    mine, theirs = "mastermind-worst-case", "mastermind-expected"
    monkeypatch.setattr(script, "SUMMARY", tmp_path / "optimal_trees")
    (tmp_path / "optimal_trees.json").write_text(json.dumps({"trees": {}}))

    def make(name, *rest):  # meanwhile, another run has put its tree in
        summary = tmp_path / "optimal_trees.json"
        doc = json.loads(summary.read_text())
        doc["trees"][theirs] = shipped[theirs]
        summary.write_text(json.dumps(doc))
        return shipped[name]

    monkeypatch.setattr(script, "make", make)
    assert script.main(["--only", mine]) == 0
    trees = json.loads((tmp_path / "optimal_trees.json").read_text())["trees"]
    assert trees == {mine: shipped[mine], theirs: shipped[theirs]}
    page = (tmp_path / "optimal_trees.md").read_text()
    assert f"[{mine}](trees/{mine}.json.gz)" in page
    assert f"[{theirs}](trees/{theirs}.json.gz)" in page
