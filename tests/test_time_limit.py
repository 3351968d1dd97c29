"""``solve --time-limit SECONDS`` and :class:`optimal_mm.stopping.time_limit`.

At the limit a search stops exactly as on Ctrl-C (a kernel in the middle of a long
call included), says what it had proven and, with a checkpoint, keeps its finished
tasks, so that the same command goes on to the same optimum; its status is 124, as
``timeout(1)``'s. A limit that does not pass changes nothing, and a Ctrl-C of
someone else's inside the limit is handled as before it. No assertion depends on
the machine's speed beyond the generous waits that keep a broken build from hanging
the run.
"""

from __future__ import annotations

import doctest
import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from optimal_mm import Game, stopping
from optimal_mm.cli import main
from optimal_mm.search import Solver
from optimal_mm.stopping import TimeLimitReached, time_limit

from processes import processes_with

ROOT = Path(__file__).resolve().parents[1]


def _solve(*args: str, env=None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m optimal_mm solve ARGS`` as a child process, to its end."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep
                    + os.environ.get("PYTHONPATH", ""), **(env or {}))
    return subprocess.run([sys.executable, "-m", "optimal_mm", "solve", *args],
                          env=full_env, capture_output=True, text=True, timeout=timeout,
                          start_new_session=True)


def test_doctests():
    result = doctest.testmod(stopping)
    assert result.attempted and not result.failed


def test_a_time_limit_stops_a_long_kernel_call(tmp_path):
    """p3c10nb's fewest-at-worst search is, after a few seconds, one kernel call of
    many minutes: the limit must stop it there, not when the call returns."""
    start = time.monotonic()
    run = _solve("p3c10nb", "--objective", "fewest-at-worst", "--jobs", "1",
                 "--time-limit", "8", "-o", str(tmp_path / "tree.json"),
                 "--progress-interval", "0", timeout=240)
    assert run.returncode == 124, run.stderr
    assert "Traceback" not in run.stderr
    last = run.stderr.rstrip().splitlines()[-1]
    assert last.startswith("optimal-mm solve: time limit of 8 s reached (so far:"), last
    assert last.endswith("nothing saved (--checkpoint DIR makes a long search resumable)")
    assert not (tmp_path / "tree.json").exists()
    assert time.monotonic() - start < 200  # the call alone runs for many minutes


@pytest.fixture(scope="module")
def p4c7_expected():
    """p4c7's expected case (Ville's 11228) solved in process to the end, one worker:
    the solver and its solution, the run never stopped that stopped ones are held to."""
    solver = Solver(Game.from_spec("p4c7"), jobs=1)
    return solver, solver.solve("expected")


def test_a_run_stopped_by_its_limit_resumes_to_the_optimum(tmp_path, p4c7_expected):
    """p4c7's expected case (Ville's 11228) stopped after a second, its finished tasks
    kept; the same command without a limit reads them back and ends at the optimum,
    with the same tree as a run never stopped."""
    folder, tree = tmp_path / "ckpt", tmp_path / "tree.json"
    common = ("p4c7", "--objective", "expected", "--jobs", "1", "--checkpoint", str(folder),
              "-o", str(tree), "--progress-interval", "0")
    first = _solve(*common, "--time-limit", "1")
    assert first.returncode == 124, first.stderr
    last = first.stderr.rstrip().splitlines()[-1]
    saved = re.fullmatch(r"optimal-mm solve: time limit of 1 s reached \(so far: .*\); "
                         r"(\d+) tasks? saved in .*: rerun the same command to resume", last)
    assert saved, last
    assert not tree.exists()
    again = _solve(*common)
    assert again.returncode == 0, again.stderr
    assert "optimal total: 11228" in again.stdout
    assert f"checkpoint {folder}: {saved.group(1)} tasks loaded" in again.stdout
    _, whole = p4c7_expected
    assert whole.value == 11228
    doc = json.loads(tree.read_text())
    assert doc["root"] == json.loads(json.dumps(whole.strategy.to_dict()))["root"]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_a_time_limit_ends_the_worker_processes(tmp_path):
    """With two worker processes the parent alone gets the stop, and must end them."""
    marker = f"OPTIMAL_MM_TEST_{uuid.uuid4().hex}"
    run = _solve("p4c8", "--objective", "expected", "--jobs", "2", "--time-limit", "4",
                 "--checkpoint", str(tmp_path / "ckpt"), "-o", str(tmp_path / "tree.json"),
                 "--progress-interval", "0", env={marker: "1"}, timeout=240)
    assert run.returncode == 124, run.stderr
    assert "Traceback" not in run.stderr
    assert "time limit of 4 s reached" in run.stderr.rstrip().splitlines()[-1]
    deadline = time.monotonic() + 30
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(marker) == []


