"""Strategy trees as graphs: networkx, Graphviz DOT, GraphML, and the JSON Schema.

A strategy tree is a rooted tree whose nodes are guesses and whose edges are
answers, so every graph format can hold it. The conversions come in a pair,
:func:`to_networkx` and :func:`from_networkx`, and the round trip gives back the
same tree: each graph node carries its ``guess`` (plus ``depth`` and ``secrets``,
the number of secrets reaching it, for display), each edge its ``answer`` key,
and the graph itself the game and rules as plain scalars, so that even a GraphML
file read back by networkx rebuilds the strategy.

The DOT text is written by :func:`to_dot` itself (no Graphviz needed to produce
it); render it with ``dot -Tsvg tree.dot -o tree.svg``. Every file is written
atomically: a temporary file beside the target, renamed over it, so a failed or
interrupted export never leaves half a file.

:func:`strategy_schema` returns the JSON Schema (draft 2020-12) of the
interchange format, shipped as ``optimal_mm/strategy.schema.json``.

>>> from optimal_mm import Game
>>> from optimal_mm.tree import grow
>>> game = Game.from_spec("p2c3")
>>> strategy = Strategy(game, grow(game, lambda secrets, depth: int(secrets[0])))
>>> graph = to_networkx(strategy)
>>> graph.nodes[0]
{'guess': '11', 'depth': 1, 'secrets': 9}
>>> from_networkx(graph).root == strategy.root
True
"""

from __future__ import annotations

import io
import json
import os
from importlib import resources

from .errors import InvalidGameError, InvalidTreeError
from .game import Game
from .render import iter_visits
from .tree import GUESS_RULES, Node, Strategy, atomic_write_bytes, atomic_write_text

#: Graph attributes that :func:`to_networkx` sets and :func:`from_networkx` reads.
GAME_KEYS = ("pegs", "colours", "repeats", "scoring", "alphabet")


# ------------------------------------------------------------------- networkx
def to_networkx(strategy: Strategy):
    """The tree as a :class:`networkx.DiGraph`, edges pointing from parent to child.

    The strategy is validated first (a broken tree is refused rather than drawn).

    Parameters
    ----------
    strategy : Strategy

    Returns
    -------
    networkx.DiGraph
        Nodes are the integers ``0..n-1`` in pre-order (0 is the root), with
        attributes ``guess`` (str), ``depth`` (int, 1 at the root) and ``secrets``
        (int, how many secrets reach the node). Edges have the attribute ``answer``
        (the format's key, ``"1B2W"``). ``graph.graph`` holds the game
        (``pegs``, ``colours``, ``repeats``, ``scoring``, ``alphabet``) and the rules
        (``guesses``, ``objective``, ``optimal``, and ``max_guesses`` when set), all
        scalars so that GraphML can store them.

    Raises
    ------
    InvalidTreeError
        If the strategy fails replay.
    """
    strategy.validate()
    return _to_networkx(strategy)


def _to_networkx(strategy: Strategy):
    import networkx as nx

    graph = nx.DiGraph()
    graph.graph.update(strategy.game.to_dict())
    graph.graph.update(guesses=strategy.guesses, objective=strategy.objective,
                       optimal=bool(strategy.optimal))
    if strategy.max_guesses is not None:
        graph.graph["max_guesses"] = strategy.max_guesses
    for v in iter_visits(strategy):
        graph.add_node(v.id, guess=v.node.guess, depth=v.depth, secrets=v.reached)
        if v.parent is not None:
            graph.add_edge(v.parent, v.id, answer=v.answer)
    return graph


