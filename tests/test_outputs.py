"""Output files: atomic, never clobbering a link, a device or a pipe; checked up front.

Holds the promises of docs/RELIABILITY.md, "Outputs". The tests run as root here and
in CI: a test that needs permissions to bite is skipped for root.
"""

import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from optimal_mm.cli import main
from optimal_mm.errors import OutputError
from optimal_mm.outputs import (atomic_write_bytes, atomic_write_text, check_output_path,
                                 is_stdout)
from optimal_mm.tree import Strategy, atomic_write_bytes as tree_writer

from processes import fresh_python

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def device(tmp_path, name: str, minor: int) -> str:
    """A character device to write to, never the machine's own as root.

    As root, a writer that wrongly renames over its target would replace the real
    /dev/null for every process on the machine: root gets a private node with the
    same numbers (1, minor) in ``tmp_path`` instead. Other users get the real one,
    which they cannot replace.
    """
    if not AS_ROOT:
        return f"/dev/{name}"
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (OSError, AttributeError):
        pytest.skip("cannot make a device node here")
    return str(path)


@pytest.fixture
def null(tmp_path):
    return device(tmp_path, "null", 3)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, command: str):
    assert err.startswith(f"optimal-mm {command}: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err


def test_the_writer_keeps_its_old_home_and_signature(tmp_path):
    # Other modules import it from optimal_mm.tree, positional (path, data).
    assert tree_writer is atomic_write_bytes
    tree_writer(tmp_path / "a.bin", b"xyz")
    assert (tmp_path / "a.bin").read_bytes() == b"xyz"


def test_a_new_file_gets_the_mode_open_would_give_and_no_temporary_stays(tmp_path):
    umask = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "new.json", "{}")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
    assert os.listdir(tmp_path) == ["new.json"]


def test_the_temporary_name_is_taken_afresh_when_it_exists(tmp_path, monkeypatch):
    # The temporary file is created exclusively: a name already there (a file of
    # another writer, or a link planted in the folder) is never opened; the next
    # random name is tried, and the link's target is left alone.
    from optimal_mm import outputs

    victim = tmp_path / "victim"
    victim.write_text("keep")
    taken = [b"\x00" * 6, b"\x00" * 6, b"\x01" * 6]
    os.symlink(victim, tmp_path / (".tree.json." + "00" * 6 + ".tmp"))
    monkeypatch.setattr(outputs.os, "urandom", lambda n: taken.pop(0))
    atomic_write_text(tmp_path / "tree.json", "[]")
    assert (tmp_path / "tree.json").read_text() == "[]"
    assert victim.read_text() == "keep" and not taken
    monkeypatch.undo()
    fd, path = outputs._mkstemp(str(tmp_path), "p.", ".s")
    os.close(fd)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_writing_a_file_imports_no_tempfile():
    """Start-up: tempfile imports shutil, random, bz2 and lzma (about 3 ms), and every
    ``solve`` writes its tree."""
    out = fresh_python(
        "import sys, tempfile as t, os; d = t.mkdtemp(); del sys.modules['tempfile']; "
        "from optimal_mm.outputs import atomic_write_text, check_output_path; "
        "p = os.path.join(d, 'x.json'); check_output_path(p); atomic_write_text(p, '1'); "
        "print('tempfile' in sys.modules, open(p).read())")
    assert out.split() == ["False", "1"]


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its mode


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "made.json")
    atomic_write_text(link, "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


def test_dev_null_is_written_through_not_replaced(null):
    before = os.stat(null)
    atomic_write_bytes(null, b"tree")
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_dev_full_fails_with_an_error_and_stays_a_device(tmp_path, capsys):
    full = device(tmp_path, "full", 7)
    with pytest.raises(OSError) as info:
        atomic_write_bytes(full, b"x" * 100_000)
    assert info.value.filename == str(full)  # the message names the output
    assert stat.S_ISCHR(os.stat(full).st_mode)
    code, out, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet", "-o", full)
    assert code == 2 and f"No space left on device {str(full)!r}" in err
    one_line_error(err, "solve")


def test_a_gz_name_in_capitals_is_compressed_too(tmp_path, capsys):
    out = tmp_path / "T.JSON.GZ"
    code, _, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet", "-o", str(out))
    assert code == 0, err
    assert out.read_bytes()[:2] == b"\x1f\x8b"  # gzip's magic number
    assert Strategy.load(out).validate().secrets == 9


def _read_fifo(path, into):
    with open(path, "rb") as fh:
        into.append(fh.read())


def test_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got), daemon=True)
    reader.start()
    atomic_write_bytes(fifo, b"through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_replace_and_refuse_modes_for_special_files(tmp_path):
    fifo = tmp_path / "entry"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        atomic_write_bytes(fifo, b"x", special="refuse")
    atomic_write_bytes(fifo, b"x", special="replace")  # never blocks on the pipe
    assert fifo.read_bytes() == b"x" and fifo.is_file()


@pytest.mark.parametrize("make, words", [
    (lambda p: p.mkdir(), "is a directory"),
    (lambda p: None, "does not exist"),
])
def test_bad_paths_are_refused_naming_the_users_path(tmp_path, make, words):
    path = tmp_path / "out.json"
    make(path)
    target = path if path.exists() else tmp_path / "missing" / "out.json"
    for call in (lambda: check_output_path(target),
                 lambda: atomic_write_bytes(target, b"x")):
        with pytest.raises(OutputError, match=words) as info:
            call()
        assert str(target) in str(info.value) and ".tmp" not in str(info.value)


@pytest.mark.skipif(AS_ROOT, reason="root may write in any folder")
def test_an_unwritable_folder_is_refused_up_front(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="Permission denied"):
            check_output_path(folder / "t.json")
    finally:
        folder.chmod(0o700)


def test_dash_is_standard_output(capsysbinary):
    atomic_write_bytes("-", b"to stdout")
    assert capsysbinary.readouterr().out == b"to stdout"



# ------------------------------------------------------------ descriptors
needs_dev_fd = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")


@needs_dev_fd
def test_a_descriptor_path_is_written_to_the_open_descriptor():
    """/dev/fd/N of a pipe leads to ``pipe:[inode]``, no path to resolve: the data
    goes down the descriptor itself, and /dev/stdout counts as standard output."""
    read_end, write_end = os.pipe()
    try:
        check_output_path(f"/dev/fd/{write_end}")
        atomic_write_bytes(f"/dev/fd/{write_end}", b"down the pipe")
        atomic_write_text(f"/proc/self/fd/{write_end}", " twice")
        os.close(write_end)
        with os.fdopen(read_end, "rb") as fh:
            assert fh.read() == b"down the pipe twice"
    finally:
        for fd in (read_end, write_end):
            try:
                os.close(fd)
            except OSError:
                pass
    assert is_stdout("/dev/stdout") and is_stdout("/dev/fd/1") and is_stdout("-")
    assert not is_stdout("/dev/stderr") and not is_stdout("stdout")


@needs_dev_fd
def test_a_closed_descriptor_is_refused_in_one_line():
    read_end, write_end = os.pipe()
    os.close(read_end)
    os.close(write_end)
    for call in (lambda: check_output_path(f"/dev/fd/{write_end}"),
                 lambda: atomic_write_bytes(f"/dev/fd/{write_end}", b"x")):
        with pytest.raises(OutputError, match=f"descriptor {write_end}, which is not open"):
            call()


@needs_dev_fd
@pytest.mark.parametrize("into", ["pipe", "file"])
def test_solve_writes_dev_stdout_through_a_pipe_or_a_file(tmp_path, into):
    """``-o /dev/stdout`` behaves as ``-o -``: the tree alone on standard output,
    whether the shell gave it a pipe (where the link leads to no file) or a file
    (which must not be cut or replaced), and the report on standard error."""
    command = [sys.executable, "-m", "optimal_mm", "solve", "p2c3", "--jobs", "1",
               "--quiet", "-o", "/dev/stdout"]
    if into == "pipe":
        done = subprocess.run(command, capture_output=True, cwd=tmp_path)
        out = done.stdout
    else:
        target = tmp_path / "out.json"
        with open(target, "wb") as fh:
            done = subprocess.run(command, stdout=fh, stderr=subprocess.PIPE, cwd=tmp_path)
        out = target.read_bytes()
    assert done.returncode == 0, done.stderr
    assert Strategy.from_dict(json.loads(out), strict=True).validate().secrets == 9
    assert b"wrote the tree to standard output" in done.stderr


# ------------------------------------------------------------ the commands
def test_solve_refuses_a_bad_output_before_searching(tmp_path, capsys):
    cp = tmp_path / "cp"
    code, out, err = run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet", "--checkpoint",
                         str(cp), "-o", str(tmp_path / "nowhere" / "t.json"))
    assert code == 2 and out == ""
    one_line_error(err, "solve")
    assert "nowhere" in err and ".tmp" not in err
    assert not list(cp.glob("task-*"))  # no search ran


