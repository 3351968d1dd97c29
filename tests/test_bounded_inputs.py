"""Inputs: strict, bounded, any depth; every refusal one line quoting the input.

Holds the promises of docs/RELIABILITY.md, "Inputs" and "The library".
"""

import copy
import gzip
import io
import json
import os
import sys

import pytest

from optimal_mm import Game, Node, Strategy, tree as tree_module
from optimal_mm.cli import main
from optimal_mm.errors import (InvalidAnswerError, InvalidGameError, InvalidOptionError,
                               InvalidTreeError, OptimalMMError)
from optimal_mm.heuristics import build_strategy
from optimal_mm.search import solve

P1C3 = Game.from_spec("p1c3")


def chain(levels: int) -> Node:
    """A valid p1c3 tree ``levels + 3`` guesses deep: useless guesses of 1 before the 3."""
    tail = Node("3")
    for _ in range(levels):
        tail = Node("1", {"0B0W": tail})
    return Node("1", {"0B0W": Node("2", {"0B0W": tail})})


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(err, command):
    assert err.startswith(f"optimal-mm {command}: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err


@pytest.fixture(scope="module")
def small_doc():
    return build_strategy(Game.from_spec("p2c3"), "knuth").to_dict()


def write_doc(tmp_path, doc, name="t.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


# ------------------------------------------------------------------- depth
@pytest.mark.parametrize("levels", [pytest.param(601, marks=pytest.mark.slow), 1000])
def test_deep_trees_go_through_every_command(tmp_path, capsys, levels):
    path = tmp_path / "deep.json.gz"
    stats = Strategy(P1C3, chain(levels)).save(path)  # 601 levels: 1202 JSON levels
    assert stats.max == levels + 3
    assert Strategy.load(path).validate() == stats
    assert run(capsys, "verify", path)[0] == 0
    code, out, _ = run(capsys, "show", path, "--depth", "2")
    assert code == 0 and f"{levels + 1} nodes hidden" in out
    assert run(capsys, "export", path, "-o", tmp_path / "deep.graphml")[0] == 0
    code, out, _ = run(capsys, "play", "p1c3", "--tree", path, "--secret", "3")
    assert code == 0 and f"in {levels + 3} guesses" in out


@pytest.mark.parametrize("depth", [
    20_000, pytest.param(200_000, marks=pytest.mark.slow)])  # 200,000: the issue's file
def test_a_deeply_nested_meta_reads_and_writes(tmp_path, capsys, depth):
    strictjson = tree_module.strictjson
    doc = Strategy(P1C3, chain(0)).to_dict()
    doc["meta"] = {"deep": strictjson.loads("[" * depth + "]" * depth)}
    path = tmp_path / "meta.json"
    path.write_text(strictjson.dumps(doc))
    assert run(capsys, "verify", path)[0] == 0
    Strategy.load(path).save(tmp_path / "again.json")
    again = (tmp_path / "again.json").read_text()
    assert again == strictjson.dumps(strictjson.loads(path.read_text()), sort_keys=True)


def test_a_cycle_in_a_dict_is_refused_not_looped_over():
    doc = Strategy(P1C3, chain(0)).to_dict()
    doc["root"]["next"]["0B0W"]["next"]["0B0W"] = doc["root"]
    with pytest.raises(InvalidTreeError, match="cycle"):
        Strategy.from_dict(doc)


# ------------------------------------------------------------------- bound
def test_the_bound_covers_a_tree_of_a_million_secrets():
    # The bound's promise (tree.MAX_TREE_BYTES): every shipped tree, grown at its own
    # bytes per secret to a game of a million secrets, fits twice over.
    folder = os.path.join(os.path.dirname(tree_module.__file__), "data")
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".gz")):
        raw = gzip.decompress(open(os.path.join(folder, name), "rb").read())
        secrets = Strategy.from_dict(json.loads(raw)).game.n_codes
        assert len(raw) / secrets * 1_000_000 * 2 < tree_module.MAX_TREE_BYTES, name