def from_networkx(graph, game: Game | None = None, guesses: str | None = None,
                  objective: str | None = None, max_guesses: int | None = None,
                  optimal: bool | None = None, meta: dict | None = None,
                  validate: bool = True) -> Strategy:
    """Rebuild a strategy from a directed tree such as :func:`to_networkx` makes.

    Only the ``guess`` node attribute and the ``answer`` edge attribute are used
    (``depth`` and ``secrets`` are recomputed by replay); node names may be
    anything hashable, so a graph read back from GraphML (string names) works.

    Parameters
    ----------
    graph : networkx.DiGraph
        A tree: exactly one node without parent, every other node with exactly
        one, all reachable from the root, and distinct answers on the edges
        leaving a node.
    game : Game, optional
        Defaults to the game described by the graph attributes
        (:data:`GAME_KEYS`).
    guesses, objective, max_guesses, optimal : optional
        The rules; each defaults to the graph attribute of the same name, then to
        ``"any"``, ``"expected"``, None and False.
    meta : dict, optional
        Provenance to attach.
    validate : bool
        Replay the result (default), raising on a broken tree.

    Returns
    -------
    Strategy

    Raises
    ------
    InvalidTreeError
        If the graph is not such a tree, lacks attributes, names no usable game,
        or (with ``validate``) fails replay.
    """
    import networkx as nx

    if not isinstance(graph, nx.DiGraph) or graph.is_multigraph():
        raise InvalidTreeError(f"expected a networkx DiGraph, got {type(graph).__name__}")
    attrs = graph.graph
    if game is None:
        missing = [k for k in GAME_KEYS[:4] if k not in attrs]
        if missing:
            raise InvalidTreeError(
                f"no game given and the graph lacks the attribute(s) {missing}")
        try:
            game = Game.from_dict({k: attrs[k] for k in GAME_KEYS if k in attrs})
        except InvalidGameError as exc:
            raise InvalidTreeError(f"bad game in graph attributes: {exc}") from None
    guesses = guesses if guesses is not None else attrs.get("guesses", "any")
    if guesses not in GUESS_RULES:
        raise InvalidTreeError(f"'guesses' must be one of {GUESS_RULES}, got {guesses!r}")
    objective = objective if objective is not None else attrs.get("objective", "expected")
    if max_guesses is None:
        max_guesses = attrs.get("max_guesses")
    optimal = optimal if optimal is not None else bool(attrs.get("optimal", False))
    strategy = Strategy(game, _tree_from_graph(graph), guesses, str(objective), max_guesses,
                        optimal, None, dict(meta or {}))
    if validate:
        strategy.validate()
    return strategy


def _tree_from_graph(graph) -> Node:
    roots = [n for n in graph.nodes if graph.in_degree(n) == 0]
    if len(roots) != 1:
        raise InvalidTreeError(f"a strategy graph needs exactly one root, found {len(roots)}")
    for n in graph.nodes:
        if graph.in_degree(n) > 1:
            raise InvalidTreeError(f"graph node {n!r} has {graph.in_degree(n)} parents")
    built: dict = {}
    stack = [roots[0]]
    while stack:
        name = stack.pop()
        guess = graph.nodes[name].get("guess")
        if not isinstance(guess, str):
            raise InvalidTreeError(f"graph node {name!r} has no string 'guess' attribute")
        node = built[name] = Node(guess)
        stack.extend(child for _, child in graph.out_edges(name))
        if name != roots[0]:
            (parent, _, data), = graph.in_edges(name, data=True)
            answer = data.get("answer")
            if not isinstance(answer, str):
                raise InvalidTreeError(
                    f"graph edge {parent!r} -> {name!r} has no string 'answer' attribute")
            if answer in built[parent].next:
                raise InvalidTreeError(f"graph node {parent!r} has two {answer!r} branches")
            built[parent].next[answer] = node
    if len(built) != graph.number_of_nodes():
        # One root, one parent each, yet not all reached: the rest form cycles.
        raise InvalidTreeError(
            f"{graph.number_of_nodes() - len(built)} graph node(s) are not reachable "
            f"from the root")
    return built[roots[0]]


