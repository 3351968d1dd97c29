"""``scripts/optimal_tables.py --checkpoint``: a table entry that needs more than one
sitting resumes from the tasks its earlier sittings saved, and the table says so."""

from __future__ import annotations

import queue
import re
import signal
import sys
from pathlib import Path

import pytest

from optimal_mm import Game

from script_loader import load_script

ROOT = Path(__file__).resolve().parents[1]


def _script():
    return load_script("optimal_tables")


def _module(name):
    """A module the script imports (``table_entries``, ``table_page``,
    ``table_store``), as the script imported it: its functions read their globals
    there, so a patch reaches the script's calls only on this object."""
    load_script("optimal_tables")
    return sys.modules[name]


class _Queue:
    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)


def _final(queue):
    """The worker's one result, after its partial reports (best and bound so far)."""
    final = [item for item in queue.items if not item.get("partial")]
    assert len(final) == 1 and queue.items[-1] is final[0]
    return final


def test_an_entry_resumes_from_its_checkpoint(tmp_path):
    script = _script()
    rules = _module("table_entries")
    first, again, plain = _Queue(), _Queue(), _Queue()
    script._worker("p3c4", "expected", "any", str(tmp_path), first)
    saved = list(Path(rules.checkpoint_dir(tmp_path, "p3c4", "any", "expected")).glob("task-*"))
    assert saved  # the entry's own directory holds its finished tasks
    script._worker("p3c4", "expected", "any", str(tmp_path), again)
    script._worker("p3c4", "expected", "any", None, plain)
    (a,), (b,), (c,) = (_final(q) for q in (first, again, plain))
    assert a["value"] == b["value"] == c["value"] == 206  # Goddard's total, proven anew
    for q in (first, again, plain):  # what a timeout would have kept: proofs, all of them
        partial = [item for item in q.items if item.get("partial")]
        assert partial and all(p["bound"] is None or p["bound"] <= 206 for p in partial)
        assert all(p["best"] is None or p["best"] >= 206 for p in partial)
        assert partial[-1]["best"] == 206
    assert a["resumed_tasks"] is None and c["resumed_tasks"] is None
    assert b["resumed_tasks"] >= len(saved)
    assert b["first_guess"] == a["first_guess"] and b["tree_total"] == a["tree_total"]


def test_the_table_marks_a_resumed_entry():
    page = _module("table_page")
    base = {"spec": "p3c4", "codes": 64, "guesses": "any", "status": "solved",
            "published": None, "source": None}
    entries = {
        "p3c4/any/worst-case": {**base, "objective": "worst-case", "value": 4,
                                "seconds": 0.5, "resumed_tasks": None},
        "p3c4/any/expected": {**base, "objective": "expected", "value": 206,
                              "seconds": 1.25, "resumed_tasks": 12, "tree_max": 4},
    }
    meta = {"machine": "2 CPUs", "time_limit": 60, "max_codes": 64}
    text = page.markdown(entries, meta)
    row = next(line for line in text.splitlines() if line.startswith("| p3c4 |"))
    assert "| 0.50 |" in row and "| 1.25† |" in row
    assert "† the last sitting" in text
    del entries["p3c4/any/expected"]["resumed_tasks"]
    assert "†" not in page.markdown(entries, meta)


def test_the_table_comes_first_and_its_runs_after_it_oldest_first():
    page = _module("table_page")
    entry = {"spec": "p3c4", "codes": 64, "guesses": "any", "status": "solved",
             "published": None, "source": None, "objective": "worst-case", "value": 4,
             "seconds": 0.5}
    runs = [{"command": f"python scripts/optimal_tables.py --only p3c4 --time-limit {t}",
             "time_limit": t, "parallel": 1, "note": f"run {t}"} for t in (60, 900)]
    meta = {"machine": "2 CPUs", "time_limit": 60, "max_codes": 64,
            "note": "The first runs.", "runs": runs}
    lines = page.markdown({"p3c4/any/worst-case": entry}, meta).splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("| p3c4 |"))
    heading = lines.index("## The runs, oldest first")
    first, second = (next(i for i, line in enumerate(lines) if f"--time-limit {t}`" in line)
                     for t in (60, 900))
    assert lines[0].startswith("# ") and row < heading < lines.index("The first runs.") \
        < first < second
    assert "## The runs" not in page.markdown({"p3c4/any/worst-case": entry},
                                              {**meta, "note": None, "runs": []})


