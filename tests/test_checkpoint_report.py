"""``optimal-mm checkpoint DIR``: what a checkpoint has proven, read without searching.

Checked against runs whose outcome is known: a worst-case run of p4c5b with big parts
split by second guesses (7 guesses refuted, 8 met) reports every first-guess class
refuted within 7 and, within 8, the split part's second guesses as the run left
them, with class counts equal to the search's own; an expected-case run reports its
parts and rivals; damaged entries are skipped; bad input is one line and exit 2.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from optimal_mm import Game
from optimal_mm.checkpoint_report import _digest, report
from optimal_mm.checkpoint_summary import duration_text
from optimal_mm.search import INF, Solver, first_guess_classes
from optimal_mm import checkpoint_summary, search_parts

from brute import parts_by_answer
from checkpoint_entries import answers_elsewhere, drop_entries, priced, untime_entries
from script_loader import load_script


@pytest.fixture(scope="module")
def p4c5b_worst(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ckpt")
    game = Game.from_spec("p4c5b")
    solver = Solver(game, jobs=1, checkpoint=folder, split_secrets=100, table_entries=7_001)
    sol = solver.solve("worst-case")
    return folder, game, solver, sol


def test_a_worst_case_report_says_what_each_depth_settled(p4c5b_worst):
    folder, game, solver, sol = p4c5b_worst
    assert sol.value == 8
    (rep,) = report(folder)
    assert rep.run["game"] == "p4c5b" and not rep.stale and rep.entries > 0
    classes = len(first_guess_classes(game, consistent=False))
    assert rep.first_classes == classes == 1  # black-only with repeats: one class
    text = "\n".join(rep.lines())
    # Every depth below t* was refuted for every first-guess class...
    for t in range(min(rep.worst), 8):
        assert f"within {t} guesses: {classes} of {classes} first-guess classes refuted" in text
    # ... and within t* the first guess played is not refuted.
    first = sol.strategy.root.guess
    within_8 = text[text.index("within 8 guesses"):]
    assert first in rep.worst[8] and f"first guess {first} (refuted)" not in within_8
    # A split part's class count is the search's own, and its tasks are among them.
    splits = [(t, f, s) for t, by in rep.worst.items() for f, found in by.items()
              for s in found.get("split", {}).values()]
    assert splits
    codes = {game.code_str(c): c for c in range(game.n_codes)}
    for t, f, s in splits:
        part = next(p for _, p in solver.first_guess_parts(codes[f]) if len(p) == s.secrets)
        assert s.classes == len(solver.wc_second_guesses(codes[f], part, t - 1))
        assert s.refuted + len(s.feasible) <= s.classes
        assert len(s.feasible) <= 1  # the run stops a part at its first feasible guess
    assert rep.states > 0 and rep.guesses > 0
    doc = rep.to_dict()
    assert doc["worst_case"]["8"][first]["refuted"] is False
    assert json.loads(json.dumps(doc)) == doc


def test_the_first_guesses_of_an_earlier_search_are_told_apart(tmp_path, monkeypatch):
    # Before black-only games with repeats had one first-guess class, their searches
    # tried each colour and position orbit (p3c4b: 111, 112, 123): a checkpoint of
    # then counts only this version's class, and marks the others.
    import optimal_mm.search as search
    from optimal_mm.symmetry import orbit_representatives

    game = Game.from_spec("p3c4b")
    old = [game.code_str(g) for g in orbit_representatives(game, [])]
    monkeypatch.setattr(search, "first_guess_classes",
                        lambda g, consistent, symmetry=True: orbit_representatives(g, []))
    sol = Solver(game, jobs=1, checkpoint=tmp_path).solve("worst-case")
    monkeypatch.undo()
    assert len(old) == 3 and sol.value is not None
    (rep,) = report(tmp_path)
    assert rep.first_classes == 1 and rep.first_reps == {"111"}
    text = "\n".join(rep.lines())
    for t in range(min(rep.worst), sol.value):  # every class refuted, then and now
        assert f"within {t} guesses: 1 of 1 first-guess classes refuted" in text
        assert set(rep.worst[t]) == set(old)
    for first in old[1:]:
        assert f"first guess {first} (refuted, a class of an earlier search only)" in text
    assert "first guess 111 (refuted):" in text


def test_damaged_entries_are_skipped(p4c5b_worst, tmp_path):
    folder = p4c5b_worst[0]
    files = sorted(folder.glob("task-*.json"))
    for f in files:
        (tmp_path / f.name).write_bytes(f.read_bytes())
    broken = tmp_path / files[0].name
    broken.write_text(broken.read_text().replace('"format"', '"formal"', 1))
    (tmp_path / "task-junk.json").write_text("{")
    skipped = []
    (rep,) = report(tmp_path, classes=False, skipped=skipped)
    assert rep.entries == len(files) - 1
    assert rep.first_classes is None
    assert sorted(skipped) == sorted([broken.name, "task-junk.json"])


def test_the_cli_names_the_entry_files_it_skips(p4c5b_worst, tmp_path):
    """A folder whose only entry was cut short reports no run, but says that it
    skipped one file and names it, rather than looking like an empty checkpoint."""
    entry = sorted(p4c5b_worst[0].glob("task-*.json"))[0]
    cut = tmp_path / entry.name
    cut.write_bytes(entry.read_bytes()[:-20])
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"checkpoint {tmp_path}: 0 entries in 0 runs; 1 damaged or foreign entry file "
        f"skipped ({entry.name})"]
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(tmp_path),
                          "--json"], capture_output=True, text=True)
    assert json.loads(run.stdout) == {"directory": str(tmp_path), "runs": [],
                                      "skipped": [entry.name]}


def test_an_expected_report_adds_up_to_the_optimum(tmp_path):
    """Mastermind: the first guess solved part by part costs 1,296 plus its parts, the
    rivals that beat their budget have their totals, and the least of these is the
    optimum the run proved (5,625)."""
    game = Game.from_spec("mastermind")
    sol = Solver(game, jobs=1, checkpoint=tmp_path).solve("expected")
    (rep,) = report(tmp_path)
    assert rep.run["objective"] == "expected" and not rep.worst
    totals = [game.n_codes + sum(v for _, v, _ in found["parts"])
              for found in rep.expected.values()
              if found.get("parts") and all(e for _, _, e in found["parts"])]
    totals += [cost for _, cost, _ in rep.rivals if cost is not None]
    assert min(totals) == sol.value == 5625
    assert rep.rivals and all(cost is None or cost < budget for _, cost, budget in rep.rivals)
    text = "\n".join(rep.lines())
    assert f"first guess {sol.strategy.root.guess}: " in text and "rival first guesses" in text


def test_the_cli_reports_and_refuses_bad_input(p4c5b_worst, tmp_path):
    folder = p4c5b_worst[0]
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(folder)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"checkpoint {folder}: ")
    assert "p4c5b: worst-case, any guesses" in run.stdout
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(folder),
                          "--json", "--no-classes"], capture_output=True, text=True)
    assert json.loads(run.stdout)["runs"][0]["first_guess_classes"] is None
    missing = tmp_path / "nothing-here"
    run = subprocess.run([sys.executable, "-m", "optimal_mm", "checkpoint", str(missing)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "not a directory" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and not missing.exists()


def test_an_expected_report_follows_each_big_part(tmp_path, monkeypatch,
                                                  mastermind_runs):
    """Mastermind with every part of 60 secrets or more split by second guess, run to
    the end: each big part of the first guess has its first second guess solved, all
    the rivals with a bound below its best settled, and the first guess's small parts
    plus its big parts' bests make the optimum. The search runs as before
    2026-11-28 (rivals keep no trees; the better ones' trees built part by part),
    as the results' older checkpoints hold them."""
    game, _, sol, _, rep, _ = _mastermind_run(mastermind_runs, tmp_path, monkeypatch, "parts")
    first = sol.strategy.root.guess
    bigs = rep.big_parts[first]
    assert len(bigs) >= 2
    for big in bigs:
        assert big.incumbent is not None and big.best <= big.incumbent
        assert big.settled == big.below
    small = sum(v for n, v, e in rep.expected[first]["parts"] if n < 60)
    assert game.n_codes + small + sum(b.best for b in bigs) == sol.value == 5625
    assert "rival second guesses with a bound below the best settled" in "\n".join(rep.lines())
    # The trees below each second guess, told apart by the big part they split: each
    # covers its part (less the guess, if it is one of its secrets). Two parts share
    # a second guess here (1415), whose trees the report once added up as one.
    trees = rep.second_trees[first]
    assert {n for n, _, _ in trees} == {b.secrets for b in bigs}
    for n, second, rows in trees:
        assert sum(size for size, _, _ in rows) in (n - 1, n)
        assert f"    then {second} (part of {n:,} secrets): " in "\n".join(rep.lines())
    seconds = [g for _, g, _ in trees]
    assert len(set(seconds)) < len(seconds)


def test_a_part_feasible_under_both_tree_rules_is_named_once(tmp_path):
    """Runs under both ``--wc-tree`` rules share a checkpoint (a feasible task has
    one entry per rule): the split part still names its feasible guess once."""
    game = Game.from_spec("p4c5b")
    for rule in ("small-total", "first"):
        Solver(game, jobs=1, checkpoint=tmp_path, split_secrets=100, table_entries=7_001,
               wc_tree=rule).solve("worst-case")
    (rep,) = report(tmp_path)
    splits = [s for by in rep.worst.values() for found in by.values()
              for s in found.get("split", {}).values() if s.feasible]
    assert splits and all(len(s.feasible) == len(set(s.feasible)) == 1 for s in splits)


#: The report's rows of work left in rival first guesses searched as chains
BEGUN = "second guesses of the rival first guesses' big parts begun"
NOT_BEGUN = "second guesses, at most, of the rival first guesses' big parts not begun"
NO_TASK = "rival first guesses"


def _left(rep, what):
    """The rows of ``rep.left()`` that begin with ``what``."""
    return [row for row in rep.left() if row["what"].startswith(what)]


def test_an_expected_report_follows_each_rival_searched_as_a_chain(tmp_path, monkeypatch,
                                                                   mastermind_runs):
    """Mastermind with every part of 60 secrets or more split: its rival first guesses
    with big parts are chains of tasks (small parts, then each big part by its second
    guesses). Run to the end, every chain ends refuted, by its small parts or by a big
    part none of whose second guesses fits its budget, and nothing is left; with the
    second-guess tasks of one chain's last part removed, as a run stopped there would
    leave it, the report counts the ones still to search and prices them; with all of
    them removed, the part's second guesses count as at most to search."""
    game, solver, sol, _, rep, _ = _mastermind_run(mastermind_runs, tmp_path, monkeypatch)
    assert sol.value == 5625
    first = sol.strategy.root.guess
    assert rep.chains and first not in {c.guess for c in rep.chains}
    for chain in rep.chains:
        if chain.small == "refuted":
            continue
        *done, last = chain.parts
        assert all(p.best is not None and p.searched == p.below for p in done)
        assert last.best is None and last.searched == last.below > 0
        assert "the rival is refuted" in chain.text(rep.cost_text)
        assert chain.settled()
    assert rep.not_begun == [] and not rep.left()
    chain = max((c for c in rep.chains if c.small != "refuted"), key=lambda c: len(c.parts))
    last = chain.parts[-1]
    g = game.code_index(chain.guess)

    def of_last_part(fn, args):
        return fn == "_exp_guess_task" and args[0] == [g] and args[4] == last.secrets

    kept = []  # one of the last part's tasks stays: the part is begun, not finished
    removed = drop_entries(tmp_path, lambda fn, args: not of_last_part(fn, args)
                            or not kept and not kept.append(args))
    assert removed == last.searched - 1
    (rep,) = report(tmp_path)
    (again,) = [c for c in rep.chains if c.guess == chain.guess]
    assert again.parts == chain.parts[:-1] + [begun := again.parts[-1]]
    assert (begun.searched, begun.below, begun.best) == (1, last.below, None)
    assert "none within it so far" in again.text(rep.cost_text)
    assert not again.settled()
    (row,) = _left(rep, BEGUN)
    # Priced (the mean may round to 0.0: these tasks take a millisecond or less)
    assert row["tasks"] == last.below - 1 and row["mean_cpu_seconds"] is not None
    # Priced at its own part's mean (its one task kept), not at every chain task's.
    (kept_cpu,) = [e["timing"]["cpu_seconds"] for e in map(
        lambda f: json.loads(f.read_text()), tmp_path.glob("task-*.json"))
        if of_last_part(e["task"]["function"], e["task"]["args"])]
    assert begun.timed == 1 and begun.cpu == pytest.approx(kept_cpu)
    assert row["estimate_seconds"] == pytest.approx((last.below - 1) * kept_cpu, abs=2e-3)
    assert "each at the mean of its own part's tasks timed so far (" in row["price_basis"]
    assert f"in the part of {last.secrets:,} secrets, of 1)" in row["price_basis"]
    assert f"left: {last.below - 1:,} second guesses of the rival first guesses" in (
        "\n".join(rep.lines()))
    # The bigger parts, which the run never reached once this part refuted the
    # chain, now wait: at most their second guesses are left.
    bigs = sum(len(p) >= 60 for _, p in solver.first_guess_parts(g))
    assert again.waiting == bigs - len(chain.parts) >= 1  # 1234's part of 312 secrets
    assert _left(rep, NOT_BEGUN)[0]["tasks"] == again.waiting_guesses >= again.waiting
    assert not _left(rep, NO_TASK)
    drop_entries(tmp_path, lambda fn, args: not of_last_part(fn, args))
    (rep,) = report(tmp_path)
    (again,) = [c for c in rep.chains if c.guess == chain.guess]
    # The refuting part and every bigger one (the chain never reached them) wait.
    assert again.parts == chain.parts[:-1] and again.waiting == bigs - len(again.parts) >= 1
    assert f"{again.waiting} big part" in again.text(rep.cost_text)
    assert not again.settled() and not _left(rep, BEGUN)
    # At most every second guess of the parts the chain has not begun: the refuting
    # part's own (its searched ones all had a bound below its budget) and more.
    (row,) = _left(rep, NOT_BEGUN)
    assert row["tasks"] == again.waiting_guesses >= last.below + again.waiting - 1
    assert f"left: {row['tasks']:,} {NOT_BEGUN}" in "\n".join(rep.lines())


def test_rival_first_guesses_with_no_task_yet_are_counted_and_priced(tmp_path,
                                                                     monkeypatch,
                                                                     mastermind_runs):
    """Mastermind, run to the end with big parts split from 60 secrets: of its five
    first-guess classes, one is solved exactly, three are rivals searched as chains
    and 1111 has no task, cut by its probed bound (recomputed as the search ranks the
    first guesses: above 5,625): nothing is left. With one chain's tasks all removed,
    as a run stopped before it would leave it, that rival counts as left, priced at
    the mean processor time of the other chains, each summed over its own tasks'
    timings."""
    from optimal_mm import search

    game, solver, sol, _, _, _ = _mastermind_run(mastermind_runs, tmp_path, monkeypatch)
    assert sol.value == 5625
    order = dict(solver.first_guess_order(search.NO_CAP))
    assert len(order) == 5 and order[game.code_index("1111")] >= 5625
    assert sum(bound < 5625 for bound in order.values()) == 4
    (rep,) = report(tmp_path)
    assert rep.first_classes == 5 and len(rep.begun) == 4 and "1111" not in rep.begun
    assert rep.not_begun == [] and rep.rivals_exact and not rep.left()
    chains = sorted(c.guess for c in rep.chains)
    assert len(chains) == 3
    gone, *kept = chains

    def cpu_of(first):  # a chain's processor time, read from its own entries as the
        # report reads them: every timed task whose history begins with the rival (or,
        # with none, whose guess it is), the records of answers computed in pieces
        # left out (the pieces are entries of their own). Summed over the guess tasks
        # only, with those records, it missed the small parts' value tasks and the
        # clock between pieces: 0.001 s off, as the report's mean is rounded.
        g = game.code_index(first)
        total = 0.0
        for path in tmp_path.glob("task-*.json"):
            entry = json.loads(path.read_text())
            args, timing = entry["task"]["args"], entry.get("timing")
            if not timing or timing.get("pieces"):
                continue
            if (args[0][0] if args[0] else args[1]) == g:
                total += timing["cpu_seconds"]
        return total

    expected_mean = sum(cpu_of(g) for g in kept) / len(kept)
    g = game.code_index(gone)
    assert drop_entries(tmp_path, lambda fn, args: args[0][:1] != [g] and (
        args[0] or args[1] != g)) > 1  # every task of the chain: its pieces too
    (rep,) = report(tmp_path)
    assert rep.not_begun == [gone] and gone not in {c.guess for c in rep.chains}
    assert rep.rivals_exact
    (row,) = _left(rep, NO_TASK)
    assert row["what"].startswith("rival first guesses with no task yet (their probed")
    assert row["tasks"] == 1 and row["timed"] == 2
    assert row["mean_cpu_seconds"] == pytest.approx(expected_mean, abs=1e-3)  # as rounded


def test_rivals_searched_as_chains_below_the_first_guess_count_as_settled(tmp_path,
                                                                         monkeypatch):
    """p4c5nb's fewest at the worst depth, parts split from 30 secrets and rivals
    chained from 4 (``--chain-secrets``): a rival second guess searched as a chain
    leaves its answer as its own task's, so every big part's rivals read as settled;
    the rivals inside the chains (third guesses and below) are counted apart."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec("p4c5nb")
    sol = Solver(game, jobs=1, checkpoint=tmp_path, chain_secrets=4).solve("fewest-at-worst")
    (rep,) = report(tmp_path)
    bigs = rep.big_parts[sol.strategy.root.guess]
    assert bigs and all(b.settled == b.below > 0 for b in bigs)
    assert rep.deep_rivals and all(len(g.split()) >= 3 for g, _, _ in rep.deep_rivals)
    assert "rival guesses below the second, in chains: " in "\n".join(rep.lines())
    assert rep.deep_parts > 0  # pieces of parts split below the second guess
    # The small parts of each chain: their probes' task and each part's value alone,
    # counted on a line of their own, not as the guess's parts nor as big parts' probes
    from optimal_mm.checkpoint import read_entries

    small = sum(task["function"] in ("_exp_probe_task", "_exp_batch_task") or (
        task["function"] == "_exp_part_task" and task["args"][2] >= INF
        and not task["args"][4]) for _, task, _, _ in read_entries(tmp_path))
    assert rep.small_parts == small > 0
    assert f"  pieces of those small parts' tasks (their probes, then each part solved " \
           f"exactly, the biggest in batches of their first guesses): {small:,}" in rep.lines()
    assert rep.to_dict()["small_part_pieces"] == small
    # Their times are kept apart: a chained rival is many pieces, so a piece's time
    # does not price a rival second guess still to search.
    from optimal_mm.checkpoint_summary import CHAIN_PIECE

    pieces = [e for e in rep.timed if e.function == CHAIN_PIECE]
    assert pieces and len(pieces) < len(rep.timed)
    assert len(rep.task_cpu("_exp_guess_task")) == sum(
        e.function == "_exp_guess_task" for e in rep.timed)
    assert not [row for row in rep.left() if "big parts" in row["what"]]


def _races_begun(folder, monkeypatch, count, spec="p4c5nb", one_part=False):
    """``spec``'s fewest at worst with chains from 4 secrets and parts split from 30,
    then ``count`` rival second guesses taken back to the middle of their races: each
    one's own answer removed, and the first of its third guesses (in the checkpoint's
    order) that did no better. The rivals are those with at least three third guesses,
    one of them no better, and not the first second guess of a big part: first those
    none of whose third guesses did better (refuted), then by the most third guesses;
    with ``one_part``, only those that answer for one big part, and of those, the ones
    of the big part where the most of them race.

    Returns the game, the solver, the solution, the first guess's index, for each
    rival taken back (in that order) its index, its number of third guesses and the
    one removed, and the tasks taken out, as ``(history, guess, secrets)``."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    game = Game.from_spec(spec)
    solver = Solver(game, jobs=1, checkpoint=folder, chain_secrets=4)
    sol = solver.solve("fewest-at-worst")
    first = game.code_index(sol.strategy.root.guess)
    (rep,) = report(folder)
    thirds = {}  # rival second guess -> its third guesses' tasks: (guess, result)
    parts = {}  # rival second guess -> the sizes of the big parts it answers for
    for path in sorted(folder.glob("task-*.json")):
        entry = json.loads(path.read_text())
        args = entry["task"]["args"]
        if entry["task"]["function"] != "_exp_guess_task" or args[0][:1] != [first]:
            continue
        if len(args[0]) == 1:  # (history, guess, parts, lbs, n, ...)
            parts.setdefault(args[1], set()).add(args[4])
        elif len(args[0]) == 2:
            thirds.setdefault(args[0][1], []).append((args[1], entry["result"]["tuple"][0]))
    firsts = {game.code_index(b.first) for b in rep.big_parts[sol.strategy.root.guess]}
    racing = [g for g, results in thirds.items() if g not in firsts
              and len(results) >= 3 and any(r is None for _, r in results)]
    if one_part:
        sizes = Counter(n for g in racing if len(parts[g]) == 1 for n in parts[g])
        busiest = max(sizes, key=lambda n: (sizes[n], n))
        racing = [g for g in racing if parts[g] == {busiest}]
    racing = sorted(racing, key=lambda g: (any(r is not None for _, r in thirds[g]),
                                           -len(thirds[g]), g))[:count]
    assert len(racing) == count
    removed = {h: next(g for g, r in thirds[h] if r is None) for h in racing}
    dropped = []  # the tasks taken out: (history, guess, secrets)

    def keep(fn, args):
        if fn != "_exp_guess_task":
            return True
        if args[0] == [first] and args[1] in removed:  # the rival's own answer
            return dropped.append((tuple(args[0]), args[1], args[4]))
        if len(args[0]) == 2 and args[0][0] == first and removed.get(args[0][1]) == args[1]:
            return dropped.append((tuple(args[0]), args[1], args[4]))  # in each of its parts
        return True

    drop_entries(folder, keep)
    return (game, solver, sol, first, [(h, len(thirds[h]), removed[h]) for h in racing],
            dropped)


