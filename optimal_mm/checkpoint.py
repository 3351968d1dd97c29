"""Checkpoints: the finished top-level tasks of a long search, kept on disk.

An exact search is split into *tasks* (:mod:`optimal_mm.search`), each a call of a
module-level function on plain arguments whose result (a value, a subtree, counters)
depends on nothing else. A :class:`Checkpoint` stores each result as soon as it is
known, in its own file, so that a search killed at any moment (Ctrl-C, ``kill -9``,
a power cut) can be rerun with the same command and skip every task it has already
finished. Because the results are exact and deterministic, a resumed search gives
the same value and the same tree as an uninterrupted one.

What an entry is
    One JSON file per task, named after a hash of the *run key* and the *task key*:

    * the run key says which search this is: game (spec and alphabet), objective,
      guess rule, cap, symmetry reduction and the version of what a task computes
      (:data:`optimal_mm.search.TASK_FORMAT`);
    * the task key says which task: the task function's name and its arguments,
      with every array of secrets replaced by its dtype, shape and SHA-256.

    The file holds both keys, the result and a SHA-256 checksum of the three (and of
    the task's *timing*, where the run recorded one: its wall and processor seconds
    and when it finished, which says how long the tasks still to come may take:
    :mod:`optimal_mm.checkpoint_report`; for an answer computed in pieces, their
    processor seconds in all: :func:`task_timing`). Several runs may share a directory: their
    entries have different names.

Why nothing is trusted
    :meth:`Checkpoint.get` re-reads the keys from the file and compares them with the
    ones expected, and recomputes the checksum. A truncated or edited file, an entry
    copied from another game or objective, or one written by a search of another
    task format is reported as missing (``None``), so the task is computed again and
    the entry rewritten. Entries are written with
    :func:`~optimal_mm.tree.atomic_write_bytes` (a temporary file renamed into
    place), so a kill leaves either the old state or the complete new entry, never
    half of one.

Results under another value
    Some tasks take a *budget* and answer relative to it (a rival guess's total if it
    is below the budget, else "not better"). The budget of a rival depends on the
    rivals searched before it in the same round, hence on the number of jobs, so a
    run resumed with other ``--jobs`` asks for tasks that differ only in their
    budget. Such a task function names its budget argument and a rule that turns a
    result under one budget into the result under another, when it can
    (``fn.checkpoint_reuse = (index, adapt)``); :meth:`Checkpoint.reuse` finds the
    entries of the same task under any budget and applies the rule. An exact total
    below both budgets, or "not better" under a budget at least as high, carries
    over; anything else is computed again. The worst-case tasks use the same
    mechanism for their tree rule (``want_tree``): a refutation, which has no tree,
    answers the task under either rule.

Examples
--------
>>> import tempfile, numpy as np
>>> folder = tempfile.mkdtemp()
>>> cp = Checkpoint(folder, {"game": "p2c3", "objective": "expected"})
>>> key = task_key("_exp_part_task", (5, np.arange(3), 10))
>>> cp.get(key) is None
True
>>> cp.put(key, (7, (0, {1: (2, {})}), np.zeros(4, dtype=np.int64)))
>>> cp.get(key)
(7, (0, {1: (2, {})}), array([0, 0, 0, 0]))
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from pathlib import Path

import numpy as np

from .errors import InvalidOptionError, OptimalMMError
from .outputs import atomic_write_bytes, check_output_path

#: Written into every entry; an entry with another format is recomputed.
FORMAT = "optimal_mm-checkpoint/1"


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------
_NOT_SCALAR = object()


def _plain_scalar(value):
    """A bool, number, string or None (numpy's too) as plain JSON data, else a sentinel.

    >>> _plain_scalar(np.int64(3)), _plain_scalar(np.bool_(True)), _plain_scalar([1]) is _NOT_SCALAR
    (3, True, True)
    """
    if isinstance(value, (bool, np.bool_)):  # before int: bool is an int
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if value is None or isinstance(value, str):
        return value
    return _NOT_SCALAR


# dtype -> its name: ``str(dtype)`` runs numpy's Python code on every call.
_DTYPE_NAMES: dict = {}


def _dtype_name(dtype) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


def _canonical(value):
    """A JSON-ready description of a task argument; arrays become their hash.

    Plain ints, strings, lists and tuples, most of a key, are recognised by their
    exact type first: a key is made for every task looked up or saved, and the
    general checks took a tenth of a capped Mastermind run with a checkpoint
    (cProfile, 2026-12-07)."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if kind is list or kind is tuple:
        return [_canonical(v) for v in value]
    if kind is np.ndarray:
        data = np.ascontiguousarray(value)
        return {"array": hashlib.sha256(data.tobytes()).hexdigest(),
                "dtype": _dtype_name(data.dtype), "shape": list(data.shape)}
    scalar = _plain_scalar(value)
    if scalar is not _NOT_SCALAR:
        return scalar
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    raise TypeError(f"cannot key a task argument of type {type(value).__name__}")


def task_key(function_name: str, args) -> dict:
    """The key of one task: its function's name and its arguments, arrays hashed.

    >>> task_key("_wc_part_task", (17, np.array([1, 2], dtype=np.int64), 4, True))["args"][1]
    ... # doctest: +ELLIPSIS
    {'array': '...', 'dtype': 'int64', 'shape': [2]}
    """
    return {"function": function_name, "args": _canonical(list(args))}


def _budget_free(key: dict, index: int) -> str:
    """The digest of task ``key`` with its argument ``index`` left out: tasks that
    differ only in that argument (a budget) share it."""
    args = list(key["args"])
    args[index] = None
    return _digest({"function": key["function"], "args": args})


def _dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _digest(obj) -> str:
    return hashlib.sha256(_dumps(obj).encode("utf-8")).hexdigest()


def task_timing(seconds: float, cpu_seconds: float, finished: float,
                pieces: bool = False) -> dict:
    """A task's timing as an entry keeps it: its wall and processor seconds (of the
    thread that ran it: the compiled search runs in one) and the UTC time it ended.

    ``pieces``: the answer of a task computed in pieces (a chain of tasks, a part
    split by its own guesses: :meth:`TaskRunner.record`), whose processor seconds
    are its pieces' in all, those computed and those read back, and whose wall
    seconds are the last run's; each piece saved has its own entry, so a sum over
    the entries leaves these out.

    >>> task_timing(61.23456, 60.5, 0.0)
    {'seconds': 61.235, 'cpu_seconds': 60.5, 'finished': '1970-01-01T00:00:00Z'}
    >>> task_timing(2.0, 3.5, 0.0, pieces=True)["pieces"]
    True
    """
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))
    timing = {"seconds": round(float(seconds), 3),
              "cpu_seconds": round(float(cpu_seconds), 3), "finished": stamp}
    if pieces:
        timing["pieces"] = True
    return timing


