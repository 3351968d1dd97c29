"""What a checkpoint has proven so far, read without running its search.

A long exact search (``optimal-mm solve ... --checkpoint DIR``) saves each finished
task as it goes (:mod:`optimal_mm.checkpoint`). Between sittings, or while a run of
days goes on in the background, the directory itself answers "how far has it got?":
this module reads every intact entry, groups them by run (a directory may hold
several) and says, in the search's own terms, what they settle.

Worst case (:func:`~optimal_mm.search_tasks._wc_part_task`, ``_wc_guess_task``)
    A task asks whether one part of a first guess (the secrets of one answer) can be
    solved within the guesses left, searched whole, or, for a big part split one
    second guess per task, whether one second guess keeps all its parts solvable.
    Per number of guesses ``T`` and first guess: the parts searched whole, feasible
    or refuted, and for each split part how many of its second-guess classes are
    refuted, out of how many (recomputed from the game: the part is found again among
    the first guess's parts by its hash), and the first one found feasible. A first
    guess is refuted within ``T`` when one of its parts is; a part split is refuted
    when all its second guesses are.
Expected case (``_exp_part_task``, ``_exp_guess_task``)
    Per first guess, its parts solved exactly (their secrets and cost: the total, or
    for ``fewest-at-worst`` the secrets at the cap and the total), beyond the cap (no
    tree within the guesses left: then the guess above them cannot solve its part
    within the cap, and a big part's rival second guesses race with no budget until
    one does) or only bounded, and those of a big part split by its second guess
    (named with the part: one second guess may split two big parts); and the rival
    guesses
    settled, a cost below their budget (the best one named) or "not better". A rival
    first guess with big parts is searched as a chain of tasks (its small parts, then
    each big part by its second guesses, smallest part first): per chain, whether its
    small parts fit its budget, and for each big part begun, how many of its second
    guesses with a bound below the part's budget are searched and the best found;
    the same of a rival second guess begun as a chain (its big parts raced by third
    guesses), until it is settled. A chain's small parts are pieces too (their
    probes' task, then each part's value alone: ``_exp_probe_task``,
    ``search_tasks.value_task``, or, for the biggest, its batches of first guesses
    and then its value: ``_exp_batch_task``, :mod:`optimal_mm.search_batches`),
    counted on a line of their own; their answer is
    read as the one task's that searched them all before 2026-12-06.
    With ``--chain-secrets`` the chains and split parts below the first guess leave
    their answers as the one tasks' (read as above) and pieces, counted on lines of
    their own (rivals below the second guess, probes, parts below the third) and
    timed apart (:data:`~optimal_mm.checkpoint_summary.CHAIN_PIECE`): a piece's time
    does not price a rival left.

A lower bound's tree
    A run given one (``solve --lower-bound-tree``, the optimal table's capped cells)
    takes each part on the tree's path whose subtree keeps to its cap unsearched,
    with no task, and starts each part it splits from the tree's guess there
    (:meth:`~optimal_mm.search.Solver.floor_of`). The checkpoint does not say so: read
    with the same tree (``floor``), the report counts those parts as solved and those
    guesses as first, as the run did; read without it, it counts them as left.

Time
    Entries written since 2026-11-26 carry their task's timing: the report counts
    them and prices the work left at the mean processor time of the finished tasks of
    its kind (:mod:`optimal_mm.checkpoint_summary`, which holds the report's records
    and their text).

Only the checkpoint is read: nothing here runs a search, and the report is as
exact as the entries (each is checked against its checksum, and an entry written by
another task format is counted apart, as the search would not use it).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from ._search_arrays import INF
from .checkpoint import read_entries, task_key
from .checkpoint_summary import (
    CHAIN_PIECE, DEEP_WORST, BigPart, ChainPart, ChainRival, RunReport, SplitPart, Timed)
from .errors import InvalidOptionError
from .game import Game
from .search_tasks import saved_small_parts


def _cpu(timing) -> float | None:
    """An entry's processor seconds (None: written without its timing)."""
    try:
        return float(timing["cpu_seconds"])
    except (KeyError, TypeError, ValueError):
        return None


def _counters(result) -> np.ndarray | None:
    last = result[-1] if isinstance(result, tuple) and result else None
    return last if isinstance(last, np.ndarray) else None


