"""Reign & Ruin as a player knows it (docs/rules/reign-and-ruin.md): each army's fighters face up
with their Kurgoz and Cognitz tokens, the viewer's hand face up and the others' as backs, the
draft (the viewer's packet, picks and kept cards; the others' packets as backs), the draw pile
as a counted back and the discard pile face up.

Drawn from the view only (``rules.reign_and_ruin.views``): a card id or face appears only where
the view shows it."""

from __future__ import annotations

from typing import Any

from rules.pictures.header import HEADER_HEIGHT, draw_header, status_line, title_of
from rules.pictures.svg import INK, Canvas, seat_colour
from rules.reign_and_ruin.scoring import army_breakdown

__all__ = ["paint"]

TITLE = "Reign & Ruin"
FACTIONS = {
    "alfenghast": "#f4d03f",
    "hexen": "#a569bd",
    "kurgoz": "#e67e22",
    "cognitz": "#5dade2",
    "crou": "#95a5a6",
    "nomora": "#58d68d",
}
"""Face colours of the six factions of the default deck; a custom faction is drawn white."""
W, H, GAP = 58, 80, 6
ROW = H + 34
WIDTH = 1100
ARMY_ROOM = 540
HAND_X = 670


def _face(view: dict[str, Any], card: str) -> tuple[list[str], str, str]:
    """A card's text lines, fill and full name, from the view's public catalogue."""
    info = view["cards"].get(card, {})
    faction, value = str(info.get("faction", "?")), info.get("value", "?")
    name = f"{faction.capitalize()} {value}"
    return [str(value), faction.capitalize()], FACTIONS.get(faction, "#ffffff"), name


def _step(count: int, room: float) -> float:
    """The distance between cards so that ``count`` of them fit in ``room`` (they overlap like a
    fanned hand when there are many)."""
    return W + GAP if count <= 1 else min(W + GAP, (room - W) / (count - 1))


def _faces(
    canvas: Canvas, view: dict[str, Any], x: float, y: float, cards: list[str], room: float = 420
) -> float:
    step = _step(len(cards), room)
    for card in cards:
        lines, fill, name = _face(view, card)
        canvas.card(x, y, W, H, lines, fill, card, name=name)
        x += step
    return x + (W + GAP - step if cards else 0)


def _backs(canvas: Canvas, x: float, y: float, count: int, what: str) -> float:
    """``count`` backs, at most five drawn, the count written on the last."""
    for i in range(min(count, 5)):
        canvas.back(x + i * 8, y, W, H, str(count) if i == min(count, 5) - 1 else "")
    if count:
        canvas.text(x, y + H + 12, f"{count} {what}", font_size=10)
        return x + 8 * (min(count, 5) - 1) + W + GAP
    return x


def paint(view: dict[str, Any]) -> str:
    players, viewer = view["players"], view.get("viewer")
    draft = view.get("draft")
    rows = len(players) + (2 if draft is not None else 1)
    height = HEADER_HEIGHT + rows * ROW + 20
    desc = [status_line(view)]
    canvas = Canvas(WIDTH, height, title_of(TITLE, view), "")
    draw_header(canvas, view, TITLE, WIDTH)
    y = HEADER_HEIGHT + 10
    for player in players:
        colour = seat_colour(players, player)
        band = canvas.group(**{"class": "seat", "data-player": player})
        canvas.rect(
            4, y - 4, WIDTH - 8, ROW - 6, band, fill=colour, fill_opacity=0.08, stroke=colour, rx=6
        )
        canvas.text(12, y + 12, player, band, fill=colour, font_weight="bold", limit=24)
        army = view["armies"].get(player, [])
        canvas.text(12, y + 28, "Army", band, font_size=10)
        step = _step(len(army), ARMY_ROOM)
        for i, fighter in enumerate(army):
            lines, fill, name = _face(view, fighter["card"])
            tokens = []
            if fighter["kurgoz"]:
                tokens.append(f"Kurgoz x{fighter['kurgoz']}")
            if fighter["cognitz"]:
                tokens.append("Cognitz")
            at = 110 + i * step
            card = canvas.card(
                at,
                y + 20,
                W,
                H,
                lines + tokens,
                fill,
                fighter["card"],
                band,
                name=" ".join([name, *tokens]),
            )
            if fighter["cognitz"]:  # a protected fighter: a blue frame
                canvas.rect(
                    at - 2,
                    y + 18,
                    W + 4,
                    H + 4,
                    card,
                    rx=6,
                    fill="none",
                    stroke="#2e86c1",
                    stroke_width=3,
                )
        canvas.text(12, y + 44, f"{len(army)} fighters", band, font_size=10)
        total = army_breakdown(view["cards"], army)["total"]
        canvas.text(12, y + 58, f"army total {total}", band, font_size=10)
        hand_x = HAND_X
        canvas.text(hand_x, y + 12, "Hand", band, font_size=10)
        count = view["hand_counts"].get(player, 0)
        if player == viewer and "hand" in view:
            _faces(canvas, view, hand_x, y + 20, view["hand"])
        else:
            _backs(canvas, hand_x, y + 20, count, "in hand")
        if draft is not None and player != viewer:  # their draft packet, face down
            picked = " (picked)" if draft["picked"].get(player) else ""
            canvas.text(hand_x + 110, y + 12, f"Draft packet{picked}", band, font_size=10)
            _backs(canvas, hand_x + 110, y + 20, draft["packet_counts"].get(player, 0), "in packet")
        desc.append(f"{player}: army of {len(army)} (total {total}), {count} cards in hand.")
        y += ROW
    canvas.text(12, y + 12, "Draw pile", font_size=10)
    _backs(canvas, 12, y + 20, view["draw_pile_count"], "to draw")
    canvas.text(130, y + 12, "Discard pile (oldest first)", font_size=10)
    _faces(canvas, view, 130, y + 20, view["discard_pile"], room=WIDTH - 140)
    if draft is not None:
        _draft(canvas, view, draft, y + ROW)
        desc.append(f"Draft round {draft['round']}.")
    final = view.get("final_round")
    if final:
        canvas.text(WIDTH - 10, y + 12, "Final round", text_anchor="end", fill=INK)
    canvas.describe(" ".join(desc))
    return canvas.to_string()


def _draft(canvas: Canvas, view: dict[str, Any], draft: dict[str, Any], y: float) -> None:
    """The viewer's packet, picks and kept cards face up; the others' packets as backs."""
    x = 12.0
    canvas.text(x, y + 12, f"Draft, round {draft['round']}", font_size=10, font_weight="bold")
    if "packet" in draft:
        canvas.text(x + 120, y + 12, "your packet | your picks | kept", font_size=10)
        at = _faces(canvas, view, x, y + 20, draft["packet"], room=460)
        at = _faces(canvas, view, at + 10, y + 20, draft.get("picks", []), room=140)
        _faces(canvas, view, at + 10, y + 20, draft.get("kept", []), room=WIDTH - at - 30)
    else:
        canvas.text(x + 120, y + 12, "every packet is face down to a spectator", font_size=10)
