"""The ``optimal-mm`` command line: a thin layer over the library.

Each sub-command lives in a module of this package that defines
``register(subparsers)``; the registered function takes the parsed arguments and
returns the exit status. Every :class:`~optimal_mm.errors.OptimalMMError` (and
any other ``ValueError`` or ``OSError`` from bad input) ends as one line on stderr
and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__
from ..errors import OptimalMMError


#: The modules of the commands, in the order ``--help`` lists them, each with the
#: commands it registers. Running a command builds only its module's parser and
#: imports only the library that module needs (a small game's whole ``solve`` is a
#: few tenths of a second, of which the other commands' imports were 5%);
#: tests/test_cli_registry.py checks that this list matches what the modules register.
COMMAND_MODULES = {
    "solve_cmds": ("solve",),
    "advice_cmds": ("hint",),
    "analysis_cmds": ("strategy", "analyze"),
    "tree_cmds": ("verify", "show", "export", "plot"),
    "play_cmds": ("play", "challenge", "match"),
    "symmetry_cmds": ("symmetry",),
    "web_cmds": ("serve", "site"),
    "impartial_cmds": ("impartial",),
}
_MODULE_OF = {command: module for module, commands in COMMAND_MODULES.items()
              for command in commands}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser: every command, or only those of ``command``'s module."""
    parser = argparse.ArgumentParser(
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
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("optimal-mm: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (OptimalMMError, ValueError) as exc:
        print(f"optimal-mm {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        name = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
        print(f"optimal-mm {args.command}: error: {exc.strerror or exc}{name}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
