"""Pictures of views (rules/pictures, issue 27): for every game, every seat and the spectator,
over random games, the SVG is well-formed, accessible (``<title>``, ``<desc>``, text labels) and
holds nothing hidden from its viewer.

"Hidden" is game-independent: every string of the state that is not in the viewer's view (other
hands, deck order, the generator...). Painters take only a view, so this holds by construction;
these tests keep it so (a painter handed more than a view, or drawing something the view lacks,
fails here)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from rules.pictures import MEDIA_TYPE, PAINTERS, render
from rules.playout import choose_move
from rules.registry import GAMES, get_game

SVG = "{http://www.w3.org/2000/svg}"
SAMPLES = 12
"""States pictured per game and seed, spread over the whole game."""


def strings(obj, keys: bool = False) -> set[str]:
    """Every string value of a JSON value, and with ``keys`` its keys too (a view's keys are
    what it shows as well: the Council's tracks are keyed by pillar)."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        found = set(obj) if keys else set()
        return found.union(*(strings(v, keys) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(strings(v, keys) for v in obj))
    return set()


def words(root: ET.Element) -> str:
    """Every text and attribute value of the picture, one per line."""
    out = []
    for element in root.iter():
        out.extend(element.attrib.values())
        if element.text:
            out.append(element.text)
    return "\n".join(out)


def shown(text: str, s: str) -> bool:
    """``s`` appears in ``text`` as a whole id/word (not inside a longer id)."""
    return re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) is not None


CATALOGUES = {
    "reign-and-ruin": ("cards",),
    "reign-absolute": ("units", "cards", "races"),
    "reign-supreme": ("cards",),
    "reigns-the-council": (),
}
"""Top-level fields of a state and its views that list the game's whole content (every card id,
every unit of every race). A view shows them to all, so they say nothing about *where* a card
is; they are left out on both sides, so that a card of another hand counts as hidden."""


def located(doc) -> dict:
    return {k: v for k, v in doc.items() if k not in CATALOGUES[doc["game"]]}


def leaks(state, view, text: str) -> list[str]:
    """The strings of the state, absent from the view, that the picture's ``text`` shows."""
    hidden = strings(located(state)) - strings(located(view), keys=True)
    return sorted(s for s in hidden if len(s) >= 2 and shown(text, s))


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    title, desc = root[0], root[1]
    assert title.tag == SVG + "title" and title.text and title.text.strip()
    assert desc.tag == SVG + "desc" and desc.text and len(desc.text) > 20
    assert root.get("role") == "img"
    assert root.find(f".//{SVG}text") is not None, "no text labels"
    assert root.find(f".//{SVG}script") is None and "on" not in {a[:2] for a in root.attrib}
    return root


def sampled_states(game, players, seed):
    """About SAMPLES states spread over one random game (concede rarely, to reach the end)."""
    state = game.setup(players, seed, {})
    chooser = random.Random(seed)
    states = [state]
    while state["status"] != "finished":
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser, 0.02))
        states.append(state)
    step = max(1, len(states) // SAMPLES)
    return states[::step] + [states[-1]]


CASES = [
    (game_id, n, seed)
    for game_id in sorted(GAMES)
    for n, seed in ((GAMES[game_id].min_players, 1), (GAMES[game_id].max_players, 2))
]


@pytest.mark.parametrize("game_id,n,seed", CASES, ids=[f"{g}-{n}p" for g, n, _ in CASES])
def test_every_seat_and_the_spectator_see_a_well_formed_picture_with_nothing_hidden(
    game_id, n, seed
):
    game = get_game(game_id)
    players = ["ann", "bob", "cat", "dan", "eve", "fay"][:n]
    checked = 0
    for state in sampled_states(game, players, seed):
        for viewer in [*players, None]:
            view = game.view(state, viewer)
            root = parse(render(view))
            text = words(root)
            leaked = leaks(state, view, text)
            assert not leaked, (viewer, state["move_count"], leaked[:5])
            checked += 1
    assert checked >= SAMPLES * (n + 1)


def test_the_leak_check_finds_a_card_the_view_does_not_hold():
    """The check above is not vacuous: a view given another player's hand (as a buggy view
    would) makes a picture the check refuses."""
    game = get_game("reign-and-ruin")
    state = game.setup(["ann", "bob"], 5, {"starting_player": "ann"})
    chooser = random.Random(5)
    while state["phase"] == "draft":
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser))
    view = game.view(state, "ann")
    assert not leaks(state, view, words(parse(render(view))))
    bad = dict(view, hand=view["hand"] + state["hands"]["bob"][:1])
    text = words(parse(render(bad)))
    assert leaks(state, view, text) == [state["hands"]["bob"][0]]


