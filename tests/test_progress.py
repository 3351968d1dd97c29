"""Progress lines in a log (:mod:`optimal_mm.progress`): what a long run tells a person
reading its log, and that it does not bury them.

A chain's rivals are phases of a task or two, by the thousand: p5c6b's capped run
wrote 33 MB of their lines in 74 minutes, two lines a phase. A log now tells at most
``burst`` phases an interval; a long phase still tells its progress every interval.
"""

from __future__ import annotations

import doctest
import io
import time

from optimal_mm import Game, progress, search_parts, search_tasks
from optimal_mm.progress import LogProgress, Progress, QuietProgress, TeeProgress
from optimal_mm.search import Solver


def test_doctests():
    result = doctest.testmod(progress)
    assert result.attempted and not result.failed


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_phases_by_the_thousand_write_a_few_lines_an_interval():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=120, clock=clock, burst=20)
    for k in range(100_000):  # 2,000 s of phases of two 10-ms tasks
        log.phase(f"expected: rival {k}", total=2)
        for _ in range(2):
            clock.now += 0.01
            log.advance()
    lines = out.getvalue().splitlines()
    intervals = -(-2000 // 120)
    assert 20 * (intervals - 1) <= len(lines) <= 20 * intervals
    # Every phase told is told whole: its first line, then its last
    assert all(a.endswith("0/2 tasks") and b.endswith("phase done in 0:00:00")
               for a, b in zip(lines[::2], lines[1::2]))


def test_a_long_phase_after_a_burst_still_tells_its_progress():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=60, clock=clock, burst=2)
    for k in range(3):  # the third is not told
        log.phase(f"expected: rival {k}", total=1)
        log.advance()
    log.phase("expected: the long one", total=3)
    for _ in range(3):
        clock.now += 50
        log.advance()
    lines = out.getvalue().splitlines()
    assert [line.split("] ")[1] for line in lines] == [
        "expected: rival 0: 0/1 tasks", "expected: rival 0: 1/1 tasks, phase done in 0:00:00",
        "expected: the long one: 2/3 tasks, eta 0:00:50",
        "expected: the long one: 3/3 tasks, phase done in 0:02:30"]


def test_no_interval_tells_everything():
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=0, clock=clock, burst=1)
    for k in range(50):
        log.phase(f"expected: rival {k}", total=1)
        log.advance()
    assert len(out.getvalue().splitlines()) == 100


def test_a_tee_tells_each_display_and_a_prefix_names_the_search():
    out = io.StringIO()
    quiet = QuietProgress()
    tee = TeeProgress(quiet, LogProgress(out, interval=0, prefix="p3c4/any/expected "))
    tee.phase("expected: first guess 123 exact", total=1)
    tee.update(best=206)
    tee.advance()
    tee.message("first guess 123: total 206")
    tee.reset()
    assert quiet.so_far() == "" and tee.so_far() == ""
    assert all(line.startswith("p3c4/any/expected ") for line in out.getvalue().splitlines())
    assert "best 206" in out.getvalue()


def test_a_tick_redraws_a_bar_and_reaches_every_display_of_a_tee():
    # A terminal's bar shows its elapsed time afresh; a tee passes the tick on.
    from optimal_mm.progress import BarProgress

    out = io.StringIO()
    bar = BarProgress(out)
    bar.phase("expected: first guess 1123", total=2)
    drawn = len(out.getvalue())
    bar.tick()
    assert len(out.getvalue()) > drawn and "0/2" in out.getvalue()[drawn:]
    bar.close()
    log_out = io.StringIO()
    log = LogProgress(log_out, interval=0, clock=iter(range(100)).__next__)
    tee = TeeProgress(QuietProgress(), log)
    tee.phase("expected: first guess 1123", total=1)
    tee.tick()
    assert log_out.getvalue().splitlines()[-1].endswith("0/1 tasks, phase running 0:00:01")
    Progress().tick()  # the silent display: nothing to do


