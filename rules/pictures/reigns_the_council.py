"""Reigns: The Council as a player knows it (docs/rules/reigns-the-council.md, Tracks,
Proposals, Round, Hidden information): the four tracks, the three decks with their top backs,
the discard pile and its revealed proposals, the Monarch's pile, the proposals on the table
(face down until revealed), every advisor's hand (the viewer's fronts, everyone's backs), the
viewer's secret goal, votes and scores.

Drawn from the view only (``rules.reigns_the_council.views``): a proposal's front appears only
where the view shows it, and a back shows only its pillars."""

from __future__ import annotations

from typing import Any

from rules.pictures.header import HEADER_HEIGHT, draw_header, status_line, title_of
from rules.pictures.svg import BACK, INK, Canvas, Element, seat_colour

__all__ = ["paint"]

TITLE = "Reigns: The Council"
WIDTH = 1100
PILLARS = {"church": "#8e44ad", "army": "#c0392b", "people": "#27ae60", "wealth": "#d4ac0d"}
"""Pillar colours, in board order (church, army, people, wealth)."""
TRACK_MIN, TRACK_MAX = -5, 5
CW, CH = 160, 74
"""A proposal's front."""
BW, BH = 34, 48
"""A proposal's back."""


def _in_board_order(keys: Any) -> list[str]:
    """Pillars in board order (church, army, people, wealth), whatever order a JSON object
    gave them in, so that one view always makes one picture."""
    return sorted(keys, key=lambda p: (list(PILLARS).index(p) if p in PILLARS else 99, p))


def _changes(zone: dict[str, int]) -> str:
    return ", ".join(f"{p} {zone[p]:+d}" for p in _in_board_order(zone)) or "nothing"


def _front(
    canvas: Canvas,
    x: float,
    y: float,
    card: dict[str, Any],
    parent: Element | None = None,
    note: str = "",
) -> Element:
    """A proposal face up: title, the pillars on its back, and what accepting or rejecting does."""
    g = canvas.group(parent, **{"class": "card", "data-card": card["id"]})
    canvas.rect(x, y, CW, CH, g, rx=4, fill="#fdfefe", stroke=INK)
    for i, pillar in enumerate(card["back"]):
        canvas.rect(x + 4 + i * 10, y + 4, 8, 8, g, fill=PILLARS.get(pillar, "#888888"))
    if note:
        canvas.text(x + CW - 4, y + 12, note, g, text_anchor="end", font_size=9, limit=20)
    canvas.text(x + 4, y + 26, card["title"], g, font_size=11, font_weight="bold", limit=26)
    canvas.text(x + 4, y + 44, "Yes: " + _changes(card["accept"]), g, font_size=10, limit=30)
    canvas.text(x + 4, y + 60, "No: " + _changes(card["reject"]), g, font_size=10, limit=30)
    canvas.tooltip(
        g,
        f"Proposal {card['id']}: {card['title']}. Accept: {_changes(card['accept'])}. "
        f"Reject: {_changes(card['reject'])}.",
    )
    return g


def _back(canvas: Canvas, x: float, y: float, pillars: list[str] | None, label: str = "") -> None:
    """A proposal face down: only the pillars printed on its back."""
    g = canvas.group(**{"class": "back"})
    canvas.rect(x, y, BW, BH, g, rx=3, fill=BACK, stroke=INK)
    for i, pillar in enumerate(pillars or []):
        canvas.circle(
            x + BW / 2, y + 10 + i * 11, 4, g, fill=PILLARS.get(pillar, "#888888"), stroke="#ffffff"
        )
    if label:
        canvas.text(
            x + BW / 2, y + BH - 4, label, g, text_anchor="middle", fill="#ffffff", font_size=9
        )
    canvas.tooltip(g, "a face-down proposal, back: " + (", ".join(pillars or []) or "unknown"))


