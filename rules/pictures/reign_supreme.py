"""Reign Supreme as its players know it (docs/rules/reign-supreme.md, Board, Castles, Gates and
Palisades, Mines and Ruins): the hex board with each Kingdom in its owner's colour, Castles,
Thrones, walls on the edges between spaces (Gates, Castle walls, Palisades, with their hit
points), Mines and Ruins ringed in their holder's colour, and every unit on the board (army,
type, pins and hit points left); beside it each player's army, Action Board, reserve and hand
size, and the viewer's own cards.

Everything on a Reign Supreme board is public; only the hands are not (``rules.reign_supreme.views``
shows the viewer's own hand and the others' counts), and so does the picture."""

from __future__ import annotations

import math
from typing import Any

from rules.pictures.header import HEADER_HEIGHT, draw_header, status_line, title_of
from rules.pictures.svg import INK, NEUTRAL, Canvas, seat_colour
from rules.reign_supreme.board import stats

__all__ = ["paint", "hex_centre"]

TITLE = "Reign Supreme"
BOARD_W, BOARD_H = 760, 700
PANEL = 330
SQRT3 = math.sqrt(3)
WALL_STYLE = {
    "gate": ("#6e2c00", 7),
    "castle_wall": ("#4d5656", 6),
    "palisade": ("#a04000", 4),
}
"""Wall kind -> stroke colour and width: Gates thick brown, Castle walls stone, Palisades wood."""


def hex_centre(q: int, r: int, size: float) -> tuple[float, float]:
    """Pointy-top axial hex ``(q, r)``'s centre, for hexes of ``size`` (centre to corner)."""
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


_CORNERS = tuple(
    (math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)
)
_STAR = tuple(
    (
        (1 if i % 2 == 0 else 0.45) * math.cos(math.radians(36 * i - 90)),
        (1 if i % 2 == 0 else 0.45) * math.sin(math.radians(36 * i - 90)),
    )
    for i in range(10)
)


def _corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + size * cx, y + size * cy) for cx, cy in _CORNERS]


class _Layout:
    """Board hexes to picture coordinates: the board scaled to fit the drawing area."""

    def __init__(self, hexes: list[tuple[int, int]], left: float, top: float) -> None:
        unit = [hex_centre(q, r, 1.0) for q, r in hexes] or [(0.0, 0.0)]
        xs, ys = [p[0] for p in unit], [p[1] for p in unit]
        span_x, span_y = max(xs) - min(xs) + SQRT3, max(ys) - min(ys) + 2
        self.size = min(BOARD_W / span_x, BOARD_H / span_y, 40.0)
        self.dx = left + (BOARD_W - span_x * self.size) / 2 - (min(xs) - SQRT3 / 2) * self.size
        self.dy = top + (BOARD_H - span_y * self.size) / 2 - (min(ys) - 1) * self.size

    def at(self, h: list[int] | tuple[int, int]) -> tuple[float, float]:
        x, y = hex_centre(h[0], h[1], self.size)
        return x + self.dx, y + self.dy


def paint(view: dict[str, Any]) -> str:
    players = view["players"]
    width, height = BOARD_W + PANEL + 30, HEADER_HEIGHT + BOARD_H + 20
    canvas = Canvas(width, height, title_of(TITLE, view), "")
    draw_header(canvas, view, TITLE, width)
    scenario, kingdoms = view["scenario"], view["kingdoms"]
    owner_of: dict[tuple[int, int], str] = {}
    castle: set[tuple[int, int]] = set()
    thrones: dict[tuple[int, int], str] = {}
    for player, k in kingdoms.items():
        for h in k["hexes"]:
            owner_of[(h[0], h[1])] = player
        for h in k.get("castle") or []:
            castle.add((h[0], h[1]))
        if k.get("throne") is not None:
            thrones[(k["throne"][0], k["throne"][1])] = player
    board = sorted({(h[0], h[1]) for h in scenario["midfield"]} | set(owner_of))
    layout = _Layout(board, 10, HEADER_HEIGHT + 10)
    _spaces(canvas, view, layout, board, owner_of, castle, thrones)
    _holdings(canvas, view, layout)
    _walls(canvas, view, layout)
    on_board = _units(canvas, view, layout)
    desc = [status_line(view), f"Round {view['round']} of {scenario.get('round_limit')}."]
    desc.append(f"{len(board)} spaces, {on_board} units on the board, {len(view['walls'])} walls.")
    desc += _panel(canvas, view, BOARD_W + 20, HEADER_HEIGHT + 10, players)
    canvas.describe(" ".join(desc))
    return canvas.to_string()


