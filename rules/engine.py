"""The interface every game implements, and small helpers all games share.

A game is an object with pure functions over JSON states. ``api/`` calls only what is
declared here, so a new game plugs in by implementing :class:`Game` and registering it in
:mod:`rules.registry`; nothing in the HTTP layer changes.

Moves are JSON objects at the API's edge (``legal_moves``, ``violations``, ``apply``). Inside,
a game may use a compact internal form, "actions" (``legal_actions``, ``apply_action``,
``move_of``), which random playouts and benchmarks use to skip building dicts and checking again
a move the game itself listed. By default an action is the move dict itself.

Input contract: states and moves handed to these methods have already passed the game's
marshmallow schemas (``schemas/``), so their *shape* is right (fields present, of the right JSON
types). The methods check *meaning*: integrity of a state (:meth:`Game.check_state`) and legality
of a move (:meth:`Game.violations`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from rules.engine_types import Action, Event, Move, PlayerId, Score, State, View, Violation
from rules.errors import InvalidSetup
from rules.integrity import is_seed, player_id_violations, raise_problems, to_move_problems
from rules.rng import MAX_SEED

__all__ = [
    "Game",
    "next_seat",
    "seats_after",
    "check_players",
    "check_seed",
    "unknown_options",
    "player_option_problems",
    "end_game",
]


class Game(ABC):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    move_types: ClassVar[tuple[str, ...]]
    schema_version: ClassVar[int]
    """The version of the rules its states are made by (each state's ``schema_version``): bumped
    by every rules change that changes a state, so a record names the rules it was played by."""
    bot_levels: tuple[str, ...] = ()
    """The levels ``POST /v1/games/{game}/suggest`` plays at; set where the game's bot is
    registered (``rules.registry``), empty for a game without bots."""

    # -- catalogue -------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The GameInfo of ``GET /v1/games``: id, title, player counts, options, move types, bot
        levels."""
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.default_options(),
            "move_types": list(self.move_types),
            "bot_levels": list(self.bot_levels),
        }

    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """Every option with its documented default."""

    @abstractmethod
    def content(self) -> dict[str, Any]:
        """The default content (decks, races, units, boards), as data."""

    # -- the game --------------------------------------------------------------------------
    # ``setup``, ``apply`` and ``check_state`` are the one place where ``to_move`` is written and
    # checked, for every game (contract, Fairness: "Every state, view and session answer has
    # `to_move`"); a game implements ``new_state``, ``next_state`` and ``check_integrity``.
    def setup(self, players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
        """A new game, with its ``to_move``, for ``players`` that pass :func:`check_players`.
        Raises :class:`~rules.errors.InvalidSetup`."""
        check_players(self, players)
        state = self.new_state(players, seed, options)
        state["to_move"] = self.waiting_on(state)
        return state

    @abstractmethod
    def new_state(self, players: Sequence[PlayerId], seed: int, options: dict[str, Any]) -> State:
        """A new game, every field but ``to_move``, for ``players`` that :meth:`setup` has
        already checked. Raises :class:`~rules.errors.InvalidSetup`."""

    def check_state(self, state: State) -> None:
        """Integrity of a client-sent state: the game's own checks, then ``to_move`` must be
        exactly :meth:`waiting_on` (a state that names someone else as waited on is broken).
        Raises :class:`~rules.errors.InvalidState`."""
        self.check_integrity(state)
        raise_problems(to_move_problems(state, self.waiting_on(state), f"{self.id}#to-move"))

    @abstractmethod
    def check_integrity(self, state: State) -> None:
        """The game's own integrity checks (every field but ``to_move``). Raises
        :class:`~rules.errors.InvalidState`."""

    @abstractmethod
    def legal_moves(self, state: State, player: PlayerId | None = None) -> list[Move]:
        """Every legal move, of ``player`` or of all active players; ``[]`` once finished."""

    def waiting_on(self, state: State) -> list[PlayerId]:
        """The players the game cannot go on without, in ``active_players`` order; ``[]`` once
        finished. By default every active player: a game lists a player as active only when it
        waits for them (a secret simultaneous choice waits on everyone listed). A game that also
        lists players who *may* act without being waited for overrides this (Reign Supreme,
        ruling RS 10). Session bot seats move exactly when the game waits on them."""
        if state["status"] == "finished":
            return []
        return list(state["active_players"])

    def in_the_game(self, state: State) -> list[PlayerId]:
        """The players still in the game, in seat order: by default every player. A game that
        puts players out before its end overrides this (Reign Absolute: not eradicated). A
        forfeit's winners are these (:func:`rules.forfeit.forfeit`): a player already out does
        not win because another player's time ran out."""
        return list(state["players"])

    @abstractmethod
    def violations(self, state: State, move: Move) -> list[Violation]:
        """Why ``move`` is illegal in ``state``; an empty list when it is legal."""

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        """The state after ``move`` (with its ``to_move``) and what happened. Never mutates
        ``state``.

        Raises :class:`~rules.errors.IllegalMove` (and changes nothing) when the move is illegal.
        """
        after, events = self.next_state(state, move)
        after["to_move"] = self.waiting_on(after)
        return after, events

    @abstractmethod
    def next_state(self, state: State, move: Move) -> tuple[State, list[Event]]:
        """The state after ``move`` (``to_move`` is :meth:`apply`'s to write) and what happened.
        Never mutates ``state``. Raises :class:`~rules.errors.IllegalMove`."""

    # -- the internal move form -------------------------------------------------------------
    # An action is a move in the game's own compact form; only ``move_of`` turns it into the
    # public move. The defaults make every game's actions its move dicts, so a game overrides
    # all of ``legal_actions``, ``move_of``, ``resolve`` and ``actions_without`` or none.
    def legal_actions(self, state: State, player: PlayerId | None = None) -> list[Action]:
        """:meth:`legal_moves` as actions, in the same order: ``move_of`` of each is exactly the
        move ``legal_moves`` lists at its place. By default the moves themselves."""
        return self.legal_moves(state, player)

    def move_of(self, action: Action) -> Move:
        """The public move of ``action`` (a fresh dict for a game with its own form). By default
        the action is the move."""
        return action

    def actions_without(self, actions: list[Action], move_type: str) -> list[Action]:
        """The ``actions`` whose move type is not ``move_type``, in order (a random playout that
        avoids ``concede``)."""
        return [a for a in actions if a["type"] != move_type]

    def apply_action(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """Exactly :meth:`apply` of ``move_of(action)``, for an action that
        :meth:`legal_actions` listed for this very ``state``, which the game need not check
        again. With its ``to_move``; never mutates ``state``."""
        after, events = self.resolve(state, action)
        after["to_move"] = self.waiting_on(after)
        return after, events

    def resolve(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """:meth:`next_state` for an action listed for ``state`` (``to_move`` is
        :meth:`apply_action`'s to write). By default the checked ``next_state`` of its move."""
        return self.next_state(state, self.move_of(action))

    @abstractmethod
    def score(self, state: State) -> Score:
        """Final or provisional standings with a breakdown."""

    @abstractmethod
    def view(self, state: State, player: PlayerId | None) -> View:
        """The state as ``player`` may see it; ``None`` is a spectator."""

    @abstractmethod
    def view_event(self, event: Event, player: PlayerId | None) -> Event:
        """``event`` with whatever ``player`` may not see removed."""

    def view_move(self, move: Move, player: PlayerId | None) -> Move:
        """``move`` as ``player`` may see it in a session's history.

        A player sees their own moves whole. Everyone else sees only who moved and the move's
        type: a move's parameters can be secret (the cards of a draft pick, a pitched proposal),
        and whatever of a move is public is told by its events, which ``view_event`` redacts.
        A game whose moves are all public may override this to show them whole.
        """
        if player is not None and move.get("player") == player:
            return move
        return {"player": move.get("player"), "type": move.get("type")}


def next_seat(players: Sequence[PlayerId], player: PlayerId) -> PlayerId:
    """The player on ``player``'s left: the next seat clockwise, wrapping."""
    return players[(players.index(player) + 1) % len(players)]


def seats_after(players: Sequence[PlayerId], player: PlayerId) -> list[PlayerId]:
    """Every other player, in seat order starting from the next seat ("each other player, in
    seat order from the next seat", as the rulings put it)."""
    i = players.index(player)
    return [players[(i + k) % len(players)] for k in range(1, len(players))]


def check_players(game: Game, players: Sequence[PlayerId]) -> None:
    """Player count within the game's range, each id from the safe set, no seat twice. Raises
    InvalidSetup naming ``players.<index>``.

    The ids are checked as every state's are (``rules.integrity.player_id_violations``), and
    only once the count is right: checking an id costs its PRECIS and confusables work, so a
    list of any length costs no more than the largest table's (a hunt's 100,000 ids took over a
    second to refuse)."""
    rule = f"{game.id}#players"
    if not game.min_players <= len(players) <= game.max_players:
        raise InvalidSetup(
            [
                Violation(
                    "player_count",
                    f"{game.title} is for {game.min_players} to {game.max_players} players, "
                    f"not {len(players)}.",
                    rule,
                )
            ]
        )
    found = player_id_violations(players, "players", rule)
    if found:
        raise InvalidSetup(found)


def check_seed(seed: Any, rule: str) -> None:
    """The seed of a new game must be a whole number from 0 to ``MAX_SEED`` (``rules.rng``: all
    chance comes from the generator it seeds), ``rule`` being the game's setup rule. Raises
    InvalidSetup ``bad_seed``."""
    if not is_seed(seed):
        raise InvalidSetup(
            [Violation("bad_seed", f"The seed must be a whole number from 0 to {MAX_SEED}.", rule)]
        )


def unknown_options(
    title: str, options: dict[str, Any], known: dict[str, Any], rule: str
) -> list[Violation]:
    """An ``unknown_option`` violation for each key of ``options`` that is not one of the game's
    ``known`` options (its documented defaults), citing the game's options rule ``rule``."""
    return [
        Violation(
            "unknown_option",
            f"{title} has no option {key!r}; the options are {', '.join(known)}.",
            rule,
        )
        for key in options
        if key not in known
    ]


def player_option_problems(
    players: Sequence[PlayerId], options: dict[str, Any], name: str, code: str, rule: str
) -> list[Violation]:
    """The option ``name``, when given (not None), must name one of ``players``; otherwise a
    violation ``code`` citing ``rule``."""
    value = options.get(name)
    if value is None or (isinstance(value, str) and value in players):
        return []
    return [
        Violation(code, f"options.{name} must be one of the players ({', '.join(players)}).", rule)
    ]


def end_game(state: State, outcome: dict[str, Any]) -> Event:
    """End the game in ``state`` (in place): status and phase ``finished``, nobody active, its
    ``outcome`` set (contract: a finished game waits on nobody). Returns the ``game_over``
    event that tells the outcome (winners, draw, scores), for the game to add to its events."""
    state["phase"] = "finished"
    state["status"] = "finished"
    state["active_players"] = []
    state["outcome"] = outcome
    return {
        "type": "game_over",
        "winners": list(outcome["winners"]),
        "draw": outcome["draw"],
        "scores": dict(outcome["scores"]),
    }
