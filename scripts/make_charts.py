"""Draw the charts of results/: game lengths of optimal trees and heuristics, and
the table of optimal values.

* ``results/depths-<game>.png``: for Mastermind and Bulls and Cows, how many secrets
  the shipped optimal tree (``optimal_mm/data/<game>.json.gz``) and each heuristic's
  tree (``results/trees/<game>-<heuristic>.json.gz``, made by
  ``scripts/heuristics_table.py``) find with their 1st, 2nd, ... guess.
* ``results/optimal-table.png``: t* and the optimal average number of guesses against
  the number of colours, one line per number of pegs, for the ``pPcC`` games
  (repeats allowed, black-white answers, any guesses) solved in
  ``results/optimal_table.json`` (``scripts/optimal_tables.py``).

Every tree is replayed (:meth:`Strategy.validate`) before it is drawn. Needs
matplotlib (``pip install -e '.[plot]'``). Run from the repository root::

    python scripts/make_charts.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from optimal_mm import Game
from optimal_mm.errors import OutputError
from optimal_mm.heuristics import HEURISTICS
from optimal_mm.player import load_shipped_strategy
from optimal_mm.plot import depth_figure, save_figure, table_figure
from optimal_mm.tree import Strategy
from table_store import load_table

GAMES = ("mastermind", "bulls-and-cows")


def depth_chart(spec: str, trees: Path, out: Path) -> Path:
    """The chart of game lengths of ``spec``: the shipped optimal tree, then every
    heuristic whose tree is in ``trees``."""
    game = Game.from_spec(spec)
    optimal = load_shipped_strategy(game)
    series = {"optimal (expected)": optimal.validate()}
    for name in HEURISTICS:
        path = trees / f"{game.name}-{name}.json.gz"
        if path.exists():
            series[name] = Strategy.load(path).validate()
    figure = depth_figure(series, f"{game.name} ({game.spec}, {game.n_codes} secrets): "
                                  f"the optimal tree against the heuristics")
    target = out / f"depths-{game.name}.png"
    save_figure(figure, target)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default="results", help="results folder (default results)")
    args = parser.parse_args(argv)
    results = Path(args.results)
    if not results.is_dir():  # refused before any chart is drawn
        raise OutputError(f"--results {args.results!r} is not a folder")
    table = load_table(results / "optimal_table.json")  # before any chart is drawn
    written = [depth_chart(spec, results / "trees", results) for spec in GAMES]
    target = results / "optimal-table.png"
    save_figure(table_figure(table["entries"]), target)
    written.append(target)
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    from optimal_mm.cli import guarded  # bad input: one line and status 2

    sys.exit(guarded("make_charts.py", main))
