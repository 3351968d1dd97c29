"""Memory planning: how much memory an exact search will hold, at most.

Every process that runs tasks holds the answer table (``N**2`` bytes for ``N``
codes) plus a transposition table of ``table_entries`` states per objective in use
(:data:`TABLE_ENTRY_BYTES` counted per state; once it is full, it is emptied and
fills again), plus the interpreter and compiled code
(:data:`PROCESS_BYTES`). With a ``memory_limit``,
:class:`~optimal_mm.search.Solver` refuses a run whose fixed part does not fit and
shrinks ``table_entries`` so that the rest does
(:meth:`~optimal_mm.search.Solver.memory_plan`); how many processes a run has
depends on how its tasks are run (:meth:`~optimal_mm.runner.TaskRunner.processes`).

>>> plan = MemoryPlan(processes=3, helpers=0, answer_table=2**20, tables=1, entries=1000)
>>> plan.total - plan.fixed == 3 * 1000 * TABLE_ENTRY_BYTES
True
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .errors import InvalidOptionError

#: Bytes counted per transposition-table entry (:func:`optimal_mm._search_arrays.new_table`):
#: 16 for the entry, 4 for its chain link, at most 4 for bucket heads; rounded up.
TABLE_ENTRY_BYTES = 32
#: Bytes counted per process for the interpreter, numpy and the compiled search: a
#: worker running numba's JIT measured about 155 MB resident before its first table
#: entry (the ahead-of-time kernels need far less, about 40 MB, but may fall back).
PROCESS_BYTES = 160 * 2**20


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
#: What :func:`parse_size` reads (compiled on first use: a command's start-up need not)
_SIZE_PATTERN = r"\s*([0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})\s*([KMGT]?)(?:I?B)?\s*"


def parse_size(text) -> int:
    """Bytes from ``4G``, ``500M``, ``1.5GiB``, ``64k`` or plain ``123456`` (binary units).

    An ``int`` is taken as bytes as it is (the library's ``memory_limit``).

    >>> parse_size("4G"), parse_size("500M"), parse_size("1.5GiB"), parse_size("1000")
    (4294967296, 524288000, 1610612736, 1000)
    >>> parse_size("lots")
    Traceback (most recent call last):
    ...
    optimal_mm.errors.InvalidOptionError: --memory-limit must be a size like 4G, 500M or 123456 (bytes), got 'lots'
    """  # noqa: E501 (a doctest's output line)
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        m = (re.fullmatch(_SIZE_PATTERN, text, re.IGNORECASE) if isinstance(text, str)
             else None)
        if not m:
            raise InvalidOptionError(f"--memory-limit must be a size like 4G, 500M or 123456 "
                                     f"(bytes), got {text!r}")
        value = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if value <= 0:
        raise InvalidOptionError(f"--memory-limit must be more than 0 bytes, got {text!r}")
    return value


def physical_memory() -> int | None:
    """Bytes of physical memory of this machine, or ``None`` where unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _size_text(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} TiB"  # pragma: no cover


@dataclass
class MemoryPlan:
    """What a run will hold in memory on this machine, at most.

    ``processes`` hold an answer table and transposition tables each (the parent
    included: it runs single tasks itself); ``helpers`` only the interpreter (dask
    nannies). Workers of a remote dask cluster are not counted: their memory is
    their own machines' concern (``dask worker --memory-limit``).
    """

    processes: int
    helpers: int
    answer_table: int
    tables: int
    entries: int

    @property
    def fixed(self) -> int:
        """Bytes that do not depend on the table size."""
        return (self.processes * (self.answer_table + PROCESS_BYTES)
                + self.helpers * PROCESS_BYTES)

    @property
    def total(self) -> int:
        """Bytes with every transposition table full."""
        return self.fixed + self.processes * self.tables * self.entries * TABLE_ENTRY_BYTES

    def __str__(self) -> str:
        return (f"about {_size_text(self.total)} for {self.processes} process"
                f"{'es' if self.processes > 1 else ''} (answer table "
                f"{_size_text(self.answer_table)} and {self.tables} table"
                f"{'s' if self.tables > 1 else ''} of {self.entries:,} entries each, plus "
                f"{_size_text(PROCESS_BYTES)} of interpreter)")
