"""The search's transposition table, and how a stop reaches the compiled kernels.

The table remembers what the search learnt of a state, keyed by two independent
hashes of it (:mod:`optimal_mm._search_keys`): a 64-bit key, and a 32-bit check
stored beside the payload, together with the guesses left. It is a chained hash
over entries stored in order (:func:`~optimal_mm._search_arrays.new_table` makes its
arrays: slots of ``(key, check << 31 | payload)``, chain links, bucket heads and
``meta = (entries used, buckets)``). Its capacity is fixed in advance, so memory
stays bounded; the buckets grow fourfold while it fills (:func:`_tt_rehash`), so
chains stay short. A full table is emptied by the next state stored
(:func:`_tt_flush`), and fills again with what the search meets from then on: every
entry is only a cache of what a search found, so the search stays exact, only
slower. A worker keeps its table from task to task (the rivals of one part meet the
same states), so in a run of hours each table is full within minutes; a table that
stored nothing more once full (as before) then served every later task with the
states of the first ones. Measured on the 2-core Intel Xeon VM, ``solve p4c7
--objective fewest-at-worst --jobs 1 --table-entries 250000 --stats``, a table of
an eighth of the states it meets, the two codes interleaved three times: 2,065,600
states searched, 42.1 s (median), kept full; 1,223,153 and 34.2 s emptied when full
(839,413 and 24.2 s with the default 8 million entries, which it never fills).
The payload is what the objective stores: the expected case a value and an exact bit
(:func:`optimal_mm._search._store`), the worst case the fewest guesses left known
to suffice and the most known not to (:func:`optimal_mm._search_wc._wc_store`).

Stopping. A kernel may run for hours; Ctrl-C reaches it through the last slot of
its ``stats`` array, ``STOP`` (:mod:`optimal_mm.stopping` writes each signal's
number into the next byte of it). Once it holds a stop signal (:func:`_stopped`),
every node returns at once, before expanding and before trying its next guess, and
the table stores nothing more (:func:`_tt_put`), so that what it holds stays exact
and the call can be made again; the values returned on the way out mean nothing,
and the caller discards them.
"""

from __future__ import annotations

from ._numba import njit
from ._search_arrays import STOP, STOP_SIGNALS

#: Bits of an entry's payload; the check takes the bits above them.
_PAYLOAD_BITS = 31
_PAYLOAD = (1 << _PAYLOAD_BITS) - 1

#: The greatest value an expected-case entry holds (its payload is the value and the
#: exact bit): greater values are stored as this bound (:func:`~optimal_mm._search._store`).
_VALUE_CAP = (1 << (_PAYLOAD_BITS - 1)) - 1
_CHECK_SHIFT = _PAYLOAD_BITS
_SIGINT, _SIGTERM, _SIGALRM = STOP_SIGNALS


@njit(cache=True, inline="always")
def _stopped(stats):
    """Whether a stop signal has arrived since the kernel was called: each signal that
    arrives writes its number to the next byte of the ``STOP`` slot (zero until
    then), so one of its eight bytes holds the number of SIGINT, SIGTERM or SIGALRM
    (:data:`~optimal_mm._search_arrays.STOP_SIGNALS`)."""
    v = stats[STOP]
    if v == 0:
        return False
    for k in range(8):
        b = (v >> (8 * k)) & 0xFF
        if b == _SIGINT or b == _SIGTERM or b == _SIGALRM:
            return True
    return False


@njit(cache=True, inline="always")
def _tt_find(tt, key, check):
    """The payload stored for the state ``(key, check)``, or -1."""
    slots, links, heads, meta = tt
    i = heads[key & (meta[1] - 1)]
    while i:
        if slots[i - 1, 0] == key and (slots[i - 1, 1] >> _CHECK_SHIFT) == check:
            return slots[i - 1, 1] & _PAYLOAD
        i = links[i - 1]
    return -1


@njit(cache=True, inline="always")
def _tt_put(tt, key, check, payload, stats):
    """Store ``payload`` for the state ``(key, check)``: over its old entry, else in a
    new one, in a table emptied first if it is full (:func:`_tt_flush`; a table of
    no entries stores nothing). Nothing is stored once the search is stopped: the
    values on the way out are not exact."""
    if _stopped(stats):
        return
    slots, links, heads, meta = tt
    word = (check << _CHECK_SHIFT) | payload
    i = heads[key & (meta[1] - 1)]
    while i:
        if slots[i - 1, 0] == key and (slots[i - 1, 1] >> _CHECK_SHIFT) == check:
            slots[i - 1, 1] = word
            return
        i = links[i - 1]
    n = meta[0]
    if n >= len(slots):
        if n == 0:  # a table of no entries stores nothing
            return
        _tt_flush(heads, meta)
        n = 0
    slots[n, 0] = key
    slots[n, 1] = word
    meta[0] = n + 1
    stats[3] += 1
    if n + 1 > 2 * meta[1] and meta[1] < len(heads):
        _tt_rehash(slots, links, heads, meta, min(4 * meta[1], len(heads)))
    else:
        b = key & (meta[1] - 1)
        links[n] = heads[b]
        heads[b] = n + 1


@njit(cache=True)
def _tt_flush(heads, meta):
    """Empty the table (its buckets stay as many as they had grown to)."""
    heads[:meta[1]] = 0
    meta[0] = 0


@njit(cache=True)
def _tt_rehash(slots, links, heads, meta, buckets):
    """Spread the entries over ``buckets`` buckets (chains stay short as it fills)."""
    meta[1] = buckets
    heads[:buckets] = 0
    for i in range(meta[0]):
        b = slots[i, 0] & (buckets - 1)
        links[i] = heads[b]
        heads[b] = i + 1