def _tasks_since(folder, before):
    """The guess tasks a run added to the checkpoint ``folder`` since the entries
    ``before``: (history, guess, secrets)."""
    tasks = [json.loads(p.read_text())["task"] for p in set(folder.glob("task-*.json")) - before]
    return [(tuple(t["args"][0]), t["args"][1], t["args"][4]) for t in tasks
            if t["function"] == "_exp_guess_task"]


def test_a_rival_begun_as_a_chain_shows_its_race_and_is_priced_less(tmp_path, monkeypatch):
    """p4c5nb with a refuted rival second guess taken back to the middle of its race
    (:func:`_races_begun`). The report names it begun, with its race as the search
    runs it (the third guesses it had searched, one of them left), prices it at its
    part's mean less the share it holds, and a resumed run computes just that third
    guess of its race again."""
    game, solver, sol, first, ((h, n, removed),), _ = _races_begun(tmp_path, monkeypatch, 1)
    (rep,) = report(tmp_path)
    bigs = rep.big_parts[sol.strategy.root.guess]
    ((part, (rival, raced, waiting)),) = [(b, r) for b in bigs for r in b.racing]
    assert rival == game.code_str(h)
    ((race),) = raced
    assert (race.below, race.searched, race.best) == (n, n - 1, None)
    # Its bigger parts, chained too, wait for the race's end: a part that the search
    # would take next if this one found a guess within its budget.
    (secrets,) = [p for _, p in solver.first_guess_parts(first) if len(p) == part.secrets]
    assert waiting == sum(len(sub) > race.secrets for _, sub in solver.split(h, secrets)
                          if len(sub) >= rep.least_chained)
    assert part.raced_share == pytest.approx((n - 1) / n / (1 + waiting))
    line = next(line for line in rep.lines() if f"rival {rival} begun" in line)
    assert (f"rival {rival} begun, its part of {race.secrets:,} secrets: {n - 1:,} of {n:,} "
            f"third guesses with a bound below its budget searched, none within it so far"
            in line)
    assert line.endswith(f"big part{'s' if waiting != 1 else ''} not begun" if waiting
                         else "none within it so far")
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    open_parts = [b for b in bigs if b.below > b.settled]
    assert row["tasks"] == sum(b.below - b.settled for b in open_parts)
    assert row["estimate_seconds"] == pytest.approx(sum(
        b.cpu / b.timed * (b.below - b.settled - b.raced_share) for b in open_parts),
        abs=2e-3)
    assert row["price_basis"].endswith(f"those begun, less the share of their third "
                                       f"guesses in the checkpoint ({rival}: {n - 1} of {n})")
    assert rep.to_dict()["expected"] is not None and any(
        b.to_dict()["racing"] == [{"rival": rival, "parts": [race.to_dict()],
                                   "waiting": waiting}]
        for b in bigs)
    before = set(tmp_path.glob("task-*.json"))
    assert Solver(game, jobs=1, checkpoint=tmp_path,
                  chain_secrets=4).solve("fewest-at-worst").value == sol.value
    assert [guess for history, guess, _ in _tasks_since(tmp_path, before)
            if history == (first, h)] == [removed]