# ---------------------------------------------------------------------------
# Results as JSON
# ---------------------------------------------------------------------------
def result_to_json(value):
    """Encode a task result (nested tuples, int-keyed dicts, arrays) as JSON data.

    Lists stay lists; a tuple, a dict and an array become one-key objects, so that
    :func:`result_from_json` rebuilds exactly the same types.

    >>> result_to_json((3, {2: None}, np.array([1], dtype=np.int64)))
    {'tuple': [3, {'dict': [[2, None]]}, {'ndarray': [1], 'dtype': 'int64'}]}
    """
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist(), "dtype": str(value.dtype)}
    scalar = _plain_scalar(value)
    if scalar is not _NOT_SCALAR:
        return scalar
    if isinstance(value, tuple):
        return {"tuple": [result_to_json(v) for v in value]}
    if isinstance(value, list):
        return [result_to_json(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[result_to_json(k), result_to_json(v)] for k, v in value.items()]}
    raise TypeError(f"cannot store a task result of type {type(value).__name__}")


def result_from_json(data):
    """Inverse of :func:`result_to_json`.

    >>> value = (3, {2: (1, {})}, [True, None])
    >>> result_from_json(result_to_json(value)) == value
    True
    """
    if isinstance(data, list):
        return [result_from_json(v) for v in data]
    if isinstance(data, dict):
        if set(data) == {"tuple"}:
            return tuple(result_from_json(v) for v in data["tuple"])
        if set(data) == {"dict"}:
            return {result_from_json(k): result_from_json(v) for k, v in data["dict"]}
        if set(data) == {"ndarray", "dtype"}:
            return np.array(data["ndarray"], dtype=np.dtype(data["dtype"]))
        raise ValueError(f"unknown encoded object with keys {sorted(data)}")
    return data


