"""scripts/recheck_table.py: re-solves the table's solved entries and says which differ."""

from __future__ import annotations

import json

import pytest

from script_loader import load_script

recheck = load_script("recheck_table")


def entry(spec, objective, value, status="solved", guesses="any", codes=8):
    return {"spec": spec, "objective": objective, "guesses": guesses, "value": value,
            "status": status, "codes": codes, "seconds": 0.0}


def write(tmp_path, entries):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"entries": {f"{e['spec']}/{e['guesses']}/{e['objective']}": e
                                            for e in entries}}))
    return str(path)


def test_agreeing_values_pass_and_others_are_left_out(tmp_path, capsys):
    table = write(tmp_path, [entry("p3c2b", "worst-case", 4), entry("p3c2b", "expected", 21),
                             entry("p3c2", "expected", 18),
                             entry("p3c2b", "fewest-at-worst", None, status="timeout")])
    assert recheck.main(["--table", table, "--specs", r"p\d+c\d+b"]) == 0
    out = capsys.readouterr().out
    assert "2 entries re-solved, 0 differ" in out and "p3c2/" not in out


def test_a_wrong_value_is_reported_and_fails(tmp_path, capsys):
    table = write(tmp_path, [entry("p3c2b", "worst-case", 3), entry("p3c2b", "expected", 21)])
    assert recheck.main(["--table", table]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS p3c2b/any/worst-case: table 3, now 4" in out and "1 differ" in out


def test_bad_input_is_one_line(tmp_path, capsys):
    assert recheck.main(["--table", str(tmp_path / "missing.json")]) == 2
    assert recheck.main(["--specs", "("]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("recheck_table: ") for line in err)


def test_an_entry_without_its_value_is_refused_before_any_search(tmp_path, capsys,
                                                                 monkeypatch):
    broken = entry("p3c2b", "expected", 21)
    del broken["value"]
    table = write(tmp_path, [entry("p3c2b", "worst-case", 4), broken])
    monkeypatch.setattr(recheck, "solve", lambda *a, **k: pytest.fail("searched"))
    assert recheck.main(["--table", table]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (f"recheck_table: cannot read {table}: entry "
                                    "p3c2b/any/expected has no value")


def test_an_unknown_objective_is_refused_not_matched_by_nothing(tmp_path, capsys):
    """Before, --objectives bogus matched no entry and passed: "0 entries re-solved"."""
    with pytest.raises(SystemExit) as exit_:
        recheck.main(["--objectives", "bogus"])
    assert exit_.value.code == 2 and "invalid choice: 'bogus'" in capsys.readouterr().err


def test_an_empty_sample_of_tasks_is_refused(tmp_path, capsys):
    """sample_wc_tasks with no part of the sizes asked for wrote a sample of 0 tasks."""
    out = tmp_path / "x.json"
    with pytest.raises(SystemExit) as exit_:
        load_script("sample_wc_tasks").main(["p3c3", "--first", "112", "--depth", "3",
                                             "--sizes", "999", "-o", str(out)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "no part of 999 secrets after 112" in err
    assert not out.exists()