def test_a_bad_checkpoint_is_refused_before_any_entry(tmp_path, capsys, monkeypatch):
    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    table.write_text('{"meta": {}, "entries": {}}\n')
    monkeypatch.setattr(store, "JSON_PATH", table)
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = script.main(["--only", "p2c3", "--redo", "--checkpoint", str(blocker / "sub")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "cannot use --checkpoint" in err
    assert table.read_text() == '{"meta": {}, "entries": {}}\n'  # untouched
    assert not (tmp_path / "optimal_table.md").exists()


def test_a_run_with_nothing_to_do_leaves_no_record(tmp_path, capsys, monkeypatch):
    """Every entry asked for is in the table already: the run says so and writes
    nothing (before, it added a paragraph for a run that solved nothing)."""
    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    text = ('{"meta": {"time_limit": 5}, "entries": {"p2c3/any/worst-case": '
            '{"spec": "p2c3", "guesses": "any", "objective": "worst-case", '
            '"status": "solved", "value": 3}}}\n')
    table.write_text(text)
    monkeypatch.setattr(store, "JSON_PATH", table)
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    assert script.main(["--only", "p2c3", "--guesses", "any", "--objectives", "worst-case",
                        "--time-limit", "5"]) == 0
    assert "nothing to run" in capsys.readouterr().out
    assert table.read_text() == text and not (tmp_path / "optimal_table.md").exists()


def test_an_unknown_game_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    table.write_text('{"meta": {}, "entries": {}}\n')
    monkeypatch.setattr(store, "JSON_PATH", table)
    with pytest.raises(SystemExit) as exit_:
        script.main(["--only", "p2c3", "nonsense", "--time-limit", "5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and "--only nonsense: unknown game 'nonsense'" in err[-1]
    assert table.read_text() == '{"meta": {}, "entries": {}}\n'  # untouched
    # A game beyond the table's size, refused the same way (its solves failed, and
    # their errors went into the table)
    for spec, words in [("p99c99", "--only p99c99: "), ("p6c7n", "--only p6c7n: 5,040 codes, "
                                                      "more than --max-codes 5,000")]:
        with pytest.raises(SystemExit) as exit_:
            script.main(["--only", "p2c3", spec, "--time-limit", "5"])
        err = capsys.readouterr().err.strip().splitlines()
        assert exit_.value.code == 2 and words in err[-1], err
        assert table.read_text() == '{"meta": {}, "entries": {}}\n'


@pytest.mark.parametrize("option, value, words", [
    ("--time-limit", "-5", "--time-limit must be a positive number"),
    ("--time-limit", "inf", "at most 1,000,000"),
    ("--parallel", "0", "--parallel must be 1 or more"),
    ("--max-codes", "0", "--max-codes must be 1 or more"),
    ("--guesses", "sometimes", "--guesses takes any and consistent"),
    ("--checkpoint-min-seconds", "nan", "--checkpoint-min-seconds must be a finite number"),
    ("--progress-interval", "-1", "--progress-interval must be a finite number of 0 or more"),
    ("--progress-interval", "inf", "--progress-interval must be a finite number of 0 or more"),
    ("--table-entries", "-1", "--table-entries must be 0 or more"),
])
def test_options_out_of_range_are_refused_before_the_table_is_touched(
        tmp_path, capsys, monkeypatch, option, value, words):
    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    table.write_text('{"meta": {}, "entries": {}}\n')
    monkeypatch.setattr(store, "JSON_PATH", table)
    with pytest.raises(SystemExit) as exit_:
        script.main(["--only", "p2c3", option, value])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and words in err[-1]
    assert table.read_text() == '{"meta": {}, "entries": {}}\n'  # untouched


def test_a_worker_hands_its_table_size_to_the_search(monkeypatch):
    """``--table-entries N`` reaches the solver (each search process's table); a table
    far smaller than the search changes its work, never its value; without the option
    the search keeps its own default."""
    import optimal_mm.search

    script = _script()
    real, seen = optimal_mm.search.Solver, []

    class Solver(real):
        def __init__(self, *args, **options):
            seen.append(options.get("table_entries"))
            super().__init__(*args, **options)

    monkeypatch.setattr(optimal_mm.search, "Solver", Solver)
    small, plain = _Queue(), _Queue()
    script._worker("p4c4", "expected", "any", None, small, table_entries=16)
    script._worker("p4c4", "expected", "any", None, plain)
    (a,), (b,) = _final(small), _final(plain)
    assert seen == [None, 16, None, None]  # each worker's warm-up solve, then its entry
    assert a["value"] == b["value"] and a["tree_total"] == b["tree_total"] == a["value"]
    assert a["states"] > b["states"]  # states the small table lost, searched again


def test_a_worst_case_worker_reports_its_refuted_depths():
    script = _script()
    queue = _Queue()
    script._worker("p3c5b", "worst-case", "any", None, queue)
    (final,) = _final(queue)
    bounds = [item["bound"] for item in queue.items if item.get("partial")]
    # The counting bound first, then one more than each refuted depth, up to t*.
    assert bounds == sorted(bounds) and bounds[-1] == final["value"]
    assert len(set(bounds)) >= 2


def test_a_worker_logs_its_search_after_the_entry_key(capfd):
    """With a progress interval the entry's search tells stderr what it does, every
    line after the entry's key (several entries may share the log), and still sends
    its bounds to the table; without, it writes nothing there."""
    script = _script()
    logged, quiet = _Queue(), _Queue()
    script._worker("p3c5b", "worst-case", "any", None, logged, progress_interval=0)
    lines = capfd.readouterr().err.splitlines()
    script._worker("p3c5b", "worst-case", "any", None, quiet)
    assert capfd.readouterr().err == ""
    assert lines and all(line.startswith("p3c5b/any/worst-case ") for line in lines)
    assert any(re.search(r" \[\d+:\d\d:\d\d\] worst case within \d+: .*tasks", line)
               for line in lines)
    assert any("guesses: feasible with first guess" in line for line in lines)
    assert _final(logged)[0]["value"] == _final(quiet)[0]["value"]
    assert [i for i in logged.items if i.get("partial")] == [
        i for i in quiet.items if i.get("partial")]


def _capped_reports(spec, objective):
    """The table's worker run on ``spec`` with a capped ``objective``: its result and
    its partial reports (what a timeout keeps), each checked to bracket the value
    (the bound at most, the best at least; the last best is the value)."""
    queue = _Queue()
    _script()._worker(spec, objective, "any", None, queue)
    (final,) = _final(queue)
    partial = [item for item in queue.items if item.get("partial")]
    assert partial, "the capped search reported nothing"
    for p in partial:
        assert p["bound"] is None or p["bound"] <= final["value"]
        assert p["best"] is None or p["best"] >= final["value"]
    assert partial[-1]["best"] == final["value"]
    return final, partial


@pytest.mark.parametrize("spec", ["p3c4", "p3c5b"])
def test_a_fewest_at_worst_worker_reports_secrets_at_the_cap(spec):
    """Its partial reports are what a timeout keeps for the "at t*" cell: each is a
    count of secrets at the cap (not a depth of the worst-case search that runs
    first, nor a weighted cost), at least the bound and at most the best."""
    _, partial = _capped_reports(spec, "fewest-at-worst")
    bounds = [p["bound"] for p in partial if p["bound"] is not None]
    assert bounds == sorted(bounds)


def test_a_fewest_at_worst_bound_reads_only_capped_costs():
    from optimal_mm.search import CappedCost

    script = _script()
    queue = _Queue()
    bounds = script._bounds_progress(queue, "fewest-at-worst")
    bounds.update(bound=7)                      # a depth of the worst-case phase
    bounds.update(best=5)
    bounds.update(bound=CappedCost(0, 7885))    # no secret forced to the cap: nothing
    assert queue.items == []
    bounds.update(bound=CappedCost(12, 4000))
    bounds.update(best=CappedCost(30, 4100))
    assert queue.items[-1] == {"partial": True, "best": 30, "bound": 12}


@pytest.mark.parametrize("spec", ["p4c6", "p3c5b"])
def test_a_worst_then_expected_worker_reports_totals_within_the_cap(spec):
    """Its partial reports come from the capped expected search alone (never a depth
    of the worst case that runs first): at least the bound, at most the best."""
    _, partial = _capped_reports(spec, "worst-then-expected")
    n = Game.from_spec(spec).n_codes  # a total, not a depth of the worst case
    assert all(p["bound"] is None or p["bound"] >= n for p in partial)


def test_a_worst_then_expected_bound_reads_the_second_search_only():
    script = _script()
    queue = _Queue()
    bounds = script._bounds_progress(queue, "worst-then-expected")
    bounds.reset()                 # the worst case begins
    bounds.update(bound=7)
    bounds.update(best=8)
    assert queue.items == []
    bounds.reset()                 # the expected search within 8 begins
    bounds.update(bound=16000)
    bounds.update(best=16900)
    assert queue.items[-1] == {"partial": True, "best": 16900, "bound": 16000}


class _DeadlineQueue:
    """What a timed-out worker left in its queue: partial reports, no result."""

    def __init__(self, items):
        self.items = list(items)

    def get(self, timeout=None):
        if not self.items:
            raise queue.Empty
        return self.items.pop(0)

    def get_nowait(self):
        return self.get()


class _Stuck:
    """A worker process still running past its limit."""
    exitcode = None

    def __init__(self):
        self.killed = self.terminated = False

    def is_alive(self):
        return not self.killed

    def terminate(self):  # SIGTERM: a worker stops its search, if it has begun it
        self.terminated = True

    def join(self, timeout=None):
        pass

    def kill(self):
        self.killed = True


def test_a_timeout_keeps_the_bounds_its_search_had_proven():
    script = _script()
    rules = _module("table_entries")
    page = _module("table_page")
    entry = script.Entry.__new__(script.Entry)
    entry.key, entry.time_limit, entry.bounds = "p4c7b/any/expected", 1.0, {}
    entry.start = script.time.perf_counter() - 100
    entry.proc = _Stuck()
    entry.ceiling = (str(rules.ROOT / "results" / "trees" / "t.json.gz"), 18800)
    entry.queue = _DeadlineQueue([{"partial": True, "best": None, "bound": 18000},
                                  {"partial": True, "best": 18763, "bound": 18100}])
    result = entry.poll()
    assert entry.proc.killed
    assert result["status"] == "timeout" and result["bound"] == 18100
    assert result["best"] == 18763 and result["seconds"] >= 100
    # the tree it started from, as a timeout records it too
    assert result["ceiling"] == {"tree": "results/trees/t.json.gz", "value": 18800}
    # A retry keeps the best of both runs' proofs; the table prints them.
    kept = rules.merge_bounds({"status": "timeout", "bound": 18200, "best": 18900},
                              {"status": "timeout", "bound": 18100, "best": 18763})
    assert kept == {"bound": 18200, "best": 18763}
    assert rules.merge_bounds(None, {"status": "timeout"}) == {"bound": None, "best": None}
    retried = rules.keep_proofs({"status": "timeout", "seconds": 610.0, "bound": 18200},
                                {"status": "timeout", "seconds": 300.2, "bound": 18100,
                                 "best": 18763})
    assert retried == {"status": "timeout", "seconds": 610.0, "bound": 18200, "best": 18763}
    solved_before = {"status": "solved", "seconds": 5.0, "value": 1}
    assert rules.keep_proofs(solved_before, {"status": "timeout", "seconds": 9.0}) == {
        "status": "timeout", "seconds": 9.0}
    assert page.bounds_text({"status": "timeout", **kept}) == "(timeout) ≥ 18200, ≤ 18763"
    # A run that fails (a worker killed) proves nothing: an entry that had proven
    # something stays as it was; one that had not records the error.
    timed_out = {"status": "timeout", "seconds": 7610.0, "bound": 29782, "best": 34183}
    error = {"status": "error", "seconds": 591.6}
    assert rules.merged_entry(timed_out, error) == timed_out
    assert rules.merged_entry(solved_before, error) == solved_before
    assert rules.merged_entry(None, error) == error
    assert rules.merged_entry({"status": "error", "seconds": 1.0}, error) == error
    assert rules.merged_entry(timed_out, {"status": "timeout", "seconds": 600.0}) == timed_out
    assert page.bounds_text({"status": "error"}) == "(error)"


def test_the_other_guess_rule_bounds_an_open_entry(monkeypatch):
    page = _module("table_page")
    # Whatever results/within.json holds (a tree closed p6c7nb's worst case since).
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: None)
    base = {"spec": "p6c7nb", "objective": "worst-case", "status": "timeout",
            "seconds": 915.4}
    any_open = {**base, "guesses": "any", "bound": 8}
    consistent = {**base, "guesses": "consistent", "status": "solved", "value": 9}
    # Any guesses never need more than consistent ones: at most 9.
    assert page.bounds_text(any_open, consistent) == "(timeout) ≥ 8, ≤ 9*"
    # A consistent optimum is at least the one with any guesses: at least 8 (but the
    # entry's own bound 9 is better).
    assert page.bounds_text({**base, "guesses": "consistent", "bound": 7},
                            {**base, "guesses": "any", "status": "solved", "value": 8}
                            ) == "(timeout) ≥ 8*"
    assert page.bounds_text({**base, "guesses": "consistent", "bound": 9},
                            {**base, "guesses": "any", "status": "solved", "value": 8}
                            ) == "(timeout) ≥ 9"
    # An open twin implies what its search had proven: a consistent entry is at least
    # the bound proven with any guesses, an any-guess entry at most the consistent
    # best tree; nothing from an open twin without them, nor for the capped objectives
    # unless both rules share the cap (below).
    assert page.bounds_text(any_open, {**consistent, "status": "timeout"}) == "(timeout) ≥ 8"
    assert page.bounds_text({**base, "guesses": "consistent", "bound": 8},
                            {**base, "guesses": "any", "bound": 9}) == "(timeout) ≥ 9*"
    assert page.bounds_text({**base, "guesses": "consistent", "bound": 9},
                            {**base, "guesses": "any", "bound": 8}) == "(timeout) ≥ 9"
    expected = {**base, "objective": "expected"}
    assert page.bounds_text({**expected, "guesses": "any", "bound": 4760, "best": 6000},
                            {**expected, "guesses": "consistent", "bound": 5000,
                             "best": 5875}) == "(timeout) ≥ 4760, ≤ 5875*"
    fewest = {**any_open, "objective": "fewest-at-worst"}
    assert page.bounds_text(fewest, {**consistent, "objective": "fewest-at-worst"}) == \
        "(timeout) ≥ 8"
    entries = {"p6c7nb/any/worst-case": {**any_open, "codes": 5040, "published": None,
                                         "source": None},
               "p6c7nb/consistent/worst-case": {**consistent, "codes": 5040,
                                                "published": None, "source": None}}
    text = page.markdown(entries, {"machine": "2 CPUs", "time_limit": 900,
                                   "max_codes": 100})
    assert "| (timeout) ≥ 8, ≤ 9* |" in text and page.IMPLIED_NOTE in text


def test_a_worst_case_closed_by_a_tree_reads_as_its_value(monkeypatch):
    # A tree of `within` at the bound the search proved closes the entry; one deeper
    # than the bound is an upper bound.
    page = _module("table_page")
    entry = {"spec": "p6c7nb", "guesses": "any", "objective": "worst-case",
             "status": "timeout", "bound": 8}
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: 8)
    assert page.bounds_text(entry) == "8‡"
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: 9)
    assert page.bounds_text(entry) == "(timeout) ≥ 8, ≤ 9‡"
    # For consistent guesses the bound may come from the any-guess twin.
    cons = dict(entry, guesses="consistent", bound=None)
    twin = {"status": "solved", "value": 9}
    assert page.bounds_text(cons, twin) == "9‡"
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: None)
    assert page.bounds_text(cons, twin) == "(timeout) ≥ 9*"


