"""The optimal table on disk: ``results/optimal_table.json`` and its page, shared by runs.

Several runs may write the table at once (an entry of hours beside a batch of short
ones, on other cores). Each change is made under an exclusive lock on a file beside
the JSON, to the table as it is then (:func:`update_table`), so that no run writes
back a table it read before another's result; the JSON and its Markdown page
(:func:`table_page.markdown`) are written together, each atomically, with Ctrl-C and
SIGTERM held until both are (:func:`save`).
"""

from __future__ import annotations

import fcntl
import json
import signal
from pathlib import Path

from optimal_mm.outputs import atomic_write_text

from table_entries import RESULTS
from table_page import markdown

JSON_PATH = RESULTS / "optimal_table.json"
MD_PATH = RESULTS / "optimal_table.md"


def save(entries, meta):
    """Write the table's JSON and its Markdown page: each atomically, and the two
    together, a Ctrl-C or SIGTERM that comes meanwhile held until both are written
    (one once stopped a run between the two, leaving the page behind the JSON)."""
    JSON_PATH.parent.mkdir(exist_ok=True)
    doc = {"meta": meta, "entries": entries}
    texts = [(JSON_PATH, json.dumps(doc, indent=1, sort_keys=True) + "\n"),
             (MD_PATH, markdown(entries, meta))]
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        for path, text in texts:
            atomic_write_text(path, text)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class TableFileError(ValueError):
    """A table file that is not an optimal table (told in one line by the scripts)."""


def load_table(path) -> dict:
    """The table at ``path`` (``{"meta": {...}, "entries": {key: {...}}}``; a table of
    entries alone is one too), its shape checked, so that a damaged file is one line
    naming it, not a KeyError later.

    >>> import tempfile, pathlib
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "optimal_table.json"
    >>> _ = bad.write_text("{}")
    >>> load_table(bad)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table_store.TableFileError: .../optimal_table.json is not an optimal table: ...
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as exc:
        raise TableFileError(f"{path} is not JSON: {exc}") from None
    shape = "an object with an 'entries' object of objects (and a 'meta' object)"
    if not (isinstance(doc, dict) and isinstance(doc.get("meta", {}), dict)
            and isinstance(doc.get("entries"), dict)
            and all(isinstance(e, dict) for e in doc["entries"].values())):
        raise TableFileError(f"{path} is not an optimal table: it must be {shape}")
    return doc


def update_table(change) -> tuple[dict, dict]:
    """Read the table, apply ``change(entries, meta)`` to it in place and write it
    back (JSON and markdown), under an exclusive lock on a file beside the JSON.

    Several runs may share the table (one entry that takes hours beside a batch of
    short ones): each merges its result into what the others have written since it
    started, rather than writing back the table as it read it then. Returns the
    entries and meta as written."""
    JSON_PATH.parent.mkdir(exist_ok=True)
    with open(JSON_PATH.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        doc = load_table(JSON_PATH) if JSON_PATH.exists() else {}
        entries, meta = doc.get("entries", {}), doc.get("meta", {})
        change(entries, meta)
        save(entries, meta)
    return entries, meta


def read_entries() -> dict:
    """The table's entries as other runs have written them so far (under the lock)."""
    if not JSON_PATH.exists():
        return {}
    with open(JSON_PATH.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        return load_table(JSON_PATH)["entries"]
