"""A lower bound proven elsewhere ends the expected search once a tree meets it
(search.LowerBound), and the best tree so far follows a big part's race.

The capped total (worst-then-expected) is at least the optimum without the cap; a
capped search whose tree meets that optimum is done, however many rivals are left.
The bound must come from a proof: the tests below take it from the project's own
searches, and check that a bound the search's own tree beats is refused and that
one it never meets changes nothing.
"""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from optimal_mm import Game, search_parts
from optimal_mm.errors import FloorError, InvalidOptionError
from optimal_mm.progress import Progress
from optimal_mm.search import LowerBound, Solver, solve


@pytest.fixture
def split_at_60(monkeypatch):
    """Mastermind's parts of 60 secrets or more split, as a big game's are: the
    first guess's big parts then race their second guesses."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)


def _mastermind(entries, jobs=1, **options):
    # A table size of its own: a fresh transposition table, so states compare
    return Solver(Game.from_spec("mastermind"), jobs=jobs, table_entries=entries, **options)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_floor_that_a_tree_meets_ends_the_search(split_at_60, jobs):
    # Two jobs: the races' results arrive from the pool, read in a drawing thread
    plain = _mastermind(50_101, jobs).worst_then_expected()
    floored = _mastermind(50_102, jobs).worst_then_expected(
        floor=LowerBound(plain.value, "the capped search without it"))
    stats = floored.strategy.validate()
    assert floored.value == plain.value == stats.total
    assert stats.max <= 5 and floored.strategy.optimal
    assert floored.stats.states < plain.stats.states  # rivals left unsearched
    assert "meets the lower bound" in floored.proof[-1]
    assert "the capped search without it" in floored.proof[-1]


def test_a_floor_never_met_changes_nothing(split_at_60):
    # The uncapped optimum bounds the capped one; for mastermind it is one less, so
    # no race may stop early: the same tree, the same work.
    uncapped = _mastermind(50_103).expected()
    plain = _mastermind(50_104).worst_then_expected()
    floored = _mastermind(50_105).worst_then_expected(floor=uncapped.value)
    assert uncapped.value < plain.value == floored.value
    assert floored.strategy.root.to_dict() == plain.strategy.root.to_dict()
    assert floored.stats.states == plain.stats.states
    assert floored.proof == plain.proof


class _Bounds(Progress):
    """The bounds the capped search reports (those after the last ``reset``: the
    worst-case search before it reports depths)."""

    def __init__(self):
        self.bounds = []

    def reset(self):
        self.bounds = []

    def update(self, best=None, bound=None):
        if bound is not None:
            self.bounds.append(bound)


def test_the_bound_reported_is_at_least_the_floor(split_at_60):
    # What a stopped run keeps (the optimal table's timeout cells): the floor is proven
    uncapped = _mastermind(50_110).expected()
    progress = _Bounds()
    _mastermind(50_111, progress=progress).worst_then_expected(floor=uncapped.value)
    assert progress.bounds and min(progress.bounds) == uncapped.value
    plain = _Bounds()
    _mastermind(50_112, progress=plain).worst_then_expected()
    assert min(plain.bounds) < uncapped.value  # the search's own bound starts lower


def test_a_floor_that_a_tree_beats_is_refused():
    with pytest.raises(FloorError, match=r"lower bound 99 \(given by the caller\) is wrong"):
        solve("p2c3", "expected", jobs=1, floor=99)


@pytest.mark.parametrize("objective", ["worst-case", "fewest-at-worst"])
def test_a_floor_applies_to_totals_only(objective):
    with pytest.raises(InvalidOptionError, match=f"not {objective}"):
        solve("p2c3", objective, jobs=1, floor=3)


@pytest.mark.parametrize("value", [-1, True, 2.5, "7"])
def test_a_floor_is_a_whole_number(value):
    with pytest.raises(InvalidOptionError, match="whole number"):
        LowerBound(value)


def _drop_refuted_rivals(folder) -> int:
    """Delete the checkpoint's rival entries that were not better than their budget,
    as if the run had been stopped before it settled them; return how many."""
    dropped = 0
    for path in folder.glob("task-*.json"):
        entry = json.loads(path.read_text())
        if (entry["task"]["function"] == "_exp_guess_task"
                and entry["result"]["tuple"][0] is None):
            path.unlink()
            dropped += 1
    return dropped


def test_a_resumed_run_finds_the_rival_that_meets_the_floor(split_at_60, tmp_path):
    # p4c9nb's case: the rival that meets the floor was settled, rivals drawn before
    # it were not. With the floor, the resumed run reads it and searches nothing;
    # without, it searches the unsettled rivals again.
    first = _mastermind(50_106, checkpoint=tmp_path / "a").worst_then_expected()
    assert _drop_refuted_rivals(tmp_path / "a") > 0
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    floored = _mastermind(50_107, checkpoint=tmp_path / "a")
    sol = floored.worst_then_expected(floor=first.value)
    assert sol.value == first.value == sol.strategy.validate().total
    assert floored.checkpoint.stored == 0
    plain = _mastermind(50_108, checkpoint=tmp_path / "b")
    assert plain.worst_then_expected().value == first.value
    assert plain.checkpoint.stored > 0


def test_the_best_tree_so_far_follows_a_race(split_at_60, monkeypatch):
    # A rival second guess that takes the lead in a big part's race makes the best
    # tree so far better at once, not when the part's race ends.
    seen = []
    split_part = Solver._split_part_started

    def watched(self, *args, **kwargs):
        before = self.best_so_far().validate().total

        def ended(result):  # the race's answer, once its chains beside have ended
            after = self.best_so_far().validate().total  # replayed for every secret
            seen.append((before, after))
            return result

        return split_part(self, *args, **kwargs).then(ended)

    monkeypatch.setattr(Solver, "_split_part_started", watched)
    sol = _mastermind(50_109).expected()
    assert seen and all(after <= before for before, after in seen)
    assert any(after < before for before, after in seen)
    assert sol.value <= min(after for _, after in seen)


@pytest.mark.parametrize("name", ["search", "search_context", "search_tasks", "search_costs",
                                  "search_worst", "search_expected",
                                  "search_parts", "search_races"])
def test_doctests(name):
    """The search's modules' examples (the lower bound's among them) still hold."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"optimal_mm.{name}"))
    assert result.attempted and not result.failed


def _cli(capsys, *argv):
    from optimal_mm.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_takes_a_lower_bound(tmp_path, capsys):
    out = tmp_path / "p3c4.json"
    code, text, _ = _cli(capsys, "solve", "p3c4", "--objective", "expected", "--quiet",
                         "-o", out)
    assert code == 0
    optimum = int(text.split("optimal total: ")[1].split()[0])
    code, text, _ = _cli(capsys, "solve", "p3c4", "--objective", "expected", "--quiet",
                         "--lower-bound", optimum, "-o", out)
    assert code == 0 and f"proven (given the lower bound {optimum})" in text
    assert "meets the lower bound" in text
    assert json.loads(out.read_text())["meta"]["command"].endswith(
        f"--lower-bound {optimum}")


@pytest.mark.parametrize("argv, message", [
    (("--objective", "expected", "--lower-bound", 9999), "is wrong: first guess"),
    (("--lower-bound", 3), "not worst-case"),
    (("--objective", "static", "--lower-bound", 3), "--lower-bound does not apply"),
    (("--objective", "expected", "--lower-bound", -2), "whole number"),
])
def test_a_bad_lower_bound_is_one_line(tmp_path, capsys, argv, message):
    out = tmp_path / "t.json"
    code, _, err = _cli(capsys, "solve", "p3c4", "--quiet", "-o", out, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert err.startswith("optimal-mm solve: error: ") and not out.exists()


def test_an_optimal_tree_bounds_each_part_below_its_first_guess(split_at_60):
    # Mastermind's optimal tree without the cap (5625) bounds the capped total
    # (5626) as a whole, never met; its subtrees bound each part below 1123, and the
    # parts whose capped optimum is their uncapped one stop their races there.
    uncapped = _mastermind(50_113).expected()
    floor = LowerBound.from_tree(uncapped.strategy, "mastermind's tree", uncapped.game,
                                 "any")
    assert floor.value == uncapped.value and floor.first == "1123"
    assert floor.value == 1296 + sum(cost for _, cost, _ in floor.parts)
    plain = _mastermind(50_114).worst_then_expected()
    floored = _mastermind(50_115).worst_then_expected(floor=floor)
    stats = floored.strategy.validate()
    assert floored.value == plain.value == stats.total and stats.max <= 5
    assert floored.stats.states < plain.stats.states


def test_each_part_of_a_floor_tree_costs_its_optimum():
    # A subtree of an optimal tree is optimal for its part: each part's cost is what
    # the exact search finds from the position after the first guess and its answer.
    from optimal_mm.advice import Advisor
    from optimal_mm.history import Turn

    game = Game.from_spec("p3c4")
    floor = LowerBound.from_tree(solve(game, "expected", jobs=1).strategy, "t")
    advisor = Advisor(game, time_limit=None, strategy=None)
    assert len(floor.parts) >= 5
    for answer, cost, guess in floor.parts:
        advice = advisor.advise([Turn(floor.first, game.parse_answer(answer))], "expected")
        assert advice.value == cost, answer


@pytest.mark.parametrize("change, words", [
    (dict(max_guesses=6), "was built for expected within 6"),
    (dict(objective="worst-case"), "was built for worst-case"),
    (dict(optimal=False), "is not marked optimal"),
    (dict(guesses="consistent"), "is a tree of consistent guesses, not of any or any"),
])
def test_a_floor_tree_must_be_an_optimal_uncapped_one(change, words):
    import dataclasses

    tree = solve("p2c3", "expected", jobs=1).strategy
    with pytest.raises(InvalidOptionError, match=words):
        LowerBound.from_tree(dataclasses.replace(tree, **change), "t", tree.game, "any")
    with pytest.raises(InvalidOptionError, match="a tree of p2c3, not p2c4"):
        LowerBound.from_tree(tree, "t", Game.from_spec("p2c4"), "any")


def test_a_floor_tree_that_a_part_beats_is_refused():
    # A part's bound raised above its optimum (as a tree that is not optimal would
    # give): the part's own tree beats it.
    import dataclasses

    game = Game.from_spec("p3c4")
    floor = LowerBound.from_tree(solve(game, "expected", jobs=1).strategy, "t")
    (answer, cost, guess), *rest = floor.parts
    wrong = dataclasses.replace(floor, value=0, parts=((answer, cost + 1, guess), *rest))
    with pytest.raises(FloorError, match=f"part after 112 {answer} is wrong: it costs "
                                         f"{cost + 1} there, a tree of {cost} was found"):
        solve(game, "expected", jobs=1, floor=wrong)


def test_the_command_line_takes_a_lower_bound_tree(tmp_path, capsys):
    uncapped, capped = tmp_path / "p3c4.json.gz", tmp_path / "p3c4-wte.json.gz"
    assert _cli(capsys, "solve", "p3c4", "--objective", "expected", "--quiet",
                "-o", uncapped)[0] == 0
    code, text, _ = _cli(capsys, "solve", "p3c4", "--objective", "worst-then-expected",
                         "--quiet", "--lower-bound-tree", uncapped, "-o", capped)
    assert code == 0 and "proven (given the lower bound " in text
    assert json.loads(gzip.decompress(capped.read_bytes()))["meta"]["command"].endswith(
        f"--lower-bound-tree {uncapped}")
    # A capped tree, another game's, both options, an objective without a total
    for argv, words in [
            (("--objective", "expected", "--lower-bound-tree", capped), "was built for"),
            (("--objective", "expected", "--lower-bound-tree", uncapped, "--lower-bound", 3),
             "not both"),
            (("--lower-bound-tree", uncapped), "not worst-case")]:
        out = tmp_path / "x.json"
        code, _, err = _cli(capsys, "solve", "p3c4", "--quiet", "-o", out, *argv)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1
        assert not out.exists()
    code, _, err = _cli(capsys, "solve", "p3c5", "--objective", "expected", "--quiet",
                        "--lower-bound-tree", uncapped, "-o", tmp_path / "y.json")
    assert code == 2 and "a tree of p3c4, not p3c5" in err


class _Phases(Progress):
    def __init__(self):
        self.labels = []

    def phase(self, label, total, done=0):
        self.labels.append((label, total))


def test_each_big_parts_floor_guess_goes_first_in_the_batch(split_at_60):
    # The floor tree's guess at a big part is its first second guess: its parts are
    # solved in the first batch, on every worker, and its race starts from it.
    def races(progress):  # the guess each big part's race starts from
        return [label.split()[3] for label, _ in progress.labels
                if label.startswith("expected: rivals of ") and "after 1123)" in label]

    uncapped = _mastermind(50_116).expected()
    floor = LowerBound.from_tree(uncapped.strategy, "mastermind's tree")
    plain, floored = _Phases(), _Phases()
    expect = _mastermind(50_117, progress=plain).worst_then_expected()
    sol = _mastermind(50_118, progress=floored).worst_then_expected(floor=floor)
    assert sol.value == expect.value == sol.strategy.validate().total
    guesses = {guess for _, _, guess in floor.parts}
    assert races(floored) and set(races(floored)) <= guesses
    assert not set(races(plain)) <= guesses  # the search's own order starts elsewhere


def test_a_floor_subtree_that_keeps_to_the_cap_settles_its_part(split_at_60):
    # A subtree of the uncapped optimum that finds every secret of its part within
    # the cap is optimal under the cap too: the part takes it, no task searched.
    uncapped = _mastermind(50_119).expected()
    floor = LowerBound.from_tree(uncapped.strategy, "mastermind's tree")
    plain = _mastermind(50_120).worst_then_expected()
    sol = _mastermind(50_121).worst_then_expected(floor=floor)
    assert sol.value == plain.value == sol.strategy.validate().total
    assert sol.stats.states < plain.stats.states
    settled = [line for line in sol.proof
               if line.endswith("so is optimal here: not searched")]
    assert len(settled) >= 2
    mine, theirs = sol.strategy.root, uncapped.strategy.root
    assert mine.guess == theirs.guess == floor.first
    for line in settled:
        answer = line.split(f"after {floor.first} ")[1].split()[0]
        assert mine.next[answer].to_dict() == theirs.next[answer].to_dict()
    # Beyond the cap a part keeps its search: some parts are not settled
    assert len(settled) < len(floor.parts)


def _depth_and_rule(node, game, secrets):
    """The most guesses a secret of ``secrets`` needs from ``node`` on, and whether
    every guess may be the secret."""
    import numpy as np

    solver = Solver(game, jobs=1, table_entries=0)
    g = game.code_index(node.guess)
    depth, consistent = 1, bool(np.isin(g, secrets))
    for a, sub in solver.split(g, secrets):
        d, c = _depth_and_rule(node.next[game.answer_str(a)], game, sub)
        depth, consistent = max(depth, d + 1), consistent and c
    return depth, consistent


def test_a_subtree_beyond_the_cap_or_the_guess_rule_is_no_witness():
    import numpy as np

    uncapped = solve("mastermind", "expected", jobs=1)
    game, root = uncapped.game, uncapped.strategy.root
    anyone = Solver(game, jobs=1, table_entries=0)
    consistent = Solver(game, "consistent", jobs=1, table_entries=0)
    first = game.code_index(root.guess)
    seen_deep = seen_wild = False
    for a, part in anyone.split(first, np.arange(game.n_codes)):
        node = root.next[game.answer_str(a)]
        depth, rule = _depth_and_rule(node, game, part)
        tree, cost = anyone._witness(node, part, depth)
        assert tree is not None
        assert cost == sum(len(p) - 1 for p in map(uncapped.strategy.path_for,
                                                   map(game.code_str, part)))
        assert anyone._witness(node, part, depth - 1) == (None, cost)
        assert (consistent._witness(node, part, depth)[0] is None) == (not rule)
        seen_deep |= depth > 4
        seen_wild |= not rule
    assert seen_deep and seen_wild  # both refusals were tried


def test_an_uncapped_search_takes_its_floor_trees_whole():
    game = Game.from_spec("p3c4")
    tree = solve(game, "expected", jobs=1).strategy
    floor = LowerBound.from_tree(tree, "p3c4's tree")
    sol = solve(game, "expected", jobs=1, floor=floor)
    assert sol.value == floor.value and sol.strategy.root.to_dict() == tree.root.to_dict()
    assert sum("not searched" in line for line in sol.proof) == len(floor.parts)


def test_a_floor_tree_bounds_each_position_on_its_path():
    # Two guesses deep: the floor the tree gives each position on its path is the
    # exact search's value there, and its settled subtree is the tree's own.
    import numpy as np

    from optimal_mm.advice import Advisor
    from optimal_mm.history import Turn
    from optimal_mm.search import NO_CAP

    game = Game.from_spec("p3c4")
    tree = solve(game, "expected", jobs=1).strategy
    floor = LowerBound.from_tree(tree, "t")
    solver = Solver(game, jobs=1, table_entries=0)
    solver.bound_below(floor)
    advisor = Advisor(game, time_limit=None, strategy=None)
    first = game.code_index(floor.first)
    checked = 0
    for a, part in solver.split(first, np.arange(game.n_codes)):
        node = tree.root.next[game.answer_str(a)]
        second = game.code_index(node.guess)
        for b, sub in solver.split(second, part):
            found = solver.floor_of((first, second), sub, NO_CAP)
            turns = [Turn(floor.first, a), Turn(node.guess, b)]
            assert found.cost == advisor.advise(turns, "expected").value
            assert found.guess == game.code_index(node.next[game.answer_str(b)].guess)
            assert found.tree is not None  # no cap: every subtree keeps to it
            checked += 1
        # Off the tree's path: another second guess says nothing
        other = next(c for c in range(game.n_codes) if c != second)
        assert solver.floor_of((first, other), part[:1], NO_CAP) is None
    assert checked >= 10


def test_floors_down_the_path_resume_from_a_checkpoint(split_at_60, tmp_path):
    # Two workers and a checkpoint: the run's tasks answer a second run whole, which
    # computes nothing and finds the same tree (chains: the test below).
    uncapped = _mastermind(50_128).expected()
    floor = LowerBound.from_tree(uncapped.strategy, "mastermind's tree")
    first = _mastermind(50_129, jobs=2, checkpoint=tmp_path)
    sol = first.worst_then_expected(floor=floor)
    assert sol.value == 5626 == sol.strategy.validate().total and first.checkpoint.stored
    again = _mastermind(50_130, jobs=2, checkpoint=tmp_path)
    resumed = again.worst_then_expected(floor=floor)
    assert again.checkpoint.stored == 0
    assert resumed.value == sol.value
    assert resumed.strategy.root.to_dict() == sol.strategy.root.to_dict()


def test_deeper_parts_on_the_path_take_their_floors(split_at_60, monkeypatch):
    # With --chain-secrets a part below the first batch's guesses is split by its own
    # guesses; on the floor tree's path its race stops at its own floor, and the
    # tree's guess goes first.
    deep = []
    original = Solver._split_part_started

    def spy(self, history, part, plan, incumbent, d, weight, *rest):
        floor = self.floor_of(history, part, d)
        if len(history) >= 2 and floor is not None:
            deep.append(plan[0][0] == floor.guess)
        return original(self, history, part, plan, incumbent, d, weight, *rest)

    monkeypatch.setattr(Solver, "_split_part_started", spy)
    uncapped = _mastermind(50_125).expected()
    floor = LowerBound.from_tree(uncapped.strategy, "mastermind's tree")
    plain = _mastermind(50_126, chain_secrets=20).worst_then_expected()
    sol = _mastermind(50_127, chain_secrets=20).worst_then_expected(floor=floor)
    assert sol.value == plain.value == sol.strategy.validate().total
    assert sol.strategy.validate().max <= 5
    assert deep and all(deep)  # parts two guesses deep, split by the tree's guess first
    assert sol.stats.states < plain.stats.states


@pytest.mark.parametrize("k", [
    pytest.param(0, marks=pytest.mark.slow),  # the floor's tree (5 s): as the value's
    1])
def test_a_capped_search_reads_the_uncapped_runs_answers_as_lower_bounds(split_at_60,
                                                                         tmp_path,
                                                                         monkeypatch, k):
    # A rival that the search without the cap found to cost at least the capped
    # budget is not better under the cap either (a tree within the cap is a tree):
    # read from that run's checkpoint, unsearched. The same value and tree, less work,
    # with the floor's tree (k = 0) and with its value alone (k = 1); the directory is
    # only read.
    # A chain's small parts cost at least their total there (found by the guesses and
    # the parts, whatever the bounds there): the capped chain races its big parts
    # first with the small parts at that floor, and solves them last, only if no big
    # part refutes it. Each chain asked alike in both searches answers alike.
    import dataclasses

    chains, floors, solved = {}, [], []
    real_chain, real_floor = Solver._guess_by_parts, Solver._small_floor
    real_answer = Solver._small_answer

    def chain(self, history, g, parts, lbs, n, bound, d, weight):
        value = real_chain(self, history, g, parts, lbs, n, bound, d, weight)
        chains.setdefault(self.checkpoint_dir.name, {})[(tuple(history), g, bound)] = value
        return value

    def small_floor(self, task):
        found = real_floor(self, task)
        floors.append((self.checkpoint_dir.name, task[1], found))
        return found

    def small_answer(self, task, line):
        solved.append((self.checkpoint_dir.name, task[1]))
        return real_answer(self, task, line)

    monkeypatch.setattr(Solver, "_guess_by_parts", chain)
    monkeypatch.setattr(Solver, "_small_floor", small_floor)
    monkeypatch.setattr(Solver, "_small_answer", small_answer)
    uncapped_dir = tmp_path / "uncapped"
    uncapped = _mastermind(50_131, checkpoint=uncapped_dir).expected()
    before = sorted(p.name for p in uncapped_dir.iterdir())
    floor = (LowerBound.from_tree(uncapped.strategy, "mastermind's tree"),
             LowerBound(uncapped.value, "its total"))[k]
    plain_solver = _mastermind(50_132 + 2 * k, checkpoint=tmp_path / f"plain{k}")
    plain = plain_solver.worst_then_expected(floor=floor)
    solver = _mastermind(50_133 + 2 * k, checkpoint=tmp_path / f"read{k}")
    sol = solver.worst_then_expected(
        floor=dataclasses.replace(floor, checkpoint=str(uncapped_dir)))
    assert sol.value == plain.value == 5626 == sol.strategy.validate().total
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    assert plain_solver._runner.bounded == 0 < solver._runner.bounded
    assert sol.stats.states < plain.stats.states
    assert f"{solver._runner.bounded:,} rival guesses not better, read from the " \
           f"search without the cap ({uncapped_dir})" in sol.proof[-1]
    assert sorted(p.name for p in uncapped_dir.iterdir()) == before
    # The chains' small parts: no floor without the checkpoint below; with it, some
    # chains of the value floor's search (k = 1) take one, and one of those a big part
    # refuted before its small parts were solved
    assert not [f for name, _, f in floors if name.startswith("plain") and f is not None]
    if k == 0:
        return
    floored = {g for name, g, f in floors if name == "read1" and f is not None}
    both = set(chains["plain1"]) & set(chains["read1"])
    assert floored & {g for _, g, _ in both}
    assert all(chains["plain1"][key] == chains["read1"][key] for key in both)
    assert floored - {g for name, g in solved if name == "read1"}


def test_the_uncapped_runs_answers_bound_nothing_without_a_cap_or_with_a_weight(
        split_at_60, tmp_path):
    # Without a cap the run would read its own search; fewest-at-worst's costs are
    # not totals: neither reads the directory.
    uncapped_dir = tmp_path / "uncapped"
    uncapped = _mastermind(50_137, checkpoint=uncapped_dir).expected()
    floor = LowerBound(uncapped.value, "its total", checkpoint=str(uncapped_dir))
    solver = _mastermind(50_138, checkpoint=tmp_path / "again")
    assert solver.expected(floor=floor).value == uncapped.value
    assert solver._runner.bounded == 0
    with pytest.raises(InvalidOptionError, match="is not a directory"):
        LowerBound(5625, "x", checkpoint=str(tmp_path / "nowhere"))


@pytest.mark.parametrize("argv, message", [
    (["--lower-bound-checkpoint", "DIR", "--checkpoint", "C"], "needs --lower-bound or"),
    (["--lower-bound", "5625", "--lower-bound-checkpoint", "DIR"], "needs --checkpoint"),
    (["--lower-bound", "5625", "--lower-bound-checkpoint", "NOWHERE", "--checkpoint", "C"],
     "is not a directory")])
def test_a_bad_lower_bound_checkpoint_is_one_line(tmp_path, capsys, argv, message):
    from optimal_mm.cli import main

    (tmp_path / "DIR").mkdir()
    argv = [str(tmp_path / a) if a in ("DIR", "NOWHERE", "C") else a for a in argv]
    assert main(["solve", "p2c3", "--objective", "worst-then-expected",
                 "-o", str(tmp_path / "t.json"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "t.json").exists()


def test_a_capped_rival_is_bounded_by_what_the_search_without_the_cap_saved(tmp_path):
    # The rule itself, on a checkpoint written by hand: the same rival's answer
    # without the cap under any budget, else its parts' exact optima there (a guess
    # that search raced first, solved by its parts, or a chain's small parts, each
    # solved alone), each other part at its bound.
    import numpy as np

    from optimal_mm.checkpoint import Checkpoint, task_key
    from optimal_mm.search import INF, NO_CAP
    from optimal_mm.search_tasks import _guess_below

    def stats():
        return np.zeros(4, dtype=np.int64)

    below = Checkpoint(tmp_path, {"game": "p2c3", "objective": "expected"})
    parts = [np.arange(3, dtype=np.int64), np.arange(3, 8, dtype=np.int64)]
    lbs, n = [3, 7], 9

    def rival(bound, d=4, weight=0, first=7):
        return (5,), first, parts, lbs, n, bound, d, weight

    assert _guess_below(rival(20), below) is None  # nothing saved
    below.put(task_key("_exp_part_task", ((5, 7), parts[1], INF, NO_CAP, True, 0)),
              (9, None, stats()))
    assert _guess_below(rival(21), below)[0] is None  # 9 + 3 + 9
    assert _guess_below(rival(22), below) is None
    below.put(task_key("_exp_part_task", ((5, 7), parts[0], INF, NO_CAP, False, 0)),
              (4, None, stats()))  # a chain's small part there: its value alone
    refuted = _guess_below(rival(22), below)  # 9 + 4 + 9
    assert refuted[0] is None and not refuted[2].any()
    assert _guess_below(rival(23), below) is None
    # Without a cap, or with a cap weight (not totals): nothing
    assert _guess_below(rival(22, d=NO_CAP), below) is None
    assert _guess_below(rival(22, weight=1000), below) is None
    # The rival's own answer without the cap: refuted against 30, so at least 30
    below.put(task_key("_exp_guess_task", rival(30, d=NO_CAP, first=6)),
              (None, None, stats()))
    assert _guess_below(rival(30, first=6), below)[0] is None
    assert _guess_below(rival(31, first=6), below) is None