def test_two_rivals_begun_in_one_part_are_both_shown_and_priced(tmp_path, monkeypatch):
    """p3c6nb with two rival second guesses of one big part taken back to the middle
    of their races (:func:`_races_begun`), each racing in parts of its own. The part
    shows both races; its share done is theirs together, the price names both, and a
    resumed run computes exactly what was taken out."""
    game, solver, sol, first, taken, dropped = _races_begun(tmp_path, monkeypatch, 2,
                                                            "p3c6nb", one_part=True)
    (rep,) = report(tmp_path)
    bigs = rep.big_parts[sol.strategy.root.guess]
    (part,) = [b for b in bigs if b.racing]
    races = {rival: (raced, waiting) for rival, raced, waiting in part.racing}
    assert set(races) == {game.code_str(h) for h, _, _ in taken}
    for h, _, _ in taken:
        raced, _ = races[game.code_str(h)]
        assert len(raced) >= 2  # each big part of the rival's split, raced
        # Each third guess taken out once in each part that had it
        assert sum(p.below - p.searched for p in raced) == sum(
            history == (first, h) for history, _, _ in dropped)
    assert 0 < part.raced_share < 2
    assert part.raced_share == pytest.approx(sum(
        sum(p.searched / p.below for p in raced) / (len(raced) + waiting)
        for raced, waiting in races.values()))
    line = next(line for line in rep.lines() if f"part of {part.secrets:,} secrets: under"
                in line)
    at = [line.index(f"rival {rival} begun") for rival, _, _ in part.racing]
    assert at == sorted(at)  # each race in the line, in the part's order
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["price_basis"].endswith("(" + ", ".join(
        f"{rival}: {sum(p.searched for p in raced):,} of {sum(p.below for p in raced):,}"
        for rival, raced, _ in part.racing) + ")")
    open_parts = [b for b in bigs if b.below > b.settled]
    assert row["estimate_seconds"] == pytest.approx(sum(
        b.cpu / b.timed * (b.below - b.settled - b.raced_share) for b in open_parts),
        abs=2e-3)
    before = set(tmp_path.glob("task-*.json"))
    assert Solver(game, jobs=1, checkpoint=tmp_path,
                  chain_secrets=4).solve("fewest-at-worst").value == sol.value
    assert sorted(_tasks_since(tmp_path, before)) == sorted(dropped)


