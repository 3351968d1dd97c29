"""Exact advice from any position (optimal_mm.advice) and the ``hint`` command."""

import io
import json
import random
import sys
import time
from functools import lru_cache

import numpy as np
import pytest

from optimal_mm import Game
from optimal_mm.advice import (Advisor, run_with_time_limit, stream_with_time_limit,
                               streams_with_time_limit, subtree_cost)
from optimal_mm.cli import main
from optimal_mm.errors import InconsistentAnswersError, InvalidOptionError
from optimal_mm.heuristics import build_strategy
from optimal_mm.history import Turn, consistent_secrets, parse_history
from optimal_mm.player import load_shipped_strategy

from brute import parts_by_answer

BIG = 1 << 40


def brute_force(game, consistent):
    """Plain minimax / least-total over every guess, memoised on the secret set: an
    independent check of the search (no bounds, no symmetry, no table)."""
    every = range(game.n_codes)

    def parts(g, secrets):
        return [tuple(p) for p in parts_by_answer(game.score, g, secrets).values()]

    @lru_cache(maxsize=None)
    def value(secrets, objective):
        if len(secrets) == 1:
            return 1
        return min(guess_value(g, secrets, objective)
                   for g in (secrets if consistent else every))

    def guess_value(g, secrets, objective):
        split = parts(g, secrets)
        if len(split) == 1 and len(split[0]) == len(secrets):
            return BIG  # learns nothing
        if objective == "expected":
            return len(secrets) + sum(value(p, objective) for p in split)
        return 1 + max((value(p, objective) for p in split), default=0)

    return value, guess_value


def random_history(game, rng, turns):
    secret = rng.randrange(game.n_codes)
    history = []
    for _ in range(turns):
        g = game.code_str(rng.randrange(game.n_codes))
        answer = game.score(g, secret)
        if answer == game.win:
            break
        history.append(Turn(g, answer if rng.random() > 0.2 else None))
    return history


@pytest.mark.parametrize("spec,guesses", [("p2c3", "any"), ("p3c2", "any"),
                                          ("p2c4", "any"), ("p2c4", "consistent"),
                                          ("p3c3n", "any")])
def test_advice_matches_brute_force_off_the_tree(spec, guesses):
    game = Game.from_spec(spec)
    value, guess_value = brute_force(game, guesses == "consistent")
    advisor = Advisor(game, guesses, time_limit=None, strategy=None)
    rng = random.Random(spec + guesses)
    for _ in range(12):
        turns = random_history(game, rng, rng.randrange(3))
        secrets = tuple(int(s) for s in consistent_secrets(game, turns))
        for objective in ("expected", "worst-case"):
            advice = advisor.advise(turns, objective)
            assert advice.proven and advice.source == "search"
            assert advice.remaining == len(secrets)
            assert advice.value == value(secrets, objective), (turns, objective)
            g = game.code_index(advice.guess)
            if guesses == "consistent":
                assert g in secrets
            if len(secrets) > 1:  # the advised guess attains the value
                assert guess_value(g, secrets, objective) == advice.value
            other = rng.randrange(game.n_codes)
            expect = guess_value(other, secrets, objective)
            if expect < BIG:
                assert advisor.guess_value(turns, other, objective) == expect


@pytest.mark.parametrize("spec,guesses", [("p2c3", "any"), ("p3c3", "any"),
                                          ("p2c4", "consistent"), ("p3c3n", "any"),
                                          ("p3c3b", "any"), ("p2c4b", "consistent")])
