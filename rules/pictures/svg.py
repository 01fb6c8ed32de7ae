"""The drawing vocabulary every game's picture shares: an SVG canvas built with the standard
library's ``xml.etree.ElementTree``, seat colours, cards and card backs.

Why a tree and no string templates: player ids, card titles and custom content are the client's
strings. A picture is built as a tree of :class:`Element` (tag names are this module's
constants); every attribute value and text passes through :func:`clean` and is escaped
(``html.escape``) as it enters the tree, so no string can close a tag, add an attribute or
smuggle in a ``<script>``, and characters XML 1.0 forbids (``\\x00``-``\\x08``, lone
surrogates...) are replaced, so every picture is well-formed XML. The tests parse every picture
with ``xml.etree``. (``xml.etree.ElementTree`` itself builds and writes such trees too, but its
writer took most of the time of a Reign Supreme picture; drawsvg and svgwrite escape as well,
but add a dependency for what this module does, and svgwrite is no longer maintained.)
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "Canvas",
    "Element",
    "clean",
    "seat_colour",
    "NEUTRAL",
    "BACK",
    "INK",
]

SVG_NS = "http://www.w3.org/2000/svg"
INK = "#222222"
NEUTRAL = "#e8e4da"
BACK = "#5b4a8b"
"""The colour of a face-down card: the same for every card, so a back tells nothing."""
SEAT_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")
"""Seat colours in seat order (red, blue, green, amber, purple, teal), readable on white."""

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(value: Any, limit: int = 80) -> str:
    """``value`` as text fit for XML 1.0: forbidden characters become U+FFFD, and the text is cut
    to ``limit`` characters (an ellipsis marks the cut) so a long custom title cannot flood the
    picture."""
    text = str(value)
    if not (text.isascii() and text.isprintable()):
        text = _NOT_XML.sub("\ufffd", text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class Element:
    """One SVG element: its tag, its attributes (already escaped), its text (already escaped)
    and its children. Built only through :class:`Canvas`."""

    __slots__ = ("tag", "attrs", "text", "children")

    def __init__(self, tag: str, attrs: str, text: str = "") -> None:
        self.tag, self.attrs, self.text = tag, attrs, text
        self.children: list[Element] = []

    def write(self, out: list[str]) -> None:
        if not self.children and not self.text:
            out.append(f"<{self.tag}{self.attrs}/>")
            return
        out.append(f"<{self.tag}{self.attrs}>{self.text}")
        for child in self.children:
            child.write(out)
        out.append(f"</{self.tag}>")


def seat_colour(players: Sequence[str], player: str | None) -> str:
    """The colour of ``player``'s seat; neutral grey for nobody."""
    if player is None or player not in players:
        return "#888888"
    return SEAT_COLOURS[list(players).index(player) % len(SEAT_COLOURS)]