def _solved_batch_run(folder, monkeypatch, spec, split, objective, **options):
    """A run of ``spec`` to the end with parts split from ``split`` secrets: see
    :func:`_batch_report` for the answer."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", split)
    game = Game.from_spec(spec)
    solver = Solver(game, jobs=1, checkpoint=folder, **options)
    return _batch_report(folder, solver, solver.solve(objective), split)


def _batch_report(folder, solver, sol, split):
    """The game, the solver, the solution, the first guess's index, the report of
    the run's checkpoint ``folder`` and the first batch's tasks below the big parts
    (each first second guess with the hash of one of its parts; a rival second
    guess that proved better has its parts solved too, outside the batch)."""
    from optimal_mm import search

    first = solver.game.code_index(sol.strategy.root.guess)
    (rep,) = report(folder)
    batch = set()
    for _, part in solver.first_guess_parts(first):
        if len(part) >= split:
            g2 = solver.exp_second_guesses((first,), part, search.NO_CAP, rep.weight)[0][0]
            batch |= {(g2, _digest(sub)) for _, sub in solver.split(g2, part)}
    return solver.game, solver, sol, first, rep, batch


def _mastermind_run(mastermind_runs, folder, monkeypatch, rebuild="kept"):
    """:func:`_batch_report` for the shared mastermind run (``conftest.py``) with
    its checkpoint copied into ``folder``, which the test may prune, and the split
    from 60 secrets patched in, as the report reads it."""
    source, solver, sol = mastermind_runs(rebuild)
    shutil.copytree(source, folder, dirs_exist_ok=True)
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    return _batch_report(folder, solver, sol, 60)


def _in_first_batch(args, first, batch) -> bool:
    """Whether the arguments of an ``_exp_part_task`` are those of a task of the first
    guess ``first``'s batch (:func:`_batch_report`'s ``batch``), not a probe."""
    return bool(args[4]) and args[0][:1] == [first] and (
        len(args[0]) == 1 or len(args[0]) == 2 and (args[0][1], args[1]["array"]) in batch)


def test_batch_parts_solved_as_chains_are_counted_apart_not_priced(tmp_path,
                                                                   monkeypatch):
    """p4c5nb's fewest at the worst depth as above (parts split from 30 secrets, chains
    from 4): with ``--chain-secrets`` a part of the first guess's batch is solved as a
    chain of pieces, many tasks of which its own task is only the last. With that task
    removed, and one of a part too small to be chained, the report counts both as
    left, prices the small one at the part tasks' mean, and leaves the chained one
    unpriced: the run's pieces say how far it got, not how far it has to go."""
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p4c5nb", 30, "fewest-at-worst", chain_secrets=4)
    assert rep.batch_left == rep.batch_chained == {}
    assert rep.least_chained is not None and rep.least_chained >= 4  # probes: chained parts
    dropped = []  # (secrets, chained) of the batch's tasks removed

    def keep(fn, args):
        if fn != "_exp_part_task" or not _in_first_batch(args, first, batch):
            return True
        n = args[1]["shape"][0]
        chained = n >= rep.least_chained
        if chained not in {c for _, c in dropped}:
            return dropped.append((n, chained)) or False
        return True

    assert drop_entries(tmp_path, keep) == 2
    (again,) = report(tmp_path)
    assert again.least_chained == rep.least_chained  # the pieces are all still there
    assert again.batch_left == {sol.strategy.root.guess: 2}
    assert again.batch_chained == {sol.strategy.root.guess: 1}
    (single,) = _left(again, "tasks of the first guess")
    assert single["tasks"] == 1 and single["estimate_seconds"] is not None
    (chain,) = _left(again, "parts of the first guess's exact solve not yet done, solved")
    assert chain["tasks"] == 1 and chain["estimate_seconds"] is None
    assert f"parts of {rep.least_chained:,} secrets or more" in chain["what"]
    (line,) = [x for x in again.time_lines() if "as chains of pieces" in x]
    assert "not priced: a chain's length is known only when it ends" in line


def test_chained_batch_parts_are_known_without_their_probes(tmp_path, monkeypatch):
    """As above, with none of the run's probes saved (a probe quicker than
    ``--checkpoint-min-seconds`` is not: p4c9nb's run of 2026-12-03 kept none, and its
    report priced the four parts left, chains of hours, at 11 s each). The parts whose
    guesses a chain raced below the second guess say the same: only a chain races a
    part's guesses that deep. The biggest part of the first guess's batch, removed, is
    still counted as a chain, not priced."""
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p4c5nb", 30, "fewest-at-worst", chain_secrets=4)
    assert rep.probes > 0

    sizes = []  # of the batch's part tasks (none removed: each is kept)
    assert drop_entries(tmp_path, lambda fn, args: (
        fn == "_exp_part_task" and _in_first_batch(args, first, batch)
        and sizes.append(args[1]["shape"][0]) or True)) == 0
    biggest = max(sizes)
    dropped = []

    def keep(fn, args):
        if fn != "_exp_part_task":
            return True
        if not args[4]:
            return False  # every probe
        if (_in_first_batch(args, first, batch) and args[1]["shape"][0] == biggest
                and not dropped):
            return dropped.append(args) or False
        return True

    assert drop_entries(tmp_path, keep) == rep.probes + 1
    (again,) = report(tmp_path)
    assert again.probes == 0
    assert again.least_chained is not None and 4 <= again.least_chained <= biggest
    assert again.batch_left == again.batch_chained == {sol.strategy.root.guess: 1}
    (chain,) = _left(again, "parts of the first guess's exact solve not yet done, solved")
    assert chain["estimate_seconds"] is None


