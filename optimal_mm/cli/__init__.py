"""The ``optimal-mm`` command line: a thin layer over the library.

Each sub-command lives in a module of this package that defines
``register(subparsers)``; the registered function takes the parsed arguments and
returns the exit status. Every :class:`~optimal_mm.errors.OptimalMMError` (and
any other ``ValueError``, ``OverflowError`` or ``OSError`` from bad input) ends as
one line on stderr and exit status 2, never a traceback (:func:`guarded`, which the
scripts of ``scripts/`` end through too).

Signals and pipes (``docs/RELIABILITY.md``): Ctrl-C ends a command with one line
and status 130; SIGTERM is handled the same way (:class:`Terminated`, status 143),
so a long search keeps its checkpoint and ends its workers. A reader that closes
standard output early (``optimal-mm show T | head``) ends the command quietly with
status 0; any other broken pipe (a worker's) is a failure with a message.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import select
import signal
import sys

from .. import __version__
from ..errors import OptimalMMError, TimeLimitReached

# numpy's OpenBLAS starts a thread per core at import; this package never calls it (its
# arrays hold integers, BLAS is for floating point), so one thread spares each command
# and its worker processes the threads' start and their share of the cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


#: The modules of the commands, in the order ``--help`` lists them, each with the
#: commands it registers. Running a command builds only its module's parser and
#: imports only the library that module needs (a small game's whole ``solve`` is a
#: few tenths of a second, of which the other commands' imports were 5%);
#: tests/test_cli_registry.py checks that this list matches what the modules register.
COMMAND_MODULES = {
    "solve_cmds": ("solve",),
    "checkpoint_cmds": ("checkpoint",),
    "advice_cmds": ("hint",),
    "analysis_cmds": ("strategy", "analyze"),
    "tree_cmds": ("verify", "show", "export", "plot"),
    "play_cmds": ("play", "challenge", "match"),
    "within_cmds": ("within",),
    "symmetry_cmds": ("symmetry",),
    "web_cmds": ("serve", "site"),
    "impartial_cmds": ("impartial",),
}
_MODULE_OF = {command: module for module, commands in COMMAND_MODULES.items()
              for command in commands}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C so that the same clean-up runs."""


def on_sigterm(signum, frame):
    """The SIGTERM handler of a command (and of the scripts): raise :class:`Terminated`."""
    raise Terminated()


#: The exit status of a run stopped by its ``--time-limit`` (that of ``timeout(1)``).
TIME_LIMIT_STATUS = 124


def interrupted_status(exc: BaseException) -> int:
    """Exit status after an interruption: 124 for a time limit, 143 for SIGTERM, 130
    for Ctrl-C."""
    if isinstance(exc, TimeLimitReached):
        return TIME_LIMIT_STATUS
    return 128 + signal.SIGTERM if isinstance(exc, Terminated) else 128 + signal.SIGINT


def interruption(exc: BaseException) -> str:
    """How a message names an interruption: ``interrupted``, ``terminated`` or
    ``time limit of 60 s reached``."""
    if isinstance(exc, TimeLimitReached):
        return str(exc)
    return "terminated" if isinstance(exc, Terminated) else "interrupted"


