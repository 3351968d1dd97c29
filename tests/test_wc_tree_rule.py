"""The worst-case tree rule (``Solver(wc_tree=...)``, ``optimal-mm solve --wc-tree``).

Once a part is proven feasible, its tree may pick each guess for a small total
(``"small-total"``, the default) or keep the guess the search itself found
(``"first"``). Checked here: both rules reach the same worst case with a tree that
replays every secret; a "first" tree keeps, at every node below a first guess, the
first guess in the search's order whose parts are all feasible (checked node by node
against the search); it depends neither on the transposition table's size nor on
whether big parts are split (the split searches second guesses in the same order);
a checkpoint's refutations serve the other rule while feasible parts get the rule's
own tree; bad values are refused.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from optimal_mm import Game, kernels
from optimal_mm.search import Solver, WC_TREE_RULES, worst_case_order
from optimal_mm.search_context import _context, _part_guesses


def _tree(spec, cap, rule, entries, guesses="any", **options):
    solver = Solver(Game.from_spec(spec), guesses=guesses, jobs=1, table_entries=entries,
                    wc_tree=rule, **options)
    return solver.worst_case(cap), solver


def _doc(solution):
    doc = solution.strategy.to_dict()
    doc.pop("meta")  # run time
    return doc


@pytest.mark.parametrize("spec, guesses, cap", [
    ("p4c6", "any", 5), ("p4c6", "consistent", 6), ("p4c5b", "any", 8), ("p3c6n", "any", 5),
])
def test_both_rules_reach_the_same_worst_case(spec, guesses, cap):
    small, _ = _tree(spec, None, "small-total", 11_000 + cap, guesses)
    first, _ = _tree(spec, None, "first", 12_000 + cap, guesses)
    assert first.value == small.value == cap
    for sol in (small, first):
        stats = sol.strategy.validate()  # replays every secret
        assert stats.secrets == Game.from_spec(spec).n_codes and stats.max == cap
    assert first.strategy.meta["wc_tree"] == "first"
    assert "wc_tree" not in small.strategy.meta


def _first_feasible(game, ctx, secrets, d, top):
    """The first guess of ``top`` in the search's order (:func:`worst_case_order`)
    whose parts are all feasible within ``d - 1``, by the search's own test."""
    order = worst_case_order(game, top, secrets, ctx.lb[d - 1]).tolist()
    return next(h for h in order if all(ctx.wc(p, d - 1) for _, p in ctx.split(h, secrets)))


def _node_candidates(ctx, secrets):
    """The guesses the compiled search tries at a node of ``secrets``."""
    in_s = np.zeros(ctx.table.shape[1], dtype=np.bool_)
    in_s[secrets] = True
    own, _ = kernels.candidates(np.asarray(secrets, dtype=np.int64), in_s,
                                ctx.all_guesses[:0], ctx.all_guesses, ctx.consistent,
                                *ctx.rules)
    return own


@pytest.mark.parametrize("spec, guesses, cap", [
    ("p4c6", "any", 5), ("p4c6", "consistent", 6), ("p4c5b", "any", 8),
    ("p3c6n", "any", 5)])
def test_a_first_tree_keeps_the_first_feasible_guess_at_every_node(spec, guesses, cap):
    """Node by node below the first guess: the guess kept is the first feasible one
    of the search's order, among the part's representatives at its root and the
    node's own candidates below."""
    game = Game.from_spec(spec)
    entries = 13_000 + cap
    sol, _ = _tree(spec, cap, "first", entries, guesses)
    assert sol.feasible
    consistent = guesses == "consistent"
    ctx = _context(game, consistent, entries, True)
    codes = {game.code_str(c): c for c in range(game.n_codes)}
    root = codes[sol.strategy.root.guess]
    checked = 0
    stack = []
    for a, part in ctx.split(root, ctx.all_guesses):
        top = _part_guesses(game, (root,), part, consistent, True)
        stack.append((sol.strategy.root.next[game.answer_str(a)], part, cap - 1,
                      ctx.all_guesses if top is None else top))
    while stack:
        node, secrets, d, top = stack.pop()
        g = codes[node.guess]
        if len(secrets) > 2:
            assert g == _first_feasible(game, ctx, secrets, d, top)
            checked += 1
        for a, part in ctx.split(g, secrets):
            stack.append((node.next[game.answer_str(a)], part, d - 1,
                          _node_candidates(ctx, part)))
    assert checked > 20


