"""Reign Absolute as a player knows it (docs/rules/reign-absolute.md): the square grid with the
viewer's own units face up (name, strength, the reinforcement cards under them) and everyone
else's face down as backs in their owner's colour with the number of cards under them; each
player's race, unit deck and discards; the reinforcement deck and discard; the turn and the
card being dealt with, as far as the view shows it.

Drawn from the view only (``rules.reign_absolute.views``): an enemy unit is owner, cell and
count there, so it is nothing more here."""

from __future__ import annotations

from typing import Any

from rules.pictures.header import HEADER_HEIGHT, draw_header, status_line, title_of
from rules.pictures.svg import BACK, INK, Canvas, seat_colour

__all__ = ["paint"]

TITLE = "Reign Absolute"
BOARD = 640
"""The grid's side in pixels; cells shrink as the battle spreads."""
PANEL = 320
MIN_SPAN = 7
"""At least 7 x 7 cells around the middle are drawn, so an early board is not one huge cell."""


def _bounds(cells: list[tuple[int, int]]) -> tuple[int, int, int]:
    """The left, top and size (in cells) of a square around the middle and every unit."""
    xs = [x for x, _ in cells] + [-(MIN_SPAN // 2), MIN_SPAN // 2]
    ys = [y for _, y in cells] + [-(MIN_SPAN // 2), MIN_SPAN // 2]
    size = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
    return min(xs), min(ys), size


def paint(view: dict[str, Any]) -> str:
    players, viewer = view["players"], view.get("viewer")
    width, height = BOARD + PANEL + 30, HEADER_HEIGHT + BOARD + 20
    canvas = Canvas(width, height, title_of(TITLE, view), "")
    draw_header(canvas, view, TITLE, width)
    field = view["battlefield"]
    left, top, size = _bounds([(u["x"], u["y"]) for u in field])
    cell = BOARD / size
    ox, oy = 10, HEADER_HEIGHT + 10
    grid = canvas.group(**{"class": "grid"})
    canvas.rect(ox, oy, BOARD, BOARD, grid, fill="#f6f3ea", stroke=INK)
    if size <= 40:  # grid lines while cells are big enough to tell apart
        for i in range(1, size):
            canvas.line(ox + i * cell, oy, ox + i * cell, oy + BOARD, grid, stroke="#d5cfbf")
            canvas.line(ox, oy + i * cell, ox + BOARD, oy + i * cell, grid, stroke="#d5cfbf")
    mx, my = ox + (0 - left) * cell, oy + (0 - top) * cell
    canvas.rect(mx, my, cell, cell, grid, fill="none", stroke=INK, stroke_dasharray="3 3")
    shown = {"own": 0, "hidden": 0}
    for unit in field:
        _unit(
            canvas,
            view,
            unit,
            ox + (unit["x"] - left) * cell,
            oy + (unit["y"] - top) * cell,
            cell,
            shown,
        )
    desc = [status_line(view), f"{len(field)} units on the grid, {shown['hidden']} face down."]
    desc += _panel(canvas, view, ox + BOARD + 20, oy, players, viewer)
    canvas.describe(" ".join(desc))
    return canvas.to_string()


def _unit(
    canvas: Canvas,
    view: dict[str, Any],
    unit: dict[str, Any],
    x: float,
    y: float,
    cell: float,
    shown: dict[str, int],
) -> None:
    colour = seat_colour(view["players"], unit["owner"])
    pad = max(1.0, cell * 0.06)
    count = unit["reinforcement_count"]
    where = f"({unit['x']}, {unit['y']})"
    if "unit" in unit:  # the viewer's own: face up
        info = view["units"].get(unit["unit"], {})
        g = canvas.group(
            **{"class": "unit", "data-unit": unit["unit"], "data-owner": unit["owner"]}
        )
        canvas.rect(
            x + pad,
            y + pad,
            cell - 2 * pad,
            cell - 2 * pad,
            g,
            rx=3,
            fill="#ffffff",
            stroke=colour,
            stroke_width=max(1.0, cell * 0.06),
        )
        if cell >= 28:
            canvas.text(
                x + cell / 2,
                y + cell * 0.42,
                info.get("name", "?"),
                g,
                limit=10,
                text_anchor="middle",
                font_size=max(7.0, min(12.0, cell * 0.2)),
            )
            canvas.text(
                x + cell / 2,
                y + cell * 0.75,
                str(info.get("strength", "?")),
                g,
                text_anchor="middle",
                font_weight="bold",
                font_size=max(8.0, min(16.0, cell * 0.28)),
            )
        names = [view["cards"].get(c, {}).get("name", "?") for c in unit.get("reinforcements", [])]
        label = f"{unit['owner']}'s {info.get('name', '?')} (strength {info.get('strength')})"
        label += f" at {where}" + (f", reinforced by {', '.join(names)}" if names else "")
        canvas.tooltip(g, label)
        shown["own"] += 1
    else:  # another player's unit: its back only
        g = canvas.group(**{"class": "unit back", "data-owner": unit["owner"]})
        canvas.rect(
            x + pad,
            y + pad,
            cell - 2 * pad,
            cell - 2 * pad,
            g,
            rx=3,
            fill=BACK,
            stroke=colour,
            stroke_width=max(2.0, cell * 0.1),
        )
        canvas.tooltip(g, f"{unit['owner']}'s face-down unit at {where}")
        shown["hidden"] += 1
    if count and cell >= 16:
        canvas.circle(
            x + cell - 3 * pad - 4,
            y + 3 * pad + 4,
            max(4.0, cell * 0.13),
            g,
            fill="#f5b041",
            stroke=INK,
        )
        canvas.text(
            x + cell - 3 * pad - 4,
            y + 3 * pad + 7,
            count,
            g,
            text_anchor="middle",
            font_size=max(7.0, cell * 0.14),
        )


def _panel(
    canvas: Canvas,
    view: dict[str, Any],
    x: float,
    y: float,
    players: list[str],
    viewer: str | None,
) -> list[str]:
    """Players (race, unit deck, discards), the deck, the turn and the card being dealt with."""
    desc: list[str] = []
    on_grid = {p: 0 for p in players}
    for unit in view["battlefield"]:
        on_grid[unit["owner"]] = on_grid.get(unit["owner"], 0) + 1
    for player in players:
        colour = seat_colour(players, player)
        race_id = view["race_of"].get(player)
        race = view["races"].get(race_id, {}).get("name", race_id) if race_id else "no race yet"
        gone = " (eradicated)" if player in view["eradicated"] else ""
        canvas.rect(x, y, 12, 12, fill=colour)
        canvas.text(x + 18, y + 10, f"{player}: {race}{gone}", font_weight="bold", limit=44)
        line = (
            f"{on_grid.get(player, 0)} on the grid, {view['unit_deck_counts'].get(player, 0)} to "
            f"place, {len(view['unit_discards'].get(player, []))} discarded"
        )
        canvas.text(x + 18, y + 25, line, font_size=11)
        desc.append(f"{player}: {race}{gone}, {line}.")
        y += 38
    y += 6
    canvas.text(
        x,
        y,
        f"Reinforcement deck: {view['deck_count']} cards; discard: {len(view['discard'])}",
        font_size=11,
    )
    y += 18
    turn = view.get("turn")
    if turn:
        canvas.text(
            x,
            y,
            f"Turn {turn['number']} of {view['turn_limit']}: {turn['player']}, "
            f"{str(turn['stage']).replace('_', ' ')}",
            font_size=11,
            limit=60,
        )
        y += 16
        drawn = turn.get("drawn")
        if drawn:
            card = drawn.get("card")
            name = view["cards"].get(card, {}).get("name", card) if card else None
            what = f"Drawn: a {drawn['kind']} card" + (f", {name}" if name else " (face down)")
            canvas.text(x, y, what, font_size=11, limit=60)
            desc.append(what + ".")
            y += 16
    if view.get("doom"):
        canvas.text(x, y, "Doom is being called", font_size=11, fill="#922b21")
        y += 16
    if view["bonus_owed"]:
        canvas.text(
            x, y, f"Bonus unit owed to {', '.join(view['bonus_owed'])}", font_size=11, limit=60
        )
        y += 16
    nxt = view.get("next_unit")
    if viewer is not None and nxt:
        info = view["units"].get(nxt, {})
        canvas.text(
            x,
            y,
            f"Your next unit: {info.get('name', nxt)} (strength {info.get('strength', '?')})",
            font_size=11,
            limit=60,
        )
        y += 16
    return desc