# ---------------------------------------------------------------------------
# The store
# ---------------------------------------------------------------------------
def check_checkpoint_dir(directory) -> Path:
    """Make sure ``directory`` is, or can become, a checkpoint directory we can write.

    Creates it (with its parents) if missing, then writes and removes a probe file,
    so that a directory that cannot take entries is refused before the search starts
    rather than at its first finished task.

    Raises
    ------
    InvalidOptionError
        For an empty name, a path that is a file, or a directory that cannot be
        created or written; the message quotes the path as given.
    """
    if not isinstance(directory, (str, os.PathLike)) or not os.fspath(directory):
        raise InvalidOptionError(f"--checkpoint needs a directory name, got {directory!r}")
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise InvalidOptionError(f"--checkpoint {str(directory)!r} is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidOptionError(f"cannot create the checkpoint directory {str(directory)!r}: "
                                 f"{exc.strerror or exc}") from None
    try:
        check_output_path(path / "probe.json")
    except OptimalMMError as exc:
        raise InvalidOptionError(f"cannot write in the checkpoint directory "
                                 f"{str(directory)!r} ({exc})") from None
    return path


def _read_regular(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file, else None; never blocks.

    A FIFO put where an entry should be would block a plain read forever: the file
    is opened without blocking and checked to be a regular file before reading.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return fh.read()


#: The parts of an entry its checksum covers; ``timing`` only where it was written.
_BODY = ("format", "run", "task", "result")


def _intact(raw: bytes) -> dict | None:
    """The entry in ``raw`` (``format``, ``run``, ``task``, the decoded ``result`` and
    ``timing``, None where absent) if its checksum holds and its format is this
    module's, else None."""
    try:
        entry = json.loads(raw.decode("utf-8"))
        body = {k: entry[k] for k in _BODY + (("timing",) if "timing" in entry else ())}
        if entry.get("sha256") != _digest(body) or body["format"] != FORMAT:
            return None
        body["result"] = result_from_json(body["result"])
        body.setdefault("timing", None)
        return body
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError,
            RecursionError):  # RecursionError: an entry nested beyond anything we write
        return None


def read_entry(path):
    """The entry in the file ``path``, as :func:`read_entries` gives each (a dict of
    ``format``, ``run``, ``task``, the decoded ``result`` and ``timing``), or None if
    it is damaged, of another format, or not a regular file."""
    try:
        raw = _read_regular(Path(path))
    except OSError:
        return None
    return None if raw is None else _intact(raw)


def read_entries(directory, skipped: list | None = None):
    """Every intact entry in ``directory``, of any run, as ``(run, task, result,
    timing)`` in the order of the file names (``timing``: a dict of ``seconds``,
    ``cpu_seconds`` and ``finished``, or None for an entry written without it); a
    damaged, foreign or unreadable file is skipped, and its name appended to
    ``skipped`` if that is a list (so that a reader can say what it left out).

    For reading a checkpoint without running its search (what it has proven so far:
    :mod:`optimal_mm.checkpoint_report`); the search itself reads through
    :class:`Checkpoint`, which also checks that an entry is the task it asks for.
    """
    for path in sorted(Path(directory).glob("task-*.json")):
        body = read_entry(path)
        if body is not None:
            yield body["run"], body["task"], body["result"], body["timing"]
        elif skipped is not None:
            skipped.append(path.name)


