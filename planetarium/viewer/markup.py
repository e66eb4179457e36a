"""A tiny HTML and SVG writer that escapes every attribute and every text node.

Object names and facts come from model output, which is hostile: nothing reaches the page
without :func:`html.escape`, and callers never concatenate markup themselves.  Bidirectional
formatting characters (embeddings, overrides, isolates, marks) are shown as visible
``⟨U+202E⟩`` markers, so model text cannot reorder what a reader sees ("Trojan Source").
"""

from __future__ import annotations

from html import escape

#: Labels longer than this are cut in drawings (the full name stays in the tooltip).
LABEL_CHARS = 18

#: Unicode's Bidi_Control characters: ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_SHOWN = {ord(c): f"⟨U+{ord(c):04X}⟩" for c in BIDI_CONTROLS}


def visible(text: str) -> str:
    """``text`` with every bidirectional control character replaced by a visible marker."""
    return text.translate(_SHOWN)


def element(tag: str, attrs: dict[str, object] | None = None, *children: str,
            text: str | None = None) -> str:
    """``<tag attr="...">children</tag>``; ``children`` must come from this module, ``text`` is
    escaped (attribute values too), bidirectional controls in either shown as markers."""
    rendered = "".join(
        f' {name.replace("_", "-")}="{escape(visible(str(value)), quote=True)}"'
        for name, value in (attrs or {}).items() if value is not None
    )
    inner = "".join(children) + (escape(visible(text)) if text is not None else "")
    return f"<{tag}{rendered}>{inner}</{tag}>" if inner or tag not in _VOID else f"<{tag}{rendered}/>"


_VOID = {"rect", "circle", "line", "path", "polygon", "ellipse", "input", "meta", "link"}


def isolated(text: str) -> str:
    """Model text inline among other text: in its own ``<bdi>``, so right-to-left letters in it
    cannot reorder its neighbours."""
    return element("bdi", None, text=text)


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
