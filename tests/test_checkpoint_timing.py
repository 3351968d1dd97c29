"""Each checkpoint entry keeps how long its task took, and the report turns the
timings into an estimate of what is left.

Checked on runs whose tasks are all known: a p4c5b worst-case run with big parts split
by second guess, and a mastermind expected run with big parts split. Every entry a
run writes carries its wall and processor seconds and the time it finished (within
the run's own window); the timing is covered by the entry's checksum; an entry
written without one still reads. With some finished tasks taken away, the report
counts exactly those as left and prices them at the mean of the rest.
"""

from __future__ import annotations

import calendar
import json
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm.checkpoint import Checkpoint, read_entries, task_key
from optimal_mm.checkpoint_report import report
from optimal_mm.search import Progress, Solver
from optimal_mm import runner, search_parts

from checkpoint_entries import answers_elsewhere, priced


@pytest.fixture(scope="module")
def p4c5b_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("timed")
    start = time.time()
    Solver(Game.from_spec("p4c5b"), jobs=1, checkpoint=folder, split_secrets=100,
           table_entries=7_001).solve("worst-case")
    return folder, start, time.time()


def _epoch(stamp: str) -> int:
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


def test_every_entry_carries_its_timing(p4c5b_run):
    folder, start, end = p4c5b_run
    entries = list(read_entries(folder))
    assert entries
    for _, _, _, timing in entries:
        assert set(timing) == {"seconds", "cpu_seconds", "finished"}
        assert 0 <= timing["cpu_seconds"] and 0 <= timing["seconds"] <= end - start + 1
        assert int(start) - 1 <= _epoch(timing["finished"]) <= end + 1
    (rep,) = report(folder, classes=False)
    assert len(rep.timed) == rep.entries == len(entries)
    text = "\n".join(rep.lines())
    assert f"time: {len(entries)} of {len(entries)} entries timed" in text


def test_the_timing_is_under_the_checksum(p4c5b_run, tmp_path):
    folder = p4c5b_run[0]
    files = sorted(folder.glob("task-*.json"))
    for f in files:
        shutil.copy(f, tmp_path / f.name)
    victim = tmp_path / files[0].name
    entry = json.loads(victim.read_text())
    entry["timing"]["cpu_seconds"] += 1000
    victim.write_text(json.dumps(entry))
    assert len(list(read_entries(tmp_path))) == len(files) - 1


def test_an_entry_without_timing_still_reads(tmp_path):
    cp = Checkpoint(tmp_path, {"game": "p2c3", "objective": "expected"})
    key = task_key("_exp_part_task", (5, np.arange(3), 10))
    cp.put(key, (7, np.zeros(4, dtype=np.int64)))
    (run, task, result, timing), = read_entries(tmp_path)
    assert timing is None and result[0] == 7
    assert cp.get(key)[0] == 7


def test_the_report_prices_the_worst_case_tasks_left(p4c5b_run, tmp_path):
    """Take away two refutations of a split part whose first guess is refuted by that
    part alone: the first guess is open again, and exactly two second-guess tasks
    are left, at the mean processor time of the others within that depth."""
    folder = p4c5b_run[0]
    groups = {}
    for path in sorted(folder.glob("task-*.json")):
        shutil.copy(path, tmp_path / path.name)
        entry = json.loads(path.read_text())
        task = entry["task"]
        if task["function"] == "_wc_guess_task" and not entry["result"]["tuple"][0]:
            history, part, d = task["args"][0], task["args"][2], task["args"][3]
            groups.setdefault((d + len(history), history[0]), {}).setdefault(
                part["array"], []).append(path.name)
    (full,) = report(folder)
    game = Game.from_spec("p4c5b")
    chosen = None
    for (t, first), parts in sorted(groups.items()):
        found = full.worst[t][game.code_str(first)]
        if len(parts) == 1 and not any(not ok for _, ok in found.get("whole", [])):
            names = next(iter(parts.values()))
            if len(names) >= 3:
                chosen = t, names
                break
    assert chosen is not None, "the run split no part refuted by itself"
    t, names = chosen
    for name in names[:2]:
        (tmp_path / name).unlink()
    (rep,) = report(tmp_path)
    rows = rep.left()
    assert [r["tasks"] for r in rows] == [2]
    kept = [e.cpu for e in rep.timed if e.function == "_wc_guess_task" and e.t == t]
    assert sorted(rep.task_cpu("_wc_guess_task", t)) == sorted(kept)
    assert rows[0]["timed"] == len(kept)
    assert rows[0]["mean_cpu_seconds"] == pytest.approx(float(np.mean(kept)), abs=1e-3)
    assert rows[0]["median_cpu_seconds"] == pytest.approx(float(np.median(kept)), abs=1e-3)
    assert rows[0]["max_cpu_seconds"] == pytest.approx(max(kept), abs=1e-3)
    assert rows[0]["estimate_seconds"] == pytest.approx(2 * float(np.mean(kept)), abs=1e-2)
    assert f"within {t} guesses" in rows[0]["what"]
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "left: 2 second-guess tasks of the open split parts" in run.stdout
    doc = json.loads(subprocess.run(
        [sys.executable, "-m", "optimal_mm", "checkpoint", str(tmp_path), "--json"],
        capture_output=True, text=True).stdout)
    assert doc["runs"][0]["time"]["left"][0]["tasks"] == 2
    # A complete run has nothing left.
    assert full.left() == []


