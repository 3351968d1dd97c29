"""A rival first guess with big parts is refuted by a chain of tasks
(``Solver._guess_by_parts``), not by one task that may outlast a session.

The chain must give the one task's answer (:func:`optimal_mm.search_tasks._exp_guess_task`):
the exact total when it is below the budget, else None; and a run stopped in the
middle of a chain must resume from the tasks it saved.
"""

from __future__ import annotations

import threading

import pytest

from optimal_mm import Game, search, search_parts, search_tasks
from optimal_mm._search_arrays import INF
from optimal_mm.checkpoint import read_entries
from optimal_mm.search import NO_CAP, Solver

from script_loader import load_script

SPLIT = 60  # mastermind's first guesses then have parts of 60 secrets or more


def _first_guesses(solver):
    """``{first guess: (parts, bounds, n)}`` for mastermind's first-guess classes."""
    ctx = solver._ctx
    secrets, reps = solver._root()
    lb = ctx.bounds(0)[NO_CAP]
    out = {}
    for g in reps:
        parts = [p for _, p in solver._parts(int(g), secrets)]
        if len(parts) > 1:
            out[int(g)] = (parts, [int(lb[len(p)]) for p in parts], len(secrets))
    return out


@pytest.fixture()
def chained(monkeypatch):
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    solver = Solver(Game.from_spec("mastermind"), jobs=1, table_entries=60_001)
    with solver._session("expected", None):
        yield solver


def test_chain_gives_the_exact_total_of_every_first_guess(chained):
    # With no budget to speak of, the chain solves the first guess exactly: the sum
    # of its parts' values, as the one-task search finds them; with the total as
    # budget it is refuted, with one more it is the total again.
    ctx = chained._ctx
    for g, (parts, lbs, n) in _first_guesses(chained).items():
        assert any(len(p) >= SPLIT for p in parts)
        exact = n + sum(int(ctx.exp(p, search.INF, NO_CAP, None)[0]) for p in parts)
        assert chained._guess_by_parts((), g, parts, lbs, n, 10**9, NO_CAP, 0) == exact
        assert chained._guess_by_parts((), g, parts, lbs, n, exact, NO_CAP, 0) is None
        assert chained._guess_by_parts((), g, parts, lbs, n, exact + 1, NO_CAP, 0) == exact


def test_chain_agrees_with_the_single_task(chained):
    # Budgets around the totals: the chain and _exp_guess_task answer alike.
    for g, (parts, lbs, n) in _first_guesses(chained).items():
        for bound in (sum(lbs) + n + 1, 5625, 5700, 5800):
            task, trees, _ = search_tasks._exp_guess_task(chained.game, False, 60_001, True, (), g,
                                                    parts, lbs, n, bound, NO_CAP, 0)
            assert chained._guess_by_parts((), g, parts, lbs, n, bound, NO_CAP, 0) == task
            # A rival below its bound keeps its parts' trees: each part's own optimum
            # and tree, as the part's task alone finds them
            assert (trees is None) == (task is None)
            if trees is not None and bound == 5800:
                for part, (value, tree) in zip(parts, trees):
                    alone = search_tasks._exp_part_task(chained.game, False, 60_001, True, (g,),
                                                  part, search.INF, NO_CAP, True, 0)
                    assert (value, tree) == alone[:2]
            assert n + sum(v for v, _ in trees or ()) == (task or n)


def _small_of(parts, lbs, n):
    """A chain's small parts (below :data:`SPLIT` secrets), their bounds, and its
    secrets plus the big parts' bounds, as :meth:`Solver._guess_by_parts` has them."""
    small = [i for i, p in enumerate(parts) if len(p) < SPLIT]
    known = n + sum(lb for p, lb in zip(parts, lbs) if len(p) >= SPLIT)
    return [parts[i] for i in small], [lbs[i] for i in small], known


def test_small_parts_in_pieces_answer_as_the_one_task(chained):
    # A chain's small parts, probed in one task and then solved one task each, give
    # the answer of the one task that searched them all (the search until
    # 2026-12-06): the same total below the bound, None at or above it, whether the
    # probes refute them (a bound just above their bounds' sum) or the values do.
    for g, (parts, lbs, n) in _first_guesses(chained).items():
        small, small_lbs, known = _small_of(parts, lbs, n)
        assert small
        exact = known + sum(int(chained._ctx.exp(p, search.INF, NO_CAP, None)[0])
                            for p in small)
        for bound in (known + sum(small_lbs) + 1, exact, exact + 1, 10**9):
            one, _, _ = search_tasks._exp_guess_task(chained.game, False, 60_001, True, (),
                                                     g, small, small_lbs, known, bound,
                                                     NO_CAP, 0)
            pieces, trees, counters = chained._small_parts((), g, small, small_lbs, known,
                                                           bound, NO_CAP, 0, "small")
            assert pieces == one == (exact if exact < bound else None)
            assert trees is None and not counters.any()  # the tasks hold the work


