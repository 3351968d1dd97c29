"""The compiled kernels the rest of the package calls, and where they come from.

Every hot loop is written once, in Python, for numba (:mod:`optimal_mm._search`,
:mod:`optimal_mm._kernels`). It can run two ways:

``aot``
    The ahead-of-time build (:mod:`optimal_mm._aot`): an extension module made once
    per machine, imported in milliseconds, without numba. This is what makes a
    small game's whole command fast; it is the default wherever the build can be
    made (it needs a C compiler the first time).
``jit``
    numba's just-in-time compilation, with its on-disk cache: every process pays
    numba's import and set-up (about half a second) before the first call. Also the
    fallback when the ahead-of-time build cannot be made, and what runs the parallel
    kernels on big work (below).

The environment variable ``OPTIMAL_MM_KERNELS`` picks ``aot``, ``jit`` or ``auto``
(the default: ``aot`` if it can be built, else ``jit``). Both run the same code on
the same inputs and give the same results; the tests check that.

The answer table and partition counts of big games are worth a thread per core:
from :data:`PARALLEL_WORK` answers on, they run numba's parallel kernels whatever
the backend; below it, one thread does better (starting numba's thread pool costs
more than it saves, and far more on a busy machine).

Attributes are resolved on first use: ``kernels.exp_search(...)``.
"""

from __future__ import annotations

import os
import sys

from .errors import InvalidOptionError

#: Answers computed per call from which the parallel (JIT) kernels are used.
PARALLEL_WORK = 20_000_000

#: Kernels called as they are: name -> (numba module, function).
_DIRECT = {
    "exp_search": ("_search", "exp_search"),
    "wc_search": ("_search_wc", "wc_search"),
    "wc_pick": ("_search_wc", "wc_pick"),
    "exp_tree_nodes": ("_search", "exp_tree_nodes"),
    "candidates": ("_search_guesses", "_candidates"),
    "score_rows": ("_kernels", "score_rows"),
    "orbit_labels": ("_kernels", "orbit_labels"),
}
BACKENDS = ("auto", "aot", "jit")

_state: dict = {}


def backend() -> str:
    """``"aot"`` or ``"jit"``: where this process's kernels come from (decided, and
    the build made if need be, on the first call)."""
    if "backend" not in _state:
        _state["backend"], _state["module"] = _choose()
    return _state["backend"]


def _choose():
    wanted = os.environ.get("OPTIMAL_MM_KERNELS", "auto").strip().lower() or "auto"
    if wanted not in BACKENDS:
        raise InvalidOptionError(f"OPTIMAL_MM_KERNELS must be one of {', '.join(BACKENDS)}, "
                                 f"got {wanted!r}")
    if wanted == "jit":
        return "jit", None
    from . import _aot

    key = _aot.build_key()
    path = _aot.find(key)
    if path is None and wanted == "auto" and _aot.failed(key):
        return "jit", None
    try:
        if path is None:
            print("optimal_mm: compiling the kernels ahead of time, once per machine "
                  "(a few minutes)...", file=sys.stderr, flush=True)
            path = _aot.build(key)
        module = _aot.load(path, key)
    except (_aot.BuildError, ImportError, OSError) as exc:
        if wanted == "aot":
            raise InvalidOptionError(f"OPTIMAL_MM_KERNELS=aot: {exc}") from None
        print(f"optimal_mm: {exc}; using numba's JIT instead", file=sys.stderr)
        return "jit", None
    return "aot", module


def _aot_kernel(name: str):
    from . import _aot

    return _aot.checked(name, getattr(_state["module"], name))


def _jit(module: str, function: str):
    import importlib

    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def _serial(name: str):
    """The one-thread kernel ``name`` of :mod:`optimal_mm._kernels`: the ahead-of-time
    one, or numba's run on one thread (resolved once)."""
    fn = _state.get(("serial", name))
    if fn is not None:
        return fn
    if backend() == "aot":
        fn = _aot_kernel(name)
    else:
        kernel = _jit("_kernels", name)

        def fn(*args):
            import numba

            before = numba.get_num_threads()
            numba.set_num_threads(1)
            try:
                return kernel(*args)
            finally:
                numba.set_num_threads(before)
    _state[("serial", name)] = fn
    return fn


def _by_work(name: str, work: int, args: tuple):
    """Run the kernel ``name`` of :mod:`optimal_mm._kernels` on ``work`` answers:
    numba's parallel kernel from :data:`PARALLEL_WORK` on, else one thread."""
    if work >= PARALLEL_WORK:
        return _jit("_kernels", name)(*args)
    return _serial(name)(*args)


def __getattr__(name: str):
    if name not in _DIRECT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, function = _DIRECT[name]
    fn = _aot_kernel(name) if backend() == "aot" else _jit(module, function)
    globals()[name] = fn
    return fn


def score_table(codes, n_colours: int, black_only: bool):
    """The ``(N, N)`` uint8 table of answers, ``table[guess, secret]``."""
    return _by_work("score_table", len(codes) ** 2, (codes, n_colours, black_only))


def partition_counts(table, guesses, secrets, n_slots: int):
    """Part sizes ``out[k, a]``: secrets that answer ``a`` to ``guesses[k]``."""
    return _by_work("partition_counts", len(guesses) * len(secrets),
                    (table, guesses, secrets, n_slots))


def partition_counts_codes(codes, guesses, secrets, n_colours: int, black_only: bool,
                           n_slots: int):
    """Like :func:`partition_counts`, scoring on the fly (no answer table)."""
    return _by_work("partition_counts_codes", len(guesses) * len(secrets),
                    (codes, guesses, secrets, n_colours, black_only, n_slots))
