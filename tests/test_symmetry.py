"""The symmetry of a search state (optimal_mm.symmetry): its orbits against the orbits
of the whole group fixing the history, listed element by element, and the compiled
union-find that labels the orbits against its NumPy twin."""

import itertools

import numpy as np
import pytest

from optimal_mm import Game, _kernels, kernels, search_context, symmetry


def _brute_orbits(game, history):
    """Least code of each code's orbit under every renaming ``(pi, sigma)`` of
    positions and colours that maps each guess of ``history`` to itself."""
    codes = game.codes.astype(np.int64)
    lookup = symmetry._code_lookup(game)
    weights = game.colours ** np.arange(game.pegs - 1, -1, -1)
    parent = list(range(game.n_codes))

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for pi in itertools.permutations(range(game.pegs)):
        for sigma in itertools.permutations(range(game.colours)):
            image = np.empty_like(codes)
            image[:, list(pi)] = np.asarray(sigma)[codes]  # c'[pi(i)] = sigma(c[i])
            images = lookup[image @ weights]
            if any(images[h] != h for h in history):
                continue
            for i, j in enumerate(images):
                a, b = root(i), root(int(j))
                parent[max(a, b)] = min(a, b)
    return np.array([root(i) for i in range(game.n_codes)])


@pytest.mark.parametrize("spec", ["p3c4", "p4c3", "p3c5n", "p3c4b", "p2c5"])
def test_state_orbits_are_the_orbits_of_the_whole_stabilizer(spec):
    game = Game.from_spec(spec)
    rng = np.random.default_rng(3)
    histories = [(), (0,), (game.n_codes - 1,)]
    histories += [tuple(int(h) for h in rng.choice(game.n_codes, k, replace=False))
                  for k in (1, 2, 2, 3)]
    for history in histories:
        generators = symmetry._fixing_generators(game, history)
        labels = symmetry.orbit_labels(game.n_codes, generators)
        assert np.array_equal(labels, _brute_orbits(game, history)), history


@pytest.mark.parametrize("spec", ["p3c4", "p4c3", "p3c5n", "p3c4b"])
def test_a_parts_orbits_leave_its_dead_colours_out(spec):
    # A part's secrets hold no dead colour, and the part is invariant under the
    # renamings that fix the history: its orbits under them (the representatives
    # search_context gives consistent guesses, no secrets passed) are its orbits
    # under the whole stabilizer, brute force, and under the group with the swaps
    # of its dead colours (as orbit_representatives found them with the secrets).
    # Histories of up to five guesses, each a secret of the part before: the later
    # ones are tried among the position permutations of the history before them.
    game = Game.from_spec(spec)
    ctx = search_context._context(game, True, 1 << 12, True)
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(12):
        part, history = np.arange(game.n_codes, dtype=np.int64), []
        for _ in range(rng.integers(1, 6)):
            g = int(rng.choice(part))
            parts = [p for _, p in ctx.split(g, part)]
            if not parts:
                break
            history.append(g)
            part = parts[rng.integers(len(parts))]
            reps = symmetry.orbit_representatives(game, history, candidates=part)
            h = tuple(history)
            dead = symmetry._dead_colours(game, h, part)
            with_dead = np.unique(symmetry._state_labels(game, h, dead)[part])
            brute = np.unique(_brute_orbits(game, history)[part])
            assert np.array_equal(reps, brute) and np.array_equal(reps, with_dead), h
            assert np.isin(reps, part).all()
            seen.add((len(history), len(reps) < len(part), bool(dead)))
    # deep histories met, parts that symmetry shrinks, and parts with dead colours
    assert max(k for k, _, _ in seen) >= 3
    assert any(shrunk for _, shrunk, _ in seen) and any(d for _, _, d in seen)


def test_representatives_take_candidates_in_any_order_or_repeated():
    # A part comes sorted (and is then used as it is); any other list of candidates
    # is sorted and deduplicated first: the answer is the same either way.
    game = Game.from_spec("p3c4")
    history = [game.code_index("112")]
    rng = np.random.default_rng(5)
    part = np.flatnonzero(game.answers(history[0]) == game.parse_answer("1B1W"))
    reps = symmetry.orbit_representatives(game, history, candidates=part)
    assert np.array_equal(reps, np.unique(symmetry._state_labels(game, (history[0],), ())[part]))
    shuffled = rng.permutation(np.concatenate([part, part[:3]]))
    assert np.array_equal(symmetry.orbit_representatives(game, history, candidates=shuffled),
                          reps)


