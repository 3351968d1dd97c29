"""Rival chains searched beside the race's own thread
(``ExpectedSearch._second_guess_rounds``, ``TaskRunner.beside``).

A race of rivals that are chains of tasks settles them one after another, each
chain a few tasks in a row, so one worker computes while the others wait. Where
every task goes to a worker (a run with a checkpoint), a chain may instead run in a
thread of its own, one per job beyond the first, while the race goes on with the
next rival. Its budget is then the best total when it was drawn, not after the
chains before it: the answer must be the same (the earliest rival with the least
total), only the work may differ.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import threading
import time

import pytest

from optimal_mm import Game, search, search_parts, search_races
from optimal_mm import runner as runner_module
from optimal_mm.progress import LogProgress, Progress, QuietProgress, TeeProgress
from optimal_mm.runner import SessionHalted, TaskRunner
from optimal_mm.search import Solver


@pytest.mark.parametrize("spec, chain, objective", [
    ("p4c5nb", 4, "fewest-at-worst"), ("p3c6nb", 3, "expected")])
def test_chains_beside_give_the_same_value_and_tree(spec, chain, objective, tmp_path,
                                                    monkeypatch):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30 if spec == "p4c5nb" else 20)
    game = Game.from_spec(spec)
    beside = []
    real = search.Solver._settle_beside

    def spy(self, settle, k, args):
        beside.append(threading.current_thread() is not threading.main_thread())
        return real(self, settle, k, args)

    monkeypatch.setattr(search.Solver, "_settle_beside", spy)
    alone = Solver(game, jobs=1, chain_secrets=chain).solve(objective)
    assert not beside  # one job: every chain in the race's own thread
    two = Solver(game, jobs=2, chain_secrets=chain, checkpoint=tmp_path / "two")
    sol = two.solve(objective)
    assert beside and all(beside)  # chains in threads of their own
    assert sol.value == alone.value
    assert sol.strategy.root.to_dict() == alone.strategy.root.to_dict()
    # every slot given back, each one lent by a waiting thread taken back
    assert two._beside.free == 1
    # A rerun reads every answer back, whichever thread saved it: a chain's budget
    # was the best total when it was drawn, which depended on the chains beside that
    # had finished, but the rerun reads each chain back before it draws the next
    # rival, so it asks under budgets no looser, which the saved answers settle
    saved = sorted(p.name for p in (tmp_path / "two").rglob("task-*"))
    again = Solver(game, jobs=2, chain_secrets=chain, checkpoint=tmp_path / "two")
    resumed = again.solve(objective)
    assert sorted(p.name for p in (tmp_path / "two").rglob("task-*")) == saved
    assert resumed.value == alone.value
    assert resumed.strategy.root.to_dict() == alone.strategy.root.to_dict()
    assert again.checkpoint.loaded > 0


def test_a_resumed_race_reads_its_chains_back_before_the_next_draw(tmp_path,
                                                                   monkeypatch):
    # A chain whose answer the checkpoint holds is read back in the race's own
    # thread, never beside it. Settled beside, the lead it takes could come after
    # the next rival's draw, whose budget would then be the looser one from before:
    # the checkpoint, holding that rival's answer under the tighter budget, may not
    # answer it, and the run would search it again (p4c8nb's upper tree: 300 s on a
    # chain it had settled). One job saves every answer; a resumed run with two
    # puts no known chain beside and computes nothing anew.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    alone = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path).solve(
        "fewest-at-worst")
    saved = sorted(p.name for p in tmp_path.rglob("task-*"))
    assert saved
    known_beside = []
    real = search.Solver._settle_beside

    def spy(self, settle, k, args):
        found = self._runner.known(search_races._exp_guess_task, [args], count=False)
        known_beside.append(found[1][0] is not None)
        return real(self, settle, k, args)

    monkeypatch.setattr(search.Solver, "_settle_beside", spy)
    again = Solver(game, jobs=2, chain_secrets=4, checkpoint=tmp_path)
    sol = again.solve("fewest-at-worst")
    assert not any(known_beside)
    assert sorted(p.name for p in tmp_path.rglob("task-*")) == saved
    assert again.checkpoint.loaded > 0
    assert sol.value == alone.value
    assert sol.strategy.root.to_dict() == alone.strategy.root.to_dict()


class _Messages(Progress):
    """The log's messages; :meth:`hold` waits for the next one that says the race's
    thread waits (for a slot to draw its next rival, or for its chains)."""

    WAITS = (": the next rival waits for a slot beside ", ": every rival drawn; waiting for ")

    def __init__(self):
        self.lines, self.waits, self._cond = [], 0, threading.Condition()

    def message(self, text):
        with self._cond:
            self.lines.append(text)
            if any(w in text for w in self.WAITS):
                self.waits += 1
                self._cond.notify_all()

    def hold(self, seconds: float) -> None:
        """Wait until the log says, after now, that the race's thread waits: at most
        ``seconds``."""
        deadline = time.monotonic() + seconds
        with self._cond:
            since = self.waits
            while self.waits == since and time.monotonic() < deadline:
                self._cond.wait(min(0.01, max(0.0, deadline - time.monotonic())))


class _MainLends:
    """Counts the loans of the main thread's slot (``BesideSlots.lent``: it waits for
    a slot to put a chain in, or for its chains beside), for a chain beside to wait
    for the next one."""

    def __init__(self, monkeypatch):
        self.count, self._cond = 0, threading.Condition()
        real_lent = search_races.BesideSlots.lent

        @contextlib.contextmanager
        def lent(slots, waiting=None):
            with real_lent(slots, waiting):
                if threading.current_thread() is threading.main_thread():
                    with self._cond:
                        self.count += 1
                        self._cond.notify_all()
                yield

        monkeypatch.setattr(search_races.BesideSlots, "lent", lent)

    def hold(self, seconds: float, until: threading.Event | None = None) -> None:
        """Wait until the main thread lends its slot after now, or ``until`` is set:
        at most ``seconds``."""
        deadline = time.monotonic() + seconds
        with self._cond:
            since = self.count
            while self.count == since and not (until is not None and until.is_set()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(min(left, 0.01))


def _named_chains(text: str, after: str) -> list[str]:
    """The chains beside that a log line names after ``after``: ``2345, a chain
    beside, drawn 0:00:01 ago`` or ``2 chains beside: 2345, drawn ...; 1342, ...``."""
    names = text.split(after, 1)[1]
    if ", a chain beside, drawn " in names:
        return [names.split(",")[0]]
    return [x.split(",")[0] for x in names.split(": ", 1)[1].split("; ")]


def test_the_log_names_the_chains_beside_the_race_waits_for(tmp_path, monkeypatch):
    # Each chain beside a first guess's big part waits (at most 5 s) until the log
    # next says that the race's thread waits, for a slot to draw its next rival or
    # for its chains once every rival is drawn: the chains' phases are hidden, and
    # the log must say which rivals the race waits for or leaves running (p5c6b's
    # went quiet for 33 minutes), each named again once its answer comes, never one
    # that has answered.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    log = _Messages()
    real = search.Solver._settle_beside

    def slow(self, settle, k, args):
        if len(args[0]) == 1:
            log.hold(5.0)
        return real(self, settle, k, args)

    monkeypatch.setattr(search.Solver, "_settle_beside", slow)
    Solver(Game.from_spec("p4c5nb"), jobs=2, chain_secrets=4, checkpoint=tmp_path,
           progress=log).expected()
    kinds = {": every rival drawn; waiting for ": "waiting for ",
             ": every rival drawn; the next part's race begins beside ": "begins beside ",
             ": the next rival waits for a slot beside ": "slot beside "}
    told = [(i, kind) for i, x in enumerate(log.lines) for kind in kinds if kind in x]
    # (each waits for a slot right after it puts a chain beside: the held chains
    # hold every slot. Whether the last race's thread then waits for its chains,
    # or a race moves on beside them, depends on which the log's lines released)
    assert ": the next rival waits for a slot beside " in {kind for _, kind in told}, (
        log.lines)
    for i, kind in told:
        race, rest = log.lines[i].split(kind)
        assert race.startswith("expected: rivals of ") and " secrets after " in race
        for g in _named_chains(kind + rest, kinds[kind]):
            assert not any(x.startswith(f"{race}: {g}, a chain, ")
                           for x in log.lines[:i]), (g, log.lines)
            assert any(x.startswith(f"{race}: {g}, a chain, ") for x in log.lines[i + 1:]), (
                g, log.lines)


class _Overlap(Progress):
    """Messages, and an event set once a race other than the one that moved on
    says something after it moved on."""

    def __init__(self):
        self.lines, self.moved, self.overlap = [], None, threading.Event()

    def message(self, text):
        self.lines.append(text)
        if ": every rival drawn; the next part's race begins beside " in text:
            self.moved = self.moved or text.split(": every rival drawn")[0]
        elif self.moved is not None and not text.startswith(self.moved):
            self.overlap.set()


def test_the_next_big_part_races_while_a_chain_beside_runs(tmp_path, monkeypatch):
    # A big part's race whose own thread is done while a chain beside it still runs
    # (search_parts' _solve_parts, InFlight) lets the next big part's race begin at
    # once: here each chain beside a first guess's big part starts only once another
    # race has spoken after the first one moved on, or the main thread next lends
    # its slot (at most 10 s: a race waits for a slot to put its next chain in),
    # which the old order (each race waited for its chains) never allows. The answer
    # is the one of a single job.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    log, lends = _Overlap(), _MainLends(monkeypatch)
    real = search.Solver._settle_beside

    def late(self, settle, k, args):
        if len(args[0]) == 1:  # a rival of a first guess's big part (not deeper)
            lends.hold(10.0, until=log.overlap)
        return real(self, settle, k, args)

    monkeypatch.setattr(search.Solver, "_settle_beside", late)
    game = Game.from_spec("p4c5nb")
    alone = Solver(game, jobs=1, chain_secrets=4).solve("fewest-at-worst")
    sol = Solver(game, jobs=2, chain_secrets=4, checkpoint=tmp_path,
                 progress=log).solve("fewest-at-worst")
    assert log.moved is not None and log.overlap.is_set(), log.lines
    moved = next(i for i, x in enumerate(log.lines) if "the next part's race begins" in x)
    for chain in _named_chains(log.lines[moved], "race begins beside "):
        answered = [i for i, x in enumerate(log.lines)
                    if x.startswith(f"{log.moved}: {chain}, a chain, ")]
        assert answered and answered[0] > moved  # the chain answered after the move on
    last = max(i for i, x in enumerate(log.lines) if x.startswith(f"{log.moved}: "))
    assert any(not x.startswith(log.moved) for x in log.lines[moved + 1:last])
    assert sol.value == alone.value
    assert sol.strategy.root.to_dict() == alone.strategy.root.to_dict()


def test_a_waiting_race_lends_its_slot_to_the_chains_beside(tmp_path, monkeypatch):
    # With 2 jobs there is one slot beside the race's own thread. Once that thread
    # only waits (BesideSlots.lent: for a slot to put a chain in, or for its chains
    # beside), a chain may take its slot, and put its own rivals' chains beside it:
    # here each chain beside a first guess's big part starts only once the main
    # thread lends its slot (at most 10 s), and two chains beside then compute at
    # once, which one slot alone never allows. A thread that waits computes
    # nothing, and takes its slot back only once one is free: never more threads
    # compute than there are jobs. The answer is one job's.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    lends = _MainLends(monkeypatch)
    lock, chains, idle, reclaims = threading.Lock(), set(), set(), set()
    peak = {"beside": 0, "all": 0}
    real_settle, real_take = search.Solver._settle_beside, search_races.BesideSlots.take_waiting
    real_lent = search_races.BesideSlots.lent  # (the one _MainLends put in)
    main = threading.main_thread().ident

    def count():  # under the lock: the threads that compute now
        beside = len(chains - idle)
        peak["beside"] = max(peak["beside"], beside)
        peak["all"] = max(peak["all"], beside + (main not in idle))

    @contextlib.contextmanager
    def lent(self, waiting=None):  # a thread's slot lent: it computes nothing until
        me = threading.get_ident()  # it has one back
        with real_lent(self, waiting):
            with lock:
                idle.add(me)
            try:
                yield
            finally:
                with lock:
                    reclaims.add(me)  # its next wait for a slot is for its own

    def take_waiting(self, waiting=None):  # a thread waits for a slot (a chain's, or
        me = threading.get_ident()  # its own back)
        with lock:
            was_idle = me in idle
            idle.add(me)
        try:
            return real_take(self, waiting)
        finally:
            with lock:
                if me in reclaims:
                    reclaims.discard(me)
                    idle.discard(me)
                elif not was_idle:
                    idle.discard(me)
                count()

    def counted(self, settle, k, args):
        if len(args[0]) == 1:  # a rival of a first guess's big part
            lends.hold(10.0)
        me = threading.get_ident()
        with lock:
            chains.add(me)
            count()
        try:
            return real_settle(self, settle, k, args)
        finally:
            with lock:
                chains.discard(me)

    monkeypatch.setattr(search_races.BesideSlots, "lent", lent)
    monkeypatch.setattr(search_races.BesideSlots, "take_waiting", take_waiting)
    monkeypatch.setattr(search.Solver, "_settle_beside", counted)
    game = Game.from_spec("p4c5nb")
    alone = Solver(game, jobs=1, chain_secrets=4).solve("fewest-at-worst")
    two = Solver(game, jobs=2, chain_secrets=4, checkpoint=tmp_path)
    sol = two.solve("fewest-at-worst")
    assert peak == {"beside": 2, "all": 2}
    assert two._beside.free == 1  # every slot back, the lent ones taken back
    assert sol.value == alone.value
    assert sol.strategy.root.to_dict() == alone.strategy.root.to_dict()


def test_a_race_never_searches_a_chain_in_its_own_thread_beside_free_workers(
        tmp_path, monkeypatch):
    # Where chains may run beside (2 jobs, a checkpoint), the race's thread waits for
    # a slot rather than search a chain itself: searched there, a chain held up
    # every draw after it while the chain beside ended, one worker idle (p6c7n's
    # race of 1,590 secrets: 214567's chain ran alone, the one beside done in 2 s).
    # A chain read back from the checkpoint is still settled there (tested above).
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    in_main, beside = [], []
    real = search.Solver._chain_of

    def spy(self, task):
        (in_main if threading.current_thread() is threading.main_thread()
         else beside).append(task[1])
        return real(self, task)

    monkeypatch.setattr(search.Solver, "_chain_of", spy)
    game = Game.from_spec("p4c5nb")
    alone = Solver(game, jobs=1, chain_secrets=4).solve("fewest-at-worst")
    assert in_main and not beside  # one job: every chain in the race's own thread
    in_main.clear()
    two = Solver(game, jobs=2, chain_secrets=4, checkpoint=tmp_path)
    sol = two.solve("fewest-at-worst")
    assert beside and not in_main
    assert two._beside.free == 1
    assert sol.value == alone.value
    assert sol.strategy.root.to_dict() == alone.strategy.root.to_dict()


def test_a_long_wait_for_a_slot_is_told_again_through_the_tables_tee(tmp_path,
                                                                     monkeypatch):
    # The optimal table logs through a TeeProgress (the display that keeps its
    # bounds, and a LogProgress): the race's wait for a slot must be told again
    # every interval through it, as through the log alone. It was told once: p6c7n's
    # capped run said "the next rival waits for a slot beside" and then nothing
    # while both chains ran beside, their phases hidden.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    real, slow = search.Solver._settle_beside, []

    def settle(self, settle_fn, k, args):
        if len(args[0]) == 1 and len(slow) < 2:  # the first two chains beside: 2.5 s
            slow.append(k)
            time.sleep(2.5)
        return real(self, settle_fn, k, args)

    monkeypatch.setattr(search.Solver, "_settle_beside", settle)
    out = io.StringIO()
    tee = TeeProgress(QuietProgress(), LogProgress(out, interval=0.2))
    Solver(Game.from_spec("p4c5nb"), jobs=2, chain_secrets=4, checkpoint=tmp_path,
           progress=tee).expected()
    waits = [line.split(" beside ", 1)[1] for line in out.getvalue().splitlines()
             if ": the next rival waits for a slot beside " in line]
    assert len(slow) == 2 and waits, out.getvalue()
    # Told again: the same chains named twice in a row, drawn longer ago (a new
    # wait follows a new chain put beside, so it names another set of chains)
    names = [re.sub(r"drawn \d+:\d\d:\d\d ago", "", w) for w in waits]
    assert any(a == b for a, b in zip(names, names[1:])), waits


def test_no_chain_beside_where_tasks_may_run_here(tmp_path):
    # Without a checkpoint a single task runs in this process, holding the
    # interpreter: a thread beside would stop every other thread's dispatching
    game = Game.from_spec("p2c3")
    assert Solver(game, jobs=2)._beside is None
    assert Solver(game, jobs=1, checkpoint=tmp_path)._beside is None
    runner = TaskRunner(2, "loky", None, Progress())
    with pytest.raises(ValueError, match="dispatches every task"):
        runner.beside(lambda: None)


class Shown(Progress):
    def __init__(self):
        self.phases, self.messages, self.best = [], [], None

    def phase(self, label, total, done=0):
        self.phases.append(label)

    def update(self, best=None, bound=None):
        self.best = best if best is not None else self.best

    def message(self, text):
        self.messages.append(text)


def test_a_thread_beside_is_charged_its_own_seconds_and_keeps_its_phases():
    shown = Shown()
    runner = TaskRunner(2, "loky", None, shown, isolated=True)
    runner.prepare(())
    since = runner.clock()[0]
    saved, go, inside = threading.Event(), threading.Event(), {}

    def work():
        mark = runner.clock()[0]
        runner._save("a", 1, (0.5, 0.25, 0.0))  # a task's result: 0.25 s of processor
        runner.progress.phase("beside", 1)
        runner.progress.message("from beside")
        runner.progress.update(best=7)
        saved.set()
        go.wait(10)
        inside["seconds"] = runner.clock()[0] - mark
        return "done"

    chain = runner.beside(work)
    assert saved.wait(10)
    runner._save("b", 2, (0.5, 1.0, 0.0))  # this thread's own task meanwhile
    go.set()
    assert chain.join() == "done"
    assert inside["seconds"] == 0.25  # the thread's clock: its own task alone
    # the joining thread is charged with both, the session counts both once
    assert runner.clock()[0] - since == 1.25
    assert runner.task_seconds == 1.25
    assert shown.phases == [] and shown.messages == ["from beside"] and shown.best == 7

    def fails():
        raise ValueError("a chain failed")

    with pytest.raises(ValueError, match="a chain failed"):
        runner.beside(fails).join()


def test_a_thread_beside_a_stopped_session_never_dispatches_again(monkeypatch):
    # After Ctrl-C (or a time limit) stopped the workers, a thread beside that
    # session ends at its next dispatch, even once the runner has begun another
    # session (whose common arguments its tasks would otherwise get): here the
    # thread outlives the stop's wait for it
    monkeypatch.setattr(runner_module, "BESIDE_STOP_SECONDS", 0.0)
    runner = TaskRunner(2, "loky", None, Progress(), isolated=True)
    runner.prepare((10,))
    go = threading.Event()

    def work():
        go.wait(10)
        return runner.run(divmod, [(3,)])

    chain = runner.beside(work)
    runner._stop_workers()
    runner.prepare((20,))
    go.set()
    with pytest.raises(SessionHalted):
        chain.join()
    with runner.workers():
        assert runner.run(divmod, [(3,), (7,)]) == [(6, 2), (2, 6)]  # the new session


def _pid():
    return os.getpid()


@pytest.mark.slow
def test_the_pool_outlives_idleness_and_the_threads_beside_that_used_it():
    # A worker dies with the thread that started it (PR_SET_PDEATHSIG), and loky
    # starts a worker that left for idleness again in the thread that submits next:
    # with loky's default of 10 idle seconds, a thread beside that submitted after a
    # pause started the pool's workers anew and took them with it when it ended.
    # The pool's workers never leave for idleness.
    runner = TaskRunner(2, "loky", None, Progress(), isolated=True)
    runner.prepare(())
    with runner.workers():
        first = set(runner.run(_pid, [()] * 4))
        time.sleep(11)
        beside = runner.beside(lambda: set(runner.run(_pid, [()] * 4)))
        assert beside.join() <= first
        time.sleep(0.5)
        assert set(runner.run(_pid, [()] * 4)) <= first
