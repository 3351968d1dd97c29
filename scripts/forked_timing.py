"""Time one search call in a forked child with a time limit (for the task samplers).

The samplers (``sample_wc_tasks.py``, ``sample_exp_tasks.py``) estimate a long exact
search from some of its tasks. Each task runs in a child forked from a parent that
has built the answer table and loaded the compiled search once: the child shares
them copy-on-write, starts with the parent's (unused, hence empty) transposition
table, and is killed when it outlives its limit. So a task's figure does not
depend on the tasks timed before it: a cold-table figure, an upper bound on what a
warm worker needs. Both samplers also start alike (:func:`start_sampler`) and read
their counts and time limits alike (``optimal_mm.cli.at_least``, as every script
and command, and :func:`seconds`: refused by argparse, before any work).
"""

from __future__ import annotations

import multiprocessing
import os
import time


def _child(conn, run):
    start, cpu = time.perf_counter(), time.process_time()
    result, counters = run()
    conn.send((result, time.perf_counter() - start, time.process_time() - cpu,
               [int(c) for c in counters]))
    conn.close()


def _cpu_seconds(pid):
    """Processor time a running process has used so far (Linux's /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_forked(run, limit: float) -> dict:
    """``{finished, result, seconds, cpu_seconds, states, table_hits, guesses}`` of
    ``run()`` in a forked child, or ``{finished: False, seconds_at_least}`` after
    ``limit`` seconds of wall time, with ``cpu_seconds_at_least`` where the system
    says (Linux). On a loaded machine the processor time ``cpu_seconds`` is the
    figure to extrapolate from.

    ``run`` returns ``(result, counters)``: a picklable result and the search's
    counters spent on it (``optimal_mm._search_arrays.STATS``: states, table hits,
    guesses evaluated, entries stored, refuter cuts).

    >>> row = time_forked(lambda: (7, [1, 2, 3, 4]), 60)
    >>> row["finished"], row["result"], row["states"], row["guesses"]
    (True, 7, 1, 3)
    """
    parent, child = multiprocessing.Pipe(duplex=False)
    proc = multiprocessing.get_context("fork").Process(target=_child, args=(child, run))
    start = time.perf_counter()
    proc.start()
    child.close()
    try:
        if parent.poll(limit):
            result, seconds, cpu_seconds, counters = parent.recv()
            return {"finished": True, "result": result, "seconds": round(seconds, 3),
                    "cpu_seconds": round(cpu_seconds, 3),
                    "states": counters[0], "table_hits": counters[1],
                    "guesses": counters[2]}
        row = {"finished": False, "seconds_at_least": round(time.perf_counter() - start, 1)}
        cpu = _cpu_seconds(proc.pid)
        if cpu is not None:
            row["cpu_seconds_at_least"] = round(cpu, 1)
        return row
    finally:  # a child outlives neither its limit nor the script (SIGTERM included)
        proc.kill()
        proc.join()


def seconds(text: str) -> float:
    """An argparse ``type``: a time limit, a positive number of seconds
    (:func:`optimal_mm.errors.check_time_limit`)."""
    import argparse

    from optimal_mm.errors import OptimalMMError, check_time_limit

    try:
        value = float(text)
        check_time_limit(value, "a time limit")
    except (ValueError, OptimalMMError) as exc:
        raise argparse.ArgumentTypeError(str(exc) if isinstance(exc, OptimalMMError)
                                         else f"not a number: {text!r}") from None
    return value


def start_sampler(spec: str, script: str):
    """What both samplers do first: SIGTERM ends them with exit 143 (a forked child in
    flight is ended with them), and their game is read from ``spec``. Returns the
    :class:`~optimal_mm.Game`, or None after one line on standard error naming
    ``script`` (the caller then exits 2)."""
    import signal
    import sys
    from pathlib import Path

    from optimal_mm import Game
    from optimal_mm.errors import OptimalMMError

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return Game.from_spec(spec)
    except OptimalMMError as exc:
        print(f"{Path(script).name}: {exc}", file=sys.stderr)
        return None
