"""The cells of the optimal table and the rules that relate them.

``results/optimal_table.json`` holds one *entry* per cell: a game (``spec``), a
guess rule (``any`` or ``consistent``) and an objective, keyed
``spec/guesses/objective`` (``p4c8nb/any/fewest-at-worst``). An entry is ``solved``
(its ``value`` proven), ``timeout`` (what its searches had proven when stopped: a
lower ``bound`` and the ``best`` tree found, each a proof on its own) or ``error``.

The functions here read entries and never search or write:

* which cells the table holds: :func:`games` (every game up to a size),
  :data:`OBJECTIVES`, :func:`eligible` (a capped objective needs its worst case
  solved first);
* what a cell is checked against: :func:`published` (the literature's values);
* what a run's result leaves in a cell: :func:`merged_entry` (the bounds of all
  its runs, :func:`merge_bounds`; an error never wipes a proof);
* what the other cells and the shipped trees give an open cell before its search
  starts: a lower bound (:func:`floor_for`, with the optimal tree of
  :func:`floor_tree`), the cap of the capped objectives (:func:`cap_for`), and the
  best tree known (:func:`ceiling_for`).

``scripts/optimal_tables.py`` runs the cells, :mod:`table_store` keeps them on disk
and :mod:`table_page` renders them; ``scripts/open_cells.py`` and
``scripts/upper_trees.py`` read them through these functions too.
"""

from __future__ import annotations

import math
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
#: Optimal trees of solved entries, named as their checkpoints (:func:`checkpoint_dir`;
#: ``scripts/make_trees.py`` makes them from those): an entry whose floor
#: (:func:`floor_for`) is one of them takes its parts' bounds too.
FLOOR_TREES = RESULTS / "trees"

# Published values (shared/REFERENCE.md), black-white scoring, any guesses.
GODDARD_TOTALS = {
    (2, 2): 8, (2, 3): 21, (2, 4): 45, (2, 5): 81, (3, 2): 18, (3, 3): 73, (3, 4): 206,
    (3, 5): 451, (4, 2): 44, (4, 3): 246, (4, 4): 905, (4, 5): 2463, (5, 2): 97, (5, 3): 816,
    (6, 2): 224, (7, 2): 496,
}


def published(spec: str, pegs: int, colours: int, repeats: bool, scoring: str, guesses: str,
              objective: str):
    """The published value for this entry and its source, or (None, None)."""
    if scoring != "black-white":
        return None, None
    if guesses == "consistent":
        if objective == "expected" and spec in ("p4c6", "p3c5"):
            return {"p4c6": 5660, "p3c5": 455}[spec], "Super Master Mind, optimal strategy page"
        return None, None
    if objective == "fewest-at-worst":
        return None, None
    if objective == "worst-then-expected":
        if spec == "p4c8":  # the tree of its solution-4-8-* file capped at 6 guesses
            return 20473, "arfst23/Mastermind 2023"
        return (5626, "Koyama and Lai 1993") if spec == "p4c6" else (None, None)
    if objective == "expected":
        if spec in ("p4c8", "p4c8n"):  # totals of the trees in its solution-4-8-* files
            return {"p4c8": 20471, "p4c8n": 7817}[spec], "arfst23/Mastermind 2023"
        if repeats and (pegs, colours) in GODDARD_TOTALS:
            return GODDARD_TOTALS[(pegs, colours)], "Goddard 2003/2004"
        if spec == "p4c6":
            return 5625, "Koyama and Lai 1993"
        if spec == "p4c7":
            return 11228, "Ville 2013"
        if spec == "p4c10n":
            return 26274, "Tanaka 1996"
        return None, None
    if spec == "p4c6":
        return 5, "Knuth 1977"
    if spec == "p4c10n":
        return 7, "Jager and Peczarski 2015"
    if spec == "p4c7":
        return 6, "Jager and Peczarski 2009"
    if spec == "p4c5":
        return 5, "Jager and Peczarski 2009"
    if repeats and pegs == 2:
        return colours // 2 + 2, "Goddard 2004"
    if repeats and pegs == 3 and colours >= 5:
        return (colours - 1) // 3 + 4, "Jager and Peczarski 2009"
    return None, None


