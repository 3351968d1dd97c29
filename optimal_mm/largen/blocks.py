"""``n`` pegs, ``n`` colours, black pegs only (``pNcNb``): splitting into blocks.

The strategy of the seed text (Pawlik and Zablocki, "Rozwazmy Masterminda",
after B. Doerr, C. Doerr, R. Spohel and H. Thomas, "Playing Mastermind with
many colors", J. ACM 63(5) 42, 2016; SODA 2013), which needs
``O(n log log n)`` questions:

1. **A missing colour per position.** Ask all colour 1, then walk colour 2
   along the positions (``n + 1`` questions): the answer rises where the secret
   has a 2, falls where it has a 1, and stays where it has neither. Every
   position thus gets a *zero colour* that the secret surely lacks there
   (and the positions holding 1 or 2 are already known). A question that puts
   the zero colour on a position gets no black peg from it, so it counts only
   the pegs placed on purpose.
2. **Coins.** For a block ``B`` of positions and a colour ``c``, the *coin*
   ``(c, B)`` weighs the number of pegs of colour ``c`` in ``B``: colour ``c``
   on ``B`` and zero colours elsewhere weighs it; coins of *disjoint* blocks go
   on the scale together (each on its own positions).
3. **Halving.** First the coins of the whole block (one question per colour;
   the last colour is the remainder). Then every block is halved and the coins
   of its left half are weighed (the right half is the parent minus the left;
   coins of weight 0 have no children, which is what makes many colours cheap):
   a coin of parent weight 1 weighs 0 or 1, so the ``j``-th such coin of every
   block together make one two-colour coin-weighing game, solved with the
   detecting matrices of :mod:`optimal_mm.largen.weighing`; a heavier coin is
   weighed alone; one coin per block is left off (the half's size gives it).
   When all blocks are single positions, each holds the one colour of weight 1.

Level ``i`` costs about ``2n / (i - 1)`` questions when the colours differ
(blocks of ``n / 2^(i-1)`` positions, ``2^(i-1)`` coins per game), in all about
``2 n ln log2 n``; repeated colours add at most ``O(n)`` (heavy coins).

>>> from optimal_mm.largen.oracle import BlackPegOracle
>>> from optimal_mm.largen.strategy import play
>>> oracle = BlackPegOracle([3, 0, 7, 7, 2, 5, 1, 6])
>>> record = play(Blocks(8, 8), oracle.ask)
>>> record.secret.tolist(), record.guesses <= guess_bound(8, 8)
([3, 0, 7, 7, 2, 5, 1, 6], True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import InconsistentAnswersError
from .strategy import LargeStrategy, Questions, contradiction, describe_guesses
from .weighing import cover


@lru_cache(maxsize=None)
def _halving_cost(size: int) -> int:
    """Most weighings the halving of a block of ``size`` positions can take."""
    if size <= 1:
        return 0
    left = (size + 1) // 2
    return size - 1 + _halving_cost(left) + _halving_cost(size - left)


def guess_bound(pegs: int, colours: int) -> int:
    """A bound on the guesses of :class:`Blocks` that holds for every secret:
    ``n + 1`` for the zero colours, ``C - 3`` for the colours of the whole block,
    at most ``L - 1`` weighings per halved block of ``L`` positions, the secret.
    (A proof-friendly ``O(n log n)``; the counts actually played are far lower,
    see ``results/largen.md``.)"""
    halving = max(_halving_cost(u) for u in range(pegs + 1))
    return pegs + 1 + max(0, colours - 3) + halving + 1


class Blocks(LargeStrategy):
    """The block-splitting strategy for black-peg games with many colours."""

    name = "blocks"
    summary = ("n pegs, n colours, black pegs: zero colours, then halving blocks, "
               "O(n log log n) questions")

    @classmethod
    def refusal(cls, pegs, colours, repeats, black_only):
        if not black_only or not repeats:
            return "plays only black-peg games with repeats (pNcCb, made for C = N)"
        return None

    def questions(self) -> Questions:
        n, colours = self.pegs, self.colours
        secret = np.full(n, -1, dtype=np.int32)
        zero = np.zeros(n, dtype=np.int32)
        # 1. a colour missing at each position
        base0 = yield np.zeros(n, dtype=np.int32)
        ones: list[int] = []            # the questions that found a peg of colour 1
        for i in range(n):
            question = np.zeros(n, dtype=np.int32)
            question[i] = 1
            answer = yield question
            change = answer - base0
            allowed = [a for a, possible in ((base0 - 1, base0 > 0), (base0, colours > 2),
                                             (base0 + 1, base0 < n)) if possible]
            if answer not in allowed:
                words = [str(a) for a in allowed]
                either = words[0] if len(words) == 1 else \
                    f"{', '.join(words[:-1])} or {words[-1]}"
                raise contradiction(
                    (0, i + 1), f"guess {i + 2} changes 1 peg of guess 1, so its answer must "
                                f"be {either}, not {answer}")
            if change == 1:
                secret[i] = 1
            elif change == -1:
                secret[i], zero[i] = 0, 1
                ones.append(i + 1)
            # guess 1 counted the pegs of its colour; the walk finds each of them
            counted = (f"guess 1 scored {base0}, so {base0} peg{'s' * (base0 != 1)} of the "
                       f"secret {'has' if base0 == 1 else 'have'} the colour of guess 1")
            if len(ones) > base0:
                raise contradiction(
                    [0] + ones, f"{counted}, but {describe_guesses(ones)} find one each")
            if len(ones) + n - 1 - i < base0:
                raise contradiction(
                    range(i + 2), f"{counted}, but {describe_guesses(range(1, i + 2))} "
                                  f"leave room for only {len(ones) + n - 1 - i}")
        unknown = np.flatnonzero(secret < 0)
        if not len(unknown):
            return secret

        def ask(placements):
            """Weigh coins: ``placements`` is a list of (colour, positions)."""
            question = zero.copy()
            for colour, where in placements:
                question[where] = colour
            return (yield question)

        # 2. the coins of the whole block: one question per colour 3..C-1
        weights: dict[int, int] = {}
        placed = 0
        for colour in range(2, colours - 1):
            if placed == len(unknown):
                break
            weight = yield from ask([(colour, unknown)])
            if placed + weight > len(unknown):
                raise InconsistentAnswersError(
                    f"the answers put more than {len(unknown)} pegs on the unknown positions")
            if weight:
                weights[colour] = weight
                placed += weight
        if placed < len(unknown):
            weights[colours - 1] = len(unknown) - placed
        blocks = [(unknown, weights)]
        # 3. halving
        while any(len(where) > 1 for where, _ in blocks):
            blocks = yield from self._halve(blocks, ask)
        for where, weights in blocks:
            if list(weights.values()) != [1]:
                raise InconsistentAnswersError("the answers give a position no colour or two")
            secret[where[0]] = next(iter(weights))
        return secret

    @staticmethod
    def _halve(blocks, ask):
        """Weigh the left halves' coins of every block; return the halved blocks."""
        lefts, bounds, left_weight, light = [], [], [], []
        for b, (where, weights) in enumerate(blocks):
            half = (len(where) + 1) // 2
            lefts.append(where[:half])
            room_left, room_right = half, len(where) - half
            ranges = {c: (max(0, w - room_right), min(w, room_left)) for c, w in weights.items()}
            known = {c: lo for c, (lo, hi) in ranges.items() if lo == hi}
            open_coins = sorted((c for c in ranges if c not in known),
                                key=lambda c: ranges[c][1] - ranges[c][0])
            implied = open_coins.pop() if open_coins else None   # the widest: by subtraction
            left_weight.append(known)
            bounds.append((ranges, implied, half))
            light.append([c for c in open_coins if ranges[c][1] - ranges[c][0] == 1])
            for c in open_coins:
                if ranges[c][1] - ranges[c][0] > 1:      # a heavy coin: weighed alone
                    known[c] = yield from ask([(c, lefts[b])])
        # the j-th light coin of every block: one coin-weighing game per j
        for j in range(max((len(x) for x in light), default=0)):
            game = [(b, light[b][j]) for b in range(len(blocks)) if len(light[b]) > j]
            for block in cover(len(game)):
                sums = []
                for coins in block.weighings():
                    members = [game[k] for k in coins]
                    answer = yield from ask([(c, lefts[b]) for b, c in members])
                    sums.append(answer - sum(bounds[b][0][c][0] for b, c in members))
                bits = block.decode(sums)
                for k, bit in enumerate(bits):
                    b, c = game[block.start + k]
                    left_weight[b][c] = bounds[b][0][c][0] + int(bit)
        halved = []
        for b, (where, weights) in enumerate(blocks):
            ranges, implied, half = bounds[b]
            known = left_weight[b]
            if implied is not None:
                known[implied] = half - sum(known.values())
            if sum(known.values()) != half or any(
                    not ranges[c][0] <= w <= ranges[c][1] for c, w in known.items()):
                raise InconsistentAnswersError("the answers give a block more pegs than it has")
            left = {c: w for c, w in known.items() if w}
            right = {c: weights[c] - known[c] for c in weights if weights[c] - known[c]}
            halved.append((where[:half], left))
            if len(where) > half:
                halved.append((where[half:], right))
        return halved
