"""numba, as the compiled kernels use it: imported through here, with two settings.

numba's parallel kernels (:mod:`optimal_mm._kernels`, for big answer tables) run on
a *threading layer*, chosen when the first parallel kernel is compiled. Where it
finds GNU OpenMP, numba picks it, and GNU OpenMP's thread pool does not survive a
fork: a forked child's first parallel call ends it ("fork() called from a process
already using GNU OpenMP, this is unsafe"). The package forks after such work (the
time-limited search of :mod:`optimal_mm.advice`, the table scripts' workers), so it
asks for numba's own work queue, which starts afresh in a child, unless the user
chose a layer with ``NUMBA_THREADING_LAYER``.

numba's on-disk cache (``cache=True``) checks a kernel's machine code against the
source file of the kernel alone, while that code holds every function it calls,
inlined or linked in, from other files too. Edit a callee in another module (the
skew-aware bound, which the expected search calls) and the callers' cached code,
their own files unchanged, still runs the old callee, in the JIT backend and in the
ahead-of-time build, which compiles through that cache. So the package's kernels
are cached under a stamp of all their sources together
(:func:`optimal_mm._aot.sources_digest`): any edit to any of them recompiles them
all, where numba would otherwise put the cache (beside the sources, or under
``NUMBA_CACHE_DIR``).
"""

import os

os.environ.setdefault("NUMBA_THREADING_LAYER", "workqueue")

import numba  # noqa: E402  (after the setting above, read at numba's import)
from numba import njit, prange  # noqa: E402,F401
from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: E402,F401

if numba.config.THREADING_LAYER == "default":  # numba was imported before this module
    numba.config.THREADING_LAYER = os.environ["NUMBA_THREADING_LAYER"]


def _locators() -> list:
    """numba's list of cache locator classes, tried in order for each cached function
    (``CacheImpl`` in recent numba, ``_CacheImpl`` in older releases)."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    return impl._locator_classes


class _Stamped:
    """A cache locator of numba's, its source stamp made the kernels' sources digest."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def get_source_stamp(self):
        from . import _aot

        if "digest" not in _SOURCES:
            _SOURCES["digest"] = _aot.sources_digest()
        return _SOURCES["digest"]


_SOURCES: dict = {}
_HERE = os.path.dirname(os.path.realpath(__file__))


class _KernelSourcesLocator:
    """First in numba's list of cache locators: for a function of this package, the
    locator numba would pick (the rest of the list, in order), stamped by
    :class:`_Stamped`; for any other function, none (numba goes on down its list)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if os.path.dirname(os.path.realpath(py_file)) != _HERE:
            return None
        for other in _locators():
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return _Stamped(inner)
        return None


if _KernelSourcesLocator not in _locators():
    _locators().insert(0, _KernelSourcesLocator)
