"""The page and its trees as a set of files, and their writing as a static site.

A site is a flat mapping from URL path to bytes:

* the page itself, the files of ``optimal_mm/web/static/``;
* ``trees/NAME``: every tree file found, as is (``.json`` or ``.json.gz``; the
  page decompresses gzip itself);
* ``trees/index.json``: the catalogue the page offers, one entry per tree with its
  game, rules, objective and stats, read from the files' headers once checked.

The trees come from the package's ``data/`` (the trees ``play`` replays), then,
in a source checkout, ``results/trees/`` (the proven and heuristic trees of
``results/``), then any directory given. Each file is checked exactly as
``optimal-mm verify`` checks it (:func:`~optimal_mm.tree.verify_document`: the
strict shape, every secret replayed, the declared stats compared with the
replay's), so the catalogue never repeats a claim that replay refutes: a file
that fails is left out with its first defect, and of two files with the same
name the first is kept. The replay costs less than the reading: about half a
second for all the trees of ``results/``, a hundredth or two for a tree of Bulls
and Cows' 5,040 secrets, a tenth for Logik's 32,768. The page replays every tree
again before using it, since it may be given any file.

:func:`write_site` writes the mapping into a new directory, built beside it
under a temporary name and renamed into place, so a failed run leaves nothing
half-written; it refuses a non-empty directory unless told to replace it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import OptimalMMError
from ..tree import Strategy, read_json, verify_document

#: The proven and heuristic trees of a source checkout (absent from an installed wheel).
SOURCE_TREES = Path(__file__).resolve().parents[2] / "results" / "trees"
#: Format name of the catalogue ``trees/index.json``.
INDEX_FORMAT = "optimal-mm-tree-index"
TREE_SUFFIXES = (".json", ".json.gz")


@dataclass(frozen=True)
class TreeEntry:
    """One tree of the catalogue: its file name, its bytes and its header."""

    name: str
    data: bytes
    header: dict

    def to_dict(self) -> dict:
        """The catalogue entry the page reads."""
        return {"file": self.name, **self.header}


def default_tree_sources() -> list:
    """The package's shipped trees, then ``results/trees/`` when present."""
    sources = [resources.files("optimal_mm").joinpath("data")]
    if SOURCE_TREES.is_dir():
        sources.append(SOURCE_TREES)
    return sources


def _header(strategy: Strategy) -> dict:
    declared = strategy.declared
    return {
        "game": strategy.game.name,
        "spec": strategy.game.spec,
        "objective": strategy.objective,
        "guesses": strategy.guesses,
        "max_guesses": strategy.max_guesses,
        "optimal": strategy.optimal,
        "stats": None if declared is None else declared.to_dict(),
    }


def tree_catalogue(sources=None) -> tuple[list[TreeEntry], list[tuple[str, str]]]:
    """Every tree file of the given directories, and the files left out.

    Parameters
    ----------
    sources : list of paths or importlib Traversables, optional
        Directories to read, in order; :func:`default_tree_sources` by default.

    Returns
    -------
    entries : list of TreeEntry
        In order of the sources, by name within each.
    skipped : list of (str, str)
        ``(file, reason)`` for each file that ``optimal-mm verify`` refuses (the
        reason is its message: the first defect) or whose name an earlier file
        already took.

    Raises
    ------
    OptimalMMError
        When a given directory does not exist.
    """
    entries: dict[str, TreeEntry] = {}
    skipped: list[tuple[str, str]] = []
    for source in default_tree_sources() if sources is None else sources:
        if isinstance(source, (str, os.PathLike)):
            source = Path(source)
        if not source.is_dir():
            raise OptimalMMError(f"tree directory {str(source)!r} does not exist")
        for item in sorted(source.iterdir(), key=lambda p: p.name):
            if not item.is_file() or not item.name.endswith(TREE_SUFFIXES):
                continue
            where = f"{source}/{item.name}" if isinstance(source, Path) else item.name
            if item.name in entries:
                skipped.append((where, f"a tree named {item.name!r} is already in the catalogue"))
                continue
            try:
                with resources.as_file(item) as path:
                    strategy, _ = verify_document(read_json(path))
            except OptimalMMError as exc:  # what verify refuses (a tree too large to replay too)
                skipped.append((where, str(exc)))
                continue
            entries[item.name] = TreeEntry(item.name, item.read_bytes(), _header(strategy))
    return list(entries.values()), skipped


def static_files() -> dict[str, bytes]:
    """The page's own files (HTML, JavaScript modules, CSS) by name."""
    folder = resources.files(__package__).joinpath("static")
    return {item.name: item.read_bytes() for item in folder.iterdir()
            if item.is_file() and not item.name.startswith(".")}


def site_files(sources=None) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """The whole site as ``{URL path: bytes}`` (paths relative, no leading slash).

    Returns the mapping and the files :func:`tree_catalogue` left out.
    """
    entries, skipped = tree_catalogue(sources)
    files = static_files()
    index = {"format": INDEX_FORMAT, "version": 1, "trees": [e.to_dict() for e in entries]}
    files["trees/index.json"] = (json.dumps(index, indent=1) + "\n").encode("utf-8")
    for entry in entries:
        files[f"trees/{entry.name}"] = entry.data
    return files, skipped


def check_site_target(out: "str | os.PathLike", force: bool = False) -> tuple[Path, Path]:
    """``(target, parent)`` of a site to be written as ``out``, once it is known that
    :func:`write_site` may write it: a caller asks before building the files (a
    second or so of replaying trees), so a wrong ``out`` is refused at once.

    Raises
    ------
    OptimalMMError
        When ``out`` is a file, is a non-empty directory and ``force`` is false, or
        its parent directory does not exist.
    """
    target = Path(out)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise OptimalMMError(f"output directory {str(parent)!r} does not exist")
    if target.exists() and not target.is_dir():
        raise OptimalMMError(f"output {str(target)!r} exists and is not a directory")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise OptimalMMError(
            f"output directory {str(target)!r} is not empty: pass --force to replace it")
    return target, parent


def write_site(out: "str | os.PathLike", files: dict[str, bytes], force: bool = False) -> None:
    """Write ``files`` (from :func:`site_files`) as the directory ``out``, atomically.

    The site is built in a temporary directory beside ``out`` and renamed into
    place; with ``force`` an existing ``out`` is replaced only once the new one is
    complete.

    Raises
    ------
    OptimalMMError
        As :func:`check_site_target`.
    """
    target, parent = check_site_target(out, force)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    old = None
    try:
        umask = os.umask(0)
        os.umask(umask)
        for name, data in files.items():
            path = building / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for folder in [building, *(p for p in building.rglob("*") if p.is_dir())]:
            folder.chmod(0o777 & ~umask)  # mkdtemp makes it private
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=parent))
            os.replace(target, old)
        os.replace(building, target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        if old is not None:
            if target.exists():  # the move aside failed: ``old`` is still empty
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