@pytest.mark.parametrize("command", [
    ["solve", "p2c3", "--jobs", "1", "--quiet"],
    ["strategy", "p2c3", "--heuristic", "knuth"],
])
def test_dev_null_and_a_directory_as_output(tmp_path, capsys, command, null):
    code, out, err = run(capsys, *command, "-o", null)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(null).st_mode)
    code, out, err = run(capsys, *command, "-o", str(tmp_path))
    assert code == 2 and "is a directory" in err
    one_line_error(err, command[0])


@pytest.mark.parametrize("command", [
    ["solve", "p2c3", "--jobs", "1", "--quiet"],
    ["strategy", "p2c3", "--heuristic", "knuth"],
])
def test_dash_writes_the_tree_to_stdout_and_the_report_to_stderr(tmp_path, capsys, command):
    code, out, err = run(capsys, *command, "-o", "-")
    assert code == 0, err
    doc = json.loads(out)
    assert Strategy.from_dict(doc, strict=True).validate().secrets == 9
    assert "wrote the tree to standard output" in err
    assert not (tmp_path / "-").exists() and not os.path.exists("-")


def test_export_dash_and_special_files(tmp_path, capsys, null):
    tree = tmp_path / "t.json"
    assert run(capsys, "solve", "p2c3", "--jobs", "1", "--quiet", "-o", str(tree))[0] == 0
    code, out, err = run(capsys, "export", str(tree), "--to", "dot", "-o", "-")
    assert code == 0 and out.startswith("digraph") and "standard output" in err
    code, out, err = run(capsys, "export", str(tree), "-o", "-")
    assert code == 2 and "--to" in err
    assert run(capsys, "export", str(tree), "--to", "graphml", "-o", null)[0] == 0
    assert stat.S_ISCHR(os.stat(null).st_mode)
    fifo = tmp_path / "pipe.dot"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got), daemon=True)
    reader.start()
    code, out, err = run(capsys, "export", str(tree), "-o", str(fifo))
    reader.join(10)
    assert code == 0 and got and got[0].startswith(b"digraph")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_strategy_save_follows_a_link_to_the_tree(tmp_path, capsys):
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run(capsys, "strategy", "p2c3", "--heuristic", "knuth", "-o", str(link))[0] == 0
    assert link.is_symlink() and Strategy.load(real).validate().secrets == 9
