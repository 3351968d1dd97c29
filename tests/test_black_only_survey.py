"""``scripts/black_only_survey.py``: the brackets it prints around an open optimum are
sound, checked on small games whose optimum the search proves here."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from optimal_mm import Game
from optimal_mm.search import solve

from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return load_script("black_only_survey")


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p3c5nb"])
def test_the_bracket_holds_the_proven_optimum(spec):
    script = _script()
    figures = script.root_figures(spec)
    optimum = solve(Game.from_spec(spec), "expected", jobs=1).value
    upper, name = script.best_tree(spec)
    assert figures["bound"] <= figures["skew"] <= optimum <= upper
    assert name in [script.tree_label(*tree) for tree in script.ANY_TREES]


def test_the_bracket_takes_the_least_known_tree_and_the_best_bound(monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "best_tree", lambda game: (700, "entropy"))
    fig = {"bound": 500, "skew": 520}
    open_any = {"status": "timeout", "bound": 530, "best": 690}
    entries = {"g/any/expected": open_any}
    assert script.bracket("g", entries, fig) == (530, 690, "the timed-out search's best tree")
    entries["g/consistent/expected"] = {"status": "timeout", "bound": 600, "best": 650}
    assert script.bracket("g", entries, fig) == (530, 650, "the consistent search's best tree")
    entries["g/consistent/expected"] = {"status": "solved", "value": 640}
    assert script.bracket("g", entries, fig) == (530, 640, "the consistent optimum")
    entries["g/any/expected"] = {"status": "timeout"}  # nothing proven by the search
    assert script.bracket("g", entries, {"bound": 500, "skew": None}) == \
        (500, 640, "the consistent optimum")


@pytest.mark.parametrize("spec", ["p3c4b", "p4c3b", "p3c5nb"])
def test_the_worst_case_bracket_holds_t_star(spec):
    script = _script()
    entries = {}
    for guesses in ("any", "consistent"):
        entries[f"{spec}/{guesses}/worst-case"] = {"status": "timeout", "codes": 0}
    for guesses in ("any", "consistent"):
        t_star = solve(Game.from_spec(spec), "worst-case", guesses, jobs=1).value
        low, _, high, name = script.wc_bracket(f"{spec}/{guesses}/worst-case", entries)
        assert low <= t_star <= high
        if guesses == "consistent":
            assert name in [script.tree_label(*tree) for tree in script.CONSISTENT_TREES]


def test_the_worst_case_bracket_uses_the_other_guess_rule(monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "shallowest_tree", lambda spec, guesses: (12, "entropy"))
    # The lower bounds are shared with scripts/within_trees.py, which the survey imports.
    monkeypatch.setattr(sys.modules["within_trees"], "counting_bound", lambda spec: 6)
    entries = {"g/any/worst-case": {"status": "timeout", "bound": 9},
               "g/consistent/worst-case": {"status": "timeout", "bound": 8}}
    assert script.wc_bracket("g/any/worst-case", entries) == \
        (9, "refuted by its search", 12, "entropy")
    assert script.wc_bracket("g/consistent/worst-case", entries) == \
        (9, "the any-guess bound", 12, "entropy")
    entries["g/consistent/worst-case"] = {"status": "solved", "value": 10}
    assert script.wc_bracket("g/any/worst-case", entries) == \
        (9, "refuted by its search", 10, "the consistent optimum")
    entries["g/any/worst-case"] = {"status": "timeout"}
    assert script.wc_bracket("g/any/worst-case", entries)[:2] == (6, "counting")