def test_a_run_stopped_in_a_chains_small_parts_keeps_those_done(tmp_path, monkeypatch):
    # The probes of 1122's small parts are one task, and each part they leave is a
    # task of its own, saved as it ends: stopped after the first of them, the run
    # resumed computes only the others, and the small parts' answer is saved as the
    # one task's. A checkpoint holding that answer (as the search before 2026-12-06
    # saved it, one task) is read back whole: no piece is computed again.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    g = game.code_index("1122")
    plain = Solver(game, jobs=1, table_entries=60_001)
    with plain._session("expected", None):
        parts, lbs, n = _first_guesses(plain)[g]
    small, small_lbs, known = _small_of(parts, lbs, n)
    args = ((), g, small, small_lbs, known, 10**9, NO_CAP, 0)

    class StopAt(search.Progress):
        def __init__(self):
            self.labels, self.done = [], 0

        def phase(self, label, total, done=0):
            self.labels.append((label, total))

        def advance(self, n=1, resumed=False):
            self.done += n
            if self.done == 2:  # the probes, then one part
                raise KeyboardInterrupt

    stop = StopAt()
    solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path, progress=stop)
    with solver._session("expected", None), pytest.raises(KeyboardInterrupt):
        solver._saved_or(search_tasks._exp_guess_task, args,
                         lambda: solver._small_parts(*args, "small"))
    (_, probed), (_, todo) = stop.labels
    assert probed == 1 and 2 <= todo <= len(small)
    assert len(list(tmp_path.glob("task-*.json"))) == 2
    again = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path)
    with again._session("expected", None):
        result = again._saved_or(search_tasks._exp_guess_task, args,
                                 lambda: again._small_parts(*args, "small"))
    assert again.checkpoint.loaded == 2 and again.checkpoint.stored == todo - 1 + 1
    one, _, _ = search_tasks._exp_guess_task(game, False, 60_001, True, *args)
    assert result[0] == one
    old = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path / "one")
    with old._session("expected", None):  # computed as one task and saved
        assert old._runner.run(search_tasks._exp_guess_task, [args])[0][0] == one
    for folder in (tmp_path, tmp_path / "one"):
        third = Solver(game, jobs=1, table_entries=60_001, checkpoint=folder)
        with third._session("expected", None):
            assert third._saved_or(search_tasks._exp_guess_task, args, None)[0] == one
        assert third.checkpoint.loaded == 1 and third.checkpoint.stored == 0


class StopAfter(search.Progress):
    """Records the phase labels; raises KeyboardInterrupt after ``tasks`` tasks."""

    def __init__(self, tasks=None):
        self.left, self.labels, self.done = tasks, [], 0
        self.tasks = {}  # phase label -> tasks finished in it

    def phase(self, label, total, done=0):
        self.labels.append(label)

    def advance(self, n=1, resumed=False):
        self.done += n
        if self.labels:
            self.tasks[self.labels[-1]] = self.tasks.get(self.labels[-1], 0) + n
        if self.left is not None:
            self.left -= n
            if self.left <= 0:
                raise KeyboardInterrupt


def test_rivals_are_chains_and_a_stopped_chain_resumes(tmp_path, monkeypatch):
    # Mastermind's 794 tasks with parts split from 60 secrets: the last ~110 are the
    # chains of the rival first guesses 1122 and 1112; stopped inside the first.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    watch = StopAfter()
    plain = Solver(game, jobs=1, table_entries=60_002, progress=watch).expected()
    chain = sum(n for label, n in watch.tasks.items() if "of rival 1122" in label)
    assert any("rival 1122, its 6 small parts" in label for label in watch.labels)
    assert chain >= 20  # tasks of the chain, each saved on its own
    stop = StopAfter(watch.done - 50)
    with pytest.raises(KeyboardInterrupt):
        Solver(game, jobs=1, table_entries=60_003, checkpoint=tmp_path,
               progress=stop).expected()
    assert "of rival 1122" in stop.labels[-1]  # stopped inside a chain
    saved = len(list(tmp_path.glob("task-*.json")))
    # Each task done is saved, and so is the small parts' answer of each chain whose
    # small parts were done, found in pieces: their probes in one task, then each
    # part's value alone (a chain beside may have begun them too)
    whole = _small_parts_answered(tmp_path)
    pieces = [task for _, task, _, _ in read_entries(tmp_path) if (
        task["function"] == "_exp_probe_task" and task["args"][1] in whole) or (
        task["function"] == "_exp_part_task" and task["args"][2] >= INF
        and not task["args"][4] and task["args"][0][0] in whole)]
    assert saved == watch.done - 50 + len(whole)
    assert game.code_index("1122") in whole and len(pieces) > len(whole)
    again = Solver(game, jobs=1, table_entries=60_004, checkpoint=tmp_path)
    sol = again.expected()
    assert sol.value == plain.value == 5625
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    # Read again, the small parts' answer is that one task's: its pieces are not read
    assert again.checkpoint.loaded == saved - len(pieces)
    # The 50 tasks left, and the small parts' answers that they completed
    assert again.checkpoint.stored == 50 + len(_small_parts_answered(tmp_path) - whole)


