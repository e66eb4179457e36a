"""What a scene drawer gets (a :class:`Scene`) and draws on (a :class:`Canvas`).

A scene is one state of one problem — its initial state or its goal — as facts in the ground
truth's object names, with the facts (and objects) an explanation singles out *marked*:
``missing`` (the ground truth has it, the answer does not) or ``extra`` (the other way round).
Every shape a drawer adds says which facts it shows; the canvas colours a shape whose facts are
marked and remembers what was drawn, so whatever a drawer could not place is listed under the
picture instead of silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..markup import document, element

Fact = tuple[str, ...]
MISSING = "missing"
EXTRA = "extra"
#: How a marked shape is stroked: colour *and* pattern, so the two differ without colour vision.
MARK_STYLE = {
    MISSING: {"stroke": "#c62828", "stroke_width": 3, "stroke_dasharray": "6 3"},
    EXTRA: {"stroke": "#1565c0", "stroke_width": 3},
}
MARK_COLOUR = {mark: style["stroke"] for mark, style in MARK_STYLE.items()}
INK = "#37474f"
MARGIN = 10


def fact_text(fact: Fact) -> str:
    """``("on", "b3", "b1")`` as PDDL: ``(on b3 b1)``."""
    return "(" + " ".join(fact) + ")"


def parse_fact(text: str) -> Fact:
    """``"(on b3 b1)"`` back to a tuple (lower case, as the PDDL reader keeps atoms)."""
    return tuple(text.strip().strip("()").lower().split())


@dataclass(frozen=True)
class Scene:
    """One state to draw, in ground-truth names, with the differences to highlight."""

    domain: str
    objects: tuple[str, ...]
    types: dict[str, str]
    facts: frozenset[Fact]
    marks: dict[Fact, str] = field(default_factory=dict)
    object_marks: dict[str, str] = field(default_factory=dict)
    title: str = ""
    #: The same problem's initial state when drawing its goal: where things are (the tile grid,
    #: the map, the rooms), used for the layout only, never drawn as facts of this scene.
    context: frozenset[Fact] = frozenset()

    def with_predicate(self, predicate: str, arity: int | None = None) -> list[Fact]:
        """The facts of one predicate (of the given arity), in a stable order."""
        return sorted(f for f in self.facts
                      if f[0] == predicate and (arity is None or len(f) == arity + 1))

    def layout_facts(self, predicate: str, arity: int) -> list[Fact]:
        """Like :meth:`with_predicate`, over this scene's facts and its context."""
        return sorted(f for f in self.facts | self.context
                      if f[0] == predicate and len(f) == arity + 1)

    def of_type(self, *kinds: str) -> list[str]:
        return [o for o in self.objects if self.types.get(o) in kinds]


@dataclass(frozen=True)
class Drawing:
    """An inline SVG and the facts it could not show (with their marks)."""

    svg: str
    undrawn: tuple[tuple[Fact, str | None], ...]


class Canvas:
    """Collects SVG shapes, grows to fit them, and tracks which facts were drawn."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.parts: list[str] = []
        self.drawn: set[Fact] = set()
        self.width = 0.0
        self.height = 0.0

    def mark_of(self, facts: Iterable[Fact] = (), objects: Iterable[str] = ()) -> str | None:
        """The mark a shape showing ``facts`` / ``objects`` gets (missing wins over extra)."""
        marks = {self.scene.marks.get(f) for f in facts} | {self.scene.object_marks.get(o)
                                                           for o in objects}
        return MISSING if MISSING in marks else EXTRA if EXTRA in marks else None

    def shape(self, tag: str, attrs: dict[str, object], facts: Iterable[Fact] = (),
              objects: Iterable[str] = (), tooltip: str | None = None,
              fill_mark: bool = False) -> None:
        """Add one shape showing ``facts`` (and ``objects``), stroked by their mark (and filled
        with its colour when ``fill_mark``: thin bars and small dots need it to be seen)."""
        facts = [f for f in facts if f in self.scene.facts]
        objects = list(objects)
        mark = self.mark_of(facts, objects)
        styled = {**attrs, **MARK_STYLE[mark]} if mark else attrs
        if mark and fill_mark:
            styled["fill"] = MARK_COLOUR[mark]
        if mark:
            styled["class"] = f"mark-{mark}"
            styled["data-mark"] = mark
        words = [fact_text(f) for f in facts] or list(objects)
        title = tooltip or " ".join(words)
        if mark:
            title += f" — {mark}"
        self.parts.append(element(tag, styled, element("title", text=title) if title else ""))
        self.drawn.update(facts)
        self._grow(tag, attrs)

    def text(self, x: float, y: float, words: str, **attrs: object) -> None:
        """A label (escaped); ``anchor`` middle by default."""
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("fill", INK)
        self.parts.append(element("text", {"x": f"{x:.1f}", "y": f"{y:.1f}", **attrs}, text=words))
        half = len(words) * 3.5 if attrs["text_anchor"] == "middle" else len(words) * 7
        self.width = max(self.width, x + half)
        self.height = max(self.height, y + 4)

    def _grow(self, tag: str, a: dict[str, object]) -> None:
        def num(key: str) -> float:
            value = a.get(key, 0)
            if not isinstance(value, (int, float, str)):  # what float() takes
                raise TypeError(f"<{tag}> {key}={value!r} is not a number")
            return float(value)

        if tag == "rect":
            right, bottom = num("x") + num("width"), num("y") + num("height")
        elif tag == "circle":
            right, bottom = num("cx") + num("r"), num("cy") + num("r")
        elif tag == "line":
            right, bottom = max(num("x1"), num("x2")), max(num("y1"), num("y2"))
        else:
            return
        self.width = max(self.width, right)
        self.height = max(self.height, bottom)

    def finish(self) -> Drawing:
        """The SVG (with a margin) and the scene's facts no shape showed."""
        undrawn = tuple((f, self.scene.marks.get(f)) for f in sorted(self.scene.facts - self.drawn))
        svg = document(self.width + MARGIN, self.height + MARGIN, self.parts,
                       self.scene.title or self.scene.domain)
        return Drawing(svg, undrawn)


@dataclass(frozen=True)
class SceneDrawer:
    """How the states of one domain are drawn: ``draw(scene, canvas)`` for scenes whose
    ``domain`` is ``domain``.  A drawer is a plug-in (group ``planetarium.scene_drawers``,
    :func:`planetarium.viewer.scenes.register_drawer`); a domain without one is drawn by the
    generic drawer."""

    domain: str
    draw: Callable[[Scene, Canvas], None]
