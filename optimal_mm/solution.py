"""What an exact search proved: its value, its tree and its counters."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from .game import Game
from .tree import Strategy

_ADDING = threading.Lock()  # SearchStats.add, called from the search's threads


@dataclass
class SearchStats:
    """Counters of the search, summed over all processes
    (:data:`~optimal_mm._search_arrays.STATS`)."""

    states: int = 0
    table_hits: int = 0
    guesses: int = 0
    stored: int = 0
    #: Guesses the worst case dropped by its remembered refuting parts, with no
    #: partition and no table read (0 from counters saved before they were kept).
    refuter_cuts: int = 0

    def add(self, counters) -> None:
        """Add a task's counters (from any thread of the search: one lock for all)."""
        with _ADDING:
            self.states += int(counters[0])
            self.table_hits += int(counters[1])
            self.guesses += int(counters[2])
            self.stored += int(counters[3])
            if len(counters) > 4:
                self.refuter_cuts += int(counters[4])

    def __str__(self) -> str:
        text = (f"states {self.states:,}, table hits {self.table_hits:,}, "
                f"guesses evaluated {self.guesses:,}")
        if self.refuter_cuts:
            text += f", guesses cut by refuting parts {self.refuter_cuts:,}"
        return text


@dataclass
class Solution:
    """What a search proved, and the tree that attains it."""

    game: Game
    objective: str
    guesses: str
    max_guesses: int | None
    value: int | None
    strategy: Strategy | None
    stats: SearchStats
    seconds: float
    proof: list[str] = field(default_factory=list)
    #: Tasks read back from the checkpoint rather than computed in this run.
    resumed: int = 0

    @property
    def feasible(self) -> bool:
        return self.strategy is not None
