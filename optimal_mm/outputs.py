"""Output files: written atomically, never clobbering what they must not.

Every file the package writes for a user (``solve -o``, ``strategy -o``,
``export -o``, checkpoint entries, the scripts' results) goes through
:func:`atomic_write_bytes`. What it does depends on what the path names:

* **a new path or a regular file**: the data goes to a temporary file beside it,
  flushed to disk, then renamed over the target, so a reader (or a crash) sees
  either the old file or the complete new one, never half of one. A file that
  is replaced keeps its permission bits;
* **a symbolic link**: it is followed (through every link of a chain) and the
  file it points to is replaced as above; the link itself stays a link;
* **a character device or a FIFO** (``/dev/null``, a named pipe read by another
  program): the data is written through it, since renaming a regular file over it
  would destroy the device node (as root) or the pipe; ``special="replace"``
  renames over it instead (checkpoint entries, which are never meant to be
  anything but files), ``special="refuse"`` refuses it;
* **one of this process's open descriptors** (``/dev/stdout``, ``/dev/stderr``,
  ``/dev/fd/N``, ``/proc/self/fd/N``): the data is written to that descriptor,
  whatever it is open on: a pipe (``-o /dev/stdout | less``, whose link leads to
  no path at all), a terminal, or a file the shell opened (``> out.txt``; opening
  the file again would cut what the command already wrote there, and renaming
  over it would leave the shell's descriptor on a deleted file);
* **a directory, a socket or a block device**: refused with
  :class:`~optimal_mm.errors.OutputError` naming the path as the user gave it;
* **"-"** (:data:`STDOUT`): the data goes to standard output.

:func:`check_output_path` makes the same decisions without writing anything, so
that a command can refuse a bad ``-o`` before a long search rather than after it.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> target = os.path.join(folder, "tree.json")
>>> atomic_write_text(target, "{}")
>>> os.symlink(target, os.path.join(folder, "link.json"))
>>> atomic_write_text(os.path.join(folder, "link.json"), "[]")
>>> open(target).read(), os.path.islink(os.path.join(folder, "link.json"))
('[]', True)
>>> check_output_path(folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
optimal_mm.errors.OutputError: output ... is a directory
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from .errors import OutputError

#: The output path that means standard output.
STDOUT = "-"
_SPECIAL = ("write", "replace", "refuse")


def _mkstemp(folder: str, prefix: str, suffix: str = "") -> tuple[int, str]:
    """``(fd, path)`` of a new file in ``folder``, named ``prefix``, 12 random hex
    digits and ``suffix``, created exclusively (``O_EXCL``, never through a link)
    and readable by its owner alone: what :func:`tempfile.mkstemp` does. tempfile
    itself is not imported, for it imports shutil, random, bz2 and lzma: about 3 ms
    of the start-up of every command that writes a file (``solve`` writes its tree
    by default)."""
    flags = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    for _ in range(100):
        path = os.path.join(folder, prefix + os.urandom(6).hex() + suffix)
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", folder)


def is_stdout(path) -> bool:
    """Whether ``path`` is standard output: ``"-"``, as every ``-o`` option reads it,
    or a path naming descriptor 1 (``/dev/stdout``, ``/dev/fd/1``). A command that
    writes its result there sends its report to standard error instead."""
    if not isinstance(path, str):
        return False
    return path == STDOUT or (path.startswith("/") and _descriptor(path) == 1)


def _descriptor(text: str) -> int | None:
    """The number of this process's open descriptor that ``text`` names, or None.

    Follows the chain of links (``/dev/stdout`` -> ``/proc/self/fd/1``) and answers
    at the first step that lies in ``/dev/fd`` or ``/proc/self/fd`` (or
    ``/proc/PID/fd`` with this process's PID). A path reached through the chain is
    never resolved further: the last link of a descriptor that is open on a pipe
    reads ``pipe:[N]``, which is no path.

    >>> _descriptor("/dev/stdout") if os.path.islink("/dev/stdout") else 1
    1
    >>> _descriptor("/proc/self/fd/7"), _descriptor("tree.json")
    (7, None)
    """
    own = ("/dev/fd", "/proc/self/fd", f"/proc/{os.getpid()}/fd")
    step = os.path.abspath(text)
    for _ in range(40):  # the kernel's own limit on a chain of links
        folder, name = os.path.split(step)
        if folder in own and name.isdigit():
            return int(name)
        if not os.path.islink(step):
            return None
        step = os.path.normpath(os.path.join(folder, os.readlink(step)))
    return None


def _write_descriptor(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the open descriptor ``fd`` (after Python's own
    buffers for standard output and error, so that the order is kept)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _resolve(path) -> tuple[str, os.stat_result | None]:
    """The file that writing ``path`` reaches (links followed) and its status, or None."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise OutputError(f"an output must be named by a path, got {path!r}")
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if text == "":
        raise OutputError("output path is empty")
    target = os.path.realpath(text) if os.path.islink(text) else text
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise OutputError(f"cannot use output {text!r}: {exc.strerror or exc}") from None


def _kind(mode: int) -> str | None:
    """``"regular"``, ``"stream"`` (character device or FIFO), or None (refused)."""
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream"
    return None


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def check_output_path(path, special: str = "write") -> None:
    """Refuse, before any work, an output that :func:`atomic_write_bytes` could not write.

    Checks that the path is not a directory (or socket, or block device), and that
    the folder a new or regular file goes to exists and accepts a file (by making
    and removing an empty temporary file there: the one test that also holds for
    root, read-only mounts and full quotas). ``"-"`` is always fine.

    Raises
    ------
    OutputError
        Naming ``path`` as given, never a temporary file.
    """
    if is_stdout(path):
        return
    _check_special(special)
    fd = _open_descriptor(path, special)
    if fd is not None:
        return
    target, info = _resolve(path)
    text = os.fsdecode(os.fspath(path))
    if info is not None:
        kind = _kind(info.st_mode)
        if kind is None or (kind == "stream" and special == "refuse"):
            raise OutputError(f"output {text!r} is {_what(info.st_mode)}")
        if kind == "stream" and special == "write":
            if not os.access(target, os.W_OK):
                raise OutputError(f"output {text!r} cannot be written: permission denied")
            return
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise OutputError(_no_folder(text, folder))
    try:
        fd, probe = _mkstemp(folder, ".optimal-mm-probe.")
    except OSError as exc:
        raise OutputError(f"cannot write {text!r}: {exc.strerror or exc} in the folder "
                          f"{folder!r}") from None
    os.close(fd)
    os.unlink(probe)


def _open_descriptor(path, special: str) -> int | None:
    """The descriptor that ``path`` names (:func:`_descriptor`) where the data is to
    be written through it (``special="write"``), checked to be open; else None."""
    if special != "write" or not isinstance(path, (str, bytes, os.PathLike)):
        return None
    text = os.fsdecode(os.fspath(path))
    if not text:
        return None
    fd = _descriptor(text)
    if fd is not None:
        try:
            os.fstat(fd)
        except OSError:
            raise OutputError(f"output {text!r} names descriptor {fd}, which is not "
                              "open") from None
    return fd


def _no_folder(text: str, folder: str) -> str:
    what = "is not a folder" if os.path.exists(folder) else "does not exist"
    return f"cannot write {text!r}: the folder {folder!r} {what}"


def _check_special(special: str) -> None:
    if special not in _SPECIAL:
        raise ValueError(f"special must be one of {_SPECIAL}, got {special!r}")


def atomic_write_bytes(path, data: bytes, *, special: str = "write") -> None:
    """Write ``data`` to ``path`` so that it is never left half-written (module docstring).

    Parameters
    ----------
    path : str or path-like
        ``"-"`` for standard output; a symbolic link is followed.
    data : bytes
    special : {"write", "replace", "refuse"}
        What to do when ``path`` is a character device or a FIFO: write through it
        (default), rename a regular file over it, or refuse.

    Raises
    ------
    OutputError
        For a directory, socket or block device, or a missing or unwritable folder;
        the message names ``path`` as given.
    OSError
        When the write itself fails (a full disk, ``/dev/full``).
    """
    if is_stdout(path):
        out = sys.stdout
        out.flush()
        out.buffer.write(data)
        out.buffer.flush()
        return
    _check_special(special)
    try:
        _write(path, data, special)
    except OSError as exc:  # a full disk, /dev/full: told with the path as given
        if exc.filename is not None or isinstance(exc, BrokenPipeError):
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), os.fsdecode(os.fspath(path))) \
            from None


