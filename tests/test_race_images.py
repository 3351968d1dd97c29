"""A big part's race answered by its image under the game's symmetry
(``RivalRaces._raced_as``, ``RivalRaces._image_values``): a rival's part whose image,
a part of the same guesses elsewhere, the checkpoint holds raced or solved exactly,
takes that race or that value. A part and its image cost the same, so the search
finds the same tree, with fewer tasks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from optimal_mm import Game, search_parts, search_races, symmetry
from optimal_mm.search import Solver


def _run(folder, monkeypatch, spec, objective, images=True):
    """``spec`` with parts split from 30 secrets and chains from 4, checkpointed in
    ``folder``: the solution, the number of tasks computed and the parts raced or
    valued as an image, as ``(history, part, image)``."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    used = []
    real_images = search_races.RivalRaces._images

    def images_of(self, history, part, parts):
        if not images:
            return []
        found = real_images(self, history, part, parts)
        used.extend((tuple(history), part, p) for p in found)
        return found

    monkeypatch.setattr(search_races.RivalRaces, "_images", images_of)
    raced = []
    real_raced_as = search_races.RivalRaces._raced_as

    def raced_as(self, history, part, *args):
        chosen, text = real_raced_as(self, history, part, *args)
        if chosen is not part:
            raced.append((tuple(history), part, chosen, text))
        return chosen, text

    monkeypatch.setattr(search_races.RivalRaces, "_raced_as", raced_as)
    valued = []
    real_values = search_races.RivalRaces._image_values

    def image_values(self, history, parts, which, lbs, d, weight, images):
        exact = real_values(self, history, parts, which, lbs, d, weight, images)
        valued.extend((tuple(history), parts[i]) for i in exact)
        return exact

    monkeypatch.setattr(search_races.RivalRaces, "_image_values", image_values)
    game = Game.from_spec(spec)
    sol = Solver(game, jobs=1, checkpoint=folder, chain_secrets=4).solve(objective)
    return game, sol, len(list(folder.glob("task-*.json"))), used, raced, valued


@pytest.mark.parametrize("spec, objective", [("p4c4", "fewest-at-worst"),
                                             ("p4c5nb", "expected")])
def test_images_give_the_same_tree_with_fewer_tasks(tmp_path, monkeypatch, spec, objective):
    """With images and without them, the same value and tree; with them, fewer tasks
    computed, each image found a true image (the group takes one onto the other),
    and some part raced or valued as one."""
    game, sol, tasks, used, raced, valued = _run(tmp_path / "on", monkeypatch, spec,
                                                 objective)
    _, ref, ref_tasks, _, _, _ = _run(tmp_path / "off", monkeypatch, spec, objective,
                                      images=False)
    assert sol.value == ref.value
    assert json.dumps(sol.strategy.root.to_dict()) == json.dumps(ref.strategy.root.to_dict())
    assert raced or valued
    assert tasks < ref_tasks
    for _, part, image in used:
        assert not np.array_equal(np.sort(part), np.sort(image))
        pi, sigma = symmetry.image_map(game, image, part)
        assert sorted(symmetry.apply(game, pi, sigma)[image].tolist()) == sorted(part.tolist())
    for _, part, image, text in raced:
        assert len(image) == len(part)
        assert text.startswith(f", its part of {len(part):,} secrets raced as an image of it")


def test_without_a_checkpoint_no_image_is_looked_for(tmp_path, monkeypatch):
    """Without a checkpoint there is no race held to read: each part races itself."""
    monkeypatch.setattr(search_parts, "SPLIT_SECRETS", 30)
    looked = []
    monkeypatch.setattr(search_races.RivalRaces, "_images",
                        lambda self, *args: looked.append(args) or [])
    Solver(Game.from_spec("p4c4"), jobs=1, chain_secrets=4).solve("fewest-at-worst")
    assert not looked
