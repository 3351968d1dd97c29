"""Progress of a long search, told to a person watching it.

The search (:mod:`optimal_mm.search`) runs in *phases* (one first guess solved
exactly, its rivals searched against it, one first guess tried at one worst-case
depth), each a batch of top-level tasks. It tells a :class:`Progress` four things: a
phase starts with so many tasks (some perhaps already in the checkpoint), a task is
done, the best value and the proven bound have changed, and a one-line message (and,
by :meth:`Progress.reset`, that another objective starts: forget the values). While
it waits on a long task it also *ticks* (:meth:`Progress.tick`): nothing happened, but
time passed. How that is shown depends on where it goes:

* on a terminal, :class:`BarProgress` draws a tqdm bar per phase: tasks done of
  total, elapsed and ETA, with the best value and bound after it;
* in a log file or a pipe, :class:`LogProgress` writes a line when a phase starts,
  then at most one line every ``interval`` seconds (one at least, while the phase
  goes on: a tick writes one when the last is that old), and one when it ends; phases
  that come by the thousand (a chain's rivals) are told a few an interval, so that
  they do not flood the log;
* with ``--quiet``, :class:`QuietProgress` says nothing;
* :class:`TeeProgress` tells several displays at once (a log beside a display that
  records the values for a program).

Every display but the base class keeps the last best value and bound
(:meth:`so_far`), which the command line prints when a search is interrupted: what
had been proven by then.

:func:`make_progress` picks one. The ETA counts only tasks computed in this run (not
those read back from a checkpoint), so that a resumed run does not promise too much.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> p = LogProgress(out, interval=0, clock=iter(range(100)).__next__)
>>> p.phase("expected: first guess 1123", total=2)
>>> p.update(bound=5510)
>>> p.advance()
>>> p.advance()
>>> print(out.getvalue(), end="")
[0:00:01] expected: first guess 1123: 0/2 tasks
[0:00:02] expected: first guess 1123: 1/2 tasks, bound 5510, eta 0:00:01
[0:00:03] expected: first guess 1123: 2/2 tasks, bound 5510, phase done in 0:00:02

A phase whose task takes hours still says so every ``interval`` seconds, by the ticks
of the process that waits for it (here one tick in three is due):

>>> out = io.StringIO()
>>> p = LogProgress(out, interval=60, clock=iter(range(0, 1000, 50)).__next__)
>>> p.phase("expected: rival 123456 132567, its 9 small parts", total=1)
>>> for _ in range(3):
...     p.tick()
>>> p.advance()
>>> print(out.getvalue(), end="")
[0:00:50] expected: rival 123456 132567, its 9 small parts: 0/1 tasks
[0:02:30] expected: rival 123456 132567, its 9 small parts: 0/1 tasks, phase running 0:01:40
[0:04:10] expected: rival 123456 132567, its 9 small parts: 1/1 tasks, phase done in 0:03:20

Phases that come faster than ``burst`` lines an interval are not told one by one:

>>> out = io.StringIO()
>>> p = LogProgress(out, interval=10, clock=iter(range(0, 100, 2)).__next__, burst=2)
>>> for k in range(8):
...     p.phase(f"expected: rival {k}", total=1)
...     p.advance()
>>> print(out.getvalue(), end="")
[0:00:02] expected: rival 0: 0/1 tasks
[0:00:04] expected: rival 0: 1/1 tasks, phase done in 0:00:02
[0:00:14] expected: rival 3: 0/1 tasks
[0:00:16] expected: rival 3: 1/1 tasks, phase done in 0:00:02
[0:00:26] expected: rival 6: 0/1 tasks
[0:00:28] expected: rival 6: 1/1 tasks, phase done in 0:00:02

Work in threads beside the search's own (a race's chains) keeps its phases off the
log (:class:`PhasesHidden`); once the log's own phase has ended, their ticks say,
once an interval, which of them are under way:

>>> out = io.StringIO()
>>> clock = iter(range(0, 1000, 30)).__next__
>>> p = LogProgress(out, interval=60, clock=clock)
>>> p.phase("expected: the parts after 1234567 1235476", total=6, done=6)
>>> beside = PhasesHidden(p, clock=clock)
>>> beside.phase("expected: rival 1234567 1235476 1452367, its 9 small parts", total=9)
>>> for _ in range(4):
...     beside.tick()
>>> beside.advance(9)
>>> for _ in range(4):
...     beside.tick()
>>> print(out.getvalue(), end="")
[0:00:30] expected: the parts after 1234567 1235476: 6/6 tasks (6 from checkpoint)
[0:02:00] beside it: expected: rival 1234567 1235476 1452367, its 9 small parts: \
0/9 tasks, phase running 0:00:30
[0:03:00] beside it: expected: rival 1234567 1235476 1452367, its 9 small parts: \
0/9 tasks, phase running 0:01:30
"""

