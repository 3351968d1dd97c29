"""The colour-overlap filter and bound (:mod:`optimal_mm._overlap`).

Blacks plus whites depend on the colour multisets of guess and secret alone, so one
partition per multiset bounds the parts of every guess of that multiset. The worst
case's filter must never drop a guess whose parts all fit the cap (checked against
the parts of every guess on random states), must drop some (else it does nothing),
and must let the search refute a state without scoring a guess; the expected case's
bound must stay below each guess's own partition bound and the state's optimum, and
rise above the balanced bound somewhere. Every worst-case and expected value of the
optimal table stays as recorded.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm import _overlap
from optimal_mm._search_arrays import INF, NO_CAP, code_masks

TABLE = Path(__file__).resolve().parent.parent / "results" / "optimal_table.json"


@pytest.mark.parametrize("spec", ["p4c6", "p4c6n", "p3c5", "p5c3"])
def test_code_masks_number_the_multisets(spec):
    game = Game.from_spec(spec)
    masks = code_masks(game.codes, game.colours)
    multiset = [tuple(sorted(c)) for c in game.codes.tolist()]
    firsts = {}
    for i, m in enumerate(multiset):
        firsts.setdefault(m, i)
    # Numbered in order of first appearance, the representative the first code.
    reps = sorted(firsts.values())
    assert masks[:len(reps), 3].tolist() == reps
    assert (masks[len(reps):, 3] == -1).all()
    for i, m in enumerate(multiset):
        assert reps[masks[i, 2]] == firsts[m]


def _random_states(game, rng, count):
    for _ in range(count):
        size = int(rng.integers(3, min(game.n_codes, 120)))
        yield np.sort(rng.choice(game.n_codes, size=size, replace=False)).astype(np.int64)


@pytest.mark.parametrize("spec", ["p4c6", "p4c6n", "p5c3", "p4c5"])
def test_filter_keeps_every_guess_that_fits(spec):
    game = Game.from_spec(spec)
    table = game.answer_table()
    masks = code_masks(game.codes, game.colours)
    rng = np.random.default_rng(7)
    dropped = kept_fitting = 0
    for S in _random_states(game, rng, 30):
        for cap in (1, 2, 4, 10):
            ok = np.zeros(len(masks), dtype=np.bool_)
            passed = _overlap.overlap_pass(S, table, masks, cap, game.pegs, game.win, ok)
            assert passed == int(ok.sum())
            for g in range(game.n_codes):
                sizes = np.bincount(table[g, S], minlength=game.n_answer_slots)
                sizes[game.win] = 0
                fits = sizes.max() <= cap
                if fits:
                    assert ok[masks[g, 2]], (spec, cap, g)
                    kept_fitting += 1
                elif not ok[masks[g, 2]]:
                    dropped += 1
    assert dropped > 0 and kept_fitting > 0


def test_search_refutes_without_scoring_a_guess():
    # States that the counting bound allows within 3 guesses but whose every guess
    # multiset sends too many secrets to some overlap: refuted before any guess is
    # scored (no state counted).
    from optimal_mm.search_context import _Context

    game = Game.from_spec("p4c6")
    ctx = _Context(game, False, 100_000)
    masks = ctx.rules[4]
    cap = int(np.sum(ctx.lb[2][1:game.n_codes + 1] < INF))
    refuted = 0
    for S in _random_states(game, np.random.default_rng(11), 300):
        if ctx.lb[3, len(S)] >= INF:
            continue
        ok = np.zeros(len(masks), dtype=np.bool_)
        if _overlap.overlap_pass(S, ctx.table, masks, cap, game.pegs, game.win, ok):
            continue
        before = int(ctx.counters[0])
        assert not ctx.wc(S, 3)
        assert int(ctx.counters[0]) == before
        refuted += 1
    assert refuted > 0


@pytest.mark.parametrize("spec", ["p4c5", "p4c6n", "p5c3", "p4c6"])
def test_bound_below_every_guess_and_the_optimum(spec):
    from optimal_mm.search_context import _Context

    game = Game.from_spec(spec)
    ctx = _Context(game, False, 1_000_000)
    masks = ctx.rules[4]
    row = ctx.lb[NO_CAP]
    above_balanced = 0
    for S in _random_states(game, np.random.default_rng(5), 25):
        bounds = np.zeros(len(masks), dtype=np.int64)
        node = _overlap.overlap_bound(S, ctx.table, masks, row, game.pegs, bounds)
        per_guess = []
        for g in range(game.n_codes):
            sizes = np.bincount(ctx.table[g, S], minlength=game.n_answer_slots)
            sizes[game.win] = 0
            partition_bound = len(S) + int(row[sizes].sum())
            assert bounds[masks[g, 2]] <= partition_bound, (spec, g)
            per_guess.append(partition_bound)
        assert node <= min(per_guess)
        if len(S) <= 40:
            exact, _ = ctx.exp(S, INF, NO_CAP)
            assert node <= exact
        above_balanced += node > ctx.lb[NO_CAP, len(S)]
    assert above_balanced > 0


def _table_entries(objective, limit_states):
    entries = json.loads(TABLE.read_text())["entries"]
    return sorted(k for k, e in entries.items()
                  if e["status"] == "solved" and not e["spec"].endswith("b")
                  and e["objective"] == objective and e["codes"] >= 100
                  and e.get("states") and e["states"] <= limit_states)


@pytest.mark.parametrize("key", _table_entries("worst-case", 2000)
                         + _table_entries("expected", 3000)
                         + _table_entries("worst-then-expected", 3000)
                         + _table_entries("fewest-at-worst", 3000))
def test_table_values_unchanged(key):
    from optimal_mm.search import solve

    entry = json.loads(TABLE.read_text())["entries"][key]
    spec, guesses, objective = key.split("/")
    assert solve(Game.from_spec(spec), objective, guesses, jobs=1).value == entry["value"]
