"""A local web server for the page: standard library only, read-only, loopback.

``optimal-mm serve`` answers ``GET`` and ``HEAD`` for exactly the files of
:func:`optimal_mm.web.site.site_files`, taken once when the server starts:
``/`` is the page, ``/trees/index.json`` the catalogue, ``/trees/NAME`` a tree.
Any other path is 404 and any other method 501, so nothing on the machine but
those files can be read and nothing can be written. It listens on 127.0.0.1 by
default: the page is for the person at this machine; ``--host`` can open it to
others.

>>> server = make_server({"index.html": b"<!doctype html>"}, port=0)
>>> page_url(server).startswith("http://127.0.0.1:")
True
>>> server.server_close()
"""

from __future__ import annotations

import socket
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

#: Loopback only unless asked otherwise.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".gz": "application/gzip",  # served as is: the page decompresses it
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


class PageServer(ThreadingHTTPServer):
    """An HTTP server holding the site's files in memory (``files``: path -> bytes)."""

    daemon_threads = True

    def __init__(self, address, files: dict[str, bytes]):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.files = dict(files)
        super().__init__(address, _PageHandler)


class _PageHandler(BaseHTTPRequestHandler):
    server_version = "optimal_mm"

    def do_GET(self):
        self._answer(with_body=True)

    def do_HEAD(self):
        self._answer(with_body=False)

    def _answer(self, with_body: bool) -> None:
        path = unquote(urlsplit(self.path).path).lstrip("/") or "index.html"
        data = self.server.files.get(path)
        if data is None:
            self.send_error(HTTPStatus.NOT_FOUND, f"no such file: /{path}")
            return
        suffix = "." + path.rsplit(".", 1)[-1] if "." in path else ""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", CONTENT_TYPES.get(suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if with_body:
            self.wfile.write(data)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: the command prints its address once


def make_server(files: dict[str, bytes], host: str = DEFAULT_HOST,
                port: int = DEFAULT_PORT) -> PageServer:
    """A server for ``files``, bound but not yet serving.

    Parameters
    ----------
    files : dict of str to bytes
        URL path (no leading slash) to content, as :func:`~optimal_mm.web.site.site_files`
        gives; ``/`` serves ``index.html``.
    host : str
        Address to listen on; the loopback interface by default.
    port : int
        Port to listen on; 0 picks a free one (see :func:`page_url`).

    Returns
    -------
    PageServer
        Call ``serve_forever()`` on it (in a thread, for tests), then ``server_close()``.

    Raises
    ------
    OSError
        When the address cannot be bound (a port in use, an unknown host).
    """
    return PageServer((host, port), files)


def page_url(server: PageServer) -> str:
    """The address of the page, e.g. ``http://127.0.0.1:8000/``."""
    host, port = server.server_address[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"