def test_phases_beside_are_told_once_the_logs_own_phase_has_ended():
    # p7c7n's expected run said nothing for 38 minutes after its first 7 seconds: its
    # own phase had ended (every task read back) and the work went on in chains
    # beside, whose phases a log does not show. Their ticks now tell, once an
    # interval, which of them are under way; a phase beside that has ended, or whose
    # thread stopped ticking, is not told; the log's own phase, while under way, is
    # told as before, not the phases beside.
    from optimal_mm.progress import PhasesHidden

    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=60, clock=clock)
    tee = TeeProgress(QuietProgress(), log)
    tee.phase("expected: its own", total=1)
    small, big, gone = (PhasesHidden(tee, clock=clock) for _ in range(3))
    small.phase("expected: rival 1 2, its 4 small parts", total=4)
    big.phase("expected: 300 secrets after 1 2", total=2)
    gone.phase("expected: a chain that stops ticking", total=1)

    def lines():
        return [x.split("] ", 1)[1] for x in out.getvalue().splitlines()]

    for _ in range(30):  # 150 s, own phase under way: its own lines only
        clock.now += 5
        for h in (small, big, gone):
            h.tick()
    assert lines() == ["expected: its own: 0/1 tasks"] + [
        f"expected: its own: 0/1 tasks, phase running 0:0{m}:00" for m in (1, 2)]
    tee.advance()
    for _ in range(12):  # 60 s more, its phase ended; "gone" ticks no more
        clock.now += 5
        for h in (small, big):
            h.tick()
    told = lines()[4:]
    assert told == ["beside it: expected: rival 1 2, its 4 small parts: 0/4 tasks, "
                    "phase running 0:03:30",
                    "beside it: expected: 300 secrets after 1 2: 0/2 tasks, "
                    "phase running 0:03:30"], lines()
    small.advance(4)
    big.advance()
    for _ in range(12):
        clock.now += 5
        big.tick()
    assert lines()[6:] == ["beside it: expected: 300 secrets after 1 2: 1/2 tasks, "
                           "phase running 0:04:30"], lines()
    quiet = QuietProgress()
    PhasesHidden(quiet).tick()  # a display with no log: nothing to do
    assert quiet.so_far() == ""


def test_a_bar_at_its_end_shows_the_phase_beside_it():
    # On a terminal, the bar of a phase that has ended names the phase beside that
    # ticks, after its values; while its own phase is under way, it stays its own.
    from optimal_mm.progress import BarProgress, PhasesHidden

    out = io.StringIO()
    bar = BarProgress(out)
    bar.update(best=33263, bound=29423)
    bar.phase("expected: its own", total=2)
    beside = PhasesHidden(bar)
    beside.phase("expected: rival 1 2 3, its 5 small parts", total=5)
    beside.tick()
    assert "beside it" not in out.getvalue()
    bar.advance(2)
    beside.advance(3)
    beside.tick()
    last = out.getvalue().split("\r")[-1]
    assert "best 33263, bound 29423; beside it: expected: rival 1 2 3, its 5 small " \
           "parts: 3/5 tasks" in last, last
    bar.close()


def test_a_thread_beside_the_search_tells_its_phase_in_the_log(monkeypatch):
    # The wiring: a thread started by TaskRunner.beside reports to a PhasesHidden of
    # the runner's display, whose ticks, while it waits on a worker's task, reach
    # the log.
    from optimal_mm import runner as runner_module
    from optimal_mm.runner import TaskRunner

    monkeypatch.setattr(runner_module, "TICK_SECONDS", 0.05)
    out = io.StringIO()
    log = LogProgress(out, interval=0.2)
    runner = TaskRunner(jobs=2, backend="loky", scheduler=None, progress=log,
                        isolated=True)
    runner.prepare(())
    with runner.workers():
        runner.run(divmod, [(7, 2)], "expected: its own")
        chain = runner.beside(lambda: runner.run(time.sleep, [(1.5,)],
                                                 "expected: a chain beside"))
        chain.join()
    beside = [x for x in out.getvalue().splitlines() if "] beside it: " in x]
    assert beside and all(x.endswith(" phase running " + x.rsplit(" ", 1)[1])
                          and ": expected: a chain beside: 0/1 tasks," in x
                          for x in beside), out.getvalue()


def test_tasks_read_back_during_a_phase_are_not_in_its_eta():
    # A race draws its rivals one by one and looks each up in the checkpoint as it
    # draws it: those read back are counted as they come, and the ETA is the time
    # per task computed, not per task done.
    out, clock = io.StringIO(), _Clock()
    log = LogProgress(out, interval=60, clock=clock)
    log.phase("expected: rivals of 2454", total=6)
    clock.now += 61
    log.advance(resumed=True)  # an interval gone, nothing computed: no eta at all
    log.advance(resumed=True)
    clock.now += 100
    log.advance()  # 161 s for the one task computed, 3 left
    lines = [line.split("] ")[1] for line in out.getvalue().splitlines()]
    assert lines == ["expected: rivals of 2454: 0/6 tasks",
                     "expected: rivals of 2454: 1/6 tasks (1 from checkpoint)",
                     "expected: rivals of 2454: 3/6 tasks (2 from checkpoint), eta 0:08:03"]