def _spaces(
    canvas: Canvas,
    view: dict[str, Any],
    layout: _Layout,
    board: list[tuple[int, int]],
    owner_of: dict[tuple[int, int], str],
    castle: set[tuple[int, int]],
    thrones: dict[tuple[int, int], str],
) -> None:
    """Every space: Midfield sand, Kingdoms tinted with their owner's colour, Castles darker, a
    Throne marked with a crown-like star."""
    canvas.symbol("space", _corners(0, 0, layout.size * 0.98))
    g = canvas.group(**{"class": "spaces"}, stroke="#b3ab98", stroke_width=0.7)
    for h in board:
        x, y = layout.at(h)
        owner = owner_of.get(h)
        if owner is None:
            canvas.use("space", x, y, g, fill=NEUTRAL)
        else:
            opacity = 0.45 if h in castle else 0.18
            colour = seat_colour(view["players"], owner)
            canvas.use("space", x, y, g, fill=colour, fill_opacity=opacity)
        if h in thrones:
            star = canvas.polygon(
                _star(x, y, layout.size * 0.45), g, fill="#f1c40f", stroke=INK, stroke_width=0.8
            )
            canvas.tooltip(star, f"{thrones[h]}'s Throne at ({h[0]}, {h[1]})")


def _star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + r * sx, y + r * sy) for sx, sy in _STAR]


def _holdings(canvas: Canvas, view: dict[str, Any], layout: _Layout) -> None:
    """Mines and Ruins: a labelled ring in the colour of the player who holds it (grey: nobody)."""
    g = canvas.group(**{"class": "holdings"})
    control = view.get("control") or {}
    for kind, label in (("mines", "Mine"), ("ruins", "Ruin")):
        holders = control.get(kind) or []
        for i, h in enumerate(view["scenario"].get(kind) or []):
            holder = holders[i] if i < len(holders) else None
            x, y = layout.at(h)
            colour = seat_colour(view["players"], holder)
            ring = canvas.circle(
                x,
                y,
                layout.size * 0.8,
                g,
                fill="none",
                stroke=colour,
                stroke_width=2.5,
                stroke_dasharray="4 2" if kind == "ruins" else None,
            )
            canvas.tooltip(ring, f"{label} at ({h[0]}, {h[1]}), held by {holder or 'nobody'}")
            canvas.text(
                x,
                y - layout.size * 0.55,
                label,
                g,
                text_anchor="middle",
                font_size=max(6.0, layout.size * 0.3),
                fill=INK,
            )


def _walls(canvas: Canvas, view: dict[str, Any], layout: _Layout) -> None:
    """Each wall on the edge shared by its two spaces, styled by kind, with its hit points."""
    # What every wall shares is said once, on the group (SVG inherits it): a board has up to a
    # hundred walls, and their attributes were the largest part of its picture's time.
    font_size = max(6.0, layout.size * 0.28)
    g = canvas.group(
        **{"class": "walls"},
        stroke_linecap="round",
        text_anchor="middle",
        fill="#ffffff",
        font_size=font_size,
        font_weight="bold",
    )
    for wall in view["walls"]:
        (ax, ay), (bx, by) = layout.at(wall["edge"][0]), layout.at(wall["edge"][1])
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay) or 1.0
        px, py = -(by - ay) / length * layout.size / 2, (bx - ax) / length * layout.size / 2
        colour, width = WALL_STYLE.get(wall["kind"], (INK, 4))
        w = canvas.group(g, **{"class": f"wall {wall['kind']}", "data-wall": wall["id"]})
        canvas.line(
            mx - px,
            my - py,
            mx + px,
            my + py,
            w,
            stroke=colour,
            stroke_width=width * layout.size / 30,
        )
        name = str(wall["kind"]).replace("_", " ")
        canvas.tooltip(w, f"{wall['owner']}'s {name} {wall['id']}, {wall['hp']} hit points")
        if wall["kind"] != "castle_wall":
            canvas.text(mx, my + 3, wall["hp"], w)