def test_renamings_are_kept_read_only_and_within_their_bytes(monkeypatch):
    game = Game.from_spec("p3c4")
    pi, sigma = (2, 0, 1), (1, 0, 3, 2)
    perm = symmetry.renaming(game, pi, sigma)
    assert np.array_equal(perm, symmetry.apply(game, pi, sigma))
    assert symmetry.renaming(game, pi, sigma) is perm and not perm.flags.writeable
    monkeypatch.setattr(symmetry, "_RENAMINGS_BYTES", 3 * game.n_codes * 8)
    for a, b in itertools.combinations(range(4), 2):
        assert np.array_equal(symmetry._colour_swap(game, a, b), symmetry.apply(
            game, (0, 1, 2), symmetry._swap(range(4), a, b)))
        assert len(game.__dict__["_renamings"]) <= 3


def test_a_few_position_permutations_generate_the_group():
    # After 1234 in p6c6 every position permutation fixes the guess (renaming the
    # colours to match): 720 of them, generated by two; the orbits stay those of
    # the whole group (every code with the same colour pattern up to renaming).
    game = Game.from_spec("p6c6")
    history = (int(game.code_index("123456")),)
    generators = symmetry._fixing_generators(game, history)
    assert len(generators) < 10
    pis = set(itertools.permutations(range(6)))
    assert symmetry._generated([(1, 0, 2, 3, 4, 5), (1, 2, 3, 4, 5, 0)],
                               tuple(range(6))) == pis
    labels = symmetry.orbit_labels(game.n_codes, generators)
    assert len(np.unique(labels)) == len(symmetry.orbit_representatives(game, history))
    assert np.array_equal(labels, _kernels.orbit_labels_reference(np.stack(generators)))


def _random_permutations(rng, count, n):
    return np.stack([rng.permutation(n) for _ in range(count)]).astype(np.int64)


@pytest.mark.parametrize("count,n", [(1, 1), (1, 7), (3, 50), (2, 400), (6, 30)])
def test_orbit_kernel_agrees_with_its_twin(count, n):
    rng = np.random.default_rng(count * 1000 + n)
    for _ in range(5):
        perms = _random_permutations(rng, count, n)
        # Products of small cycles too: many orbits, not one.
        swaps = np.tile(np.arange(n), (count, 1))
        for row in swaps:
            i, j = rng.integers(n, size=2)
            row[[i, j]] = row[[j, i]]
        for case in (perms, swaps):
            labels = kernels.orbit_labels(case)
            assert np.array_equal(labels, _kernels.orbit_labels_reference(case))
            assert (labels <= np.arange(n)).all()
            assert np.array_equal(labels[labels], labels)  # each label is its orbit's


def test_orbit_labels_of_no_generators_are_the_identity():
    assert np.array_equal(symmetry.orbit_labels(4, []), np.arange(4))


@pytest.mark.parametrize("spec", ["p3c4", "p3c4n", "p4c3", "p3c5b"])
def test_fixing_against_every_colour_renaming(spec):
    """A position permutation is kept exactly when some colour renaming paired with it
    maps every guess of the history to itself, and the images given are that
    renaming's on the played colours (every renaming of the colours tried)."""
    game = Game.from_spec(spec)
    rng = np.random.default_rng(7)
    perms = symmetry._position_perms(game.pegs)
    assert sorted(map(tuple, perms.tolist())) == list(itertools.permutations(range(game.pegs)))
    kept_some = dropped_some = False
    for _ in range(12):
        history = rng.integers(game.n_codes, size=rng.integers(1, 4))
        guesses = np.array([game.code_colours(h) for h in history], dtype=np.int64)
        played = sorted(set(guesses.ravel().tolist()))
        fixing, images = symmetry._fixing(guesses, perms)
        for k, pi in enumerate(perms.tolist()):
            renamings = set()
            for sigma in itertools.permutations(range(game.colours)):
                image = np.empty_like(guesses)
                image[:, pi] = np.asarray(sigma)[guesses]  # c'[pi(i)] = sigma(c[i])
                if (image == guesses).all():
                    renamings.add(tuple(sigma[c] for c in played))
            assert bool(fixing[k]) == bool(renamings), (spec, history, pi)
            if fixing[k]:
                assert renamings == {tuple(images[k].tolist())}
            kept_some |= bool(fixing[k])
            dropped_some |= not fixing[k]
    assert kept_some and dropped_some


def test_symmetry_doctests():
    import doctest

    result = doctest.testmod(symmetry)
    assert result.attempted and not result.failed


def _brute_image(game, source, target) -> bool:
    """Whether some renaming ``(pi, sigma)`` takes the codes ``source`` onto ``target``,
    every renaming of the group tried."""
    want = sorted(int(t) for t in target)
    return any(sorted(symmetry.apply(game, pi, sigma)[source].tolist()) == want
               for pi in itertools.permutations(range(game.pegs))
               for sigma in itertools.permutations(range(game.colours)))


