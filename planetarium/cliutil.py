"""Click parameter types shared by every command group (a base layer: no Planetarium logic)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from .limits import LimitValueError, check_seconds


class Seconds(click.ParamType):
    """A time limit: finite, positive, bounded (``nan`` or ``inf`` would switch limits off)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        try:
            what = param.opts[0] if param is not None and param.opts else "seconds"
            return check_seconds(float(value), what)
        except (ValueError, LimitValueError) as err:
            self.fail(str(err), param, ctx)


SECONDS = Seconds()


class OutDir(click.Path):
    """An output folder that can be created: no file in the way, a writable place.

    Checked when the command line is read, so a typo is one line before minutes of work (or a
    model load) rather than a ``NotADirectoryError`` at the end.
    """

    def __init__(self) -> None:
        super().__init__(file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))  # a str (no path_type)
        place = path
        while not place.exists() and place != place.parent:
            place = place.parent
        if not place.is_dir():
            self.fail(f"{value}: {place} is a file, not a folder", param, ctx)
        if not os.access(place, os.W_OK | os.X_OK):
            self.fail(f"{value}: {place} is not writable", param, ctx)
        return str(path)


OUT_DIR = OutDir()


#: ``--resume`` of the scoring commands that write one row per question to ``--out``.
RESUME = click.option(
    "--resume", is_flag=True,
    help="Keep the rows a killed run wrote to --out (they must be those of the first questions "
         "selected, in order) and score only the questions after them.")


def file_id(fd_or_path: int | str) -> tuple[int, int] | None:
    """``(device, inode)`` of a regular file (a descriptor or a path), else ``None``."""
    try:
        info = os.fstat(fd_or_path) if isinstance(fd_or_path, int) else os.stat(fd_or_path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def refuse_overwriting_inputs(out: str, inputs: Iterable[str]) -> None:
    """A ``click.ClickException`` when ``--out`` is one of the files a command reads (by device
    and inode, so links are caught) or lies inside a folder it reads (the next run would read the
    results as input): writing it would destroy or change what the command was given."""
    out_id, out_path = file_id(out), Path(out).resolve()
    for source in inputs:
        inside = Path(source).is_dir() and Path(source).resolve() in out_path.parents
        if inside or (out_id is not None and file_id(source) == out_id):
            raise click.ClickException(f"--out {out} would overwrite or join an input "
                                       f"({source}); write the results elsewhere")