def games(max_codes: int):
    out = []
    for pegs in range(2, 9):
        for colours in range(2, 11):
            for repeats in (True, False):
                n = colours**pegs if repeats else (math.perm(colours, pegs)
                                                    if pegs <= colours else 0)
                if not 0 < n <= max_codes:
                    continue
                for black in (False, True):
                    spec = f"p{pegs}c{colours}" + ("" if repeats else "n") + ("b" if black else "")
                    out.append((n, spec))
    out.sort()
    return [spec for _, spec in out]


#: The objectives of the table, each with the columns it fills.
OBJECTIVES = ("worst-case", "expected", "fewest-at-worst", "worst-then-expected")


def eligible(entries, spec, guesses, objective) -> bool:
    """Whether the entry belongs in the table: ``fewest-at-worst`` needs the worst
    case solved, ``worst-then-expected`` an optimal expected tree that needs more than
    ``t*`` guesses (else the capped optimum is the total itself)."""
    if objective in ("worst-case", "expected"):
        return True
    wc = entries.get(f"{spec}/{guesses}/worst-case")
    if not wc or wc["status"] != "solved":
        return False
    if objective == "fewest-at-worst":
        return True
    ex = entries.get(f"{spec}/{guesses}/expected")
    return bool(ex and ex["status"] == "solved" and ex["tree_max"] > wc["value"])


def checkpoint_dir(root, spec, guesses, objective) -> str:
    """Where ``--checkpoint root`` keeps the finished tasks of one entry: the name
    ``scripts/make_trees.py`` gives a tree of the same search named by its spec
    (``p5c8n-worst-case``, ``p4c7-expected-consistent``), so that the tree and the
    table entry share one run."""
    return str(Path(root) / (f"{spec}-{objective}"
                             + ("-consistent" if guesses == "consistent" else "")))


def merge_bounds(old, new) -> dict:
    """The bounds of two runs of one entry, each a proof on its own: the greater lower
    bound and the lesser upper bound (``None`` where neither run had one)."""
    out = {}
    for key, pick in (("bound", max), ("best", min)):
        known = [e[key] for e in (old or {}, new) if e.get(key) is not None]
        out[key] = pick(known) if known else None
    return out


def keep_proofs(old, result) -> dict:
    """A timed-out ``result`` with what an earlier timeout of its entry (``old``) had
    proven: the best bounds of both (:func:`merge_bounds`) and the longer time, since
    the cell says "not solved in more than so many seconds"."""
    result = dict(result)
    old = old if old and old["status"] == "timeout" else None
    result.update({k: v for k, v in merge_bounds(old, result).items() if v is not None})
    if old:
        result["seconds"] = max(result["seconds"], old["seconds"])
    return result


def merged_entry(old, result) -> dict:
    """The entry a finished run's ``result`` leaves in the table over the entry ``old``:
    a timeout keeps what an earlier timeout had proven (:func:`keep_proofs`); an
    error (a worker lost: killed, out of memory) leaves a timed-out or solved entry as
    it was, since it proves nothing and its proofs still hold (the run's finished
    tasks are in its checkpoint), where it once wiped a cell's bounds. A run stopped
    before its limit (``"stopped"``, :meth:`optimal_tables.Entry.halt`) leaves a solved entry as it
    was too (a ``--redo`` cut short), and counts as a timeout elsewhere."""
    if result.get("stopped") and old and old["status"] == "solved":
        return dict(old)
    if result["status"] == "timeout":
        return keep_proofs(old, result)
    if result["status"] == "error" and old and old["status"] in ("timeout", "solved"):
        return dict(old)
    return result


