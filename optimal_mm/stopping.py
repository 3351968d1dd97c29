"""Ctrl-C, SIGTERM and time limits during a compiled kernel: stop it now, not when
it returns.

Python runs a signal's handler between two bytecodes of the main thread. A kernel
of the search (:mod:`optimal_mm._search`) is one call of machine code, and one call
can last hours (a first guess's big part under ``fewest-at-worst``), so Ctrl-C,
``kill`` and ``timeout`` would wait for it to return. The kernels therefore watch
for the signal themselves:

* CPython's own signal handler, which runs at once whatever the thread is doing,
  writes the signal's number as one byte to the *wakeup file descriptor*
  (:func:`signal.set_wakeup_fd`), then leaves the Python handler pending.
* :func:`run` points that descriptor, for the length of one kernel call, at a
  one-page file in memory (``memfd_create``) that is also mapped into this process's
  memory, and passes the kernel a
  ``stats`` array that lies on that page. The first byte the signal writes lands in
  its ``STOP`` slot (:data:`~optimal_mm._search_arrays.STOP`).
* The kernels read that slot at every node they expand and before each guess they
  try; once it holds SIGINT, SIGTERM or SIGALRM (the alarm of a :class:`time_limit`)
  they return at once and store nothing more in the transposition table
  (:func:`~optimal_mm._search_table._stopped`): what the table holds stays exact.
* Back in Python, the pending handler runs: the default SIGINT handler raises
  :class:`KeyboardInterrupt`, the command line's SIGTERM handler
  :class:`~optimal_mm.cli.Terminated`, a time limit's :class:`TimeLimitReached`
  (both kinds of KeyboardInterrupt), and the command stops as it would between two
  calls (a checkpoint keeps every task finished before). A handler that returns
  instead makes :func:`run` call the kernel again from the start, so the caller
  never sees the meaningless values of a stopped call; the table it left makes the
  second call shorter.

Only the main thread arms the page (the only one that may set the wakeup
descriptor, and the one that runs Python's handlers); elsewhere, and where the
platform has no such descriptor, kernels run as they are. The previous wakeup
descriptor (an asyncio loop's) is put back after each call. The slot has eight
bytes: the first eight signals of one call are seen, which is enough for any
signal a process handles in Python besides the stop signals.

SIGALRM is a stop signal so that a :class:`time_limit` reaches a kernel. A program
that embeds the search and takes *periodic* SIGALRMs with a handler that returns
would make every call longer than the period start over, again and again; such a
program should use another signal for its timer (SIGVTALRM, a real-time signal).
"""

from __future__ import annotations

import os
import signal
import threading

import numpy as np

from ._search_arrays import STATS, STOP, STOP_SIGNALS
from .errors import TimeLimitReached

__all__ = ["TimeLimitReached", "run", "stop_signal_in", "time_limit"]

#: Calls stopped by a signal whose handler returned, and so made again (this
#: process): what tells a test that a stop happened inside a kernel.
restarted = 0


class _Page:
    """The page a signal writes into and the kernels read: a file of one page in
    memory (``memfd_create``; a temporary file where there is none), mapped shared,
    whose first bytes are the ``stats`` array passed to the kernel. One per process
    (a forked child makes its own: the mapping is shared)."""

    def __init__(self):
        import mmap  # here, not at import: a command that runs no kernel never needs it

        self.pid = os.getpid()
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create("optimal_mm-stop", os.MFD_CLOEXEC)
        else:  # tempfile costs a command's start-up 10 ms of imports: only here
            import tempfile

            self._file = tempfile.TemporaryFile()
            self.fd = self._file.fileno()
        os.ftruncate(self.fd, mmap.PAGESIZE)
        os.set_blocking(self.fd, False)  # set_wakeup_fd insists; a file never blocks
        self._map = mmap.mmap(self.fd, mmap.PAGESIZE)
        self.stats = np.ndarray(STOP + 1, dtype=np.int64, buffer=self._map)


_page: _Page | None = None


def _armable_page() -> _Page | None:
    """This process's page, made on first use, or None where a signal cannot reach a
    kernel through it (not the main thread, no wakeup descriptor)."""
    global _page
    if (os.name != "posix" or not hasattr(signal, "set_wakeup_fd")
            or threading.current_thread() is not threading.main_thread()):
        return None
    if _page is None or _page.pid != os.getpid():
        _page = _Page()
    return _page


def stop_signal_in(word: int) -> bool:
    """Whether the ``STOP`` slot's value ``word`` holds a stop signal's number in one
    of its bytes (the kernels' own test, :func:`~optimal_mm._search_table._stopped`)."""
    return any((word >> (8 * k)) & 0xFF in STOP_SIGNALS for k in range(8))


def run(kernel_call, counters: np.ndarray):
    """``kernel_call(stats)``, stoppable by a stop signal (SIGINT, SIGTERM, SIGALRM),
    with ``stats`` holding ``counters`` (a :func:`~optimal_mm._search_arrays.new_stats`
    array, updated in place with what the kernel counted). Raises what the signal's
    handler raises; if the handler returns, the kernel is called again (see the
    module docstring)."""
    global restarted
    page = _armable_page()
    if page is None:
        return kernel_call(counters)
    n = len(STATS)
    stats = page.stats
    while True:
        stats[:n] = counters[:n]
        stats[STOP] = 0
        os.lseek(page.fd, STOP * stats.itemsize, os.SEEK_SET)
        try:
            previous = signal.set_wakeup_fd(page.fd, warn_on_full_buffer=False)
        except ValueError:  # not the main interpreter
            return kernel_call(counters)
        try:
            result = kernel_call(stats)
        finally:
            signal.set_wakeup_fd(previous)
            counters[:n] = stats[:n]
            word = int(stats[STOP])
            stats[STOP] = 0
        if not word or not stop_signal_in(word):  # (no signal: the common case, cheap)
            return result
        restarted += 1


class time_limit:
    """A time limit on a block of the main thread: once ``seconds`` have passed, the
    block stops as on Ctrl-C, with :class:`TimeLimitReached`.

    The operating system's interval timer (``setitimer(ITIMER_REAL)``) sends this
    process SIGALRM at the limit; no thread of ours has to run for it, which matters
    since a kernel holds the interpreter for the whole of a call. SIGALRM is one of
    the kernels' stop signals, so a call in progress returns at once (:func:`run`);
    its handler, installed for the block, raises :class:`TimeLimitReached`, which
    also interrupts a wait for worker processes, and the caller's clean-up runs as
    on Ctrl-C. Leaving the block cancels the timer and puts the previous handler
    back. One limit at a time (the process has one such timer); Ctrl-C inside the
    block is Ctrl-C as before.

    >>> import time
    >>> with time_limit(60):  # ends in time: nothing happens
    ...     pass
    >>> try:
    ...     with time_limit(0.05):
    ...         time.sleep(5)
    ... except TimeLimitReached as exc:
    ...     print(exc)
    time limit of 0.05 s reached
    """

    def __init__(self, seconds: float):
        if not 0 < seconds < float("inf"):  # nan too
            raise ValueError(f"a time limit must be a positive number of seconds, "
                             f"got {seconds}")
        self.seconds = seconds
        self.expired = False
        self._previous = None

    def __enter__(self):
        if not hasattr(signal, "setitimer"):
            raise OSError("a time limit needs an interval timer (setitimer), which this "
                          "platform lacks")
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("a time limit needs the main thread (it stops by a signal)")
        self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def _on_alarm(self, signum, frame):
        self.expired = True
        raise TimeLimitReached(self.seconds)

    def __exit__(self, *exc_info):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous)
        return False
