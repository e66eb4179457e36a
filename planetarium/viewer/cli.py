"""``planetarium eval view RUN...``: write the static viewer, optionally serve it on localhost.

The command sits above the llm layer (it reads what ``eval run`` and ``eval grade`` wrote), so
:mod:`planetarium.cli` adds it to the ``eval`` group.
"""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import click

from ..errors import PlanetariumError

#: --serve binds here only: the pages hold model output and run paths, not for the network.
HOST = "127.0.0.1"


def make_server(directory: str | Path, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server for ``directory`` on 127.0.0.1 (``port`` 0: any free port)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    return ThreadingHTTPServer((HOST, port), handler)


class _QuietHandler(SimpleHTTPRequestHandler):
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
