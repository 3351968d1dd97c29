"""Small states worked out, not searched: the least total of three to six secrets
when every guess is one of the secrets left (numba).

A state of ``n`` secrets whose guesses are its own secrets has a value that a few
table look-ups give: guess a secret ``x`` (cost 1), and each part of the others,
split by their answers to ``x``, costs its size (one more guess each) plus its own
value, worked out the same way. One secret costs 1 and two cost 3 (guess one of
them), so:

* three secrets cost 5 if one of them tells the other two apart, else 6
  (:func:`_three`), also where any code may be guessed: after a code that is not a
  secret, each secret needs two guesses at least, 6 in all;
* four, five and six are the least over the secret guessed first
  (:func:`_four`, :func:`_five`, :func:`_six`), each part by the function of its
  size.

The search (:func:`optimal_mm._search._settled`) asks these instead of keying the
state and reading the transposition table, where no secret can reach the last guess
allowed (``n`` guesses at most, so the cap's weight never applies): the key, a
canonical form of the state under the game's symmetries, costs more than the answer.
Where any code may be guessed, a total is taken only where no other guess can do
better (``2n - 1`` or ``2n``: a code that is not a secret costs at least ``2n``, a
secret that leaves a part of three or more at least ``2n + 1``).

Each function returns the value and the first secret (in the order given) that
achieves it. The secrets come as an array or a tuple; a part's secrets are passed
on as a tuple, which costs no allocation.

>>> import numpy as np
>>> table = np.array([[9, 0, 0, 1], [0, 9, 1, 0], [0, 1, 9, 0], [1, 0, 0, 9]])
>>> _three(table, 0, 1, 2)  # 0 answers 1 and 2 alike; 1 tells 0 and 2 apart
(5, 1)
>>> _four(table, np.array([0, 1, 2, 3]))  # 0 leaves {1, 2} and {3}: 1 + (2 + 3) + 2
(8, 0)
"""

from __future__ import annotations

from ._numba import njit

#: The most secrets :func:`_worked_out` takes. Five and six took 15 % off ``solve
#: p4c8nb --objective expected --guesses consistent --jobs 1``, the table met 20.8
#: million times -> 11.6 million; five alone, less (docs/SEARCH.md, "Transposition
#: table"). Seven, tried the same way, gained nothing: that search met the table
#: 9.7 million times, in 27.44 and 26.51 s against 27.52 and 27.12 s with six;
#: ``time_chain_rivals.py p5c8nb --guesses consistent --rivals 15000``, 21.5 and
#: 20.4 s against 20.7 and 20.5 s.
_WORKED_OUT = 6


@njit(cache=True, inline="always")
def _three(table, x, y, z):
    """The least total of three secrets and a secret that achieves it: 5 if one of
    them, guessed, tells the other two apart, else 6."""
    if table[x, y] != table[x, z]:
        return 5, x
    if table[y, x] != table[y, z]:
        return 5, y
    if table[z, x] != table[z, y]:
        return 5, z
    return 6, x


@njit(cache=True, inline="always")
def _four(table, S):
    """The least total of four secrets when every guess is one of the secrets left,
    and the first secret that achieves it: the secret guessed costs 1, a part of one
    secret 2, of two 5, of three 3 plus the three's own (:func:`_three`)."""
    best, best_g = 1 << 30, -1
    for i in range(4):
        x = S[i]
        o0, o1, o2 = S[(i + 1) % 4], S[(i + 2) % 4], S[(i + 3) % 4]
        a0, a1, a2 = table[x, o0], table[x, o1], table[x, o2]
        if a0 == a1 and a1 == a2:
            v = 1 + 3 + _three(table, o0, o1, o2)[0]
        elif a0 != a1 and a1 != a2 and a0 != a2:
            v = 1 + 2 + 2 + 2
        else:
            v = 1 + 2 + 5
        if v < best:
            best, best_g = v, x
    return best, best_g


@njit(cache=True, inline="always")
def _part_at(a, o, j):
    """The part of the secrets ``o`` whose answer ``a`` is ``a[j]``, where ``j`` is its
    first member: its size (0 when an earlier secret has that answer, so the part
    was met before) and its first four members, ``o[j]`` first (those it lacks
    repeat ``o[j]``)."""
    for k in range(j):
        if a[k] == a[j]:
            return 0, o[j], o[j], o[j]
    c = 1
    m1 = m2 = m3 = o[j]
    for k in range(j + 1, len(a)):
        if a[k] == a[j]:
            if c == 1:
                m1 = o[k]
            elif c == 2:
                m2 = o[k]
            elif c == 3:
                m3 = o[k]
            c += 1
    return c, m1, m2, m3


@njit(cache=True, inline="always")
def _first_total(table, o, a, best):
    """The total of a state whose first guess is one of its secrets, the others
    ``o`` answering it ``a``, in parts of four or fewer: 1 for the secret guessed,
    and each part its size plus its own total (one secret 1, two 3, three
    :func:`_three`, four :func:`_four`). Summed until it reaches ``best``."""
    v = 1
    for j in range(len(a)):
        c, m1, m2, m3 = _part_at(a, o, j)
        if c == 1:
            v += 2
        elif c == 2:
            v += 5
        elif c == 3:
            v += 3 + _three(table, o[j], m1, m2)[0]
        elif c == 4:
            v += 4 + _four(table, (o[j], m1, m2, m3))[0]
        if v >= best:
            break
    return v


@njit(cache=True)
def _five(table, S):
    """The least total of five secrets when every guess is one of the secrets left,
    and the first secret that achieves it; at least 9 (the other four told apart).
    A secret is dropped as soon as its parts so far reach the best total."""
    best, best_g = 1 << 30, -1
    for i in range(5):
        x = S[i]
        o = (S[(i + 1) % 5], S[(i + 2) % 5], S[(i + 3) % 5], S[(i + 4) % 5])
        v = _first_total(table, o, (table[x, o[0]], table[x, o[1]], table[x, o[2]],
                                    table[x, o[3]]), best)
        if v < best:
            best, best_g = v, x
            if best == 9:
                break
    return best, best_g


@njit(cache=True)
def _six(table, S):
    """:func:`_five` of six secrets: at least 11; a secret that the other five answer
    alike leaves one part of five (:func:`_five`)."""
    best, best_g = 1 << 30, -1
    for i in range(6):
        x = S[i]
        o = (S[(i + 1) % 6], S[(i + 2) % 6], S[(i + 3) % 6], S[(i + 4) % 6],
             S[(i + 5) % 6])
        a = (table[x, o[0]], table[x, o[1]], table[x, o[2]], table[x, o[3]],
             table[x, o[4]])
        if a[0] == a[1] and a[0] == a[2] and a[0] == a[3] and a[0] == a[4]:
            v = 1 + 5 + _five(table, o)[0]
        else:
            v = _first_total(table, o, a, best)
        if v < best:
            best, best_g = v, x
            if best == 11:
                break
    return best, best_g


@njit(cache=True, inline="always")
def _worked_out(table, S):
    """The least total of the three to six secrets of ``S`` (at most
    :data:`_WORKED_OUT`) when every guess is one of them, and the first secret that
    achieves it."""
    if len(S) == 3:
        return _three(table, S[0], S[1], S[2])
    if len(S) == 4:
        return _four(table, S)
    if len(S) == 5:
        return _five(table, S)
    return _six(table, S)