def _small_task(solver, code) -> tuple:
    """The arguments of the small parts' task of mastermind's first guess ``code``
    (as :meth:`Solver._guess_by_parts` makes them), with no budget to speak of."""
    secrets, _ = solver._root()
    g = solver.game.code_index(code)
    parts = [p for _, p in solver._parts(g, secrets)]
    lb = solver._ctx.bounds(0)[NO_CAP]
    small, small_lbs, known = _small_of(parts, [int(lb[len(p)]) for p in parts],
                                        len(secrets))
    return (), g, small, small_lbs, known, 10**9, NO_CAP, 0


def test_a_renamed_chains_small_parts_take_the_values_found(tmp_path, monkeypatch):
    # 2211 is 1122 with colours 1 and 2 swapped, so its small parts are renamings of
    # 1122's: once 1122's are solved, each of 2211's that the probes leave takes the
    # value of its renaming, saved as its own entry (untimed), computed nowhere, and
    # their total is still the one task's. Without symmetry, none is taken so.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    one_task = {}
    runs = {}
    for symmetry in (True, False):
        computed = []
        folder = tmp_path / f"symmetry-{symmetry}"
        solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=folder,
                        symmetry=symmetry)
        real_run = solver._runner.run

        def run(fn, arg_lists, *args, real_run=real_run, computed=computed, **kw):
            if fn is search_tasks._exp_part_task:
                computed.extend(len(a[1]) for a in arg_lists)
            return real_run(fn, arg_lists, *args, **kw)

        solver._runner.run = run
        with solver._session("expected", None):
            for code in ("1122", "2211"):
                args = _small_task(solver, code)
                if code not in one_task:
                    one_task[code] = search_tasks._exp_guess_task(game, False, 60_001, True,
                                                                  *args)[0]
                answer = solver._small_parts(*args, "small")[0]
                assert answer == one_task[code]
                computed.append(code)
        runs[symmetry] = computed, solver._renamed, folder
    assert one_task["1122"] == one_task["2211"]
    computed, renamed, folder = runs[True]
    first = computed[:computed.index("1122")]
    assert first and computed[computed.index("1122") + 1:] == ["2211"]  # none computed
    assert renamed.found == len(first)
    untimed = [task for _, task, _, timing in read_entries(folder)
               if task["function"] == "_exp_part_task" and timing is None]
    assert len(untimed) == len(first) and all(t["args"][0] == [game.code_index("2211")]
                                              for t in untimed)
    computed, renamed, _ = runs[False]
    i = computed.index("1122")
    assert renamed is None and computed[-1] == "2211"
    assert computed[:i] and sorted(computed[:i]) == sorted(computed[i + 1:-1])


def test_renamings_of_parts_too_short_to_keep_are_not_saved(tmp_path, monkeypatch):
    # With --checkpoint-min-seconds above every part's time, 1122's small parts are
    # solved and not kept; 2211's take their values all the same, but are not saved
    # either (each a copy of no work, which a later run finds again at the cost of
    # the part it renames). Kept (a minimum of 0), they are, as the test above says.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    for minimum, copies_saved in ((1e9, False), (0.0, True)):
        folder = tmp_path / f"min-{minimum}"
        solver = Solver(game, jobs=1, table_entries=60_001, checkpoint=folder,
                        checkpoint_min_seconds=minimum)
        with solver._session("expected", None):
            answers = [solver._small_parts(*_small_task(solver, code), "small")[0]
                       for code in ("1122", "2211")]
        assert answers[0] == answers[1] and solver._renamed.found > 0
        saved = [task["args"][0] for _, task, _, _ in read_entries(folder)
                 if task["function"] == "_exp_part_task"]
        copies = [h for h in saved if h == [game.code_index("2211")]]
        assert len(copies) == (solver._renamed.found if copies_saved else 0)
        if not copies_saved:
            assert saved == []  # nor the parts they rename


