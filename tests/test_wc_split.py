"""Worst case with big parts split by their second guesses (``split_secrets``).

The split exists for p5c8, whose refutations take weeks (``WC_SPLIT_SECRETS``, the
default; ``--split-secrets`` for other long runs); here the threshold is cut
so that small games are split too, and every answer is compared with the search
that keeps each part whole: the same value at the cap that is refuted and at the cap
that is met, a tree within the cap, the same tree whatever the number of workers,
and a run interrupted after a few second-guess tasks that resumes without redoing
them. Each test uses its own ``table_entries`` so that no transposition table is
shared between the split and the unsplit run of one process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from optimal_mm import Game, search
from optimal_mm.progress import Progress
from optimal_mm.search import Solver


class Phases(Progress):
    """Records the phase labels; raises KeyboardInterrupt after ``stop`` tasks."""

    def __init__(self, stop=None):
        self.labels, self.stop = [], stop

    def phase(self, label, total, done=0):
        self.labels.append(label)

    def advance(self, n=1, resumed=False):
        if self.stop is not None:
            self.stop -= n
            if self.stop == 0:
                raise KeyboardInterrupt


def _worst(spec, cap, split, entries, **options):
    """A worst-case search within ``cap`` with parts of ``split`` secrets split."""
    progress = options.pop("progress", None) or Phases()
    solver = Solver(Game.from_spec(spec), table_entries=entries, progress=progress,
                    split_secrets=split, **options)
    return solver.worst_case(cap), progress, solver


@pytest.mark.parametrize("spec, split, refuted", [
    ("p4c7", 200, 5),    # 2401 codes; 5 refuted by search, 6 met
    ("p4c5b", 100, 7),   # black-only: 7 refuted by search, 8 met
    ("p4c5", 40, 4),     # 4 refuted (every second guess by counting), 5 met
])
def test_split_gives_the_same_values(spec, split, refuted):
    for cap, feasible in ((refuted, False), (refuted + 1, True)):
        whole, _, _ = _worst(spec, cap, 10**9, 1000 + cap, jobs=1)
        parts, progress, _ = _worst(spec, cap, split, 2000 + cap, jobs=1)
        assert whole.feasible is feasible and parts.feasible is feasible
        assert parts.value == whole.value
        assert any("second guesses" in label for label in progress.labels)
        if feasible:
            assert parts.strategy.validate().max <= cap
            assert parts.strategy.validate().secrets == Game.from_spec(spec).n_codes


def test_split_does_not_depend_on_workers():
    """The same tree with 1 or 2 workers; the same refutation, the second guesses
    given to the workers as they free up while all are refuted."""
    one, _, _ = _worst("p4c7", 6, 200, 3001, jobs=1)
    two, _, _ = _worst("p4c7", 6, 200, 3002, jobs=2, backend="threading")
    docs = [sol.strategy.to_dict() for sol in (one, two)]
    for doc in docs:
        doc.pop("meta")  # run time, jobs
    assert docs[0] == docs[1]
    refuted, _, _ = _worst("p4c7", 5, 200, 3003, jobs=2, backend="threading")
    assert not refuted.feasible and refuted.value is None


def _second_guess_entries(folder) -> list[Path]:
    return [p for p in Path(folder).glob("task-*.json")
            if '"function":"_wc_guess_task"' in p.read_text()]


def test_split_refutation_resumes_second_guess_by_second_guess(tmp_path):
    """Interrupted after 4 second-guess tasks, rerun: those 4 are read back."""
    reference, _, _ = _worst("p4c7", 5, 200, 4001, jobs=1)
    with pytest.raises(KeyboardInterrupt):
        _worst("p4c7", 5, 200, 4002, jobs=1, checkpoint=tmp_path, progress=Phases(stop=4))
    saved = _second_guess_entries(tmp_path)
    assert 1 <= len(saved) <= 4
    again, _, solver = _worst("p4c7", 5, 200, 4003, jobs=1, checkpoint=tmp_path)
    assert again.value == reference.value and not again.feasible
    assert again.resumed == 4 and solver.checkpoint.loaded == 4
    # Nothing saved was computed again: the entries are those of the first run plus new.
    assert set(saved) <= set(_second_guess_entries(tmp_path))
    assert solver.checkpoint.stored == len(list(tmp_path.glob("task-*.json"))) - 4


def test_the_default_threshold_and_bad_values():
    solver = Solver(Game.from_spec("p2c3"), jobs=1)
    assert solver.split_secrets == search.WC_SPLIT_SECRETS
    for bad in (0, -5, True, 2.5, "100"):
        with pytest.raises(ValueError, match="split secrets"):
            Solver(Game.from_spec("p2c3"), jobs=1, split_secrets=bad)


def test_a_checkpoint_resumes_under_another_threshold(tmp_path):
    """Tasks do not depend on the threshold: a refutation stopped under one resumes
    under another, reading back the tasks the new run asks for, with the same value;
    and a feasible run's tree is the one a fresh run with its threshold builds."""
    reference, _, _ = _worst("p4c7", 5, 200, 5001, jobs=1)
    with pytest.raises(KeyboardInterrupt):
        _worst("p4c7", 5, 200, 5002, jobs=1, checkpoint=tmp_path, progress=Phases(stop=6))
    again, _, solver = _worst("p4c7", 5, 300, 5003, jobs=1, checkpoint=tmp_path)
    assert again.value == reference.value and not again.feasible
    assert solver.checkpoint.loaded >= 1
    fresh, _, _ = _worst("p4c7", 6, 300, 5004, jobs=1)
    resumed, _, _ = _worst("p4c7", 6, 300, 5005, jobs=1, checkpoint=tmp_path)
    docs = [sol.strategy.to_dict() for sol in (fresh, resumed)]
    for doc in docs:
        doc.pop("meta")
    assert docs[0] == docs[1]


