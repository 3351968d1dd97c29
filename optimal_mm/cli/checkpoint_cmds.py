"""Sub-command ``checkpoint``: what a checkpoint directory has proven so far.

``optimal-mm checkpoint DIR`` reads the entries a ``solve --checkpoint DIR`` run saved
and says, per run, what they settle (:mod:`optimal_mm.checkpoint_report`): in the
worst case, the parts refuted or found feasible for each first guess and number of
guesses, and for a part split by second guesses how many of its classes are refuted;
in the expected case, the parts solved and the rival guesses settled. It runs no
search, so it may be used while the run goes on. Entry files it cannot trust
(truncated, edited, or of another format) are left out, and counted and named on its
first line.
"""

from __future__ import annotations

import json
import os


def register(sub) -> None:
    """Add ``checkpoint`` to the parser."""
    p = sub.add_parser(
        "checkpoint", help="what a checkpoint directory has proven so far",
        description="Read the tasks a 'solve --checkpoint DIR' run has saved and say what "
                    "they settle, per run: worst case, the parts refuted or feasible per "
                    "first guess and number of guesses, and how many second-guess classes "
                    "of a split part are refuted; expected case, the parts solved and the "
                    "rivals settled. Runs no search.")
    p.add_argument("directory", metavar="DIR", help="a checkpoint directory")
    p.add_argument("--no-classes", action="store_true",
                   help="do not count a split part's second-guess classes, nor the rivals "
                        "left to an expected run's big parts (both build "
                        "the game's answer table)")
    p.add_argument("--lower-bound-tree", metavar="FILE",
                   help="the optimal tree without a cap that the run was given as its "
                        "lower bound (solve --lower-bound-tree): the parts it settled "
                        "unsearched count as solved, and its guesses as first, as in the "
                        "run")
    p.add_argument("--lower-bound-checkpoint", metavar="DIR",
                   help="with --lower-bound-tree, the checkpoint of the search without "
                        "the cap that the capped run read as lower bounds too (solve "
                        "--lower-bound-checkpoint): each rival it answered is priced at "
                        "its time there")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run_checkpoint)


def run_checkpoint(args) -> int:
    from ..checkpoint_report import report
    from ..errors import InvalidOptionError
    from ..tree import Strategy

    floor = None
    below = args.lower_bound_checkpoint
    if below is not None and args.lower_bound_tree is None:
        raise InvalidOptionError("--lower-bound-checkpoint needs --lower-bound-tree")
    if below is not None and not os.path.isdir(below):
        raise InvalidOptionError(f"--lower-bound-checkpoint {below!r} is not a directory")
    if args.lower_bound_tree is not None:
        if args.no_classes:
            raise InvalidOptionError("--lower-bound-tree needs the game's parts: drop "
                                     "--no-classes")
        floor = (Strategy.load(args.lower_bound_tree),
                 f"the optimal tree {args.lower_bound_tree}", below)
    skipped: list[str] = []
    reports = report(args.directory, classes=not args.no_classes, skipped=skipped,
                     floor=floor)
    if floor is not None and not any(r.floor for r in reports):
        raise InvalidOptionError(
            f"the lower-bound tree {args.lower_bound_tree} (of {floor[0].game.spec}) bounds "
            f"no run in {args.directory}: a floor bounds the expected case and the total "
            f"within t* of its own game, for any guesses or the tree's rule")
    if args.json:
        print(json.dumps({"directory": args.directory,
                          "runs": [r.to_dict() for r in reports],
                          "skipped": skipped}, indent=1))
        return 0
    total = sum(r.entries for r in reports)
    refused = ""
    if skipped:
        files = "file" if len(skipped) == 1 else "files"
        first = skipped[0] if len(skipped) == 1 else f"{skipped[0]}, ..."
        refused = f"; {len(skipped):,} damaged or foreign entry {files} skipped ({first})"
    print(f"checkpoint {args.directory}: {total:,} entries in {len(reports)} "
          f"run{'s' if len(reports) != 1 else ''}{refused}")
    for r in reports:
        print("\n".join(r.lines()))
    return 0
