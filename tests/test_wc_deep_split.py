"""Worst case split deeper than the second guess (``split_depth``).

A second-guess task of p5c8nb within 9 ran for an hour as one compiled call, and a
run that stops loses it all. With ``split_depth=2`` a second guess is searched by
its parts instead: a part of ``split_secrets`` or more one third guess per task,
the others one task each; a refuted second guess is saved as its own task's answer.
Here the threshold is cut so that small games split deep, and every answer is
compared with the search that keeps parts whole and with the split of depth 1: the
same value at the cap refuted and at the cap met, a tree within the cap, a rerun
that computes nothing again, a run of depth 1 that reads the refutations back, and
the checkpoint report's count of the pieces.
"""

from __future__ import annotations

import pytest

from optimal_mm import Game
from optimal_mm.checkpoint import read_entries
from optimal_mm.checkpoint_report import report
from optimal_mm.checkpoint_summary import DEEP_LISTED
from optimal_mm.cli import main
from optimal_mm.progress import Progress
from optimal_mm.search import Solver
from optimal_mm.tree import Strategy


class Phases(Progress):
    """Records the phase labels and the messages."""

    def __init__(self):
        self.labels, self.messages = [], []

    def phase(self, label, total, done=0):
        self.labels.append(label)

    def message(self, text):
        self.messages.append(text)


def _worst(spec, cap, entries, split=10**9, depth=1, **options):
    progress = Phases()
    solver = Solver(Game.from_spec(spec), table_entries=entries, progress=progress,
                    split_secrets=split, split_depth=depth, jobs=1, **options)
    return solver.worst_case(cap), progress, solver


def _entries(folder, function):
    """``[(args, result)]`` of the checkpoint's tasks of ``function``."""
    return [(task["args"], result) for _, task, result, _ in read_entries(folder)
            if task["function"] == function]


@pytest.mark.parametrize("spec, split, depth, refuted", [
    ("p4c7", 200, 2, 5),     # 2401 codes: 5 refuted by search, 6 met
    ("p4c5b", 60, 3, 7),     # black-only: 7 refuted, 8 met
    ("mastermind", 40, 3, 4),
])
def test_deep_split_gives_the_same_values(spec, split, depth, refuted):
    messages, labels = [], []
    for cap, feasible in ((refuted, False), (refuted + 1, True)):
        whole, _, _ = _worst(spec, cap, 1000 + cap)
        flat, _, _ = _worst(spec, cap, 2000 + cap, split)
        deep, progress, _ = _worst(spec, cap, 3000 + cap, split, depth)
        assert whole.feasible is flat.feasible is deep.feasible is feasible
        assert deep.value == flat.value == whole.value
        messages += progress.messages
        labels += progress.labels
        if feasible:
            stats = deep.strategy.validate()
            assert stats.max <= cap and stats.secrets == Game.from_spec(spec).n_codes
    # The deep split ran: second guesses by their parts, their parts as tasks.
    assert any("each searched by its parts" in m for m in messages)
    assert any(" parts after " in label for label in labels)


def test_a_deep_refutation_is_saved_as_the_second_guess_task(tmp_path):
    """Each second guess refuted by its parts is saved as its own task's answer: a
    rerun computes nothing, and a run of depth 1 reads them back instead of searching
    those second guesses whole."""
    deep, _, solver = _worst("p4c7", 5, 4001, 200, 2, checkpoint=tmp_path)
    assert not deep.feasible and solver.checkpoint.stored > 0
    seconds = [(a, r) for a, r in _entries(tmp_path, "_wc_guess_task") if len(a[0]) == 1]
    pieces = _entries(tmp_path, "_wc_subpart_task")
    assert seconds and all(r[0] is False and r[1] is None for _, r in seconds)
    assert pieces
    again, _, solver = _worst("p4c7", 5, 4002, 200, 2, checkpoint=tmp_path)
    assert again.value == deep.value and solver.checkpoint.stored == 0
    flat_fresh, _, fresh = _worst("p4c7", 5, 4003, 200, 1, checkpoint=tmp_path / "fresh")
    flat, _, solver = _worst("p4c7", 5, 4004, 200, 1, checkpoint=tmp_path)
    assert not flat.feasible and not flat_fresh.feasible
    # The second guesses refuted by pieces are not searched again as single tasks.
    assert solver.checkpoint.stored <= fresh.checkpoint.stored - len(seconds)


def test_the_report_counts_the_pieces(tmp_path):
    _worst("p4c7", 5, 5001, 200, 2, checkpoint=tmp_path)
    (rep,) = report(tmp_path)
    refuted, feasible = rep.deep_worst
    assert refuted >= 1 and refuted + feasible == (
        len(_entries(tmp_path, "_wc_subpart_task"))
        + sum(len(a[0]) > 1 for a, _ in _entries(tmp_path, "_wc_guess_task")))
    text = "\n".join(rep.lines())
    assert "searched by their parts (--split-depth)" in text
    assert "within 5 guesses" in text
    assert rep.to_dict()["deep_worst"] == {"refuted": refuted, "feasible": feasible}


