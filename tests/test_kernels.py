"""The two ways the compiled kernels run (optimal_mm.kernels): ahead of time and JIT.

The ahead-of-time build must compute exactly what numba's JIT computes from the same
source, be found again only for the same sources and machine, and spare a run the
import of numba; a failed build falls back to the JIT, and a bad choice of backend
is a one-line error.
"""

import ast
import importlib
import os
import shutil
import subprocess
import sys
import types

import numpy as np
import pytest

from optimal_mm import Game, _aot, _kernels, _search, kernels
from optimal_mm._search_arrays import new_stats
from optimal_mm.errors import InvalidOptionError
from optimal_mm.search import solve
from optimal_mm.search_context import _NO_WC, _context


@pytest.fixture(scope="module")
def aot():
    """The ahead-of-time module of this checkout (built if need be; skipped where it
    cannot be built, e.g. without a C compiler)."""
    path = _aot.find()
    if path is None:
        try:
            path = _aot.build()
        except _aot.BuildError as exc:
            pytest.skip(f"no ahead-of-time build here: {exc}")
    return _aot.load(path)


@pytest.fixture
def fresh_backend(monkeypatch):
    """kernels with its choice forgotten (and restored after the test)."""
    saved = dict(kernels._state)
    cached = {name: kernels.__dict__.pop(name) for name in list(kernels._DIRECT)
              if name in kernels.__dict__}
    kernels._state.clear()
    yield monkeypatch
    kernels._state.clear()
    kernels._state.update(saved)
    for name in kernels._DIRECT:
        kernels.__dict__.pop(name, None)
    kernels.__dict__.update(cached)


#: p1c63 scores with bit masks up to bit 62; p2c32b and p2c33 (64 and 66 positions
#: times colours) with colour counts (_kernels.BIT_SCORING).
GAMES = ["p3c4", "p4c4b", "p4c5n", "p3c5nb", "mastermind", "p1c63", "p2c32b", "p2c33"]


