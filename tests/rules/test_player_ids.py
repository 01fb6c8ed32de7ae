"""Player ids: the PRECIS safe set and TR 39 look-alikes (``rules.player_ids``), as every game's
setup applies them (``rules.engine.check_players``)."""

from __future__ import annotations

import unicodedata

import pytest

from rules.engine import check_players
from rules.errors import InvalidSetup
from rules.player_ids import id_problem, look_alikes, skeleton
from rules.registry import GAMES

SAFE = ["ann", "bob", "Ann-Marie", "player_1", "jürgen", "李", "Ωmega", "o'neil", "x.y@z"]


@pytest.mark.parametrize("player", SAFE)
def test_safe_ids_pass_unchanged(player):
    assert id_problem(player) is None


@pytest.mark.parametrize(
    "player, reason",
    [
        ("a\x00b", "U+0000"),  # NUL
        ("a\nb", "U+000A"),  # newline
        ("a\u202eb", "U+202E"),  # RIGHT-TO-LEFT OVERRIDE
        ("a\u200db", "U+200D"),  # ZERO WIDTH JOINER
        ("a b", "U+0020"),  # space
        ("\u00a0ann", "U+00A0"),  # no-break space
        ("\ufb01re", "U+FB01"),  # the ligature fi
        ("e\u0301", "it would read 'é'"),  # decomposed: not NFC
        ("\uff41nn", "it would read 'ann'"),  # fullwidth a
    ],
)
def test_unsafe_ids_are_refused_never_normalised(player, reason):
    problem = id_problem(player)
    assert problem is not None and reason in problem


@pytest.mark.parametrize(
    "a, b",
    [
        ("ann", "Ann"),
        ("ann", "\u0430nn"),
        ("ANN", "\u0430nn"),
        ("Ian", "lan"),
        ("0scar", "Oscar"),
        ("bob", "\u0412ob"),  # Cyrillic capital Ve: its skeleton is "Bob", then case
        ("tom", "\u0422om"),  # Cyrillic capital Te
        ("ken", "\u039aen"),  # Greek capital Kappa
    ],
)
def test_ids_differing_by_case_or_confusables_are_one_seat(a, b):
    assert look_alikes([a, b]) == [(1, 0)]
    assert look_alikes([a, "zed", b]) == [(2, 0)]


def test_no_capital_look_alike_passes_for_a_lowercase_latin_letter():
    """Every letter whose skeleton is one Latin letter (a capital look-alike, Greek, Cyrillic,
    Cherokee...) is the same seat as that letter in lower case: ``Вob`` cannot sit beside
    ``bob``."""
    passed = []
    for code in range(0x80, 0x30000):
        char = chr(code)
        if unicodedata.category(char)[0] != "L" or id_problem(char + "ob") is not None:
            continue
        shape = skeleton(char)
        if len(shape) == 1 and shape.isascii() and shape.isalpha():
            if not look_alikes([shape.lower() + "ob", char + "ob"]):
                passed.append(f"U+{code:04X}")
    assert passed == []


def test_distinct_ids_stay_distinct():
    assert look_alikes(["ann", "bob", "cat", "dan"]) == []
    assert look_alikes(["ann", "anne"]) == []
    assert skeleton("ann") != skeleton("amm")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_look_alikes_naming_the_index(game):
    with pytest.raises(InvalidSetup) as caught:
        GAMES[game].setup(["ann", "bob", "\u0430nn"], 1, {})
    found = [v for v in caught.value.violations if v.code == "duplicate_player"]
    assert len(found) == 1
    assert found[0].message.startswith("players.2 ") and "players.0" in found[0].message
    assert found[0].rule == f"{game}#players"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_control_and_format_characters(game):
    with pytest.raises(InvalidSetup) as caught:
        check_players(GAMES[game], ["ann", "b\u202eob", "cat"])
    assert [(v.code, v.message.split()[0]) for v in caught.value.violations] == [
        ("invalid_player_id", "players.1")
    ]
    assert "\u202e" not in caught.value.violations[0].message  # the override is escaped