def paint(view: dict[str, Any]) -> str:
    players, viewer = view["players"], view.get("viewer")
    hand = view.get("hand") or []
    height = HEADER_HEIGHT + 150 + 110 + 60 * len(players) + (CH + 30 if hand else 0) + 220
    canvas = Canvas(WIDTH, height, title_of(TITLE, view), "")
    draw_header(canvas, view, TITLE, WIDTH)
    desc = [status_line(view), f"Reign {view['reign']}, Monarch {view['monarch']}."]
    y: float = HEADER_HEIGHT + 8
    desc.append(_tracks(canvas, view, 10, y))
    _decks(canvas, view, 600, y)
    y += 150
    y = _table(canvas, view, 10, y, desc)
    y = _hands(canvas, view, 10, y, desc)
    if hand:
        canvas.text(10, y + 12, "Your hand", font_weight="bold")
        step = min(CW + 8, (WIDTH - 20 - CW) / max(1, len(hand) - 1))
        for i, card in enumerate(hand):
            _front(canvas, 10 + i * step, y + 18, card)
        y += CH + 30
    y = _pile(canvas, view, 10, y, desc)
    _scores(canvas, view, 10, y, desc)
    if viewer is not None and view.get("role"):
        desc.append(f"You are {'the Monarch' if view['role'] == 'monarch' else 'an advisor'}.")
    canvas.describe(" ".join(desc))
    return canvas.to_string()


def _tracks(canvas: Canvas, view: dict[str, Any], x: float, y: float) -> str:
    """The four tracks from -5 to +5, a marker at each value; the viewer's goal beside them."""
    goal = view.get("goal")
    sides = goal["sides"] if goal else {}
    step = 36
    said = []
    for i, pillar in enumerate(_in_board_order(view["tracks"])):
        value = view["tracks"][pillar]
        row = y + 10 + i * 32
        colour = PILLARS.get(pillar, "#888888")
        canvas.text(x, row + 14, pillar.capitalize(), font_weight="bold", fill=colour)
        for v in range(TRACK_MIN, TRACK_MAX + 1):
            cx = x + 80 + (v - TRACK_MIN) * step
            edge = v in (TRACK_MIN, TRACK_MAX)
            canvas.rect(
                cx, row, step - 4, 20, fill="#f2f3f4" if not edge else "#fadbd8", stroke="#aab7b8"
            )
            canvas.text(
                cx + (step - 4) / 2,
                row + 14,
                f"{v:+d}" if v else "0",
                text_anchor="middle",
                font_size=9,
                fill="#566573",
            )
        cx = x + 80 + (max(TRACK_MIN, min(TRACK_MAX, value)) - TRACK_MIN) * step
        marker = canvas.circle(cx + (step - 4) / 2, row + 10, 9, fill=colour, stroke=INK)
        canvas.tooltip(marker, f"{pillar}: {value}")
        if pillar in sides:
            want = "strong" if sides[pillar] > 0 else "weak"
            canvas.text(x + 80 + 11 * step + 6, row + 14, f"your goal: {want}", font_size=10)
        said.append(f"{pillar} {value}")
    return "Tracks: " + ", ".join(said) + "."


def _decks(canvas: Canvas, view: dict[str, Any], x: float, y: float) -> None:
    canvas.text(x, y + 12, "Decks (top backs)", font_weight="bold")
    for i, deck in enumerate(view["decks"]):
        _back(canvas, x + i * 60, y + 20, deck.get("top"), str(deck["count"]))
        canvas.text(x + i * 60, y + 82, f"deck {i}: {deck['count']}", font_size=10)
    canvas.text(x + 200, y + 36, f"Discard pile: {view['discard_count']}", font_size=11)
    revealed = view.get("discard_revealed") or []
    if revealed:
        canvas.text(x + 200, y + 52, f"{len(revealed)} revealed there, last:", font_size=10)
        _front(canvas, x + 200, y + 58, revealed[-1])