def _halted(script, items, why):
    entry = script.Entry.__new__(script.Entry)
    entry.key, entry.time_limit, entry.bounds = "p4c7b/any/expected", 600.0, {}
    entry.start = script.time.perf_counter() - 42
    entry.proc, entry.ceiling = _Stuck(), None
    entry.queue = _DeadlineQueue(items)
    return entry, entry.halt(why)


def test_a_stopped_entry_keeps_what_its_search_had_proven():
    script = _script()
    rules = _module("table_entries")

    def partial():  # (the entry takes the flag off each report it reads)
        return [{"partial": True, "best": None, "bound": 18000},
                {"partial": True, "best": 18763, "bound": 18100}]

    entry, result = _halted(script, partial(), "terminated")
    assert entry.proc.terminated and entry.proc.killed  # asked first, then killed
    assert result == {"status": "timeout", "seconds": result["seconds"], "bound": 18100,
                      "best": 18763, "stopped": "terminated"}
    assert 42 <= result["seconds"] < 600
    # A worker that stopped its search writes its best tree: the result names it
    entry, result = _halted(script, partial() + [
        {"status": "timeout", "best": 18700, "best_tree": "/tmp/b.json.gz"}], "terminated")
    assert result == {"status": "timeout", "seconds": result["seconds"], "bound": 18100,
                      "best": 18700, "best_tree": "/tmp/b.json.gz", "stopped": "terminated"}
    # A result that came just before the signal is the entry's answer.
    entry, result = _halted(script, partial() + [{"value": 18763, "seconds": 41.0}],
                            "interrupted")
    assert entry.proc.killed and result == {"value": 18763, "seconds": 41.0,
                                            "status": "solved"}
    # In the table: a stopped run keeps the longer run's time and both runs' proofs
    # (a timeout, for the cell), and never undoes a solved entry (a --redo cut short).
    stopped = {"status": "timeout", "seconds": 42.0, "bound": 18150, "best": 18900,
               "stopped": "interrupted"}
    before = {"status": "timeout", "seconds": 610.0, "bound": 18100, "best": 18763}
    assert rules.merged_entry(before, stopped) == {**stopped, "seconds": 610.0,
                                                   "bound": 18150, "best": 18763}
    solved = {"status": "solved", "seconds": 5.0, "value": 18763}
    assert rules.merged_entry(solved, stopped) == solved
    assert rules.merged_entry(None, stopped) == stopped


@pytest.mark.parametrize("how, status, word", [("ctrl-c", 130, "interrupted"),
                                                ("sigterm", 143, "terminated")])
def test_a_run_stopped_by_a_signal_records_its_running_entry(tmp_path, monkeypatch, capsys,
                                                              how, status, word):
    """Ctrl-C or SIGTERM (through the handler the script runs under, as the command
    line's: :func:`optimal_mm.cli.guarded`) while an entry runs: the entry goes into
    the table with what its search had sent so far, the run ends in one line naming
    it and the checkpoint, with the signal's exit status, and no traceback."""
    import json

    from optimal_mm.cli import guarded

    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    monkeypatch.setattr(store, "JSON_PATH", table)
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    stopped = []

    class Entry:  # its search has sent a bound and a best tree when the signal comes
        def __init__(self, key, *args, **options):
            self.key = key

        def poll(self):
            if how == "ctrl-c":
                raise KeyboardInterrupt
            signal.raise_signal(signal.SIGTERM)

        def halt(self, why):
            stopped.append(why)
            return {"status": "timeout", "seconds": 3.5, "bound": 2, "best": 5,
                    "stopped": why}

        def stop(self):
            stopped.append("stop")

    monkeypatch.setattr(script, "Entry", Entry)
    code = guarded(script.PROG, lambda: script.main([
        "--only", "p2c3", "--guesses", "any", "--objectives", "expected",
        "--checkpoint", str(tmp_path / "cp")]))
    assert code == status and stopped == [word, "stop"]
    entry = json.loads(table.read_text())["entries"]["p2c3/any/expected"]
    assert (entry["status"], entry["stopped"], entry["bound"], entry["best"]) == (
        "timeout", word, 2, 5)
    out, err = capsys.readouterr()
    assert f"p2c3/any/expected: timeout, {word} (3.5 s)" in out
    assert err.splitlines() == [
        f"optimal_tables.py: {word}; p2c3/any/expected recorded as stopped, with what its "
        f"search had proven; its finished tasks are in {tmp_path / 'cp'}: rerun the same "
        f"command to resume"]
    assert "(timeout) ≥ 2, ≤ 5" in (tmp_path / "optimal_table.md").read_text()


