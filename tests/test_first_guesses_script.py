"""``scripts/first_guesses.py`` values every first guess as ``hint --rank`` does."""

from __future__ import annotations

import json

import pytest

from optimal_mm import Game
from optimal_mm.advice import Advisor

from script_loader import load_script


def _script():
    return load_script("first_guesses")


def test_the_tables_are_the_rankings(tmp_path, capsys):
    script = _script()
    stem = tmp_path / "fg"
    assert script.main(["--games", "p2c3", "p3c3", "--out", str(stem), "--jobs", "2"]) == 0
    doc = json.loads(stem.with_suffix(".json").read_text())
    assert [g["game"] for g in doc["games"]] == ["p2c3", "p3c3"]
    for g in doc["games"]:
        game = Game.from_spec(g["spec"])
        for rule, objective in script.COLUMNS:
            ranking = Advisor(game, rule, time_limit=None, strategy=None).rank([], objective)
            assert {r.guess: (r.codes, r.value) for r in ranking.guesses} == {
                c["guess"]: (c["codes"], c[f"{rule}/{objective}"]) for c in g["classes"]}
            assert g["complete"][f"{rule}/{objective}"]
    assert {g["command"] for g in doc["games"]} == {
        "python scripts/first_guesses.py --games p2c3 p3c3 --jobs 2"}  # no --out: a path
    assert {g["jobs"] for g in doc["games"]} == {2}
    text = stem.with_suffix(".md").read_text()
    assert text == script.markdown(doc) and "## p3c3: 27 codes, 3 classes" in text
    # p3c3's best first guess, 112, is bold in every column where it is the best.
    assert "| 112 | 18 | **73 (2.7037)** |" in text
    # --merge keeps the games not valued again.
    assert script.main(["--games", "p2c3", "--out", str(stem), "--merge"]) == 0
    again = json.loads(stem.with_suffix(".json").read_text())
    assert [g["game"] for g in again["games"]] == ["p2c3", "p3c3"]  # by pegs, colours


def test_a_ranking_cut_short_is_marked_in_the_page(tmp_path, monkeypatch):
    script = _script()
    doc = {"command": "c", "games": [{
        "game": "p2c3", "spec": "p2c3", "codes": 9, "command": "c", "machine": "m",
        "jobs": 2,
        "classes": [{"guess": "12", "codes": 6, "any/expected": 21, "any/worst-case": 3,
                     "consistent/expected": 21, "consistent/worst-case": None},
                    {"guess": "11", "codes": 3, "any/expected": 23, "any/worst-case": 4,
                     "consistent/expected": 23, "consistent/worst-case": None}],
        "complete": {"any/expected": True, "any/worst-case": True,
                     "consistent/expected": True, "consistent/worst-case": False},
        "seconds": {"any/expected": 0.1}}]}
    text = script.markdown(doc)
    assert "| 12 | 6 | **21 (2.3333)** | **3** | **21 (2.3333)** | not valued |" in text
    assert "Not every class valued within the time limit: consistent/worst-case" in text


@pytest.mark.parametrize("argv, words", [
    (["--games", "p99c99"], "p99c99"),
    (["--games", "p5c8"], "32,768 codes, more than the 12,000"),
    (["--time-limit", "0"], "--time-limit"),
    (["--jobs", "0"], "--jobs: must be 1..1024, got 0"),
])
def test_bad_input_is_refused_before_any_work(tmp_path, argv, words):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    stem = tmp_path / "fg"
    proc = subprocess.run([sys.executable, str(root / "scripts" / "first_guesses.py"),
                           *argv, "--out", str(stem)], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    # One line, after argparse's usage where argparse refuses it.
    assert words in proc.stderr.strip().splitlines()[-1]
    assert not proc.stderr.startswith("usage") or "--jobs" in words
    assert "Traceback" not in proc.stderr and not list(tmp_path.iterdir())


def test_doctests():
    import doctest
    result = doctest.testmod(_script())
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("text", ["{bad", '{"x": 1}', '{"games": [1]}', "[]"])
def test_a_damaged_json_to_merge_is_refused_and_kept(tmp_path, text):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    stem = tmp_path / "fg"
    stem.with_suffix(".json").write_text(text)
    proc = subprocess.run([sys.executable, str(root / "scripts" / "first_guesses.py"),
                           "--games", "p2c3", "--merge", "--out", str(stem)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "is not a first_guesses.py JSON" in proc.stderr
    assert stem.with_suffix(".json").read_text() == text  # not overwritten
    assert not stem.with_suffix(".md").exists()