@pytest.mark.parametrize("spec", GAMES)
def test_answer_kernels_agree(aot, spec):
    game = Game.from_spec(spec)
    codes, c, b = game.codes, game.colours, game.black_only
    table = aot.score_table(codes, c, b)
    assert np.array_equal(table, _kernels.score_table_reference(codes, c, b))
    assert np.array_equal(table, _kernels.score_table(codes, c, b))
    rng = np.random.default_rng(7)
    guesses = rng.choice(game.n_codes, size=min(40, game.n_codes), replace=False)
    secrets = np.sort(rng.choice(game.n_codes, size=game.n_codes // 2, replace=False))
    guesses, secrets = guesses.astype(np.int64), secrets.astype(np.int64)
    expected = _kernels.partition_counts_reference(table, guesses, secrets,
                                                   game.n_answer_slots)
    assert np.array_equal(aot.partition_counts(table, guesses, secrets, game.n_answer_slots),
                          expected)
    assert np.array_equal(aot.partition_counts_codes(codes, guesses, secrets, c, b,
                                                     game.n_answer_slots), expected)
    assert np.array_equal(aot.score_rows(codes[3], codes[secrets], c, b), table[3, secrets])


def test_orbit_kernel_agrees(aot):
    rng = np.random.default_rng(5)
    perms = np.stack([rng.permutation(300) for _ in range(3)]).astype(np.int64)
    expected = _kernels.orbit_labels_reference(perms)
    assert np.array_equal(aot.orbit_labels(perms), expected)
    assert np.array_equal(_kernels.orbit_labels(perms), expected)


def _states(game, count=12):
    """Secrets left after one or two guesses: real states of every size."""
    table = game.answer_table()
    rng = np.random.default_rng(11)
    out = [np.arange(game.n_codes, dtype=np.int64)]
    while len(out) < count:
        S = np.arange(game.n_codes, dtype=np.int64)
        for _ in range(int(rng.integers(1, 3))):
            g = int(rng.integers(game.n_codes))
            row = table[g, S]
            answers = np.unique(row)
            S = S[row == answers[int(rng.integers(len(answers)))]]
        if len(S) >= 2:
            out.append(S)
    return out


@pytest.mark.parametrize("spec", ["p3c4", "p4c4b", "p4c5n", "p3c5nb"])
@pytest.mark.parametrize("consistent", [False, True])
def test_search_kernels_agree(aot, spec, consistent):
    """Same values, same chosen guesses, same trees and the same work (statistics)
    with both."""
    game = Game.from_spec(spec)
    ctx = _context(game, consistent, 1 << 16)
    args = (ctx.table, ctx.all_guesses, ctx.lb, ctx.win, ctx.n_slots, consistent)
    # numba's own functions, found as the package finds them for the JIT backend
    jit = types.SimpleNamespace(**{
        name: getattr(importlib.import_module(f"optimal_mm.{module}"), function)
        for name, (module, function) in kernels._DIRECT.items()})
    # compiled as the build compiles them (from numba's cache after a build), so
    # that the calls below must find that compilation, not make their own
    assert all(_aot.jit_compile(name) is getattr(jit, name) for name in kernels._DIRECT)
    compiled = {name: set(getattr(jit, name).overloads) for name in kernels._DIRECT}
    for S in _states(game):
        in_s = np.zeros(game.n_codes, dtype=np.bool_)
        in_s[S] = True
        none = S[:0]
        for d in (3, _search.NO_CAP):
            results = []
            for module in (jit, aot):
                stats = new_stats()
                tt = _search.new_table(1 << 12)
                wc = (ctx.lb, _search.new_table(1 << 12))  # asked where d = 3
                exp = module.exp_search(S, _search.INF, d, none, *wc, *args, tt, stats,
                                        *ctx.rules)
                tree = (tuple(a.tolist() for a in module.exp_tree_nodes(
                    S, d, exp[0], none, *wc, *args, tt, stats, *ctx.rules))
                    if exp[0] < _search.INF else None)
                wc = module.wc_search(S, d, none, *args, _search.new_table(1 << 12), stats,
                                      *ctx.rules)
                pick = module.wc_pick(S, d, ctx.table, ctx.all_guesses, ctx.lb, ctx.win,
                                      ctx.n_slots, consistent, _search.new_table(1 << 12),
                                      stats, *ctx.rules) if wc[0] else -1
                results.append((tuple(exp), tree, tuple(wc), pick, tuple(stats)))
            assert results[0] == results[1], (spec, consistent, len(S), d)
        guesses = ctx.all_guesses
        mine = jit.candidates(S, in_s, none, guesses, consistent, *ctx.rules)
        theirs = aot.candidates(S, in_s, none, guesses, consistent, *ctx.rules)
        assert np.array_equal(mine[0], theirs[0]) and mine[1] == theirs[1]
    # No call compiled another overload: the build's JIT compilation is the one the
    # JIT backend's calls find, in numba's cache too (a fresh checkout's first JIT
    # call would otherwise compile every search kernel again).
    assert {name: set(getattr(jit, name).overloads) for name in kernels._DIRECT} == compiled


def test_the_builds_jit_compilation_is_cached_where_a_call_looks(aot):
    """The build compiles each kernel with the JIT before exporting it, and numba
    keeps that in its on-disk cache under the key it was asked by. A call looks its
    types up by the argument types alone, so the build must ask by them too: asked by
    the whole signature (result included), the cache entry is one no call finds, and
    the first JIT call of each kernel in a new process compiles it again."""
    from numba.core import sigutils

    for name in _aot.EXPORTS:
        kernel = _aot.jit_compile(name)  # from the cache: the aot fixture built
        args = tuple(sigutils.normalize_signature(_aot.signature(name))[0])
        assert args in kernel.overloads, name
        assert kernel._cache.load_overload(args, kernel.targetctx) is not None, name


def test_build_key_follows_the_sources(tmp_path, monkeypatch):
    for name in _aot.SOURCES:
        shutil.copy(os.path.join(_aot._HERE, name), tmp_path / name)
    key = _aot.build_key()
    monkeypatch.setattr(_aot, "_HERE", tmp_path)
    assert _aot.build_key() == key
    with open(tmp_path / "_search.py", "a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    assert _aot.build_key() != key
    assert _aot.module_name(key) == f"_aot_{key}"


def test_build_key_covers_every_module_the_kernels_import():
    """The machine code depends on every package module that an exported kernel's
    module imports, directly or through another: each must be in SOURCES, or an edit
    to it would load a stale build (``_numba`` sets numba up and holds no kernel)."""
    seen, todo = set(), [module for module, _, _, _ in _aot.EXPORTS.values()]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        with open(os.path.join(_aot._HERE, module + ".py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                todo.append(node.module)
    assert "_search_wc" in seen and "_search_keys" in seen  # the walk follows imports
    missing = {m + ".py" for m in seen - {"_numba"}} - set(_aot.SOURCES)
    assert not missing, missing


def test_numba_cache_is_stamped_by_every_kernel_source(tmp_path, monkeypatch):
    """numba would check a kernel's cached machine code against its own file alone,
    though the code holds its callees from other files: every kernel's cache must be
    checked against all the kernels' sources, so that an edit to a callee (here the
    skew-aware bound, called by the expected search) invalidates its callers too."""
    from optimal_mm import _numba

    stamp = _aot.sources_digest()
    for module, function in kernels._DIRECT.values():
        dispatcher = getattr(importlib.import_module(f"optimal_mm.{module}"), function)
        locator = dispatcher._cache._impl.locator
        assert isinstance(locator, _numba._Stamped), (module, function)
        assert locator.get_source_stamp() == stamp
        assert os.path.isdir(locator.get_cache_path())  # where numba would put it
    # The digest follows the text of each source, the callees' included.
    copy = tmp_path / "optimal_mm"
    copy.mkdir()
    for name in _aot.SOURCES:
        (copy / name).write_bytes(open(os.path.join(_aot._HERE, name), "rb").read())
    monkeypatch.setattr(_aot, "_HERE", str(copy))
    assert _aot.sources_digest() == stamp
    with open(copy / "_skew_bound.py", "a", encoding="utf-8") as f:
        f.write("\n# edited\n")
    assert _aot.sources_digest() != stamp


def test_unknown_backend_is_refused(fresh_backend):
    fresh_backend.setenv("OPTIMAL_MM_KERNELS", "fortran")
    with pytest.raises(InvalidOptionError, match="OPTIMAL_MM_KERNELS"):
        kernels.backend()


def test_failed_build_falls_back_to_jit(fresh_backend, capsys):
    def fail(key=None):
        raise _aot.BuildError("building _aot_x failed: no compiler")

    fresh_backend.setattr(_aot, "find", lambda key=None: None)
    fresh_backend.setattr(_aot, "failed", lambda key=None: None)
    fresh_backend.setattr(_aot, "build", fail)
    fresh_backend.setenv("OPTIMAL_MM_KERNELS", "auto")
    assert kernels.backend() == "jit"
    assert "using numba's JIT" in capsys.readouterr().err
    assert kernels.exp_search is _search.exp_search
    kernels._state.clear()
    fresh_backend.setenv("OPTIMAL_MM_KERNELS", "aot")
    with pytest.raises(InvalidOptionError, match="no compiler"):
        kernels.backend()


def test_parallel_kernels_above_the_threshold(fresh_backend):
    game = Game.from_spec("p3c4")
    table = game.answer_table()
    guesses = np.arange(game.n_codes, dtype=np.int64)
    expected = _kernels.partition_counts_reference(table, guesses, guesses,
                                                   game.n_answer_slots)
    for threshold in (0, 1 << 40):
        fresh_backend.setattr(kernels, "PARALLEL_WORK", threshold)
        assert np.array_equal(kernels.partition_counts(table, guesses, guesses,
                                                       game.n_answer_slots), expected)
        assert np.array_equal(kernels.score_table(game.codes, game.colours, False), table)


def _cli(*args, kernels_env=None):
    env = dict(os.environ)
    if kernels_env is not None:
        env["OPTIMAL_MM_KERNELS"] = kernels_env
    return subprocess.run([sys.executable, "-m", "optimal_mm", *args], env=env,
                          capture_output=True, text=True, timeout=600)


def test_cli_bad_backend_is_one_line(tmp_path):
    out = tmp_path / "t.json"
    run = _cli("solve", "p2c3", "-o", str(out), kernels_env="bogus")
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "OPTIMAL_MM_KERNELS" in run.stderr
    assert not out.exists()


def test_aot_run_never_imports_numba(aot):
    code = ("import sys; from optimal_mm import Game, kernels; "
            "from optimal_mm.search import solve; "
            "s = solve(Game.from_spec('p3c4'), 'expected', jobs=1); "
            "s.strategy.validate(); "
            "print(s.value, kernels.backend(), 'numba' in sys.modules)")
    env = dict(os.environ, OPTIMAL_MM_KERNELS="aot")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    value, backend, numba_loaded = run.stdout.split()
    assert backend == "aot" and numba_loaded == "False"
    assert int(value) == solve(Game.from_spec("p3c4"), "expected", jobs=1).value


#: Modules that a solve writing to a stream never needs, each a millisecond or more of
#: start-up on the benchmark's machine (with what they import): pathlib (urllib.parse,
#: ipaddress), tempfile (shutil, random, bz2, lzma), gzip, hashlib (OpenSSL),
#: sysconfig, numba.
STARTUP_UNNEEDED = ("pathlib", "tempfile", "gzip", "hashlib", "sysconfig", "numba",
                    "urllib.parse", "shutil")


def test_a_solve_to_a_stream_loads_no_module_it_does_not_need(aot):
    """The command's start-up is most of a small game's time (results/bench.md, side
    by side with the C++ solver): ``optimal-mm solve p3c4 -o /dev/null`` with the
    ahead-of-time kernels loads none of :data:`STARTUP_UNNEEDED`."""
    # What the interpreter loads before the package (an editable install's import
    # finder loads pathlib, for one) is not the package's doing.
    code = ("import sys; before = set(sys.modules); from optimal_mm.cli import main; "
            "rc = main(['solve', 'p3c4', '--objective', 'expected', '--jobs', '1', "
            "'--quiet', '-o', '/dev/null']); "
            f"print(rc, sorted(set({STARTUP_UNNEEDED!r}) & set(sys.modules) - before))")
    env = dict(os.environ, OPTIMAL_MM_KERNELS="aot")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[-2] == "0 []"


def test_jit_backend_solves_the_same(aot, tmp_path):
    runs = [_cli("solve", "p3c4", "--objective", "expected", "-o",
                 str(tmp_path / f"{name}.json"), kernels_env=name) for name in ("jit", "aot")]
    for run in runs:
        assert run.returncode == 0, run.stderr
    totals = [next(line for line in run.stdout.splitlines() if line.startswith("optimal total"))
              for run in runs]
    assert totals[0] == totals[1]


def test_aot_kernels_check_their_arguments(aot):
    """Compiled code trusts its arguments. The checked entry points copy an input of
    another dtype or layout (unaligned after unpickling, say) to the exported one,
    and refuse with a TypeError an array the kernel writes into that is not exactly
    the exported one (a copy would lose what the kernel writes)."""
    game = Game.from_spec("p3c4")
    table = game.answer_table()
    counts = _aot.checked("partition_counts", aot.partition_counts)
    ok = np.arange(5, dtype=np.int64)
    expected = _kernels.partition_counts_reference(table, ok, ok, game.n_answer_slots)
    assert np.array_equal(counts(table, ok, ok, game.n_answer_slots), expected)
    assert np.array_equal(counts(table, ok.astype(np.int32), ok, game.n_answer_slots),
                          expected)
    raw = np.zeros(5 * 8 + 1, dtype=np.uint8)
    raw[1:] = ok.view(np.uint8)
    unaligned = np.frombuffer(raw.data, dtype=np.int64, count=5, offset=1)
    assert not unaligned.flags.aligned and np.array_equal(unaligned, ok)
    assert np.array_equal(counts(table, ok, unaligned, game.n_answer_slots), expected)
    strided = np.ascontiguousarray(np.repeat(table, 2, axis=1))[:, ::2]
    assert np.array_equal(counts(strided, ok, ok, game.n_answer_slots), expected)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        counts(table, ok, ok)
    with pytest.raises(TypeError, match="argument 1 must be"):
        counts(table, ok[None, :], ok, game.n_answer_slots)
    # A plain argument passes as an int at once, as a NumPy integer after a look, and
    # never as an array or a list.
    assert np.array_equal(counts(table, ok, ok, np.int64(game.n_answer_slots)), expected)
    for wrong in ([game.n_answer_slots], np.array([game.n_answer_slots])):
        with pytest.raises(TypeError, match="argument 3 must be"):
            counts(table, ok, ok, wrong)
    ctx = _context(game, False, 1 << 10)
    search = _aot.checked("exp_search", aot.exp_search)
    S = np.arange(game.n_codes, dtype=np.int64)
    args = (ctx.table, ctx.all_guesses, ctx.lb, ctx.win, ctx.n_slots, False)
    stats = new_stats()
    no_wc = _NO_WC
    value, _ = search(S, _search.INF, _search.NO_CAP, S[:0], *no_wc, *args,
                      _search.new_table(1 << 10), stats, *ctx.rules)
    assert stats[0] > 0  # the counters were written in place
    with pytest.raises(TypeError, match="argument 13 .*written in place"):
        search(S, _search.INF, _search.NO_CAP, S[:0], *no_wc, *args,
               _search.new_table(1 << 10), stats.astype(np.int32), *ctx.rules)
    table32 = tuple(a.astype(np.int64) for a in _search.new_table(1 << 10))
    with pytest.raises(TypeError, match="argument 12"):
        search(S, _search.INF, _search.NO_CAP, S[:0], *no_wc, *args, table32, stats,
               *ctx.rules)
    # Counters too few for the kernel's writes and reads (the four of older code, the
    # five without the stop slot) are refused before it could go past their end.
    for short in (4, 5):
        with pytest.raises(TypeError, match="argument 13 .*at least 6 items"):
            search(S, _search.INF, _search.NO_CAP, S[:0], *no_wc, *args,
                   _search.new_table(1 << 10), stats[:short].copy(), *ctx.rules)


def test_parallel_kernels_survive_a_fork():
    # A process that ran numba's parallel kernels (Bulls and Cows' answer table is over
    # PARALLEL_WORK answers) may fork a child that runs them again, as the time-limited
    # search of optimal_mm.advice does; GNU OpenMP's thread pool killed such a child.
    code = (
        "import multiprocessing as mp\n"
        "from optimal_mm import Game\n"
        "Game.from_spec('bulls-and-cows').answer_table()\n"
        "def child():\n"
        "    Game.from_spec('p5c8n').answer_table()\n"
        "p = mp.get_context('fork').Process(target=child); p.start(); p.join()\n"
        "raise SystemExit(p.exitcode)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]


def test_tree_node_arrays_grow_keeping_their_items():
    """The compiled tree build's arrays double when a tree outgrows ``2n - 1`` nodes
    (only a tree with guesses that neither split nor win could)."""
    a = np.array([5, 7, 9], dtype=np.int64)
    grown = _search._grown(a)
    assert len(grown) > 2 * len(a) and grown.dtype == a.dtype
    assert grown[:3].tolist() == [5, 7, 9]
