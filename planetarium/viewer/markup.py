"""A tiny HTML and SVG writer that escapes every attribute and every text node.

Object names and facts come from model output, which is hostile: nothing reaches the page
without :func:`html.escape`, and callers never concatenate markup themselves.
"""

from __future__ import annotations

from html import escape

#: Labels longer than this are cut in drawings (the full name stays in the tooltip).
LABEL_CHARS = 18


def element(tag: str, attrs: dict[str, object] | None = None, *children: str,
            text: str | None = None) -> str:
    """``<tag attr="...">children</tag>``; ``children`` must come from this module, ``text`` is
    escaped."""
    rendered = "".join(
        f' {name.replace("_", "-")}="{escape(str(value), quote=True)}"'
        for name, value in (attrs or {}).items() if value is not None
    )
    inner = "".join(children) + (escape(text) if text is not None else "")
    return f"<{tag}{rendered}>{inner}</{tag}>" if inner or tag not in _VOID else f"<{tag}{rendered}/>"


_VOID = {"rect", "circle", "line", "path", "polygon", "ellipse", "input", "meta"}


def label(text: str) -> str:
    """A name short enough to draw."""
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


#: Drawings are shown this much larger than their coordinates (and shrink to fit a narrow column).
SCALE = 1.4


def document(width: float, height: float, body: list[str], title: str) -> str:
    """An inline ``<svg>`` with an accessible title."""
    return element(
        "svg",
        {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {width:.0f} {height:.0f}",
         "width": f"{width * SCALE:.0f}", "height": f"{height * SCALE:.0f}", "role": "img",
         "class": "scene",
         "font_family": "sans-serif", "font_size": 11},
        element("title", text=title), *body,
    )
