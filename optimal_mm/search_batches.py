"""A part's value in batches of its first guesses: what a stopped run keeps of it.

A chain's small parts (:meth:`~optimal_mm.search_races.RivalRaces._small_parts`) are
solved exactly, each its value alone, one task a part
(:func:`~optimal_mm.search_tasks.value_task`). The biggest take an hour or more
(p7c7n's parts of 240 to 250 secrets after three guesses: 27 s to 40 minutes), and a
run stopped at its time limit keeps nothing of a task in flight: p7c7n's expected run
of 2026-12-07 lost two, begun 34 and 19 minutes before its limit.

A part of :data:`BATCH_SECRETS` secrets or more is therefore solved in batches of
the guesses its task would try at its root (one per class of the renamings that fix
the guesses before and the part: :func:`~optimal_mm.search_context._part_guesses`),
each batch a task of its own (:func:`~optimal_mm.search_tasks._exp_batch_task`)
whose budget is the least value the batches finished before it found:

* a batch's answer is exact below its budget, else a bound at least its budget
  (the compiled search fails soft), and never below the least cost over its guesses;
* the budget is always the exact cost of some guess of the part (or none: ``INF``);

so the least answer over all the batches is the part's value, whatever order they
finish in (:class:`PartBatches`), and a checkpoint keeps each batch as it ends: a
stopped run loses at most one batch a worker. The guesses are ranked as the
compiled search would try them before they are cut
(:meth:`~optimal_mm.search_races.RivalRaces.exp_second_guesses`: wasted guesses and
those beyond the cap left out), so the first batches hold the likeliest best guesses
and the later ones mostly end at their budget at once.

Measured on one part of p7c7n (121 secrets after 1234567 1342675 and a third guess,
``task-c5668774`` of its checkpoint; 2-core AMD EPYC VM, one process, beside a table
run): one task 3.34 s; 51 batches of 100 guesses on one transposition table 3.34 s;
11 batches of 500, each on a fresh table (as batches that land on other workers
would be), 3.54 s. In 21 batches of 250, the first took a fifth of the time, and the
last five nothing measurable. A heavier part of 246 secrets (``task-85a583b3``): one
task 237.9 s, its 16 batches on one table 256.6 s (8 % more).
"""

from __future__ import annotations

import numpy as np

from ._search_arrays import INF, new_stats
from .search_tasks import batch_task

#: Parts of this many secrets or more are solved in batches of their first guesses;
#: smaller ones, one task each (p7c7n's parts under 200 secrets took under a minute).
BATCH_SECRETS = 200

#: How many batches a part's first guesses are cut into (fewer if it has fewer
#: guesses): a stopped run loses at most about this share of a part, a batch.
BATCHES = 16


def cut(ranked, batches: int = BATCHES) -> list[np.ndarray]:
    """``ranked`` cut into ``batches`` runs of nearly equal length (fewer, one guess
    each, if there are fewer guesses), in order; never an empty one.

    >>> [b.tolist() for b in cut(np.arange(7), 3)]
    [[0, 1, 2], [3, 4], [5, 6]]
    >>> len(cut(np.arange(2), 16))
    2
    """
    ranked = np.asarray(ranked, dtype=np.int64)
    return [b for b in np.array_split(ranked, min(batches, len(ranked))) if len(b)]


class PartBatches:
    """One part's batches of first guesses and what those finished have found.

    ``task`` is the part's value task (:func:`~optimal_mm.search_tasks.value_task`:
    history, part, no budget, guesses left, no tree, cap weight) and ``batches`` its
    first guesses cut into runs (:func:`cut`). :meth:`next_task` gives the next
    batch's task under the best value found so far, :meth:`found` takes a batch's
    answer in whatever order they come, and once every batch is found,
    :meth:`result` is the value task's own answer.

    >>> parts = PartBatches(((0,), "part", INF, 5, False, 0), [[1, 2], [3]])
    >>> first, second = parts.next_task(), parts.next_task()
    >>> first[2:4], second[2:4] == ([3], INF), parts.next_task()
    (([1, 2], 1099511627776), True, None)
    >>> parts.found((40, None, new_stats())); parts.found((37, None, new_stats()))
    >>> parts.finished, parts.result()[0]
    (True, 37)
    """

    def __init__(self, task: tuple, batches):
        self.task = task
        self.batches = list(batches)
        if not self.batches:
            raise ValueError("a part's batches are never none")
        self.drawn = self.done = 0
        self.best = INF
        self.counters = new_stats()

    def next_task(self):
        """The arguments of the next batch's :func:`_exp_batch_task`, its budget the
        best value found so far; None once every batch is drawn."""
        if self.drawn == len(self.batches):
            return None
        history, part, _, d, _, weight = self.task
        args = batch_task(history, part, self.batches[self.drawn], self.best, d, weight)
        self.drawn += 1
        return args

    def found(self, result) -> None:
        """Take one batch's answer. Below the best so far it is exact (the best is at
        most the budget the batch ran under), so it is the new best; anything else is
        no better than a guess already found."""
        value = int(result[0])
        if value < self.best:
            self.best = value
        self.done += 1
        self.counters = self.counters + np.asarray(result[2], dtype=np.int64)

    @property
    def finished(self) -> bool:
        """Whether every batch has answered."""
        return self.done == len(self.batches)

    def result(self) -> tuple:
        """The value task's answer: ``(value, None, counters)``, the counters of the
        batches searched here and read back alike."""
        if not self.finished:
            raise ValueError(f"{len(self.batches) - self.done} batches have not answered")
        return int(self.best), None, self.counters