# ------------------------------------------------------------------------ DOT
def to_dot(strategy: Strategy) -> str:
    """Graphviz DOT text of the tree (validated first).

    One box per node labelled with its guess and the number of secrets reaching
    it, one arrow per branch labelled with the answer key; nodes where the guess
    is the last remaining secret are drawn with a double border. Every identifier
    and label is a quoted DOT string, so any alphabet is safe.

    Parameters
    ----------
    strategy : Strategy

    Returns
    -------
    str
        A ``digraph`` ending with a newline.

    Raises
    ------
    InvalidTreeError
        If the strategy fails replay.

    Examples
    --------
    >>> from optimal_mm import Game
    >>> from optimal_mm.tree import grow
    >>> game = Game.from_spec("p1c2")
    >>> print(to_dot(Strategy(game, grow(game, lambda secrets, depth: int(secrets[0])))), end="")
    digraph "strategy" {
      graph [label="p1c2 (guesses any, objective expected): 2 secrets, total 3, max 2 (for 1 secret)", labelloc="t"];
      node [shape="box", fontname="monospace"];
      edge [fontname="monospace"];
      "n0" [label="1\\n2 secrets"];
      "n1" [label="2\\n1 secret", peripheries="2"];
      "n0" -> "n1" [label="0B0W"];
    }
    """  # noqa: E501 (a doctest's output line)
    stats = strategy.validate()
    return _to_dot(strategy, stats)


def _quote(text: str) -> str:
    r"""A DOT quoted string; for labels ``\`` must be doubled (Graphviz reads ``\n``, ``\l``)."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _to_dot(strategy: Strategy, stats) -> str:
    title = (f"{strategy.game.name} (guesses {strategy.guesses}, objective "
             f"{strategy.objective}): {stats.secrets} secrets, total {stats.total}, "
             f"max {stats.max} (for {stats.at_worst_text})")
    lines = ['digraph "strategy" {',
             f"  graph [label={_quote(title)}, labelloc=\"t\"];",
             '  node [shape="box", fontname="monospace"];',
             '  edge [fontname="monospace"];']
    edges = []
    for v in iter_visits(strategy):
        noun = "secret" if v.reached == 1 else "secrets"
        # The label text holds a real newline; _quote turns it into DOT's \n.
        label = _quote(f"{v.node.guess}\n{v.reached} {noun}")
        extra = ', peripheries="2"' if not v.node.next else ""
        lines.append(f'  "n{v.id}" [label={label}{extra}];')
        if v.parent is not None:
            edges.append(f'  "n{v.parent}" -> "n{v.id}" [label={_quote(v.answer)}];')
    return "\n".join(lines + edges + ["}"]) + "\n"


# --------------------------------------------------------------------- files
def write_dot(strategy: Strategy, path: "str | os.PathLike") -> None:
    """Write :func:`to_dot` to ``path`` atomically (UTF-8)."""
    atomic_write_text(path, to_dot(strategy))


def write_graphml(strategy: Strategy, path: "str | os.PathLike") -> None:
    """Write :func:`to_networkx` as GraphML to ``path`` atomically.

    ``networkx.read_graphml(path)`` reads it back (node names become strings), and
    :func:`from_networkx` rebuilds the strategy from that graph.
    """
    import networkx as nx

    buffer = io.BytesIO()
    nx.write_graphml(to_networkx(strategy), buffer, encoding="utf-8")
    atomic_write_bytes(path, buffer.getvalue())


# -------------------------------------------------------------------- schema
def strategy_schema() -> dict:
    """The JSON Schema (draft 2020-12) of the strategy-tree format, as a dict.

    It checks the shape: required fields, types, the ``game`` object, answer keys
    (``"{b}B{w}W"`` or, for black-only scoring, ``"{b}B"``) and the recursive node.
    What a schema cannot say (codes over the game's alphabet, branches matching
    replay, stats equal to replay) is checked by :meth:`Strategy.validate`.

    >>> strategy_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("optimal_mm").joinpath("strategy.schema.json").read_text("utf-8")
    return json.loads(text)