def _num(value: float) -> str:
    """A coordinate or size as short text: integers as they are, others to one decimal."""
    if type(value) is int:
        return str(value)
    if not math.isfinite(value):
        return "0"
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Canvas:
    """One SVG document: ``<title>`` and ``<desc>`` first (what a screen reader announces), then
    shapes and text labels. Every method takes plain values and returns the element it added, so
    a painter can group elements and add ``data-*`` attributes for front ends."""

    def __init__(self, width: float, height: float, title: str, desc: str) -> None:
        self.root = Element(
            "svg",
            _attrs(
                xmlns=SVG_NS,
                width=width,
                height=height,
                viewBox=f"0 0 {_num(width)} {_num(height)}",
                role="img",
                aria_labelledby="picture-title picture-desc",
                font_family="sans-serif",
                font_size=12,
            ),
        )
        self._title = self._add(None, "title", {"id": "picture-title"}, title, 300)
        self._desc = self._add(None, "desc", {"id": "picture-desc"}, desc, 4000)
        self._add(None, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})

    def describe(self, desc: str) -> None:
        """Set the ``<desc>``: what the picture shows, in words (written once it is known)."""
        self._desc.text = _escape(clean(desc, 4000))

    def _add(
        self,
        parent: Element | None,
        tag: str,
        attrs: dict[str, Any],
        text: Any = None,
        limit: int = 80,
    ) -> Element:
        element = Element(tag, _attrs(**attrs), "" if text is None else _escape(clean(text, limit)))
        (self.root if parent is None else parent).children.append(element)
        return element

    def group(self, parent: Element | None = None, /, **attrs: Any) -> Element:
        return self._add(parent, "g", attrs)

    def rect(
        self, x: float, y: float, w: float, h: float, parent: Element | None = None, **attrs: Any
    ) -> Element:
        return self._add(parent, "rect", dict(x=x, y=y, width=w, height=h, **attrs))

    def circle(
        self, x: float, y: float, r: float, parent: Element | None = None, **attrs: Any
    ) -> Element:
        return self._add(parent, "circle", dict(cx=x, cy=y, r=r, **attrs))

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        parent: Element | None = None,
        **attrs: Any,
    ) -> Element:
        return self._add(parent, "line", dict(x1=x1, y1=y1, x2=x2, y2=y2, **attrs))

    def symbol(self, symbol_id: str, points: Sequence[tuple[float, float]]) -> None:
        """A polygon defined once (``<defs>``) and drawn many times with :meth:`use`: a board of
        hexes is one shape at many places, so each space costs two numbers, not twelve."""
        defs = self._add(None, "defs", {})
        self._add(defs, "polygon", dict(id=symbol_id, points=_points(points)))

    def use(
        self, symbol_id: str, x: float, y: float, parent: Element | None = None, **attrs: Any
    ) -> Element:
        return self._add(parent, "use", dict(href=f"#{symbol_id}", x=x, y=y, **attrs))

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        parent: Element | None = None,
        **attrs: Any,
    ) -> Element:
        return self._add(parent, "polygon", dict(points=_points(points), **attrs))

    def text(
        self,
        x: float,
        y: float,
        label: Any,
        parent: Element | None = None,
        limit: int = 80,
        **attrs: Any,
    ) -> Element:
        return self._add(parent, "text", dict(x=x, y=y, **attrs), label, limit)

    def tooltip(self, element: Element, label: Any) -> None:
        """A ``<title>`` child: the element's accessible name and hover text."""
        self._add(element, "title", {}, label, 300)

    def card(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        lines: Sequence[Any],
        fill: str,
        card_id: str | None = None,
        parent: Element | None = None,
        name: str | None = None,
    ) -> Element:
        """A face-up card: a rounded rectangle in ``fill`` with up to a few text lines; its
        ``data-card`` is its id, its ``<title>`` its full name."""
        g = self.group(parent, **({"class": "card", "data-card": card_id} if card_id else {}))
        self.rect(x, y, w, h, g, rx=4, fill=fill, stroke=INK, stroke_width=1)
        for i, text in enumerate(lines):
            self.text(
                x + w / 2,
                y + 14 + i * 13,
                text,
                g,
                limit=max(4, int(w / 6)),
                text_anchor="middle",
                font_size=11 if i else 12,
            )
        self.tooltip(g, name if name is not None else " ".join(str(t) for t in lines))
        return g

    def back(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        label: str = "",
        parent: Element | None = None,
    ) -> Element:
        """A face-down card: every back is drawn alike (only ``label``, public, tells them
        apart)."""
        g = self.group(parent, **{"class": "back"})
        self.rect(x, y, w, h, g, rx=4, fill=BACK, stroke=INK, stroke_width=1)
        self.rect(
            x + 4,
            y + 4,
            w - 8,
            h - 8,
            g,
            rx=2,
            fill="none",
            stroke="#ffffff",
            stroke_opacity=0.5,
        )
        if label:
            self.text(
                x + w / 2,
                y + h / 2 + 4,
                label,
                g,
                fill="#ffffff",
                text_anchor="middle",
                font_size=10,
            )
        self.tooltip(g, "a face-down card" + (f" ({label})" if label else ""))
        return g

    def to_string(self) -> str:
        out: list[str] = []
        self.root.write(out)
        return "".join(out)


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


_NAMES: dict[str, str] = {}
"""Keyword -> attribute name (``font_size`` -> ``font-size``), worked out once per keyword."""


def _escape(text: str, quote: bool = False) -> str:
    """``&``, ``<``, ``>`` as entities, and with ``quote`` (attribute values, written between
    double quotes) ``"`` and ``'`` too."""
    return html.escape(text, quote=quote) if _SPECIAL.search(text) else text


_SPECIAL = re.compile("[&<>\"']")


_TEXTS: dict[str, str] = {}
"""Attribute string -> its cleaned, escaped text. Pictures repeat a few hundred values (colours,
classes, anchors, symbol references) thousands of times; cleaning each anew was the largest cost
of a Reign Supreme board (``bench/render.py``). Bounded, so odd player ids cannot grow it."""
_TEXTS_MAX = 4096


def _text(value: Any) -> str:
    """An attribute value other than a number, cleaned and escaped (strings once each)."""
    if type(value) is not str:
        return _escape(clean(value, 2000), quote=True)
    text = _TEXTS.get(value)
    if text is None:
        text = _escape(clean(value, 2000), quote=True)
        if len(_TEXTS) < _TEXTS_MAX:
            _TEXTS[value] = text
    return text


def _attrs(**attrs: Any) -> str:
    """Attributes as `` name="value"`` text: a keyword's ``_`` is written ``-`` (``font_size``
    is ``font-size``), numbers compact, ``None`` left out, strings cleaned and escaped."""
    parts: list[str] = []
    for key, value in attrs.items():
        if value is None:
            continue
        kind = type(value)
        if kind is int or kind is float:
            text = _num(value)
        elif kind is bool:
            text = "true" if value else "false"
        else:
            text = _text(value)
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.replace("_", "-")
        parts.append(f' {name}="{text}"')
    return "".join(parts)
