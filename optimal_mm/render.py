"""Human-readable views of a strategy tree.

A strategy tree answers one question at every node: *which guess now?* Reading it
needs three things per node: the guess, the answer that led there, and how many
secrets are still possible when you get there. Only the last one is not stored in
the file: it comes from replaying the secrets down the tree, exactly as
:meth:`~optimal_mm.tree.Strategy.validate` does, and :func:`iter_visits` does
that walk once for every view (this text view, and the graph exports of
:mod:`optimal_mm.export`).

The text view indents one level per guess::

    11  (9 secrets)
      0B0W -> 22  (4 secrets)
        0B0W -> 33  (1 secret)
        1B0W -> 23  (2 secrets)
          0B2W -> 32  (1 secret)
      1B0W -> 12  (4 secrets)
        ...

(p2c3: play 11; on no peg at all play 22; and so on.)

A ``depth`` limit keeps big trees readable: nodes below it are replaced by one
marker line per cut branch saying how many nodes it hides, and a last line gives
the total.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InvalidCodeError, InvalidGameError, InvalidTreeError, OptimalMMError
from .tree import Node, Strategy, answer_from_key


def escape_control(text: str) -> str:
    r"""``text`` with control characters (terminal escapes, newlines) written as escapes.

    Whatever a file holds (an ``objective``, an alphabet, meta) is printed through
    this, so a tree cannot drive the terminal or fake extra output lines.

    >>> escape_control("knuth\x1b[2J\nOK")
    'knuth\\x1b[2J\\nOK'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


@dataclass(frozen=True)
class Visit:
    """One node met by :func:`iter_visits`.

    Attributes
    ----------
    id : int
        Position in pre-order (the root is 0); stable for a given tree.
    parent : int or None
        ``id`` of the parent node, None for the root.
    answer : str or None
        The answer key on the branch from the parent (``"1B2W"``), None for the root.
    node : Node
        The node itself.
    depth : int
        Number of the guess this node plays: 1 at the root.
    reached : int
        Number of secrets for which replay reaches this node.
    """

    id: int
    parent: int | None
    answer: str | None
    node: Node
    depth: int
    reached: int


def iter_visits(strategy: Strategy):
    """Walk the tree in pre-order (branches by sorted answer key), counting secrets.

    Every possible secret starts at the root and follows the branch of its answer,
    as in replay; a node's ``reached`` count is how many arrive. The walk does not
    demand a valid tree: a branch no secret takes gets ``reached == 0`` and a
    missing branch simply loses its secrets (:meth:`Strategy.validate` is the
    place that refuses such trees). Costs one scoring pass per node.

    Parameters
    ----------
    strategy : Strategy

    Yields
    ------
    Visit

    Raises
    ------
    InvalidTreeError
        For a guess that is not a legal code or a malformed answer key.

    Examples
    --------
    >>> from optimal_mm import Game
    >>> from optimal_mm.tree import grow
    >>> game = Game.from_spec("p2c3")
    >>> strategy = Strategy(game, grow(game, lambda secrets, depth: int(secrets[0])))
    >>> [(v.depth, v.answer, v.node.guess, v.reached) for v in iter_visits(strategy)][:3]
    [(1, None, '11', 9), (2, '0B0W', '22', 4), (3, '0B0W', '33', 1)]
    """
    game = strategy.game
    all_secrets = np.arange(game.n_codes, dtype=np.int64)
    stack = [(strategy.root, all_secrets, 1, None, None, "root")]
    next_id = 0
    while stack:
        node, secrets, depth, parent, answer, path = stack.pop()
        me = next_id
        next_id += 1
        yield Visit(me, parent, answer, node, depth, len(secrets))
        if not node.next:
            continue
        try:
            g = game.code_index(node.guess)
        except (InvalidCodeError, InvalidGameError) as exc:
            raise InvalidTreeError(f"{path}: illegal guess: {exc}") from None
        answers = game.answers(g, secrets) if len(secrets) else np.empty(0, np.uint8)
        children = []
        for key in sorted(node.next):
            a = answer_from_key(game, key, path)
            children.append((node.next[key], secrets[answers == a], depth + 1, me, key,
                             f"{path} > {node.guess} {key}"))
        stack.extend(reversed(children))


def render_text(strategy: Strategy, depth: int | None = None) -> str:
    """An indented text view of the tree, optionally cut below ``depth`` levels.

    Each line shows one node: the answer key that leads to it (none at the root),
    its guess, and how many secrets reach it. Children are indented by two spaces
    under their parent and sorted by answer key. A node whose guess is the last
    remaining secret has no children: its line ends the branch.

    Parameters
    ----------
    strategy : Strategy
        The tree to show; it need not be valid (see :func:`iter_visits`).
    depth : int, optional
        Show only the first ``depth`` levels (the root is level 1). Each node whose
        children are cut gets a marker line ``... N nodes hidden``, and a final line
        gives the total. None (the default) shows everything.

    Returns
    -------
    str
        The text, one node per line, ending with a newline.

    Raises
    ------
    OptimalMMError
        If ``depth`` is not a positive integer.
    InvalidTreeError
        For a guess that is not a legal code or a malformed answer key.

    Examples
    --------
    >>> from optimal_mm import Game
    >>> from optimal_mm.tree import grow
    >>> game = Game.from_spec("p2c3")
    >>> strategy = Strategy(game, grow(game, lambda secrets, depth: int(secrets[0])))
    >>> print(render_text(strategy, depth=2), end="")
    11  (9 secrets)
      0B0W -> 22  (4 secrets)
        ... 3 nodes hidden
      1B0W -> 12  (4 secrets)
        ... 3 nodes hidden
    (6 nodes hidden below depth 2)
    """
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool)
                              or depth < 1):
        raise OptimalMMError(f"depth must be a positive integer or None, got {depth!r}")
    return _render(strategy, depth)


def _render(strategy: Strategy, depth: int | None) -> str:
    lines: list[str] = []
    hidden_total = 0
    # Pre-order puts every hidden node right after the last shown node at level
    # ``depth``, its ancestor: counting the run until the next shown node suffices.
    run = 0

    def end_run():
        if run:
            noun = "node" if run == 1 else "nodes"
            lines.append(f"{'  ' * depth}... {run} {noun} hidden")

    for v in iter_visits(strategy):
        if depth is not None and v.depth > depth:
            run += 1
            hidden_total += 1
            continue
        end_run()
        run = 0
        noun = "secret" if v.reached == 1 else "secrets"
        head = v.node.guess if v.answer is None else f"{v.answer} -> {v.node.guess}"
        lines.append(f"{'  ' * (v.depth - 1)}{head}  ({v.reached} {noun})")
    end_run()
    if hidden_total:
        noun = "node" if hidden_total == 1 else "nodes"
        lines.append(f"({hidden_total} {noun} hidden below depth {depth})")
    return "\n".join(lines) + "\n"