def report(directory, classes: bool = True,
           skipped: list | None = None, floor=None) -> list[RunReport]:
    """One :class:`~optimal_mm.checkpoint_summary.RunReport` per run found in the
    checkpoint ``directory``.

    ``classes``: count each split part's second-guess classes (builds the game's
    answer table and the search's order for that part: seconds for a game of
    thousands of codes); False leaves them unknown. ``skipped``: a list to which the
    names of the entry files refused (damaged, foreign or unreadable: no run of
    theirs can be told) are appended. ``floor``: ``(strategy, source)``, the
    optimal tree without a cap that the runs were given as their lower bound (module
    docstring), applied to each run of its game that takes one (the totals of any
    guesses, or of the tree's guess rule); with ``classes`` only. A third item, the
    checkpoint directory of the search without the cap that the runs read as lower
    bounds too (``LowerBound.checkpoint``), prices each rival second guess still in
    a capped race at that rival's own time there (:attr:`BigPart.uncapped`).

    Raises :class:`InvalidOptionError` if ``directory`` is not a directory.
    """
    from .search import TASK_FORMAT

    path = Path(directory)
    if not str(directory) or not path.is_dir():  # '' would be the current folder
        raise InvalidOptionError(f"checkpoint {str(directory)!r} is not a directory")
    runs: dict[str, RunReport] = {}
    split_args = defaultdict(list)  # run id -> [(T, guesses before, part hash, d)]
    # run id -> expected-case split parts: {"subs": {(first, second, sub hash): row},
    # "rivals": {((first,), second, its parts' hashes): (cost or None, the budget it
    # was searched against, processor seconds or None)}, and the same of the third
    # guesses raced below a rival second guess, keyed ((first, second), third, ...);
    # "thirds_d": their parts' guesses left; "d", "weight"; "chains": rival first
    # guess -> its small parts' answer (a total, None: refuted); "seconds_d": the
    # second guesses' guesses left; "floor_given": the (first, part hash) of the parts
    # a lower bound's tree settled (:func:`_floor_parts`); "uncapped_cpu": the rival
    # second guesses of the search without the cap, keyed as "rivals", with their
    # processor seconds there (:func:`_uncapped_times`);
    # "subs_cpu": the processor seconds of each "subs" task (None: untimed);
    # "rival_trees": the rivals whose entry keeps the trees of their parts (those that
    # proved better, since 2026-11-28); "split": first guess -> its parts split by
    # second guess (:func:`_split_parts`, found once for the two readers).
    exp_raw = defaultdict(lambda: {"subs": {}, "subs_cpu": {}, "rivals": {},
                                   "thirds_d": None, "chains": {}, "rival_trees": set(),
                                   "d": None, "seconds_d": None, "first_d": None,
                                   "first_parts": set(), "weight": 0, "split": {},
                                   "floor_given": set(), "uncapped_cpu": {}})
    games: dict[str, Game] = {}
    for run, task, result, timing in read_entries(path, skipped):
        rid = repr(sorted(run.items()))
        rep = runs.setdefault(rid, RunReport(run, stale=run.get("task_format") != TASK_FORMAT))
        rep.entries += 1
        t_of_task = None
        counters = _counters(result)
        if counters is not None and len(counters) >= 3:
            rep.states += int(counters[0])
            rep.guesses += int(counters[2])
        fn, args = task.get("function"), task.get("args", [])
        kind = fn  # a task below a rival second guess (--chain-secrets) is timed apart
        first_of_task = None
        try:
            if rid not in games:
                games[rid] = Game.from_spec(run["game"], run.get("alphabet"))
            game = games[rid]
            if fn == "_wc_part_task":
                first, part, d = args[0], args[1], args[2]
                found = rep.worst[d + 1].setdefault(game.code_str(first), {})
                found.setdefault("whole", []).append((part["shape"][0], bool(result[0])))
                t_of_task = d + 1
            elif fn == "_wc_subpart_task":
                # A piece of a second guess searched by its parts (--split-depth): its
                # refutation counts as the second guess's own, saved apart.
                rep.deep_worst[0 if not result[0] else 1] += 1
                kind = DEEP_WORST
            elif fn == "_wc_guess_task":
                history, guess, part, d = args[0], args[1], args[2], args[3]
                first = game.code_str(history[0])
                found = rep.worst[d + len(history)].setdefault(first, {})
                where = "split" if len(history) == 1 else "deep"
                key = part["array"] if len(history) == 1 else (tuple(history), part["array"])
                split = found.setdefault(where, {}).get(key)
                if split is None:
                    split = found[where][key] = SplitPart(
                        part["shape"][0], history=tuple(game.code_str(h) for h in history[1:]))
                    split_args[rid].append((d + len(history), tuple(history), part["array"], d))
                if len(history) > 1:
                    rep.deep_worst[0 if not result[0] else 1] += 1
                    kind = DEEP_WORST
                if result[0]:
                    if game.code_str(guess) not in split.feasible:  # one per tree rule
                        split.feasible.append(game.code_str(guess))
                else:
                    split.refuted += 1
                t_of_task = d + len(history)
            elif fn == "_exp_part_task":
                history, part, budget, d, weight = args[0], args[1], args[2], args[3], args[5]
                rep.weight = int(weight)
                first_of_task = game.code_str(history[0])
                rep.begun.add(first_of_task)
                row = (part["shape"][0], int(result[0]), bool(result[0] < budget))
                # A chain's small part, its value alone (search_tasks.value_task): not
                # a part of the guess it follows, which it would mark as solved
                small = not args[4] and budget >= INF
                found = {} if small else rep.expected.setdefault(first_of_task, {})
                if small:
                    rep.small_parts += 1
                    kind = CHAIN_PIECE
                elif not args[4]:  # a probe of a chain's big part: a bound, no tree
                    rep.probes += 1
                    n = int(part["shape"][0])
                    rep.note_chained(n)
                    kind = CHAIN_PIECE
                elif len(history) > 2:  # a piece of a part split below the second guess
                    rep.deep_parts += 1  # (--chain-secrets): the part's answer counts
                    kind = CHAIN_PIECE
                elif len(history) == 1:
                    found.setdefault("parts", []).append(row)
                    exp_raw[rid]["first_d"] = d
                    exp_raw[rid]["first_parts"].add((history[0], part["array"]))
                else:
                    found.setdefault("seconds", {}).setdefault(
                        game.code_str(history[1]), []).append(row)
                    raw = exp_raw[rid]
                    raw["subs"][(history[0], history[1], part["array"])] = row
                    raw["subs_cpu"][(history[0], history[1], part["array"])] = _cpu(timing)
                    raw["d"], raw["weight"] = d, int(weight)
            elif fn == "_exp_batch_task":  # a batch of a chain's small part's first
                first_of_task = game.code_str(args[0][0])  # guesses (search_batches)
                rep.small_parts += 1
                kind = CHAIN_PIECE
            elif fn == "_exp_probe_task":  # the probes of a chain's small parts
                history = args[0]
                first_of_task = game.code_str(history[0] if history else args[1])
                rep.small_parts += 1
                kind = CHAIN_PIECE
            elif fn == "_exp_trees_task":  # the tree of a rival that proved better
                history, first, parts = args[0], args[1], args[2]
                first_of_task = game.code_str(history[0])
                exp_raw[rid]["rival_trees"].add(
                    (history[0], first, frozenset(p["array"] for p in parts)))
            elif fn == "_exp_guess_task":
                history, first, parts, n, bound, weight = (args[0], args[1], args[2],
                                                           args[4], args[5], args[7])
                rep.weight = int(weight)
                cost = None if result[0] is None else int(result[0])
                name = game.code_str(first)
                first_of_task = game.code_str(history[0]) if history else name
                rep.begun.add(first_of_task)
                raw = exp_raw[rid]
                raw["weight"] = int(weight)
                if saved_small_parts(args):
                    # The small parts of a rival with big parts, the big ones at their
                    # bounds (Solver._guess_by_parts): a piece of a chain, no total.
                    rep.chain_pieces += 1
                    if not history:
                        raw["chains"][first] = cost
                    else:
                        if len(history) > 1:  # a chain's part (below)
                            rep.note_chained(int(n))
                        kind = CHAIN_PIECE
                elif len(history) > 1:  # in a chain below a rival (--chain-secrets)
                    # Only a chain races a part's guesses this deep: the part (of n
                    # secrets) had --chain-secrets or more. Probes say so too, but a
                    # probe shorter than --checkpoint-min-seconds is not saved.
                    rep.note_chained(int(n))
                    kind = CHAIN_PIECE
                    rep.deep_rivals.append((" ".join(game.code_str(h) for h in history)
                                            + f" {name}", cost, int(bound)))
                    if len(history) == 2:  # a third guess, in the race of a rival second
                        raw["rivals"][(tuple(history), first,  # guess's big part
                                       frozenset(p["array"] for p in parts))] = (
                            cost, int(bound), _cpu(timing))
                        raw["thirds_d"] = args[6]
                elif history:
                    rep.seconds_rivals.append((f"{game.code_str(history[0])} {name}", cost,
                                               int(bound)))
                    parts_key = frozenset(p["array"] for p in parts)
                    raw["rivals"][((history[0],), first, parts_key)] = (cost, int(bound),
                                                                        _cpu(timing))
                    if len(result) == 3 and result[1] is not None:
                        raw["rival_trees"].add((history[0], first, parts_key))
                    raw["seconds_d"] = args[6]
                else:
                    rep.rivals.append((name, cost, int(bound)))
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an entry of a shape this version does not know: counted only
        try:
            # An answer computed in pieces times them all (a rival's price, above);
            # the pieces saved are entries of their own, counted each.
            if timing is not None and not timing.get("pieces"):
                rep.timed.append(Timed(kind, t_of_task, float(timing["seconds"]),
                                       float(timing["cpu_seconds"]), str(timing["finished"]),
                                       first_of_task))
        except (KeyError, TypeError, ValueError):
            pass  # a timing of another shape: the entry's result still counts
    if classes:
        for rid, rep in runs.items():
            if rep.stale or rid not in games:
                continue
            solver = _LazySolver(games[rid], rep.run)  # one answer table per run
            if rid in exp_raw and floor is not None:
                _floor_parts(rep, games[rid], solver, exp_raw[rid], floor)
            if rep.worst:
                _count_classes(rep, games[rid], solver, split_args.get(rid, []))
            if rid in exp_raw and exp_raw[rid]["subs"]:
                _big_parts(rep, games[rid], solver, exp_raw[rid])
            if rid in exp_raw:
                _first_batches(rep, games[rid], solver, exp_raw[rid])
                _chains(rep, games[rid], solver, exp_raw[rid])
                _rivals_not_begun(rep, games[rid], solver, exp_raw[rid])
    return list(runs.values())