class Checkpoint:
    """Finished task results of one run, one verified JSON file per task.

    Parameters
    ----------
    directory : str or path-like
        Created if missing. May hold the entries of other runs too.
    run : dict
        The run key (JSON data): whatever, besides a task's own arguments, its result
        depends on. :meth:`optimal_mm.search.Solver.run_key` builds it.

    Attributes
    ----------
    loaded, stored, rejected : int
        Entries read back and trusted (each counted once, however often it is
        read, and not those this object wrote: a race read from its part's image
        reads the entries of its image's own race, read or computed before),
        written, and found but refused (damaged, foreign, or not a readable regular
        file: a FIFO, a directory) since this object was made.
    unsaved : int
        Results that could not be written (the entry's name is taken by a
        directory, the disk is full); the run goes on without them.
    unsaved_reason : str
        Why the first of them could not be written.

    Notes
    -----
    :meth:`get` and :meth:`put` each read or write one file of the size of the
    result (a subtree: a few kilobytes to a few megabytes).
    """

    def __init__(self, directory, run: dict, writable: bool = True):
        """``writable`` False: a directory only read (another search's: :meth:`get`
        and :meth:`reuse`), which must exist, and is neither created nor probed."""
        if writable:
            self.directory = check_checkpoint_dir(directory)
        elif not Path(directory).is_dir():
            raise InvalidOptionError(f"the checkpoint {str(directory)!r} to read is not a "
                                     f"directory")
        else:
            self.directory = Path(directory)
        self.run = json.loads(_dumps(run))  # tuples become lists, as they will read back
        self._run_digest = _digest(self.run)
        self.stored = self.rejected = self.unsaved = 0
        # The names of the entries read back, and of those this object wrote (read
        # again, those are not loaded: this run computed them)
        self._loaded: set[str] = set()
        self._written: set[str] = set()
        self.unsaved_reason = ""
        # (function, budget index) -> {budget-free digest: [(budget, result)]}: every
        # entry of this run, read on the first :meth:`reuse` of that function.
        self._alike: dict[tuple, dict] = {}
        self._of: dict[str, list] = {}  # function -> its entries, read by :meth:`tasks_of`
        self._listed: set[str] | None = None  # :meth:`_names`

    def __repr__(self) -> str:
        return f"Checkpoint({str(self.directory)!r}, {self.run!r})"

    @property
    def loaded(self) -> int:
        """How many entries were read back and trusted (see the class)."""
        return len(self._loaded - self._written)

    def path(self, key: dict) -> Path:
        """The file that holds (or will hold) the entry of task ``key``."""
        return self._path_of(_dumps(key))

    def _path_of(self, text: str) -> Path:
        """:meth:`path` of the key whose :func:`_dumps` is ``text``: the digest of
        ``{"run": the run's digest, "task": key}``, written as :func:`_dumps` would
        write it (keys sorted, no spaces), without encoding the key again.

        >>> cp = Checkpoint(__import__("tempfile").mkdtemp(), {"game": "p2c3"})
        >>> key = task_key("_exp_part_task", (5, np.arange(3), 10))
        >>> cp._path_of(_dumps(key)).name[5:-5] == _digest(
        ...     {"run": cp._run_digest, "task": key})[:40]
        True
        """
        return self.directory / self._name_of(text)

    def _name_of(self, text: str) -> str:
        """The name of :meth:`_path_of`'s file."""
        whole = f'{{"run":"{self._run_digest}","task":{text}}}'
        return f"task-{hashlib.sha256(whole.encode('utf-8')).hexdigest()[:40]}.json"

    def _names(self) -> set | None:
        """The names of the files in the directory, listed at the first look-up and
        kept up to date with what this object writes: a look-up of a task with no
        entry, most of those of a long run, then opens no file (p4c10nb's consistent
        chains spent 3 % of their time looking for entries that were not there,
        ``py-spy``). An entry another process writes meanwhile is not seen, as
        :meth:`reuse` and :meth:`tasks_of` do not see it: a checkpoint is one run's,
        and a task not found is only computed again."""
        if self._listed is None:
            try:
                self._listed = set(os.listdir(self.directory))
            except OSError:  # None: every look-up tries its file
                return None
        return self._listed

    def entries(self) -> list[Path]:
        """Every entry file in the directory (of this run or of others)."""
        return sorted(self.directory.glob("task-*.json"))

    def get(self, key: dict, count: bool = True):
        """The stored result of task ``key``, or ``None`` if missing, damaged or foreign;
        counted as loaded unless ``count`` is false (a look that may go unused)."""
        return self.get_timed(key, count)[0]

    def get_timed(self, key: dict, count: bool = True):
        """:meth:`get`'s result and the processor seconds its entry records (``None``
        for both where there is no entry; the seconds ``None`` for an entry written
        without its timing)."""
        text = _dumps(key)
        name = self._name_of(text)
        names = self._names()
        if names is not None and name not in names:  # (most look-ups of a long run)
            return None, None
        path = self.directory / name
        found = self._read(path, json.loads(text))
        if found is None:
            return None, None
        if count:
            self._loaded.add(path.name)
        timing = found[2]
        try:
            return found[1], float(timing["cpu_seconds"])
        except (KeyError, TypeError, ValueError):
            return found[1], None

    def _read(self, path: Path, task=None):
        """``(task key, result, timing)`` of the entry at ``path`` if it belongs to this
        run (and is task ``task``, when given) and is intact; else ``None`` (counted as
        rejected unless the file is simply missing)."""
        try:
            raw = _read_regular(path)
        except FileNotFoundError:
            return None
        except OSError:
            raw = None
        if raw is None:
            self.rejected += 1
            return None
        body = _intact(raw)
        if body is None or body["run"] != self.run or (task is not None
                                                       and body["task"] != task):
            if task is not None:  # the entry expected at this name, damaged or foreign
                self.rejected += 1
            return None
        return body["task"], body["result"], body["timing"]

    def tasks_of(self, function: str) -> list:
        """``(task key, result)`` of every entry of this run for the task function named
        ``function``, read once (the files present then: for a directory only read,
        another search's), for a reader that finds tasks by other arguments than
        their key (a capped search reading the small parts' answers of the search
        without the cap: :meth:`~optimal_mm.search_races.RivalRaces._small_floor`)."""
        found = self._of.get(function)
        if found is None:
            found = self._of[function] = [
                (entry[0], entry[1]) for entry in map(self._read, self.entries())
                if entry is not None and entry[0].get("function") == function]
        return found

    def reuse(self, key: dict, index: int, adapt, count: bool = True):
        """The result of task ``key`` from an entry of the same task under another value
        of its argument ``index`` (a budget): ``adapt(result, budget)`` gives the result
        under ``key``'s own budget, or ``None`` when that entry does not settle it.
        ``None`` if no entry does (see "Results under another value" above); counted
        as loaded unless ``count`` is false."""
        group = (key["function"], index)
        alike = self._alike.get(group)
        if alike is None:
            alike = self._alike[group] = {}
            for path in self.entries():
                found = self._read(path)
                if found is not None and found[0].get("function") == key["function"]:
                    self._remember(alike, found[0], index, found[1])
        for budget, result in alike.get(_budget_free(key, index), ()):
            adapted = adapt(result, budget)
            if adapted is not None:
                if count:  # the entry of the task under that budget
                    args = list(key["args"])
                    args[index] = budget
                    self._loaded.add(self.path({**key, "args": args}).name)
                return adapted
        return None

    @staticmethod
    def _remember(alike: dict, task: dict, index: int, result) -> None:
        with_budget = alike.setdefault(_budget_free(task, index), [])
        with_budget.append((task["args"][index], result))

    def put(self, key: dict, result, timing: dict | None = None) -> None:
        """Store ``result`` for task ``key``, atomically (a kill never leaves half a file).

        ``timing``: how long the task took (:func:`task_timing`), kept with it and
        covered by its checksum; an entry without it is as valid.

        Whatever sits at the entry's name that is not a regular file (a FIFO) is
        replaced, never written through. When the entry cannot be written at all (a
        directory has its name, the disk is full), the run goes on: the result is
        only not saved, and :attr:`unsaved` counts it.
        """
        text = _dumps(key)
        path = self._path_of(text)
        body = {"format": FORMAT, "run": self.run, "task": json.loads(text),
                "result": result_to_json(result)}
        if timing is not None:
            body["timing"] = json.loads(_dumps(timing))
        body["sha256"] = _digest(body)
        try:
            atomic_write_bytes(path, (_dumps(body) + "\n").encode("utf-8"),
                               special="replace")
        except (OSError, OptimalMMError) as exc:
            if not self.unsaved:
                self.unsaved_reason = str(exc) if isinstance(exc, OptimalMMError) else (
                    f"{exc.strerror or exc}")
            self.unsaved += 1
            return
        self.stored += 1
        self._written.add(path.name)
        if self._listed is not None:
            self._listed.add(path.name)
        for (function, index), alike in self._alike.items():
            if function == body["task"]["function"]:
                self._remember(alike, body["task"], index, result)
