"""The search's tuning options (``optimal_mm.cli.search_options``): one definition that
``optimal-mm solve`` and the scripts running its searches share, so that each takes
and refuses the same values, with the same words, and passes on what it was given."""

from __future__ import annotations

import doctest
import json
import sys

import pytest

from optimal_mm.cli import main, search_options
from optimal_mm.search import DEFAULT_TABLE_ENTRIES

from script_loader import load_script

FLAGS = ("--table-entries", "--split-secrets", "--split-depth", "--wc-tree",
         "--chain-secrets", "--checkpoint-min-seconds")


def _flags(parser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def _solve_parser():
    from optimal_mm.cli import build_parser

    return build_parser("solve")._subparsers._group_actions[0].choices["solve"]


def test_the_examples():
    result = doctest.testmod(search_options)
    assert result.attempted and not result.failed


def test_solve_and_the_scripts_take_every_tuning_option(capsys):
    solve = _solve_parser()
    assert set(FLAGS) <= _flags(solve)
    for script in ("optimal_tables", "upper_trees"):
        with pytest.raises(SystemExit) as exit_:
            load_script(script).main(["--help"])
        text = capsys.readouterr().out
        assert exit_.value.code == 0 and "search tuning" in text
        assert all(f"{flag} " in text for flag in FLAGS), (script, text)
    # solve's defaults are the search's own; a script's are unset, so it passes on
    # only what it was given
    args = solve.parse_args(["p2c3"])
    assert args.table_entries == DEFAULT_TABLE_ENTRIES and args.chain_secrets is None
    assert search_options.given_tuning(args) == {
        "table_entries": DEFAULT_TABLE_ENTRIES, "split_secrets": args.split_secrets,
        "split_depth": 1, "wc_tree": "small-total", "checkpoint_min_seconds": 0.0}


@pytest.mark.parametrize("flag, value, words", [
    ("--table-entries", "-1", "--table-entries must be 0 or more, got -1"),
    ("--split-secrets", "0", "--split-secrets must be 1 or more, got 0"),
    ("--split-depth", "0", "--split-depth must be 1 or more, got 0"),
    ("--chain-secrets", "-3", "--chain-secrets must be 1 or more, got -3"),
    ("--checkpoint-min-seconds", "-1", "--checkpoint-min-seconds must be a finite number"),
    ("--checkpoint-min-seconds", "nan", "--checkpoint-min-seconds must be a finite number"),
    ("--checkpoint-min-seconds", "inf", "--checkpoint-min-seconds must be a finite number"),
])
def test_a_bad_value_is_refused_alike_by_solve_and_the_table_script(
        flag, value, words, tmp_path, capsys, monkeypatch):
    out = tmp_path / "t.json"
    assert main(["solve", "p2c3", flag, value, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and not out.exists()
    tables = load_script("optimal_tables")
    store = sys.modules["table_store"]
    table = tmp_path / "optimal_table.json"
    table.write_text('{"meta": {}, "entries": {}}\n')
    monkeypatch.setattr(store, "JSON_PATH", table)
    with pytest.raises(SystemExit) as exit_:
        tables.main(["--only", "p2c3", flag, value])
    assert exit_.value.code == 2 and words in capsys.readouterr().err.splitlines()[-1]
    assert table.read_text() == '{"meta": {}, "entries": {}}\n'  # untouched


def test_upper_trees_hands_the_options_given_to_solve(tmp_path, monkeypatch):
    script = load_script("upper_trees")
    entries = {"p4c7/any/expected": {"spec": "p4c7", "guesses": "any",
                                     "objective": "expected", "status": "timeout"}}
    (tmp_path / "table.json").write_text(json.dumps({"entries": entries}))
    asked = []
    monkeypatch.setattr(script, "make_tree", lambda entry, checkpoints, out, seconds, args: (
        asked.append(args) or ("asked", None)))
    assert script.main(["--table", str(tmp_path / "table.json"), "--out", str(tmp_path),
                        "--only", "p4c7/any/expected", "--chain-secrets", "250",
                        "--checkpoint-min-seconds", "0.5", "--table-entries", "64000000",
                        "--split-depth", "2"]) == 1
    assert asked == [["--jobs", "1", "--table-entries", "64000000", "--split-depth", "2",
                      "--chain-secrets", "250", "--checkpoint-min-seconds", "0.5"]]
    # and solve takes them as given
    args = _solve_parser().parse_args(["p4c7", *asked[0][2:]])
    assert (args.table_entries, args.split_depth, args.chain_secrets,
            args.checkpoint_min_seconds) == (64000000, 2, 250, 0.5)
