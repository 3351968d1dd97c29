"""``scripts/black_only_survey.py``: the brackets it prints around an open optimum are
sound, checked on small games whose optimum the search proves here."""

from __future__ import annotations

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
    assert name in script.UPPER_HEURISTICS
