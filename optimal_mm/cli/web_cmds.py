"""The page in a browser: ``serve`` (a local web server) and ``site`` (static files).

Both offer the same page (:mod:`optimal_mm.web`) with the same trees: those
shipped with the package, those of ``results/trees/`` in a source checkout, and
those of any ``--trees DIR``.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import OptimalMMError
from ..web.server import DEFAULT_HOST, DEFAULT_PORT, make_server, page_url
from ..web.site import check_site_target, default_tree_sources, site_files, write_site


def register(sub) -> None:
    """Add ``serve`` and ``site`` to the parser."""
    p = sub.add_parser(
        "serve", help="serve the page on a local web server",
        description="Serve the page (play, challenge, browse trees) and the shipped trees "
                    "as read-only files, on the loopback interface unless --host says "
                    "otherwise. Prints the address to open; Ctrl-C stops it.")
    p.add_argument("--port", "-p", type=_port, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST}, this machine only)")
    _add_trees_option(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "site", help="write the page and the trees as a static site",
        description="Write the page, the shipped trees and their catalogue "
                    "(trees/index.json) into DIR, ready to be published by any static web "
                    "server. DIR is built under a temporary name and renamed into place.")
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="directory to write")
    p.add_argument("--force", action="store_true",
                   help="replace DIR when it exists and is not empty")
    _add_trees_option(p)
    p.set_defaults(func=cmd_site)


def _add_trees_option(p) -> None:
    p.add_argument("--trees", metavar="DIR", action="append", default=[],
                   help="also offer the tree files (.json, .json.gz) of DIR (repeatable)")


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0..65535, got {text!r}")
    return int(text)


def _files(args) -> dict[str, bytes]:
    files, skipped = site_files(default_tree_sources() + args.trees)
    for where, reason in skipped:
        print(f"skipped {where}: {reason}", file=sys.stderr)
    return files


def _count_trees(files: dict[str, bytes]) -> int:
    return sum(1 for name in files if name.startswith("trees/") and name != "trees/index.json")


def cmd_serve(args) -> int:
    # The address first: a port in use is refused before the trees are replayed.
    try:
        server = make_server({}, args.host, args.port)
    except OSError as exc:
        raise OptimalMMError(f"cannot listen on {args.host} port {args.port}: "
                             f"{exc.strerror or exc}") from None
    try:
        files = server.files = _files(args)
        print(f"serving the page with {_count_trees(files)} trees at {page_url(server)} "
              f"(Ctrl-C stops)", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(f"note: {args.host} is not the loopback address: other machines can read "
                  f"the page and the trees", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
    return 0


def cmd_site(args) -> int:
    check_site_target(args.output, args.force)  # a wrong DIR is refused at once
    files = _files(args)
    write_site(args.output, files, force=args.force)
    size = sum(len(data) for data in files.values())
    print(f"wrote {args.output}: the page and {_count_trees(files)} trees "
          f"({len(files)} files, {size:,} bytes)")
    return 0
