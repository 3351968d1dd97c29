"""Ahead-of-time build of the compiled kernels: start a run without importing numba.

numba compiles a kernel on its first call and keeps the machine code in an on-disk
cache, but even a cached kernel costs every process numba's import and the set-up
of its typing and lowering registries: about 0.5 s on a 2-core machine, more than
the whole search of a small game such as Mastermind. The same Python kernels
(:mod:`optimal_mm._search`, :mod:`optimal_mm._kernels`) compiled ahead of time with
``numba.pycc`` make an ordinary extension module, imported in milliseconds.

The build is made once per machine, on first use (:func:`build`, a few minutes),
and kept beside numba's own cache in the package's ``__pycache__`` (or, where that
is read-only, in ``$XDG_CACHE_HOME/optimal_mm``). Its module name carries a
:func:`build_key` of everything the machine code depends on (the kernels' sources,
the signatures below, numba's and Python's versions, the CPU), so a stale build is
never loaded: editing a kernel or moving to another CPU makes a new one. The build
compiles through numba's cache, which :mod:`optimal_mm._numba` stamps with all the
kernels' sources, so that a kernel whose file is unchanged is compiled again when a
function it calls from another file changed.

Each kernel is exported with one fixed signature (:data:`EXPORTS`): the types the
callers in :mod:`optimal_mm.search` and :mod:`optimal_mm.game` pass. The exported
code does not check its arguments, so :mod:`optimal_mm.kernels` calls it through
:func:`checked`, which does.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import warnings

import numpy as np

from ._search_arrays import STATS

# This package's folder, as a string: ``pathlib`` (with ``urllib.parse`` and
# ``ipaddress``, which it imports) is a few milliseconds of every command's
# start-up, and only a build needs it.
_HERE = os.path.dirname(os.path.realpath(__file__))

#: The sources whose text the machine code depends on.
SOURCES = ("_search.py", "_search_keys.py", "_search_table.py", "_search_guesses.py",
           "_search_small.py", "_search_wc.py", "_search_arrays.py", "_skew_bound.py",
           "_overlap.py", "_kernels.py", "_aot.py")


class Array:
    """A C-contiguous, aligned array argument: numpy dtype name, number of dimensions,
    and whether the kernel writes into it (``inout``: the caller's array itself must
    be passed, never a converted copy); ``min_len``, the fewest items along the first
    axis it may have (compiled code indexes it unchecked: a shorter array would be
    written past its end)."""

    def __init__(self, dtype: str, ndim: int, inout: bool = False, min_len: int = 0):
        self.dtype, self.ndim, self.inout, self.min_len = dtype, ndim, inout, min_len
        self._dtype = np.dtype(dtype)  # comparing with a string parses it on every call

    def numba(self) -> str:
        name = "boolean" if self.dtype == "bool" else self.dtype
        return f"{name}[{':,' * (self.ndim - 1)}::1]"

    def exact(self, value) -> bool:
        if not isinstance(value, np.ndarray) or value.dtype != self._dtype:
            return False
        flags = value.flags
        return (value.ndim == self.ndim and flags.c_contiguous and flags.aligned
                and (self.min_len == 0 or value.shape[0] >= self.min_len))

    def __repr__(self) -> str:
        return (f"a C-contiguous, aligned {self.dtype} array of {self.ndim} dimension(s)"
                + (f" of at least {self.min_len} items" if self.min_len else "")
                + (" (written in place)" if self.inout else ""))


_I1, _I2, _J1, _J2 = Array("int64", 1), Array("int64", 2), Array("int32", 1), Array("int32", 2)
_U1, _U2, _B1 = Array("uint8", 1), Array("uint8", 2), Array("bool", 1)
_STATS = Array("int64", 1, inout=True, min_len=len(STATS) + 1)  # counters, stop slot
# The transposition table (_search_arrays.new_table), written in place.
_TT = (Array("int64", 2, True), Array("int32", 1, True), Array("int32", 1, True),
       Array("int64", 1, True))
# The game's arrays that follow the tables (search_context._rules): codes, colours, repeats,
# swaps, masks, symmetry.
_RULES = (_U2, "int64", "boolean", _J2, _I2, "boolean")
_SEARCH = (_U2, _I1, _I2, "int64", "int64", "boolean")  # table, all guesses, lb, win, ...

#: Exported name: (module, function, numba result type, argument types). An argument
#: type is an :class:`Array`, a scalar type name, or a tuple of argument types.
EXPORTS = {
    "exp_search": ("_search", "exp_search", "UniTuple(int64, 2)",
                   (_I1, "int64", "int64", _I1, _I2, _TT, *_SEARCH, _TT, _STATS, *_RULES)),
    "wc_search": ("_search_wc", "wc_search", "Tuple((boolean, int64))",
                  (_I1, "int64", _I1, *_SEARCH, _TT, _STATS, *_RULES)),
    "wc_pick": ("_search_wc", "wc_pick", "int64",
                (_I1, "int64", *_SEARCH, _TT, _STATS, *_RULES)),
    "exp_tree_nodes": ("_search", "exp_tree_nodes", f"UniTuple({_I1.numba()}, 3)",
                       (_I1, "int64", "int64", _I1, _I2, _TT, *_SEARCH, _TT, _STATS,
                        *_RULES)),
    "candidates": ("_search_guesses", "_candidates", f"Tuple(({_I1.numba()}, int64))",
                   (_I1, _B1, _I1, _I1, "boolean", *_RULES)),
    "score_rows": ("_kernels", "score_rows", _U1.numba(), (_U1, _U2, "int64", "boolean")),
    "score_table": ("_kernels", "score_table", _U2.numba(), (_U2, "int64", "boolean")),
    "partition_counts": ("_kernels", "partition_counts", _J2.numba(),
                         (_U2, _I1, _I1, "int64")),
    "partition_counts_codes": ("_kernels", "partition_counts_codes", _J2.numba(),
                               (_U2, _I1, _I1, "int64", "boolean", "int64")),
    "orbit_labels": ("_kernels", "orbit_labels", _I1.numba(), (_I2,)),
}


def _numba_type(arg) -> str:
    if isinstance(arg, Array):
        return arg.numba()
    if isinstance(arg, tuple):
        return f"Tuple(({', '.join(_numba_type(a) for a in arg)}))"
    return arg


def signature(name: str) -> str:
    """The numba signature string of the export ``name``."""
    _, _, result, args = EXPORTS[name]
    return f"{result}({', '.join(_numba_type(a) for a in args)})"


def jit_compile(name: str):
    """Compile the export ``name`` with numba's JIT, as a call with its arguments
    would, and return the JIT's dispatcher.

    The compilation is asked for by the argument types alone, without the result
    type: numba keys its on-disk cache by what ``compile`` is given, and a call
    looks its types up as a tuple of argument types. Asked with the whole signature,
    the build's compilation would be kept where no call finds it, and the first JIT
    call of a fresh checkout (the tests compare both backends) would compile every
    search kernel again: about three minutes on a 2-core machine.
    """
    from numba.core import sigutils

    module, function, _, _ = EXPORTS[name]
    kernel = getattr(importlib.import_module(f"{__package__}.{module}"), function)
    args, _ = sigutils.normalize_signature(signature(name))
    kernel.compile(tuple(args))
    return kernel


def _argument(name: str, i: int, arg, value):
    """``value`` as the export ``name`` takes its argument ``i``: an input array of
    another dtype or layout (e.g. unaligned after unpickling) is copied to the
    exported one; an array written in place must be the exported one already."""
    if isinstance(arg, Array):
        if arg.exact(value):
            return value
        if not arg.inout and isinstance(value, np.ndarray) and value.ndim == arg.ndim:
            return np.require(value, dtype=arg.dtype, requirements="CA")
    elif isinstance(arg, tuple):
        if isinstance(value, tuple) and len(value) == len(arg):
            items = tuple(_argument(name, i, a, v) for a, v in zip(arg, value))
            return value if all(x is v for x, v in zip(items, value)) else items
    elif not isinstance(value, (np.ndarray, tuple, list)):
        return value
    got = (f"{value.dtype} array of shape {value.shape}" if isinstance(value, np.ndarray)
           else type(value).__name__)
    raise TypeError(f"{name}: argument {i} must be {arg!r}, got {got}")


#: The types of plain arguments that pass :func:`checked` at once.
_SCALARS = frozenset((int, bool, float))


def checked(name: str, function):
    """``function`` (the export ``name``) behind a check of its arguments' types.

    Compiled code trusts its arguments: an array of another dtype or layout would be
    read as if it had the exported one (wrong answers, or a crash). Inputs that
    differ are converted (:func:`_argument`); arrays the kernel writes into must
    match, else TypeError names the argument. The arrays passed as they were last
    time and the plain arguments pass at once: a call of the expected search whose
    secrets and guesses alone are new took 1.4 microseconds more than the bare
    call, and 4.5 when every plain argument went through :func:`_argument` (until
    2026-12-07). A chain of small tasks calls it about 9,000 times a second (the
    first 20,000 rivals of p4c10nb's consistent expected case).
    """
    args = EXPORTS[name][3]
    n = len(args)
    # The positions of plain (not array) arguments: an int, bool or float there
    # passes as it is, with no call to _argument.
    plain = [not isinstance(arg, (Array, tuple)) for arg in args]
    # The arrays (and tuples of arrays) last passed at each position that passed as
    # they were: the search passes the same answer table, bounds, tables and rules on
    # every call, which are then not checked again (held here, an object cannot be
    # freed and another take its identity).
    last = [None] * n

    def call(*values):
        if len(values) != n:
            raise TypeError(f"{name} takes {n} arguments, got {len(values)}")
        out = None
        for i, value in enumerate(values):
            if value is last[i] or (plain[i] and type(value) in _SCALARS):
                continue
            checked_value = _argument(name, i, args[i], value)
            if checked_value is not value:  # converted: a copy
                if out is None:
                    out = list(values)
                out[i] = checked_value
            elif not plain[i]:
                last[i] = value
        return function(*values) if out is None else function(*out)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = function.__doc__
    return call


class BuildError(RuntimeError):
    """The ahead-of-time build could not be made (no C compiler, no writable place)."""


def _numba_version() -> str:
    """numba's version file (read, not imported: importing numba is what this avoids)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("numba is not installed")
    folder = list(spec.submodule_search_locations)[0]
    try:
        with open(os.path.join(folder, "_version.py"), encoding="utf-8",
                  errors="replace") as f:
            return f.read()
    except OSError:
        return str(folder)


def _cpu() -> str:
    """The CPU model and its instruction-set flags (the build targets this CPU)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [line for line in f.read(1 << 16).splitlines()
                     if line.startswith(("model name", "flags"))]
        if lines:
            return "\n".join(lines[:2])
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}"


def _digest():
    """A BLAKE2b hash object from CPython's own module (``import hashlib`` loads
    OpenSSL, a few milliseconds of every command's start-up), else hashlib's."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without it
        from hashlib import blake2b
    return blake2b(digest_size=16)


def _ext_suffix() -> str:
    """The file suffix of this interpreter's extension modules (``sysconfig`` says the
    same, after loading its configuration data: 5 ms of every command's start-up)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _hash_sources(h) -> None:
    for name in SOURCES:
        with open(os.path.join(_HERE, name), "rb") as f:
            h.update(f.read())


def sources_digest() -> bytes:
    """A digest of the kernels' sources (:data:`SOURCES`) as they are on disk: what
    numba's cache of every kernel is checked against (:mod:`optimal_mm._numba`)."""
    h = _digest()
    _hash_sources(h)
    return h.digest()


def build_key() -> str:
    """Hex digest of what the machine code depends on; part of the module's name."""
    h = _digest()
    _hash_sources(h)
    for part in (_numba_version(), sys.implementation.cache_tag,
                 _ext_suffix(), _cpu()):
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:16]