def test_a_ranking_values_every_guess_as_brute_force_does(spec, guesses):
    """Every allowed guess, valued one by one with no symmetry, bound or table, gives
    the multiset of values that the ranking's classes give, each counted as often as
    its class has codes: so the classes hold every guess once, and each class's value
    is that of every guess in it. A guess that learns nothing is worth its own guess
    more than the position."""
    game = Game.from_spec(spec)
    value, guess_value = brute_force(game, guesses == "consistent")
    advisor = Advisor(game, guesses, time_limit=None, strategy=None)
    rng = random.Random("rank" + spec + guesses)
    for _ in range(6):
        turns = random_history(game, rng, rng.randrange(3))
        secrets = tuple(int(s) for s in consistent_secrets(game, turns))
        allowed = secrets if guesses == "consistent" else range(game.n_codes)
        for objective in ("expected", "worst-case"):
            ranking = advisor.rank(turns, objective)
            assert ranking.complete and ranking.remaining == len(secrets)
            best = value(secrets, objective)
            expect = sorted(
                v if v < BIG else (len(secrets) if objective == "expected" else 1) + best
                for v in (guess_value(g, secrets, objective) for g in allowed))
            got = sorted(r.value for r in ranking.guesses for _ in range(r.codes))
            assert got == expect, (turns, objective)
            values = [r.value for r in ranking.guesses]
            assert values == sorted(values) and values[0] == best
            assert ranking.lost(ranking.guesses[0]) == 0
            assert all(game.code_index(r.guess) in allowed for r in ranking.guesses)


def test_the_first_guesses_of_mastermind_ranked(mastermind):
    """Every first guess of Mastermind valued: 1123's 5625 the best, and the values
    of 1234 and 1122 those of a search with symmetry switched off."""
    import numpy as np

    from optimal_mm._search_arrays import INF, NO_CAP
    from optimal_mm.search_context import _context

    ranking = Advisor(mastermind, time_limit=None, strategy=None).rank([])
    assert [(r.guess, r.codes) for r in ranking.guesses][0] == ("1123", 720)
    assert sum(r.codes for r in ranking.guesses) == 1296 and len(ranking.guesses) == 5
    assert ranking.guesses[0].value == 5625
    values = {r.guess: r.value for r in ranking.guesses}
    ctx = _context(mastermind, False, 2_000_000, symmetry=False)
    everything = np.arange(mastermind.n_codes, dtype=np.int64)
    for guess in ("1234", "1122"):
        parts = ctx.split(mastermind.code_index(guess), everything)
        assert values[guess] == 1296 + sum(int(ctx.exp(part, INF, NO_CAP)[0])
                                           for _, part in parts)


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_a_ranking_in_processes_is_the_ranking_in_turn(mastermind, jobs):
    """Under a time limit the classes are valued in ``jobs`` child processes, each
    every ``jobs``-th; put back together, the ranking is the one this process makes
    alone (130 classes after 1123 = 1 black 1 white)."""
    turns = parse_history(mastermind, "1123=1B1W")
    alone = Advisor(mastermind, time_limit=None, strategy=None).rank(turns)
    shared = Advisor(mastermind, time_limit=120, strategy=None).rank(turns, jobs=jobs)
    assert shared == alone and shared.complete and len(shared.guesses) == 130


def test_a_ranking_cut_by_its_time_limit_says_what_it_left(bulls):
    """Bulls and Cows after 0123 = 0 bulls 1 cow: 20 classes of second guesses, each
    an exact search of seconds; half a second values few or none, and those left are
    listed, not valued, after the ones valued."""
    turns = parse_history(bulls, "0123=0B1W")
    ranking = Advisor(bulls, time_limit=0.5, strategy=None).rank(turns)
    assert not ranking.complete and len(ranking.guesses) == 20
    assert sum(r.codes for r in ranking.guesses) == 5040
    values = [r.value for r in ranking.guesses]
    valued = [v for v in values if v is not None]
    assert values == valued + [None] * (len(values) - len(valued))
    assert valued == sorted(valued)


def _yield_then_wait(first, then):
    yield first
    yield then
    time.sleep(30)
    yield "never"


def _fail_after_one():
    yield 1
    raise ZeroDivisionError("after one")


def test_streams_with_time_limit_run_side_by_side():
    start = time.perf_counter()
    items, ended = streams_with_time_limit(_yield_then_wait, [(1, 2), (3, 4)], 1.0)
    assert (items, ended) == ([[1, 2], [3, 4]], [False, False])
    assert time.perf_counter() - start < 20  # both stopped at the limit
    assert streams_with_time_limit(range, [(2,), (0,), (3,)], 30) == (
        [[0, 1], [], [0, 1, 2]], [True, True, True])
    with pytest.raises(ZeroDivisionError, match="after one"):
        streams_with_time_limit(_fail_after_one, [(), ()], 30)


