"""Take entries out of a checkpoint directory, as a run stopped before it computed
them would have left it: the tests of the checkpoint report and of the scripts that
read checkpoints start from a finished run and remove part of its work."""

from __future__ import annotations

import json


def drop_entries(folder, keep) -> int:
    """Remove the checkpoint entries for which ``keep(function, args)`` is false, as a
    run stopped before it computed them; how many were removed."""
    removed = 0
    for path in folder.glob("task-*.json"):
        task = json.loads(path.read_text())["task"]
        if not keep(task["function"], task["args"]):
            path.unlink()
            removed += 1
    return removed