def test_small_parts_read_back_whole_lend_their_values_to_renamings(tmp_path,
                                                                      monkeypatch):
    # A resumed run reads 1122's small parts back as one answer, not part by part;
    # it still keeps the values of its parts that the checkpoint holds, so 2211's
    # parts left by the probes are renamings found, not tasks.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    first = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path)
    with first._session("expected", None):
        total = first._small_answer(_small_task(first, "1122"), "1122")
    values = len([t for _, t, _, _ in read_entries(tmp_path)
                  if t["function"] == "_exp_part_task"])
    again = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path)
    with again._session("expected", None):
        assert again._small_answer(_small_task(again, "1122"), "1122") == total
        assert again.checkpoint.stored == 0 and again._renamed.found == 0
        assert again._small_answer(_small_task(again, "2211"), "2211") == total
    assert values >= 2 and again._renamed.found == values
    # stored: the probes' task, each part's value found, and the small parts' answer
    assert again.checkpoint.stored == 1 + values + 1
    # A race reads a chain's whole answer back, its small parts unasked: their values
    # are kept all the same (those under the chain threshold, as _guess_by_parts
    # splits its parts)
    third = Solver(game, jobs=1, table_entries=60_001, checkpoint=tmp_path)
    with third._session("expected", None):
        g = game.code_index("1122")
        secrets, _ = third._root()
        parts = [p for _, p in third._parts(g, secrets)]
        third._remember_chain(((), g, parts, [0] * len(parts), len(secrets), 10**9,
                               NO_CAP, 0))
        renamed = [third._renamed.get(p, (NO_CAP, 0))
                   for p in _small_task(third, "2211")[2]]
    assert len([v for v in renamed if v is not None]) == values


def test_renamed_small_parts_side_by_side_are_solved_once(tmp_path, monkeypatch):
    # 1122's and 2211's small parts in two threads at once, as two rivals with the
    # same bounds run side by side: each part left by the probes is solved by one
    # of the two while the other waits for it, its slot lent; both answers are the
    # one task's, and the parts' values are solved once in all.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", SPLIT)
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=2, table_entries=60_001, checkpoint=tmp_path)
    assert solver._beside is not None
    computed = []
    real_run = solver._runner.run

    def run(fn, arg_lists, *args, **kw):
        if fn is search_tasks._exp_part_task:
            computed.extend(len(a[1]) for a in arg_lists)
        return real_run(fn, arg_lists, *args, **kw)

    solver._runner.run = run
    # 2211's thread claims only once 1122's has, and 1122's solves only once 2211's has
    # claimed (so the wait is sure to be tested: had 1122's solved every part first,
    # 2211's would find their values and claim nothing, as a run may)
    g1122, g2211 = game.code_index("1122"), game.code_index("2211")
    first_claimed, second_claimed, claims = threading.Event(), threading.Event(), {}
    real_claimed = Solver._claimed

    def claimed(self, tasks, run):
        g = tasks[0][0][-1]
        if g == g2211:
            assert first_claimed.wait(60)
        claims[g] = real_claimed(self, tasks, run)
        if g == g1122:
            first_claimed.set()
            assert second_claimed.wait(60)
        else:
            second_claimed.set()
        return claims[g]

    monkeypatch.setattr(Solver, "_claimed", claimed)
    with solver._session("expected", None):
        tasks = {code: _small_task(solver, code) for code in ("1122", "2211")}
        assert solver._beside.take()
        beside = solver._runner.beside(lambda: solver._small_parts(*tasks["2211"], "b"))
        try:
            here = solver._small_parts(*tasks["1122"], "a")[0]
        finally:
            there = beside.join()[0]
            solver._beside.give()
    one = search_tasks._exp_guess_task(game, False, 60_001, True, *tasks["1122"])[0]
    assert here == there == one
    mine, theirs = claims[g1122]
    assert mine and not theirs  # 1122's thread claims every part its probes leave
    assert claims[g2211][0] == [] and len(claims[g2211][1]) == len(mine)  # 2211's waits
    assert len(computed) == len(mine) == solver._renamed.found  # each part solved once
    assert solver._beside.free == 1


