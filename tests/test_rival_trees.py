"""A rival that proves better keeps its parts' trees (:func:`search_tasks._exp_guess_task`).

The task has solved every part exactly when it beats its budget, and its
transposition table still holds their states: it builds their trees there, and the
search plays them as they are. Before, the search built the winner's tree again,
part by part, in workers that held none of those states (p6c7nb's better rival
second guess took 474 s as a task; its tree was unfinished after 16 minutes). The
trees are the same either way: each part's tree is the first guess in index order
that meets the part's optimum at every node, whatever the table holds.
"""

from __future__ import annotations

import json

from optimal_mm import Game
from optimal_mm.search import Solver

from checkpoint_entries import rivals_without_trees


def _part_tasks_under(folder, first: int) -> int:
    """How many part tasks of ``folder`` are played under the first guess ``first``
    alone (its own parts, solved one task each)."""
    count = 0
    for path in folder.glob("task-*.json"):
        task = json.loads(path.read_text())["task"]
        count += task["function"] == "_exp_part_task" and task["args"][0] == [first]
    return count


def test_a_better_rival_first_guess_is_played_as_its_task_built_it(tmp_path, monkeypatch):
    # p5c4's fewest secrets at the worst depth: the first guess solved first is not
    # the best; 11223, a rival searched as one task, proves better (67 at the cap).
    game = Game.from_spec("p5c4")
    kept = Solver(game, jobs=1, checkpoint=tmp_path / "kept").solve("fewest-at-worst")
    winner = game.code_index(kept.strategy.root.guess)
    assert any("proved better" in line for line in kept.proof)
    assert kept.strategy.root.guess == "11223" and _part_tasks_under(tmp_path / "kept",
                                                                       winner) == 0
    rivals_without_trees(monkeypatch)
    again = Solver(game, jobs=1, checkpoint=tmp_path / "again").solve("fewest-at-worst")
    assert again.value == kept.value
    assert again.strategy.root.to_dict() == kept.strategy.root.to_dict()
    assert _part_tasks_under(tmp_path / "again", winner) == len(again.strategy.root.next)


def _tasks(folder, function: str) -> list:
    return [task for task in (json.loads(p.read_text())["task"]
                              for p in folder.glob("task-*.json"))
            if task["function"] == function]


def test_a_better_rival_second_guess_is_played_as_its_task_built_it(mastermind_runs):
    # Mastermind with big parts split from 60 secrets: rivals of their first second
    # guesses prove better. The same tree three ways: the winners' trees kept by their
    # tasks (no task builds them again); from entries written before 2026-11-28, one
    # task each, the rival's search again with its total as budget; and part by part,
    # as the versions before built them.
    trees, tasks = {}, {}
    for mode in ("kept", "task", "parts"):
        folder, _, sol = mastermind_runs(mode)
        assert sol.value == 5625
        trees[mode] = sol.strategy.root.to_dict()
        tasks[mode] = (len(_tasks(folder, "_exp_trees_task")),
                       len(_tasks(folder, "_exp_part_task")))
    assert trees["kept"] == trees["task"] == trees["parts"]
    winners = tasks["task"][0]
    assert winners >= 2 and tasks["kept"][0] == tasks["parts"][0] == 0
    # The part tasks are the same, but for the winners' parts built one by one
    assert tasks["kept"][1] == tasks["task"][1] < tasks["parts"][1]