from __future__ import annotations

import collections
import sys
import threading
import time


def _clock_text(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """Silent progress: the interface, every method a no-op (``--quiet``)."""

    #: How often, in seconds, this display wants a long wait told again (a race
    #: waiting for a slot while its chains run beside, their phases hidden:
    #: :mod:`optimal_mm.search_races`); None: told once. A display that writes lines
    #: every so many seconds (:class:`LogProgress`) says its own.
    interval: float | None = None

    #: Whether :meth:`tick` changes what this display shows (a log's line every
    #: interval, a bar's clock). A compiled call holds the interpreter, so only a
    #: process that waits on a worker ticks while one task takes hours: a one-job
    #: run with a checkpoint and such a display computes in a worker of its own,
    #: one with a silent display in this process (:class:`~optimal_mm.search.Solver`).
    tells_time: bool = False

    def phase(self, label: str, total: int, done: int = 0) -> None:
        """A phase of ``total`` tasks starts, ``done`` of them already known (resumed)."""

    def advance(self, n: int = 1, resumed: bool = False) -> None:
        """``n`` more tasks of the phase are done; ``resumed``: read back from the
        checkpoint, not computed (a race looks its rivals up one by one as it draws
        them, so they cannot be counted when the phase starts)."""

    def update(self, best=None, bound=None) -> None:
        """The best value found so far and the proven bound (``None``: unchanged)."""

    def reset(self) -> None:
        """Forget the best value and bound: another objective starts (the expected
        search that follows the worst case in ``worst-then-expected``)."""

    def message(self, text: str) -> None:
        """A one-line remark (a first guess solved, a depth refuted)."""

    def tick(self) -> None:
        """Nothing happened, but time passed: the caller is waiting on tasks that
        are still running (:class:`~optimal_mm.runner.TaskRunner` ticks every few
        seconds of such a wait). A display that tells time may say that the phase
        goes on; one task of a big part can take hours, and a log that said nothing
        for them looked like a run that had hung."""

    def tick_hidden(self, hidden: "PhasesHidden") -> None:
        """A tick from a thread beside the search's own, waiting in ``hidden``'s
        phase (:class:`PhasesHidden`). Here, as :meth:`tick`; a log says which
        phases beside are running when its own has ended (:class:`LogProgress`)."""
        self.tick()

    def so_far(self) -> str:
        """The best value and bound last reported, as text (none kept here: ``""``)."""
        return ""

    def close(self) -> None:
        """The search is over (or interrupted): finish the display."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class PhasesHidden(Progress):
    """``shown``'s messages, best and bound, without phases: the display of work in
    a thread beside the search's own (:meth:`optimal_mm.runner.TaskRunner.beside`),
    whose phases would take the place of the one on show, with counts of another
    batch's tasks.

    It keeps its own phase's counts, and hands its ticks to ``shown``
    (:meth:`Progress.tick_hidden`): a log whose own phase has ended says, once an
    interval, which phases beside it are still running. Without that, p7c7n's
    expected run said nothing after its first 7 seconds for 38 minutes, its work all
    in chains beside.
    """

    def __init__(self, shown: Progress, clock=time.monotonic):
        self.shown = shown
        self.clock = clock
        self.label, self.total, self.done, self.phase_start = "", 0, 0, clock()

    @property
    def interval(self) -> float | None:
        """The shown display's (:attr:`Progress.interval`)."""
        return self.shown.interval

    @property
    def tells_time(self) -> bool:
        """The shown display's (:attr:`Progress.tells_time`)."""
        return self.shown.tells_time

    @property
    def running(self) -> bool:
        """Whether this display's phase is under way (begun, not every task done)."""
        return self.done < self.total

    def phase(self, label, total, done=0) -> None:
        self.label, self.total, self.done = label, int(total), int(done)
        self.phase_start = self.clock()

    def advance(self, n=1, resumed=False) -> None:
        self.done += n

    def tick(self) -> None:
        self.shown.tick_hidden(self)

    def tick_hidden(self, hidden) -> None:
        self.shown.tick_hidden(hidden)

    def update(self, best=None, bound=None) -> None:
        self.shown.update(best=best, bound=bound)

    def message(self, text: str) -> None:
        self.shown.message(text)

    def so_far(self) -> str:
        return self.shown.so_far()


class CallbackProgress(Progress):
    """Forward messages to ``callback(text)`` and ignore the rest."""

    def __init__(self, callback):
        self.callback = callback

    def message(self, text: str) -> None:
        self.callback(text)


class _Counting(Progress):
    """Shared book-keeping: the current phase, tasks done, best and bound."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.start = clock()
        self.label, self.total, self.done, self.resumed = "", 0, 0, 0
        self.phase_start = self.start
        self.best = self.bound = None

    def phase(self, label, total, done=0):
        self.label, self.total, self.done, self.resumed = label, int(total), int(done), int(done)
        self.phase_start = self.clock()

    def advance(self, n=1, resumed=False):
        self.done += n
        if resumed:
            self.resumed += n

    def update(self, best=None, bound=None):
        if best is not None:
            self.best = best
        if bound is not None:
            self.bound = bound

    def reset(self):
        self.best = self.bound = None

    def so_far(self) -> str:
        """The best value and the bound last reported (``"best 2961, bound 7885"``;
        ``""`` before any)."""
        return self._values()

    def _values(self) -> str:
        parts = []
        if self.best is not None:
            parts.append(f"best {self.best}")
        if self.bound is not None:
            parts.append(f"bound {self.bound}")
        return ", ".join(parts)


class QuietProgress(_Counting):
    """Says nothing (``--quiet``), but keeps the best value and bound (:meth:`so_far`)."""


class LogProgress(_Counting):
    """Periodic log lines, for a stream that is not a terminal.

    Parameters
    ----------
    stream : file
        Where the lines go (``sys.stderr`` by the command line).
    interval : float
        Least number of seconds between two progress lines of one phase (its first
        and last lines are written, unless the phases come too fast: ``burst``).
    burst : int
        At most this many lines of phases in any ``interval`` seconds: past it, a
        phase's first line is left out, and its last with it, until fewer lines
        were written in the last ``interval`` (its progress lines still come, every
        ``interval``). Thousands of short phases (a chain's rivals, each a phase of
        a task or two) thus write ``burst`` lines an interval, not two lines each:
        p5c6b's capped run had written 33 MB of them in 74 minutes. Messages are
        always written.
    clock : callable
        Seconds, monotonic (tests pass a fake).
    prefix : str
        Put before every line: which search it is, where several share a log (the
        optimal table's entries, each in its own process).
    """

    tells_time = True  # a line every interval, on the ticks of a long task

    def __init__(self, stream=None, interval: float = 30.0, clock=time.monotonic,
                 prefix: str = "", burst: int = 20):
        super().__init__(clock)
        self.stream = stream if stream is not None else sys.stderr
        self.interval = float(interval)
        self.prefix = prefix
        self.burst = int(burst)
        self.last = None  # when this phase's last line was written
        self.recent = collections.deque()  # when the lines of the last interval were
        self.shown = False  # whether this phase's first line was written
        # The phases beside (PhasesHidden) that ticked, by id: (display, last tick)
        self.hidden, self._hidden_lock = {}, threading.Lock()

    def _write(self, text: str) -> None:
        print(f"{self.prefix}{text}", file=self.stream, flush=True)

    def _line(self, now: float, tail: str = "") -> None:
        parts = [f"{self.done}/{self.total} tasks"]
        if self.resumed:
            parts[0] += f" ({self.resumed} from checkpoint)"
        if self._values():
            parts.append(self._values())
        if tail:
            parts.append(tail)
        self._write(f"[{_clock_text(now - self.start)}] {self.label}: {', '.join(parts)}")
        self.last = now
        self.recent.append(now)

    def _room(self, now: float) -> bool:
        """Whether fewer than ``burst`` lines were written in the last interval."""
        while self.recent and now - self.recent[0] >= self.interval:
            self.recent.popleft()
        return len(self.recent) < self.burst

    def phase(self, label, total, done=0):
        super().phase(label, total, done)
        self.last = None
        self.shown = self._room(self.phase_start)
        if self.shown:
            self._line(self.phase_start)

    def advance(self, n=1, resumed=False):
        super().advance(n, resumed)
        now = self.clock()
        if self.done >= self.total:
            if self.shown:
                self._line(now, f"phase done in {_clock_text(now - self.phase_start)}")
        elif self._due(now):
            self._progress_line(now)

    def tick(self):
        now = self.clock()
        if self.done < self.total and self._due(now):
            self._progress_line(now, f"phase running {_clock_text(now - self.phase_start)}")

    def tick_hidden(self, hidden):
        """A thread beside waits in ``hidden``'s phase: with this display's own phase
        under way, a tick of it (:meth:`tick`); with it ended, once an ``interval``
        has passed since the last line, a line for each phase beside that is under
        way and ticked within the last interval (a thread that has gone stops
        ticking), labelled "beside it"."""
        if self.done < self.total:
            self.tick()
            return
        now = self.clock()
        with self._hidden_lock:
            self.hidden[id(hidden)] = (hidden, now)
            if not self._due(now):
                return
            self.hidden = {key: (h, at) for key, (h, at) in self.hidden.items()
                           if h.running and now - at < self.interval}
            shown = [h for h, _ in self.hidden.values()]
            self.last = now  # (also when every phase beside has just ended)
        for h in shown:
            self._write(f"[{_clock_text(now - self.start)}] beside it: {h.label}: "
                        f"{h.done}/{h.total} tasks, phase running "
                        f"{_clock_text(now - h.phase_start)}")
            self.recent.append(now)

    def _due(self, now: float) -> bool:
        """Whether this phase's last line (or its start) is ``interval`` seconds old."""
        return now - (self.phase_start if self.last is None else self.last) >= self.interval

    def _progress_line(self, now: float, tail: str = "") -> None:
        """A line of a phase under way: its counts, values, and an ETA once a task
        has been computed (tasks read back give no time per task to go by)."""
        computed = self.done - self.resumed
        if computed:
            eta = (now - self.phase_start) / computed * (self.total - self.done)
            tail = ", ".join(filter(None, (f"eta {_clock_text(eta)}", tail)))
        self.shown = True
        self._line(now, tail)

    def message(self, text):
        self._write(f"  {text}")


class TeeProgress(Progress):
    """Tell every one of ``displays`` everything: a log for people beside a
    display that records the values for a program (the optimal table keeps a
    timed-out entry's bounds). :meth:`so_far` is the first display's that keeps one.

    >>> import io
    >>> out = io.StringIO()
    >>> tee = TeeProgress(QuietProgress(), LogProgress(out, clock=lambda: 0, prefix="p3c4 "))
    >>> tee.phase("expected: first guess 123", total=1)
    >>> tee.update(best=206, bound=200)
    >>> tee.message("first guess 123: 206")
    >>> print(out.getvalue(), end="")
    p3c4 [0:00:00] expected: first guess 123: 0/1 tasks
    p3c4   first guess 123: 206
    >>> tee.so_far()
    'best 206, bound 200'
    """

    def __init__(self, *displays: Progress):
        self.displays = displays

    @property
    def interval(self) -> float | None:
        """The least of its displays' (:attr:`Progress.interval`), None if none has
        one: the optimal table's log, a :class:`LogProgress` teed with the display
        that keeps the bounds, retells a race's long wait as often as the log alone
        would (it told it once, then nothing for an hour, before).

        >>> TeeProgress(QuietProgress(), LogProgress(interval=120)).interval
        120.0
        >>> TeeProgress(QuietProgress()).interval is None
        True
        """
        intervals = [d.interval for d in self.displays if d.interval is not None]
        return min(intervals, default=None)

    @property
    def tells_time(self) -> bool:
        """Whether any of its displays does (:attr:`Progress.tells_time`)."""
        return any(d.tells_time for d in self.displays)

    def phase(self, label, total, done=0):
        for display in self.displays:
            display.phase(label, total, done)

    def advance(self, n=1, resumed=False):
        for display in self.displays:
            display.advance(n, resumed)

    def update(self, best=None, bound=None):
        for display in self.displays:
            display.update(best, bound)

    def reset(self):
        for display in self.displays:
            display.reset()

    def message(self, text):
        for display in self.displays:
            display.message(text)

    def tick(self):
        for display in self.displays:
            display.tick()

    def tick_hidden(self, hidden):
        for display in self.displays:
            display.tick_hidden(hidden)

    def so_far(self) -> str:
        return next((text for text in (d.so_far() for d in self.displays) if text), "")

    def close(self):
        for display in self.displays:
            display.close()


class BarProgress(_Counting):
    """A tqdm bar per phase on a terminal; messages are printed above it."""

    tells_time = True  # its clock, on each tick

    def __init__(self, stream=None):
        super().__init__()
        self.stream = stream if stream is not None else sys.stderr
        self.bar = None

    def _close_bar(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def phase(self, label, total, done=0):
        from tqdm import tqdm

        super().phase(label, total, done)
        self._close_bar()
        self.bar = tqdm(total=self.total, initial=self.done, desc=label, unit="task",
                        file=self.stream, dynamic_ncols=True, leave=True)
        self._postfix()

    def _postfix(self) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(self._values(), refresh=True)

    def advance(self, n=1, resumed=False):
        super().advance(n, resumed)
        if self.bar is not None:
            self.bar.update(n)

    def update(self, best=None, bound=None):
        super().update(best, bound)
        self._postfix()

    def reset(self):
        # Another objective starts: the last bar belongs to the one that ended.
        super().reset()
        self._close_bar()

    def message(self, text):
        from tqdm import tqdm

        tqdm.write(f"  {text}", file=self.stream)

    def tick(self):
        if self.bar is not None:  # its elapsed time goes on
            self.bar.refresh()

    def tick_hidden(self, hidden):
        """With this bar's phase ended, the phase beside that ticked (``hidden``)
        after its values, so that a bar at its end does not stand still while
        chains run beside it; with it under way, as :meth:`tick`."""
        if self.bar is not None and self.done >= self.total and hidden.running:
            beside = f"beside it: {hidden.label}: {hidden.done}/{hidden.total} tasks"
            self.bar.set_postfix_str("; ".join(filter(None, (self._values(), beside))),
                                     refresh=True)
        else:
            self.tick()

    def close(self):
        self._close_bar()


def make_progress(quiet: bool = False, stream=None, interval: float = 30.0) -> Progress:
    """The progress display that suits ``stream``: bar, log lines, or nothing.

    >>> import io
    >>> type(make_progress(stream=io.StringIO())).__name__
    'LogProgress'
    >>> type(make_progress(quiet=True)).__name__
    'QuietProgress'
    """
    if quiet:
        return QuietProgress()
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        return BarProgress(stream)
    return LogProgress(stream, interval)