def test_the_proof_counts_the_small_parts_valued_as_renamings(monkeypatch):
    # The solution's proof says how many small parts took a renaming's value in its
    # search (not those of an earlier search of the same solver); none, no line.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    solver = Solver(Game.from_spec("p4c5nb"), jobs=1, chain_secrets=4)
    plain = solver.expected()
    assert not [x for x in plain.proof if "renaming" in x]
    real = Solver._guess_by_parts

    def chain(self, *args):  # as if each chain had met two renamings
        self._renamed.found += 2
        return real(self, *args)

    monkeypatch.setattr(Solver, "_guess_by_parts", chain)
    before = solver._renamed.found
    again = solver.expected()
    n = solver._renamed.found - before
    assert again.value == plain.value and n > 0
    assert f"{n:,} small parts of chains valued as a renaming of one solved before " \
           "(a renaming keeps every answer)" in again.proof


def _small_parts_answered(path) -> set:
    """The rival first guesses whose chain's small parts have their answer saved in
    the checkpoint ``path`` as one task's (their parts cover fewer than its secrets)."""
    return {task["args"][1] for _, task, _, timing in read_entries(path)
            if task["function"] == "_exp_guess_task" and (timing or {}).get("pieces")
            and not task["args"][0]
            and search_tasks.saved_small_parts(task["args"])}


def test_later_chains_take_the_best_total_so_far_as_budget(monkeypatch):
    # p5c4, fewest secrets at the worst depth: 11123 is solved first, then the rival
    # 11223 beats it; the chains after it need only beat 11223, so their budget is
    # its cost (plus one for a rival earlier in the order, which wins a tie). The
    # value and the tree are those of the search without chains.
    game = Game.from_spec("p5c4")
    plain = Solver(game, jobs=1).fewest_at_worst()
    assert any("11223 proved better" in line for line in plain.proof)
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    calls, chain = [], Solver._guess_by_parts

    def spy(self, history, g, parts, lbs, n, bound, d, weight):
        value = chain(self, history, g, parts, lbs, n, bound, d, weight)
        calls.append((g, bound, value))
        return value

    monkeypatch.setattr(Solver, "_guess_by_parts", spy)
    sol = Solver(game, jobs=1).fewest_at_worst()
    assert sol.value == plain.value and sol.proof == plain.proof
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    incumbent = calls[0][1]
    assert len(calls) >= 3
    # Every rival is a chain here, run in the order, so each one's budget is the
    # least of the incumbent and the totals of the chains before it (the "plus one"
    # for a rival later in the order arises only beside whole rivals).
    for i, (_, bound, _) in enumerate(calls):
        assert bound == min([incumbent, *(v for _, _, v in calls[:i] if v is not None)])
    assert any(bound < incumbent for _, bound, _ in calls)


def test_chain_below_a_first_guess_agrees_with_the_single_task(chained):
    # A second guess with a part of 60 secrets or more, after 1123 (its 276-secret
    # part): the chain (history (1123,)) answers as the one task does.
    game, ctx = chained.game, chained._ctx
    first = game.code_index("1123")
    part = [p for _, p in chained._parts(first, ctx.all_guesses) if len(p) == 276][0]
    lb = ctx.bounds(0)[NO_CAP]
    for second in ("2345", "1456", "1234", "4455"):
        g = game.code_index(second)
        subs = [q for _, q in ctx.split(g, part)]
        assert any(len(q) >= SPLIT for q in subs)
        lbs = [int(lb[len(q)]) for q in subs]
        for bound in (980, 1000, 1020, 10**9):
            task, _, _ = search_tasks._exp_guess_task(game, False, 60_001, True, (first,), g, subs,
                                                lbs, len(part), bound, NO_CAP, 0)
            assert chained._guess_by_parts((first,), g, subs, lbs, len(part), bound,
                                           NO_CAP, 0) == task


def _time_rival():
    return load_script("time_rival")


