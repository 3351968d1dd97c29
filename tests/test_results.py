"""The shipped results are what they claim: every tree replays, every table agrees.

These tests read ``results/`` and ``optimal_mm/data/`` as a user would receive them:
each tree must pass ``optimal-mm verify`` (every secret replayed, declared stats
matched), its value must be the one the summary tables state, and wherever a table
cites a published value for a solved entry, our proven value must equal it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimal_mm.cli import main
from optimal_mm.player import load_shipped_strategy
from optimal_mm.game import Game
from optimal_mm.tree import Strategy

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TREE_FILES = sorted((RESULTS / "trees").glob("*.json.gz"))
DATA_FILES = sorted((ROOT / "optimal_mm" / "data").glob("*.json.gz"))


def _load_json(name):
    path = RESULTS / name
    if not path.exists():
        pytest.skip(f"{name} not generated")
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", TREE_FILES + DATA_FILES, ids=lambda p: p.name)
def test_shipped_tree_verifies(path, capsys):
    assert main(["verify", str(path)]) == 0
    assert "OK: all" in capsys.readouterr().out


def test_optimal_tree_summary_matches_trees():
    # Each tree's declared stats: test_shipped_tree_verifies replays every file listed
    # (every secret) and checks them against these, so they are the replayed ones.
    summary = _load_json("optimal_trees.json")["trees"]
    assert summary, "no optimal trees listed"
    verified = {path.resolve() for path in TREE_FILES + DATA_FILES}
    for name, entry in summary.items():
        assert (ROOT / entry["file"]).resolve() in verified, name
        strategy = Strategy.load(ROOT / entry["file"])
        stats = strategy.declared
        assert stats is not None, name  # (a file without them is replayed unchecked)
        assert strategy.optimal, name
        expected_value = {"worst-case": stats.max,
                          "fewest-at-worst": stats.at_worst}.get(entry["objective"], stats.total)
        assert entry["value"] == expected_value, name
        assert strategy.objective == (entry["objective"] if entry["objective"] in (
            "worst-case", "fewest-at-worst") else "expected"), name
        if entry["max_guesses"] is not None:
            assert stats.max <= entry["max_guesses"], name
        if entry["published"] is not None and entry["source"] != "published claim":
            assert entry["value"] == entry["published"], name


@pytest.mark.parametrize("name", ["mastermind", "bulls-and-cows"])
def test_player_ships_an_optimal_tree(name):
    game = Game.from_spec(name)
    strategy = load_shipped_strategy(game)
    if strategy is None:
        pytest.skip(f"no tree shipped for {name}")
    stats = strategy.validate()
    assert strategy.optimal and strategy.objective == "expected"
    assert stats.total == {"mastermind": 5625, "bulls-and-cows": 26274}[name]


def test_optimal_table_agrees_with_published_values():
    entries = _load_json("optimal_table.json")["entries"]
    solved = [e for e in entries.values() if e["status"] == "solved"]
    assert solved
    for e in solved:
        if e["published"] is not None:
            assert e["value"] == e["published"], (e["spec"], e["guesses"], e["objective"])
        # the tree the search built attains the value it reports
        if e["objective"] == "fewest-at-worst":
            # its value is a count at depth t*: the tree reaches exactly t*
            worst = entries[f"{e['spec']}/{e['guesses']}/worst-case"]
            assert e["tree_max"] == worst["value"], (e["spec"], e["guesses"])
            continue
        key = "tree_max" if e["objective"] == "worst-case" else "tree_total"
        assert e[key] == e["value"], (e["spec"], e["guesses"], e["objective"])
        if e["objective"] == "worst-then-expected":
            worst = entries[f"{e['spec']}/{e['guesses']}/worst-case"]
            assert e["tree_max"] <= worst["value"], (e["spec"], e["guesses"])


def test_the_table_upper_bounds_with_a_tree_are_its_trees():
    # results/upper_trees.json (scripts/upper_trees.py): each tree replays for every
    # secret under its cell's rules, shows the row's figures, and while the cell is
    # open its value is the table's ≤ (a later run that lowers the bound must remake
    # the tree); the worst-case cap of a capped objective is the table's t*.
    path = RESULTS / "upper_trees.json"
    if not path.exists():
        pytest.skip("results/upper_trees.json not generated")
    entries = _load_json("optimal_table.json")["entries"]
    rows = json.loads(path.read_text())["trees"]
    assert rows
    for row in rows:
        tree = Strategy.load(RESULTS / row["file"])
        stats = tree.validate()
        game = Game.from_spec(row["spec"])
        assert tree.game == game and tree.guesses == row["guesses"], row["key"]
        # A total within t* is an expected-case tree under the cap t* in the tree
        # format, as Solver.worst_then_expected writes it (the cap checked below)
        objective = "expected" if row["objective"] == "worst-then-expected" else row["objective"]
        assert tree.objective == objective and not tree.optimal, row["key"]
        assert (stats.secrets, stats.total, stats.max, tree.root.guess) == (
            game.n_codes, row["total"], row["max"], row["first_guess"]), row["key"]
        at_max = stats.depth_counts[-1]
        assert row["value"] == (at_max if row["objective"] == "fewest-at-worst"
                                else stats.total), row["key"]
        entry = entries[row["key"]]
        if row["objective"] != "expected":
            t_star = entries[f"{row['spec']}/{row['guesses']}/worst-case"]["value"]
            assert tree.max_guesses == t_star and stats.max <= t_star, row["key"]
        if entry["status"] == "timeout":
            assert entry["best"] == row["value"], row["key"]
        else:
            assert entry["value"] <= row["value"], row["key"]


def test_optimal_table_is_monotone_in_the_guess_rule():
    # Restricting guesses to consistent codes can never help: value(any) <= value(consistent).
    # The objectives capped at t* compare only under the same cap.
    entries = _load_json("optimal_table.json")["entries"]
    for key, e in entries.items():
        if e["guesses"] != "any" or e["status"] != "solved":
            continue
        other = entries.get(key.replace("/any/", "/consistent/"))
        if not other or other["status"] != "solved":
            continue
        if e["objective"] in ("fewest-at-worst", "worst-then-expected"):
            caps = [entries[f"{e['spec']}/{rule}/worst-case"]["value"]
                    for rule in ("any", "consistent")]
            if caps[0] != caps[1]:
                continue
        assert e["value"] <= other["value"], key


def test_logik_ships_its_consistent_only_optimum():
    # The tree `play logik` replays is the proven consistent-only optimum of p5c8 in
    # results/ (the same file), and says that it holds for consistent guesses only.
    summary = _load_json("optimal_trees.json")["trees"]
    entry = summary.get("p5c8-expected-consistent")
    if entry is None:
        pytest.skip("Logik's consistent-only tree not made")
    shipped = ROOT / "optimal_mm" / "data" / "logik.json.gz"
    assert shipped.read_bytes() == (ROOT / entry["file"]).read_bytes()
    strategy = load_shipped_strategy(Game.from_spec("logik"))
    stats = strategy.validate()
    assert strategy.optimal and strategy.guesses == "consistent"
    assert (strategy.objective, strategy.max_guesses) == ("expected", None)
    assert stats.secrets == 32768 and stats.total == entry["value"]


def test_first_guesses_agree_with_the_optimal_table():
    """Each game's first guesses, valued one class at a time by ``hint --rank``
    (scripts/first_guesses.py): the classes hold every code once, and the best class
    of each column is the optimum the table's own search proved for the whole game,
    the value of no other class below it. The page is the JSON rendered."""
    from script_loader import load_script

    doc = _load_json("first_guesses.json")
    entries = _load_json("optimal_table.json")["entries"]
    script = load_script("first_guesses")
    assert len(doc["games"]) >= 10
    for g in doc["games"]:
        game = Game.from_spec(g["spec"])
        assert sum(c["codes"] for c in g["classes"]) == game.n_codes == g["codes"]
        for rule, objective in script.COLUMNS:
            column = f"{rule}/{objective}"
            assert g["complete"][column], (g["game"], column)
            values = [c[column] for c in g["classes"]]
            entry = entries[f"{g['spec']}/{column}"]
            assert entry["status"] == "solved" and min(values) == entry["value"], (
                g["game"], column)
        expected = [c["any/expected"] for c in g["classes"]]
        assert expected == sorted(expected)  # the rows in the first column's order
    assert (RESULTS / "first_guesses.md").read_text() == script.markdown(doc)
