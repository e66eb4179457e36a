"""Click parameter types shared by every command group (a base layer: no Planetarium logic)."""

from __future__ import annotations

import click

from .limits import LimitValueError, check_seconds


class Seconds(click.ParamType):
    """A time limit: finite, positive, bounded (``nan`` or ``inf`` would switch limits off)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        try:
            what = param.opts[0] if param is not None and param.opts else "seconds"
            return check_seconds(float(value), what)
        except (ValueError, LimitValueError) as err:
            self.fail(str(err), param, ctx)


SECONDS = Seconds()