@pytest.mark.parametrize("mode", ["task", "chain"])
def test_time_rival_script(capsys, mode):
    script = _time_rival()
    assert script.main(["mastermind", "--first", "1123", "--part", "276", "--rival", "2345",
                        "--budget", "2000", "--mode", mode, "--table-entries", "100000"]) == 0
    assert f"{mode}: 1008," in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["p9x", "--first", "1", "--part", "2", "--rival", "1", "--budget", "9"], "p9x"),
    (["mastermind", "--first", "1123", "--part", "25", "--rival", "2345", "--budget", "9"],
     "no part of 25 secrets"),
    (["mastermind", "--first", "11234", "--part", "276", "--rival", "2345", "--budget", "9"],
     "11234"),
])
def test_time_rival_bad_input(capsys, argv, message):
    assert _time_rival().main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_time_small_parts_script(capsys):
    # Mastermind's 1122 with parts under 60 secrets small: both ways agree (the
    # script raises if not), under bounds above the total and below it
    script = load_script("time_small_parts")
    assert script.main(["mastermind", "--first", "1122", "--below", "60",
                        "--table-entries", "100000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("mastermind 1122: 6 small parts [36, 32, 20, 16, 4, 1], total ")
    total = int(out[0].split("total ")[1].split()[0])
    assert [line.split(":")[0] for line in out[1:]] == [
        f"bound {total + 60} (+60)", f"bound {total + 1} (+1)", f"bound {total - 3} (-3)"]
    assert [line.split("; ")[0].split(": ")[1] for line in out[1:]] == [
        str(total), str(total), "refuted"]


@pytest.mark.parametrize("argv, message", [
    (["p9x", "--first", "1", "--below", "60"], "p9x"),
    (["mastermind", "--first", "1234", "--below", "2"], "no parts under 2 secrets"),
])
def test_time_small_parts_bad_input(capsys, argv, message):
    assert load_script("time_small_parts").main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_recheck_rivals_script(capsys, tmp_path):
    # Mastermind within 5, the part of 208 secrets after 1122: each rival searched
    # again as a chain (parts of 20 secrets or more big), its small parts first,
    # gives the one task's total under a budget above it and "not below" at it.
    script = load_script("recheck_rivals")
    game = Game.from_spec("mastermind")
    solver = Solver(game, jobs=1, table_entries=100_000)
    with solver._session("worst-then-expected", None):
        (part,) = [p for _, p in solver.first_guess_parts(game.code_index("1122"))
                   if len(p) == 208]
        totals = {}
        for rival in ("1234", "1344"):
            task = solver._rival_task((game.code_index("1122"),), game.code_index(rival),
                                      part, 10**6, 4, 0)
            totals[rival] = search_tasks._exp_guess_task(game, False, 100_000, True,
                                                         *task)[0]
    for budget, expected in ((10**6, lambda t: f"total {t}"),
                             (min(totals.values()), None)):
        assert script.main(["mastermind", "--max-guesses", "5", "--first", "1122",
                            "--part", "208", "--budget", str(budget), "--chain-secrets",
                            "20", "--table-entries", "100000", "--jobs", "1",
                            "--checkpoint", str(tmp_path / str(budget)),
                            "--rivals", "1234", "1344"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert [line.split(": ")[0] for line in out] == [
            "1122 1234 (part of 208 secrets)", "1122 1344 (part of 208 secrets)"]
        for line, rival in zip(out, ("1234", "1344")):
            want = (expected(totals[rival]) if expected else
                    f"total {totals[rival]}" if totals[rival] < budget else
                    f"not below {budget}")
            assert line.split(": ")[1].startswith(want + " ("), (line, want)
    assert "not below" in "\n".join(out)  # the budget at the least total refutes it


def test_recheck_rivals_bad_input(capsys, tmp_path):
    script = load_script("recheck_rivals")
    argv = ["mastermind", "--max-guesses", "5", "--first", "1122", "--budget", "9",
            "--rivals", "1234", "--checkpoint", str(tmp_path / "c")]
    assert script.main([*argv, "--part", "25"]) == 2
    err = capsys.readouterr().err
    assert "no part of 25 secrets after 1122" in err and err.count("\n") == 1
    assert script.main([*argv[:-3], "9999", "--part", "208"]) == 2
    assert "9999" in capsys.readouterr().err


# --------------------------------------------------------- chains at every level


@pytest.mark.parametrize("spec, split, chain, objective", [
    ("p4c4b", 30, 4, "expected"), ("p4c4b", 30, 4, "fewest-at-worst"),
    ("p4c4b", 30, 4, "worst-then-expected"), ("p4c5nb", 30, 4, "fewest-at-worst"),
    ("p3c6nb", 20, 3, "expected")])
def test_chains_below_the_first_guess_give_the_same_value_and_tree(spec, split, chain,
                                                                   objective, monkeypatch):
    # With chain_secrets, a rival second guess of a big part (split at SPLIT_SECRETS)
    # with a part of `chain` secrets or more is a chain, whose own big parts' rivals
    # may be chains again, and a part of that size to be solved exactly is split by
    # its own guesses: the value and the tree are those of the search with whole
    # tasks (black-only games, as the open entries that need it, with and without
    # repeats: each reaches chains and splits below the third guess).
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", split)
    game = Game.from_spec(spec)
    depths = []
    real = search.Solver._guess_by_parts

    def spy(self, history, *args):
        depths.append(len(history))
        return real(self, history, *args)

    splits = []
    real_node = search.Solver._solve_node

    def spy_node(self, history, part, d, weight, on_better=None, on_progress=None):
        if self._splits(part, d):
            splits.append(len(history))
        return real_node(self, history, part, d, weight, on_better, on_progress)

    monkeypatch.setattr(search.Solver, "_guess_by_parts", spy)
    monkeypatch.setattr(search.Solver, "_solve_node", spy_node)
    whole = Solver(game, jobs=1).solve(objective)
    assert set(depths) <= {0} and not splits  # by default: rival first guesses only
    depths.clear()
    chained = Solver(game, jobs=1, chain_secrets=chain).solve(objective)
    assert chained.value == whole.value
    assert chained.strategy.root.to_dict() == whole.strategy.root.to_dict()
    assert max(depths) >= 2  # a chain below a rival second guess's own chain
    assert max(splits) >= 3  # a part split below a split part of the second guess


def test_chain_secrets_is_checked():
    for bad in (0, -3, 1.5, True, "12"):
        with pytest.raises(search.InvalidOptionError):
            Solver(Game.from_spec("p2c3"), jobs=1, chain_secrets=bad)


class Phases(StopAfter):
    """:class:`StopAfter` that also records the tasks done when each phase began."""

    def phase(self, label, total, done=0):
        super().phase(label, total, done)
        self.started = [*getattr(self, "started", []), self.done]


def test_a_chain_below_the_first_guess_stopped_resumes(tmp_path, monkeypatch):
    # p4c5nb's fewest secrets at the worst depth with chains from 4 secrets: stopped
    # inside the chain of a rival third guess ("rival 1234 2341 3415, its 1 small
    # parts"), the rerun reads back every task saved and computes only the others.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    watch, full = Phases(), tmp_path / "full"  # an uninterrupted run, its tasks saved
    plain = Solver(game, jobs=1, chain_secrets=4, checkpoint=full,
                   progress=watch).fewest_at_worst()
    third = [i for i, label in enumerate(watch.labels)
             if label.startswith("fewest-at-worst: rival ")
             and len(label[len("fewest-at-worst: rival "):].split(",")[0].split()) == 3]
    assert third
    before = watch.started[third[0]]  # tasks done before that chain's first task
    stop = Phases(before + 1)
    with pytest.raises(KeyboardInterrupt):
        Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped",
               progress=stop).fewest_at_worst()
    assert stop.labels[-1] == watch.labels[third[0]]
    saved = len(list((tmp_path / "stopped").glob("task-*.json")))
    again = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped")
    sol = again.fewest_at_worst()
    assert sol.value == plain.value
    assert sol.strategy.root.to_dict() == plain.strategy.root.to_dict()
    # Nothing computed twice: the rerun saves only what the stopped run had not, and
    # ends with the entries of an uninterrupted run (its tasks, and each chain's
    # answer saved as its rival's task: search.Solver._chain_of).
    entries = sorted(p.name for p in full.glob("task-*.json"))
    assert sorted(p.name for p in (tmp_path / "stopped").glob("task-*.json")) == entries
    assert saved > before + 1  # the chains finished before the stop saved their answers
    assert again.checkpoint.stored == len(entries) - saved
    assert again.checkpoint.loaded > 0  # (an entry may be asked for more than once)
    # A run with whole rivals finds every rival second guess it asks for among the
    # chains' answers: it computes nothing.
    whole = Solver(game, jobs=1, checkpoint=full)
    assert whole.fewest_at_worst().value == plain.value
    assert whole.checkpoint.stored == 0 and whole.checkpoint.loaded > 0


def test_a_chain_that_takes_the_lead_has_its_tree_built_at_once(tmp_path, monkeypatch):
    # p4c5nb's expected case with chains from 4 secrets: the rival second guesses of
    # the first guess's big parts are chains, whose answer is a total alone. One that
    # takes the lead of its part's race has its tree built before the race goes on,
    # so a run stopped at the very next task already holds it in its best tree so
    # far (the table's upper bound of a run that times out), and the race's end finds
    # it built: the run's tree is that of the search with whole tasks.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    leads, watch = [], StopAfter()
    real = search.Solver._lead_trees

    def spy(self, history, g, part, total, d, weight):
        trees = real(self, history, g, part, total, d, weight)
        leads.append((watch.done, history, g, part, total))  # tasks of the first run
        return trees

    splits = []
    real_split = search.Solver._split_part_started

    def spy_split(self, history, part, *args, **kwargs):
        splits.append((tuple(history), int(part[0])))
        return real_split(self, history, part, *args, **kwargs)

    monkeypatch.setattr(search.Solver, "_lead_trees", spy)
    monkeypatch.setattr(search.Solver, "_split_part_started", spy_split)
    plain = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "full",
                   progress=watch).expected()
    planned = leads[:]  # the leads of the run with the checkpoint
    whole = Solver(game, jobs=1).expected()
    assert plain.value == whole.value
    assert plain.strategy.root.to_dict() == whole.strategy.root.to_dict()
    # A part split by its own guesses is searched once, though a lead's tree and the
    # race's end both ask for it: with no checkpoint to read it back from, too
    splits.clear()
    bare = Solver(game, jobs=1, chain_secrets=4).expected()
    assert bare.strategy.root.to_dict() == plain.strategy.root.to_dict()
    assert len(splits) == len(set(splits)) > 3
    # Only the first guess's big parts' races build a lead's tree (deeper races
    # have no best tree to tell), each at that lead's total
    assert leads and all(len(history) == 1 for _, history, *_ in leads)
    first = leads[:]
    # A run resumed from the whole checkpoint builds the trees of the races' winners
    # and reads back those of the leads that a later rival in the checkpoint beats
    # (each the best tree so far for a moment), computing nothing
    leads.clear()
    resumed = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "full")
    assert resumed.expected().strategy.root.to_dict() == plain.strategy.root.to_dict()
    def what(lead):  # history, guess, the part's first secret, total
        return lead[1], lead[2], int(lead[3][0]), lead[4]

    assert [what(lead) for lead in leads] == [what(lead) for lead in planned]
    assert resumed.checkpoint.stored == 0
    done, history, g, part, total = first[0]
    leads.clear()
    stop = StopAfter(done + 1)
    stopped = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped",
                     progress=stop)
    with pytest.raises(KeyboardInterrupt):
        stopped.expected()
    assert [lead[1:3] for lead in leads] == [(history, g)]
    best = stopped.best_so_far()  # replayed for every secret as it is made
    paths = [best.path_for(int(s)) for s in part]
    assert {p[1] for p in paths} == {game.code_str(g)}  # the lead's guess, not the first
    assert sum(len(p) - 1 for p in paths) == total
    # The resumed run ends as the uninterrupted one
    again = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "stopped").expected()
    assert again.value == plain.value
    assert again.strategy.root.to_dict() == plain.strategy.root.to_dict()