def _die_after_one():
    import os
    yield 1
    os._exit(3)


def test_a_child_that_dies_is_said_in_one_error():
    from optimal_mm.errors import OptimalMMError
    with pytest.raises(OptimalMMError, match="ended without an answer .exit status 3"):
        streams_with_time_limit(_die_after_one, [()], 30)


def _deaf_to_sigterm():
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a fork stuck before _child's reset
    yield 1
    time.sleep(60)


def test_a_child_deaf_to_sigterm_is_killed_after_its_grace(monkeypatch):
    from optimal_mm import advice
    monkeypatch.setattr(advice, "_TERM_GRACE_SECONDS", 0.3)
    start = time.perf_counter()
    assert stream_with_time_limit(_deaf_to_sigterm, (), 0.5) == ([1], False)
    assert time.perf_counter() - start < 20  # not the minute it would sleep


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_stop_signal_before_the_childs_reset_waits_for_it(monkeypatch, sig):
    """The race a CI run met: the limit's SIGTERM reached a fork before :func:`_child`
    had reset the handler it inherited, the command line's one that raises, and the
    fork ran on in the parent's frames. Here every fork sends itself the signal
    before it starts. It must wait for the reset, never run the inherited handler
    (which here ends the child with status 3): a SIGTERM then ends the child by its
    default action (status -15), a Ctrl-C is dropped and the child answers."""
    import multiprocessing.process
    import os
    import signal

    from optimal_mm.cli import on_sigterm
    from optimal_mm.errors import OptimalMMError
    original = multiprocessing.process.BaseProcess._bootstrap
    signum = getattr(signal, sig)

    def bootstrap(self, *args, **kwargs):
        try:
            os.kill(os.getpid(), signum)
            time.sleep(0.05)  # room for a handler to run
        except BaseException:  # the inherited handler ran (and raised)
            os._exit(3)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "_bootstrap", bootstrap)
    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        if sig == "SIGTERM":
            with pytest.raises(OptimalMMError, match=r"exit status -15\)"):
                streams_with_time_limit(range, [(3,)], 30)
        else:
            assert streams_with_time_limit(range, [(3,)], 30) == ([[0, 1, 2]], [True])
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not signal.pthread_sigmask(signal.SIG_BLOCK, set()) & {signal.SIGTERM,
                                                                  signal.SIGINT}


def test_stream_with_time_limit_keeps_what_came_in_time():
    start = time.perf_counter()
    assert stream_with_time_limit(_yield_then_wait, (1, 2), 1.0) == ([1, 2], False)
    assert time.perf_counter() - start < 20  # the child was stopped, not awaited
    assert stream_with_time_limit(range, (3,), 30) == ([0, 1, 2], True)
    with pytest.raises(ZeroDivisionError, match="after one"):
        stream_with_time_limit(_fail_after_one, (), 30)


def test_root_of_mastermind(mastermind):
    # Koyama and Lai 1993: 5625 in total; Knuth 1977: 5 guesses always suffice.
    by_tree = Advisor(mastermind, time_limit=None)
    by_search = Advisor(mastermind, time_limit=None, strategy=None)
    tree = by_tree.advise([])
    assert (tree.value, tree.proven, tree.source) == (5625, True, "tree")
    searched = by_search.advise([])
    assert (searched.value, searched.source) == (5625, "search")
    worst = by_tree.advise([], "worst-case")
    assert (worst.value, worst.proven, worst.source) == (5, True, "search")
    # Consistent guesses only: 5660 (published claim, REFERENCE.md) and 6 in the worst case.
    hard = Advisor(mastermind, "consistent", time_limit=None)
    assert hard.advise([]).value == 5660
    assert hard.advise([], "worst-case").value == 6