def _units(canvas: Canvas, view: dict[str, Any], layout: _Layout) -> int:
    """Each unit on the board: a disc in its owner's colour with its type, and its hit points
    left (hp - pins) beneath."""
    g = canvas.group(**{"class": "units"}, text_anchor="middle", fill="#ffffff")  # as walls
    count = 0
    for uid, unit in sorted(view["units"].items()):
        if unit["at"] is None:
            continue
        count += 1
        x, y = layout.at(unit["at"])
        info = stats(view, unit)
        hp, pins = info["hp"], unit["pins"]
        colour = seat_colour(view["players"], unit["owner"])
        u = canvas.group(g, **{"class": "unit", "data-unit": uid, "data-owner": unit["owner"]})
        r = layout.size * 0.62
        canvas.circle(
            x, y, r, u, fill=colour, stroke="#ffffff" if not unit["done"] else INK, stroke_width=1.5
        )
        canvas.text(
            x,
            y - r * 0.05,
            str(unit["type"])[:4],
            u,
            font_size=max(6.0, layout.size * 0.3),
            limit=4,
        )
        canvas.text(
            x,
            y + r * 0.62,
            f"{hp - pins}/{hp}",
            u,
            font_size=max(5.0, layout.size * 0.26),
        )
        flags = [f for f in ("ensnared", "done") if unit.get(f)]
        if unit.get("packing"):
            flags.append(str(unit["packing"]))
        label = (
            f"{unit['owner']}'s {info.get('name', unit['type'])} ({unit['army']} {unit['type']}, "
            f"{uid}) at ({unit['at'][0]}, {unit['at'][1]}): {pins} pins, {hp - pins} of {hp} "
            f"hit points left" + (f"; {', '.join(flags)}" if flags else "")
        )
        canvas.tooltip(u, label)
    return count


def _card_name(view: dict[str, Any], card_id: str) -> str:
    """A card's name from the public card set: copy ids are ``<card>-<copy>``."""
    base = card_id.rsplit("-", 1)[0]
    for card in view["cards"]:
        if card["id"] == base:
            return str(card["name"])
    return card_id


def _panel(
    canvas: Canvas, view: dict[str, Any], x: float, y: float, players: list[str]
) -> list[str]:
    """Each player's army, kills, units on the board and in reserve, Action Board, hand size;
    the decks; the viewer's hand; an answer waiting."""
    desc: list[str] = []
    board_units = {p: 0 for p in players}
    reserve = {p: 0 for p in players}
    for unit in view["units"].values():
        (board_units if unit["at"] is not None else reserve)[unit["owner"]] = (
            board_units if unit["at"] is not None else reserve
        ).get(unit["owner"], 0) + 1
    for player in players:
        colour = seat_colour(players, player)
        board = view["boards"].get(player, {})
        army = view["armies"].get(player, "?")
        out = " (defeated)" if player in view["defeated"] else ""
        canvas.rect(x, y, 12, 12, fill=colour)
        canvas.text(x + 18, y + 10, f"{player}: {army}{out}", font_weight="bold", limit=44)
        line1 = (
            f"{board_units.get(player, 0)} on the board, {reserve.get(player, 0)} in reserve, "
            f"{view['kills'].get(player, 0)} kills"
        )
        line2 = (
            f"Spell pin {board.get('spell_pin')}, Tactics pin {board.get('tactics_pin')}, "
            f"Reinforcement pin {board.get('reinforcement_pin')}, deploys {board.get('deploys', 0)}"
        )
        canvas.text(x + 18, y + 25, line1, font_size=11, limit=60)
        canvas.text(x + 18, y + 39, line2, font_size=10, limit=70)
        hand = view["hand_counts"].get(player, 0)
        for i in range(min(hand, 6)):
            canvas.back(x + 18 + i * 10, y + 45, 18, 24)
        canvas.text(
            x + 18 + min(hand, 6) * 10 + 14,
            y + 62,
            f"{hand} card{'' if hand == 1 else 's'} in hand",
            font_size=10,
        )
        desc.append(f"{player}: {army}{out}, {line1}, {hand} cards in hand.")
        y += 80
    decks = view.get("deck_counts") or {}
    discards = view.get("discards") or {}
    canvas.text(
        x,
        y + 4,
        "Decks: "
        + ", ".join(
            f"{k} {n} (discard {len(discards.get(k, []))})" for k, n in sorted(decks.items())
        ),
        font_size=11,
        limit=70,
    )
    y += 20
    if "hand" in view:
        canvas.text(x, y, "Your hand:", font_size=11, font_weight="bold")
        y += 6
        for i, card_id in enumerate(view["hand"][:8]):
            name = _card_name(view, card_id)
            canvas.card(
                x + (i % 4) * 78, y + (i // 4) * 46, 74, 40, [name], "#fdebd0", card_id, name=name
            )
        y += 46 * ((len(view["hand"][:8]) + 3) // 4) + 8
    pending = view.get("pending")
    if pending and pending.get("stack"):
        top = pending["stack"][-1]
        what = f"Waiting for answers to {top['player']}'s {str(top['kind']).replace('_', ' ')}"
        canvas.text(x, y + 10, what, font_size=11, fill="#922b21", limit=60)
        desc.append(what + ".")
    return desc