def test_a_resumed_race_starts_from_the_tree_of_a_lead_since_beaten(tmp_path, monkeypatch):
    # A run stopped as it began the tree of its race's second lead (p6c7n's expected
    # case, stopped in the 75 minutes of 234567's tree, after 214567's): its
    # checkpoint holds the first lead's tree and the second lead's total. The
    # resumed run reads the first lead's tree back (nothing computed) before it
    # builds the second's, so its best tree so far is the first lead's, not that of
    # the part's first second guess.
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    real = search.Solver._lead_trees
    leads, stop_at = [], []

    def spy(self, history, g, part, total, d, weight):
        reading = self._runner.only_reading
        leads.append((g, int(part[0]), total, reading))
        if not reading and (g, int(part[0])) in stop_at:
            raise KeyboardInterrupt
        return real(self, history, g, part, total, d, weight)

    monkeypatch.setattr(search.Solver, "_lead_trees", spy)
    Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "full").expected()
    by_part = {}
    for g, first, total, _ in leads:
        by_part.setdefault(first, []).append((g, total))
    part, ((lead, total), (later, _), *_) = next(
        (k, v) for k, v in by_part.items() if len(v) >= 2)
    leads.clear()
    stop_at.append((later, part))
    stopped = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "cp")
    with pytest.raises(KeyboardInterrupt):
        stopped.expected()
    assert stopped.best_so_far().path_for(part)[1] == game.code_str(lead)
    leads.clear()
    again = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "cp")
    with pytest.raises(KeyboardInterrupt):
        again.expected()
    assert (lead, part, total, True) in leads  # read back, under reading_only
    assert leads[-1][0:2] + leads[-1][3:] == (later, part, False)  # then the later
    # lead's, live
    assert again.best_so_far().path_for(part)[1] == game.code_str(lead)
    assert again.checkpoint.stored == 0  # the stop came before any task was computed
    # Without the trees read back, the resumed run's best so far would be the tree of
    # the part's first second guess (as before 2026-12-06)
    monkeypatch.setattr(search.Solver, "_saved_lead_trees", lambda self, *args: None)
    bare = Solver(game, jobs=1, chain_secrets=4, checkpoint=tmp_path / "cp")
    with pytest.raises(KeyboardInterrupt):
        bare.expected()
    assert bare.best_so_far().path_for(part)[1] != game.code_str(lead)