class _LazySolver:
    """The run's :class:`~optimal_mm.search.Solver`, built on first use (it builds the
    game's answer table: seconds and a gigabyte for Logik), then shared."""

    def __init__(self, game: Game, run: dict):
        self.game, self.run, self._solver = game, run, None

    def __call__(self):
        if self._solver is None:
            from .search import Solver

            self._solver = Solver(self.game, guesses=self.run["guesses"],
                                  symmetry=bool(self.run["symmetry"]), jobs=1)
        return self._solver


def _digest(array) -> str:
    """The hash by which a task's key names an array of secrets."""
    return task_key("", (array,))["args"][0]["array"]


def _count_classes(rep: RunReport, game: Game, lazy: _LazySolver, wanted) -> None:
    """Fill in the game's number of first-guess classes and each split part's number
    of second-guess classes, the part found again among its first guess's parts by
    its hash (:meth:`Solver.wc_second_guesses`)."""
    _first_classes(rep, game)
    parts_of = {}

    def parts_after(history):
        """The parts after the guesses ``history``, by their hash."""
        if history not in parts_of:
            solver = lazy()
            if len(history) == 1:
                parts = [p for _, p in solver.first_guess_parts(history[0])]
            else:  # every part after the guesses before, split by the last one
                parts = [sub for p in parts_after(history[:-1]).values()
                         for _, sub in solver.split(history[-1], p)]
            parts_of[history] = {_digest(p): p for p in parts}
        return parts_of[history]

    for t, history, digest, d in wanted:
        solver = lazy()
        part = parts_after(history).get(digest)
        if part is None:
            continue
        found = rep.worst[t][game.code_str(history[0])]
        if len(history) == 1:
            found["split"][digest].classes = len(solver.wc_second_guesses(history[0], part, d))
        else:
            found["deep"][(history, digest)].classes = len(
                solver.wc_node_guesses(history, part, d))