def module_name(key: str | None = None) -> str:
    return f"_aot_{key or build_key()}"


def build_dirs() -> list[str]:
    """Where a build is looked for and made, in order of preference."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".cache")
    return [os.path.join(_HERE, "__pycache__"), os.path.join(cache, "optimal_mm")]


def _file_name(name: str) -> str:
    return name + _ext_suffix()


def find(key: str | None = None) -> str | None:
    """The path of the build for this machine and these sources, if it exists."""
    name = module_name(key)
    for directory in build_dirs():
        path = os.path.join(directory, _file_name(name))
        if os.path.isfile(path):
            return path
    return None


def failed(key: str | None = None) -> str | None:
    """Why the build for this machine and these sources failed before, if it did
    (a failure is not retried until the sources, numba or the CPU change)."""
    name = module_name(key)
    for directory in build_dirs():
        try:
            with open(os.path.join(directory, f"{name}.failed"), encoding="utf-8") as f:
                return f.read().strip()
        except OSError:
            pass
    return None


def _record_failure(directory, name: str, message: str) -> None:
    try:
        (directory / f"{name}.failed").write_text(message + "\n", encoding="utf-8")
    except OSError:
        pass


def load(path, key: str | None = None):
    """Import the extension module at ``path``."""
    name = module_name(key)
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def build(key: str | None = None):
    """Compile every kernel of :data:`EXPORTS` into one extension module and return
    its path. The module is written in a temporary directory and renamed into place,
    so a concurrent or interrupted build never leaves a half-written file.

    Raises :class:`BuildError` when no place is writable or the compilation fails.
    """
    from pathlib import Path

    key = key or build_key()
    name = module_name(key)
    errors = []
    for directory in map(Path, build_dirs()):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            import tempfile  # only a build needs it (start-up: see _digest)

            with _lock(directory), \
                    tempfile.TemporaryDirectory(dir=directory, prefix=".aot-build-") as tmp:
                done = directory / _file_name(name)
                if done.is_file():  # another process built it while this one waited
                    return done
                built = _compile(name, Path(tmp))
                target = directory / built.name
                os.replace(built, target)
                _remove_stale(directory, keep=target.name)
                _compile_bytecode()
                return target
        except OSError as exc:
            errors.append(f"{directory}: {exc}")
        except Exception as exc:  # noqa: BLE001 - compiler and linker failures vary
            first_line = (str(exc).strip().splitlines() or [""])[0]
            message = f"building {name} failed: {type(exc).__name__}: {first_line}"
            _record_failure(directory, name, message)
            raise BuildError(message) from exc
    raise BuildError("no writable place for the build (" + "; ".join(errors) + ")")


@contextlib.contextmanager
def _lock(directory):
    """Hold an exclusive lock on ``directory`` (POSIX), so that processes started
    together (workers, parallel table entries) build once instead of each."""
    try:
        import fcntl
    except ImportError:  # not POSIX: concurrent builds are merely wasteful
        yield
        return
    with open(directory / ".aot.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove_stale(directory, keep: str) -> None:
    """Remove this Python's builds of other sources from ``directory``: they are never
    loaded again. (A process still running one keeps its mapped copy; the builds of
    other Python versions, with another file suffix, are left alone.)"""
    for path in directory.glob("_aot_*" + _file_name("")):
        if path.name != keep:
            try:
                path.unlink()
            except OSError:
                pass


def _compile_bytecode() -> None:
    """Write the package's bytecode (``.pyc``), as a regular install does and an
    editable one does not: with ``PYTHONDONTWRITEBYTECODE`` set, every process would
    otherwise compile the package's sources again (a few hundredths of a second)."""
    import compileall

    try:
        compileall.compile_dir(str(_HERE), quiet=2)
    except OSError:
        pass


def _compile(name: str, out_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is pending deprecation
        from numba.pycc import CC
    from llvmlite import binding as llvm

    cc = CC(name)
    cc.output_dir = str(out_dir)
    cc.target_cpu = llvm.get_host_cpu_name()
    cc.verbose = False
    for export in EXPORTS:
        # Type and compile with the JIT first (kept in numba's cache): pycc's own
        # type inference, run cold, trips on the recursion of the search kernels.
        kernel = jit_compile(export)
        cc.export(export, signature(export))(kernel.py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.compile()
    return out_dir / cc.output_file