def test_every_registered_game_has_a_painter():
    assert set(PAINTERS) == set(GAMES)
    assert MEDIA_TYPE == "image/svg+xml"


def _card_ids(root: ET.Element) -> list[str]:
    return [e.get("data-card") for e in root.iter() if e.get("data-card")]


def _backs(root: ET.Element) -> int:
    return sum(1 for e in root.iter() if e.get("class") == "back")


def test_reign_and_ruin_shows_your_hand_face_up_and_the_others_as_backs():
    game = get_game("reign-and-ruin")
    state = game.setup(["ann", "bob"], 5, {"starting_player": "ann"})
    chooser = random.Random(5)
    while state["phase"] == "draft":
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser))
    ann = parse(render(game.view(state, "ann")))
    assert set(state["hands"]["ann"]) <= set(_card_ids(ann))
    assert not set(state["hands"]["bob"]) & set(_card_ids(ann))
    spectator = parse(render(game.view(state, None)))
    cards = set(_card_ids(spectator))
    assert not (set(state["hands"]["ann"]) | set(state["hands"]["bob"])) & cards
    assert _backs(spectator) >= 2 * 5 + 1  # two hands (five backs drawn at most each), the pile


def test_reign_absolute_shows_enemy_units_as_backs():
    game = get_game("reign-absolute")
    state = game.setup(["ann", "bob"], 3, {"races_by_player": {"ann": "empire", "bob": "orcs"}})
    chooser = random.Random(3)
    while state["phase"] != "play":
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser))
    root = parse(render(game.view(state, "ann")))
    units = [e for e in root.iter() if (e.get("class") or "").startswith("unit")]
    mine = [u for u in units if u.get("data-owner") == "ann"]
    theirs = [u for u in units if u.get("data-owner") == "bob"]
    assert mine and theirs
    assert all(u.get("data-unit", "").startswith("empire-") for u in mine)
    assert all(u.get("class") == "unit back" and u.get("data-unit") is None for u in theirs)
    assert not any(
        shown(words(root), uid) for uid in state["battlefield"] if uid.startswith("orcs")
    )


def test_reign_supreme_draws_every_space_wall_and_unit_with_its_hit_points():
    game = get_game("reign-supreme")
    state = game.setup(["ann", "bob"], 4, {"setup": "auto"})
    view = game.view(state, "ann")
    root = parse(render(view))
    spaces = root.find(f".//{SVG}g[@class='spaces']")
    board = {tuple(h) for h in view["scenario"]["midfield"]}
    for k in view["kingdoms"].values():
        board |= {tuple(h) for h in k["hexes"]}
    assert len([e for e in spaces if e.tag == SVG + "use"]) == len(board)
    walls = [e.get("data-wall") for e in root.iter() if e.get("data-wall")]
    assert sorted(walls) == sorted(w["id"] for w in view["walls"])
    units = {e.get("data-unit"): e for e in root.iter() if e.get("data-unit")}
    placed = {u for u, unit in view["units"].items() if unit["at"] is not None}
    assert set(units) == placed and placed
    some = sorted(placed)[0]
    label = units[some].find(f"{SVG}title").text
    assert "hit points" in label and view["units"][some]["army"] in label


def test_the_council_shows_fronts_only_to_their_holder():
    game = get_game("reigns-the-council")
    state = game.setup(["ann", "bob", "cat"], 9, {})
    chooser = random.Random(9)
    while state["phase"] in ("deal",):
        state, _ = game.apply(state, choose_move(game.legal_moves(state), chooser))
    for viewer in state["players"]:
        root = parse(render(game.view(state, viewer)))
        ids = set(_card_ids(root))
        own = {c for c in state["hands"].get(viewer, [])}
        assert own <= ids
        others = {c for p, hand in state["hands"].items() if p != viewer for c in hand}
        assert not others & ids


def test_user_strings_are_escaped_and_cannot_add_markup():
    """Player ids are the client's strings: markup in them stays text. (Characters XML forbids
    cannot be in a player id since the safe set of issue 24; ``clean`` still replaces them in
    any text, below.)"""
    game = get_game("reign-and-ruin")
    players = ["<script>alert(1)</script>", 'a"b&c', "]]>x"]
    state = game.setup(players, 1, {})
    for viewer in [*players, None]:
        svg = render(game.view(state, viewer))
        root = parse(svg)
        assert "<script" not in svg
        assert "<script>alert(1)</script>" in words(root)  # shown as text, escaped


def test_characters_xml_forbids_are_replaced():
    """Any text drawn (custom content is the client's too) is fit for XML 1.0: a forbidden
    character becomes U+FFFD, so a picture always parses."""
    from rules.pictures.svg import clean

    assert clean("a\x01b\x00c") == "a\ufffdb\ufffdc"
