"""The index of the trees behind the optimal table's upper bounds:
``results/upper_trees.{json,md}`` and the trees in ``results/trees/upper/``.

An open cell of an expected-case objective prints ``≤ U`` in the table
(results/optimal_table.md): the best complete tree its search had built when its
time limit came. Each such tree is a file anyone can replay, listed with its figures
in the index, one row a cell (:data:`ROW_KEYS`). Two scripts write it:
``scripts/optimal_tables.py``, whose worker writes the tree its search holds when the
entry's limit comes (the table's ``≤`` and the tree are then the same run's), and
``scripts/upper_trees.py``, which resumes a cell's checkpoint to rebuild its tree.
Both merge their rows into the index as it is when they write, under a lock beside
it (:func:`update_index`); a cell the table has since solved loses its row and tree.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

from optimal_mm.outputs import atomic_write_bytes, atomic_write_text
from optimal_mm.tree import Strategy

#: The objectives whose open cells have an upper bound made by a tree.
TREE_OBJECTIVES = ("expected", "worst-then-expected", "fewest-at-worst")


def tree_name(key: str) -> str:
    """``p4c10/any/fewest-at-worst`` -> ``p4c10-any-fewest-at-worst.json.gz``."""
    return key.replace("/", "-") + ".json.gz"


def figures(strategy: Strategy, stats=None) -> dict:
    """What a replayed tree shows: its first guess, secrets, total, deepest guess and
    the secrets that need it, and the figure its objective bounds (``value``).
    ``stats``: what :meth:`~optimal_mm.tree.Strategy.validate` returned for it
    already (the solver replays every tree it builds), else it is replayed here."""
    stats = strategy.validate() if stats is None else stats
    at_cap = stats.depth_counts[-1] if stats.depth_counts else 0
    value = at_cap if strategy.objective == "fewest-at-worst" else stats.total
    return {"first_guess": strategy.root.guess, "secrets": stats.secrets,
            "total": stats.total, "max": stats.max, "at_max": at_cap,
            "cap": strategy.max_guesses, "value": value}


def row(key: str, strategy: Strategy, file: Path, command: str, table_best) -> dict:
    """The index's row of cell ``key``'s tree ``strategy``, kept at ``file`` (below
    the index's folder), made by ``command``; ``table_best``: the table's ``≤`` when
    it was made (None: it had none)."""
    spec, guesses, objective = key.split("/")
    return {"key": key, "spec": spec, "guesses": guesses, "objective": objective,
            "table_best": table_best, "file": str(file), "command": command,
            **figures(strategy)}


def keep_run_tree(out: Path, entries: dict, key: str, path: Path, command: str) -> str:
    """Make the tree at ``path`` cell ``key``'s upper tree, where the table's ``≤``
    (``entries``, the table as the run's result was merged into it) is its figure:
    written to ``trees/upper/`` below ``out``, its row merged into the index
    (:func:`update_index`). The tree is the one the table's run (``command``) had
    built when the cell's limit came (its worker wrote it there), so the table's
    bound and the tree on file come from the same run; a retry keeps the best bound
    of all its runs, and where an earlier run's is lower, this tree is not the
    witness and is not kept. The file at ``path`` goes either way. Returns a line
    saying which (or why it could not be kept: an unreadable tree or index, which
    stops no run)."""
    try:
        strategy = Strategy.load(path)
        made = row(key, strategy, Path("trees") / "upper" / tree_name(key), command, None)
        bound = entries.get(key, {}).get("best")
        if entries.get(key, {}).get("status") != "timeout" or bound != made["value"]:
            return (f"{key}: its run's best tree ({number(made['value'])}) is not the "
                    f"table's ≤ ({number(bound)}): not kept")
        made["table_best"] = bound
        (out / made["file"]).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(out / made["file"], path.read_bytes())
        update_index(out, entries, [made], rewrite=True)
        return f"{key}: its run's best tree ({number(bound)}) kept in {made['file']}"
    except (OSError, ValueError) as exc:  # the project's errors subclass ValueError
        return f"{key}: its run's best tree not kept: {exc}"
    finally:
        path.unlink(missing_ok=True)


def number(value) -> str:
    """A figure of a row as the markdown and the messages print it.

    >>> number(12181), number(None)
    ('12,181', 'none')
    """
    if value is None:  # the table had no upper bound: the tree gives its first
        return "none"
    return f"{value:,}" if isinstance(value, int) else str(value)


def markdown(rows: list[dict]) -> str:
    lines = [
        "# Trees behind the table's upper bounds",
        "",
        "Made by `python scripts/upper_trees.py --only CELL --time-limit S`, each open "
        "cell's checkpoint resumed by `optimal-mm solve ... --best-so-far FILE`, or by "
        "the table's own run of the cell (`scripts/optimal_tables.py`): the command "
        "below. Each is the best complete tree its search had built when the limit "
        "came, replayed for every secret. Not proven optimal (`optimal` "
        "false): each is the witness of the table's `≤`. *value*: the figure the table "
        "bounds (the total; for fewest-at-worst the secrets at the cap); *table ≤*: the "
        "table's bound when the tree was made (none: it had none).",
        "",
        "| cell | tree | first guess | value | table ≤ | secrets at the deepest | total "
        "| cap | command |",
        "|---|---|---|---:|---:|---|---:|---:|---|",
    ]
    for r in sorted(rows, key=lambda r: r["key"]):
        deepest = f"{r['at_max']:,} at {r['max']}"
        lines.append(f"| {r['key']} | [{Path(r['file']).name}]({r['file']}) "
                     f"| {r['first_guess']} | {r['value']:,} | {number(r['table_best'])} "
                     f"| {deepest} | {r['total']:,} | {r['cap'] or ''} | `{r['command']}` |")
    return "\n".join(lines) + "\n"


#: What a row of upper_trees.json holds (:func:`row`), all of it read by :func:`markdown`.
ROW_KEYS = frozenset({"key", "file", "first_guess", "value", "table_best", "at_max", "max",
                      "total", "cap", "command"})


def read_field(path: Path, field: str, kind: type):
    """``field`` of the JSON file at ``path``, of type ``kind``; ValueError naming the
    file otherwise."""
    try:
        value = json.loads(path.read_text())[field]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{str(path)!r}: {exc}") from None
    if not isinstance(value, kind):
        raise ValueError(f"{str(path)!r}: {field!r} is not a {kind.__name__}")
    return value


def rows(out: Path) -> list:
    """The rows of the index ``upper_trees.json`` in ``out`` (none before the first
    tree); ValueError naming the file if one lacks a field."""
    index = out / "upper_trees.json"
    found = read_field(index, "trees", list) if index.exists() else []
    if not all(isinstance(r, dict) and ROW_KEYS <= r.keys() for r in found):
        raise ValueError(f"{str(index)!r}: a tree's row lacks one of "
                         f"{', '.join(sorted(ROW_KEYS))}")
    return found


def update_index(out: Path, entries: dict, made: list, rewrite: bool) -> None:
    """Write the index and its page with this run's rows ``made`` merged into the
    index as it is now, under an exclusive lock on a file beside it: another run of
    the script (other cells, on other cores) may have written its rows since this
    one read the index, and they stay, where the index as read at the start would
    have dropped them. A cell solved since its tree was made prints its value, no
    bound: its row and tree go (after the index that names them is rewritten
    without them). ``rewrite``: write the index even if no row goes (``--render``
    writes only the page, unless a row goes)."""
    with open(out / "upper_trees.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        kept = rows(out)
        closed = [r for r in kept if entries.get(r["key"], {}).get("status") == "solved"]
        keys = {r["key"] for r in made}
        kept = [r for r in kept if r not in closed and r["key"] not in keys] + made
        if rewrite or closed:
            atomic_write_text(out / "upper_trees.json",
                              json.dumps({"trees": sorted(kept, key=lambda r: r["key"])},
                                         indent=1, sort_keys=True) + "\n")
        atomic_write_text(out / "upper_trees.md", markdown(kept))
        for r in closed:
            (out / r["file"]).unlink(missing_ok=True)
            print(f"{r['key']}: solved since its tree was made (the table's value "
                  f"{entries[r['key']].get('value')}): its upper tree and row dropped "
                  f"({r['file']})")