def test_a_chained_batch_part_says_how_far_its_race_of_third_guesses_got(tmp_path,
                                                                         monkeypatch):
    """As above: the parts of the first batch under a big part's second guess that are
    chains (``--chain-secrets``), their own tasks removed as a run stopped in their
    chains leaves them, are each followed by the race at their head: its rival third
    guesses in the search's order with a bound below its budget, how many of those
    the checkpoint holds and the best cost among them. The run ended, so each race is
    complete, and its best, where a rival beat the first third guess (whose parts are
    solved exactly, not raced), is the part's own answer; the report's line and the
    open cells' column both say it (p4c10nb's consistent total, 2026-12-07: "after
    0123 1032 (part of 2,020 secrets), 5 of 9 rival third guesses ... searched").
    With a rival's answer removed as well, the race is one short of its end."""
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p4c5nb", 30, "fewest-at-worst", chain_secrets=4)
    assert rep.batch_chains == {}  # nothing left: no chain followed
    from optimal_mm.checkpoint import read_entries

    def chained(fn, args):  # a task of the batch's parts under a second guess, a chain
        return (fn == "_exp_part_task" and _in_first_batch(args, first, batch)
                and len(args[0]) == 2 and args[1]["shape"][0] >= rep.least_chained)

    ends = {}  # (second guess, secrets) -> the answers of the parts removed
    for _, task, result, _ in read_entries(tmp_path):
        args = task["args"]
        if chained(task["function"], args):
            ends.setdefault((game.code_str(args[0][1]), args[1]["shape"][0]),
                            []).append(int(result[0]))
    assert drop_entries(tmp_path, lambda fn, args: not chained(fn, args)) == sum(
        map(len, ends.values())) > 0
    (again,) = report(tmp_path)
    assert again.least_chained == rep.least_chained
    raced = again.batch_chains[game.code_str(first)]
    assert raced and all(second in {g for g, _ in ends} for second, _ in raced)
    for second, cp in raced:
        assert cp.searched == cp.below > 0  # the race ran to its end
        # The best rival, where one beat the first third guess, is the part's answer
        assert cp.best is None or cp.best in ends[(second, cp.secrets)]
    (chain,) = _left(again, "parts of the first guess's exact solve not yet done, solved")
    second, cp = raced[0]
    said = (f"after {game.code_str(first)} {second} (part of {cp.secrets:,} secrets), "
            f"{cp.below:,} of {cp.below:,} rival third guesses with a bound below the "
            f"budget searched")
    assert said in chain["progress"] and said in chain["unpriced"]
    (line,) = [x for x in again.time_lines() if "as chains of pieces" in x]
    assert said in line
    assert again.to_dict()["first_batch_chains"][game.code_str(first)][0]["second"] == second
    assert load_script("open_cells")._left_text(chain).endswith(f"({chain['progress']})")
    assert any(cp.best is not None for _, cp in raced)  # a rival beat the first guess
    # One rival third guess's answer removed too, as a run stopped in that race leaves
    # it: the race is one short of its end.
    g2 = game.code_index(second)
    gone = []
    assert drop_entries(tmp_path, lambda fn, args: not (
        fn == "_exp_guess_task" and args[0] == [first, g2] and args[4] == cp.secrets
        and not gone and not gone.append(args))) == 1
    (short,) = report(tmp_path)
    (now,) = [p for s2, p in short.batch_chains[game.code_str(first)]
              if s2 == second and p.secrets == cp.secrets]
    assert now.searched == now.below - 1


def test_a_chained_part_of_the_first_batch_races_as_a_big_part(tmp_path, monkeypatch):
    """p4c6n's expected case, parts split from 80 secrets and chained from 20: the
    first guess's parts of 20 to 79 secrets are solved as chains, a first second guess
    and the race of its rivals, as a big part is. Solved whole, such a part is one of
    the parts solved exactly. With its own answer and three of its rivals removed, as a
    run stopped in its race leaves it, the report follows it as a big part: its first
    second guess's cost and the three rivals left in the race, priced at the mean of
    its own rivals, where it counted one task of the first batch left (p6c7n's
    264-secret part, a race of 28 rivals of minutes each, was priced at 2 minutes).
    (Mastermind, as this ran until 2026-12-06, took 16 s; p4c6n's 1 s run has one
    part of 72 secrets, whose race has more than three rivals, as the test needs.)"""
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p4c6n", 80, "expected", chain_secrets=20)
    root = sol.strategy.root.guess
    sizes = [len(part) for _, part in solver.first_guess_parts(first)]
    n = max(k for k in sizes if k < 80)
    assert n >= 20 and sizes.count(n) == 1
    assert all(b.secrets >= 80 for b in rep.big_parts[root])
    assert rep.batch_left == {} and not _left(rep, "rival second guesses")
    removed = {"part": 0, "rivals": 0}
    for path in sorted(tmp_path.glob("task-*.json")):
        entry = json.loads(path.read_text())
        fn, args = entry["task"]["function"], entry["task"]["args"]
        if args[0] != [first]:
            continue
        if fn == "_exp_part_task" and args[1]["shape"][0] == n:
            path.unlink()
            removed["part"] += 1
        elif (fn == "_exp_guess_task" and args[4] == n and removed["rivals"] < 3
              and entry["result"]["tuple"][0] is None):  # refuted: not the race's winner
            path.unlink()
            removed["rivals"] += 1
    assert removed == {"part": 1, "rivals": 3}
    (again,) = report(tmp_path)
    (part,) = [b for b in again.big_parts[root] if b.secrets == n]
    assert part.incumbent is not None and part.best <= part.incumbent
    assert part.below - part.settled == 3 and part.timed == part.settled
    assert again.batch_left == {} and again.least_chained <= n
    (row,) = _left(again, "rival second guesses of the big parts still in the race")
    assert row["tasks"] == 3
    there = answers_elsewhere(tmp_path, game, first, part, again.big_parts[root])
    assert row["estimate_seconds"] == pytest.approx(
        priced(part, there, part.cpu / part.timed), abs=1e-3)


def test_the_first_guess_batch_left_is_counted(tmp_path, monkeypatch, mastermind_runs):
    """Mastermind with big parts split from 60 secrets, run to the end: the first
    guess's batch (its small parts, and the parts of each big part's first second
    guess) is all there. With some of those tasks removed, as a run stopped inside
    the batch would leave it, the report counts exactly the removed ones as left,
    priced at the mean of the part tasks it still holds."""
    from optimal_mm import search

    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path, monkeypatch)
    assert rep.batch_left == {} and not _left(rep, "tasks of the first guess")
    full = rep
    small, sub = [], []  # remove two small parts' tasks and two big parts' sub-parts'

    def keep(fn, args):
        if fn != "_exp_part_task" or args[0][:1] != [first] or not args[4]:
            return True
        if len(args[0]) == 1 and len(small) < 2:
            return small.append(args) or False
        if (len(args[0]) == 2 and (args[0][1], args[1]["array"]) in batch
                and len(sub) < 2):
            return sub.append(args) or False
        return True

    assert drop_entries(tmp_path, keep) == 4 and len(small) == len(sub) == 2
    (rep,) = report(tmp_path)
    assert rep.batch_left == {sol.strategy.root.guess: 4}
    (row,) = _left(rep, "tasks of the first guess")
    assert row["tasks"] == 4 and row["timed"] == len(rep.task_cpu("_exp_part_task")) > 0
    # A big part that lacks a part of its first second guess: every one of its rival
    # second guesses counts, at most, less those the checkpoint holds; if a rival
    # settled did better than that first second guess, its cost is the part's best
    # known, and the rivals whose bound is not below it are out of the race.
    unsolved = [b for b in rep.big_parts[sol.strategy.root.guess] if b.incumbent is None]
    assert 1 <= len(unsolved) <= 2
    whole = {b.secrets: b for b in full.big_parts[sol.strategy.root.guess]}
    assert len(whole) == len(full.big_parts[sol.strategy.root.guess])  # sizes tell them
    plans = 0
    for _, part in solver.first_guess_parts(first):
        if len(part) >= 60 and len(part) in {b.secrets for b in unsolved}:
            best = whole[len(part)].best if whole[len(part)].winner else None
            rivals = solver.exp_second_guesses((first,), part, search.NO_CAP, 0)[1:]
            plans += sum(best is None or bound < best for _, bound in rivals)
    assert sum(b.below for b in unsolved) == plans
    (row,) = _left(rep, "rival second guesses, at most, of the big parts whose first")
    assert row["tasks"] == plans - sum(b.settled for b in unsolved) > 0
    # Entries written before timings were kept: the work left is still counted.
    rep.timed = []
    lines = rep.time_lines()
    assert lines[0].startswith("  time: no entry carries its task's timing")
    assert lines[1].startswith("  left: 4 tasks of the first guess's exact solve")
    assert lines[1].endswith(", not priced: no task of that kind timed yet")