def _table(canvas: Canvas, view: dict[str, Any], x: float, y: float, desc: list[str]) -> float:
    """The round: face-down proposals on the table, the revealed ones with their fate, the
    card awaiting a change of mind, and the viewer's own pitch."""
    rnd = view.get("round")
    canvas.text(
        x, y + 12, f"Round {rnd['number']}" if rnd else "No round under way", font_weight="bold"
    )
    if not rnd:
        return y + 24
    at = x
    for advisor in [p for p in view["players"] if p in rnd["table"]]:
        back = rnd["table"][advisor]
        _back(canvas, at, y + 20, back)
        canvas.text(at, y + 82, advisor, font_size=10, limit=10)
        at += BW + 14
    if rnd["table"]:
        desc.append(f"{len(rnd['table'])} proposals face down on the table.")
    if rnd.get("pitched"):
        done = [p for p in view["players"] if rnd["pitched"].get(p)]
        canvas.text(
            at, y + 30, "pitched: " + (", ".join(done) or "nobody yet"), font_size=10, limit=60
        )
    if rnd.get("accepted") is not None:
        canvas.text(
            x + 90,
            y + 12,
            "accepted: " + (", ".join(rnd["accepted"]) or "none"),
            font_size=10,
            limit=60,
        )
    at = max(at, x + 200)
    for entry in rnd["revealed"][-4:]:
        note = f"{entry['advisor']}: {entry['decision']}" + (
            " (changed)" if entry["changed"] else ""
        )
        _front(canvas, at, y + 20, entry["card"], note=note)
        at += CW + 8
    if rnd["revealed"]:
        desc.append(
            "Revealed: "
            + "; ".join(f"{e['card']['title']} ({e['decision']})" for e in rnd["revealed"])
            + "."
        )
    if rnd.get("pending"):
        pend = rnd["pending"]
        _front(canvas, at, y + 20, pend["card"], note=f"awaiting: {pend['decision']}")
    if rnd.get("mine"):
        canvas.text(WIDTH - 10 - CW, y + 12, "Your pitch", font_size=10)
        _front(canvas, WIDTH - 10 - CW, y + 20, rnd["mine"])
    return y + 110


def _hands(canvas: Canvas, view: dict[str, Any], x: float, y: float, desc: list[str]) -> float:
    """Every advisor's hand as backs (what everyone sees), with exchange and vote markers."""
    players = view["players"]
    exchange = (view.get("exchange") or {}).get("chosen", {})
    voted = (view.get("votes") or {}).get("voted", {})
    for player in players:
        colour = seat_colour(players, player)
        role = "Monarch" if player == view["monarch"] else "advisor"
        canvas.rect(x, y + 2, 10, 10, fill=colour)
        canvas.text(x + 14, y + 11, f"{player} ({role})", font_weight="bold", limit=30)
        notes = []
        if player in exchange:
            notes.append("exchange chosen" if exchange[player] else "choosing an exchange")
        if player in voted:
            notes.append("voted" if voted[player] else "to vote")
        if notes:
            canvas.text(x + 14, y + 26, ", ".join(notes), font_size=10)
        held = view["hands"].get(player)
        if held is not None:
            for i, back in enumerate(held["backs"][:14]):
                _back(canvas, x + 200 + i * (BW + 4), y, back)
            canvas.text(
                x + 200 + min(len(held["backs"]), 14) * (BW + 4) + 4,
                y + 28,
                f"{held['count']} in hand",
                font_size=10,
            )
            desc.append(f"{player}: {held['count']} proposals in hand.")
        y += 56
    mine = (view.get("votes") or {}).get("mine")
    if mine is not None:
        canvas.text(x, y + 10, f"Your vote: {'yes' if mine else 'no'}", font_size=11)
        y += 16
    if view.get("story"):
        canvas.text(x, y + 10, f"Story told by {view['story']['advisor']}", font_size=11)
        y += 16
    return y + 6


def _pile(canvas: Canvas, view: dict[str, Any], x: float, y: float, desc: list[str]) -> float:
    """The Monarch's pile of accepted proposals (face up), newest last."""
    pile = view["pile"]
    canvas.text(x, y + 12, f"The Monarch's pile: {len(pile)} proposals", font_weight="bold")
    if pile:
        step = min(CW + 8, (WIDTH - 20 - CW) / max(1, len(pile) - 1))
        for i, card in enumerate(pile):
            _front(canvas, x + i * step, y + 18, card)
    desc.append(f"The Monarch's pile holds {len(pile)} proposals.")
    return y + CH + 30


def _scores(canvas: Canvas, view: dict[str, Any], x: float, y: float, desc: list[str]) -> None:
    line = ", ".join(f"{p} {view['scores'].get(p, 0)}" for p in view["players"])
    canvas.text(x, y + 12, "Scores: " + line, font_weight="bold", limit=200)
    desc.append("Scores: " + line + ".")
