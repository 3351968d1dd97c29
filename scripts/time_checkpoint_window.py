"""Run the part tasks a checkpoint saved in a window of time again, in one table, in
two as two workers held them, or in a fresh table each: what a table that earlier
tasks filled is worth.

A long run's workers keep their transposition tables from task to task (a steady
pool, :mod:`optimal_mm.runner`), each its own, and a run starts with them empty. A
table shared by the workers, or kept from one run to the next, would pay only if a
task gains much from the states that tasks before it stored. This script measures
that on the tasks a run really did: it takes every ``_exp_part_task`` and
``_exp_batch_task`` entry of a checkpoint that ended between ``--from`` and ``--to``
(UTC, as the entries record it), rebuilt as :mod:`time_checkpoint_task` rebuilds
one, and runs them in the order they started (their end less their wall seconds)
three ways, each answer checked against the saved one:

* ``one``: all in one table, as a single worker would;
* ``two``: in two tables, each task in the one whose last task ended first, as the
  run's two workers took them (from the entries' start and end times);
* ``fresh``: each in an empty table of its own.

It prints the processor seconds and the states each way took, beside the tasks'
own processor time in their run (whose tables held that run's tasks from before the
window, and which shared the machine with whatever else ran then):

    python scripts/time_checkpoint_window.py results/checkpoints/p7c7n-expected \\
        --from 2026-12-07T08:17:27 --to 2026-12-07T08:20:03

Measured so on the 2-core AMD EPYC VM, beside a table run on the other core
(2026-12-07): 30 tasks of p7c7n's expected case (batches of parts of 246 to 248
secrets, and small parts of 104 to 132), 277.4 s of processor time in their run;
one table 255.6 s (3,483,907 states), two 261.9 s (3,646,432), fresh 281.6 s
(3,874,827). The filled table saved a tenth of the states and 9 % of the time, and
two tables lost 2.5 % against one. One heavy task can gain far more: a 246-secret
part (``task-85a583b3``) searched 249,866 states in its run and 2,593,258 in a
fresh table (``time_checkpoint_task.py``, 262 s), so a window of the heavy parts
would be the next measure; it costs hours.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from optimal_mm import search_context  # noqa: E402
from optimal_mm.checkpoint import read_entry  # noqa: E402
from optimal_mm.cli import at_least  # noqa: E402
from optimal_mm.errors import InvalidOptionError, OptimalMMError  # noqa: E402
from time_checkpoint_task import TASKS, Rebuilt, same_answer  # noqa: E402

#: The ways the window's tasks are run again, in the order they are printed.
MODES = ("one", "two", "fresh")


def utc_time(text: str) -> datetime:
    """A time as the entries record it, ``YYYY-MM-DDTHH:MM[:SS][Z]``, read as UTC.

    >>> utc_time("2026-12-07T08:17:27Z") == utc_time("2026-12-07T08:17:27")
    True
    >>> utc_time("2026-12-07T08:17").second
    0
    """
    try:
        moment = datetime.fromisoformat(text.removesuffix("Z"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a time such as 2026-12-07T08:17:27") from None
    if moment.tzinfo is not None:
        return moment.astimezone(timezone.utc)
    return moment.replace(tzinfo=timezone.utc)


def modes(text: str) -> list[str]:
    """The comma-separated ``text`` as a list of :data:`MODES`.

    >>> modes("fresh,one")
    ['fresh', 'one']
    """
    chosen = [m.strip() for m in text.split(",") if m.strip()]
    wrong = [m for m in chosen if m not in MODES]
    if wrong or not chosen:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the ways are {', '.join(MODES)}, separated by commas")
    return chosen


class WindowTask:
    """One entry of the window: its :class:`Rebuilt` task, its saved answer, and when
    it started and ended in its run (UTC) with its processor seconds there."""

    def __init__(self, name: str, entry: dict, task: Rebuilt):
        timing = entry["timing"]
        self.name, self.task, self.saved = name, task, entry["result"][0]
        self.ended = utc_time(timing["finished"])
        self.started = self.ended - timedelta(seconds=float(timing["seconds"]))
        self.cpu_seconds = float(timing["cpu_seconds"])


def window_entries(directory: Path, start: datetime, end: datetime) -> list:
    """``(file name, entry)`` of every timed part task of ``directory`` (of
    :data:`TASKS`, not a chain's record of its pieces) that ended from ``start`` to
    ``end``."""
    found = []
    for path in sorted(directory.glob("task-*.json")):
        entry = read_entry(path)
        if entry is None or entry["task"]["function"] not in TASKS:
            continue
        timing = entry["timing"] or {}
        if timing.get("pieces") or timing.get("cpu_seconds") is None:
            continue
        try:
            ended = utc_time(str(timing.get("finished")))
        except argparse.ArgumentTypeError:  # no end recorded: not in any window
            continue
        if start <= ended <= end:
            found.append((path.name, entry))
    return found


def two_workers(tasks) -> list[int]:
    """For ``tasks`` in the order they started, the worker (0 or 1) each ran on as two
    workers would take them: the one whose last task ended first.

    >>> class T:
    ...     def __init__(self, s, e): self.started, self.ended = s, e
    >>> two_workers([T(0, 10), T(1, 3), T(4, 6), T(7, 12)])
    [0, 1, 1, 1]
    """
    free, out = [None, None], []
    for t in tasks:
        w = min((0, 1), key=lambda k: (free[k] is not None, free[k] or 0))
        out.append(w)
        free[w] = t.ended
    return out


def run_window(tasks, mode: str) -> tuple[float, int]:
    """Processor seconds and states of ``tasks`` (in order) run again the way
    ``mode`` says; each answer is checked against the entry's."""
    tables = [search_context.ContextsApart(), search_context.ContextsApart()]
    workers = two_workers(tasks) if mode == "two" else [0] * len(tasks)
    seconds, states = 0.0, 0
    for t, w in zip(tasks, workers):
        with tables[w] if mode != "fresh" else search_context.ContextsApart():
            start = time.process_time()
            value, _, counters = t.task.run()
            seconds += time.process_time() - start
        if not same_answer(value, t.saved, t.task.budget):
            raise OptimalMMError(f"{t.name} answered {value} ({mode}), the entry {t.saved}")
        states += int(counters[0])
    return seconds, states


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="a checkpoint directory")
    parser.add_argument("--from", dest="start", type=utc_time, required=True,
                        metavar="TIME", help="the first end time to take (UTC)")
    parser.add_argument("--to", dest="end", type=utc_time, required=True,
                        metavar="TIME", help="the last end time to take (UTC)")
    parser.add_argument("--ways", type=modes, default=list(MODES),
                        help="which of one, two, fresh (default all, in that order)")
    parser.add_argument("--table-entries", type=at_least(1 << 10), default=64_000_000,
                        help="each table's entries (default 64,000,000, as the table "
                             "runs give their workers)")
    args = parser.parse_args(argv)
    directory = Path(args.directory)
    if not args.directory or not directory.is_dir():  # ('' would be this folder)
        raise InvalidOptionError(f"checkpoint {args.directory!r} is not a directory")
    if args.end < args.start:
        raise InvalidOptionError("--to is before --from")
    found = window_entries(directory, args.start, args.end)
    span = f"from {args.start:%Y-%m-%d %H:%M:%S} to {args.end:%Y-%m-%d %H:%M:%S} UTC"
    if not found:
        raise OptimalMMError(f"no part task of {directory} ended {span}")
    cuts: dict = {}
    games: dict = {}  # one game, one answer table, for the window's tasks
    tasks = sorted((WindowTask(name, entry, Rebuilt.of(entry, args.table_entries, cuts,
                                                       games))
                    for name, entry in found), key=lambda t: (t.started, t.name))
    game = found[0][1]["run"]["game"]
    print(f"{game}: {len(tasks)} part tasks ended {span}, "
          f"{sum(t.cpu_seconds for t in tasks):.1f} s of processor time in their run")
    for mode in args.ways:
        seconds, states = run_window(tasks, mode)
        print(f"{mode}: {seconds:.1f} s of processor time, {states:,} states", flush=True)
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("time_checkpoint_window.py", main))