def test_rivals_with_none_timed_are_priced_at_their_parts_trees(tmp_path, monkeypatch,
                                                                mastermind_runs):
    """Mastermind with big parts split from 60 secrets, run to the end, then every
    rival's task removed (as a run stopped after its first batch would leave it): no
    rival second guess is timed, so each one left is priced at the processor time of
    its part's tree under the first second guess, read here from that tree's own
    entries. With one of those entries written without its timing, no price."""
    from optimal_mm import checkpoint, search

    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path, monkeypatch)
    assert drop_entries(tmp_path, lambda fn, args: fn != "_exp_guess_task") > 0
    (rep,) = report(tmp_path)
    assert rep.task_cpu("_exp_guess_task") == []
    entries = {f: json.loads(f.read_text()) for f in tmp_path.glob("task-*.json")}
    trees = {}  # big part's secrets -> the files of its first second guess's tree
    for _, part in solver.first_guess_parts(first):
        if len(part) >= 60:
            g2 = solver.exp_second_guesses((first,), part, search.NO_CAP, 0)[0][0]
            mine = {_digest(sub) for _, sub in solver.split(g2, part)}
            trees[len(part)] = [f for f, e in entries.items()
                                if e["task"]["function"] == "_exp_part_task"
                                and e["task"]["args"][0] == [first, g2]
                                and e["task"]["args"][1]["array"] in mine]
    bigs = rep.big_parts[sol.strategy.root.guess]
    assert {b.secrets for b in bigs} == set(trees)
    assert all(b.settled == 0 < b.below for b in bigs)
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["tasks"] == sum(b.below for b in bigs) and row["timed"] == 0
    tree_cpu = {n: sum(entries[f]["timing"]["cpu_seconds"] for f in files)
                for n, files in trees.items()}
    assert row["estimate_seconds"] == pytest.approx(
        sum(b.below * tree_cpu[b.secrets] for b in bigs), abs=2e-3)
    (line,) = [x for x in rep.time_lines() if "still in the race" in x]
    assert line.endswith("under the first second guess (no rival timed yet)")
    path = trees[bigs[0].secrets][0]
    entry = entries[path]
    del entry["timing"], entry["sha256"]
    entry["sha256"] = checkpoint._digest(entry)  # intact, only untimed
    path.write_text(json.dumps(entry))
    (rep,) = report(tmp_path)
    again = rep.big_parts[sol.strategy.root.guess]
    assert [(b.secrets, b.incumbent, b.below) for b in again] == [
        (b.secrets, b.incumbent, b.below) for b in bigs]  # the same parts, solved
    assert again[0].tree_cpu is None and None not in [b.tree_cpu for b in again[1:]]
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["estimate_seconds"] is None


def test_the_tree_of_a_better_rival_is_followed_until_built(tmp_path, monkeypatch,
                                                            mastermind_runs):
    """Mastermind with big parts split from 60 secrets, run to the end: where a rival
    second guess beat its part's first one, the report names it (the one the
    solution plays there) and finds its tree built: kept by its own task, or, for
    rivals that answer as before 2026-11-28, by a task of its own, or part by part
    as the versions before did. With that task removed, as a run stopped before it
    would leave it, the tree counts as left, priced at the rival task's processor
    time."""
    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path / "kept", monkeypatch)
    bigs = rep.big_parts[sol.strategy.root.guess]
    won = [b for b in bigs if b.winner is not None]
    assert won and all(b.best < b.incumbent and b.tree_built for b in won)
    assert all(b.best == b.incumbent for b in bigs if b.winner is None)
    # each big part's secrets -> the second guess the solution plays there
    played = {len(part): sol.strategy.root.next[game.answer_str(int(answer))].guess
              for answer, part in solver.first_guess_parts(first) if len(part) >= 60}
    assert all(played[b.secrets] == (b.winner or b.first) for b in bigs)
    for b in won:
        assert b.winner_cpu is not None
        assert (f"a rival does better: {b.winner}, total {b.best} (its tree built)"
                in "\n".join(rep.lines()))
    assert not _left(rep, "tree")
    for rebuild in ("task", "parts"):
        again = _mastermind_run(mastermind_runs, tmp_path / rebuild, monkeypatch,
                                rebuild)[4]
        assert [(b.winner, b.tree_built) for b in again.big_parts[sol.strategy.root.guess]
                ] == [(b.winner, b.tree_built) for b in bigs]
    # Without the tree task of the first winner: left, at its rival task's time
    big = won[0]
    g2 = game.code_index(big.winner)
    assert drop_entries(tmp_path / "task", lambda fn, args: fn != "_exp_trees_task"
                        or args[1] != g2) == 1
    (again,) = report(tmp_path / "task")
    (b,) = [x for x in again.big_parts[sol.strategy.root.guess] if x.secrets == big.secrets]
    assert (b.winner, b.tree_built) == (big.winner, False)
    assert f"{big.winner}, total {big.best} (its tree not yet built)" in "\n".join(again.lines())
    (row,) = _left(again, "tree of a rival that beat")
    assert row["tasks"] == 1
    assert row["estimate_seconds"] == pytest.approx(b.winner_cpu, abs=2e-3)
    (line,) = [x for x in again.time_lines() if "tree of a rival that beat" in x]
    assert line.endswith("each at the processor time of the rival's own task")


@pytest.mark.parametrize("always", [True, False])
def test_short_part_trees_under_two_guesses_are_saved_whatever_their_time(
        tmp_path, monkeypatch, always):
    """p4c5nb's consistent fewest at the worst depth, parts split from 30 secrets and
    chained from 4, with ``--checkpoint-min-seconds`` far above any task's time and
    every rival's answer kept (as a long run keeps its rivals of minutes): the part
    trees under the first two guesses are saved all the same, so the report finds
    the first guess's batch done and each winning rival's tree built. A p6c7nb race
    reported "1 tree of a rival ... not yet built" for a tree whose part of 6
    secrets had taken under its 0.5 s. Without the rule that keeps them
    (``always`` false), the report sees no part at all."""
    from optimal_mm import search_tasks

    monkeypatch.setattr(search_tasks._exp_guess_task, "checkpoint_always",
                        lambda args: True, raising=False)
    if not always:
        monkeypatch.delattr(search_tasks._exp_part_task, "checkpoint_always")
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p4c5nb", 30, "fewest-at-worst", guesses="consistent",
        chain_secrets=4, checkpoint_min_seconds=1e6)
    bigs = rep.big_parts.get(sol.strategy.root.guess, [])
    if not always:
        assert bigs == []
        return
    assert rep.batch_left == rep.batch_chained == {}
    won = [b for b in bigs if b.winner is not None]
    assert len(bigs) == 2 and won and all(b.tree_built for b in won)
    assert not _left(rep, "tree")
    assert "not yet built" not in "\n".join(rep.lines())
    # Only those part trees are kept beyond the rivals: the run's deeper ones are not
    parts = []
    assert drop_entries(tmp_path, lambda fn, args: fn != "_exp_part_task"
                        or parts.append(args) or True) == 0
    assert parts and all(len(args[0]) <= 2 and args[4] for args in parts)


