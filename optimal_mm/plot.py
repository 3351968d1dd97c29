"""Charts of strategies and tables, drawn with matplotlib (an optional extra).

A strategy tree's shape is summed up by its *distribution of game lengths*: how
many secrets it finds with its 1st, 2nd, ... guess (``Stats.depth_counts``).
Two trees for the same game compare well as grouped bars of those counts: an
optimal expected-case tree moves secrets to the left, an optimal worst-case one
cuts the right tail. The tables of optimal values (``results/optimal_table.json``)
are drawn as t* and the average number of guesses against the number of colours,
one line per number of pegs.

matplotlib is imported only here, through its object-oriented API (no pyplot, no
display needed); without it :class:`~optimal_mm.errors.MissingDependencyError`
says what to install. Figures are written atomically (PNG, SVG or PDF by the
file's extension).
"""

from __future__ import annotations

import io
from pathlib import Path

from .errors import InvalidOptionError, MissingDependencyError
from .tree import Strategy, atomic_write_bytes

FORMATS = ("png", "svg", "pdf")


def _figure(width: float = 7.0, height: float = 4.2):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependencyError(
            "plots need matplotlib: pip install 'optimal_mm[plot]' (or 'matplotlib>=3.7')"
        ) from None
    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def chart_format(path) -> str:
    """``"png"``, ``"svg"`` or ``"pdf"`` from the extension of ``path``; raises
    :class:`InvalidOptionError` quoting any other."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InvalidOptionError(f"cannot write a chart to {str(path)!r}: give a file ending "
                                 f"in {', '.join('.' + f for f in FORMATS)}")
    return suffix


def save_figure(figure, path) -> None:
    """Write ``figure`` to ``path`` atomically, in the format its extension names."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=chart_format(path))
    atomic_write_bytes(path, buffer.getvalue())


def depth_figure(series: dict, title: str):
    """Grouped bars: for each label of ``series`` (label -> :class:`~optimal_mm.tree.Stats`), the
    number of secrets found with each guess, its total and average in the legend."""
    figure = _figure(7.0 if len(series) == 1 else 10.5)
    ax = figure.add_subplot()
    depth = max(len(stats.depth_counts) for stats in series.values())
    width = 0.8 / len(series)
    for k, (label, stats) in enumerate(series.items()):
        counts = list(stats.depth_counts) + [0] * (depth - len(stats.depth_counts))
        xs = [d + 1 + (k - (len(series) - 1) / 2) * width for d in range(depth)]
        bars = ax.bar(xs, counts, width,
                      label=f"{label}: total {stats.total}, average {stats.average:.4f}")
        if len(series) == 1:
            ax.bar_label(bars, [str(c) if c else "" for c in counts], fontsize=8)
    ax.set_xticks(range(1, depth + 1))
    ax.set_xlabel("guesses needed")
    ax.set_ylabel("secrets")
    ax.set_title(title)
    if len(series) == 1:
        ax.legend(fontsize=8)
    else:  # beside the axes: many bars leave no free corner
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="y", alpha=0.3)
    return figure


def tree_figure(strategy: Strategy):
    """The distribution of guesses per secret of one tree (``optimal-mm plot``)."""
    stats = strategy.validate()
    proven = ", proven optimal" if strategy.optimal else ""
    title = (f"{strategy.game.name} ({strategy.game.spec}, {stats.secrets} secrets): "
             f"{strategy.objective}{proven}")
    return depth_figure({f"first guess {strategy.root.guess}": stats}, title)


def table_figure(entries: dict, guesses: str = "any"):
    """t* and the optimal average against colours, one line per number of pegs,
    from the ``entries`` of ``results/optimal_table.json`` (repeats allowed,
    black-white scoring: the ``pPcC`` games); solved entries only."""
    import re

    spec_re = re.compile(r"^p(\d+)c(\d+)$")
    points: dict = {}
    for entry in entries.values():
        match = spec_re.match(entry["spec"])
        if not match or entry["guesses"] != guesses or entry["status"] != "solved":
            continue
        pegs, colours = int(match.group(1)), int(match.group(2))
        value = entry["value"] if entry["objective"] == "worst-case" else \
            entry["value"] / entry["codes"]
        points.setdefault((entry["objective"], pegs), {})[colours] = value
    if not points:
        raise InvalidOptionError(f"no solved pPcC entry with {guesses} guesses in the table")
    figure = _figure(10.0, 4.2)
    panels = (("worst-case", "t* (fewest guesses that always suffice)"),
              ("expected", "optimal average number of guesses"))
    for i, (objective, label) in enumerate(panels):
        ax = figure.add_subplot(1, 2, i + 1)
        all_pegs = sorted({p for o, p in points if o == objective})
        for pegs in all_pegs:
            row = sorted(points[(objective, pegs)].items())
            # t* is a whole number and lines of several pegs coincide: shift each
            # slightly so that every one stays visible.
            shift = 0.0 if objective == "expected" else 0.05 * (pegs - all_pegs[0])
            ax.plot([c for c, _ in row], [v + shift for _, v in row], marker="o",
                    label=f"{pegs} pegs")
        ax.set_xlabel("colours")
        ax.set_ylabel(label)
        if objective == "worst-case":
            ax.yaxis.get_major_locator().set_params(integer=True)
            ax.set_ylabel(label + "\n(each line shifted up 0.05 per peg to stay visible)")
        ax.set_title(f"{objective}, {guesses} guesses")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    return figure