def _write(path, data: bytes, special: str) -> None:
    """:func:`atomic_write_bytes` for a path other than ``"-"``, ``special`` checked."""
    fd = _open_descriptor(path, special)
    if fd is not None:
        _write_descriptor(fd, data)
        return
    target, info = _resolve(path)
    text = os.fsdecode(os.fspath(path))
    mode = None
    if info is not None:
        kind = _kind(info.st_mode)
        if kind is None or (kind == "stream" and special == "refuse"):
            raise OutputError(f"output {text!r} is {_what(info.st_mode)}")
        if kind == "stream" and special == "write":
            with open(target, "wb") as fh:
                fh.write(data)
            return
        if kind == "regular":
            mode = stat.S_IMODE(info.st_mode)
    folder = os.path.dirname(target) or "."
    try:
        fd, tmp = _mkstemp(folder, f".{os.path.basename(target)}.", ".tmp")
    except (FileNotFoundError, NotADirectoryError):
        raise OutputError(_no_folder(text, folder)) from None
    except OSError as exc:
        raise OutputError(f"cannot write {text!r}: {exc.strerror or exc} in the folder "
                          f"{folder!r}") from None
    try:
        if mode is None:
            # _mkstemp makes the file private; give it the permissions open() would.
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.replace(tmp, target)
        except IsADirectoryError:  # made a directory in the meantime
            raise OutputError(f"output {text!r} is a directory") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path, text: str, *, special: str = "write") -> None:
    """Text version of :func:`atomic_write_bytes` (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"), special=special)