def _first_classes(rep: RunReport, game: Game) -> list[str]:
    """The first-guess classes this version's search tries (code strings), also kept
    in ``rep`` (their number, and the classes themselves under symmetry)."""
    from .search import first_guess_classes

    reps = [game.code_str(int(g)) for g in
            first_guess_classes(game, rep.run["guesses"] == "consistent",
                                bool(rep.run["symmetry"]))]
    rep.first_classes = len(reps)
    if rep.run["symmetry"]:
        rep.first_reps = set(reps)
    return reps


def _first_d(raw: dict) -> int | None:
    """The guesses left in the first guess's parts, as its part tasks were given them
    (else as its second guesses' tasks imply); None if the checkpoint has neither."""
    if raw["first_d"] is not None:
        return raw["first_d"]
    return None if raw["d"] is None else _guesses_left(raw["d"])


def _guesses_left(d2: int) -> int:
    """The guesses left in a first guess's parts, from those its second guesses'
    tasks were given (one fewer under a cap)."""
    from ._search_arrays import NO_CAP

    return d2 if d2 >= NO_CAP else d2 + 1


def _rival_answers(solver, history, part, plan, raw) -> dict:
    """``{guess: (cost or None, budget, processor seconds or None)}`` for the guesses
    of ``plan`` at ``part`` (after the guesses ``history``: a second guess's rivals
    after ``(first,)``, a third's after ``(first, second)``) whose task the checkpoint
    holds, each found by the hashes of the parts it leaves."""
    found = {}
    for h, _ in plan:
        key = (tuple(history), h, frozenset(_digest(sub) for _, sub in solver.split(h, part)))
        if key in raw["rivals"]:
            found[h] = raw["rivals"][key]
    return found


def _chains(rep: RunReport, game: Game, lazy: _LazySolver, raw: dict) -> None:
    """Fill in ``rep.chains``: each rival first guess searched as a chain (one with
    a small-parts task, or second-guess tasks without being a first guess whose parts
    were solved), its big parts found again from the game, smallest first as the
    search takes them, and for each part begun, its second guesses in the search's
    order (:meth:`Solver.exp_second_guesses`) matched to the tasks by their parts'
    hashes: how many of those with a bound below the part's budget (or the best found
    below it) the checkpoint holds."""
    from .search_parts import SPLIT_SECRETS

    solved = {f for f, _, _ in raw["subs"]} | {game.code_index(f) for f in rep.expected}
    firsts = (set(raw["chains"]) | {h[0] for h, _, _ in raw["rivals"] if len(h) == 1}) - solved
    if not firsts:
        return
    d2 = raw["seconds_d"]
    solver = lazy()
    for first in sorted(firsts):
        if first not in raw["chains"]:
            small = "none"
        else:
            small = "refuted" if raw["chains"][first] is None else "within"
        chain = ChainRival(game.code_str(first), small)
        rep.chains.append(chain)
        if small == "refuted" or d2 is None:
            continue
        parts = [p for _, p in solver.first_guess_parts(first)]
        big = sorted((i for i, p in enumerate(parts) if len(p) >= SPLIT_SECRETS),
                     key=lambda i: (len(parts[i]), i))
        for i in big:
            part = parts[i]
            plan = solver.exp_second_guesses((first,), part, _guesses_left(d2),
                                             raw["weight"])
            found = _rival_answers(solver, (first,), part, plan, raw)
            if not found:
                chain.waiting += 1
                chain.waiting_guesses += len(plan)
                continue
            chain.parts.append(_chain_part(part, plan, found))
            if chain.parts[-1].refutes():
                break  # this part refutes the rival: the chain ends here