def test_search_agrees_with_the_shipped_tree_below_its_first_guess(mastermind):
    """Every position two levels down the optimal tree: the search's value equals the
    subtree's total (the tree is optimal there), and so does the tree's guess."""
    strategy = load_shipped_strategy(mastermind)
    search = Advisor(mastermind, time_limit=None, strategy=None)
    root = strategy.root
    checked = 0
    for key in sorted(root.next):
        turns = [Turn(root.guess, mastermind.parse_answer(key))]
        secrets = consistent_secrets(mastermind, turns)
        node = root.next[key]
        total, _ = subtree_cost(mastermind, node, secrets)
        advice = search.advise(turns)
        assert advice.value == total, key
        assert search.guess_value(turns, node.guess) == total
        checked += 1
    answers = {mastermind.score(root.guess, s) for s in range(mastermind.n_codes)}
    assert checked == len(root.next) == len(answers) - 1  # every branch but the win
    after = parse_history(mastermind, "1123=1B1W")
    assert Advisor(mastermind).advise(after).to_dict() == search.advise(after).to_dict()


def test_grades(mastermind):
    advisor = Advisor(mastermind, time_limit=None)
    turns = parse_history(mastermind, "1123=1B1W 1415=0B0W 2345=?")
    grades = advisor.grade(turns)
    assert [g.turn for g in grades] == [1, 2, 3]
    # The tree's guesses lose nothing in the expected case.
    assert grades[0].expected_lost == 0 and grades[1].expected_lost == 0
    assert grades[0].worst_lost == 0  # 1123 also keeps the worst case at 5
    third = grades[2]
    best = advisor.advise(turns[:2])
    assert third.best_expected == best.value and third.remaining == best.remaining
    # The value of a guess is |S| plus the best values of its parts.
    parts = [a for a in mastermind.possible_answers if a != mastermind.win]
    total = third.remaining
    for a in parts:
        after = turns[:2] + [Turn("2345", a)]
        if len(consistent_secrets(mastermind, after)):
            total += advisor.advise(after).value
    assert third.expected_value == total
    assert third.expected_lost == pytest.approx((total - best.value) / best.remaining)
    assert third.expected_lost > 0
    assert third.worst_lost >= 0
    assert "lost +" in str(third)


def test_time_limit_falls_back_to_a_heuristic(mastermind):
    advisor = Advisor(mastermind, time_limit=0.01, strategy=None)
    advice = advisor.advise([])
    assert (advice.proven, advice.source) == (False, "heuristic")
    assert advice.value == build_strategy(mastermind, "entropy").validate().total
    assert advice.guess == build_strategy(mastermind, "entropy").root.guess
    # With the shipped tree the root is answered at once, whatever the limit.
    assert Advisor(mastermind, time_limit=0.01).advise([]).proven


def test_grade_keeps_what_was_proven_in_time(bulls):
    # Bulls and Cows: the expected case at the root (Tanaka's total 26274, REFERENCE.md)
    # comes from the shipped tree at once; the worst case (7, a search of many
    # seconds) cannot be proven in 0.5 s.
    grade = Advisor(bulls, time_limit=0.5).grade_turn([], "0123")
    assert grade.expected_lost == 0 and grade.best_expected == 26274
    assert grade.worst_lost is None
    assert str(grade) == ("guess 1 0123 (5040 left): lost +0.0000 expected, ? worst case "
                          "(?: the time limit ran out)")


def test_run_with_time_limit():
    assert run_with_time_limit(pow, (2, 10), 30) == 1024
    start = time.perf_counter()
    assert run_with_time_limit(time.sleep, (30,), 0.2) is None
    assert time.perf_counter() - start < 20  # the child was stopped, not awaited
    with pytest.raises(ZeroDivisionError):
        run_with_time_limit(divmod, (1, 0), 30)


def test_bad_requests(mastermind):
    with pytest.raises(InvalidOptionError, match="'best'"):
        Advisor(mastermind, time_limit=None).advise([], "best")
    with pytest.raises(InvalidOptionError, match="'some'"):
        Advisor(mastermind, "some")
    with pytest.raises(InvalidOptionError, match="-1"):
        Advisor(mastermind, time_limit=-1)
    with pytest.raises(InconsistentAnswersError, match="#1 1123=1B1W and #2 1123=0B0W"):
        Advisor(mastermind).advise(parse_history(mastermind, "1123=1B1W 1123=0B0W"))


