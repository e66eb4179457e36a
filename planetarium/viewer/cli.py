"""``planetarium eval view RUN...``: write the static viewer, optionally serve it on localhost.

The command sits above the llm layer (it reads what ``eval run`` and ``eval grade`` wrote), so
:mod:`planetarium.cli` adds it to the ``eval`` group.
"""

from __future__ import annotations

import functools
import os
import re
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

import click

from ..errors import PlanetariumError
from .assets import SERVE_HEADERS

#: --serve binds here only: the pages hold model output and run paths, not for the network.
HOST = "127.0.0.1"


def make_server(directory: str | Path, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server for ``directory`` on 127.0.0.1 (``port`` 0: any free port): files only
    (no directory listings), to requests naming this machine (``Host`` 127.0.0.1 or localhost,
    with the server's port: a page of another site that a DNS rebinding points here is
    refused), with the viewer's security headers (:data:`assets.SERVE_HEADERS`)."""
    handler = functools.partial(_ViewerHandler, directory=str(directory))
    return ThreadingHTTPServer((HOST, port), handler)


class _ViewerHandler(SimpleHTTPRequestHandler):
    def send_head(self) -> BinaryIO | None:
        if not self._host_allowed():
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only to "
                            f"127.0.0.1 or localhost, port {self._port()}")
            return None
        return super().send_head()

    def _host_allowed(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        match = re.fullmatch(r"(127\.0\.0\.1|localhost)(?::(\d+))?", host)
        return match is not None and match.group(2) in (None, self._port())

    def _port(self) -> str:
        address = self.server.server_address  # a (host, port) pair for a TCP server
        return str(address[1]) if isinstance(address, tuple) else ""

    def list_directory(self, path: str | os.PathLike[str]) -> BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND, "no directory listings")
        return None

    def end_headers(self) -> None:
        for name, value in SERVE_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@click.command("view")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--out", type=click.Path(file_okay=False),
              help="Output directory (default RUN_DIR/view, or next to the runs).")
@click.option("--label", "labels", multiple=True, metavar="LABEL",
              help="Name a run; once per run, in the order of RUN_DIRS (as in 'eval report').")
@click.option("--serve", is_flag=True, help="Also serve the pages on http://127.0.0.1:PORT/.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port for --serve (0: any free port).")
def view_command(run_dirs: tuple[str, ...], out: str | None, labels: tuple[str, ...],
                 serve: bool, port: int) -> None:
    """A static, offline HTML viewer of graded runs: a filterable table of items and a page
    per item with its description, answers, verdicts, explanation and pictures of both states."""
    from . import build_viewer

    if out is None:
        first = Path(run_dirs[0])
        out = str(first / "view" if len(run_dirs) == 1 else first.parent / "view")
    try:
        index = build_viewer(list(run_dirs), out, labels)
    except PlanetariumError as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"{index} (open it in a browser; it loads nothing from the network)")
    if serve:
        try:
            server = make_server(out, port)
        except OSError as err:
            raise click.ClickException(f"cannot serve on {HOST}:{port}: {err.strerror or err}") from err
        click.echo(f"serving on http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