@pytest.mark.parametrize("spec", ["p3c4", "p3c4nb", "p4c3", "p3c5n", "p2c5b"])
def test_image_map_finds_a_renaming_exactly_when_one_exists(spec):
    """``image_map`` against every renaming of the group: on random sets of codes and
    their images under a random renaming it finds one, which does take the one onto
    the other; on random pairs of sets of a size it finds one exactly when the group
    has one (these groups are small enough for it to try every colour order)."""
    game = Game.from_spec(spec)
    rng = np.random.default_rng(11)
    found = missed = 0
    for _ in range(25):
        source = rng.choice(game.n_codes, size=int(rng.integers(1, 12)), replace=False)
        pi, sigma = rng.permutation(game.pegs), rng.permutation(game.colours)
        target = symmetry.apply(game, pi, sigma)[source]
        mapped = symmetry.image_map(game, source, rng.permutation(target))
        assert mapped is not None
        assert sorted(symmetry.apply(game, *mapped)[source].tolist()) == sorted(target.tolist())
    for _ in range(60):
        size = int(rng.integers(1, 4))
        source, target = (rng.choice(game.n_codes, size=size, replace=False) for _ in "st")
        mapped = symmetry.image_map(game, source, target)
        assert (mapped is not None) == _brute_image(game, source, target), (source, target)
        if mapped is not None:
            assert sorted(symmetry.apply(game, *mapped)[source].tolist()) == sorted(
                target.tolist())
        found += mapped is not None
        missed += mapped is None
    assert found and missed
    assert symmetry.image_map(game, np.arange(2), np.arange(3)) is None  # sizes differ


def test_a_claim_given_up_leaves_the_renaming_to_the_one_that_waited():
    # Two chains side by side meet renamings of one small part: the first claims it,
    # the second waits. Stopped before it solves it (Ctrl-C), the first gives the
    # claim up: the second is woken, finds no value, and claims the part itself.
    from optimal_mm.symmetry import SolvedUpToRenaming, apply

    g = Game.from_spec("p4c6n")
    a = np.array([g.code_index(c) for c in ("1234", "1243", "2134", "3412", "1256")])
    b = np.sort(apply(g, [1, 0, 3, 2], [5, 4, 3, 2, 1, 0])[a])
    assert not np.array_equal(np.sort(a), b)
    solved = SolvedUpToRenaming(g)
    assert solved.claim(a, (9, 0)) is None
    waiting = solved.claim(b, (9, 0))
    assert not waiting.is_set() and solved.claim(b, (8, 0)) is None  # another cap: free
    solved.release(a, (9, 0))
    assert waiting.is_set() and solved.get(b, (9, 0)) is None
    assert solved.claim(b, (9, 0)) is None  # now its own
    solved.add(b, (9, 0), 30)
    assert solved.get(a, (9, 0)) == 30


def test_a_permutation_games_inverse_sets_share_their_value_and_are_found():
    # In p5c5n (a permutation game) inverting every code keeps every answer, so the
    # inverse of a set, renamed, costs what the set does, though it is not always a
    # renaming of it: the store of solved sets finds it all the same, by value and by
    # claim. p7c7n's rivals 775 and 727 each solved such a part of 248 secrets.
    from optimal_mm._search_arrays import INF, NO_CAP
    from optimal_mm.search_context import _context
    from optimal_mm.symmetry import SolvedUpToRenaming, apply, inverse_codes

    g = Game.from_spec("p5c5n")
    inverse = inverse_codes(g)
    assert np.array_equal(inverse[inverse], np.arange(g.n_codes))  # an involution
    table = g.answer_table()
    assert np.array_equal(table[np.ix_(inverse, inverse)], table)  # keeps every answer
    ctx = _context(g, False, 100_000, True)
    rng = np.random.default_rng(7)
    tried = 0
    for _ in range(200):
        a = np.sort(rng.choice(g.n_codes, size=9, replace=False))
        b = np.sort(apply(g, [4, 0, 3, 1, 2], [2, 4, 1, 0, 3])[inverse[a]])
        if symmetry.image_map(g, a, b) is not None:
            continue  # a renaming of itself: not the case at hand
        tried += 1
        value = int(ctx.exp(a, INF, NO_CAP, None)[0])
        assert int(ctx.exp(b, INF, NO_CAP, None)[0]) == value
        solved = SolvedUpToRenaming(g)
        assert solved.claim(a, (NO_CAP, 0)) is None
        waiting = solved.claim(b, (NO_CAP, 0))
        assert waiting is not None and not waiting.is_set()
        solved.add(a, (NO_CAP, 0), value)
        assert waiting.is_set() and solved.get(b, (NO_CAP, 0)) == value
        if tried == 5:
            break
    assert tried == 5
    plain = SolvedUpToRenaming(Game.from_spec("p5c6n"))  # no inverse: not a permutation
    assert plain._inverse is None