# -------------------------------------------------------------------- CLI
def run(monkeypatch, capsys, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_json(monkeypatch, capsys, mastermind):
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--json"])
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert set(doc) == {"remaining", "guess", "objective", "value", "proven"}
    assert doc == {"remaining": 1296, "guess": "1123", "objective": "expected",
                   "value": 5625, "proven": True}
    code, out, _ = run(monkeypatch, capsys, ["hint", "mastermind", "--objective", "worst-case",
                                             "--history", "1234=0B2W", "--json"])
    doc = json.loads(out)
    assert doc["objective"] == "worst-case" and doc["proven"] and doc["remaining"] == 312
    search = Advisor(mastermind, time_limit=None, strategy=None)
    assert doc["value"] == search.advise(parse_history(mastermind, "1234=0B2W"),
                                         "worst-case").value


def test_hint_text_and_grade(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--history",
                                               "1234=0B2W 5611=1B0W", "--grade"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("36 of 1296 secrets remain after 1234=0B2W 5611=1B0W")
    assert lines[1].startswith("guess 1 1234 (1296 left): lost +")
    assert lines[1].endswith("best 1123")
    assert lines[2].startswith("guess 2 5611 (312 left)")
    assert lines[3].startswith("best guess: ") and "proven by exact search" in lines[3]
    code, out, _ = run(monkeypatch, capsys, ["hint", "mastermind", "--history", "1123=1B1W",
                                             "--grade", "--json"])
    doc = json.loads(out)
    assert doc["grades"][0]["expected_lost"] == 0 and doc["hint"]["guess"] == "1415"


def test_grading_in_hard_mode_says_which_guesses_broke_the_rule(monkeypatch, capsys):
    """With --guesses consistent, 1111 after 1123=1B1W cannot be the secret (it
    scores 2B0W against 1123): it is graded, and said to break the rule; 1123 and a
    consistent second guess are not."""
    game = Game.from_spec("mastermind")
    assert game.score("1111", "1123") != game.parse_answer("1B1W")
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--guesses", "consistent",
                                               "--history", "1123=1B1W 1111=0B0W", "--grade",
                                               "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert [g["allowed"] for g in doc["grades"]] == [True, False]
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--guesses", "consistent",
                                               "--history", "1123=1B1W 1111=0B0W", "--grade"])
    lines = out.splitlines()
    assert "rule forbids" not in lines[1] and lines[2].endswith(
        "; not a consistent guess, which the rule forbids")
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--guesses", "consistent",
                                               "--history", "1123=1B1W 1415=0B0W", "--grade"])
    assert code == 0 and "rule forbids" not in out, err