def test_a_stop_while_the_table_is_written_waits_for_both_files(tmp_path, monkeypatch):
    store = _module("table_store")
    monkeypatch.setattr(store, "JSON_PATH", tmp_path / "optimal_table.json")
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    write = store.atomic_write_text
    written = []

    def ctrl_c_on_the_first(path, text):  # Ctrl-C comes as the JSON is written
        if not written:
            signal.raise_signal(signal.SIGINT)
        write(path, text)
        written.append(path.name)

    monkeypatch.setattr(store, "atomic_write_text", ctrl_c_on_the_first)
    meta = {"machine": "2 CPUs", "time_limit": 1, "max_codes": 9, "runs": []}
    with pytest.raises(KeyboardInterrupt):
        store.save({}, meta)
    assert written == ["optimal_table.json", "optimal_table.md"]
    assert "| game |" in (tmp_path / "optimal_table.md").read_text()
    # Without a stop, the mask is as it was.
    store.save({}, meta)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == set()


def test_the_table_is_written_readable_by_all_as_open_would(tmp_path, monkeypatch):
    # Its temporary files were once renamed private (0600) over the table's JSON and
    # page, which then kept that mode through every later write.
    import os
    import stat

    store = _module("table_store")
    monkeypatch.setattr(store, "JSON_PATH", tmp_path / "optimal_table.json")
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    store.save({}, {"machine": "2 CPUs", "time_limit": 1, "max_codes": 9, "runs": []})
    umask = os.umask(0)
    os.umask(umask)
    for name in ("optimal_table.json", "optimal_table.md"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask


def test_an_entry_may_run_on_several_workers(tmp_path, capfd, monkeypatch):
    """``--jobs 2``: the entry's own process (spawned, as the script runs it) starts
    two worker processes, which joblib refuses a daemon process (it then warns and
    runs one job), proves the same value, and its run's paragraph says so."""
    import importlib

    from script_loader import SCRIPTS

    page = _module("table_page")

    # The spawned process imports the script's worker by name, as the script's own run
    # does (``python scripts/optimal_tables.py`` puts scripts/ on the path).
    monkeypatch.syspath_prepend(str(SCRIPTS))
    script = importlib.import_module("optimal_tables")
    entry = script.Entry("p3c4/any/expected", "p3c4", "expected", "any", 120,
                         str(tmp_path), jobs=2)
    assert not entry.proc.daemon
    result = None
    while result is None:
        result = entry.poll()
    assert (result["status"], result["value"]) == ("solved", 206)
    assert "n_jobs=1" not in capfd.readouterr().err
    entry.stop()
    assert not entry.proc.is_alive()
    run = {"command": "python scripts/optimal_tables.py --jobs 2", "parallel": 1,
           "time_limit": 60.0, "jobs": 2}
    assert "one process per entry (jobs 2; 1 at a time)" in page._run_text(run)
    del run["jobs"]  # the runs recorded before the option
    assert "one process per entry (jobs 1; 1 at a time)" in page._run_text(run)


@pytest.mark.parametrize("option", ["--split-secrets", "--chain-secrets", "--jobs"])
def test_split_secrets_is_checked_before_any_entry(capsys, option):
    tables = load_script("optimal_tables")
    with pytest.raises(SystemExit) as info:
        tables.main([option, "0", "--only", "p2c3"])
    assert info.value.code == 2 and option in capsys.readouterr().err


def test_a_bound_met_by_the_consistent_optimum_reads_as_the_value(monkeypatch):
    # p4c10nb: the any-guess search refuted 10 (bound 11), the consistent one solved 11.
    page = _module("table_page")
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: None)
    entry = {"spec": "p4c10nb", "guesses": "any", "objective": "worst-case",
             "status": "timeout", "bound": 11}
    assert page.bounds_text(entry, {"status": "solved", "value": 11}) == "11*"
    assert page.bounds_text(entry, {"status": "solved", "value": 12}) == \
        "(timeout) ≥ 11, ≤ 12*"
    # A deeper tree of `within` does not hide it; a shallower one shows.
    monkeypatch.setattr(page, "closed_by_tree", lambda spec, guesses: 12)
    assert page.bounds_text(entry, {"status": "solved", "value": 11}) == "11*"
    assert page.bounds_text(dict(entry, bound=10), {"status": "solved", "value": 13}) \
        == "(timeout) ≥ 10, ≤ 12‡"


def test_a_worst_case_worker_records_its_tree_rule(capsys):
    """``--wc-tree first``: the same worst case, recorded with the rule its tree was
    built by; other objectives ignore it. A bad rule is refused before any entry."""
    script = _script()
    small, first, expected = _Queue(), _Queue(), _Queue()
    script._worker("p4c4", "worst-case", "any", None, small)
    script._worker("p4c4", "worst-case", "any", None, first, wc_tree="first")
    script._worker("p2c3", "expected", "any", None, expected, wc_tree="first")
    (a,), (b,), (c,) = (_final(q) for q in (small, first, expected))
    assert a["value"] == b["value"] and a["wc_tree"] is None and b["wc_tree"] == "first"
    assert c["wc_tree"] is None and c["value"] == 21  # Goddard's total for p2c3
    with pytest.raises(SystemExit) as info:
        script.main(["--wc-tree", "fast", "--only", "p2c3"])
    assert info.value.code == 2 and "--wc-tree" in capsys.readouterr().err