def _chain_part(part, plan, found) -> ChainPart:
    """A big part begun in a chain: its guesses in the search's order ``plan`` (with
    their bounds), ``found`` those the checkpoint holds (:func:`_rival_answers`). The
    race's budget is the least cost found, else the greatest budget a task was given:
    a guess whose bound is not below it is cut without a task."""
    costs = [c for c, _, _ in found.values() if c is not None]
    best = min(costs) if costs else None
    budget = best if best is not None else max(b for _, b, _ in found.values())
    below = [h for h, b in plan if b < budget or h in found]
    cpu = [t for _, _, t in found.values() if t is not None]
    return ChainPart(len(part), len(below), sum(h in found for h in below), best,
                     len(cpu), sum(cpu))


def _raced(solver, first, second, part, least, raw) -> tuple[list[ChainPart], int]:
    """The big parts of the rival second guess ``second`` at ``part`` (below
    ``first``) whose third guesses the checkpoint holds, a rival still in the race
    searched as a chain (``--chain-secrets``; its parts of ``least`` secrets or more,
    :attr:`RunReport.least_chained`, smallest first as the search takes them), and how
    many of its big parts after the last of those are not begun. A part before it
    with none was raced too, by tasks too short to keep (``--checkpoint-min-seconds``)."""
    if least is None or raw["thirds_d"] is None:
        return [], 0
    d = _guesses_left(raw["thirds_d"])
    begun, waiting = [], 0
    for sub in sorted((s for _, s in solver.split(second, part) if len(s) >= least), key=len):
        plan = solver.exp_second_guesses((first, second), sub, d, raw["weight"])
        found = _rival_answers(solver, (first, second), sub, plan, raw)
        if found:
            begun.append(_chain_part(sub, plan, found))
            waiting = 0
        else:
            waiting += 1
    return begun, waiting if begun else 0


def _alike_in_size(a: int, b: int) -> bool:
    """Whether parts of ``a`` and ``b`` secrets are within a factor of two in size,
    as a part whose rival's time prices that rival in the other must be: a rival's
    time grows steeply with its part (p4c10's 0012 took 0.1 s in its 401-secret part,
    494 s in its 3,052-secret one), while p4c8nb's parts of 536 and 1,001 secrets
    under 1234 cost its rivals alike.

    >>> _alike_in_size(536, 1001), _alike_in_size(264, 660)
    (True, False)
    """
    return 2 * min(a, b) >= max(a, b)


def _split_parts(solver, first: int, raw: dict) -> list:
    """The parts of the first guess ``first`` that the run splits by second guess, as
    ``(part, chained)``: each of :data:`~optimal_mm.search_parts.SPLIT_SECRETS`
    secrets or more, and each smaller one that ``--chain-secrets`` split the same way
    (``chained``), not yet solved whole: one the checkpoint holds a part of under
    one of its second guesses (parts of a first guess are disjoint, so such a part is
    its own). A chained part solved whole is one of the first guess's parts solved
    exactly, as a small part is; until then its first second guess and the race of
    its rivals are those of a big part (:meth:`Solver._solve_node`): p6c7n's
    264-secret part, 28 rivals of several minutes each, was counted as one task of the
    first batch left, priced at a part task's mean of 2 minutes."""
    from .search_parts import SPLIT_SECRETS

    if first in raw["split"]:
        return raw["split"][first]
    seconds = {g for f, g, _ in raw["subs"] if f == first}
    found = raw["split"][first] = []
    for _, part in solver.first_guess_parts(first):
        if (first, _digest(part)) in raw["floor_given"]:
            continue  # the lower bound's subtree, taken unsplit
        if len(part) >= SPLIT_SECRETS:
            found.append((part, False))
        elif seconds and (first, _digest(part)) not in raw["first_parts"] and any(
                (first, g, _digest(sub)) in raw["subs"]
                for g in seconds for _, sub in solver.split(g, part)):
            found.append((part, True))
    return found


def _second_plan(solver, first: int, part, d: int, weight: int) -> list:
    """The second guesses of ``part`` (after ``first``, ``d`` guesses left) in the
    order the run tries them (:meth:`Solver.exp_second_guesses`), a lower bound's
    tree's guess there first, as the run's search puts it (:meth:`Solver.floor_of`)."""
    from .search_tasks import _first_by

    plan = solver.exp_second_guesses((first,), part, d, weight)
    known = solver.floor_of((first,), part, d)
    return plan if known is None else _first_by(plan, known.guess)