def test_a_first_tree_does_not_depend_on_the_table_or_the_split():
    """The guess kept is a fact of the search's order, not of what the transposition
    table held: a table of 1,000 entries (evicting all the time) builds the same tree
    as one of 4 million; and a part split one second guess per task, searched in the
    same order, starts with the same guess as the whole part's search."""
    big, _ = _tree("p4c7", 6, "first", 4_000_000)
    small, _ = _tree("p4c7", 6, "first", 1_000)
    split, _ = _tree("p4c7", 6, "first", 14_001, split_secrets=200)
    assert _doc(big) == _doc(small) == _doc(split)
    # Under the small-total rule the split does change the tree (the premise above
    # is not a tautology).
    whole, _ = _tree("p4c7", 6, "small-total", 14_002)
    split, _ = _tree("p4c7", 6, "small-total", 14_003, split_secrets=200)
    assert _doc(whole) != _doc(split)


def _entries(folder, function):
    return [p for p in folder.glob("task-*.json")
            if f'"function":"{function}"' in p.read_text()]


def test_a_checkpoint_serves_refutations_to_the_other_rule(tmp_path):
    """Refutations stored under one rule are read back under the other; a feasible
    part is computed again, so the tree is the rule's own (a fresh run's)."""
    refuted, solver = _tree("p4c7", 5, "small-total", 15_001, checkpoint=tmp_path)
    assert not refuted.feasible
    stored = solver.checkpoint.stored
    again, solver = _tree("p4c7", 5, "first", 15_002, checkpoint=tmp_path)
    assert not again.feasible and again.value is None
    assert solver.checkpoint.stored == 0 and solver.checkpoint.loaded >= 1
    assert len(list(tmp_path.glob("task-*.json"))) == stored
    # Within 6: the feasible first guess's parts are computed under "first".
    _tree("p4c7", 6, "small-total", 15_003, checkpoint=tmp_path)
    resumed, solver = _tree("p4c7", 6, "first", 15_004, checkpoint=tmp_path)
    fresh, _ = _tree("p4c7", 6, "first", 15_005)
    assert solver.checkpoint.stored >= 1
    assert _doc(resumed) == _doc(fresh)


def test_bad_rules_are_refused(tmp_path):
    assert WC_TREE_RULES == ("small-total", "first")
    for bad in ("fast", "", None, True):
        with pytest.raises(ValueError, match="wc_tree must be one of"):
            Solver(Game.from_spec("p2c3"), jobs=1, wc_tree=bad)
    out = tmp_path / "t.json"
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "solve", "p2c3", "--wc-tree",
                          "fast", "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 2 and "--wc-tree" in run.stderr and not out.exists()
    assert "Traceback" not in run.stderr


def test_the_cli_writes_a_first_tree(tmp_path):
    out = tmp_path / "p3c4.json"
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "solve", "p3c4", "--wc-tree",
                          "first", "--quiet", "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    doc = json.loads(out.read_text())
    assert doc["meta"]["wc_tree"] == "first"


def test_within_builds_its_exact_nodes_by_the_rule():
    """``find_within`` passes the rule to the nodes it decides exactly: with every
    node under ``exact`` (the whole game), its tree is the exact search's under that
    rule, and the meta says which."""
    from optimal_mm.search import subtree_within
    from optimal_mm.within import find_within

    game = Game.from_spec("p3c5b")
    for rule in WC_TREE_RULES:
        tree = find_within(game, 7, breadth=2, exact=20, wc_tree=rule)
        stats = tree.validate()
        assert stats.secrets == game.n_codes and stats.max <= 7
        assert tree.meta["wc_tree"] == rule
    whole = find_within(game, 7, exact=game.n_codes, wc_tree="first")
    exact = subtree_within(game, np.arange(game.n_codes), 7, wc_tree="first")
    assert whole.root.guess == game.code_str(exact[0])
    with pytest.raises(ValueError, match="wc_tree must be one of"):
        find_within(game, 7, wc_tree="fast")
    with pytest.raises(ValueError, match="wc_tree must be one of"):
        subtree_within(game, np.arange(game.n_codes), 7, wc_tree="fast")


def test_the_within_cli_refuses_an_unknown_rule(tmp_path):
    out = tmp_path / "t.json"
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "within", "p2c3", "3",
                          "--wc-tree", "fast", "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 2 and "--wc-tree" in run.stderr and not out.exists()
    assert "Traceback" not in run.stderr