def test_the_report_lists_the_parts_split_deeper(tmp_path):
    """p4c5b within 7, split from 60 secrets down to the fourth guess: every part
    split deeper is found again (its classes counted as the search counts them) and
    refuted; stopped early, the tasks left of the open ones are priced."""
    sol, _, _ = _worst("p4c5b", 7, 6001, 60, 3, checkpoint=tmp_path / "all")
    assert not sol.feasible
    (rep,) = report(tmp_path / "all")
    deep = rep.to_dict()["worst_case"]["7"]["1111"]["deep"]
    assert deep and {len(d["after"]) for d in deep} == {1, 2}
    assert all(d["classes"] == d["refuted"] and not d["feasible"] for d in deep)
    text = "\n".join(rep.lines())
    assert "third-guess classes refuted: the part is refuted" in text
    more = len(deep) - DEEP_LISTED  # every one refuted
    assert f"and {more} more parts split deeper ({more} of them refuted)" in text

    class Stop(Phases):
        def __init__(self, stop):
            super().__init__()
            self.stop = stop

        def advance(self, n=1, resumed=False):
            self.stop -= n
            if self.stop <= 0:
                raise KeyboardInterrupt

    solver = Solver(Game.from_spec("p4c5b"), table_entries=6002, progress=Stop(40),
                    split_secrets=60, split_depth=3, jobs=1, checkpoint=tmp_path / "part")
    with pytest.raises(KeyboardInterrupt):
        solver.worst_case(7)
    (rep,) = report(tmp_path / "part")
    (row,) = [r for r in rep.left() if "split deeper" in r["what"]]
    assert row["tasks"] >= 1 and row["timed"] >= 1 and row["estimate_seconds"] is not None


def test_split_depth_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "mm.json"
    assert main(["solve", "mastermind", "--split-secrets", "40", "--split-depth", "3",
                 "-o", str(out), "--quiet"]) == 0
    tree = Strategy.load(out)
    stats = tree.validate()
    assert stats.max == 5 and stats.secrets == 1296
    # What decided the tree's guesses, for whoever builds it again.
    assert tree.meta["split_secrets"] == 40 and tree.meta["split_depth"] == 3
    plain = tmp_path / "plain.json"
    assert main(["solve", "mastermind", "-o", str(plain), "--quiet"]) == 0
    assert not {"split_secrets", "split_depth"} & set(Strategy.load(plain).meta)
    assert "worst case: 5 guesses, optimal (proven)" in capsys.readouterr().out
    for bad in ("0", "-2"):
        bad_out = tmp_path / f"bad{bad}.json"
        assert main(["solve", "mastermind", "--split-depth", bad, "-o", str(bad_out)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "--split-depth must be 1 or more" in err
        assert not bad_out.exists()


def test_bad_split_depths_are_refused():
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(ValueError, match="split depth"):
            Solver(Game.from_spec("p2c3"), jobs=1, split_depth=bad)


def test_deep_split_does_not_depend_on_workers():
    """The same tree and the same refutation with one worker or two (the third
    guesses of each part split deeper given to the workers as they free up)."""
    trees = []
    for jobs, entries in ((1, 8001), (2, 8002)):
        progress = Phases()
        solver = Solver(Game.from_spec("p4c7"), table_entries=entries, split_secrets=60,
                        split_depth=2, jobs=jobs, backend="threading", progress=progress)
        sol = solver.worst_case(6)
        assert any("third guesses" in label for label in progress.labels)
        doc = sol.strategy.to_dict()
        doc.pop("meta")  # run time, jobs
        trees.append(doc)
        refuted = Solver(Game.from_spec("p4c7"), table_entries=entries + 10,
                         split_secrets=150, split_depth=2, jobs=jobs,
                         backend="threading").worst_case(5)
        assert not refuted.feasible and refuted.value is None
    assert trees[0] == trees[1]


def test_a_deep_split_run_stopped_resumes_where_it_was(tmp_path):
    """Stopped after 40 tasks (Ctrl-C: KeyboardInterrupt), rerun: the tasks saved are
    read back, the same refutation follows, and nothing saved is computed again."""
    class Stop(Phases):
        def advance(self, n=1, resumed=False):
            self.done = getattr(self, "done", 0) + n
            if self.done >= 40:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Solver(Game.from_spec("p4c7"), table_entries=9001, progress=Stop(),
               split_secrets=200, split_depth=2, jobs=1, checkpoint=tmp_path).worst_case(5)
    saved = {p.name for p in tmp_path.glob("task-*.json")}
    assert saved
    again, _, solver = _worst("p4c7", 5, 9002, 200, 2, checkpoint=tmp_path)
    fresh, _, _ = _worst("p4c7", 5, 9003, 200, 2, checkpoint=tmp_path / "fresh")
    assert not again.feasible and not fresh.feasible and again.resumed > 0
    after = {p.name for p in tmp_path.glob("task-*.json")}
    # Only new entries were written, and the two runs together wrote what one does.
    assert solver.checkpoint.stored == len(after - saved)
    assert after == {p.name for p in (tmp_path / "fresh").glob("task-*.json")}