def floor_checkpoint(root, floor_key: str, guesses: str) -> str | None:
    """The checkpoint directory under ``root`` of the entry ``floor_key`` that bounds
    an entry of ``guesses`` from below (:func:`floor_for`), where it has one under the
    same guess rule: that search's answers bound the capped entry's rivals
    (``optimal_mm.search.LowerBound.checkpoint``), and price those left in its report.

    >>> floor_checkpoint("/nowhere", "p4c6/any/expected", "any") is None
    True
    """
    spec, f_guesses, objective = floor_key.split("/")
    folder = checkpoint_dir(root, spec, f_guesses, objective)
    return folder if f_guesses == guesses and Path(folder).is_dir() else None


def floor_for(entries, spec, guesses, objective):
    """``(value, key)``: the best lower bound on the total of an entry that another
    solved entry proves (``key``), or None. A tree within t* guesses is a tree, so
    the capped total (``worst-then-expected``) is at least the optimum without the
    cap; a strategy of consistent guesses is one of any guesses, so the consistent
    optimum is at least the any-guess one (for the capped total, where both rules
    have the same t*, the cap of both). The entry's search stops as soon as its tree
    meets it (:class:`optimal_mm.search.LowerBound`): p4c9nb's capped total with
    consistent guesses, whose part of 1,909 secrets had a rival second guess
    meeting it, was left to prove its other rivals no better for hours.

    >>> entries = {"p4c6/any/expected": {"status": "solved", "value": 5625}}
    >>> floor_for(entries, "p4c6", "any", "worst-then-expected")
    (5625, 'p4c6/any/expected')
    >>> floor_for(entries, "p4c6", "consistent", "expected")
    (5625, 'p4c6/any/expected')
    >>> floor_for(entries, "p4c6", "any", "expected") is None
    True
    """
    keys = []
    if objective == "worst-then-expected":
        keys.append(f"{spec}/{guesses}/expected")
    if guesses == "consistent" and objective in ("expected", "worst-then-expected"):
        twin = {"status": "solved", "objective": objective, "spec": spec, "guesses": "any"}
        if objective == "expected" or same_worst_case(entries, dict(twin, guesses=guesses), twin):
            keys.append(f"{spec}/any/{objective}")
    found = [(entries[k]["value"], k) for k in keys
             if entries.get(k, {}).get("status") == "solved"]
    return max(found, default=None, key=lambda vk: vk[0])


def same_worst_case(entries, entry, twin) -> bool:
    """Whether two entries of one game have the same optimal worst case, solved for
    both (the cap of their capped searches); a twin from the same game under the
    other scoring (:func:`table_page.same_game`) is looked up under its own spec."""
    caps = [entries.get(f"{e['spec']}/{e['guesses']}/worst-case", {}) for e in (entry, twin)]
    return (all(c.get("status") == "solved" for c in caps)
            and caps[0]["value"] == caps[1]["value"])


def cap_for(entries, spec, guesses, objective):
    """``(t*, key)``: the cap a ``fewest-at-worst`` entry runs under, its worst-case
    entry's optimum, or None. The search then skips the worst case (400 s of every
    run of p4c10nb's before its first expected task) and proves ``t*`` again on its
    way: one secret or more at the cap in its best tree means that no tree stays
    within ``t* - 1`` (:meth:`optimal_mm.search.Solver.fewest_at_worst`); a result of
    0 would show the worst-case entry wrong, and is refused (:func:`optimal_tables._worker`).

    >>> entries = {"p4c6/any/worst-case": {"status": "solved", "value": 5}}
    >>> cap_for(entries, "p4c6", "any", "fewest-at-worst")
    (5, 'p4c6/any/worst-case')
    >>> cap_for(entries, "p4c6", "consistent", "fewest-at-worst") is None
    True
    >>> cap_for(entries, "p4c6", "any", "worst-then-expected") is None
    True
    """
    wc = entries.get(f"{spec}/{guesses}/worst-case", {})
    if objective != "fewest-at-worst" or wc.get("status") != "solved":
        return None
    return wc["value"], f"{spec}/{guesses}/worst-case"