def test_two_runs_sharing_the_table_keep_each_others_entries(tmp_path, monkeypatch):
    """A run writes its result into the table as it is when the result comes, not as
    it was when the run started: an entry another run wrote meanwhile stays, and so
    does that run's paragraph."""
    import json

    script = _script()
    store = _module("table_store")
    table = tmp_path / "optimal_table.json"
    other = {"spec": "p2c2", "codes": 4, "guesses": "any", "objective": "worst-case",
             "status": "solved", "value": 3, "seconds": 0.1}
    table.write_text(json.dumps({"meta": {"machine": "2 CPUs", "time_limit": 1,
                                          "max_codes": 9, "runs": []}, "entries": {}}))
    monkeypatch.setattr(store, "JSON_PATH", table)
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")

    class Entry:  # finishes at once, after "another run" has written its own entry
        def __init__(self, key, *args, **options):
            self.key = key

        def poll(self):
            def theirs(entries, meta):
                entries["p2c2/any/worst-case"] = other
                meta["runs"].append({"command": "their run", "note": None, "parallel": 1,
                                     "time_limit": 5})
            store.update_table(theirs)
            return {"status": "solved", "value": 3, "seconds": 0.2}

    monkeypatch.setattr(script, "Entry", Entry)
    assert script.main(["--only", "p2c3", "--guesses", "any", "--objectives",
                        "worst-case", "--run-note", "mine"]) == 0
    doc = json.loads(table.read_text())
    assert set(doc["entries"]) == {"p2c2/any/worst-case", "p2c3/any/worst-case"}
    assert doc["entries"]["p2c2/any/worst-case"] == other
    assert [r["note"] for r in doc["meta"]["runs"]] == ["mine", None]
    assert doc["meta"]["runs"][0]["started"].endswith("Z")  # when it began, UTC
    # The same entries again (--redo): a paragraph of its own, the first one's note kept
    assert script.main(["--only", "p2c3", "--guesses", "any", "--objectives",
                        "worst-case", "--run-note", "again", "--redo"]) == 0
    runs = json.loads(table.read_text())["meta"]["runs"]
    assert [r["note"] for r in runs] == ["mine", None, "again", None]  # theirs again too
    assert runs[2]["command"] == runs[0]["command"] + " --redo"
    assert "| p2c2 |" in (tmp_path / "optimal_table.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "optimal_table.json", "optimal_table.lock", "optimal_table.md"]  # no temp left


def test_a_permutation_game_and_its_black_only_twin():
    """pPcPn and pPcPnb are one game (whites are P minus the blacks): the table's
    solved entries of both agree, entry for entry, and an open entry takes what its
    twin knows, marked with a section sign."""
    import json

    page = _module("table_page")
    assert [page.same_game(s) for s in ("p7c7n", "p7c7nb", "p6c7n", "p4c4", "p5c5b")] == [
        "p7c7nb", "p7c7n", None, None, None]
    entries = json.loads((Path(__file__).resolve().parent.parent / "results"
                          / "optimal_table.json").read_text())["entries"]
    pairs = 0
    for key, e in entries.items():
        twin = page.same_game(e["spec"])
        other = entries.get(f"{twin}/{e['guesses']}/{e['objective']}") if twin else None
        if other and e["status"] == other["status"] == "solved":
            assert e["value"] == other["value"], key
            pairs += 1
    assert pairs >= 20
    open_entry = {"status": "timeout", "bound": 28269}
    assert page.same_game_text(open_entry, {"status": "solved", "value": 30000}) == "30000§"
    assert page.same_game_text(open_entry, {"status": "timeout", "bound": 29423,
                                            "best": 33389}) == "(timeout) ≥ 29423§, ≤ 33389§"
    assert page.same_game_text({**open_entry, "best": 33000},
                               {"status": "timeout", "bound": 27000, "best": 34000}) is None
    assert page.same_game_text({"status": "solved", "value": 1}, open_entry) is None


def test_an_open_cell_combines_both_twins():
    """p7c7nb with any guesses: its lower bound from p7c7n (§), its upper bound from its
    own consistent optimum (*); p7c7n with any guesses: the consistent optimum known
    only through p7c7nb still bounds it (*)."""
    def entry(spec, guesses, **kw):
        return {"spec": spec, "guesses": guesses, "objective": "expected", **kw}

    entries = {
        "p7c7nb/any/expected": entry("p7c7nb", "any", status="timeout", bound=28269),
        "p7c7nb/consistent/expected": entry("p7c7nb", "consistent", status="solved",
                                            value=33372),
        "p7c7n/any/expected": entry("p7c7n", "any", status="timeout", bound=29423),
        "p7c7n/consistent/expected": entry("p7c7n", "consistent", status="timeout",
                                           bound=29423, best=33389),
    }
    cell = _module("table_page").open_cell
    assert cell(entries, entries["p7c7nb/any/expected"]) == "(timeout) ≥ 29423§, ≤ 33372*"
    assert cell(entries, entries["p7c7n/any/expected"]) == "(timeout) ≥ 29423, ≤ 33372*"
    assert cell(entries, entries["p7c7n/consistent/expected"]) == "33372§"
    del entries["p7c7nb/consistent/expected"]
    assert cell(entries, entries["p7c7n/any/expected"]) == "(timeout) ≥ 29423, ≤ 33389*"
    assert cell(entries, entries["p7c7nb/any/expected"]) == "(timeout) ≥ 29423§"


def test_a_capped_cell_takes_the_other_rule_only_under_the_same_worst_case():
    """p3c10nb: 11 guesses at worst with any guesses and with consistent ones, and 16
    secrets at the 11th at the fewest with consistent guesses, so with any guesses at
    most 16. p7c7n: 8 against 9, so its consistent trees are not 8-guess trees and
    imply nothing. The count alone meeting the other bound is not the entry's value
    (its total is unproven): the cell keeps both bounds."""
    def entry(spec, guesses, objective, **kw):
        return {"spec": spec, "guesses": guesses, "objective": objective, **kw}

    entries = {}
    for spec, any_wc, cons_wc in (("p3c10nb", 11, 11), ("p7c7n", 8, 9)):
        entries[f"{spec}/any/worst-case"] = entry(spec, "any", "worst-case",
                                                  status="solved", value=any_wc)
        entries[f"{spec}/consistent/worst-case"] = entry(spec, "consistent", "worst-case",
                                                         status="solved", value=cons_wc)
        entries[f"{spec}/any/fewest-at-worst"] = entry(spec, "any", "fewest-at-worst",
                                                       status="timeout", bound=3)
        entries[f"{spec}/consistent/fewest-at-worst"] = entry(
            spec, "consistent", "fewest-at-worst", status="solved", value=16)
    cell = _module("table_page").open_cell
    assert cell(entries, entries["p3c10nb/any/fewest-at-worst"]) == "(timeout) ≥ 3, ≤ 16*"
    assert cell(entries, entries["p7c7n/any/fewest-at-worst"]) == "(timeout) ≥ 3"
    # The consistent entry open, the any-guess one's bound carries over the same way.
    entries["p3c10nb/consistent/fewest-at-worst"] = entry(
        "p3c10nb", "consistent", "fewest-at-worst", status="timeout", bound=2, best=20)
    assert cell(entries, entries["p3c10nb/consistent/fewest-at-worst"]) == \
        "(timeout) ≥ 3*, ≤ 20"
    # Bounds that meet stay two bounds.
    entries["p3c10nb/consistent/fewest-at-worst"] = entry(
        "p3c10nb", "consistent", "fewest-at-worst", status="solved", value=3)
    assert cell(entries, entries["p3c10nb/any/fewest-at-worst"]) == "(timeout) ≥ 3, ≤ 3*"
    # Without a solved worst case for both rules, nothing is implied.
    del entries["p3c10nb/consistent/worst-case"]
    assert cell(entries, entries["p3c10nb/any/fewest-at-worst"]) == "(timeout) ≥ 3"


def test_an_open_total_within_t_star_is_at_least_the_total_without_the_cap():
    """p5c7nb: its optimal tree needs 9 guesses where t* is 8; the total within 8 is
    at least the uncapped 16670 (a tree within 8 is a tree), which outranks a weaker
    bound of its own search and the any-guess rule's, and sits beside the consistent
    rule's optimum within 8 (same t*: an upper bound)."""
    def entry(guesses, objective, **kw):
        return {"spec": "p5c7nb", "guesses": guesses, "objective": objective, **kw}

    entries = {f"p5c7nb/{g}/worst-case": entry(g, "worst-case", status="solved", value=8)
               for g in ("any", "consistent")}
    entries["p5c7nb/any/expected"] = entry("any", "expected", status="solved", value=16670)
    entries["p5c7nb/consistent/worst-then-expected"] = entry(
        "consistent", "worst-then-expected", status="solved", value=16823)
    entries["p5c7nb/any/worst-then-expected"] = entry(
        "any", "worst-then-expected", status="timeout", bound=16500, best=16900)
    cell = _module("table_page").open_cell
    assert cell(entries, entries["p5c7nb/any/worst-then-expected"]) == \
        "(timeout) ≥ 16670, ≤ 16823*"
    # A stronger bound of its own stays; without the uncapped optimum, its own alone.
    entries["p5c7nb/any/worst-then-expected"]["bound"] = 16700
    assert cell(entries, entries["p5c7nb/any/worst-then-expected"]) == \
        "(timeout) ≥ 16700, ≤ 16823*"
    del entries["p5c7nb/any/expected"]
    entries["p5c7nb/any/worst-then-expected"]["bound"] = 16500
    assert cell(entries, entries["p5c7nb/any/worst-then-expected"]) == \
        "(timeout) ≥ 16500, ≤ 16823*"


def test_a_needed_total_within_t_star_not_yet_run_says_so():
    """Blank in that column means "equals the total"; a cell that is needed (the
    optimal tree is deeper than t*) but was never run must not read as blank."""
    def entry(objective, **kw):
        return {"spec": "p4c8nb", "guesses": "any", "objective": objective, "codes": 1680,
                "published": None, "source": None, "status": "solved", "seconds": 1.0,
                **kw}

    entries = {"p4c8nb/any/worst-case": entry("worst-case", value=9, tree_max=9),
               "p4c8nb/any/expected": entry("expected", value=12064, tree_max=10)}
    meta = {"machine": "2 CPUs", "time_limit": 600, "max_codes": 2000}
    row = [line for line in _module("table_page").markdown(entries, meta).splitlines()
           if line.startswith("| p4c8nb |")]
    assert len(row) == 1 and "| (not run) |" in row[0]
    entries["p4c8nb/any/expected"]["tree_max"] = 9  # within t*: the total itself
    row = [line for line in _module("table_page").markdown(entries, meta).splitlines()
           if line.startswith("| p4c8nb |")]
    assert "(not run)" not in row[0]


def test_floors_come_from_solved_entries_that_bound_the_total():
    rules = _module("table_entries")
    solved = {"status": "solved"}
    entries = {"p4c6/any/expected": {**solved, "value": 5625},
               "p4c6/any/worst-case": {**solved, "value": 5},
               "p4c6/consistent/worst-case": {**solved, "value": 5},
               "p4c6/any/worst-then-expected": {**solved, "value": 5626},
               "p4c6/consistent/expected": {**solved, "value": 5670}}
    # The capped consistent total: above the uncapped one and the any-guess capped one
    assert rules.floor_for(entries, "p4c6", "consistent", "worst-then-expected") == (
        5670, "p4c6/consistent/expected")
    entries["p4c6/consistent/expected"]["value"] = 5600
    assert rules.floor_for(entries, "p4c6", "consistent", "worst-then-expected") == (
        5626, "p4c6/any/worst-then-expected")
    # ... but the any-guess capped total bounds it only under the same cap
    entries["p4c6/consistent/worst-case"]["value"] = 6
    assert rules.floor_for(entries, "p4c6", "consistent", "worst-then-expected") == (
        5600, "p4c6/consistent/expected")
    entries["p4c6/consistent/expected"]["status"] = "timeout"
    assert rules.floor_for(entries, "p4c6", "consistent", "worst-then-expected") is None
    for objective in ("worst-case", "fewest-at-worst"):
        assert rules.floor_for(entries, "p4c6", "consistent", objective) is None


def test_a_worker_given_a_floor_records_that_its_tree_met_it():
    # p4c6's capped optimum, proven by the worker first without a floor, then given
    # to it as the floor it meets; a floor below it (the uncapped optimum) is not met.
    script = _script()
    plain = _Queue()
    script._worker("p4c6", "worst-then-expected", "any", None, plain)
    (capped,) = _final(plain)
    assert "floor" not in capped
    met = _Queue()
    script._worker("p4c6", "worst-then-expected", "any", None, met,
                   floor=(capped["value"], "p4c6/any/expected"))
    (final,) = _final(met)
    assert final["value"] == capped["value"] == final["tree_total"]
    assert final["floor"] == {"value": capped["value"], "entry": "p4c6/any/expected"}
    below = _Queue()
    script._worker("p4c6", "worst-then-expected", "any", None, below,
                   floor=(capped["value"] - 1, "p4c6/any/expected"))
    (final,) = _final(below)
    assert final["value"] == capped["value"] and "floor" not in final


def test_a_fewest_at_worst_worker_given_t_star_skips_the_worst_case(capfd):
    # The worst-case entry's t* as cap: the same result and tree, no worst-case line
    # in the log, the cap recorded; a wrong t* (one above, one below) is refused.
    script = _script()
    plain, given = _Queue(), _Queue()
    script._worker("p3c5b", "fewest-at-worst", "any", None, plain)
    (found,) = _final(plain)
    capfd.readouterr()
    cap = (found["tree_max"], "p3c5b/any/worst-case")
    script._worker("p3c5b", "fewest-at-worst", "any", None, given, progress_interval=0,
                   cap=cap)
    (final,) = _final(given)
    assert "worst case within" not in capfd.readouterr().err
    assert final["cap"] == {"value": cap[0], "entry": cap[1]}
    assert {k: v for k, v in final.items() if k not in ("seconds", "cap", "states")} == {
        k: v for k, v in found.items() if k not in ("seconds", "states")}
    for wrong, why in ((cap[0] + 1, "a tree keeps within"), (cap[0] - 1, "no tree keeps")):
        with pytest.raises(ValueError, match=f"'s {wrong} is not the optimal worst case: "
                                             f"{why}"):
            script._worker("p3c5b", "fewest-at-worst", "any", None, _Queue(),
                           cap=(wrong, cap[1]))


def test_the_table_names_the_entries_solved_with_another_ones_optimum():
    page = _module("table_page")
    base = {"spec": "p3c4", "codes": 64, "guesses": "any", "status": "solved",
            "published": None, "source": None, "seconds": 1.0}
    entries = {
        "p3c4/any/worst-case": {**base, "objective": "worst-case", "value": 4},
        "p3c4/any/expected": {**base, "objective": "expected", "value": 206,
                              "tree_max": 5},
        "p3c4/any/worst-then-expected": {
            **base, "objective": "worst-then-expected", "value": 206,
            "floor": {"value": 206, "entry": "p3c4/any/expected"}},
    }
    meta = {"machine": "2 CPUs", "time_limit": 60, "max_codes": 64}
    text = page.markdown(entries, meta)
    assert ("entry): p3c4/any/worst-then-expected (p3c4/any/expected's 206: a tree "
            "within t\\* is a tree).") in text
    entries["p3c4/any/worst-then-expected"]["floor"]["tree"] = "results/trees/t.json.gz"
    assert ("(p3c4/any/expected's 206 and its tree's subtrees "
            "(`results/trees/t.json.gz`): a tree within t\\* is a tree)"
            in page.markdown(entries, meta))
    del entries["p3c4/any/worst-then-expected"]["floor"]
    assert "as a lower bound" not in page.markdown(entries, meta)


@pytest.mark.parametrize("name", ["optimal_tables", "table_entries", "table_page",
                                  "table_store"])
def test_doctests(name):
    import doctest

    module = _script() if name == "optimal_tables" else _module(name)
    result = doctest.testmod(module)
    assert result.attempted or name == "table_store"
    assert not result.failed


def test_a_floor_tree_must_total_the_entrys_optimum(tmp_path):
    rules = _module("table_entries")
    tree = solve_tree("p3c4")
    tree.save(tmp_path / "p3c4-expected.json.gz")  # make_trees.py's name
    total = tree.validate().total
    assert rules.floor_tree("p3c4/any/expected", total, tmp_path) == str(
        tmp_path / "p3c4-expected.json.gz")
    assert rules.floor_tree("p3c4/consistent/expected", total, tmp_path) is None
    tree.save(tmp_path / "p3c4-worst-then-expected.json.gz")  # capped: bounds no part
    assert rules.floor_tree("p3c4/any/worst-then-expected", total, tmp_path) is None
    assert rules.floor_tree("p3c5/any/expected", total, tmp_path) is None
    with pytest.raises(ValueError, match=f"its total {total} is not p3c4/any/expected's"):
        rules.floor_tree("p3c4/any/expected", total - 1, tmp_path)


def test_a_worker_given_a_floor_tree_records_it(tmp_path, monkeypatch):
    # p4c6's capped total is above the uncapped one; the uncapped tree's parts bound
    # the capped parts, and the entry records that its proof may rest on them.
    script = _script()
    rules = _module("table_entries")
    path = tmp_path / "p4c6-expected.json.gz"
    tree = solve_tree("p4c6")
    tree.save(path)
    queue = _Queue()
    monkeypatch.setattr(rules, "ROOT", tmp_path)  # where the recorded path is from
    script._worker("p4c6", "worst-then-expected", "any", None, queue,
                   floor=(tree.validate().total, "p4c6/any/expected", str(path)))
    (final,) = _final(queue)
    assert final["value"] == final["tree_total"] > tree.validate().total
    assert final["floor"] == {"value": tree.validate().total, "entry": "p4c6/any/expected",
                              "tree": "p4c6-expected.json.gz"}


def solve_tree(spec):
    from optimal_mm.search import solve

    return solve(spec, "expected", jobs=1).strategy


@pytest.fixture(scope="module")
def mastermind_trees(tmp_path_factory):
    """A trees folder as results/trees: mastermind's worst-case tree (within 5), its
    optimal expected tree (6 guesses) and, in ``upper/``, its fewest-at-worst tree
    under the cap 5 (named by spec, as upper_trees.py names them), beside a tree of
    another game that must never be picked."""
    from optimal_mm.search import solve

    folder = tmp_path_factory.mktemp("trees")
    (folder / "upper").mkdir()
    game = Game.from_spec("mastermind")
    solved = {objective: solve(game, objective, jobs=1).strategy
              for objective in ("worst-case", "expected")}
    solved["worst-case"].save(folder / "mastermind-worst-case.json.gz")
    solved["expected"].save(folder / "mastermind-expected.json.gz")
    solved["fewest-at-worst"] = solve(game, "fewest-at-worst", max_guesses=5,
                                      jobs=1).strategy
    solved["fewest-at-worst"].save(folder / "upper" / "p4c6-any-fewest-at-worst.json.gz")
    solved["consistent"] = solve(game, "expected", "consistent", jobs=1).strategy
    solved["consistent"].save(folder / "mastermind-expected-consistent.json.gz")
    solve("p3c4", "expected", jobs=1).strategy.save(folder / "p3c4-expected.json.gz")
    return folder, {k: s.validate() for k, s in solved.items()}


def test_each_capped_entry_starts_from_the_best_tree_that_fits_it(mastermind_trees):
    # The search's best so far before it has one (search.UpperBound): p6c7nb's fewest
    # at 8 and p5c6b's total within 9 left the table without an upper bound, though a
    # tree within the cap was there in results/trees.
    folder, stats = mastermind_trees
    rules = _module("table_entries")
    entries = {"p4c6/any/worst-case": {"status": "solved", "value": 5},
               "p4c6/consistent/worst-case": {"status": "solved", "value": 6}}
    faw, wc, exp = stats["fewest-at-worst"], stats["worst-case"], stats["expected"]
    assert exp.max == 6 and faw.depth_counts[4] < wc.depth_counts[4]
    path, figure = rules.ceiling_for(entries, "p4c6", "any", "fewest-at-worst", folder)
    assert path.endswith("upper/p4c6-any-fewest-at-worst.json.gz")
    assert figure == faw.depth_counts[4]  # the secrets at the cap
    # The total within 5: the expected tree needs 6 guesses, so the least total of
    # the two trees within 5
    path, figure = rules.ceiling_for(entries, "p4c6", "any", "worst-then-expected",
                                     folder)
    assert figure == min(faw.total, wc.total) and figure > exp.total
    # Without a cap every tree counts: the optimal expected tree
    path, figure = rules.ceiling_for(entries, "p4c6", "any", "expected", folder)
    assert path.endswith("mastermind-expected.json.gz") and figure == exp.total
    # Another game's tree is never picked; a cap not solved gives none
    assert rules.ceiling_for(entries, "p3c5", "any", "expected", folder) is None
    assert rules.ceiling_for({}, "p4c6", "any", "fewest-at-worst", folder) is None


def test_a_tree_that_breaks_the_guess_rule_is_no_ceiling(mastermind_trees):
    # Mastermind's any-guess trees each play a guess that cannot be the secret: with
    # consistent guesses only the consistent tree counts, within its cap
    folder, stats = mastermind_trees
    rules = _module("table_entries")
    entries = {"p4c6/consistent/worst-case": {"status": "solved", "value": 6}}
    for objective in ("fewest-at-worst", "worst-then-expected", "expected"):
        path, figure = rules.ceiling_for(entries, "p4c6", "consistent", objective, folder)
        assert path.endswith("mastermind-expected-consistent.json.gz")
    assert stats["consistent"].max <= 6
    assert figure == stats["consistent"].total > stats["expected"].total
    entries["p4c6/consistent/worst-case"]["value"] = stats["consistent"].max - 1
    assert rules.ceiling_for(entries, "p4c6", "consistent", "fewest-at-worst",
                             folder) is None  # none within that cap


def test_a_worker_starts_from_its_ceiling_and_records_it(tmp_path):
    # The worker's first partial report is the given tree's figure; the entry names it
    from optimal_mm.search import solve

    script = _script()
    known = tmp_path / "p3c4-worst-case.json.gz"
    solve("p3c4", "worst-case", jobs=1).strategy.save(known)
    total = solve("p3c4", "worst-case", jobs=1).strategy.validate().total
    queue = _Queue()
    script._worker("p3c4", "expected", "any", None, queue, ceiling=(str(known), total))
    (result,) = _final(queue)
    bests = [item["best"] for item in queue.items if item.get("partial") and item["best"]]
    assert bests[0] == total and result["value"] <= total
    assert result["ceiling"] == {"tree": str(known), "value": total}


def test_a_best_that_is_the_tree_given_is_marked_and_named():
    page = _module("table_page")
    tree = "results/trees/within/p6c7nb-any-within-8.json.gz"
    given = {"spec": "p6c7nb", "guesses": "any", "objective": "fewest-at-worst",
             "status": "timeout", "best": 1428, "ceiling": {"tree": tree, "value": 1428}}
    assert page.bounds_text(given) == "(timeout) ≤ 1428°"
    built = dict(given, best=1400)  # its search built a better one: no mark
    assert page.bounds_text(built) == "(timeout) ≤ 1400"
    note = page._ceiling_note({"p6c7nb/any/fewest-at-worst": given,
                               "p5c8n/any/fewest-at-worst": dict(built, spec="p5c8n")})
    assert note.startswith("° ") and f"p6c7nb/any/fewest-at-worst (`{tree}`)" in note
    assert "p5c8n" not in note


# ---------------------------------------------------------------- at the limit
# A worker stops its own search at the entry's limit and writes the best tree it had
# built; the table's run makes it the cell's upper tree (results/upper_trees.json)
# where the table's ≤ is its figure, so the bound and its witness are one run's.


def test_a_worker_stopped_at_its_deadline_writes_its_best_tree(tmp_path):
    import time

    from optimal_mm import Strategy

    script = _script()
    out = tmp_path / "best.json.gz"
    # p4c8's expected case: a first tree in about 3 s, the optimum proven in about
    # 30 s (one process, idle). A machine under load (two test tiers at once on 2
    # cores) built no tree within 6 s: the worker then has none to write, and says
    # so; the limit doubles until it has one.
    for seconds in (6, 12, 24):
        queue = _Queue()
        script._worker("p4c8", "expected", "any", None, queue,
                       deadline=time.time() + seconds, best_tree=str(out))
        (result,) = _final(queue)
        best = [item["best"] for item in queue.items if item.get("partial") and item["best"]]
        if best:
            break
        assert result == {"status": "timeout"} and not out.exists()
    assert result == {"status": "timeout", "best": best[-1], "best_tree": str(out)}
    tree = Strategy.load(out)
    stats = tree.validate()
    assert (tree.objective, tree.optimal, stats.secrets, stats.total) == (
        "expected", False, 4096, best[-1])
    assert best[-1] >= 20471  # the optimum (shared/REFERENCE.md), which bounds it


def test_a_worker_past_its_deadline_stops_before_searching(tmp_path):
    import time

    script = _script()
    queue = _Queue()
    script._worker("p3c4", "expected", "any", None, queue, deadline=time.time() - 1,
                   best_tree=str(tmp_path / "best.json.gz"))
    assert _final(queue) == [{"status": "timeout"}]  # no tree built, none written
    assert not (tmp_path / "best.json.gz").exists()


class _Stopped:
    """A solver stopped at its limit, holding ``tree`` as its best so far."""

    def __init__(self, tree):
        self.tree = tree

    def best_so_far(self):
        return self.tree


@pytest.fixture(scope="module")
def p3c4_tree():
    """A complete expected-case tree of p3c4 (the worst case's: total above 206)."""
    from optimal_mm.search import solve

    tree = solve("p3c4", "worst-case", jobs=1).strategy
    tree.objective = "expected"
    return tree, tree.validate().total


def test_a_tree_no_better_than_the_one_given_is_not_written(tmp_path, p3c4_tree):
    script = _script()
    tree, total = p3c4_tree
    out = tmp_path / "best.json.gz"
    assert script._at_the_limit(_Stopped(tree), str(out), ("given", total)) == {
        "status": "timeout"}
    assert not out.exists()
    assert script._at_the_limit(_Stopped(None), str(out), None) == {"status": "timeout"}
    assert script._at_the_limit(_Stopped(tree), str(out), ("given", total + 1)) == {
        "status": "timeout", "best": total, "best_tree": str(out)}
    assert out.exists()
    out.unlink()
    assert script._at_the_limit(_Stopped(tree), None, None) == {"status": "timeout"}


def test_a_worker_that_stopped_itself_is_a_timeout_with_its_tree():
    script = _script()
    entry = script.Entry.__new__(script.Entry)
    entry.key, entry.time_limit, entry.bounds = "p4c8/any/expected", 5.0, {}
    entry.start = script.time.perf_counter() - 6
    entry.proc = _Stuck()
    entry.proc.killed = True  # it has ended by itself
    entry.ceiling = None
    entry.queue = _DeadlineQueue([{"partial": True, "best": 20490, "bound": 19000},
                                  {"status": "timeout", "best": 20484,
                                   "best_tree": "/tmp/x.json.gz"}])
    result = entry.poll()
    assert result["status"] == "timeout" and result["seconds"] >= 6
    assert (result["bound"], result["best"], result["best_tree"]) == (
        19000, 20484, "/tmp/x.json.gz")  # the tree's figure, not the last report's


def _record_in(tmp_path, monkeypatch):
    """The script with its table (and so the upper trees' index) in ``tmp_path``."""
    import importlib
    import json

    from script_loader import SCRIPTS

    # The spawned worker imports the script's worker by name, as the script's own run
    # does (``python scripts/optimal_tables.py`` puts scripts/ on the path).
    monkeypatch.syspath_prepend(str(SCRIPTS))
    script = importlib.import_module("optimal_tables")
    store = sys.modules["table_store"]
    table = tmp_path / "optimal_table.json"
    table.write_text(json.dumps({"meta": {"machine": "2 CPUs", "time_limit": 1,
                                          "max_codes": 9, "runs": []}, "entries": {}}))
    monkeypatch.setattr(store, "JSON_PATH", table)
    monkeypatch.setattr(store, "MD_PATH", tmp_path / "optimal_table.md")
    return script


class _Named:
    def __init__(self, key):
        self.key = key


def test_a_timeouts_best_tree_becomes_the_cells_upper_tree(tmp_path, monkeypatch, capsys,
                                                             p3c4_tree):
    import json

    from optimal_mm import Strategy

    script = _record_in(tmp_path, monkeypatch)
    tree, total = p3c4_tree
    scratch = tmp_path / "scratch.json.gz"
    tree.save(scratch)
    script._record(_Named("p3c4/any/expected"), "p3c4", "any", "expected",
                   {"status": "timeout", "seconds": 9.0, "bound": 200, "best": total,
                    "best_tree": str(scratch)}, "python scripts/optimal_tables.py X")
    table = json.loads((tmp_path / "optimal_table.json").read_text())["entries"]
    assert table["p3c4/any/expected"]["best"] == total
    assert "best_tree" not in table["p3c4/any/expected"]  # a file name, not a result
    (row,) = json.loads((tmp_path / "upper_trees.json").read_text())["trees"]
    assert (row["key"], row["value"], row["table_best"], row["total"], row["command"]) == (
        "p3c4/any/expected", total, total, total, "python scripts/optimal_tables.py X")
    kept = Strategy.load(tmp_path / row["file"])
    assert kept.validate().total == total and kept.root.guess == tree.root.guess
    assert not scratch.exists()
    assert f"kept in {row['file']}" in capsys.readouterr().out
    assert "p3c4/any/expected" in (tmp_path / "upper_trees.md").read_text()
    # A retry whose tree is worse than the table's bound (another run's, since)
    # keeps the table's bound and the tree on file
    def lower(entries, meta):
        entries["p3c4/any/expected"]["best"] = total - 1

    _module("table_store").update_table(lower)
    tree.save(scratch)
    script._record(_Named("p3c4/any/expected"), "p3c4", "any", "expected",
                   {"status": "timeout", "seconds": 9.0, "bound": 201, "best": total,
                    "best_tree": str(scratch)}, "another")
    assert f"best tree ({total}) is not the table's ≤ ({total - 1}): not kept" in (
        capsys.readouterr().out)
    assert not scratch.exists()
    (again,) = json.loads((tmp_path / "upper_trees.json").read_text())["trees"]
    assert again == row
    # A file that is no tree is said so in one line, and the run goes on
    scratch.write_text("{")
    upper = _module("upper_index")
    said = upper.keep_run_tree(tmp_path, {}, "p3c4/any/expected", scratch, "x")
    assert said.startswith("p3c4/any/expected: its run's best tree not kept: ")
    assert "\n" not in said and not scratch.exists()


@pytest.mark.slow  # 14 s, its time limit; each step of it has a default-tier test:
# the worker at its deadline writes its tree, a worker that stopped itself is a
# timeout with its tree, and a timeout's tree becomes the cell's upper tree
def test_a_table_run_past_its_limit_keeps_its_best_tree(tmp_path, monkeypatch, capsys):
    # The whole way: main() spawns the entry's worker, which stops at the limit and
    # writes its tree; the run records the bound and keeps the tree beside the table.
    import json

    from optimal_mm import Strategy

    script = _record_in(tmp_path, monkeypatch)
    # (no tree of results/ to start from: the optimal one would leave none better)
    monkeypatch.setattr(script, "ceiling_for", lambda *args, **options: None)
    assert script.main(["--only", "p4c8", "--guesses", "any", "--objectives", "expected",
                        "--time-limit", "14"]) == 0
    entry = json.loads((tmp_path / "optimal_table.json").read_text())["entries"][
        "p4c8/any/expected"]
    assert entry["status"] == "timeout" and entry["best"] >= 20471
    (row,) = json.loads((tmp_path / "upper_trees.json").read_text())["trees"]
    assert row["value"] == entry["best"] and row["command"].startswith(
        "python scripts/optimal_tables.py --only p4c8")
    assert Strategy.load(tmp_path / row["file"]).validate().total == entry["best"]
    assert "kept in trees/upper/p4c8-any-expected.json.gz" in capsys.readouterr().out


def test_a_halted_worker_writes_its_best_tree_first(tmp_path, monkeypatch):
    # SIGTERM or Ctrl-C on the run: its running entry's worker is asked to stop (as
    # at its limit) before it is killed, and hands over its best tree.
    from optimal_mm import Strategy

    script = _record_in(tmp_path, monkeypatch)
    entry = script.Entry("p4c8/any/expected", "p4c8", "expected", "any", 600)
    try:
        while entry.poll() is None and not entry.bounds.get("best"):
            pass
        result = entry.halt("terminated")
    finally:
        entry.stop()
    assert not entry.proc.is_alive() and entry.proc.exitcode == 0  # it ended by itself
    assert result["status"] == "timeout" and result["stopped"] == "terminated"
    tree = Strategy.load(result["best_tree"])
    assert tree.validate().total == result["best"] <= entry.bounds["best"]
    Path(result["best_tree"]).unlink()