def _floor_parts(rep: RunReport, game: Game, lazy: _LazySolver, raw: dict, floor) -> None:
    """Count as solved the parts a run given the lower bound's tree ``floor``
    (``(strategy, source)``) took from it, unsearched (:func:`report`): each part of
    the tree's first guess whose subtree keeps to the run's cap and guess rule, and,
    of a part the run splits (as big, or as chained: its least chained part's size,
    :attr:`RunReport.least_chained`), each part that the tree's second guess leaves
    and whose subtree keeps to them. Each joins the parts solved, as its task would
    have (``raw``'s "first_parts", "subs"), timed at nothing; ``rep.floor`` names the
    tree and counts them. A run of another game, objective (a floor bounds totals
    only) or guess rule is left as it is, and so is one whose guesses left the
    checkpoint does not tell."""
    from ._search_arrays import NO_CAP
    from .search_costs import FLOOR_OBJECTIVES, LowerBound
    from .search_parts import SPLIT_SECRETS

    strategy, source, *uncapped = floor
    run = rep.run
    if (run.get("objective") not in FLOOR_OBJECTIVES or rep.weight
            or strategy.game.spec != game.spec or strategy.game.alphabet != game.alphabet
            or strategy.guesses not in ("any", run.get("guesses"))):
        return
    d = _first_d(raw)
    if d is None:
        return
    solver = lazy()
    solver.bound_below(LowerBound.from_tree(strategy, source, game, run.get("guesses")))
    first = game.code_index(strategy.root.guess)
    d2 = d if d >= NO_CAP else d - 1
    given = [0, 0]
    for _, part in solver.first_guess_parts(first):
        key = (first, _digest(part))
        known = solver.floor_of((first,), part, d)
        if known is None or key in raw["first_parts"]:
            continue
        if known.tree is not None:
            raw["first_parts"].add(key)
            raw["floor_given"].add(key)
            rep.expected.setdefault(game.code_str(first), {}).setdefault("parts", []).append(
                (len(part), int(known.cost), True))
            given[0] += 1
            continue
        least = rep.least_chained if rep.least_chained is not None else SPLIT_SECRETS
        if len(part) < min(least, SPLIT_SECRETS):
            continue  # one task, not split: none of its parts is taken apart
        for _, sub in solver.split(known.guess, part):
            below = solver.floor_of((first, known.guess), sub, d2)
            sub_key = (first, known.guess, _digest(sub))
            if below is None or below.tree is None or sub_key in raw["subs"]:
                continue
            row = (len(sub), int(below.cost), True)
            raw["subs"][sub_key], raw["subs_cpu"][sub_key] = row, 0.0
            rep.expected.setdefault(game.code_str(first), {}).setdefault(
                "seconds", {}).setdefault(game.code_str(known.guess), []).append(row)
            given[1] += 1
    rep.floor = (source, given[0], given[1])
    if uncapped and uncapped[0] is not None and d < NO_CAP:
        raw["uncapped_cpu"] = _uncapped_times(uncapped[0], run)


def _uncapped_times(directory, run: dict) -> dict:
    """``{((first,), second, its parts' hashes): processor seconds}`` of each rival
    second guess that the search without the cap of ``run``'s game and guess rule
    answered in ``directory`` (timed entries only): the same rival under the cap is
    the same search against a budget as high or one more (p6c7n within 7: 7890
    against 7889), so it prices the rival left in a capped race."""
    wanted = {**run, "objective": "expected", "max_guesses": None}
    times = {}
    for entry_run, task, _, timing in read_entries(directory):
        if entry_run != wanted or task.get("function") != "_exp_guess_task":
            continue
        args = task.get("args", [])
        try:
            if len(args[0]) != 1 or timing is None:
                continue
            key = ((args[0][0],), args[1], frozenset(p["array"] for p in args[2]))
            times[key] = float(timing["cpu_seconds"])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
    return times


def _first_batches(rep: RunReport, game: Game, lazy: _LazySolver, raw: dict) -> None:
    """Fill in ``rep.batch_left``: for each first guess solved part by part (one with
    a part task), the tasks of its first batch (:meth:`Solver._first_batch`) the
    checkpoint does not hold: its parts under :data:`SPLIT_SECRETS` secrets, and the
    parts of each part's first second guess where the run split the part by second
    guess (:func:`_split_parts`), found again by their hashes. (A part that
    ``--chain-secrets`` splits by its own guesses is saved, once solved, under its
    own task too (:meth:`Solver._solve_node`); until a part of it under a second
    guess is saved, it counts as one task left, and as a chain, not priced, when it
    has as many secrets as the least part the run handled as a chain,
    :attr:`RunReport.least_chained`: ``--chain-secrets`` is not kept in the run, but
    only a part of that many secrets or more is probed, split by second guess, or has
    its guesses raced below the second guess.)"""
    firsts = {f for f, _ in raw["first_parts"]} | {f for f, _, _ in raw["subs"]}
    d = _first_d(raw)
    if not firsts or d is None:
        return
    solver = lazy()
    for first in sorted(firsts):
        missing = []  # the sizes of the batch's parts not yet solved
        seconds = []  # (second guess, part) of those under a big part's second guess
        split = {_digest(part) for part, _ in _split_parts(solver, first, raw)}
        for _, part in solver.first_guess_parts(first):
            if _digest(part) not in split:
                if (first, _digest(part)) not in raw["first_parts"]:
                    missing.append(len(part))
                continue
            plan = _second_plan(solver, first, part, d, raw["weight"])
            if plan:
                g2 = plan[0][0]
                for _, sub in solver.split(g2, part):
                    if (first, g2, _digest(sub)) not in raw["subs"]:
                        missing.append(len(sub))
                        seconds.append((g2, sub))
        if missing:
            rep.batch_left[game.code_str(first)] = len(missing)
            if rep.least_chained is not None:
                chained = sum(n >= rep.least_chained for n in missing)
                if chained:
                    rep.batch_chained[game.code_str(first)] = chained
                    _batch_chains(rep, game, solver, first, seconds, raw)