def test_dev_zero_and_gzip_bombs_stop_at_the_bound(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_TREE_BYTES", 1 << 20)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (64 << 20)))  # 64 KiB that inflate to 64 MiB
    code, _, err = run(capsys, "verify", bomb)
    assert code == 2 and "inflates to more than the limit of 1,048,576 bytes" in err
    assert_one_line(err, "verify")
    if os.path.exists("/dev/zero"):
        code, _, err = run(capsys, "verify", "/dev/zero")
        assert code == 2 and "larger than the limit" in err


# ------------------------------------------------------------ strict verify
def _set(path, value):
    def change(doc):
        *outer, last = path
        for key in outer:
            doc = doc[key]
        if value is KeyError:
            del doc[last]
        else:
            doc[last] = value
    return change


def _retype(key, kind):
    """The true value of a stat, in another JSON type (replay alone would not see it)."""
    def change(doc):
        stats = doc["stats"]
        if key == "depth_counts":
            stats[key][0] = kind(stats[key][0])  # the root count: 1
        else:
            stats[key] = kind(stats[key])
    return change


STRICT = {
    "stat as string": _retype("total", str),
    "stat as float": _retype("total", float),
    "stat as padded string": _retype("max", lambda v: f" {v} "),
    "depth count as bool": _retype("depth_counts", bool),
    "depth count as float": _retype("depth_counts", float),
    "extra stat": _set(["stats", "mean"], 2.5),
    "version true": _set(["version"], True),
    "version 1.0": _set(["version"], 1.0),
    "no alphabet": _set(["game", "alphabet"], KeyError),
    "no optimal": _set(["optimal"], KeyError),
    "no max_guesses": _set(["max_guesses"], KeyError),
    "unknown field": _set(["colour"], "red"),
    "unknown game field": _set(["game", "colors"], 3),
}


@pytest.mark.parametrize("name", sorted(STRICT))
def test_verify_is_as_strict_as_the_schema(tmp_path, capsys, small_doc, name):
    jsonschema = pytest.importorskip("jsonschema")
    from optimal_mm.export import strategy_schema

    doc = copy.deepcopy(small_doc)
    STRICT[name](doc)
    code, out, err = run(capsys, "verify", write_doc(tmp_path, doc))
    assert code == 2 and out == ""
    assert_one_line(err, "verify")
    # The schema refuses the same document, except numbers like 1.0 and 23.0: JSON
    # Schema counts them as integers, a reader of a proof file does not.
    if name not in ("stat as float", "version 1.0", "depth count as float",
                    "depth count as bool"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(doc, strategy_schema())


def test_stat_strings_as_the_issue_typed_them(tmp_path, capsys, small_doc):
    total = small_doc["stats"]["total"]
    for value in (str(total), total - 0.0001, f" {total} ", total + 0.5):
        doc = copy.deepcopy(small_doc)
        doc["stats"]["total"] = value
        code, _, err = run(capsys, "verify", write_doc(tmp_path, doc))
        assert code == 2 and "'stats' must hold exactly the integers" in err


def test_a_duplicate_key_cannot_hide_a_junk_subtree(tmp_path, capsys, small_doc):
    text = json.dumps(small_doc)
    good = json.dumps(small_doc["root"])
    junk = json.dumps({"guess": "11", "next": {}})
    dup = text.replace('"root": ' + good, '"root": ' + junk + ', "root": ' + good)
    assert dup != text
    path = tmp_path / "dup.json"
    path.write_text(dup)
    assert json.loads(dup) == small_doc  # the standard reader would accept it
    code, _, err = run(capsys, "verify", path)
    assert code == 2 and "duplicate key 'root'" in err


def test_huge_numbers_and_answer_keys_are_malformed_not_a_python_limit(tmp_path, capsys,
                                                                      small_doc):
    doc = copy.deepcopy(small_doc)
    text = json.dumps(doc).replace('"secrets": 9', '"secrets": ' + "9" * 5000)
    path = tmp_path / "n.json"
    path.write_text(text)
    code, _, err = run(capsys, "verify", path)
    assert code == 2 and "5000 digits" in err and "4300" not in err
    doc = copy.deepcopy(small_doc)
    key = next(iter(doc["root"]["next"]))
    doc["root"]["next"]["1" * 5000 + "B0W"] = doc["root"]["next"].pop(key)
    code, _, err = run(capsys, "verify", write_doc(tmp_path, doc))
    assert code == 2 and "malformed answer key" in err and "4300" not in err


def test_control_characters_from_a_file_are_escaped(tmp_path, capsys, small_doc):
    doc = copy.deepcopy(small_doc)
    doc["objective"] = "knuth\x1b[2J\x1b]0;owned\x07"
    path = write_doc(tmp_path, doc)
    for command in ("verify", "show"):
        code, out, _ = run(capsys, command, path)
        assert code == 0 and "\x1b" not in out and "\\x1b[2J" in out


def test_strategy_load_and_save_refuse_a_non_path():
    for bad in (None, 3, ["t.json"]):
        with pytest.raises(InvalidTreeError, match="path"):
            Strategy.load(bad)
        with pytest.raises(OptimalMMError, match="path"):
            Strategy(P1C3, chain(0)).save(bad)


# ----------------------------------------------------------- caps and sizes
@pytest.mark.parametrize("cap", ["64", "66", str(10**23)])
def test_caps_beyond_the_tables_are_refused_not_clamped(capsys, tmp_path, cap):
    """The search's 64th level stands for no cap. Before, a cap above 64 was searched
    as 64 and its tree said max_guesses 64 while the report said the cap given; and
    p1c70, which needs 70 guesses, was "impossible within 64" under a cap of 100."""
    out = tmp_path / "t.json"
    code, text, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet",
                          "--max-guesses", cap, "-o", out)
    assert code == 2 and text == "" and not out.exists()
    assert_one_line(err, "solve")
    assert f"at most 63, the deepest cap the exact search takes, got {cap}" in err
    with pytest.raises(InvalidOptionError, match="at most 63"):
        solve("p2c3", "expected", max_guesses=int(cap), jobs=1)
    assert solve("p2c3", "expected", max_guesses=63, jobs=1).value == 21


@pytest.mark.parametrize("objective", ["worst-case", "expected", "fewest-at-worst"])
def test_a_game_that_needs_more_guesses_than_the_tables_have_is_refused(capsys, tmp_path,
                                                                         objective):
    """p1c70 answers only right or wrong: 70 guesses at worst. Before, the worst case
    ended in a StopIteration traceback and the expected total in "no strategy found"."""
    out = tmp_path / "t.json"
    code, text, err = run(capsys, "solve", "p1c70", "--objective", objective, "--jobs", "1",
                          "--quiet", "-o", out)
    assert code == 2 and not out.exists()
    assert_one_line(err, "solve")
    assert "p1c70 needs more than 64 guesses (the counting bound: 70 secrets, 2 answers)" in err
    code, text, err = run(capsys, "solve", "p1c70", "--jobs", "1", "--quiet",
                          "--max-guesses", "63", "-o", out)
    assert code == 1 and "impossible within 63 guesses" in text, err


@pytest.mark.parametrize("argv", [
    ["analyze", "p10c36", "0123456789"],
    ["analyze", "p10c36", "--best", "1"],
    ["strategy", "p10c36", "--heuristic", "entropy"],
])
def test_games_too_big_are_refused_up_front(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "too many to" in err and "3,656,158,440,062,976" in err
    assert_one_line(err, argv[0])


def test_an_absurdly_long_answer_is_malformed_everywhere(capsys, monkeypatch):
    long = "1" * 4301
    game = Game.from_spec("mastermind")
    with pytest.raises(InvalidAnswerError, match="malformed answer") as info:
        game.parse_answer(long)
    assert len(str(info.value)) < 200
    code, _, err = run(capsys, "analyze", "mastermind", "1234", "--after", f"1122={long}")
    assert code == 2 and "malformed answer" in err and "4300" not in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{long}\nquit\n"))
    code, out, err = run(capsys, "play", "mastermind")
    assert code == 0 and "malformed answer" in out and "try again" in out


@pytest.mark.parametrize("text", ["١B٢W", "２ １", "-1B5W", "2B1W3", "1B5W-"])
def test_answers_are_ascii_and_quoted_as_typed(text):
    with pytest.raises(InvalidAnswerError) as info:
        Game.from_spec("mastermind").parse_answer(text)
    assert repr(text) in str(info.value)
    assert "black +" not in str(info.value)


@pytest.mark.parametrize("spec", ["p٤c٦", "p4c６", "p" + "9" * 5000 + "c6"])
def test_specs_are_ascii_and_short(spec):
    with pytest.raises(InvalidGameError, match="unknown game") as info:
        Game.from_spec(spec)
    assert len(str(info.value)) < 300


# --------------------------------------------------------------------- API
@pytest.mark.parametrize("options, words", [
    ({"jobs": -5}, "--jobs"), ({"jobs": "2"}, "--jobs"), ({"jobs": 2.5}, "--jobs"),
    ({"jobs": True}, "--jobs"), ({"backend": "foo"}, "backend"),
    ({"max_guesses": True}, "--max-guesses"), ({"max_guesses": 2.0}, "--max-guesses"),
    ({"memory_limit": "lots"}, "--memory-limit"), ({"table_entries": "9"}, "table entries"),
    ({"checkpoint": ""}, "--checkpoint"), ({"split_secrets": 0}, "split secrets"),
    ({"chain_secrets": 0}, "chain secrets"), ({"chain_secrets": 2.5}, "chain secrets"),
])
def test_solve_checks_its_arguments_up_front(options, words):
    with pytest.raises(OptimalMMError, match=words) as info:
        solve("p2c3", "expected", **options)
    value = next(iter(options.values()))
    assert repr(value) in str(info.value)


def test_solve_takes_a_spec_and_a_size_string():
    sol = solve("p2c3", "expected", jobs=1, memory_limit="4G")
    assert sol.value == 21
    with pytest.raises(InvalidGameError, match="a Game or a game spec"):
        solve(None)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
@pytest.mark.parametrize("command", [["play", "mastermind", "--secret", "1234"],
                                     ["strategy", "p2c3", "--heuristic", "knuth"]])
def test_one_move_time_rule(capsys, command, value):
    code, _, err = run(capsys, *command, "--move-time", value)
    assert code == 2 and "--move-time must be a finite number of seconds above 0" in err
    with pytest.raises(InvalidOptionError):
        build_strategy(Game.from_spec("p2c3"), "knuth", move_time=float(value))


@pytest.mark.parametrize("value", ["0", "-3"])
@pytest.mark.parametrize("option", ["--split-secrets", "--chain-secrets"])
def test_split_secrets_must_be_positive(capsys, tmp_path, value, option):
    out = tmp_path / "t.json"
    code, _, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet",
                       option, value, "-o", out)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert_one_line(err, "solve")
    assert option in err and value in err and not out.exists()


# ------------------------------------------------ limits the clocks can hold
@pytest.mark.parametrize("value", ["inf", "nan", "0", "-2", "3e6", "1e15"])
@pytest.mark.parametrize("command", [
    ["solve", "p2c3", "--quiet"], ["within", "p2c3", "3", "--quiet"],
    ["hint", "p2c3"], ["play", "p2c3", "--coach", "--secret", "12"],
])
def test_a_time_limit_is_refused_beyond_what_the_clocks_hold(capsys, tmp_path, command,
                                                             value):
    """A time limit is more than 0 and at most MAX_TIME_LIMIT seconds, everywhere: the
    interval timer of solve and within overflows from about 9e9 s, the child's pipe
    that hint and the coach wait on from about 2e6 s (before, a traceback)."""
    out = tmp_path / "t.json"
    extra = ["-o", out] if command[0] in ("solve", "within") else []
    code, _, err = run(capsys, *command, *extra, "--time-limit", value)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert_one_line(err, command[0])
    assert "--time-limit must be a positive number of seconds, at most 1,000,000" in err
    assert not out.exists()


def test_the_library_keeps_the_same_time_limit_rule():
    from optimal_mm.advice import Advisor
    from optimal_mm.errors import MAX_TIME_LIMIT, check_time_limit

    check_time_limit(MAX_TIME_LIMIT)
    for bad in (float("inf"), MAX_TIME_LIMIT * 2, 0, -1.0, True, "60"):
        with pytest.raises(InvalidOptionError, match="time limit"):
            check_time_limit(bad, "the time limit")
    with pytest.raises(InvalidOptionError, match="the time limit must be a positive"):
        Advisor(Game.from_spec("p2c3"), time_limit=float("inf"))


def test_a_worst_case_of_64_is_solved_but_is_no_cap(capsys, tmp_path):
    """p1c64's worst case is 64 guesses, the tables' last level: the worst case is
    solved, while the objectives that search under it as a cap refuse in one line
    (the 64th level would read as no cap)."""
    out = tmp_path / "t.json"
    code, text, err = run(capsys, "solve", "p1c64", "--jobs", "1", "--quiet", "-o", out)
    assert code == 0 and "worst case: 64 guesses, optimal (proven)" in text, err
    for objective in ("worst-then-expected", "fewest-at-worst"):
        code, text, err = run(capsys, "solve", "p1c64", "--objective", objective, "--jobs",
                              "1", "--quiet", "-o", tmp_path / f"{objective}.json")
        assert code == 2 and not (tmp_path / f"{objective}.json").exists()
        assert_one_line(err, "solve")
        assert "p1c64's worst case, 64 guesses, is beyond the deepest cap" in err


@pytest.mark.parametrize("depth", ["64", str(10**20)])
def test_within_refuses_a_depth_beyond_the_tables(capsys, tmp_path, depth):
    """within D for D of 64 or more (first an IndexError, then searched within 64
    while the report said D) is refused as solve's cap is; 63 is searched."""
    out = tmp_path / "t.json"
    code, text, err = run(capsys, "within", "p2c3", depth, "--quiet", "-o", out)
    assert code == 2 and not out.exists()
    assert_one_line(err, "within")
    assert f"depth must be at most 63, the deepest the exact search takes, got {depth}" in err
    code, text, err = run(capsys, "within", "p2c3", "63", "--quiet", "-o", out)
    assert code == 0 and "a tree within 63 guesses" in text, err
    assert Strategy.load(out).validate().max == 3


@pytest.mark.parametrize("cap", ["3", "63"])
def test_a_capped_worst_case_says_the_cap_suffices_not_that_it_is_the_worst_case(
        capsys, tmp_path, cap):
    code, text, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet",
                          "--max-guesses", cap, "-o", tmp_path / "t.json")
    assert code == 0, err
    assert f"worst case: {cap} guesses suffice (this tree needs at most 3;" in text
    assert "within the cap" not in text