class _Advances(Progress):
    """Every phase and every task counted in it: ``(label, total, done at start)``
    and, per phase, the tasks computed and those read back."""

    def __init__(self):
        self.phases = []

    def phase(self, label, total, done=0):
        self.phases.append({"label": label, "total": total, "start": done,
                            "computed": 0, "resumed": 0})

    def advance(self, n=1, resumed=False):
        self.phases[-1]["resumed" if resumed else "computed"] += n


def _races(display: _Advances) -> list:
    """The phases of ``display`` that race rival second guesses."""
    return [p for p in display.phases if p["label"].startswith("expected: rivals of ")]


def test_a_race_resumed_from_its_checkpoint_counts_its_rivals_as_read_back(
        tmp_path, monkeypatch):
    # Mastermind's parts of 60 secrets or more race their rival second guesses as a
    # stream (p6c7n's races of hours read their first rivals back this way); run
    # again on the whole checkpoint, nothing is computed, and every rival is counted
    # read back, so a resumed race's ETA is not that of tasks that took no time.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    game = Game.from_spec("mastermind")
    first, again = _Advances(), _Advances()
    one = Solver(game, jobs=1, checkpoint=tmp_path, progress=first).expected()
    two = Solver(game, jobs=1, checkpoint=tmp_path, progress=again).expected()
    assert one.value == two.value == 5625
    assert len(_races(again)) == len(_races(first)) >= 5
    assert sum(p["computed"] for p in _races(first)) > 0
    for p in again.phases:
        assert p["computed"] == 0 and p["start"] + p["resumed"] <= p["total"], p
    assert sum(p["resumed"] for p in _races(again)) >= sum(p["computed"] for p in _races(first))


class _Messages(Progress):
    def __init__(self):
        self.lines = []

    def message(self, text):
        self.lines.append(text)


def test_each_rival_of_a_big_part_searched_as_a_chain_is_told_once_answered(tmp_path,
                                                                            monkeypatch):
    # p4c5nb's expected case with chains from 4 secrets: the rival second guesses of
    # the first guess's big parts (30 secrets or more) are chains, each under phases
    # of its own (hours each in p5c6b's fewest at 9, whose log never said which rival
    # it was on). The log tells each one's answer as it comes, once, with its time;
    # run again on the whole checkpoint, each is read back; the deeper chains' rivals
    # (thousands) are not told.
    from optimal_mm.checkpoint import read_entries

    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    first, again = _Messages(), _Messages()
    one = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path,
                 progress=first).expected()
    answers = {(task["args"][4], game.code_str(task["args"][1]))
               for _, task, _, timing in read_entries(tmp_path)
               if task["function"] == "_exp_guess_task" and len(task["args"][0]) == 1
               and timing is not None and timing.get("pieces")  # a rival's own answer,
               and not search_tasks.saved_small_parts(task["args"])}
    # not its small parts' (a chain's piece, found in pieces too)
    assert len(answers) >= 3

    def told(display, when):
        lines = [x for x in display.lines if ", a chain, " in x]
        guesses = [(int(x.split(" (")[1].split()[0]), x.split("): ")[1].split(",")[0])
                   for x in lines]  # (the part's secrets, the rival)
        assert len(guesses) == len(set(guesses)), lines
        assert all(x.startswith("expected: rivals of ") and f", {when}" in x
                   for x in lines), lines
        return set(guesses)

    assert told(first, "in 0:") == answers
    two = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path,
                 progress=again).expected()
    assert one.value == two.value
    assert told(again, "read back;") == answers
    leads = [x for x in first.lines if ", the best so far, " in x]
    assert leads and one.strategy is not None


def test_each_race_of_a_big_part_is_named_as_it_begins(monkeypatch):
    # The rivals of a big part run for an hour or more before the first one's answer
    # is told (p6c7n's race of 1,590 secrets after 123456 was first named 32 minutes in);
    # the log names each such race as it begins, with the rivals it has to draw, and
    # every answer it tells comes after that line, from no more rivals than it said.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    log = _Messages()
    Solver(Game.from_spec("p4c5nb"), jobs=1, chain_secrets=4, progress=log).expected()
    starts = {}
    for i, x in enumerate(log.lines):
        if ": the race begins; " in x:
            race, rest = x.split(": the race begins; ")
            assert race not in starts, log.lines  # one race a big part
            count = 0 if rest.startswith("no rival ") else int(rest.split()[0])
            starts[race] = (i, count)
    assert starts, log.lines
    answered = {}
    for i, x in enumerate(log.lines):
        if ", a chain, " in x:
            race = x[:x.index("): ") + 1]  # "expected: rivals of G (N secrets after H)"
            assert race in starts and starts[race][0] < i, (race, log.lines)
            answered[race] = answered.get(race, 0) + 1
    assert answered, log.lines
    assert all(n <= starts[race][1] for race, n in answered.items()), (answered, starts)
