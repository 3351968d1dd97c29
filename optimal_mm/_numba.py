"""numba, as the compiled kernels use it: imported through here, with one setting.

numba's parallel kernels (:mod:`optimal_mm._kernels`, for big answer tables) run on
a *threading layer*, chosen when the first parallel kernel is compiled. Where it
finds GNU OpenMP, numba picks it, and GNU OpenMP's thread pool does not survive a
fork: a forked child's first parallel call ends it ("fork() called from a process
already using GNU OpenMP, this is unsafe"). The package forks after such work (the
time-limited search of :mod:`optimal_mm.advice`, the table scripts' workers), so it
asks for numba's own work queue, which starts afresh in a child, unless the user
chose a layer with ``NUMBA_THREADING_LAYER``.
"""

import os

os.environ.setdefault("NUMBA_THREADING_LAYER", "workqueue")

import numba  # noqa: E402  (after the setting above, read at numba's import)
from numba import njit, prange  # noqa: E402,F401

if numba.config.THREADING_LAYER == "default":  # numba was imported before this module
    numba.config.THREADING_LAYER = os.environ["NUMBA_THREADING_LAYER"]
