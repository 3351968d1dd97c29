"""The command registry of :mod:`optimal_mm.cli` matches what the modules register.

``optimal-mm COMMAND`` builds only the parser of COMMAND's module (start-up), so the
registry must name every command of every module, or a command would be missing
from the fast path (or, worse, from ``--help``).
"""

import argparse

import pytest

from optimal_mm import cli

from processes import fresh_python


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_full_parser_has_exactly_the_registered_commands():
    expected = [c for commands in cli.COMMAND_MODULES.values() for c in commands]
    assert _commands(cli.build_parser()) == expected


@pytest.mark.parametrize("module", list(cli.COMMAND_MODULES))
def test_each_command_builds_only_its_modules_parser(module):
    for command in cli.COMMAND_MODULES[module]:
        assert _commands(cli.build_parser(command)) == list(cli.COMMAND_MODULES[module])


def test_unknown_command_gets_the_full_parser_and_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["no-such-command"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_entry_point_exits_with_the_status_of_main_and_collects_during_it(
        monkeypatch):
    import gc

    seen = {}

    def main():
        seen["collecting at start"] = gc.isenabled()
        return 3

    monkeypatch.setattr(cli, "main", main)
    try:
        with pytest.raises(SystemExit) as exc:
            cli.run()
    finally:
        gc.unfreeze()
        gc.enable()
    assert exc.value.code == 3
    assert seen == {"collecting at start": False}  # main() turns it on after imports


def test_main_turns_the_collector_back_on_once_its_parser_is_built(capsys):
    import gc

    gc.disable()
    try:
        assert cli.main(["solve", "p2c2", "--quiet", "-o", "-"]) == 0
        assert gc.isenabled()
    finally:
        gc.enable()
    assert '"format"' in capsys.readouterr().out


def test_building_a_parser_imports_neither_shutil_nor_tempfile():
    """Start-up: argparse's formatter would import shutil (with bz2 and lzma) to find
    the terminal's width; the command's own formatter is told it."""
    out = fresh_python("import sys; from optimal_mm.cli import build_parser; "
                       "build_parser('solve'); "
                       "print(sorted({'shutil', 'tempfile', 'hashlib'} & set(sys.modules)))")
    assert out.strip() == "[]"


def test_the_help_is_as_wide_as_the_terminal_says(monkeypatch, capsys):
    lines = {}
    for columns in (50, 200):
        monkeypatch.setenv("COLUMNS", str(columns))
        assert cli._terminal_columns() == columns
        with pytest.raises(SystemExit):
            cli.main(["solve", "--help"])
        lines[columns] = capsys.readouterr().out.splitlines()
    assert len(lines[50]) > len(lines[200])  # the narrow terminal wraps more
    monkeypatch.setenv("COLUMNS", "junk")
    assert cli._terminal_columns() >= 1


def test_doctests():
    import doctest

    result = doctest.testmod(cli)
    assert result.attempted > 0 and result.failed == 0