def test_a_limit_that_passes_in_process_raises_and_restores_the_handler():
    before = signal.getsignal(signal.SIGINT)
    solver = Solver(Game.from_spec("p4c8"), jobs=1)
    with pytest.raises(TimeLimitReached, match="time limit of 0.5 s reached"):
        with time_limit(0.5):
            solver.solve("expected")  # about 20 s and more
    assert signal.getsignal(signal.SIGINT) is before


def test_a_limit_that_does_not_pass_changes_nothing(tmp_path, capsys):
    assert main(["solve", "p3c4", "--time-limit", "600", "-o", str(tmp_path / "t.json")]) == 0
    assert "worst case: 4 guesses, optimal (proven)" in capsys.readouterr().out
    seen = []
    previous = signal.signal(signal.SIGALRM, lambda *_: seen.append(1))
    try:
        with time_limit(0.2) as limit:
            pass
        time.sleep(0.4)  # the timer, cancelled on leaving, never fires
        assert not limit.expired and seen == []
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        # The handler before the block is back.
        signal.raise_signal(signal.SIGALRM)
        assert seen == [1]
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_a_ctrl_c_within_the_limit_is_a_ctrl_c():
    with pytest.raises(KeyboardInterrupt) as info:
        with time_limit(60):
            signal.raise_signal(signal.SIGINT)
            time.sleep(1)
    assert not isinstance(info.value, TimeLimitReached)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_bad_time_limit_is_refused_in_one_line(value, tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["solve", "p3c4", "--time-limit", value, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("optimal-mm solve: error: --time-limit must be a positive number")
    assert not out.exists()
    with pytest.raises(ValueError):
        time_limit(float(value))


def test_within_stops_at_its_time_limit_saying_that_nothing_is_proven(tmp_path):
    """p5c8nb within 9 guesses, breadth 5 and nodes of up to 500 secrets decided
    exactly: a search of more than 13 minutes (results/within.json), stopped after
    3 s, with how far it had got."""
    out = tmp_path / "w.json"
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "within", "p5c8nb", "9",
                          "--breadth", "5", "--exact", "500", "--time-limit", "3",
                          "--quiet", "-o", str(out)],
                         capture_output=True, text=True, timeout=240,
                         env=dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep
                                  + os.environ.get("PYTHONPATH", "")))
    assert run.returncode == 124, run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert re.match(r"optimal-mm within: time limit of 3 s reached; no tree within 9 "
                    r"guesses found so far \(this proves nothing\); \d+ nodes by the beam",
                    run.stderr), run.stderr
    assert not out.exists()


def test_the_command_line_names_the_interruptions():
    from optimal_mm.cli import Terminated, interrupted_status, interruption

    for exc, status, text in ((KeyboardInterrupt(), 130, "interrupted"),
                              (Terminated(), 143, "terminated"),
                              (TimeLimitReached(2.5), 124, "time limit of 2.5 s reached")):
        assert (interrupted_status(exc), interruption(exc)) == (status, text)
    again = pickle.loads(pickle.dumps(TimeLimitReached(2.5)))
    assert isinstance(again, TimeLimitReached) and again.seconds == 2.5


def test_the_static_objective_keeps_the_time_limit_too(tmp_path, capsys):
    """p4c5's fewest questions asked all at once: a search of more than a second."""
    out = tmp_path / "static.json"
    assert main(["solve", "p4c5", "--objective", "static", "--time-limit", "1",
                 "-o", str(out)]) == 124
    err = capsys.readouterr().err
    assert err == "optimal-mm solve: time limit of 1 s reached; nothing written\n"
    assert not out.exists()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def _stopping_progress():
    """A progress that stops the search (as Ctrl-C would) at the message that ends
    phase (1): a first guess solved exactly, its tree complete, no rival searched."""
    from optimal_mm.progress import Progress

    class Stop(Progress):
        def message(self, text):
            if re.fullmatch(r"first guess \S+: .*", text):
                raise KeyboardInterrupt

    return Stop()


