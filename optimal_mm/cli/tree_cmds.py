"""Commands on strategy-tree files: ``verify``, ``show``, ``export`` and ``plot``.

All four read a ``.json`` or ``.json.gz`` tree in the format of
``docs/FORMAT.md`` and replay it before doing anything else, so a broken file is
refused with one line naming its first defect (exit status 2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import OptimalMMError
from ..outputs import check_output_path, is_stdout
from ..render import escape_control
from ..tree import Strategy, load_verified
from . import at_least

EXPORT_FORMATS = {"dot": (".dot", ".gv"), "graphml": (".graphml",)}


def register(sub) -> None:
    """Add ``verify``, ``show`` and ``export`` to the parser."""
    p = sub.add_parser(
        "verify", help="replay every secret through a strategy tree file",
        description="Load a strategy tree (.json or .json.gz), replay every possible secret "
                    "through it, and check the declared stats. Prints the game, the rules, "
                    "the objective and the stats; exits 0 only when the tree is valid and "
                    "its stats match, otherwise prints one line naming the first defect "
                    "(missing or unreachable branch, illegal or inconsistent guess, stats "
                    "mismatch, wrong format or version, unreadable file) and exits 2.")
    p.add_argument("file", metavar="FILE", help="strategy tree (.json or .json.gz)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser(
        "show", help="print a strategy tree as indented text",
        description="Print a verified strategy tree, one node per line: the answer that "
                    "leads to it, its guess and the number of secrets that reach it, "
                    "indented two spaces per level.")
    p.add_argument("file", metavar="FILE", help="strategy tree (.json or .json.gz)")
    p.add_argument("--depth", "-d", metavar="D", type=at_least(1), default=None,
                   help="show only the first D levels (the root is level 1); cut branches "
                        "say how many nodes they hide (default: everything)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "export", help="convert a strategy tree to Graphviz DOT or GraphML",
        description="Verify a strategy tree, then write it as Graphviz DOT (render with "
                    "'dot -Tsvg OUT -o tree.svg') or GraphML (readable by networkx, yEd, "
                    "Gephi). OUT is written atomically: it is never left half-written.")
    p.add_argument("file", metavar="FILE", help="strategy tree (.json or .json.gz)")
    p.add_argument("--to", "-t", choices=sorted(EXPORT_FORMATS), default=None,
                   help="output format (default: from the extension of OUT: .dot/.gv or "
                        ".graphml)")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="file to write (checked before the tree is read); '-' for standard "
                        "output, with --to")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "plot", help="chart the distribution of guesses per secret of a tree",
        description="Verify a strategy tree, then draw how many secrets it finds with its "
                    "1st, 2nd, ... guess, as a bar chart (PNG, SVG or PDF by the extension "
                    "of OUT, written atomically). Needs matplotlib: pip install "
                    "'optimal_mm[plot]'.")
    p.add_argument("file", metavar="FILE", help="strategy tree (.json or .json.gz)")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="chart to write (.png, .svg or .pdf)")
    p.set_defaults(func=cmd_plot)


def _describe(strategy: Strategy) -> list[str]:
    game = strategy.game
    proof = "proved optimal" if strategy.optimal else "not proved optimal"
    cap = "none" if strategy.max_guesses is None else str(strategy.max_guesses)
    # Text from the file is escaped: a tree cannot drive the terminal.
    return [
        f"game: {game.name} ({game.pegs} pegs, {game.colours} colours, "
        f"{'repeats allowed' if game.repeats else 'no repeats'}, {game.scoring} scoring, "
        f"alphabet {escape_control(game.alphabet)})",
        f"rules: guesses {strategy.guesses}, max_guesses {cap}",
        f"objective: {escape_control(strategy.objective)} ({proof})",
    ]


def cmd_verify(args) -> int:
    strategy, stats = load_verified(args.file)
    for line in _describe(strategy):
        print(line)
    print(f"stats: {stats}")
    print(f"nodes: {strategy.root.count()}")
    print(f"OK: all {stats.secrets} secrets replay to a win and the declared stats match")
    return 0


def cmd_show(args) -> int:
    from ..render import render_text

    strategy, stats = load_verified(args.file)
    for line in _describe(strategy):
        print(line)
    print(f"stats: {stats}")
    print()
    print(escape_control_lines(render_text(strategy, args.depth)), end="")
    return 0


def cmd_export(args) -> int:
    from ..export import write_dot, write_graphml

    out = args.output
    if is_stdout(out):
        if args.to is None:
            raise OptimalMMError("-o - writes to standard output: say which format with "
                                 "--to dot or --to graphml")
        kind = args.to
    else:
        kind = args.to or _format_from_name(Path(out))
        check_output_path(out)
        if os.path.exists(out) and os.path.exists(args.file) and os.path.samefile(out,
                                                                                 args.file):
            raise OptimalMMError(f"output {out!r} would overwrite the input tree")
    strategy, _ = load_verified(args.file)
    (write_dot if kind == "dot" else write_graphml)(strategy, out)
    report = sys.stderr if is_stdout(out) else sys.stdout
    where = "standard output" if is_stdout(out) else out
    print(f"wrote {where} ({kind}, {strategy.root.count()} nodes)", file=report)
    return 0


def cmd_plot(args) -> int:
    from ..plot import chart_format, save_figure, tree_figure

    chart_format(args.output)
    check_output_path(args.output)
    strategy, stats = load_verified(args.file)
    save_figure(tree_figure(strategy), args.output)
    print(f"wrote {args.output} ({stats})")
    return 0


def escape_control_lines(text: str) -> str:
    """:func:`~optimal_mm.render.escape_control` on each line, keeping the line breaks."""
    return "\n".join(escape_control(line) for line in text.split("\n"))


def _format_from_name(out: Path) -> str:
    name = out.name.lower()
    for kind, suffixes in EXPORT_FORMATS.items():
        if name.endswith(suffixes):
            return kind
    raise OptimalMMError(
        f"cannot tell the format from {str(out)!r}: pass --to dot or --to graphml "
        f"(or name it .dot, .gv or .graphml)")