def test_the_report_counts_the_expected_rivals_left(tmp_path, monkeypatch):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    Solver(Game.from_spec("mastermind"), jobs=1, checkpoint=tmp_path,
           table_entries=60_003).solve("expected")
    (full,) = report(tmp_path)
    assert full.left() == []
    rivals = [p for p in sorted(tmp_path.glob("task-*.json"))
              if (e := json.loads(p.read_text()))["task"]["function"] == "_exp_guess_task"
              and e["task"]["args"][0]]  # a history: a rival second guess
    assert rivals
    rivals[0].unlink()
    (rep,) = report(tmp_path)
    (row,) = rep.left()
    assert row["tasks"] == 1 and "rival second guesses" in row["what"]
    assert row["mean_cpu_seconds"] == pytest.approx(
        float(np.mean(rep.task_cpu("_exp_guess_task"))), abs=1e-3)


def _chain_answers(folder) -> dict:
    """``{(first guess, second guess): processor seconds}`` of the rival second
    guesses whose entry is a chain's answer (its timing marked ``pieces``)."""
    return {(task["args"][0][0], task["args"][1]): timing["cpu_seconds"]
            for _, task, _, timing in read_entries(folder)
            if task["function"] == "_exp_guess_task" and len(task["args"][0]) == 1
            and timing is not None and timing.get("pieces") and _whole(task["args"])}


def _whole(args) -> bool:
    """Whether the :func:`_exp_guess_task` arguments ``args`` are a rival's own: its
    parts cover its secrets (a chain's small parts, also answered in pieces, do not)."""
    return sum(p["shape"][0] if isinstance(p, dict) else len(p) for p in args[2]) + 1 >= args[4]