def ceiling_for(entries, spec, guesses, objective, folder: Path = FLOOR_TREES):
    """``(path, figure)``: the tree of ``results/trees`` (and its ``upper/`` and
    ``within/``) that bounds the entry best from above, and what it gives the table
    (the total; for ``fewest-at-worst`` the secrets at the cap), or None. The search
    starts from it as its best so far (:class:`optimal_mm.search.UpperBound`): a run
    stopped before its own first complete tree still bounds the cell (p6c7nb's fewest
    at 8 and p5c6b's total within 9 ran 20 and 15 minutes and left none, though a
    tree within the cap was in ``within/``). A candidate is any tree file named
    after the game that replays under the entry's guess rule within its cap (the
    worst-case entry's ``t*``, which the capped objectives need solved): an earlier
    run's best so far (``upper/``), a tree within ``t*`` (``within/``, the worst
    case's), a tree of another objective; the least cost wins (ties: the first by
    name). Nothing is searched: each candidate is only replayed.

    >>> ceiling_for({}, "p4c6", "any", "fewest-at-worst") is None  # t* not solved
    True
    """
    from optimal_mm import Game, Strategy
    from optimal_mm.errors import OptimalMMError
    from optimal_mm.search import UpperBound, cap_weight
    from optimal_mm.search_costs import _tree_cost

    cap = None
    if objective != "expected":
        wc = entries.get(f"{spec}/{guesses}/worst-case", {})
        if wc.get("status") != "solved":
            return None
        cap = wc["value"]
    game = Game.from_spec(spec)
    weight = cap_weight(game, cap) if objective == "fewest-at-worst" else 0
    label = "fewest-at-worst" if weight else "expected"
    names = {f"{spec}-", f"{game.name}-"}
    found = []
    for path in sorted(p for sub in ("", "upper", "within")
                       for p in (folder / sub).glob("*.json.gz")
                       if any(p.name.startswith(n) for n in names)):
        try:
            tree = UpperBound(Strategy.load(path), str(path)).fitted(game, guesses, label,
                                                                      cap)
        except OptimalMMError:  # another game's, another rule's, beyond the cap
            continue
        cost = _tree_cost(tree.declared, cap, weight)
        found.append((cost, str(path), divmod(cost, weight)[0] if weight else cost))
    if not found:
        return None
    _, path, figure = min(found, key=lambda f: f[0])
    return path, figure


def floor_tree(key: str, value: int, folder: Path = FLOOR_TREES) -> str | None:
    """The path of the optimal tree of the solved expected-case entry ``key`` in
    ``folder`` (``p4c8nb-expected.json.gz``), or None if there is none; a tree whose
    total is not ``value``, the entry's proven optimum, is refused (ValueError): only
    a tree of that total is optimal, and only an optimal tree's subtrees bound its
    parts (a capped tree bounds none: the capped entries' keys give None)."""
    from optimal_mm import Strategy

    spec, guesses, objective = key.split("/")
    if objective != "expected":  # only a tree without a cap bounds the parts
        return None
    path = Path(checkpoint_dir(folder, spec, guesses, objective) + ".json.gz")
    if not path.exists():
        return None
    total = Strategy.load(path).validate().total
    if total != value:
        raise ValueError(f"{path}: its total {total} is not {key}'s optimum {value}")
    return str(path)


def shown(path) -> str:
    """A path as the table and the command lines name it: from the repository's root
    where it is inside (``scripts/upper_trees.py`` names its paths so too)."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def ceiling_record(ceiling) -> dict:
    """:func:`ceiling_for`'s ``(path, figure)`` as an entry records it (``ceiling``),
    solved or timed out: the tree its search started from and what it gives.

    >>> ceiling_record((str(ROOT / "results" / "trees" / "x.json.gz"), 7))
    {'tree': 'results/trees/x.json.gz', 'value': 7}
    """
    return {"tree": shown(ceiling[0]), "value": ceiling[1]}