def at_least(least: int, most: int | None = None):
    """An argparse ``type`` for the commands' and the scripts' counts: an integer of
    at least ``least`` (and at most ``most``), else argparse's one-line error, status
    2, before any work.

    >>> at_least(1)("3"), at_least(2, 64)("64")
    (3, 64)
    >>> at_least(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1, got 0
    >>> at_least(2, 64)("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not an integer: 'x'
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < least or most is not None and value > most:
            bounds = f"{least}..{most}" if most is not None else f"at least {least}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value
    return parse


def add_time_limit(group, what: str) -> None:
    """The ``--time-limit SECONDS`` option of a long command; ``what`` says what is
    kept when it passes."""
    group.add_argument("--time-limit", type=float, metavar="SECONDS",
                       help=f"stop after SECONDS as Ctrl-C would (exit "
                            f"{TIME_LIMIT_STATUS}), saying {what}")


def time_limited(seconds: float | None):
    """The block under ``--time-limit`` (:class:`optimal_mm.stopping.time_limit`), or
    under no limit (``None``); the commands refuse a bad limit up front
    (:func:`optimal_mm.errors.check_time_limit`). The kernels are loaded first (built,
    once per machine, before the clock starts)."""
    if seconds is None:
        return contextlib.nullcontext()
    from .. import kernels
    from ..stopping import time_limit

    kernels.backend()
    return time_limit(seconds)


def stdout_closed() -> bool:
    """Whether the reader of standard output has gone (a pipe or socket closed).

    Polls the descriptor: a pipe whose reading end is closed reports an error
    condition. Used to tell a closed stdout, which may end a command quietly, from
    any other broken pipe.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        events = poller.poll(0)
    except (AttributeError, OSError, ValueError):
        return False
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the terminal's width: left to find it, it imports
    shutil (and with it bz2 and lzma, 5 ms), which every command paid, as adding an
    argument makes a formatter (to check its metavar)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size finds it: ``$COLUMNS``, else
    the width of standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Parser(argparse.ArgumentParser):
    """argparse's parser with :class:`_HelpFormatter`; the sub-command parsers are of
    the same class (``add_subparsers`` makes them so)."""

    def __init__(self, *args, formatter_class=_HelpFormatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser: every command, or only those of ``command``'s module."""
    parser = _Parser(
        prog="optimal-mm",
        description="Exact optimal strategies for Mastermind-family games: solve, prove, "
                    "export and replay.",
    )
    parser.add_argument("--version", action="version", version=f"optimal_mm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    names = [_MODULE_OF[command]] if command in _MODULE_OF else list(COMMAND_MODULES)
    for name in names:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        # imports the command's library: a Ctrl-C may come meanwhile
        parser = build_parser(argv[0] if argv else None)
    except KeyboardInterrupt:
        print("optimal-mm: interrupted", file=sys.stderr)
        return 130
    gc.enable()  # off for the imports when run() is the entry point
    args = parser.parse_args(argv)
    return guarded(f"optimal-mm {args.command}", lambda: args.func(args))


def guarded(prog: str, call) -> int:
    """The exit status of ``call()`` (a command, or a script's ``main``), every way it
    can end on bad input or an interruption ended as the command line ends it, never
    with a traceback: one line on stderr that starts with ``prog`` and status 2 for an
    error of this package, any other ``ValueError`` or ``OverflowError`` (an option
    too big for a C integer), or an ``OSError`` (with the file it names); 130, 143 or
    124 for Ctrl-C, SIGTERM (raised as Ctrl-C is, while ``call`` runs) or a time
    limit; quietly 0 when the reader of standard output has gone."""
    previous = None
    if threading_main():
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        return int(call() or 0)
    except KeyboardInterrupt as exc:
        print(f"{prog}: {interruption(exc)}", file=sys.stderr)
        return interrupted_status(exc)
    except BrokenPipeError as exc:
        if stdout_closed():
            # Nothing more can be shown; keep Python from complaining at exit.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0
        print(f"{prog}: error: a pipe to another process broke ({exc.strerror or exc})",
              file=sys.stderr)
        return 2
    except (OptimalMMError, ValueError, OverflowError) as exc:
        from ..render import escape_control  # one line, whatever the message quotes

        print(f"{prog}: error: {escape_control(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
        print(f"{prog}: error: {exc.strerror or exc}{name}", file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def run() -> None:
    """The process's entry point (``optimal-mm`` and ``python -m optimal_mm``):
    :func:`main`, with the garbage collector kept out of the start-up and the exit.

    Importing numpy and the command's library makes tens of thousands of objects,
    which the cyclic collector walks again and again as they come (it is off until
    :func:`main` has built its parser); and the interpreter's last collection, at
    exit, walks every object left, which :func:`gc.freeze` spares (the objects are
    freed as modules are torn down, as always; only cycles among them are left to
    the operating system; the standard streams are flushed at exit as always). Measured on
    the 2-core machine, medians of 9: ``python -c "import numpy"`` 92 ms, 81 ms
    with a freeze before exit, 77 ms with the collector off for the import too.
    Not in :func:`main` itself, which tests call many times in one process."""
    gc.disable()
    status = main()
    gc.freeze()
    sys.exit(status)


def threading_main() -> bool:
    """Whether this is the main thread (the only one that may set signal handlers)."""
    import threading

    return threading.current_thread() is threading.main_thread()


if __name__ == "__main__":  # pragma: no cover
    run()
