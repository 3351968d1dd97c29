"""Move graphs as networkx graphs, Graphviz DOT and GraphML; value tables as JSON.

:func:`move_graph` collects every position reachable from a start, with one
edge per move, and labels each node with its value, whether the player to move
wins, and its remoteness. It is meant for small games (a few thousand
positions, :data:`MAX_GRAPH_POSITIONS`): the date game from ``start``, a card
position late in the game, Nim with small heaps. Nodes are named by the
positions in the game's notation, so a GraphML file read back by networkx
gives the same graph. :func:`to_dot` draws positions of value 0 (the player
to move loses) with a double border. Every file is written atomically with the
project's writer (:func:`optimal_mm.tree.atomic_write_text`).

>>> from optimal_mm.impartial import find_game
>>> graph = move_graph(find_game("subtraction", moves="1,2"), 3)
>>> sorted(graph.nodes(data="value"))
[('0', 0), ('1', 1), ('2', 2), ('3', 0)]
>>> graph.graph["root"], graph.number_of_edges()
('3', 5)
"""

from __future__ import annotations

import io
import json
import os
from collections import deque

from ..errors import InvalidOptionError, TooLargeError
from ..export import _quote as dot_quote
from ..tree import atomic_write_bytes, atomic_write_text
from .grundy import solver_for

#: Largest move graph exported.
MAX_GRAPH_POSITIONS = 5000
GRAPH_FORMATS = {".dot": "dot", ".gv": "dot", ".graphml": "graphml"}


def move_graph(game, position=None, misere: bool = False,
               max_positions: int = MAX_GRAPH_POSITIONS):
    """The move graph reachable from ``position`` (default the start) as a networkx DiGraph.

    Nodes are positions written in the game's notation, with attributes
    ``value`` (int), ``wins`` (bool: the player to move wins) and
    ``remoteness`` (int); edges are moves. ``graph.graph`` holds ``game``,
    ``root``, ``misere`` and the rules as a JSON string ``rules``.

    Raises
    ------
    TooLargeError
        If more than ``max_positions`` positions are reachable.
    """
    import networkx as nx

    if position is None:
        position = game.start()
    elif isinstance(position, str):
        position = game.parse(position)
    solver = solver_for(game, misere=misere)
    graph = nx.DiGraph(game=game.name, root=game.format(position), misere=misere,
                       rules=json.dumps(game.rules(), sort_keys=True))
    seen = {game.format(position): position}
    queue = deque([position])
    while queue:
        pos = queue.popleft()
        name = game.format(pos)
        value = solver.value(pos)
        graph.add_node(name, value=value, wins=value != 0, remoteness=solver.remoteness(pos))
        for child in game.moves(pos):
            child_name = game.format(child)
            if child_name not in seen:
                if len(seen) >= max_positions:
                    raise TooLargeError(
                        f"more than {max_positions} positions are reachable from "
                        f"{game.format(position)!r} of the {game.name} game; export a later "
                        f"position")
                seen[child_name] = child
                queue.append(child)
            graph.add_edge(name, child_name)
    return graph


def to_dot(graph) -> str:
    """Graphviz DOT text of a :func:`move_graph`: each node labelled with its position
    and value, positions of value 0 drawn with a double border."""
    title = f"{graph.graph['game']} from {graph.graph['root']}" \
            f"{' (misère)' if graph.graph.get('misere') else ''}"
    lines = ['digraph "moves" {',
             f'  graph [label={dot_quote(title)}, labelloc="t"];',
             '  node [shape="box", fontname="monospace"];']
    for name, data in graph.nodes(data=True):
        extra = ', peripheries="2"' if not data["wins"] else ""
        # The label holds a real newline; dot_quote turns it into DOT's \n.
        label = dot_quote(name + "\n" + f"SG {data['value']}")
        lines.append(f"  {dot_quote(name)} [label={label}{extra}];")
    lines += [f"  {dot_quote(a)} -> {dot_quote(b)};" for a, b in graph.edges()]
    return "\n".join(lines + ["}"]) + "\n"


def graph_format(path: "str | os.PathLike") -> str:
    """``dot`` or ``graphml`` from the file's extension; :class:`InvalidOptionError` otherwise."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in GRAPH_FORMATS:
        raise InvalidOptionError(f"cannot tell the graph format of {str(path)!r}: name it "
                                 f"{', '.join(GRAPH_FORMATS)}")
    return GRAPH_FORMATS[ext]


def write_graph(graph, path: "str | os.PathLike") -> None:
    """Write a :func:`move_graph` to ``path`` (DOT or GraphML by extension), atomically."""
    if graph_format(path) == "dot":
        atomic_write_text(path, to_dot(graph))
        return
    import networkx as nx

    buffer = io.BytesIO()
    nx.write_graphml(graph, buffer, encoding="utf-8")
    atomic_write_bytes(path, buffer.getvalue())


def to_json(doc) -> str:
    """``doc`` as JSON text, ending with a newline (non-ASCII kept: ``misère``)."""
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def write_json(doc, path: "str | os.PathLike") -> None:
    """Write ``doc`` (a table's :meth:`~optimal_mm.impartial.tables.ValueTable.to_dict`,
    a solution) as JSON to ``path``, atomically."""
    atomic_write_text(path, to_json(doc))