def test_a_stopped_expected_search_keeps_its_best_tree(p4c7_expected):
    """p4c7's expected case stopped once its first guess is solved exactly: the best
    tree so far is that guess's, replayed for every secret, with the total the search
    had reached, not marked optimal; the search that runs to the end keeps its own
    optimal tree there; a worst-case search keeps none."""
    game = Game.from_spec("p4c7")
    solver = Solver(game, jobs=1, progress=_stopping_progress())
    with pytest.raises(KeyboardInterrupt):
        solver.solve("expected")
    best = solver.best_so_far()
    assert best is not None and not best.optimal
    assert best.objective == "expected" and best.max_guesses is None
    assert best.validate() == best.declared and best.declared.secrets == game.n_codes
    assert best.declared.total >= 11228  # Ville's optimum: at most as good
    assert "upper_bound" in best.meta
    whole, sol = p4c7_expected
    assert whole.best_so_far().declared.total == sol.value == 11228
    worst = Solver(game, jobs=1)
    worst.solve("worst-case")
    assert worst.best_so_far() is None


def test_a_stopped_fewest_at_worst_search_keeps_a_tree_within_the_worst_case():
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1, progress=_stopping_progress())
    with pytest.raises(KeyboardInterrupt):
        solver.solve("fewest-at-worst")
    best = solver.best_so_far()
    assert best.objective == "fewest-at-worst" and best.max_guesses == 5 == best.declared.max
    assert not best.optimal and best.validate() == best.declared


def test_a_search_stopped_among_its_big_parts_rivals_keeps_the_first_batch_tree(
        monkeypatch):
    """Mastermind with every part of 60 secrets or more split by second guess, stopped
    at its first upper bound (the first batch done: each big part under its first
    second guess, no rival searched): that complete tree is kept, with that total."""
    from optimal_mm import search
    from optimal_mm import search_parts
    from optimal_mm.progress import Progress

    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    told = []

    class Stop(Progress):
        def update(self, best=None, bound=None):
            if best is not None:
                told.append(best)
                raise KeyboardInterrupt

    solver = Solver(Game.from_spec("mastermind"), jobs=1, progress=Stop())
    with pytest.raises(KeyboardInterrupt):
        solver.solve("expected")
    best = solver.best_so_far()
    assert best is not None and best.validate() == best.declared
    assert best.declared.total == told[0] >= 5625 and not best.optimal
    first = solver.first_guess_order(search.NO_CAP)[0][0]  # phase (1)'s first guess
    assert best.root.guess == solver.game.code_str(first)
    # Its parts of 60 secrets or more, each under its first second guess in the
    # search's order: the first batch's tree.
    for _, part in solver.first_guess_parts(first):
        if len(part) >= 60:
            (answer,) = {solver.game.answer_str(a) for a, p in solver._ctx.split(
                first, solver._ctx.all_guesses) if len(p) == len(part)
                and (p == part).all()}
            second = solver.exp_second_guesses((first,), part, search.NO_CAP, 0)[0][0]
            assert best.root.next[answer].guess == solver.game.code_str(second)


def test_solve_writes_the_best_tree_so_far_when_stopped(tmp_path, capsys, monkeypatch):
    """The command stopped after phase (1) writes that tree to --best-so-far (a tree
    `verify` accepts) and not the output; stopped before any tree, it says so and
    writes nothing."""
    from optimal_mm.cli import solve_cmds

    monkeypatch.setattr(solve_cmds, "make_progress", lambda *a: _stopping_progress())
    out, best = tmp_path / "tree.json", tmp_path / "best.json.gz"
    code = main(["solve", "p4c7", "--objective", "expected", "--jobs", "1",
                 "-o", str(out), "--best-so-far", str(best)])
    err = capsys.readouterr().err
    assert code != 0 and not out.exists() and "Traceback" not in err
    assert f"wrote the best tree so far, not proven optimal, to {best}: first guess " in err
    assert main(["verify", str(best)]) == 0
    assert "objective: expected (not proved optimal)" in capsys.readouterr().out
    best.unlink()
    monkeypatch.setattr(Solver, "_expected", lambda *a, **k: (_ for _ in ()).throw(
        KeyboardInterrupt))
    assert main(["solve", "p4c7", "--objective", "expected", "--jobs", "1", "-o", str(out),
                 "--best-so-far", str(best)]) != 0
    assert f"no complete tree yet; nothing written to {best}" in capsys.readouterr().err
    assert not best.exists()


def test_best_so_far_is_refused_where_it_cannot_be(tmp_path, capsys):
    for args, says in (
            (["--best-so-far", str(tmp_path / "b.json")], "needs an expected-case objective"),
            (["--objective", "expected", "--best-so-far", str(tmp_path / "no" / "b.json")],
             "b.json")):
        assert main(["solve", "p3c4", "-o", str(tmp_path / "t.json"), *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err, err
        assert not (tmp_path / "t.json").exists()