def test_an_answer_in_pieces_keeps_their_processor_time(tmp_path, monkeypatch):
    # p4c5nb's expected case with chains from 4 secrets: the rival second guesses of
    # the first guess's big parts (30 secrets or more) are chains, whose answer is
    # saved as the rival's own task with the processor time of its pieces in all,
    # marked as such; the report sums the pieces, not those answers. A run stopped
    # inside a chain and resumed still times the chain whole: its pieces read back
    # count at the time their entries keep.
    # (Each task computed is saved as a quarter of a second of processor time,
    # whatever it took in its worker: the sums are then exact.)
    saves = []
    real_save = runner.TaskRunner._save

    def save(self, key, result, timing, always=False):
        saves.append(key)
        real_save(self, key, result, (timing[0], 0.25, timing[2]), always)

    windows = {}  # each chain of a rival second guess: the tasks saved while it ran
    real_saved_or = search_parts.PartSolving._saved_or

    def saved_or(self, fn, task, compute, spent=None, on_found=None):
        before = len(saves)
        out = real_saved_or(self, fn, task, compute, spent, on_found)
        if fn.__name__ == "_exp_guess_task" and len(task[0]) == 1 and _whole(task):
            windows.setdefault((int(task[0][0]), int(task[1])), (before, len(saves)))
        return out

    monkeypatch.setattr(runner.TaskRunner, "_save", save)
    monkeypatch.setattr(search_parts.PartSolving, "_saved_or", saved_or)
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "whole").expected()
    whole = _chain_answers(tmp_path / "whole")
    assert len(whole) >= 3
    for owner, cpu in whole.items():
        begin, end = windows[owner]
        assert cpu == 0.25 * (end - begin) > 0
    (rep,) = report(tmp_path / "whole")
    every = [t["cpu_seconds"] for _, _, _, t in read_entries(tmp_path / "whole")
             if not t.get("pieces")]
    assert sum(e.cpu for e in rep.timed) == sum(every) == 0.25 * len(saves)

    # Stopped halfway through the longest chain's tasks, then resumed
    owner = max(whole, key=lambda o: windows[o][1] - windows[o][0])
    begin, end = windows[owner]

    class StopAfter(Progress):
        def __init__(self, tasks):
            self.left = tasks

        def advance(self, n=1, resumed=False):
            self.left -= n
            if self.left <= 0:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped",
               progress=StopAfter((begin + end) // 2)).expected()
    assert owner not in _chain_answers(tmp_path / "stopped")
    Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped").expected()
    assert _chain_answers(tmp_path / "stopped") == whole


def test_rivals_answered_in_pieces_price_a_part_with_none_timed(tmp_path, monkeypatch):
    # p4c5nb's expected case with chains from 4 secrets, as above: every rival second
    # guess of the big parts is a chain, its answer timed on its own entry (its pieces
    # together), not as a task. One part keeps all but one of its rivals; the other
    # loses all of them and the timing of its tree under the first second guess, so it
    # has no price of its own. Its rivals are then priced at the mean of the rivals
    # settled (p5c6b's fewest at 9 had 24 rivals left unpriced this way), not at the
    # tasks of another kind that the run timed, and not left unpriced.
    from optimal_mm import checkpoint

    real_save = runner.TaskRunner._save
    monkeypatch.setattr(runner.TaskRunner, "_save", lambda self, key, result, timing,
                        always=False: real_save(self, key, result,
                                                (timing[0], 0.25, timing[2]), always))
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path).expected()
    (full,) = report(tmp_path)
    assert full.left() == []
    ((first, bigs),) = full.big_parts.items()
    assert len(bigs) == 2 and all(b.settled == b.below == b.timed >= 2 for b in bigs)
    kept, emptied = bigs
    entries = {path: json.loads(path.read_text()) for path in tmp_path.glob("task-*.json")}

    def rival_of(part, task):
        args = task["args"]
        return (task["function"] == "_exp_guess_task" and len(args[0]) == 1
                and game.code_str(args[0][0]) == first and args[4] == part.secrets)

    answers = sorted(path for path, e in entries.items() if rival_of(kept, e["task"]))
    assert len(answers) == kept.settled
    assert all(entries[path]["timing"].get("pieces") for path in answers)
    answers[0].unlink()
    untimed = 0
    for path, e in entries.items():
        args = e["task"]["args"]
        if rival_of(emptied, e["task"]):
            path.unlink()
        elif (e["task"]["function"] == "_exp_part_task" and len(args[0]) == 2
              and [game.code_str(h) for h in args[0]] == [first, emptied.first]):
            del e["timing"], e["sha256"]
            e["sha256"] = checkpoint._digest(e)  # intact, only untimed
            path.write_text(json.dumps(e))
            untimed += 1
    assert untimed
    (rep,) = report(tmp_path)
    again = {b.first: b for b in rep.big_parts[first]}
    left_kept, left_emptied = again[kept.first], again[emptied.first]
    assert left_kept.below - left_kept.settled == 1 and left_kept.timed == kept.timed - 1
    assert left_emptied.settled == left_emptied.timed == 0 and left_emptied.tree_cpu is None
    rows = [r for r in rep.left() if r["what"].startswith("rival second guesses of")]
    (row,) = rows
    # (with the rivals of the parts solved whole since their race: chained parts)
    pool = [*left_kept.rival_cpus, *rep.solved_rival_cpus]
    mean = sum(pool) / len(pool)
    assert row["tasks"] == 1 + left_emptied.below
    assert row["timed"] == len(pool) >= left_kept.timed
    assert row["mean_cpu_seconds"] == pytest.approx(mean, abs=1e-3)  # as the row rounds it
    # The rivals whose answers went keep the pieces of their chains: each counts as
    # begun, less the share of its third guesses that the checkpoint holds; one
    # answered in the other big part is priced at its time there.
    begun = left_kept.raced_share + left_emptied.raced_share
    assert 0 < begun <= 1 + left_emptied.below
    there = {b.secrets: answers_elsewhere(tmp_path, game, game.code_index(first), b,
                                          rep.big_parts[first])
             for b in (left_kept, left_emptied)}
    assert [r for r in left_emptied.pending if r not in there[left_emptied.secrets]]
    # (the part with rivals timed at its own mean, the other at the mean of all)
    assert row["estimate_seconds"] == pytest.approx(
        priced(left_kept, there[left_kept.secrets], left_kept.cpu / left_kept.timed)
        + priced(left_emptied, there[left_emptied.secrets], mean), rel=1e-3)
    assert mean > 0.25 and set(rep.task_cpu("_exp_guess_task")) <= {0.25}  # tasks apart
    basis = row["price_basis"].split("; ")
    assert "a part with none, at the mean of all the rivals timed" in basis
    assert basis[-1].startswith("those begun, ")