def test_rivals_left_are_priced_at_their_own_parts_mean(tmp_path, monkeypatch,
                                                        mastermind_runs):
    """Mastermind with big parts split from 60 secrets, run to the end, then all but one
    rival second guess of its biggest part removed, and the timing of the rivals'
    answers in the other big parts: the rivals left there are priced at that one's
    processor time (its part's own mean), not at every rival's."""
    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path, monkeypatch)
    biggest = max(rep.big_parts[sol.strategy.root.guess], key=lambda b: b.secrets)
    assert biggest.settled == biggest.below >= 3

    def of_biggest(fn, args):
        return fn == "_exp_guess_task" and args[0] == [first] and args[4] == biggest.secrets

    kept = []
    assert drop_entries(tmp_path, lambda fn, args: not of_biggest(fn, args)
                        or not kept and not kept.append(args)) == biggest.settled - 1
    assert untime_entries(tmp_path, lambda fn, args: fn == "_exp_guess_task"
                          and args[0] == [first] and args[4] != biggest.secrets)
    (kept_cpu,) = [e["timing"]["cpu_seconds"] for e in map(
        lambda f: json.loads(f.read_text()), tmp_path.glob("task-*.json"))
        if of_biggest(e["task"]["function"], e["task"]["args"])]
    (rep,) = report(tmp_path)
    (part,) = [b for b in rep.big_parts[sol.strategy.root.guess]
               if b.secrets == biggest.secrets]
    assert part.settled == 1 and part.timed == 1 and part.cpu == pytest.approx(kept_cpu)
    assert len(part.pending) == part.below - 1 and set(part.pending.values()) == {None}
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["tasks"] == part.below - 1
    assert row["estimate_seconds"] == pytest.approx((part.below - 1) * kept_cpu, abs=2e-3)
    assert row["price_basis"] == (
        f"each at the mean of its own part's rivals timed so far ("
        f"{duration_text(kept_cpu)} a task in the part of {part.secrets:,} secrets, of 1)")


def test_a_rival_left_is_priced_at_its_time_in_another_big_part(tmp_path, monkeypatch,
                                                                mastermind_runs):
    """Mastermind as above, all but one rival of its biggest part removed, the other
    big parts kept whole: each rival left that the other big parts answered (with its
    timing) is priced at its mean time there, read here from the entries, the others
    at the part's own mean; the price names them."""
    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path, monkeypatch)
    bigs = rep.big_parts[sol.strategy.root.guess]
    biggest = max(bigs, key=lambda b: b.secrets)

    def of_biggest(fn, args):
        return fn == "_exp_guess_task" and args[0] == [first] and args[4] == biggest.secrets

    kept = []
    drop_entries(tmp_path, lambda fn, args: not of_biggest(fn, args)
                 or not kept and not kept.append(args))
    (rep,) = report(tmp_path)
    bigs = rep.big_parts[sol.strategy.root.guess]
    (part,) = [b for b in bigs if b.secrets == biggest.secrets]
    there = answers_elsewhere(tmp_path, game, first, part, bigs)
    assert len(part.pending) == part.below - 1 >= 2
    assert part.pending == pytest.approx({rival: there.get(rival) for rival in part.pending})
    elsewhere = [rival for rival in part.pending if rival in there]
    assert elsewhere
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["estimate_seconds"] == pytest.approx(priced(part, there, part.cpu), abs=2e-3)
    said = "those answered in another big part of their first guess, at their processor time there"
    assert len(elsewhere) > checkpoint_summary.NAMED  # many: counted
    assert (f"{said} ({len(elsewhere):,} of them, "
            f"{duration_text(sum(there[rival] for rival in elsewhere))} in all)"
            in row["price_basis"])
    monkeypatch.setattr(checkpoint_summary, "NAMED", len(elsewhere))  # few: named
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert (f"{said} (" + ", ".join(f"{rival}: {duration_text(there[rival])}"
                                   for rival in elsewhere) + ")") in row["price_basis"]
    assert row["price_basis"].startswith("each at the mean of its own part's rivals") == (
        len(elsewhere) < len(part.pending))


def test_a_part_with_no_rival_timed_is_priced_at_its_own_tree(tmp_path, monkeypatch,
                                                              mastermind_runs):
    """Mastermind as above, with one rival kept in its biggest part and none in
    another big part: the first part's rivals left are priced at that rival's time,
    the other's at its own tree under the first second guess (the one sample of its
    work there), not at the mean of all the rivals timed."""
    game, solver, sol, first, rep, batch = _mastermind_run(
        mastermind_runs, tmp_path, monkeypatch)
    bigs = sorted(rep.big_parts[sol.strategy.root.guess], key=lambda b: -b.secrets)
    biggest, other = bigs[0], next(b for b in bigs[1:] if b.below >= 1)
    assert other.tree_cpu is not None

    def rival_of(part, fn, args):
        return fn == "_exp_guess_task" and args[0] == [first] and args[4] == part.secrets

    kept = []
    drop_entries(tmp_path, lambda fn, args: not (rival_of(biggest, fn, args) or
                                                 rival_of(other, fn, args))
                 or rival_of(biggest, fn, args) and not kept and not kept.append(args))
    # ... and the rivals' answers elsewhere untimed: no rival has a time of its own
    untime_entries(tmp_path, lambda fn, args: fn == "_exp_guess_task" and args[0] == [first]
                   and args[4] not in (biggest.secrets, other.secrets))
    (kept_cpu,) = [e["timing"]["cpu_seconds"] for e in map(
        lambda f: json.loads(f.read_text()), tmp_path.glob("task-*.json"))
        if rival_of(biggest, e["task"]["function"], e["task"]["args"])]
    (rep,) = report(tmp_path)
    parts = {b.secrets: b for b in rep.big_parts[sol.strategy.root.guess]}
    big, small = parts[biggest.secrets], parts[other.secrets]
    assert big.timed == 1 and big.cpu == pytest.approx(kept_cpu) and small.timed == 0
    assert small.tree_cpu is not None and small.below > small.settled == 0
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    assert row["tasks"] == big.below - 1 + small.below
    # The small part's rival that the big part kept is priced at its time there
    there = answers_elsewhere(tmp_path, game, first, small, parts.values())
    assert set(there) <= {game.code_str(kept[0][1])}
    assert row["estimate_seconds"] == pytest.approx(
        (big.below - 1) * kept_cpu + priced(small, there, small.tree_cpu), abs=1e-3)
    assert ("each at the mean of its own part's rivals timed so far; a part with none, at "
            "the processor time of its part's tree under the first second guess"
            in row["price_basis"].replace(f" ({duration_text(kept_cpu)} a task in the part "
                                          f"of {big.secrets:,} secrets, of 1)", ""))


def test_the_docstring_examples_hold():
    import doctest

    from optimal_mm import checkpoint_summary

    result = doctest.testmod(checkpoint_summary)
    assert result.attempted and not result.failed


def _solvable_within(game, secrets, k, memo) -> bool:
    """Whether some tree of consistent guesses finds each of ``secrets`` (code
    indices) within ``k`` guesses: brute force over the secrets as guesses, scored by
    the game's own rule one pair at a time (nothing of the search's)."""
    key = (frozenset(secrets), k)
    if key not in memo:
        memo[key] = k >= 1 and (len(secrets) == 1 or k >= 2 and any(
            all(_solvable_within(game, part, k - 1, memo)
                for part in parts_by_answer(game.score, g, secrets).values())
            for g in secrets))
    return memo[key]