def test_a_part_refuted_whole_is_not_split_again(tmp_path):
    """A refutation stored by a run that searched parts whole is read back by a run
    that would split them: no second-guess task is computed."""
    whole, _, _ = _worst("p4c7", 5, 10**9, 6001, jobs=1, checkpoint=tmp_path)
    assert not whole.feasible and not _second_guess_entries(tmp_path)
    before = len(list(tmp_path.glob("task-*.json")))
    again, progress, solver = _worst("p4c7", 5, 200, 6002, jobs=1, checkpoint=tmp_path)
    assert again.value == whole.value and not again.feasible
    assert solver.checkpoint.stored == 0 and not _second_guess_entries(tmp_path)
    assert len(list(tmp_path.glob("task-*.json"))) == before
    # Without the checkpoint the same run splits (the test would prove nothing else).
    fresh, progress, _ = _worst("p4c7", 5, 200, 6003, jobs=1)
    assert any("second guesses" in label for label in progress.labels)


def test_a_capped_run_and_the_run_without_a_cap_share_a_checkpoint(tmp_path):
    """A run testing one cap saves its tasks under the key of the run that finds t*
    (each task holds its guesses left): that run reads them back, and the capped run
    again computes nothing."""
    capped, _, solver = _worst("p4c7", 5, 200, 7001, jobs=1, checkpoint=tmp_path)
    assert not capped.feasible and solver.checkpoint.stored > 0
    saved = solver.checkpoint.stored
    full, _, solver = _worst("p4c7", None, 200, 7002, jobs=1, checkpoint=tmp_path)
    assert full.value == 6 and full.resumed >= saved
    fresh, _, alone = _worst("p4c7", None, 200, 7003, jobs=1, checkpoint=tmp_path / "fresh")
    assert fresh.value == 6 and solver.checkpoint.stored == alone.checkpoint.stored - saved
    again, _, solver = _worst("p4c7", 5, 200, 7004, jobs=1, checkpoint=tmp_path)
    assert not again.feasible and solver.checkpoint.stored == 0