@pytest.mark.parametrize("chain", [20, 8])
def test_a_split_part_of_the_first_guess_is_timed_with_its_first_guess_parts(tmp_path,
                                                                             monkeypatch,
                                                                             chain):
    # A part of the first guess split by its own guesses (--chain-secrets, below the
    # big parts' size) has its first guess's parts solved in the first batch, so that
    # the run has a complete tree before any race, and its race after the batch. Its
    # answer's entry still times both: the processor time of all its pieces. p4c6n,
    # parts of 80 secrets or more big, from 20 (or 8: parts split below split parts,
    # they too first under their first guess) to 79 split; each task computed is
    # saved as a quarter of a second, as above. (Mastermind with parts from 60 big,
    # as until 2026-12-06, took 16 s, and 24 s with 8.)
    saves = []
    real_save = runner.TaskRunner._save

    def save(self, key, result, timing, always=False):
        saves.append(key)
        real_save(self, key, result, (timing[0], 0.25, timing[2]), always)

    spans = {}  # part's hash -> tasks saved while its first guess's parts, then its
    # race, were solved

    def name(part):
        return task_key("", (part,))["args"][0]["array"]

    real_incumbent = search_parts.PartSolving._node_incumbent
    real_saved_or = search_parts.PartSolving._saved_or

    def incumbent(self, history, part, *args):
        before = len(saves)
        out = real_incumbent(self, history, part, *args)
        if len(history) == 1:
            spans.setdefault(name(part), []).append(len(saves) - before)
        return out

    def saved_or(self, fn, task, compute, spent=None, on_found=None):
        before = len(saves)
        out = real_saved_or(self, fn, task, compute, spent, on_found)
        if fn.__name__ == "_exp_part_task" and len(task[0]) == 1:
            spans.setdefault(name(task[1]), []).append(len(saves) - before)
        return out

    monkeypatch.setattr(runner.TaskRunner, "_save", save)
    monkeypatch.setattr(search_parts.PartSolving, "_node_incumbent", incumbent)
    monkeypatch.setattr(search_parts.PartSolving, "_saved_or", saved_or)
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 80)
    Solver(Game.from_spec("p4c6n"), jobs=1, chain_secrets=chain, checkpoint=tmp_path,
           table_entries=60_001).expected()
    answers = {task["args"][1]["array"]: timing["cpu_seconds"]
               for _, task, _, timing in read_entries(tmp_path)
               if task["function"] == "_exp_part_task" and len(task["args"][0]) == 1
               and timing is not None and timing.get("pieces")}
    assert len(answers) >= 2
    raced = 0
    for part, cpu in answers.items():
        first_parts, race = spans[part]  # solved before its race, apart from it
        assert first_parts > 0
        assert cpu == pytest.approx(0.25 * (first_parts + race))
        raced += race > 0  # (a race whose rivals' bounds all reach its first's total
        # searches none)
    assert raced >= 2


def test_the_checkpoint_modules_examples():
    import doctest

    from optimal_mm import checkpoint

    result = doctest.testmod(checkpoint)
    assert result.attempted >= 8 and result.failed == 0