def test_a_first_second_guess_beyond_the_cap_leaves_its_rivals_racing(tmp_path,
                                                                     monkeypatch):
    """p5c5nb's fewest at the worst depth with consistent guesses, parts split from 30
    secrets: the 45-secret part's first second guess in the search's order leaves a
    part that no tree of consistent guesses solves within the guesses left (checked
    here by brute force), so it cannot solve the part within the cap and its rivals
    race with no budget. The report says so (not "not yet solved", which it said
    before, leaving those rivals unpriced), follows the rival that wins, and, with the
    rivals' entries removed, prices them at the tree that was tried."""
    from optimal_mm.progress import Progress

    class Labels(Progress):
        def __init__(self):
            self.seen = []

        def phase(self, label, total, done=0):
            self.seen.append(label)

    labels = Labels()
    game, solver, sol, first, rep, batch = _solved_batch_run(
        tmp_path, monkeypatch, "p5c5nb", 30, "fewest-at-worst", guesses="consistent",
        progress=labels)
    root = sol.strategy.root.guess
    (big,) = [b for b in rep.big_parts[root] if b.beyond is not None]
    assert big.incumbent is None and big.solved and big.settled == big.below >= 1
    (part,) = [p for _, p in solver.first_guess_parts(first) if len(p) == big.secrets]
    g2 = game.code_index(big.first)
    cap = max(len(sol.strategy.path_for(s)) for s in range(game.n_codes))  # t*
    sizes = sorted(len(sub) for sub in parts_by_answer(game.score, g2, part).values())
    memo = {}
    beyond = [len(sub) for sub in parts_by_answer(game.score, g2, part).values()
              if not _solvable_within(game, sub, cap - 2, memo)]
    assert beyond and big.beyond == min(beyond) and big.beyond in sizes
    # The rival that won is the tree's second guess in that part, its tree built
    assert big.winner is not None and big.tree_built
    assert {sol.strategy.path_for(int(s))[1] for s in part} == {big.winner}
    assert _solvable_within(game, list(map(int, part)), cap - 1, memo)
    text = "\n".join(rep.lines())
    assert (f"part of {big.secrets:,} secrets: {big.first} cannot solve it within the cap "
            f"(its part of {big.beyond:,} secrets needs more guesses)") in text
    assert (f"{big.first} (part of {big.secrets:,} secrets): " in text
            and f"beyond the cap (no tree within the guesses left: {big.beyond:,}" in text)
    assert f"its first second guess {big.first} not yet solved" not in text
    # The search's own progress says so too: its rivals race with no total to beat
    (racing,) = [x for x in labels.seen if x.startswith(f"fewest-at-worst: rivals of {big.first} ")]
    assert racing.endswith("to search, none within the cap so far")
    assert not any(str(INF) in x for x in labels.seen)
    # The rivals left to run: racing, priced at the tree under the first second guess
    assert drop_entries(tmp_path, lambda fn, args: not (
        fn in ("_exp_guess_task", "_exp_trees_task") and args[0] == [first])) >= big.below
    (rep,) = report(tmp_path)
    (again,) = [b for b in rep.big_parts[root] if b.secrets == big.secrets]
    assert again.beyond == big.beyond and again.settled == 0 and again.winner is None
    assert again.tree_cpu is not None
    assert not _left(rep, "rival second guesses, at most, of the big parts whose first")
    (row,) = _left(rep, "rival second guesses of the big parts still in the race")
    others = [b for b in rep.big_parts[root] if b.solved and b.below > b.settled]
    assert row["tasks"] == sum(b.below - b.settled for b in others) >= again.below
    assert row["estimate_seconds"] == pytest.approx(
        sum((b.below - b.settled) * b.tree_cpu for b in others), abs=2e-3)


@pytest.fixture(scope="module")
def floored_capped_run(tmp_path_factory):
    """Mastermind's total within 5, its parts of 60 secrets or more split, run to the
    end with the uncapped optimal tree as its lower bound: the parts whose subtree
    keeps to 5 guesses are taken from the tree, with no task, and each split part
    starts from the tree's guess there."""
    from optimal_mm.search import LowerBound

    patch = pytest.MonkeyPatch()
    patch.setattr(search_parts, "SPLIT_SECRETS", 60)
    try:
        game = Game.from_spec("mastermind")
        tree = Solver(game, jobs=1, table_entries=50_141).expected().strategy
        folder = tmp_path_factory.mktemp("floored")
        floor = LowerBound.from_tree(tree, "mastermind's tree")
        sol = Solver(game, jobs=1, checkpoint=folder, table_entries=50_142,
                     checkpoint_min_seconds=0).worst_then_expected(floor=floor)
        given = sum("not searched" in line for line in sol.proof)
        yield folder, tree, sol, given, patch
    finally:
        patch.undo()


def test_a_run_read_with_its_lower_bound_tree_counts_what_the_tree_settled(
        floored_capped_run, monkeypatch):
    # Read with the tree it was given, the finished run has nothing left: the parts
    # the tree settled are solved, each big part starts from the tree's guess. Read
    # without it, those parts are missing (tasks never run) and the report counts
    # them as left, though the search will never run them.
    folder, tree, sol, given, _ = floored_capped_run
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    assert sol.value == 5626 and given >= 1
    (plain,) = report(folder)
    (read,) = report(folder, floor=(tree, "mastermind's tree"))
    assert read.floor is not None and read.floor[0] == "mastermind's tree"
    assert read.floor[1] + read.floor[2] >= given  # (some below the second guess)
    assert plain.floor is None and plain.left()
    assert read.left() == [], read.lines()
    first = sol.strategy.root.guess
    bigs = read.big_parts[first]
    assert bigs and all(b.settled == b.below for b in bigs)
    # ... and each split part starts from the run's own second guess there: the
    # tree's, where its part is on the tree's path
    for big in bigs:
        node = next(n for a, n in tree.root.next.items()
                    if sum(1 for _ in _secrets_of(tree.game, first, a)) == big.secrets)
        assert big.first == node.guess
    small = sum(v for n, v, e in read.expected[first]["parts"] if e)
    assert tree.game.n_codes + small + sum(b.best for b in bigs) == sol.value
    assert "read with the lower bound's tree mastermind's tree: " in "\n".join(read.lines())


def _secrets_of(game, first: str, answer: str):
    """The secrets that answer ``answer`` to the guess ``first`` (code strings)."""
    return (c for c in map(game.code_str, range(game.n_codes))
            if game.answer_str(game.score(first, c)) == answer)


def test_the_cli_reads_a_run_with_its_lower_bound_tree(floored_capped_run, tmp_path):
    folder, tree, *_ = floored_capped_run
    path = tmp_path / "floor.json.gz"
    tree.save(path)
    base = [sys.executable, "-m", "optimal_mm", "checkpoint", str(folder)]
    run = subprocess.run(base + ["--lower-bound-tree", str(path), "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    (found,) = json.loads(run.stdout)["runs"]
    assert found["lower_bound_tree"]["source"] == f"the optimal tree {path}"
    for argv, words in ((["--lower-bound-tree", str(path), "--no-classes"], "--no-classes"),
                        (["--lower-bound-tree", str(tmp_path / "none.json")], "cannot read")):
        run = subprocess.run(base + argv, capture_output=True, text=True)
        assert run.returncode == 2 and words in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
    other = tmp_path / "p3c4.json.gz"
    Solver(Game.from_spec("p3c4"), jobs=1).expected().strategy.save(other)
    run = subprocess.run(base + ["--lower-bound-tree", str(other)], capture_output=True,
                         text=True)
    assert run.returncode == 2 and "bounds no run in" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_a_capped_rival_left_is_priced_at_its_time_without_the_cap(tmp_path, monkeypatch):
    # A capped run that read the search without the cap as lower bounds: a rival
    # second guess still in its race is the same search as there against a budget as
    # high or one more, so it is priced at its processor time there.
    from optimal_mm.checkpoint_report import _uncapped_times
    from optimal_mm.search import LowerBound

    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 60)
    game = Game.from_spec("mastermind")
    uncapped_dir, capped_dir = tmp_path / "uncapped", tmp_path / "capped"
    tree = Solver(game, jobs=1, checkpoint=uncapped_dir, table_entries=50_151,
                  checkpoint_min_seconds=0).expected().strategy
    Solver(game, jobs=1, checkpoint=capped_dir, table_entries=50_152,
           checkpoint_min_seconds=0).worst_then_expected(
        floor=LowerBound.from_tree(tree, "mastermind's tree"))
    (run,) = report(capped_dir)
    times = _uncapped_times(uncapped_dir, run.run)
    assert times  # the rival second guesses without the cap, timed
    # As a run stopped in its races: the rival second guesses that the search
    # without the cap answered too taken out
    dropped = []

    def keep(function, args):
        key = ((args[0][0],), args[1], frozenset(p["array"] for p in args[2])) \
            if function == "_exp_guess_task" and len(args[0]) == 1 else None
        if key in times:
            dropped.append(key)
            return False
        return True

    drop_entries(capped_dir, keep)
    assert dropped
    floor = (tree, "mastermind's tree", str(uncapped_dir))
    (read,) = report(capped_dir, floor=floor)
    (row,) = [r for r in read.left() if r["what"].startswith("rival second guesses")]
    bigs = [b for bigs in read.big_parts.values() for b in bigs]
    priced_there = {rival: cpu for b in bigs for rival, cpu in b.uncapped.items()}
    assert priced_there and row["tasks"] >= len(priced_there), (row, read.lines())
    assert "those the search without the cap answered, at their processor time there" \
        in row["price_basis"]
    if row["tasks"] == len(priced_there):  # every rival left priced so
        assert row["estimate_seconds"] == pytest.approx(sum(priced_there.values()),
                                                        abs=0.01)
    # Each price is the rival's own entry there
    assert set(priced_there.values()) <= set(times.values())
    # Read without that directory, the same rivals are priced otherwise
    (plain,) = report(capped_dir, floor=floor[:2])
    assert all(not b.uncapped for bigs in plain.big_parts.values() for b in bigs)