def _batch_chains(rep: RunReport, game: Game, solver, first: int, seconds: list,
                  raw: dict) -> None:
    """Fill in ``rep.batch_chains`` for ``first``: of its batch's parts not yet solved
    under a big part's second guess (``seconds``: ``(second guess, part)``), each of
    :attr:`RunReport.least_chained` secrets or more whose race of third guesses the
    checkpoint holds some of, how far that race got. The first third guess in the
    search's order has its parts solved exactly, a task each; the others race it as
    rivals, in that order (:meth:`Solver._split_part`), and :func:`_chain_part`
    counts those with a bound below the budget and how many of them the checkpoint
    holds. A chain's length is still unknown (its guesses' own big parts race the same
    way, deeper), but the race at its head says how far along it is."""
    if raw["thirds_d"] is None:
        return
    d = _guesses_left(raw["thirds_d"])
    for g2, sub in seconds:
        if len(sub) < rep.least_chained:
            continue
        rivals = solver.exp_second_guesses((first, g2), sub, d, raw["weight"])[1:]
        found = _rival_answers(solver, (first, g2), sub, rivals, raw)
        if found:
            rep.batch_chains.setdefault(game.code_str(first), []).append(
                (game.code_str(g2), _chain_part(sub, rivals, found)))


def _rivals_not_begun(rep: RunReport, game: Game, lazy: _LazySolver, raw: dict) -> None:
    """Fill in the game's first-guess classes and ``rep.not_begun``: the rival first
    guesses under which no expected-case task was played yet. With a first guess
    solved exactly (its total known: :func:`_exact_totals`), they are found as the
    search finds its rivals, the probed bounds recomputed
    (:meth:`Solver.first_guess_order`): the first guess in that order whose total is
    known is the incumbent, and every other one whose bound is below its total is a
    rival; exactly so once that total is final (``rep.rivals_exact``), at most while
    its big parts' rivals may still lower it. Without one, every class with no task
    counts, at most."""
    if not rep.begun:
        return
    rep.not_begun = [g for g in _first_classes(rep, game) if g not in rep.begun]
    d = _first_d(raw)
    totals = _exact_totals(rep, game.n_codes)
    if not rep.not_begun or d is None or not totals:
        return
    order = [(game.code_str(g), bound) for g, bound in lazy().first_guess_order(d, rep.weight)]
    incumbent = next((g for g, _ in order if g in totals), None)
    if incumbent is not None:
        total, final = totals[incumbent]
        rivals = {g for g, bound in order if g != incumbent and bound < total}
        rep.not_begun = [g for g in rep.not_begun if g in rivals]
        rep.rivals_exact = final


def _exact_totals(rep: RunReport, n: int) -> dict:
    """``{first guess: (total, final)}`` (or fewest-at-worst cost) of each first guess
    whose parts the checkpoint has all solved: its small parts exactly, each big
    part's best (:attr:`RunReport.big_parts`); final once every big part's rivals
    still in the race are settled (else a rival may lower it)."""
    totals = {}
    for first, found in rep.expected.items():
        exact = [(size, value) for size, value, ok in found.get("parts", []) if ok]
        bigs = rep.big_parts.get(first, [])
        if any(b.best is None for b in bigs):
            continue
        covered = sum(size for size, _ in exact) + sum(b.secrets for b in bigs)
        if covered in (n - 1, n):  # every secret but the guess itself, if it is one
            final = all(b.incumbent is not None and b.settled >= b.below for b in bigs)
            totals[first] = (n + sum(v for _, v in exact) + sum(b.best for b in bigs), final)
    return totals


