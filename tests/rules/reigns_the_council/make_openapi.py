"""Write the Reigns: The Council component schemas of ``openapi.yaml`` (the ``Council…`` block).

The schemas are written here as data and their examples are produced by the rules themselves
(seeded games), so every example is real. The block sits between the BEGIN/END markers below;
``test_rtc_openapi.py`` checks it is up to date.

    cd /work/main && .venv/bin/python tests/rules/reigns_the_council/make_openapi.py          # rewrite
    cd /work/main && .venv/bin/python tests/rules/reigns_the_council/make_openapi.py --check  # exit 1 if stale
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any


ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.contract import spec_blocks  # noqa: E402
from tests.contract.spec_blocks import REF, nullable, ref  # noqa: E402
from rules.reigns_the_council import GAME  # noqa: E402
from rules.reigns_the_council.content import MAX_DECK, PILLARS  # noqa: E402
from rules.reigns_the_council.integrity import PHASES  # noqa: E402

SPEC = ROOT / "openapi.yaml"
BEGIN = "    # BEGIN REIGNS THE COUNCIL SCHEMAS (tests/rules/reigns_the_council/make_openapi.py)\n"
END = "    # END REIGNS THE COUNCIL SCHEMAS\n"
def obj(props: dict[str, Any], required: list[str] | None = None, description: str | None = None,
        examples: list[Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["required"] = list(props) if required is None else required
    out["additionalProperties"] = False
    out["properties"] = props
    if examples:
        out["examples"] = examples
    return out


def mapping(values: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "additionalProperties": values}
    if description:
        out["description"] = description
    return out


PLAYER = ref("PlayerId")
PLAYERS = {"type": "array", "items": PLAYER}
CARD_ID = {"type": "string", "description": "A proposal card id (`p01`…`p72` in the default deck)."}
CARD_IDS = {"type": "array", "items": CARD_ID}
INT0 = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
PILLAR = ref("CouncilPillar")
BACK = ref("CouncilBack")
CHANGES = ref("CouncilChanges")
TRACKS = ref("CouncilTracks")
DECISION = {"type": "string", "enum": ["accepted", "rejected"]}
GOAL_ID = {"type": "string", "description": "A secret goal id, e.g. `weak-church-strong-army`.",
           "pattern": "^(strong|weak)-[a-z]+-(strong|weak)-[a-z]+$"}


# -- real games for the examples ----------------------------------------------------------------------
def sample() -> dict[str, Any]:
    """Play seeded games; keep the first event of each type, a move of each type, states of
    interesting phases, views and the final score."""
    events: dict[str, Any] = {}
    moves: dict[str, Any] = {}
    states: dict[str, Any] = {}
    final = None
    small = ([{"back": ["church", "army"], "accept": {"church": 1, "army": -1}, "reject": {"army": 2}}] * 10
             + [{"id": "tax", "title": "Tax the mills", "back": ["people", "wealth"], "accept": {"wealth": -2},
                 "reject": {"people": 1}}] + [{"back": ["people"], "accept": {"people": 2}, "reject": {"people": -1}}] * 15)
    for seed, options in ((5, {"first_monarch": "ann"}), (6, {"story_point": "vote"}), (7, {}), (8, {}), (9, {}),
                          (12, {"deck": small})):
        state = GAME.setup(["ann", "bob", "cat"], seed, options)
        chooser = random.Random(seed)
        while state["status"] != "finished":
            legal = GAME.legal_moves(state)
            for m in legal:
                moves.setdefault(m["type"], m)
            states.setdefault(state["phase"], state)
            state, evs = GAME.apply(state, chooser.choice(legal))
            for e in evs:
                events.setdefault(e["type"], e)
        final = final or state
    decide = states["decide"]
    return {"events": events, "moves": moves, "states": states, "final": final,
            "score": GAME.score(final).to_dict(), "advisor_view": GAME.view(states["pitch"], "bob"),
            "monarch_view": GAME.view(decide, decide["reigns"][-1]["monarch"]),
            "spectator": GAME.view(states["reveal"], None)}


def schemas(s: dict[str, Any]) -> dict[str, Any]:
    ev, mv, st = s["events"], s["moves"], s["states"]
    out: dict[str, Any] = {}
    out["CouncilPillar"] = {"type": "string", "enum": list(PILLARS),
                            "description": "A pillar of society: The Church, The Army, The People, Wealth."}
    out["CouncilBack"] = {"type": "array", "items": PILLAR, "minItems": 1, "maxItems": 4, "uniqueItems": True,
                          "description": "A card's public back: the pillars it affects, in board order.",
                          "examples": [["church", "army"]]}
    out["CouncilChanges"] = {"type": "object", "propertyNames": PILLAR,
                             "additionalProperties": {"type": "integer", "minimum": -5, "maximum": 5},
                             "description": "Signed changes per pillar (a zone of a card's front).",
                             "examples": [{"church": 2, "army": -1}]}
    out["CouncilTracks"] = obj({p: {"type": "integer", "minimum": -5, "maximum": 5} for p in PILLARS},
                               description="The token of each pillar, -5..+5 (±5 are the end spaces).",
                               examples=[{"church": -2, "army": 5, "people": 0, "wealth": 1}])
    out["CouncilCard"] = obj({"title": {"type": "string"}, "back": BACK, "accept": CHANGES, "reject": CHANGES},
                             description="A proposal card in the catalogue: back, white zone (`accept`) and black "
                                         "zone (`reject`).")
    out["CouncilCardFace"] = obj({"id": CARD_ID, "title": {"type": "string"}, "back": BACK, "accept": CHANGES,
                                  "reject": CHANGES},
                                 description="A card shown with its front, to those who may see it.")
    out["CouncilDeckCard"] = obj({"id": CARD_ID, "title": {"type": "string"}, "back": BACK, "accept": CHANGES,
                                  "reject": CHANGES}, required=["back", "accept", "reject"],
                                 description="A card of a custom deck (`options.deck`); `id` and `title` optional.")
    points = obj({"acceptance": INT0, "story": INT0, "pile": INT0,
                  "goal": {"type": "object", "propertyNames": PILLAR, "additionalProperties": INT0,
                           "description": "Goal points per pillar of the goal (after a death)."}})
    out["CouncilReign"] = obj({
        "number": {"type": "integer", "minimum": 1}, "monarch": PLAYER,
        "end": nullable({"type": "string", "enum": ["death", "abdication"]}),
        "goals": nullable(mapping(GOAL_ID, "Each advisor's goal, revealed after a death.")),
        "tracks": nullable(TRACKS), "points": mapping(points, "Each player's points in this reign.")},
        description="One reign: its Monarch, how it ended (null while it goes on), the goals revealed after a "
                    "death, the tracks at its end and the points scored in it.")
    rnd = obj({
        "number": {"type": "integer", "minimum": 1},
        "pitches": nullable(mapping(nullable(CARD_ID), "During the pitch: each advisor's secret pitch (null: "
                                                       "not yet); the card stays in the hand until all have pitched.")),
        "table": mapping(CARD_ID, "Advisor to their face-down card."),
        "accepted": nullable(PLAYERS),
        "revealed": {"type": "array", "items": obj({"advisor": PLAYER, "card": CARD_ID, "decision": DECISION,
                                                    "changed": BOOL})},
        "pending": nullable(obj({"advisor": PLAYER, "card": CARD_ID, "decision": DECISION})),
        "mind_changed": BOOL, "discarded": PLAYERS}, description="The current (or last) round.")
    out["CouncilRound"] = rnd
    outcome_ref = nullable(ref("Outcome"))
    state_props = {
        "game": {"type": "string", "const": "reigns-the-council"},
        "schema_version": {"type": "integer", "const": 2},
        "players": {**PLAYERS, "minItems": 3, "maxItems": 4},
        "status": {"type": "string", "enum": ["in_progress", "finished"]},
        "phase": {"type": "string", "enum": list(PHASES)},
        "active_players": PLAYERS,
        "move_count": {"type": "integer", "minimum": 0, "maximum": 2**53 - 1},
        "outcome": outcome_ref,
        "seed": ref("Seed"),
        "rng": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
        "story_point": {"type": "string", "enum": ["auto", "vote"]},
        "cards": mapping(ref("CouncilCard"), "The card catalogue: id to card (never changes during a game)."),
        "tracks": TRACKS,
        "decks": {"type": "array", "items": CARD_IDS, "minItems": 3, "maxItems": 3,
                  "description": "The three decks, top card first."},
        "discard": CARD_IDS,
        "discard_revealed": {**CARD_IDS, "description": "The cards of `discard` that went there face up (rejected "
                                                        "proposals, revealed), in discard order: they stay public."},
        "pile": {**CARD_IDS, "description": "The Monarch's pile of accepted proposals."},
        "hands": mapping(CARD_IDS, "Each player's hand (the Monarch's is empty)."),
        "goals": mapping(GOAL_ID, "Each advisor's secret goal this reign."),
        "draw_queue": {**PLAYERS, "description": "Who draws next, one entry per card still to draw."},
        "exchange": nullable(mapping(nullable(CARD_IDS), "During the exchange: each advisor's secret choice.")),
        "round": nullable(ref("CouncilRound")),
        "votes": nullable(mapping(nullable(BOOL), "During a vote: each voter's secret vote (null: not yet).")),
        "story": nullable(obj({"advisor": PLAYER})),
        "reigns": {"type": "array", "items": ref("CouncilReign"), "minItems": 1},
    }
    out["ReignsTheCouncilState"] = obj(
        state_props, description="A whole Reigns: The Council state, hidden parts included (see "
                                 "docs/architecture.md).",
        examples=[st["decide"]])
    face = ref("CouncilCardFace")
    view_round = obj({
        "number": {"type": "integer", "minimum": 1},
        "pitched": nullable(mapping(BOOL, "During the pitch: who has pitched.")),
        "table": mapping(BACK, "Advisor to the back of their face-down card."),
        "accepted": nullable(PLAYERS),
        "revealed": {"type": "array", "items": obj({"advisor": PLAYER, "card": face, "decision": DECISION,
                                                    "changed": BOOL})},
        "pending": nullable(obj({"advisor": PLAYER, "card": face, "decision": DECISION})),
        "mind_changed": BOOL, "discarded": PLAYERS,
        "mine": nullable(face)}, required=["number", "pitched", "table", "accepted", "revealed", "pending",
                                          "mind_changed", "discarded"],
        description="The round as the viewer sees it; `mine` (players only) is the viewer's own pitched card.")
    view_props = {
        "game": state_props["game"], "schema_version": state_props["schema_version"],
        "viewer": nullable(PLAYER),
        "role": nullable({"type": "string", "enum": ["monarch", "advisor"]}),
        "players": state_props["players"], "status": state_props["status"], "phase": state_props["phase"],
        "active_players": PLAYERS, "move_count": state_props["move_count"], "outcome": outcome_ref,
        "story_point": state_props["story_point"],
        "reign": {"type": "integer", "minimum": 1}, "monarch": PLAYER, "tracks": TRACKS,
        "decks": {"type": "array", "minItems": 3, "maxItems": 3,
                  "items": obj({"count": INT0, "top": nullable(BACK)})},
        "discard_count": INT0,
        "discard_revealed": {"type": "array", "items": face,
                             "description": "The rejected proposals revealed face up that still lie in the discard "
                                            "pile, in discard order (the rest of the pile is face down)."},
        "pile": {"type": "array", "items": face},
        "hands": mapping(obj({"count": INT0, "backs": {"type": "array", "items": BACK}}),
                         "Each advisor's hand size and card backs."),
        "draw_queue": PLAYERS,
        "exchange": nullable(obj({"chosen": mapping(BOOL), "mine": CARD_IDS}, required=["chosen"])),
        "round": nullable(view_round),
        "votes": nullable(obj({"voted": mapping(BOOL), "mine": BOOL}, required=["voted"])),
        "story": nullable(obj({"advisor": PLAYER})),
        "reigns": {"type": "array", "items": ref("CouncilReign")},
        "scores": ref("Scores"),
        "hand": {"type": "array", "items": face, "description": "The viewer's own hand (advisors only)."},
        "goal": nullable(obj({"id": GOAL_ID, "sides": {"type": "object", "propertyNames": PILLAR,
                                                         "additionalProperties": {"type": "integer",
                                                                                  "enum": [-1, 1]}}})),
    }
    out["ReignsTheCouncilView"] = obj(
        view_props, required=[k for k in view_props if k not in ("hand", "goal")],
        description="A state as `viewer` sees it (null: a spectator). An advisor sees their hand's fronts and "
                    "goal; everyone sees hand backs, each deck's top back, pitched backs, revealed cards, tracks "
                    "and scores; secret choices show only who has chosen.",
        examples=[s["advisor_view"], s["monarch_view"], s["spectator"]])

    def move(kind: str, description: str, **params: Any) -> dict[str, Any]:
        props = {"player": PLAYER, "type": {"type": "string", "const": kind}, **params}
        return obj(props, description=description, examples=[mv[kind]] if kind in mv else None)

    moves = {
        "draw": move("draw", "Draw the top card of deck 0, 1 or 2 (not an empty one): the seven cards of a reign, "
                     "the exchange's replacements and the end-of-round draw.",
                     deck={"type": "integer", "description": "0, 1 or 2."}),
        "exchange": move("exchange", "Once per reign, secretly: the cards to discard and replace (any subset of "
                         "the hand, possibly empty; order irrelevant).", cards=CARD_IDS),
        "pitch": move("pitch", "Secretly pitch a card of your hand to the Monarch.", card=CARD_ID),
        "decide": move("decide", "The Monarch accepts these advisors' proposals (at least one) and rejects the "
                       "others.", accept=PLAYERS),
        "reveal": move("reveal", "The Monarch reveals this advisor's face-down card (rejected ones first).",
                       advisor=PLAYER),
        "change_mind": move("change_mind", "First round only, once: reverse the decision on the card just "
                            "revealed."),
        "keep_decision": move("keep_decision", "First round, after a reveal: keep the decision."),
        "story_vote": move("story_vote", "`story_point: vote`: approve or refuse the death story's point.",
                           approve=BOOL),
        "end_vote": move("end_vote", "After a reign: vote to end the game now (it ends if everyone does).",
                         end=BOOL),
        "name_monarch": move("name_monarch", "The outgoing Monarch names the next, who has not reigned yet.",
                             monarch=PLAYER),
    }
    names = {k: "Council" + "".join(p.capitalize() for p in k.split("_")) + "Move" for k in moves}
    out["ReignsTheCouncilMove"] = {"description": "A Reigns: The Council move; `type` selects the parameters.",
                                   "oneOf": [ref(names[k]) for k in moves],
                                   "discriminator": {"propertyName": "type",
                                                     "mapping": {k: REF + names[k] for k in moves}}}
    for k, schema in moves.items():
        out[names[k]] = schema

    def event(kind: str, description: str, props: dict[str, Any], required: list[str] | None = None) -> dict:
        full = {"type": {"type": "string", "const": kind}, **props}
        req = ["type", *(list(props) if required is None else required)]
        return obj(full, required=req, description=description, examples=[ev[kind]] if kind in ev else None)

    reason = {"type": "string", "enum": ["acceptance", "story", "pile", "goal"]}
    events = {
        "reign_started": event("reign_started", "A reign was set up: decks sizes after the shuffle.", {
            "reign": {"type": "integer", "minimum": 1}, "monarch": PLAYER, "decks": {"type": "array", "items": INT0}}),
        "goal_dealt": event("goal_dealt", "An advisor got a secret goal (`goal` private to them).",
                            {"player": PLAYER, "goal": GOAL_ID}, required=["player"]),
        "card_drawn": event("card_drawn", "A card was drawn; its back is public, `card` private to the drawer.", {
            "player": PLAYER, "deck": INT0, "back": BACK, "card": CARD_ID}, required=["player", "deck", "back"]),
        "decks_rebuilt": event("decks_rebuilt", "The discard pile was shuffled into three new decks.",
                               {"sizes": {"type": "array", "items": INT0}}),
        "exchange_started": event("exchange_started", "The advisors may now exchange cards.", {}),
        "exchange_chosen": event("exchange_chosen", "An advisor chose (`cards` private to them).",
                                 {"player": PLAYER, "cards": CARD_IDS}, required=["player"]),
        "cards_exchanged": event("cards_exchanged", "Everyone chose: an advisor discarded `count` cards (ids "
                                 "private).", {"player": PLAYER, "count": INT0, "cards": CARD_IDS},
                                 required=["player", "count"]),
        "round_started": event("round_started", "A round began.", {"reign": {"type": "integer", "minimum": 1},
                                                                     "round": {"type": "integer", "minimum": 1}}),
        "proposal_pitched": event("proposal_pitched", "An advisor pitched (`card` private to them).",
                                  {"player": PLAYER, "card": CARD_ID}, required=["player"]),
        "proposals_on_table": event("proposals_on_table", "Everyone pitched: the backs of the face-down cards.",
                                    {"backs": mapping(BACK)}),
        "proposals_decided": event("proposals_decided", "The Monarch's decision.", {"accepted": PLAYERS,
                                                                                   "rejected": PLAYERS}),
        "points_scored": event("points_scored", "Points scored (`pillars`: goal points per pillar).", {
            "player": PLAYER, "points": INT0, "reason": reason,
            "pillars": {"type": "object", "propertyNames": PILLAR, "additionalProperties": INT0}},
            required=["player", "points", "reason"]),
        "proposal_revealed": event("proposal_revealed", "A face-down card was revealed, front included.", {
            "advisor": PLAYER, "card": CARD_ID, "decision": DECISION, "title": {"type": "string"}, "back": BACK,
            "accept": CHANGES, "reject": CHANGES}),
        "mind_changed": event("mind_changed", "The Monarch reversed the decision on the revealed card.",
                              {"advisor": PLAYER, "card": CARD_ID, "decision": DECISION}),
        "proposal_resolved": event("proposal_resolved", "A zone was applied; `tracks` after it.", {
            "advisor": PLAYER, "card": CARD_ID, "decision": DECISION,
            "zone": {"type": "string", "enum": ["white", "black"]}, "changes": CHANGES, "tracks": TRACKS}),
        "monarch_died": event("monarch_died", "A token reached an end space.", {
            "monarch": PLAYER, "advisor": PLAYER, "card": CARD_ID, "pillars": {"type": "array", "items": PILLAR}}),
        "proposals_discarded": event("proposals_discarded", "These advisors' cards were discarded unrevealed.",
                                     {"advisors": PLAYERS}),
        "story_vote_started": event("story_vote_started", "The others vote on the story point.",
                                    {"advisor": PLAYER}),
        "story_vote_cast": event("story_vote_cast", "A player voted (`approve` private to them).",
                                 {"player": PLAYER, "approve": BOOL}, required=["player"]),
        "story_vote_result": event("story_vote_result", "Everyone voted on the story point.", {
            "advisor": PLAYER, "votes": mapping(BOOL), "awarded": BOOL}),
        "monarch_abdicated": event("monarch_abdicated", "The Monarch abdicated with `pile` cards.",
                                   {"monarch": PLAYER, "pile": INT0}),
        "goals_revealed": event("goals_revealed", "After a death, every advisor's goal.",
                                {"goals": mapping(GOAL_ID)}),
        "reign_ended": event("reign_ended", "A reign ended; `points` per player in it.", {
            "reign": {"type": "integer", "minimum": 1}, "monarch": PLAYER,
            "cause": {"type": "string", "enum": ["death", "abdication"]}, "points": mapping(INT0)}),
        "end_vote_started": event("end_vote_started", "Everyone votes on ending the game early.", {}),
        "end_vote_cast": event("end_vote_cast", "A player voted (`end` private to them).",
                               {"player": PLAYER, "end": BOOL}, required=["player"]),
        "end_vote_result": event("end_vote_result", "Everyone voted; `ended` when all voted to end.",
                                 {"votes": mapping(BOOL), "ended": BOOL}),
        "monarch_named": event("monarch_named", "The outgoing Monarch named the next.",
                               {"by": PLAYER, "monarch": PLAYER}),
        "game_over": event("game_over", "The game ended.", {
            "winners": PLAYERS, "draw": BOOL, "scores": ref("Scores"),
            "reason": {"type": "string", "enum": ["game_end", "early_end"]}}),
    }
    enames = {k: "Council" + "".join(p.capitalize() for p in k.split("_")) + "Event" for k in events}
    out["ReignsTheCouncilEvent"] = {"description": "Something that happened in a Reigns: The Council game.",
                                    "oneOf": [ref(enames[k]) for k in events],
                                    "discriminator": {"propertyName": "type",
                                                      "mapping": {k: REF + enames[k] for k in events}}}
    for k, schema in events.items():
        out[enames[k]] = schema
    out["ReignsTheCouncilOptions"] = obj({
        "first_monarch": nullable({"type": "string"}),
        "story_point": nullable({"type": "string", "enum": ["auto", "vote"]}),
        "deck": nullable({"type": "array", "items": ref("CouncilDeckCard"), "maxItems": MAX_DECK}),
    }, required=[], description="Reigns: The Council options; each may be omitted or null for its default.",
        examples=[GAME.default_options(), {"first_monarch": "bob", "story_point": "vote"}])
    line = obj({"acceptance": INT0, "story": INT0, "pile": INT0,
                "goal": {"type": "object", "propertyNames": PILLAR, "additionalProperties": INT0},
                "goal_total": INT0, "total": INT0})
    total = obj({"acceptance": INT0, "story": INT0, "pile": INT0,
                 "goal": {"type": "object", "propertyNames": PILLAR, "additionalProperties": INT0},
                 "goal_total": INT0, "total": INT0})
    out["ReignsTheCouncilScoreBreakdown"] = obj({
        "reigns": {"type": "array", "items": obj({
            "reign": {"type": "integer", "minimum": 1}, "monarch": PLAYER,
            "end": nullable({"type": "string", "enum": ["death", "abdication"]}),
            "goals": nullable(mapping(GOAL_ID)), "players": mapping(line)})},
        "totals": mapping(total), "ranking": PLAYERS,
    }, description="Per reign and in total: acceptance points, story points, pile points and goal points "
                   "(per pillar, in each reign and summed over the reigns).", examples=[s["score"]["breakdown"]])
    out["ReignsTheCouncilContent"] = obj({
        "pillars": {"type": "array", "items": obj({"id": PILLAR, "name": {"type": "string"}})},
        "track": obj({"min": {"type": "integer"}, "max": {"type": "integer"}, "start": {"type": "integer"}}),
        "deck": {"type": "array", "items": ref("CouncilCardFace")},
        "goals": {"type": "array", "items": obj({"id": GOAL_ID, "sides": {
            "type": "object", "propertyNames": PILLAR, "additionalProperties": {"type": "integer", "enum": [-1, 1]}}})},
    }, description="The default content: the four pillars, the track, the 72 proposals and the 24 secret goals.")
    return out


def render(schemas_: dict[str, Any]) -> str:
    """This game's block, between its BEGIN/END lines."""
    return spec_blocks.render(schemas_, BEGIN, END)


def splice(text: str, block: str) -> str:
    return spec_blocks.splice(text, block, BEGIN, END)


def main() -> int:
    text = SPEC.read_text("utf-8")
    fresh = splice(text, render(schemas(sample())))
    if "--check" in sys.argv:
        return 0 if fresh == text else 1
    SPEC.write_text(fresh, "utf-8")
    print("openapi.yaml: Reigns: The Council schemas written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