def test_hint_after_a_win_advises_no_guess(monkeypatch, capsys):
    # It had named the won code as the best next guess.
    code, out, err = run(monkeypatch, capsys, ["hint", "mastermind", "--history",
                                               "1123=0B1W 3456=4B0W", "--grade"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "1 of 1296 secrets remains after 1123=0B1W 3456=4B0W"
    assert lines[2].startswith("guess 2 3456 (276 left): lost +0.0870 expected")
    assert lines[-1] == ("the game is won: 3456 is the secret, found by guess #2; no "
                         "guess to advise")
    assert "best guess" not in out
    code, out, _ = run(monkeypatch, capsys, ["hint", "mastermind", "--history",
                                             "1111=4B0W", "--json"])
    assert json.loads(out) == {"remaining": 1, "won": True, "secret": "1111", "turns": 1}
    # A win that the other answers contradict is refused as any history is.
    code, _, err = run(monkeypatch, capsys, ["hint", "mastermind", "--history",
                                             "1123=0B2W 3456=4B0W"])
    assert code == 2 and "contradict each other" in err


def test_hint_unproven_is_said(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["hint", "p4c5", "--history", "1234=?",
                                             "--time-limit", "0.01"])
    # p4c5 has no shipped tree; with 0.01 s the search cannot finish in the child.
    assert code == 0
    assert "NOT proven" in out and "time limit of 0.01 s ran out" in out


def test_hint_rank_text_and_json(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["hint", "mastermind", "--rank"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "mastermind: 1296 secrets"
    assert lines[1].startswith("5 classes of equivalent guesses")
    assert lines[2].split() == ["guess", "codes", "total", "average", "lost"]
    assert lines[3].split() == ["1123", "720", "5625", "4.3403", "best"]
    assert lines[7].split()[:3] == ["1111", "6", "6318"] and len(lines) == 8
    code, out, _ = run(monkeypatch, capsys, ["hint", "p3c3", "--rank", "--objective",
                                             "worst-case", "--history", "111=0B0W",
                                             "--json"])
    doc = json.loads(out)
    assert code == 0 and doc["complete"] and doc["objective"] == "worst-case"
    assert doc["remaining"] == 8 and sum(r["codes"] for r in doc["ranking"]) == 27
    assert doc["ranking"][0]["value"] == min(r["value"] for r in doc["ranking"])


def test_black_only_classes_are_the_searchs_fewer_ones():
    """p3c4b's first guesses are one class under each position's colours renamed on
    its own (three under colours and positions: 111, 112, 123)."""
    from optimal_mm.symmetry import orbit_sizes

    game = Game.from_spec("p3c4b")
    ranking = Advisor(game, "any", time_limit=None, strategy=None).rank([])
    assert [(r.guess, r.codes) for r in ranking.guesses] == [("111", 64)]
    assert len(orbit_sizes(game, (), np.arange(64))[0]) == 3


@pytest.mark.parametrize("jobs", ["-1", "0"])
def test_hint_rank_reads_jobs_as_solve_does(monkeypatch, capsys, jobs):
    """-1 and 0 mean one process per core, as for solve (before, hint refused them);
    the ranking is the one of a single process."""
    code, out, _ = run(monkeypatch, capsys, ["hint", "p3c3", "--rank", "--jobs", jobs])
    code1, out1, _ = run(monkeypatch, capsys, ["hint", "p3c3", "--rank", "--jobs", "1"])
    assert code == code1 == 0 and out == out1
    with pytest.raises(SystemExit) as exit_:
        main(["hint", "mastermind", "--rank", "--jobs", "-2"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--jobs: must be -1..1024, got -2" in err


def test_hint_rank_cut_by_the_time_limit_says_so(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["hint", "bulls-and-cows", "--rank",
                                             "--history", "0123=0B1W", "--time-limit", "0.3"])
    assert code == 0 and "not valued" in out
    assert "the time limit of 0.3 s ran out (raise --time-limit)" in out


@pytest.mark.parametrize("argv,needle", [
    (["hint", "mastermind", "--rank", "--grade"], "--rank and --grade"),
    (["hint", "mastermind", "--jobs", "2"], "--jobs is for --rank"),
    (["hint", "mastermind", "--history", "1123=1B1W 1123=2B0W"], "#1 1123=1B1W and #2"),
    (["hint", "mastermind", "--history", "1123"], "'1123'"),
    (["hint", "mastermind", "--history", "1129=1B"], "1129"),
    (["hint", "mastermind", "--time-limit", "0"], "0"),
    (["hint", "p5c8"], "p5c8"),
])
def test_hint_errors_one_line(monkeypatch, capsys, argv, needle):
    code, out, err = run(monkeypatch, capsys, argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["p5c8", "p12c12", "p9c9", "p16c2", "p3c300"])
def test_a_game_too_big_for_advice_is_sent_to_a_command_that_takes_it(spec):
    # p12c12 was sent to 'strategy', which refuses every game whose codes cannot be
    # listed: the suggestion is now run through the command-line parser and the
    # check of the command it names.
    import re
    import shlex

    from optimal_mm.cli import build_parser
    from optimal_mm.errors import TooLargeError
    from optimal_mm.player import heuristic_codebreaker

    game = Game.from_spec(spec)
    with pytest.raises(TooLargeError) as refused:
        Advisor(game)
    argv = shlex.split(re.search(r"Use '([^']*)' instead", str(refused.value)).group(1))
    assert argv[0] == "optimal-mm"
    args = build_parser(argv[1]).parse_args(argv[1:])
    assert args.command in ("strategy", "play") and args.game == spec
    if args.command == "strategy":
        game.check_enumerable("build a whole strategy tree for")
    else:
        pytest.importorskip("ortools")
        assert not game.is_enumerable
        heuristic_codebreaker(game, args.heuristic, seed=args.seed, move_time=args.move_time)


def test_search_agrees_with_the_bulls_and_cows_tree(bulls):
    """Positions two guesses down the shipped Bulls and Cows tree (Tanaka's 26274):
    the search on the secrets left finds the subtree's total."""
    strategy = load_shipped_strategy(bulls)
    search = Advisor(bulls, time_limit=None, strategy=None)
    root = strategy.root
    checked = 0
    for key1, node1 in sorted(root.next.items()):
        for key2, node2 in sorted(node1.next.items()):
            turns = [Turn(root.guess, bulls.parse_answer(key1)),
                     Turn(node1.guess, bulls.parse_answer(key2))]
            secrets = consistent_secrets(bulls, turns)
            if not 10 <= len(secrets) <= 40 or checked == 6:
                continue
            total, _ = subtree_cost(bulls, node2, secrets)
            assert search.advise(turns).value == total, turns
            checked += 1
    assert checked == 6


@pytest.mark.parametrize("module", ["optimal_mm.advice", "optimal_mm.history",
                                    "optimal_mm.player"])
def test_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed


@pytest.mark.parametrize("spec", ["mastermind", "bulls-and-cows"])
def test_tree_answers_positions_equal_up_to_symmetry(spec):
    """Guesses of the player's own that a renaming of colours and places maps onto a
    path of the tree: the tree answers at once, and the exact search confirms both
    the value and that the renamed guess attains it."""
    game = Game.from_spec(spec)
    strategy = load_shipped_strategy(game)
    tree = Advisor(game, time_limit=None)
    search = Advisor(game, time_limit=None, strategy=None)
    rng = random.Random(spec)
    checked = 0
    while checked < 4:
        # A random path of two guesses down the tree, to a node of 5 to 60 secrets.
        node, path = strategy.root, []
        for _ in range(2):
            key = rng.choice(sorted(node.next))
            path.append(Turn(node.guess, game.parse_answer(key)))
            node = node.next[key]
        secrets = consistent_secrets(game, path)
        if not 5 <= len(secrets) <= 60:
            continue
        # The player's guesses: the path under a random renaming of colours and places.
        places = rng.sample(range(game.pegs), game.pegs)
        colours = rng.sample(range(game.colours), game.colours)

        def rename(code):
            c = game.parse_code(code)
            return "".join(game.alphabet[colours[c[places[i]]]] for i in range(game.pegs))
        turns = [Turn(rename(t.guess), t.answer) for t in path]
        advice = tree.advise(turns)
        assert advice.source == "tree" and advice.remaining == len(secrets)
        assert advice.value == subtree_cost(game, node, secrets)[0]
        # Colours no guess played are interchangeable: the guess may differ from the
        # renamed tree guess in those, so it is checked by the search.
        assert search.advise(turns).value == advice.value
        assert search.guess_value(turns, advice.guess) == advice.value
        checked += 1


def _raise_terminated(signum, frame):
    raise KeyboardInterrupt("SIGTERM")


def test_the_search_process_ends_quietly_once_it_has_answered(capfd):
    """The command line turns SIGTERM into an exception, which a forked search process
    inherits; ended by the parent just after it sent its answer, the process used to
    print that exception's traceback under the command's output (one run in two of
    `optimal-mm hint mastermind --history "1122=1B1W 3344=0B1W"`)."""
    import signal

    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        for _ in range(20):
            assert len(run_with_time_limit(bytes, (200_000,), 30)) == 200_000
    finally:
        signal.signal(signal.SIGTERM, previous)
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