def _big_parts(rep: RunReport, game: Game, lazy: _LazySolver, raw: dict) -> None:
    """Fill in ``rep.big_parts``: for each first guess with a part split by second
    guess (:func:`_split_parts`: a big part, or a chained one until it is solved
    whole), that part's cost under its first second guess and how many of the rivals
    still in the race (bound below the best) the checkpoint has settled, found again
    from the game: the part among the first guess's parts, its second guesses in the
    search's order with their bounds (:meth:`Solver.exp_second_guesses`), and each
    task's parts by their hashes; each rival not settled with its time in the first
    guess's other big parts (:attr:`BigPart.pending`). Also ``rep.second_trees``: the
    parts solved below each second guess, told apart by the big part they split (a
    second guess may split two), those not found under any big part last."""
    solver = lazy()
    d = _guesses_left(raw["d"])

    def hashes(g, part):
        return [(_digest(sub), sub) for _, sub in solver.split(g, part)]

    # (first, second) of each rival second guess with third guesses in the checkpoint
    begun = {history for history, _, _ in raw["rivals"] if len(history) == 2}
    for first in sorted({f for f, _, _ in raw["subs"]}):
        bigs, trees, placed = [], [], set()
        seconds = {g for f, g, _ in raw["subs"] if f == first}
        # Each part's rivals answered first: one still in the race in a part is priced
        # at its answers in the others (BigPart.pending)
        found = []
        for part, chained in _split_parts(solver, first, raw):
            if chained:
                rep.note_chained(len(part))
            plan = _second_plan(solver, first, part, d, raw["weight"])
            if plan:
                found.append((part, plan, _rival_answers(solver, (first,), part, plan[1:],
                                                         raw)))
        # ... and those of the parts solved whole since their race (a chained part),
        # which still price the rivals left (p6c7n's 264-secret part, 2026-12-05: its
        # race over, the report had no rival timed left to price the others by)
        done = []
        for _, part in solver.first_guess_parts(first) if found else ():
            if len(part) > 1 and (first, _digest(part)) in raw["first_parts"] and (
                    first, _digest(part)) not in raw["floor_given"]:
                plan = solver.exp_second_guesses((first,), part, d, raw["weight"])
                answers = _rival_answers(solver, (first,), part, plan[1:], raw)
                done.append((part, answers))
                rep.solved_rival_cpus += [t for _, _, t in answers.values() if t is not None]
        answered = [(part, answers) for part, _, answers in found] + done
        for part, plan, answers in found:
            g2 = plan[0][0]
            # The hashes of the parts each second guess with solved parts leaves
            # (the first one's always: its rows say whether it is solved)
            leaves = {g: [h for h, _ in hashes(g, part)] for g, _ in plan
                      if g == g2 or g in seconds}
            rows = [raw["subs"].get((first, g2, h)) for h in leaves[g2]]
            incumbent = tree_cpu = beyond = None
            if rows and None not in rows:
                # Each part's task has no budget (INF): one not below it has no tree
                # within the guesses left, and neither has the part under g2.
                if all(r[2] for r in rows):
                    incumbent = len(part) + sum(r[1] for r in rows)
                else:
                    beyond = min(r[0] for r in rows if not r[2])
                cpu = [raw["subs_cpu"].get((first, g2, h)) for h in leaves[g2]]
                tree_cpu = None if None in cpu else sum(cpu)
            rivals = {h: cost for h, (cost, _, _) in answers.items()}
            cpu = [t for _, _, t in answers.values() if t is not None]
            better = [c for c in rivals.values() if c is not None]
            best = min([c for c in (incumbent, *better) if c is not None], default=None)
            below = [h for h, b in plan[1:] if best is None or b < best]
            known = solver.floor_of((first,), part, d)
            at_floor = (known.cost if known is not None and best is not None
                        and best <= known.cost else None)
            if at_floor is not None:  # the lower bound's subtree's cost: the run's race
                below = []  # there stops (PartSolving._solve_parts, ``enough``)
            big = BigPart(len(part), game.code_str(g2), incumbent, best, len(below),
                          sum(h in rivals for h in below), tree_cpu, cpu, beyond=beyond,
                          at_floor=at_floor)
            for h in below:  # the rivals still in the race, and those begun
                if h in rivals:
                    continue
                there = [a[h][2] for other, a in answered
                         if other is not part and h in a and a[h][2] is not None
                         and _alike_in_size(len(other), len(part))]
                big.pending[game.code_str(h)] = sum(there) / len(there) if there else None
                uncapped = raw["uncapped_cpu"].get(
                    ((first,), h, frozenset(_digest(sub) for _, sub in solver.split(h, part))))
                if uncapped is not None and not there:
                    big.uncapped[game.code_str(h)] = uncapped
                if (first, h) in begun:  # its big parts raced by third guesses
                    raced, waiting = _raced(solver, first, h, part, rep.least_chained, raw)
                    if raced:
                        big.racing.append((game.code_str(h), raced, waiting))
            if best is not None and (beyond is not None or incumbent is not None
                                     and best < incumbent):
                # The search keeps the earliest rival in its order at the least cost
                winner = next(h for h, _ in plan[1:] if rivals.get(h) == best)
                digests = [h for h, _ in hashes(winner, part)]
                big.winner, big.winner_cpu = game.code_str(winner), answers[winner][2]
                big.tree_built = (
                    (first, winner, frozenset(digests)) in raw["rival_trees"]
                    or all((first, winner, h) in raw["subs"] for h in digests))
            bigs.append(big)
            for g, digests in leaves.items():
                keys = [(first, g, h) for h in digests if (first, g, h) in raw["subs"]]
                if keys:
                    trees.append((len(part), game.code_str(g), [raw["subs"][k] for k in keys]))
                    placed.update(keys)
        rest = defaultdict(list)
        for key, row in raw["subs"].items():
            if key[0] == first and key not in placed:
                rest[game.code_str(key[1])].append(row)
        trees += [(None, g, rows) for g, rows in rest.items()]
        if bigs:
            rep.big_parts[game.code_str(first)] = bigs
        rep.second_trees[game.code_str(first)] = trees
