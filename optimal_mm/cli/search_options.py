"""The options that tune how an exact search's work is cut, kept and sized.

``optimal-mm solve`` takes them, and so do the scripts that run its searches for
hours: ``scripts/optimal_tables.py`` (in its worker processes) and
``scripts/upper_trees.py`` (through ``optimal-mm solve``). They are defined once,
here, so that a value one of them accepts the others accept too, and each refuses a
bad one with the same line before any work starts (:func:`check_tuning`).

None of them changes what a search proves, only how its work is done:

* ``--table-entries``: the transposition table of each search process;
* ``--split-secrets``, ``--split-depth``: how the worst case cuts a first guess's big
  parts into tasks (one per second guess, or deeper);
* ``--chain-secrets``: how the expected-type searches cut big parts below the first
  guess into chains of tasks;
* ``--wc-tree``: which feasible guess a worst-case tree plays (a tree of the same
  depth either way; a smaller total or a faster build);
* ``--checkpoint-min-seconds``: which finished tasks a checkpoint keeps.

``solve`` gives each its default (:func:`add_tuning_options`); a script that passes
on only what it was given adds them with ``defaults=False`` (unset: ``None``) and
hands them on with :func:`given_tuning` or :func:`tuning_flags`.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_tuning_options(parser, defaults=False)
>>> args = parser.parse_args(["--split-secrets", "500", "--wc-tree", "first"])
>>> check_tuning(args)
>>> given_tuning(args)
{'split_secrets': 500, 'wc_tree': 'first'}
>>> tuning_flags(args)
['--split-secrets', '500', '--wc-tree', 'first']
>>> check_tuning(parser.parse_args(["--chain-secrets", "0"]))
Traceback (most recent call last):
...
optimal_mm.errors.InvalidOptionError: --chain-secrets must be 1 or more, got 0
"""

from __future__ import annotations

import math

from ..errors import InvalidOptionError
from ..search import DEFAULT_TABLE_ENTRIES, WC_SPLIT_SECRETS, WC_TREE_RULES

#: Each option's destination, flag, type, least value (None: a choice) and default.
_OPTIONS = (
    ("table_entries", "--table-entries", int, 0, DEFAULT_TABLE_ENTRIES),
    ("split_secrets", "--split-secrets", int, 1, WC_SPLIT_SECRETS),
    ("split_depth", "--split-depth", int, 1, 1),
    ("wc_tree", "--wc-tree", str, None, "small-total"),
    ("chain_secrets", "--chain-secrets", int, 1, None),
    ("checkpoint_min_seconds", "--checkpoint-min-seconds", float, 0, 0.0),
)

_HELP = {
    "table_entries": ("transposition-table entries per search process (default {}; at "
                      "most 24 bytes each): a task that searches more states than its "
                      "table holds searches some of them again"),
    "split_secrets": ("worst case: search a first guess's parts of N secrets or more one "
                      "second guess per task (default {}); less saves a long "
                      "refutation's progress more often (docs/LONG_RUNS.md)"),
    "split_depth": ("worst case: split deeper, down to D guesses below the first "
                    "(default {}: one task per second guess); 2 searches a second guess "
                    "by its parts, one of --split-secrets or more one third guess per "
                    "task, so that tasks of hours are saved in pieces"),
    "wc_tree": ("worst case: how the tree picks its guesses once a part is proven "
                "feasible: small-total (a small total number of guesses) or first (the "
                "search's own first feasible guess: a larger total, far faster on big "
                "games); default {}"),
    "chain_secrets": ("expected, fewest-at-worst, worst-then-expected: below the first "
                      "guess, never search a part of N secrets or more as one task (a "
                      "rival guess with one is a chain of tasks, such a part is split by "
                      "its own guesses), so that work of hours is saved in the checkpoint "
                      "a piece at a time (default {}; docs/LONG_RUNS.md)"),
    "checkpoint_min_seconds": ("with --checkpoint: do not save a task of less than S "
                               "seconds of processor time (computed again when needed; "
                               "default {}: save all): chains on a big game run tasks of "
                               "milliseconds by the ten thousand"),
}

_METAVAR = {"table_entries": "N", "split_secrets": "N", "split_depth": "D",
            "chain_secrets": "N", "checkpoint_min_seconds": "S"}


def add_tuning_options(group, *, defaults: bool = True) -> None:
    """Add the tuning options to an argparse parser or group: with ``solve``'s
    defaults, or (``defaults=False``) unset, ``None``, for a script that passes on
    only the options it was given (the search then takes its own defaults)."""
    for dest, flag, kind, _, default in _OPTIONS:
        shown = "none" if default is None else (f"{default:,}" if kind is int else default)
        if not defaults:
            shown = f"optimal-mm solve's, {shown}"
        options = {"choices": WC_TREE_RULES} if dest == "wc_tree" else {
            "type": kind, "metavar": _METAVAR[dest]}
        group.add_argument(flag, dest=dest, default=default if defaults else None,
                           help=_HELP[dest].format(shown).replace("%", "%%"), **options)


def check_tuning(args) -> None:
    """Refuse a tuning option out of its range (:class:`InvalidOptionError`, one line);
    an option left unset (``None``) passes."""
    for dest, flag, kind, least, _ in _OPTIONS:
        value = getattr(args, dest, None)
        if value is None or least is None:
            continue
        if kind is float and not (value >= least and math.isfinite(value)):
            raise InvalidOptionError(f"{flag} must be a finite number of {least} or more, "
                                     f"got {value}")
        if value < least:
            raise InvalidOptionError(f"{flag} must be {least} or more, got {value}")


def given_tuning(args) -> dict:
    """The tuning options set on the command line, as keywords of
    :class:`~optimal_mm.search.Solver` (those left unset: not there)."""
    return {dest: getattr(args, dest) for dest, *_ in _OPTIONS
            if getattr(args, dest, None) is not None}


def tuning_flags(args) -> list[str]:
    """The tuning options set on the command line, as ``optimal-mm solve`` takes them."""
    flags = []
    for dest, flag, *_ in _OPTIONS:
        value = getattr(args, dest, None)
        if value is not None:
            flags += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return flags