def test_symmetry_refuses_a_sum_too_long_to_run(capsys):
    """Burnside's sum runs over pairs of cycle types; p25c25's 3.8 million (before, a
    run without end) is refused at once, p20c20's 0.39 million is counted."""
    from optimal_mm.counting import MAX_TERMS, partition_count

    assert partition_count(25) ** 2 > MAX_TERMS >= partition_count(20) ** 2
    code, _, err = run(capsys, "symmetry", "p25c25", "--depth", "1")
    assert code == 2 and "3,833,764 pairs of cycle types" in err
    assert_one_line(err, "symmetry")


@pytest.mark.parametrize("argv, words", [
    (["impartial", "table", "subtraction", "--up-to", "-1"], "--up-to must be 0 or more"),
    (["impartial", "table", "nim", "--up-to", "-1"], "--up-to must be 0 or more"),
    (["solve", "p2c3", "--objective", "static", "--max-guesses", "0"],
     "--max-guesses does not apply to --objective static"),
    (["solve", "p2c3", "--objective", "static", "--guesses", "consistent"],
     "--guesses consistent does not apply to --objective static"),
    (["solve", "p2c3", "-o", ""], "-o needs a file name"),
    (["checkpoint", ""], "checkpoint '' is not a directory"),
    (["hint", "p2c3", "--history", "12=2B0W 21=0B2W"], "#1 12=2B0W won the game"),
])
def test_options_that_mean_nothing_are_refused(capsys, tmp_path, monkeypatch, argv, words):
    """Each had exited 0: an empty table, a static solve ignoring a cap, the default
    output for ``-o ''``, the current folder for a checkpoint of ``''``, a hint for a
    turn after the game was won."""
    monkeypatch.chdir(tmp_path)  # nothing may be written here
    code, out, err = run(capsys, *argv)
    assert code == 2 and words in err, err
    assert_one_line(err, argv[0])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("script, args, words", [
    ("estimate_exp_run", ["{tmp}/missing.json", "{tmp}/missing.json"], "No such file"),
    ("estimate_exp_run", ["{tmp}/list.json", "{tmp}/list.json"],
     "not a file of sample_exp_tasks.py"),
    ("symmetry_table", ["--depth", "0", "--out", "{tmp}/sym"], "--depth must be 1..50"),
    ("symmetry_table", ["--out", "{tmp}/no/sym"], "does not exist"),
    ("sample_exp_tasks", ["p2c3", "--first", "99", "-o", "{tmp}/t.json"], "outside the alphabet"),
    ("sample_exp_tasks", ["p2c3", "-o", "{tmp}/no/t.json"], "does not exist"),
    ("sample_wc_tasks", ["p2c3", "--first", "12", "--depth", "99", "--all"],
     "--depth: must be 2..64"),
    ("make_charts", ["--results", "{tmp}/no"], "is not a folder"),
    ("time_rival", ["p2c3", "--first", "12", "--rival", "21", "--part", "2", "--budget", "-1"],
     "--budget: must be at least 1"),
    ("time_small_parts", ["p2c3", "--first", "12", "--below", "1"],
     "--below: must be at least 2"),
    # Options that ran before (a traceback from each game's process, a division by
    # zero in the page, results written over), refused since 2026-12-04
    ("bench_play", ["--move-time", "nan", "--results", "{tmp}"], "--move-time must be a finite"),
    ("bench_play", ["--secrets", "0", "--results", "{tmp}"], "--secrets: must be at least 1"),
    ("bench_largen", ["--sizes", "2", "--results", "{tmp}"], "--sizes: must be 3..1024, got 2"),
    ("bench_largen", ["--sizes", "2048", "--results", "{tmp}"],
     "--sizes: must be 3..1024, got 2048"),
    ("bench_largen", ["--move-time", "0", "--results", "{tmp}"], "--move-time must be"),
    ("bench_dask", ["--repeat", "0", "--out", "{tmp}/b"], "--repeat: must be at least 1"),
    ("recheck_table", ["--min-codes", "10", "--max-codes", "5"], "0 <= min <= max"),
    ("bench", ["--repeat", "0"], "--repeat: must be at least 1"),
    ("black_only_survey", ["--compare", "p4c5b/any/expected", "{tmp}/x.json"],
     "--compare {tmp}/x.json: not a solved entry of the table"),
])
def test_the_scripts_refuse_bad_input_in_one_line_before_any_work(tmp_path, script, args,
                                                                 words):
    """The scripts end as the commands do (``optimal_mm.cli.guarded``): one line,
    status 2, no traceback, and nothing written."""
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    (tmp_path / "list.json").write_text("[1]")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    before = sorted(tmp_path.iterdir())
    proc = subprocess.run([sys.executable, os.path.join(root, "scripts", f"{script}.py"),
                           *argv], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    last = proc.stderr.strip().splitlines()[-1]
    assert proc.returncode == 2 and words.replace("{tmp}", str(tmp_path)) in last, proc.stderr
    assert "Traceback" not in proc.stderr and last.startswith(f"{script}.py: error: ")
    assert sorted(tmp_path.iterdir()) == before


def test_every_script_runs_under_guarded():
    """Every script run as a program hands its ``main`` to ``optimal_mm.cli.guarded``,
    so that Ctrl-C, SIGTERM and bad input end it in one line, with 130, 143 or 2
    (seven ran bare, and a Ctrl-C printed a traceback)."""
    import ast

    scripts = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "scripts")
    bare, checked = [], 0
    for name in sorted(os.listdir(scripts)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(scripts, name)) as f:
            body = ast.parse(f.read()).body
        blocks = [ast.unparse(n) for n in body
                  if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
        if blocks:
            checked += 1
            if "guarded(" not in blocks[0]:
                bare.append(name)
    assert checked >= 20 and bare == []


@pytest.mark.parametrize("argv", [["play", "p2c3", "--heuristic", "", "--secret", "12"],
                                  ["match", "p2c3", "--tree", ""]])
def test_an_empty_player_is_refused_not_taken_for_the_default(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and "needs a name, got ''" in err[-1]
