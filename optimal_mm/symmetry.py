"""Symmetry: colour and position renamings that leave a search state unchanged.

The group acting on a game is ``S_C x S_P``: rename the colours by a permutation
``sigma`` and move the pegs by a permutation ``pi``; a code ``c`` maps to ``c'``
with ``c'[pi(i)] = sigma(c[i])``. Scoring is invariant under the group,
``score(phi(g), phi(s)) == score(g, s)``, so:

* if ``phi`` fixes every earlier guess of a path, it maps the secrets consistent
  with the path onto themselves, and two guesses in the same orbit of that
  *history stabilizer* split the remaining secrets into parts that are images of
  each other: they have the same value, and only one per orbit needs searching;
* colours never played yet are interchangeable (any permutation of them fixes the
  history);
* colours that no remaining secret contains are interchangeable too: swapping two
  of them fixes the set of remaining secrets, which is all the value depends on.

The history stabilizer is found without listing the group: for each position
permutation ``pi`` (``P!`` of them), fixing a guess ``h`` forces
``sigma(h[i]) = h[pi(i)]``, which determines ``sigma`` on every played colour or
shows that no ``sigma`` exists. A few of those elements, enough to generate them
all, plus the transpositions of adjacent free colours and of adjacent dead colours,
*generate* a subgroup of the stabilizer of the state; orbits are the connected
components of the graph whose edges join each code to its images under the
generators (a compiled union-find, :func:`optimal_mm.kernels.orbit_labels`).

At the root (no history) this gives the orbits of the full group, e.g. the five
classes ``1111, 1112, 1122, 1123, 1234`` of Mastermind.

>>> from optimal_mm import Game
>>> g = Game.from_spec("mastermind")
>>> [g.code_str(i) for i in orbit_representatives(g, [])]
['1111', '1112', '1122', '1123', '1234']
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from . import kernels
from .game import Game

#: Position permutations beyond this many (P = 8 has 40320) are not enumerated;
#: only adjacent transpositions that fix the history are used then.
MAX_POSITION_PERMS = 5040


def _kept(game: Game, name: str, key, limit: int, make):
    """The value of ``key`` in the game's cache ``name`` (a dict on the game), made
    by ``make()`` on a miss and kept; the cache is emptied first when it holds
    ``limit`` values. The groups of a search's states are asked for again and again
    (the parts below one guess share one), and each cache here bounds its memory so.

    >>> g = Game.from_spec("p2c3")
    >>> [_kept(g, "_example", k, 2, lambda: k * k) for k in (1, 2, 1, 3)]
    [1, 4, 1, 9]
    >>> sorted(g.__dict__["_example"])
    [3]
    """
    cache = game.__dict__.setdefault(name, {})
    value = cache.get(key)
    if value is None:
        if len(cache) >= limit:
            cache.clear()
        value = cache[key] = make()
    return value


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _code_lookup(game: Game) -> np.ndarray:
    """Dense map from ``sum c[i] * C**(P-1-i)`` to code index (-1 for illegal codes)."""
    cached = game.__dict__.get("_code_lookup")
    if cached is not None:
        return cached
    codes = game.codes.astype(np.int64)
    keys = _keys(codes, game.colours)
    if game.repeats:
        lookup = np.arange(game.n_codes, dtype=np.int64)
    else:
        lookup = np.full(game.colours**game.pegs, -1, dtype=np.int64)
        lookup[keys] = np.arange(game.n_codes)
    game.__dict__["_code_lookup"] = lookup
    return lookup


def _keys(codes: np.ndarray, colours: int) -> np.ndarray:
    keys = np.zeros(len(codes), dtype=np.int64)
    for i in range(codes.shape[1]):
        keys = keys * colours + codes[:, i]
    return keys


def apply(game: Game, pi, sigma) -> np.ndarray:
    """The permutation of code indices induced by positions ``pi`` and colours ``sigma``.

    ``out[i]`` is the index of the image of code ``i``.
    """
    codes = game.__dict__.get("_codes_int64")
    if codes is None:
        codes = game.__dict__["_codes_int64"] = game.codes.astype(np.int64)
    # The image's peg i sits at position pi[i]: its key weight is C**(P-1-pi[i]).
    weights = game.colours ** (game.pegs - 1 - np.asarray(pi, dtype=np.int64))
    return _code_lookup(game)[np.asarray(sigma, dtype=np.int64)[codes] @ weights]


def stabilizer_generators(game: Game, history, secrets=None) -> list[np.ndarray]:
    """Generators (as code-index permutations) of a group fixing the state.

    Parameters
    ----------
    history : sequence of int
        Indices of the guesses played so far (their answers do not matter: a
        renaming that fixes each guess preserves every answer).
    secrets : array of int, optional
        The remaining secrets; colours none of them contains are then treated as
        interchangeable (dead colours).
    """
    history = tuple(int(h) for h in history)
    return _state_generators(game, history, _dead_colours(game, history, secrets))


def _dead_colours(game: Game, history: tuple, secrets) -> tuple:
    """The played colours that no secret of ``secrets`` contains (none without secrets)."""
    if secrets is None or not history:
        return ()
    played = _played(game, history)
    present = np.zeros(game.colours, dtype=bool)
    present[game.codes[np.asarray(secrets, dtype=np.int64)].ravel()] = True
    return tuple(c for c in played if not present[c])


def _state_generators(game: Game, history: tuple, dead: tuple) -> list[np.ndarray]:
    """The generators fixing ``history``, plus the swaps of adjacent ``dead`` colours."""
    gens = list(_history_generators(game, history))
    gens.extend(_colour_swap(game, a, b) for a, b in zip(dead, dead[1:]))
    return gens


def _history_generators(game: Game, history: tuple) -> tuple:
    """The generators of :func:`stabilizer_generators` that depend on the history
    alone: renamings of positions and colours fixing every guess played, and swaps
    of the colours never played. Cached on the game (a few histories per search)."""
    return _kept(game, "_history_generators", history, 64,
                 lambda: tuple(_fixing_generators(game, history)))


def _played(game: Game, history) -> list[int]:
    """The colours of the guesses in ``history``, in increasing order (read from the
    game's code array at once: colour by colour in Python, this took a tenth of
    p4c10nb's consistent chains' time, ``cProfile``).

    >>> _played(Game.from_spec("mastermind"), [Game.from_spec("mastermind").code_index("1135")])
    [0, 2, 4]
    """
    if not len(history):
        return []
    return np.unique(game.codes[np.asarray(history, dtype=np.int64)]).tolist()


def _fixing_generators(game: Game, history) -> list[np.ndarray]:
    """A few renamings that generate the group fixing every guess of ``history``,
    and the swaps of adjacent colours never played.

    The renamings fixing the history form a group, and each has its own position
    permutation ``pi`` (``sigma`` is forced on the played colours and left alone on
    the others), so a permutation that the ones kept already generate
    (:func:`_generated`) adds nothing to the orbits: of Mastermind's 24 or p7's
    5,040 position permutations only a handful are turned into code permutations.
    Beyond :data:`MAX_POSITION_PERMS`, and before the first guess, only the adjacent
    transpositions are tried (the identity, which fixes everything, never is).
    """
    pegs, colours = game.pegs, game.colours
    perms, images, played = _fixing_perms(game, tuple(int(h) for h in history))
    free = [c for c in range(colours) if c not in played]
    gens: list[np.ndarray] = []
    identity = tuple(range(colours))
    pos_identity = tuple(range(pegs))
    every = len(played) > 0 and _factorial(pegs) <= MAX_POSITION_PERMS
    kept: list[tuple] = []
    generated = {pos_identity}
    for k in range(len(perms)):
        pi = tuple(int(x) for x in perms[k])
        if pi in generated:
            continue
        sigma = list(identity)
        for src, dst in zip(played, images[k]):
            sigma[src] = int(dst)
        gens.append(renaming(game, pi, tuple(sigma)))
        if every:
            kept.append(pi)
            generated = _generated(kept, pos_identity)
    gens.extend(_colour_swap(game, a, b) for a, b in zip(free, free[1:]))
    return gens


def _colour_swap(game: Game, a: int, b: int) -> np.ndarray:
    """:func:`renaming` of the swap of colours ``a`` and ``b`` (positions left alone).

    >>> g = Game.from_spec("p2c3")
    >>> [g.code_str(int(i)) for i in _colour_swap(g, 0, 2)[:3]]
    ['33', '32', '31']
    """
    return renaming(game, tuple(range(game.pegs)), tuple(_swap(range(game.colours), a, b)))


#: The most bytes of code permutations :func:`renaming` keeps for one game.
_RENAMINGS_BYTES = 32 << 20


def renaming(game: Game, pi: tuple, sigma: tuple) -> np.ndarray:
    """:func:`apply` of positions ``pi`` and colours ``sigma`` (tuples of ints),
    read-only and cached on the game (up to :data:`_RENAMINGS_BYTES`).

    The groups of a chain's histories are made of the same few renamings: the
    swaps of the colours never played (or dead), the same for every history that
    plays the same colours, and those of the renamings fixing the chain's common
    history that also fix its last guess. Each took 100 microseconds to make anew,
    about three a history: half the time of finding a new history's orbits
    (p4c10nb's consistent chains, ``cProfile``).
    """
    return _kept(game, "_renamings", (pi, sigma), -(-_RENAMINGS_BYTES // (8 * game.n_codes)),
                 lambda: _read_only(apply(game, pi, sigma)))


#: Histories whose fixing permutations :func:`_fixing_perms` keeps, at most.
_FIXING_PERMS_KEPT = 4096


def _fixing_perms(game: Game, history: tuple) -> tuple:
    """``(perms, images, played)``: the position permutations (rows, in
    lexicographic order) that some colour renaming pairs with to fix every guess of
    ``history``, that renaming on the played colours (``images[k, j]``: the image
    of the ``j``-th, :func:`_fixing`), and the played colours, in increasing order.

    They are sought among every permutation of the pegs (up to
    :data:`MAX_POSITION_PERMS`; else, and before the first guess, among the adjacent
    transpositions), or, for a history of two guesses or more, among those that fix
    the history less its last guess: a renaming that fixes every guess fixes those
    before the last. Most histories of a deep chain are fixed by the identity alone,
    and so are their extensions, then without a test. Cached on the game: a chain
    tries its rivals one after the other, each a new history extending the same one
    (p4c10nb's consistent chains met 770 new histories a second, each found whole
    from all 24 permutations in 140 microseconds, a tenth of their processor time).

    >>> game = Game.from_spec("p3c3")
    >>> perms, images, played = _fixing_perms(game, (game.code_index("112"),))
    >>> perms.tolist(), images.tolist(), played
    ([[0, 1, 2], [1, 0, 2]], [[0, 1], [0, 1]], [0, 1])
    >>> perms, _, _ = _fixing_perms(game, (game.code_index("112"), game.code_index("123")))
    >>> perms.tolist()
    [[0, 1, 2]]
    """
    return _kept(game, "_fixing_perms", history, _FIXING_PERMS_KEPT,
                 lambda: _find_fixing_perms(game, history))


def _find_fixing_perms(game: Game, history: tuple) -> tuple:
    """:func:`_fixing_perms`, found (from its parent's, cached)."""
    pegs = game.pegs
    if len(history) <= 1:
        played = _played(game, history)
        if history and _factorial(pegs) <= MAX_POSITION_PERMS:
            tried = _position_perms(pegs)
        else:  # position moves come from the adjacent transpositions, already few
            tried = np.array([_swap(range(pegs), i, i + 1) for i in range(pegs - 1)],
                             dtype=np.int64).reshape(-1, pegs)
    else:
        tried, _, before = _fixing_perms(game, history[:-1])
        played = sorted(set(before).union(game.codes[history[-1]].tolist()))
    if len(tried) == 1 and len(history) > 1 and (tried[0] == np.arange(pegs)).all():
        return tried, np.array([played], dtype=np.int64), played  # the identity alone
    guesses = game.codes[np.asarray(history, dtype=np.int64)].astype(np.int64)
    fixing, images = _fixing(guesses.reshape(len(history), pegs), tried)
    return tried[fixing], images[fixing], played


#: The permutations of each number of pegs asked for (:func:`_position_perms`).
_POSITION_PERMS: dict = {}


def _position_perms(pegs: int) -> np.ndarray:
    """Every permutation of ``range(pegs)``, one per row, in lexicographic order
    (cached: a search asks for the same few)."""
    perms = _POSITION_PERMS.get(pegs)
    if perms is None:
        perms = np.array(list(itertools.permutations(range(pegs))), dtype=np.int64)
        perms = _POSITION_PERMS[pegs] = perms.reshape(-1, pegs)
        perms.setflags(write=False)
    return perms


def _fixing(guesses: np.ndarray, perms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which position permutations (rows of ``perms``) some colour renaming pairs with
    to fix every guess (rows of ``guesses``, colour numbers), and that renaming on the
    played colours, in increasing order (``images[k, j]``: the image of the ``j``-th).

    Fixing guess ``h`` under ``pi`` forces ``sigma(h[i]) = h[pi(i)]`` for every
    position ``i``: the permutation is kept when these demands agree for each
    colour and send distinct colours to distinct colours. All permutations at once
    (7 pegs: 5,040 of them), as array operations: a history of four guesses took
    1.7 -> 0.43 ms (p6c7nb) and 12.6 -> 2.4 ms (p7c7n) against a Python loop over the
    permutations, which a race of many short tasks met at each new history (about
    5 % of a worker of p6c7nb's, ``py-spy``).

    >>> fix, img = _fixing(np.array([[0, 0, 1]]), np.array([[0, 1, 2], [1, 0, 2], [2, 1, 0]]))
    >>> fix.tolist(), img[:2].tolist()
    ([True, True, False], [[0, 1], [0, 1]])
    """
    src = guesses.ravel()  # the demands' colours, guess after guess
    dst = guesses[:, perms].transpose(1, 0, 2).reshape(len(perms), src.size)  # their images
    colours, first = np.unique(src, return_index=True)
    images = dst[:, first]  # each played colour's image, from its first demand
    agree = (dst == images[:, np.searchsorted(colours, src)]).all(axis=1)
    ordered = np.sort(images, axis=1)
    distinct = (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
    return agree & distinct, images


def _generated(perms: list[tuple], identity: tuple) -> set[tuple]:
    """The group of position permutations that ``perms`` generate (a finite group:
    the products of generators, from the identity on, reach it all).

    >>> sorted(_generated([(1, 0, 2)], (0, 1, 2)))
    [(0, 1, 2), (1, 0, 2)]
    >>> len(_generated([(1, 0, 2), (0, 2, 1)], (0, 1, 2)))
    6
    """
    group = {identity}
    frontier = [identity]
    while frontier:
        reached = []
        for p in frontier:
            for g in perms:
                q = tuple(p[i] for i in g)
                if q not in group:
                    group.add(q)
                    reached.append(q)
        frontier = reached
    return group


def _swap(seq, i, j):
    out = list(seq)
    out[i], out[j] = out[j], out[i]
    return out


def _factorial(n: int) -> int:
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out


def orbit_labels(n: int, generators) -> np.ndarray:
    """Smallest index of each element's orbit under the group the generators make
    (:func:`optimal_mm.kernels.orbit_labels`, a compiled union-find)."""
    if not len(generators):
        return np.arange(n, dtype=np.int64)
    perms = np.asarray(generators, dtype=np.int64).reshape(len(generators), n)
    return kernels.orbit_labels(np.ascontiguousarray(perms))


def orbit_representatives(game: Game, history, secrets=None, candidates=None) -> np.ndarray:
    """One guess per orbit of the state's symmetry group (the smallest index of each).

    ``candidates`` restricts the guesses considered (e.g. the remaining secrets in
    consistent-only play; the set must be invariant under the group, which the
    remaining secrets are).
    """
    history = tuple(int(h) for h in history)
    labels = _state_labels(game, history, _dead_colours(game, history, secrets))
    if candidates is None:
        return np.flatnonzero(labels == np.arange(game.n_codes))
    # The candidates hold each orbit they meet whole, its smallest code included:
    # the representatives are the candidates that are their orbit's label.
    cand = np.asarray(candidates, dtype=np.int64)
    if len(cand) > 1 and not (cand[1:] > cand[:-1]).all():  # (a part is sorted already)
        cand = np.unique(cand)
    return cand[labels[cand] == cand]


def orbit_sizes(game: Game, history, secrets=None, candidates=None) -> tuple:
    """``(representatives, sizes)``: :func:`orbit_representatives`, and how many codes
    (of ``candidates``, where given) each one's orbit holds. Every code of an orbit
    splits the state's secrets into parts of the same sizes and shapes, so it is worth
    as much as its representative.

    >>> from optimal_mm import Game
    >>> game = Game.from_spec("mastermind")
    >>> reps, sizes = orbit_sizes(game, ())
    >>> [(game.code_str(int(r)), int(n)) for r, n in zip(reps, sizes)]
    [('1111', 6), ('1112', 120), ('1122', 90), ('1123', 720), ('1234', 360)]
    """
    history = tuple(int(h) for h in history)
    labels = _state_labels(game, history, _dead_colours(game, history, secrets))
    if candidates is not None:
        labels = labels[np.asarray(candidates, dtype=np.int64)]
    reps, sizes = np.unique(labels, return_counts=True)
    return reps.astype(np.int64), sizes.astype(np.int64)


def position_colour_sizes(game: Game, history, secrets, candidates=None) -> tuple:
    """``(representatives, sizes)`` as :func:`orbit_sizes` gives them, under the
    renamings of each position's colours on its own that map the secrets onto
    themselves: symmetries of a game with black-only scoring and repeats only.

    A black is an agreement at one position, so renaming the colours of position
    ``p`` alone, in guesses and secrets alike, keeps every answer. At ``p`` two
    colours are interchangeable when no secret has either there ("dead"), or when
    no guess of ``history`` has either there (the secrets are those that give the
    history's answers, which such a swap keeps). A code's class is therefore its
    colour at each position, with the dead colours and the colours free of the
    history each read as one. Every code of a class splits the secrets as its
    representative (the least code) does.

    >>> game = Game.from_spec("p3c4b")
    >>> reps, sizes = position_colour_sizes(game, (), np.arange(64))
    >>> [(game.code_str(int(r)), int(n)) for r, n in zip(reps, sizes)]
    [('111', 64)]
    >>> reps, sizes = position_colour_sizes(game, (game.code_index("112"),),
    ...                                     np.arange(64))  # no answer yet: all secrets
    >>> [(game.code_str(int(r)), int(n)) for r, n in zip(reps, sizes)]
    [('111', 3), ('112', 1), ('121', 9), ('122', 3), ('211', 9), ('212', 3), ('221', 27), ('222', 9)]
    """  # noqa: E501 (a doctest's output line)
    if not (game.black_only and game.repeats):
        raise ValueError("per-position renamings keep answers with black-only scoring "
                         "and repeats only")
    codes = game.codes
    secrets = np.asarray(secrets, dtype=np.int64)
    played = np.zeros((game.pegs, game.colours), dtype=bool)
    seen = np.zeros((game.pegs, game.colours), dtype=bool)
    for h in history:
        played[np.arange(game.pegs), codes[int(h)]] = True
    for p in range(game.pegs):
        seen[p, np.unique(codes[secrets, p])] = True
    base = game.colours + 2
    labels = np.zeros(game.n_codes, dtype=np.int64)
    for p in range(game.pegs):
        column = codes[:, p].astype(np.int64)
        key = np.where(~seen[p, column], game.colours + 1,          # dead at p
                       np.where(played[p, column], column, game.colours))  # else free
        labels = labels * base + key
    if candidates is not None:
        candidates = np.asarray(candidates, dtype=np.int64)
        _, first, sizes = np.unique(labels[candidates], return_index=True,
                                    return_counts=True)
        return candidates[first].astype(np.int64), sizes.astype(np.int64)
    _, first, sizes = np.unique(labels, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    return first[order].astype(np.int64), sizes[order].astype(np.int64)


def _state_labels(game: Game, history: tuple, dead: tuple) -> np.ndarray:
    """:func:`orbit_labels` of the state's group, cached on the game: the group
    depends only on the history and the dead colours, which the many parts below
    one first guess share (Mastermind's expected case: 101 states, 11 groups)."""
    return _kept(game, "_state_labels", (history, dead), 64, lambda: _read_only(
        orbit_labels(game.n_codes, _state_generators(game, history, dead))))


#: The most colour renamings :func:`image_map` tries for one position permutation
#: (colours tied by their counts at every position are tried in each order).
MAX_COLOUR_TRIES = 720


def image_map(game: Game, source, target):
    """A renaming ``(pi, sigma)`` of the group that takes the set of codes ``source``
    onto ``target`` (code indices; :func:`apply` maps them), or None where none is
    found: the two states are then searched apart.

    Each position permutation ``pi`` is tried in turn. A renaming takes the count of
    colour ``c`` at position ``p`` in ``source`` to that of ``sigma[c]`` at ``pi[p]``
    in ``target``, so ``sigma`` pairs colours of equal counts at every position;
    colours tied so are tried in each order (up to :data:`MAX_COLOUR_TRIES`), and
    every renaming found is checked on the whole set. A None may miss a renaming
    past that limit, never give a wrong one.

    >>> from optimal_mm import Game
    >>> g = Game.from_spec("p3c4nb")
    >>> a = np.array([g.code_index(c) for c in ("123", "124", "134")])
    >>> b = np.sort(apply(g, [2, 0, 1], [3, 1, 0, 2])[a])
    >>> pi, sigma = image_map(g, a, b)
    >>> bool(np.array_equal(np.sort(apply(g, pi, sigma)[a]), b))
    True
    >>> image_map(g, a, np.array([g.code_index(c) for c in ("123", "124", "132")])) is None
    True
    """
    source = np.asarray(source, dtype=np.int64)
    target = np.sort(np.asarray(target, dtype=np.int64))
    if len(source) != len(target):
        return None
    codes = game.codes.astype(np.int64)
    pegs, colours = game.pegs, game.colours

    def counts(part):  # counts[p, c]: the codes of ``part`` with colour c at p
        out = np.zeros((pegs, colours), dtype=np.int64)
        for p in range(pegs):
            out[p] = np.bincount(codes[part, p], minlength=colours)
        return out

    have, want = counts(source), counts(target)
    if not np.array_equal(np.sort(have, axis=None), np.sort(want, axis=None)):
        return None
    for pi in _position_perms(pegs):
        moved = np.empty_like(have)
        moved[pi] = have  # colour c's count at position pi[p]: have[p, c]
        groups = {}  # each column of counts: the colours of target that have it
        for c in range(colours):
            groups.setdefault(want[:, c].tobytes(), []).append(c)
        mine = {}
        for c in range(colours):
            mine.setdefault(moved[:, c].tobytes(), []).append(c)
        if sorted((k, len(v)) for k, v in mine.items()) != sorted(
                (k, len(v)) for k, v in groups.items()):
            continue
        keys = list(mine)
        tries = 0
        # Each tied group's colours paired in each order; a group with no secret's
        # colour (all counts 0) in one order only: those colours appear in no code.
        orders = [[mine[k]] if not moved[:, mine[k][0]].any()
                  else list(itertools.permutations(mine[k])) for k in keys]
        for choice in itertools.product(*orders):
            tries += 1
            if tries > MAX_COLOUR_TRIES:
                break
            sigma = np.empty(colours, dtype=np.int64)
            for k, ours in zip(keys, choice):
                sigma[list(ours)] = groups[k]
            if np.array_equal(np.sort(apply(game, pi, sigma)[source]), target):
                return tuple(int(p) for p in pi), tuple(int(s) for s in sigma)
    return None


def inverse_codes(game: Game) -> np.ndarray | None:
    """For a permutation game (as many colours as pegs, no repeats), the index of
    each code's inverse (colour ``x`` at position ``p`` becomes colour ``p`` at
    position ``x``), else None. Inverting every code keeps every answer: the blacks
    of two codes are the positions where they agree, which are the colours where
    their inverses agree, and the whites are all the rest. The search's keys use it
    too (:mod:`optimal_mm._search_keys`).

    >>> g = Game.from_spec("p3c3n")
    >>> g.code_str(inverse_codes(g)[g.code_index("231")])  # 2 at 1, 3 at 2, 1 at 3
    '312'
    >>> inverse_codes(Game.from_spec("p3c4n")) is None
    True
    """
    if game.repeats or game.pegs != game.colours:
        return None
    cached = game.__dict__.get("_inverse_codes")
    if cached is None:
        codes = game.codes.astype(np.int64)
        inverse = np.empty_like(codes)
        inverse[np.arange(len(codes))[:, None], codes] = np.arange(game.pegs)
        cached = _code_lookup(game)[_keys(inverse, game.colours)]
        game.__dict__["_inverse_codes"] = cached
    return cached


def renaming_invariant(game: Game, part) -> tuple:
    """What every renaming of the set of codes ``part`` shares (so two sets that
    differ in it are no images of each other, :func:`image_map`): its size, the
    sorted rows and the sorted columns of its colour-by-position counts, each list
    sorted. A position permutation moves the rows and a colour renaming the columns,
    and each permutes the entries within the others.

    >>> g = Game.from_spec("p3c4nb")
    >>> a = np.array([g.code_index(c) for c in ("123", "124", "134")])
    >>> b = apply(g, [2, 0, 1], [3, 1, 0, 2])[a]
    >>> renaming_invariant(g, a) == renaming_invariant(g, b)
    True
    >>> c = np.array([g.code_index(c) for c in ("123", "124", "132")])
    >>> renaming_invariant(g, a) == renaming_invariant(g, c)
    False
    """
    codes = game.codes[np.asarray(part, dtype=np.int64)]
    counts = np.zeros((game.pegs, game.colours), dtype=np.int64)
    for p in range(game.pegs):
        counts[p] = np.bincount(codes[:, p], minlength=game.colours)
    rows = sorted(tuple(sorted(r)) for r in counts.tolist())
    columns = sorted(tuple(sorted(c)) for c in counts.T.tolist())
    return len(codes), tuple(rows), tuple(columns)


class SolvedUpToRenaming:
    """Values of sets of codes, answered again for any renaming of a set solved.

    A part's exact value depends on its set of secrets alone (with the guess rule,
    the cap and the cost's weight, which ``key`` holds), and every renaming of the
    game keeps every answer, so a renamed set has the same value. Sets are kept by
    their :func:`renaming_invariant` and ``key``; one asked for is matched against
    those alike by :func:`image_map`.

    In a permutation game a set may also be a renaming of the inverse of one solved
    (:func:`inverse_codes`): p7c7n's rivals 775 and 727 each solved such a small part
    of 248 secrets, side by side, 36 minutes each, on 2026-12-06.

    Thread-safe: the chains of a race run in threads beside each other, and two
    rivals whose parts are renamings of each other have the same bounds, so they
    come one after the other and run side by side. A thread that is about to solve a
    set *claims* it (:meth:`claim`); a thread that then asks to claim a renaming of
    it gets an event instead, set once the first has :meth:`add`-ed its value (or
    given it up, :meth:`release`), and reads the value then (:meth:`get`).

    In p7c7n's expected run of 2026-12-06, the small parts of 248 secrets of the
    rivals 895 and 899 (of the same race) were renamings of each other, each solved
    exactly in 11 minutes, as were two other pairs of 246.

    >>> g = Game.from_spec("p3c4nb")
    >>> a = np.array([g.code_index(c) for c in ("123", "124", "134")])
    >>> b = np.sort(apply(g, [2, 0, 1], [3, 1, 0, 2])[a])
    >>> solved = SolvedUpToRenaming(g)
    >>> solved.claim(a, ("d", 9)) is None  # this caller solves a
    True
    >>> waiting = solved.claim(b, ("d", 9))  # b's value will be a's
    >>> waiting.is_set()
    False
    >>> solved.add(a, ("d", 9), 7)
    >>> waiting.is_set(), solved.get(b, ("d", 9)), solved.found
    (True, 7, 1)
    >>> solved.get(a, ("d", 8)) is None  # another cap
    True
    """

    def __init__(self, game: Game):
        self.game = game
        self.found = 0  # the sets answered by a renaming of one solved
        self._sets = {}  # (key, invariant) -> [(sorted codes, value)]
        self._claims = {}  # (key, invariant) -> [(sorted codes, threading.Event)]
        self._lock = threading.Lock()
        self._inverse = inverse_codes(game)

    def _slot(self, part, key) -> tuple:
        part = np.sort(np.asarray(part, dtype=np.int64))
        return part, (key, renaming_invariant(self.game, part))

    def _forms(self, part, key) -> list:
        """:meth:`_slot` of ``part``, and in a permutation game of its inverse
        (:func:`inverse_codes`), which a renaming of a set solved may be too."""
        forms = [self._slot(part, key)]
        if self._inverse is not None:
            forms.append(self._slot(self._inverse[np.asarray(part, dtype=np.int64)], key))
        return forms

    def add(self, part, key, value) -> None:
        """``part`` (code indices) has ``value`` under ``key``; a claim on it ends."""
        part, slot = self._slot(part, key)
        with self._lock:
            alike = self._sets.setdefault(slot, [])
            if not any(np.array_equal(part, p) for p, _ in alike):
                alike.append((part, value))
        self.release(part, key)

    def get(self, part, key):
        """The value under ``key`` of a set solved that is a renaming of ``part``
        (itself included), or None."""
        for part, slot in self._forms(part, key):
            with self._lock:
                alike = list(self._sets.get(slot, ()))
            for solved, value in alike:
                if image_map(self.game, solved, part) is not None:
                    with self._lock:
                        self.found += 1
                    return value
        return None

    def claim(self, part, key):
        """None, the caller now to solve ``part`` under ``key`` (it then
        :meth:`add`-s its value, or :meth:`release`-s the claim); or, where another
        caller has claimed a renaming of it, an event set once that one ends."""
        forms = self._forms(part, key)
        with self._lock:  # (matched under the lock: two claims never both win)
            for form, slot in forms:
                for claimed, event in self._claims.get(slot, ()):
                    if image_map(self.game, claimed, form) is not None:
                        return event
            part, slot = forms[0]
            self._claims.setdefault(slot, []).append((part, threading.Event()))
        return None

    def release(self, part, key) -> None:
        """The claim on ``part`` under ``key`` ends (solved, or given up: a caller
        waiting on it then solves it itself)."""
        part, slot = self._slot(part, key)
        with self._lock:
            claims = self._claims.get(slot, [])
            for k, (claimed, event) in enumerate(claims):
                if np.array_equal(claimed, part):
                    del claims[k]
                    event.set()
                    return
