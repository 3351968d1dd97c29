"""What one run's checkpoint settles, as the report says it: its records and their text.

:func:`optimal_mm.checkpoint_report.report` reads a checkpoint directory and fills one
:class:`RunReport` per run with what its entries settle: the parts of a first guess
searched whole or split one second guess per task (:class:`SplitPart`), the big parts
of an expected-case first guess with their rival second guesses (:class:`BigPart`),
the rival first guesses searched as chains of tasks (:class:`ChainPart`,
:class:`ChainRival`), and the entries that carry their task's timing
(:class:`Timed`). This module holds those records and says them: the report's lines
(:meth:`RunReport.lines`), its JSON (:meth:`RunReport.to_dict`) and the work left with
its price (:meth:`RunReport.left`), in the search's own terms.

Time (entries that carry their task's timing: those written since 2026-11-26)
    How many tasks are timed, their processor time in all and the latest end; and what
    is left where the checkpoint can count it, priced at the mean processor time of the
    finished tasks of its kind (their median and longest beside it): the second-guess
    tasks of the split parts still open (worst case; fewer if one is found feasible, and
    first guesses not yet begun are not counted); the tasks of the first guess's batch
    not yet done (those that ``--chain-secrets`` solves as chains of pieces counted
    apart, not priced: a piece is no measure of a part; each under a big part's second
    guess says how far the race of rival third guesses at its head got:
    :attr:`RunReport.batch_chains`); the rival second guesses of the
    big parts still in the race (each at the mean of its own part's rivals settled so
    far, where it has some; where it has none, at the processor time of its part's tree
    under the first second guess, or of the parts it tried where that guess proved
    beyond the cap (a rough guide, as p4c10's fewest-at-worst rivals took 0.9 to 1.1
    times their part's tree in three of its five big parts, under a tenth in the other
    two), else at the mean of all the rivals settled, each timed whole: its own task or,
    a rival searched as a chain, its pieces together; a rival begun as a chain, less the
    share of its big parts' third guesses that the checkpoint holds:
    :attr:`BigPart.raced_share`); the trees of the rivals that beat their big part's
    first second guess and whose entries, written before 2026-11-28, do not keep them
    (the search builds each once the part's rivals are all settled, as one task that
    repeats the rival's search with its total as budget, and reports the better value
    only then), each at the processor time of the rival's own task (a part's tree under
    the first second guess is no guide: p6c7nb's 2,119-secret part took 66 s there, its
    better rival's task 474 s); those rivals, at most, of a part whose first second
    guess is not yet solved (its bound cuts some once it is); the second guesses of the
    rival chains' big parts begun, each at the mean of its own part's tasks so far (a
    chain's parts differ most: p4c10's rival 0012 took 0.1 s a task in its 401-secret
    part, 494 s in its 3,052-secret one, 33 s over all) and, counted at most (a part's
    guesses above its budget are cut, and a chain ends at its first refuted part), those
    of the parts not begun; and the rival first guesses with no task yet (those whose
    probed bound, recomputed as the search ranks them, is below the total of the first
    guess solved exactly; every class with no task, at most, before that total is
    known), each priced at the mean processor time of the rival first guesses settled,
    all their tasks together (expected case).
    An estimate from a sample, not a promise: task times within one part vary by a
    factor of a hundred (the mean, unlike the median, at least counts the long ones).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np


@dataclass
class SplitPart:
    """A part searched one second guess per task (or, split deeper with
    ``--split-depth``, one guess per task after the guesses ``history``)."""

    secrets: int
    refuted: int = 0
    feasible: list = field(default_factory=list)  # second guesses found feasible
    classes: int | None = None  # how many second guesses its run tries (None: unknown)
    history: tuple = ()  # code strings of the guesses before (the first guess alone: ())

    def text(self) -> str:
        from .search_worst import _ordinal

        total = "?" if self.classes is None else f"{self.classes:,}"
        which = "second" if not self.history else _ordinal(len(self.history) + 2)
        line = f"{self.refuted:,} of {total} {which}-guess classes refuted"
        if self.feasible:
            line += f", feasible: {', '.join(self.feasible)}"
        elif self.classes is not None and self.refuted >= self.classes:
            line += ": the part is refuted"
        return line


@dataclass
class BigPart:
    """Expected case: a big part of a first guess, split by its second guesses (the
    first one solved exactly, the others searched as rivals against the best)."""

    secrets: int
    first: str  # its first second guess, in the search's order
    # the part's cost under it (None: not all of its parts yet, or ``beyond``)
    incumbent: int | None
    best: int | None  # the least cost known: the incumbent or a rival that beat it
    below: int  # rival second guesses whose bound is below ``best``: still in the race
    settled: int  # ... of which the checkpoint holds the answer
    # The processor seconds of the tree under ``first``, its parts' tasks together
    # (None: a part not yet solved, or written without its timing)
    tree_cpu: float | None = None
    # The processor seconds of each rival settled that carries its timing: its own
    # task, or the pieces of its chain together (an answer computed in pieces)
    rival_cpus: list[float] = field(default_factory=list)
    # The rival that does better than ``first`` (the earliest in the search's order at
    # ``best``; None: none does) and whether the checkpoint holds its tree: its task
    # keeps it; for an entry written before 2026-11-28, which does not, the search
    # builds it once the part's rivals are settled, as a task of its own
    # (``_exp_trees_task``; earlier versions, part by part: all its parts' tasks)
    winner: str | None = None
    tree_built: bool = False
    winner_cpu: float | None = None  # the processor seconds of its rival task
    # Under a cap on the guesses: the secrets of the least part of ``first`` that no
    # tree solves within the guesses left (None: none, or not all solved yet). Then
    # ``first`` cannot solve the part within the cap, and its rivals race with no
    # budget until one of them does (``Solver._split_part``, a best of ``INF``).
    beyond: int | None = None
    # The rivals begun and not yet settled, searched as chains (``--chain-secrets``):
    # [(rival, [ChainPart] of its big parts raced by third guesses, its big parts
    # after those not begun)]
    racing: list = field(default_factory=list)
    # The rivals still in the race (``below - settled`` of them), each with the mean
    # processor seconds of its answers in its first guess's other big parts (or parts
    # solved whole since their race) within a factor of two in size, of those that
    # carry their timing (None: none). A rival costs there about what it costs here: it
    # splits both parts alike, and its races have the same third guesses (p4c8nb's
    # 1234, 2026-12-05: its parts of 536 and 1,001 secrets, the races of 2356 in
    # both, 1,018 third guesses of 344 secrets each; 11 rivals settled in both
    # took 27,173 s here, 27,305 s at their time there), where the rivals of one
    # part differ more (those 11, 163 s to 9,329 s).
    pending: dict = field(default_factory=dict)
    # Read with a lower bound's tree (checkpoint_report._floor_parts): the part's cost
    # there, the least any tree has, where its best meets it (its race stops, no rival
    # left); else None
    at_floor: int | None = None
    # Of the rivals in ``pending`` with no time there, those that the search without
    # the cap answered, with their processor seconds there: the price of the same
    # rival in a capped race, against a budget as high or one more
    uncapped: dict = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        """Whether the first second guess has its answer: a cost, or beyond the cap."""
        return self.incumbent is not None or self.beyond is not None

    @property
    def timed(self) -> int:
        """Its rivals settled that carry their timing."""
        return len(self.rival_cpus)

    @property
    def cpu(self) -> float:
        """... and their processor seconds together."""
        return sum(self.rival_cpus)

    def rival_share(self, rival: str) -> float:
        """How much of the rival ``rival`` the checkpoint holds, if it is begun (else
        0): the third guesses in the checkpoint over those in the race of each of its
        big parts begun, a big part not yet begun counting as none. A lower figure
        than the share of its processor time: a race tries its most promising guesses
        first, and they are the slowest (p4c8nb's fewest at 9, 2026-12-05: in 37 races
        of its rivals' parts, the first quarter of the third guesses in the checkpoint
        took 0.14 to 1.0 of their processor time, the median 0.39)."""
        return sum(sum(p.searched / p.below for p in parts if p.below) / (len(parts) + waiting)
                   for name, parts, waiting in self.racing if name == rival)

    @property
    def raced_share(self) -> float:
        """How much of the rivals begun the checkpoint holds, in rivals: the sum of
        their :meth:`rival_share`."""
        return sum(self.rival_share(rival) for rival, _, _ in self.racing)

    def text(self, cost_text) -> str:
        if self.beyond is not None:
            line = (f"part of {self.secrets:,} secrets: {self.first} cannot solve it "
                    f"within the cap (its part of {self.beyond:,} secrets needs more "
                    f"guesses)")
            if self.winner is not None:
                line += (f"; the best rival so far: {self.winner}, {cost_text(self.best)} "
                         f"(its tree {'built' if self.tree_built else 'not yet built'})")
            return (line + f"; {self.settled:,} of {self.below:,} rival second guesses "
                    f"settled" + self._racing_text(cost_text))
        if self.incumbent is None:
            return (f"part of {self.secrets:,} secrets: its first second guess {self.first} "
                    f"not yet solved")
        line = f"part of {self.secrets:,} secrets: under {self.first}, {cost_text(self.incumbent)}"
        if self.winner is not None:
            line += (f"; a rival does better: {self.winner}, {cost_text(self.best)} "
                     f"(its tree {'built' if self.tree_built else 'not yet built'})")
        if self.at_floor is not None:
            return line + (f"; at its floor, the lower bound's subtree's "
                           f"{cost_text(self.at_floor)}: no rival left to race")
        return (line + f"; {self.settled:,} of {self.below:,} rival second guesses with a "
                f"bound below the best settled" + self._racing_text(cost_text))

    def _racing_text(self, cost_text) -> str:
        return "".join(f"; rival {rival} begun, its "
                       + "; ".join(p.text(cost_text, "third") for p in parts)
                       + (f"; {waiting:,} big part{'s' if waiting != 1 else ''} not begun"
                          if waiting else "")
                       for rival, parts, waiting in self.racing)

    def to_dict(self) -> dict:
        out = {k: v for k, v in self.__dict__.items()
               if k not in ("rival_cpus", "racing", "pending")}
        return out | {"timed": self.timed, "cpu": round(self.cpu, 3),
                      "pending": {rival: None if cpu is None else round(cpu, 3)
                                  for rival, cpu in self.pending.items()},
                      "racing": [{"rival": rival, "parts": [p.to_dict() for p in parts],
                                  "waiting": waiting}
                                 for rival, parts, waiting in self.racing]}


@dataclass
class ChainPart:
    """A big part of a rival first guess searched as a chain: its second guesses,
    searched against what the rest of the guess leaves it."""

    secrets: int
    below: int  # second guesses whose bound is below its budget (or best): in the race
    searched: int  # ... of which the checkpoint holds the answer
    best: int | None  # the least cost found below the budget (None: none yet)
    timed: int = 0  # of those searched, the tasks that carry their timing
    cpu: float = 0.0  # ... and their processor seconds together

    def refutes(self) -> bool:
        """Whether every guess in the race is searched and none fits the budget: the
        rival whose part this is does no better (its chain ends here)."""
        return self.best is None and self.searched >= self.below

    def text(self, cost_text, which: str = "second") -> str:
        line = (f"part of {self.secrets:,} secrets: {self.searched:,} of {self.below:,} "
                f"{which} guesses with a bound below its budget searched")
        if self.best is not None:
            return line + f", the best {cost_text(self.best)}"
        if self.refutes():
            return line + ": none within it, the rival is refuted"
        return line + ", none within it so far"

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class ChainRival:
    """Expected case: a rival first guess with big parts, searched as a chain of tasks
    (:meth:`~optimal_mm.search.Solver._guess_by_parts`): its small parts in one task
    (the big ones counted at their bounds), then each big part, smallest first, by
    its second guesses."""

    guess: str
    small: str  # "refuted", "within" (its budget) or "none" (no small parts, or not yet)
    parts: list = field(default_factory=list)  # [ChainPart] of the big parts begun
    waiting: int = 0  # big parts not begun yet
    waiting_guesses: int = 0  # their second guesses: at most this many tasks left

    def settled(self) -> bool:
        """Whether the chain has its answer: refuted (by its small parts or by a big
        part none of whose second guesses fits) or every big part searched."""
        refuted = any(p.refutes() for p in self.parts)
        return (self.small == "refuted" or refuted
                or not self.waiting and all(p.searched >= p.below for p in self.parts))

    def text(self, cost_text) -> str:
        head = f"  rival first guess {self.guess}, as a chain"
        if self.small == "refuted":
            return head + ": refuted by its small parts"
        bits = ["small parts within its budget"] if self.small == "within" else []
        bits += [part.text(cost_text) for part in self.parts]
        if self.waiting:
            bits.append(f"{self.waiting:,} big part{'s' if self.waiting != 1 else ''} "
                        f"not begun")
        return head + (": " + "; ".join(bits) if bits else "")

    def to_dict(self) -> dict:
        return {"guess": self.guess, "small": self.small, "waiting": self.waiting,
                "waiting_guesses": self.waiting_guesses, "settled": self.settled(),
                "parts": [p.to_dict() for p in self.parts]}


#: The :class:`Timed` function name of the tasks of chains and split parts below the
#: first guess (``--chain-secrets``): a rival second guess searched as a chain is
#: many such tasks, so their times do not price the rivals still to search.
CHAIN_PIECE = "piece of a chain below the first guess"


#: ... and of the pieces of worst-case guesses searched by their parts
#: (``--split-depth``): a second guess's time is its own task's, when it has one.
DEEP_WORST = "piece of a worst-case guess searched by its parts"


class Timed(NamedTuple):
    """One timed entry: its task function, the guesses ``t`` of a worst-case task
    (None for the others), its wall and processor seconds, its UTC end and, for an
    expected-case task, the first guess it is played under (a code string)."""

    function: str
    t: int | None
    seconds: float
    cpu: float
    finished: str
    first: str | None = None


#: Said of a first guess whose class this version's search no longer tries on its own
#: (a black-only game with repeats has one class: search.first_guess_classes).
_EARLIER_CLASS = "a class of an earlier search only"


@dataclass
class RunReport:
    """What the entries of one run settle."""

    run: dict
    entries: int = 0
    stale: bool = False  # written by another task format: the search would not use them
    states: int = 0
    guesses: int = 0
    # Worst case: guesses T -> first guess -> {"whole": [(secrets, ok)], "split":
    # {part hash: SplitPart}}
    worst: dict = field(default_factory=lambda: defaultdict(dict))
    first_classes: int | None = None  # first-guess classes of the game (None: unknown)
    # Their representatives (code strings; None: unknown). An older search of a
    # black-only game with repeats tried more classes (search.first_guess_classes).
    first_reps: set | None = None
    # Expected case: first guess -> {"parts": [(secrets, value, exact)], "seconds":
    # {second guess: [(secrets, value, exact)]}}; rivals: [(first, cost or None,
    # budget)] (a second guess's rival under ``seconds_rivals``)
    expected: dict = field(default_factory=dict)
    rivals: list = field(default_factory=list)
    seconds_rivals: list = field(default_factory=list)
    # Rival third guesses and deeper, in the chains of a run with --chain-secrets
    deep_rivals: list = field(default_factory=list)
    deep_parts: int = 0  # parts solved below the third guess, pieces of split parts
    # Worst case, pieces of guesses searched by their parts (--split-depth): the tasks
    # below the second guess (guesses, then parts), refuted and feasible
    deep_worst: list = field(default_factory=lambda: [0, 0])
    probes: int = 0  # null-window probes of the big parts of chains below the first guess
    # The fewest secrets of a part the run handled as a chain (None: none seen): probed,
    # or raced by its own guesses below the second guess. The run's --chain-secrets is
    # at most this, so a part of this many secrets or more was solved as a chain
    least_chained: int | None = None
    chain_pieces: int = 0  # small-part tasks of rivals searched as chains of tasks
    # The tasks of those small parts since 2026-12-06: the probes of a chain's small
    # parts (one task) and each part solved exactly (a task of its own)
    small_parts: int = 0
    chains: list = field(default_factory=list)  # [ChainRival], found again from the game
    # Expected case, big parts split by second guess: first guess -> [BigPart]
    big_parts: dict = field(default_factory=dict)
    # The processor seconds of the rivals settled in chained parts solved whole since
    # their race: priced with the others (p6c7n's 264-secret part, 2026-12-05)
    solved_rival_cpus: list = field(default_factory=list)
    # ... and the parts solved below each second guess, by the big part they split:
    # first guess -> [(the big part's secrets, or None if not found, second guess,
    # [(secrets, value, exact)])] (two big parts may share a second guess)
    second_trees: dict = field(default_factory=dict)
    weight: int = 0  # the cap weight of fewest-at-worst costs (0: totals)
    timed: list = field(default_factory=list)  # [Timed]
    # Expected case: the first guesses some task was played under, and the first-guess
    # classes with no task yet (None: not counted), as code strings
    begun: set = field(default_factory=set)
    not_begun: list | None = None
    rivals_exact: bool = False  # not_begun found as the search finds its rivals
    # Expected case: first guess -> tasks of its exact solve's first batch not yet done,
    # and of those, the parts of ``least_chained`` secrets or more: chains of pieces
    batch_left: dict = field(default_factory=dict)
    batch_chained: dict = field(default_factory=dict)
    # ... and how far the chains among them got: first guess -> [(its second guess,
    # ChainPart of the part's third guesses)], the parts whose race the checkpoint holds
    # some of (checkpoint_report._first_batches)
    batch_chains: dict = field(default_factory=dict)
    # The lower bound's tree the report read the run with, and the parts it took from
    # it, unsearched: (its source, parts below the first guess, parts below a big
    # part's second guess); None: read without one (checkpoint_report._floor_parts)
    floor: tuple | None = None

    def searches(self, first: str) -> bool:
        """Whether ``first`` is one of the first guesses this version's search tries
        (True when they are not known)."""
        return self.first_reps is None or first in self.first_reps

    def note_chained(self, n: int) -> None:
        """Record a part of ``n`` secrets that the run handled as a chain."""
        self.least_chained = n if self.least_chained is None else min(self.least_chained, n)

    def task_cpu(self, function: str, t: int | None = None) -> list[float]:
        """The processor seconds of the timed tasks of ``function`` (within ``t``
        guesses, if given and any are timed there; else of every depth)."""
        mine = [e for e in self.timed if e.function == function]
        return [e.cpu for e in mine if e.t == t] or [e.cpu for e in mine]

    def left(self) -> list[dict]:
        """The work still to do that the checkpoint can count (module docstring, "Time"):
        one dict per kind, with its tasks, the mean, median and longest processor
        seconds of the finished tasks of that kind and the estimate, tasks times the
        mean (None where no task of that kind is timed)."""
        out = []
        for t in sorted(self.worst):
            tasks = deep = 0
            for first, found in self.worst[t].items():
                if _first_refuted(found) or not self.searches(first):
                    continue
                for split in found.get("split", {}).values():
                    if split.classes is not None and not split.feasible:
                        tasks += max(split.classes - split.refuted, 0)
                for split in found.get("deep", {}).values():
                    if split.classes is not None and not split.feasible:
                        deep += max(split.classes - split.refuted, 0)
            if tasks:
                out.append(_left_row(f"second-guess tasks of the open split parts within "
                                     f"{t} guesses", tasks,
                                     self.task_cpu("_wc_guess_task", t)))
            if deep:
                out.append(_left_row(f"tasks of the open parts split deeper (--split-depth) "
                                     f"within {t} guesses, at most (a part refuted or "
                                     f"proven ends its own)", deep, self.task_cpu(DEEP_WORST, t)))
        chained = sum(self.batch_chained.values())
        batch = sum(self.batch_left.values()) - chained
        if batch:
            out.append(_left_row("tasks of the first guess's exact solve not yet done (its "
                                 "small parts, the parts of its big parts' first second "
                                 "guesses)", batch, self.task_cpu("_exp_part_task")))
        if chained:
            # A chain's length is known only when it ends, and a piece is no measure of
            # a part: the pieces done so far are said, not used as a price.
            pieces = self.task_cpu(CHAIN_PIECE)
            row = _left_row(f"parts of the first guess's exact solve not yet done, solved "
                            f"as chains of pieces (--chain-secrets: parts of "
                            f"{self.least_chained:,} secrets or more)", chained, [])
            row["unpriced"] = (f"a chain's length is known only when it ends "
                               f"({len(pieces):,} pieces timed so far, "
                               f"{duration_text(sum(pieces))} of processor time)")
            progress = [_race_text(f"{first} {second}", cp, self.cost_text)
                        for first, raced in sorted(self.batch_chains.items())
                        for second, cp in raced]
            if progress:  # where each chain is: its third guesses' race so far
                row["progress"] = "; ".join(progress)
                row["unpriced"] += f"; {row['progress']}"
            out.append(row)
        open_parts = [b for bigs in self.big_parts.values() for b in bigs
                      if b.solved and b.below > b.settled]
        rivals = sum(b.below - b.settled for b in open_parts)
        if rivals:
            # Priced by the rivals settled, each at its own time: a rival answered in
            # pieces (a chain below it) is timed on its own entry, not as a task
            # (p5c6b's fewest at 9, 2026-12-04: 27 rivals settled, all chains)
            settled = [c for bigs in self.big_parts.values() for b in bigs
                       for c in b.rival_cpus] + self.solved_rival_cpus
            row = _left_row("rival second guesses of the big parts still in the race",
                            rivals, settled)
            _price_rivals(row, open_parts)
            out.append(row)
        unbuilt = [b for bigs in self.big_parts.values() for b in bigs
                   if b.winner is not None and not b.tree_built]
        if unbuilt:
            what = ("tree of a rival that beat its big part's first second guess, not yet "
                    "built (" if len(unbuilt) == 1 else
                    "trees of the rivals that beat their big part's first second guess, not "
                    "yet built (each ")
            row = _left_row(what + "the rival's search again, its total as budget, or, a "
                            "rival searched as a chain, its parts solved exactly, built "
                            "first by the next run)", len(unbuilt), [])
            if all(b.winner_cpu is not None for b in unbuilt):
                row["estimate_seconds"] = round(sum(b.winner_cpu for b in unbuilt), 3)
                row["price_basis"] = "each at the processor time of the rival's own task"
            out.append(row)
        unsolved = sum(b.below - b.settled for bigs in self.big_parts.values() for b in bigs
                       if not b.solved)
        if unsolved:
            out.append(_left_row("rival second guesses, at most, of the big parts whose first "
                                 "second guess is not yet solved", unsolved,
                                 self.task_cpu("_exp_guess_task")))
        begun = [p for c in self.chains for p in c.parts
                 if self.searches(c.guess) and p.below > p.searched]
        chained = sum(p.below - p.searched for p in begun)
        if chained:
            row = _left_row("second guesses of the rival first guesses' big parts begun, "
                            "still in the race", chained, self.task_cpu("_exp_guess_task"))
            _price_by_part(row, [(p, p.below - p.searched) for p in begun], "tasks")
            out.append(row)
        waiting = sum(c.waiting_guesses for c in self.chains
                      if self.searches(c.guess) and not c.settled())
        if waiting:
            out.append(_left_row("second guesses, at most, of the rival first guesses' "
                                 "big parts not begun", waiting,
                                 self.task_cpu("_exp_guess_task")))
        if self.not_begun:
            what = ("rival first guesses with no task yet (their probed bounds below the "
                    "total of the first guess solved exactly)" if self.rivals_exact else
                    "rival first guesses, at most, with no task yet (their bounds may "
                    "cut some)")
            out.append(_left_row(what, len(self.not_begun), self.rival_cpu()))
        return out

    def rival_cpu(self) -> list[float]:
        """The processor seconds of each rival first guess settled, all its tasks
        together: those searched as one task and the chains with their answer."""
        per_first = defaultdict(float)
        for e in self.timed:
            if e.first is not None:
                per_first[e.first] += e.cpu
        settled = {g for g, _, _ in self.rivals}
        settled |= {c.guess for c in self.chains if c.settled()}
        return [per_first[g] for g in sorted(settled) if g in per_first]

    def time_lines(self) -> list[str]:
        if not self.timed:
            out = ["  time: no entry carries its task's timing (written before timings "
                   "were kept)"]
        else:
            cpu = sum(e.cpu for e in self.timed)
            latest = max(e.finished for e in self.timed)
            out = [f"  time: {len(self.timed):,} of {self.entries:,} entries timed, "
                   f"{duration_text(cpu)} of processor time in all; the latest finished "
                   f"{latest}"]
        for row in self.left():
            line = f"  left: {left_text(row)}"
            if row.get("price_basis") is not None:
                line += (f", about {duration_text(row['estimate_seconds'])} of processor "
                         f"time, {row['price_basis']}")
            elif row["mean_cpu_seconds"] is not None:
                line += (f", about {duration_text(row['estimate_seconds'])} of processor time "
                         f"at the mean {duration_text(row['mean_cpu_seconds'])} a task so far "
                         f"(median {duration_text(row['median_cpu_seconds'])}, longest "
                         f"{duration_text(row['max_cpu_seconds'])}, of {row['timed']:,})")
            elif row["tasks"]:
                line += f", not priced: {row.get('unpriced', 'no task of that kind timed yet')}"
            out.append(line)
        return out

    def lines(self) -> list[str]:
        run = self.run
        cap = "" if run.get("max_guesses") is None else f", at most {run['max_guesses']} guesses"
        head = (f"{run.get('game')}: {run.get('objective')}, {run.get('guesses')} guesses{cap}, "
                f"symmetry {'on' if run.get('symmetry') else 'off'}, task format "
                f"{run.get('task_format')}"
                + (" (another version's: not used by this one)" if self.stale else "")
                + f": {self.entries:,} entries")
        out = [head]
        for t in sorted(self.worst):
            refuted_firsts = sum(_first_refuted(found) for first, found in self.worst[t].items()
                                 if self.searches(first))
            of = "" if self.first_classes is None else f" of {self.first_classes:,}"
            out.append(f"  within {t} guesses: {refuted_firsts:,}{of} first-guess classes "
                       f"refuted")
            for first, found in self.worst[t].items():
                whole = found.get("whole", [])
                refuted = [n for n, ok in whole if not ok]
                feasible = [n for n, ok in whole if ok]
                bits = []
                if refuted:
                    bits.append("part of " + ", ".join(f"{n:,}" for n in refuted)
                                + " secrets refuted")
                if feasible:
                    bits.append("parts of " + ", ".join(f"{n:,}" for n in feasible)
                                + " secrets feasible")
                for split in found.get("split", {}).values():
                    bits.append(f"part of {split.secrets:,} secrets split: {split.text()}")
                notes = ["refuted"] if _first_refuted(found) else []
                if not self.searches(first):
                    notes.append(_EARLIER_CLASS)
                verdict = f" ({', '.join(notes)})" if notes else ""
                out.append(f"    first guess {first}{verdict}: " + "; ".join(bits))
                out += _deep_lines(found.get("deep", {}))
        if self.floor is not None:
            source, firsts, seconds = self.floor
            out.append(f"  read with the lower bound's tree {source}: {firsts:,} parts "
                       f"below the first guess and {seconds:,} below a part's second "
                       f"guess keep to the run's cap and guesses there, taken from it "
                       f"unsearched (counted as solved below)")
        for first, found in self.expected.items():
            own = found.get("parts", [])
            out.append(f"  first guess {first}"
                       + (f": {_parts_text(own, self.cost_text)}" if own else ""))
            trees = self.second_trees.get(first) or [
                (None, second, parts) for second, parts in found.get("seconds", {}).items()]
            for secrets, second, parts in trees:
                of = "" if secrets is None else f" (part of {secrets:,} secrets)"
                out.append(f"    then {second}{of}: {_parts_text(parts, self.cost_text)}")
            for big in self.big_parts.get(first, []):
                out.append(f"    {big.text(self.cost_text)}")
        for label, rivals in (("rival first guesses", self.rivals),
                              ("rival second guesses", self.seconds_rivals),
                              ("rival guesses below the second, in chains",
                               self.deep_rivals)):
            if not rivals:
                continue
            better = [(cost, g) for g, cost, _ in rivals if cost is not None]
            line = (f"  {label}: {len(rivals) - len(better):,} not better than their "
                    f"budget, {len(better):,} better")
            if better and rivals is self.rivals:  # totals over the whole game
                cost, g = min(better)
                line += f" (the best: {g}, {self.cost_text(cost)})"
            out.append(line)
        if any(self.deep_worst):
            refuted, feasible = self.deep_worst
            out.append(f"  worst case, pieces of second guesses searched by their parts "
                       f"(--split-depth): {refuted + feasible:,} tasks ({refuted:,} "
                       f"refuted, {feasible:,} feasible)")
        if self.deep_parts:
            out.append(f"  parts solved exactly below the second guess's parts, pieces "
                       f"of parts split by their own guesses (--chain-secrets): "
                       f"{self.deep_parts:,}")
        if self.probes:
            out.append(f"  probes of big parts in chains below the first guess (bounds "
                       f"raised before the parts are searched): {self.probes:,}")
        if self.chain_pieces:
            out.append(f"  rivals with big parts, searched as chains: {self.chain_pieces:,} "
                       f"tasks of their small parts (the big parts are split by second "
                       f"guess, above)")
        if self.small_parts:
            out.append(f"  pieces of those small parts' tasks (their probes, then each "
                       f"part solved exactly, the biggest in batches of their first "
                       f"guesses): {self.small_parts:,}")
        out += [chain.text(self.cost_text) + ("" if self.searches(chain.guess) else
                                              f" ({_EARLIER_CLASS})")
                for chain in self.chains]
        out.append(f"  work in these tasks: {self.states:,} states searched, "
                   f"{self.guesses:,} guesses evaluated")
        return out + self.time_lines()

    def to_dict(self) -> dict:
        worst = {str(t): {first: {"whole": [{"secrets": n, "feasible": ok}
                                            for n, ok in found.get("whole", [])],
                                  "split": [{"secrets": s.secrets, "refuted": s.refuted,
                                             "classes": s.classes, "feasible": s.feasible}
                                            for s in found.get("split", {}).values()],
                                  "deep": [{"after": list(s.history), "secrets": s.secrets,
                                            "refuted": s.refuted, "classes": s.classes,
                                            "feasible": s.feasible}
                                           for s in found.get("deep", {}).values()]}
                          for first, found in by_first.items()}
                 for t, by_first in sorted(self.worst.items())}
        for t, by_first in worst.items():
            for first, found in by_first.items():
                found["refuted"] = _first_refuted(self.worst[int(t)][first])

        def parts(found):
            return [{"secrets": n, "value": v, "exact": e} for n, v, e in found]

        expected = {first: {"parts": parts(found.get("parts", [])),
                            "seconds": {g2: parts(p)
                                        for g2, p in found.get("seconds", {}).items()},
                            "second_trees": [{"part": n, "second": g2, "parts": parts(p)}
                                             for n, g2, p in self.second_trees.get(first, [])]}
                    for first, found in self.expected.items()}
        return {"run": self.run, "entries": self.entries, "stale": self.stale,
                "first_guess_classes": self.first_classes,
                "states": self.states, "guesses_evaluated": self.guesses,
                "worst_case": worst, "expected": expected,
                "rivals": [{"guess": g, "value": c, "budget": b} for g, c, b in self.rivals],
                "second_guess_rivals": [{"guess": g, "value": c, "budget": b}
                                        for g, c, b in self.seconds_rivals],
                "deeper_rivals": [{"guesses": g, "value": c, "budget": b}
                                  for g, c, b in self.deep_rivals],
                "chain_pieces": self.chain_pieces, "small_part_pieces": self.small_parts,
                "deeper_parts": self.deep_parts,
                "deep_worst": {"refuted": self.deep_worst[0], "feasible": self.deep_worst[1]},
                "first_batch_left": self.batch_left,
                "first_batch_chained": self.batch_chained,
                "first_batch_chains": {first: [{"second": second, **cp.to_dict()}
                                               for second, cp in raced]
                                       for first, raced in self.batch_chains.items()},
                "rival_first_guesses_not_begun": self.not_begun,
                "rivals_exact": self.rivals_exact,
                "probes": self.probes,
                "lower_bound_tree": None if self.floor is None else {
                    "source": self.floor[0], "parts_below_first_guess": self.floor[1],
                    "parts_below_second_guess": self.floor[2]},
                "chains": [c.to_dict() for c in self.chains],
                "big_parts": {first: [b.to_dict() for b in bigs]
                              for first, bigs in self.big_parts.items()},
                "time": {"timed_entries": len(self.timed),
                         "cpu_seconds": round(sum(e.cpu for e in self.timed), 3),
                         "wall_seconds": round(sum(e.seconds for e in self.timed), 3),
                         "latest_finished": max((e.finished for e in self.timed),
                                                default=None),
                         "left": self.left()}}

    def cost_text(self, value) -> str:
        from .search_costs import _cost_text

        return _cost_text(value, self.weight)


def _race_text(history: str, cp: ChainPart, cost_text) -> str:
    """Where the race of third guesses at the head of a chained part of the first
    batch stands (:attr:`RunReport.batch_chains`).

    >>> import textwrap
    >>> print(textwrap.fill(_race_text("0123 1032", ChainPart(2020, 9, 4, 14897), str), 72))
    after 0123 1032 (part of 2,020 secrets), 4 of 9 rival third guesses with
    a bound below the budget searched, the best 14897
    """
    text = (f"after {history} (part of {cp.secrets:,} secrets), {cp.searched:,} of "
            f"{cp.below:,} rival third guesses with a bound below the budget searched")
    return text + ("" if cp.best is None else f", the best {cost_text(cp.best)}")


#: The most rivals a price names one by one.
NAMED = 8


def _price_rivals(row: dict, open_parts: list) -> None:
    """Price ``row``, the rival second guesses still in the race of the big parts
    ``open_parts``: a rival answered in another big part of its first guess at its
    time there (:attr:`BigPart.pending`), the others by :func:`_price_by_part`; a
    rival begun, less the share of it that the checkpoint holds
    (:meth:`BigPart.rival_share`). Leaves the row unpriced where a part is."""
    elsewhere = [(b, rival, cpu) for b in open_parts for rival, cpu in b.pending.items()
                 if cpu is not None]
    uncapped = [(b, rival, b.uncapped[rival]) for b in open_parts
                for rival, cpu in b.pending.items() if cpu is None and rival in b.uncapped]
    rest = [(b, sum(1 - b.rival_share(rival) for rival, cpu in b.pending.items()
                    if cpu is None and rival not in b.uncapped)) for b in open_parts]
    rest = [(b, left) for b, left in rest if left > 0]
    basis = []
    if rest:
        if not _price_by_part(row, rest, "rivals", own=lambda b: b.tree_cpu):
            return
        basis.append(row["price_basis"])
    row["estimate_seconds"] = round((row["estimate_seconds"] if rest else 0.0) + sum(
        cpu * (1 - b.rival_share(rival)) for b, rival, cpu in elsewhere + uncapped), 3)
    for priced, where in ((elsewhere, "answered in another big part of their first guess"),
                          (uncapped, "the search without the cap answered")):
        if priced:  # named where they are few
            basis.append(f"those {where}, at their processor time there ("
                         + _prices_text([(rival, cpu) for _, rival, cpu in priced]) + ")")
    begun = [(rival, parts) for b in open_parts for rival, parts, _ in b.racing]
    if begun:
        basis.append("those begun, less the share of their third guesses in the "
                     "checkpoint (" + ", ".join(
                         f"{rival}: {sum(p.searched for p in parts):,} of "
                         f"{sum(p.below for p in parts):,}" for rival, parts in begun) + ")")
    row["price_basis"] = "; ".join(basis)


def _prices_text(prices: list) -> str:
    """The rivals ``prices`` (``(rival, processor seconds)``) named with their times
    where they are few (:data:`NAMED`), else counted.

    >>> _prices_text([("1234", 90.0)])
    '1234: 90 s'
    >>> _prices_text([(str(k), 60.0) for k in range(9)])
    '9 of them, 9 min in all'
    """
    if len(prices) <= NAMED:
        return ", ".join(f"{rival}: {duration_text(cpu)}" for rival, cpu in prices)
    return f"{len(prices):,} of them, {duration_text(sum(cpu for _, cpu in prices))} in all"


def _price_by_part(row: dict, parts, what: str, own=None) -> bool:
    """Price ``row`` (a :func:`_left_row`) part by part: each of ``parts``, pairs of a
    :class:`BigPart` or :class:`ChainPart` and its guesses left, at the mean of its
    own timed ``what`` ("rivals" or "tasks") (a part's second guesses cost alike,
    parts apart do not: p4c10's rival 0012 took 0.1 s a task in its 401-secret part,
    494 s in its 3,052-secret one, 33 s over all); a part with none, at
    ``own(part)`` where that is known (a rival's price: its part's tree under the
    first second guess), else at the row's mean, that of all the ``what`` timed
    (p6c7nb's total with consistent guesses, 2026-11-28: the 4 rivals of its
    795-secret part, none timed, were priced at the mean of all, about 26 minutes
    each, and took 2 to 4 s, about their part's tree). Whether it could (a price for
    every part).

    >>> row = {"mean_cpu_seconds": 6.0, "timed": 3}
    >>> _price_by_part(row, [(ChainPart(9, 4, 1, None, 1, 2.0), 3),
    ...                      (ChainPart(5, 2, 0, None), 2)], "tasks")
    True
    >>> row["estimate_seconds"]
    18.0
    >>> print(row["price_basis"].replace("; ", ";\\n"))
    each at the mean of its own part's tasks timed so far (2 s a task in the part of 9 secrets, of 1);
    a part with none, at the mean of all the tasks timed
    >>> row = {"mean_cpu_seconds": None, "timed": 0}
    >>> _price_by_part(row, [(ChainPart(5, 2, 0, None), 2)], "tasks", own=lambda p: 0.5)
    True
    >>> row["price_basis"].endswith("under the first second guess (no task timed yet)")
    True
    """  # noqa: E501 (a doctest's output line)
    fallbacks = set()

    def price(p):
        if p.timed:
            return p.cpu / p.timed
        seconds = own(p) if own is not None else None
        if seconds is not None:
            fallbacks.add("at the processor time of its part's tree under the first "
                          "second guess")
            return seconds
        fallbacks.add(f"at the mean of all the {what} timed")
        return row["mean_cpu_seconds"]

    prices = [(price(p), left) for p, left in parts]
    if not prices or any(seconds is None for seconds, _ in prices):
        return False
    row["estimate_seconds"] = round(sum(seconds * left for seconds, left in prices), 3)
    timed = [p for p, _ in parts if p.timed]
    otherwise = " or ".join(sorted(fallbacks))
    if timed:
        row["price_basis"] = (
            f"each at the mean of its own part's {what} timed so far ("
            + ", ".join(f"{duration_text(p.cpu / p.timed)} a task in the part of "
                        f"{p.secrets:,} secrets, of {p.timed:,}" for p in timed)
            + ")" + (f"; a part with none, {otherwise}" if fallbacks else ""))
    else:
        one = {"rivals": "rival", "tasks": "task"}[what]
        row["price_basis"] = (f"each {otherwise} (no {one} timed yet)" if not row["timed"]
                              else f"each {otherwise} (no {one} of these parts timed yet)")
    return True


def _left_row(what: str, tasks: int, cpu: list[float]) -> dict:
    if not cpu:
        return {"what": what, "tasks": tasks, "timed": 0, "mean_cpu_seconds": None,
                "median_cpu_seconds": None, "max_cpu_seconds": None,
                "estimate_seconds": None}
    mean = float(np.mean(cpu))
    return {"what": what, "tasks": tasks, "timed": len(cpu),
            "mean_cpu_seconds": round(mean, 3),
            "median_cpu_seconds": round(float(np.median(cpu)), 3),
            "max_cpu_seconds": round(float(max(cpu)), 3),
            "estimate_seconds": round(mean * tasks, 3)}


def left_text(row: dict) -> str:
    """The count and kind of a row of work left (:meth:`RunReport.left`), its head
    noun in the singular for one: the kinds are written for many.

    >>> left_text({"tasks": 84, "what": "rival second guesses of the big parts still in the race"})
    '84 rival second guesses of the big parts still in the race'
    >>> left_text({"tasks": 1, "what": "tasks of the first guess's exact solve not yet done"})
    "1 task of the first guess's exact solve not yet done"
    >>> left_text({"tasks": 1, "what": "rival second guesses, at most, of the big parts"})
    '1 rival second guess, at most, of the big parts'
    >>> left_text({"tasks": 1, "what": "tree of a rival (its parts solved exactly)"})
    '1 tree of a rival (its parts solved exactly)'
    """
    what = row["what"]
    head = re.search(r"\b(task|part|tree|guess)(es|s)?\b", what)
    if row["tasks"] == 1 and head is not None and head.group(2):
        what = what[:head.start()] + head.group(1) + what[head.end():]
    return f"{row['tasks']:,} {what}"


def duration_text(seconds: float) -> str:
    """``0.012 s``, ``4.2 s``, ``42 s``, ``17 min``, ``2.3 h``, ``4.0 days``.

    >>> [duration_text(s) for s in (0.0123, 4.24, 42.4, 1020, 8280, 345600)]
    ['0.012 s', '4.2 s', '42 s', '17 min', '2.3 h', '4.0 days']
    """
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 3 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _parts_text(parts, cost_text) -> str:
    """The parts ``(secrets, value, exact)`` of one guess: those solved exactly, those
    with no tree within the guesses left (a value of ``INF``: under a cap) and any
    other only bounded."""
    from .search import INF

    exact = [(n, v) for n, v, e in parts if e]
    line = (f"{len(exact):,} part{'s' if len(exact) != 1 else ''} solved exactly "
            f"({sum(n for n, _ in exact):,} secrets, {cost_text(sum(v for _, v in exact))})")
    beyond = sorted(n for n, v, e in parts if not e and v >= INF)
    if beyond:
        line += (f", {len(beyond):,} beyond the cap (no tree within the guesses left: "
                 f"{', '.join(f'{n:,}' for n in beyond)} secrets)")
    bounded = len(parts) - len(exact) - len(beyond)
    return line + (f", {bounded:,} bounded only" if bounded else "")


#: Parts split deeper (``--split-depth``) listed one per line below their first guess;
#: beyond them, the refuted ones are counted.
DEEP_LISTED = 6


def _deep_lines(deep: dict) -> list[str]:
    """The report's lines for the parts split deeper below one first guess
    (:class:`SplitPart` with a history): the open ones and those proven feasible
    first, then the refuted ones, each group shallowest first, at most
    :data:`DEEP_LISTED` in all."""
    def refuted(split):
        return (split.classes is not None and not split.feasible
                and split.refuted >= split.classes)

    ranked = sorted(deep.values(), key=lambda split: (refuted(split), len(split.history),
                                                      split.history, -split.secrets))
    out = [f"      then {' '.join(split.history)}: part of {split.secrets:,} secrets "
           f"split: {split.text()}" for split in ranked[:DEEP_LISTED]]
    more = ranked[DEEP_LISTED:]
    if more:
        n = sum(refuted(split) for split in more)
        out.append(f"      and {len(more):,} more parts split deeper ({n:,} of them refuted)")
    return out


def _first_refuted(found: dict) -> bool:
    """Whether a first guess is refuted: one of its parts is, searched whole or split
    with every second-guess class refuted."""
    return (any(not ok for _, ok in found.get("whole", []))
            or any(s.classes is not None and not s.feasible and s.refuted >= s.classes
                   for s in found.get("split", {}).values()))
