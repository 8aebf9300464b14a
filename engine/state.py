"""Game state: every player's holdings, the decks, the board, pending decisions. Plain mutable data.

`engine.rules.apply` changes a state in place (fast for simulation and search; `GameState.copy` gives an
independent copy). All chance comes from `rng`, seeded once, so a game is its setup plus its action log.
Secrets (hands, kept tickets, deck order, the seed, the generator) live here; `engine.views.player_view` is what
may be shown to one player.
"""

from __future__ import annotations

import array
import base64
import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, action_from_json, history_entry
from engine.errors import GameDataError
from engine.events import Event, event_from_json
from engine.pending import Pending, pending_from_json
from maps import CARD_TYPES, Board, load_board

# Phases
SETUP = "setup"  # simultaneous start-of-game ticket choice
DEPOTS = "depots"  # Warehouses & Depots: initial depots, last seat first
MAIN = "main"
LAST_ROUND = "last_round"
FINISHED = "finished"

NOBODY = -1

_ATOMS = (int, str, bool, float, type(None))


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, numbers, strings; tuples of them), as the board modules keep
    in `state.module` and `player.extra`: several times faster than copy.deepcopy (the AI copies states a lot)."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _ATOMS else copy_data(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_data(v) for k, v in value.items()}
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple([v if type(v) in _ATOMS else copy_data(v) for v in value])
    return copy.deepcopy(value)


@dataclass(slots=True)
class PlayerState:
    name: str
    hand: list[int] = field(default_factory=lambda: [0] * CARD_TYPES)
    tickets: list[int] = field(default_factory=list)  # kept tickets (ids), secret until the end
    trains: int = 0
    stations: int = 0  # stations left to build
    score: int = 0  # points scored during play (routes, and instant points of board modules)
    routes: list[int] = field(default_factory=list)
    ferry_cards: int = 0  # Italy
    depots: int = 0  # Warehouses & Depots: depots in reserve
    extra: dict[str, Any] = field(
        default_factory=dict
    )  # board modules' public holdings (meeples, merchandise...)

    def card_count(self) -> int:
        return sum(self.hand)

    def copy(self) -> PlayerState:
        return PlayerState(
            self.name,
            self.hand[:],
            self.tickets[:],
            self.trains,
            self.stations,
            self.score,
            self.routes[:],
            self.ferry_cards,
            self.depots,
            copy_data(self.extra),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": self.hand[:],
            "tickets": self.tickets[:],
            "trains": self.trains,
            "stations": self.stations,
            "score": self.score,
            "routes": self.routes[:],
            "ferry_cards": self.ferry_cards,
            "depots": self.depots,
            "extra": copy_data(self.extra),
        }


def _pack_rng(rng: random.Random) -> list[Any]:
    """The generator's state as [version, base64 of its 625 words, gauss]: compact and fast to (de)serialise."""
    version, internal, gauss = rng.getstate()
    return [version, base64.b64encode(array.array("I", internal).tobytes()).decode("ascii"), gauss]


def _unpack_rng(data: list[Any]) -> random.Random:
    version, packed, gauss = data
    words = array.array("I")
    words.frombytes(base64.b64decode(packed))
    rng = random.Random()
    rng.setstate((version, tuple(words), gauss))
    return rng


# ---- The state ---------------------------------------------------------------------------------------------


class GameState:
    """One game in progress. Deck-like lists keep their top card at the END (pop() draws)."""

    __slots__ = (
        "board",
        "variant",
        "options",
        "seed",
        "rng",
        "players",
        "deck",
        "discard",
        "face_up",
        "ticket_decks",
        "route_owner",
        "station_owner",
        "depot_owner",
        "warehouses",
        "current",
        "first_player",
        "phase",
        "pending",
        "turn",
        "last_round_left",
        "ended_by",
        "history",
        "setup_rejected",
        "box",
        "module",
        "events",
        "derived",
    )

    def __init__(self, board: Board, variant: str, options: tuple[str, ...], seed: int, names: list[str]):
        self.board = board
        self.variant = variant
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = [PlayerState(n) for n in names]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.face_up: list[int] = []  # card type per slot, -1 = empty slot
        self.ticket_decks: dict[str, list[int]] = {}
        self.route_owner = [NOBODY] * len(board.routes)
        self.station_owner: dict[int, int] = {}
        self.depot_owner: dict[int, int] = {}
        self.warehouses: list[list[int]] = []  # per seat: card counts by type (public totals only)
        self.current = 0
        self.first_player = 0  # the seat that plays first (drawn at setup: engine.rules.new_game)
        self.phase = SETUP
        self.pending: dict[int, Pending] = {}
        self.turn = 0  # completed turns
        self.last_round_left: int | None = None  # turns left once the end is triggered
        self.ended_by: int | None = None
        # (seat, action), every accepted action in order; a loaded game's entries are shared tuples
        # (engine.actions.history_entry): a cached game's history costs about 8 bytes a move
        self.history: list[tuple[int, Action]] = []
        self.setup_rejected: list[int] = []  # tickets rejected at setup, waiting to go under the deck
        self.box: list[int] = []  # tickets out of the game
        self.module: dict[str, Any] = {}  # board modules' own shared state (supplies, tokens...)
        # what the last action did (engine.events), public and private; the deal until the first action
        self.events: list[Event] = []
        # caches computed from the rest (engine.open_routes...), never saved; a value is immutable or has copy()
        self.derived: dict[str, Any] = {}

    # -- convenience --------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    def copy(self) -> GameState:
        # through __init__ (a compiled class has no bare __new__); seeding a generator then setting its state is
        # cheaper than an unseeded one, which reads the OS's entropy
        new = GameState(self.board, self.variant, self.options, self.seed, [])
        new.rng.setstate(self.rng.getstate())
        new.players = [p.copy() for p in self.players]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.face_up = self.face_up[:]
        new.ticket_decks = {k: v[:] for k, v in self.ticket_decks.items()}
        new.route_owner = self.route_owner[:]
        new.station_owner = dict(self.station_owner)
        new.depot_owner = dict(self.depot_owner)
        new.warehouses = [w[:] for w in self.warehouses]
        new.current = self.current
        new.first_player = self.first_player
        new.phase = self.phase
        new.pending = {k: copy.copy(v) for k, v in self.pending.items()}
        new.turn = self.turn
        new.last_round_left = self.last_round_left
        new.ended_by = self.ended_by
        new.history = self.history[:]
        new.setup_rejected = self.setup_rejected[:]
        new.box = self.box[:]
        new.module = copy_data(self.module)
        new.events = self.events[:]
        # caches: shared when immutable, copied when they have a copy() (cheaper than rebuilding them)
        new.derived = {k: v.copy() if hasattr(v, "copy") else v for k, v in self.derived.items()}
        return new

    def become(self, other: GameState) -> None:
        """Take every field of `other` (engine.rules undoes a failed action with a rebuilt state). One line per
        field of __slots__, as in copy(); a test checks none is missing."""
        self.board = other.board
        self.variant = other.variant
        self.options = other.options
        self.seed = other.seed
        self.rng = other.rng
        self.players = other.players
        self.deck = other.deck
        self.discard = other.discard
        self.face_up = other.face_up
        self.ticket_decks = other.ticket_decks
        self.route_owner = other.route_owner
        self.station_owner = other.station_owner
        self.depot_owner = other.depot_owner
        self.warehouses = other.warehouses
        self.current = other.current
        self.first_player = other.first_player
        self.phase = other.phase
        self.pending = other.pending
        self.turn = other.turn
        self.last_round_left = other.last_round_left
        self.ended_by = other.ended_by
        self.history = other.history
        self.setup_rejected = other.setup_rejected
        self.box = other.box
        self.module = other.module
        self.events = other.events
        self.derived = other.derived

    # -- JSON ---------------------------------------------------------------------------------------------
    def history_json(self) -> list[list[Any]]:
        """The history as JSON ([seat, action], ...), converted when asked for (not kept: a cached game's memory).
        The bot saves a game's position without it (engine.record.saved_position), its log apart."""
        return [[seat, action.to_json()] for seat, action in self.history]

    def to_dict(self, history: bool = True) -> dict[str, Any]:
        """The state as JSON data; `history`: with its history (a saved position keeps its log apart)."""
        saved = {
            "format": 1,
            "board": self.board.id,
            "variant": self.variant,
            "options": list(self.options),
            "seed": self.seed,
            "rng": _pack_rng(self.rng),
            "players": [p.to_dict() for p in self.players],
            "deck": self.deck,
            "discard": self.discard,
            "face_up": self.face_up,
            "ticket_decks": self.ticket_decks,
            "route_owner": self.route_owner,
            "station_owner": [[c, s] for c, s in self.station_owner.items()],
            "depot_owner": [[c, s] for c, s in self.depot_owner.items()],
            "warehouses": self.warehouses,
            "current": self.current,
            "first_player": self.first_player,
            "phase": self.phase,
            "pending": [[s, p.to_json()] for s, p in self.pending.items()],
            "turn": self.turn,
            "last_round_left": self.last_round_left,
            "ended_by": self.ended_by,
            "history": [],
            "setup_rejected": self.setup_rejected,
            "box": self.box,
            "module": self.module,
            "events": [e.to_json() for e in self.events],
        }
        if history:
            saved["history"] = self.history_json()
        else:
            del saved["history"]
        return saved

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        try:
            board = load_board(d["board"])
            s = cls(board, d["variant"], tuple(d["options"]), d["seed"], [])
            s.rng = _unpack_rng(d["rng"])
            s.players = [PlayerState(**p) for p in d["players"]]
            s.deck = list(d["deck"])
            s.discard = list(d["discard"])
            s.face_up = list(d["face_up"])
            s.ticket_decks = {k: list(v) for k, v in d["ticket_decks"].items()}
            s.route_owner = list(d["route_owner"])
            s.station_owner = {c: o for c, o in d["station_owner"]}
            s.depot_owner = {c: o for c, o in d["depot_owner"]}
            s.warehouses = [list(w) for w in d["warehouses"]]
            s.current = d["current"]
            s.first_player = d.get("first_player", 0)  # saved before the first player was drawn: seat 0
            s.phase = d["phase"]
            s.pending = {seat: pending_from_json(p) for seat, p in d["pending"]}
            s.turn = d["turn"]
            s.last_round_left = d["last_round_left"]
            s.ended_by = d["ended_by"]
            s.history = history_of(d["history"])
            s.setup_rejected = list(d["setup_rejected"])
            s.box = list(d["box"])
            s.module = d["module"]
            # a state saved before typed events has a "last_event" dict instead: its events are left empty
            s.events = [event_from_json(e) for e in d.get("events", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise GameDataError(f"not a saved game state: {exc}") from exc
        return s

    @classmethod
    def from_json(cls, text: str) -> GameState:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise GameDataError(f"not JSON: {exc}") from exc


def history_of(log: Any) -> list[tuple[int, Action]]:
    """A saved history ([seat, action as JSON], ...) decoded, its entries shared (engine.actions.history_entry).
    GameDataError for an entry that is not an action."""
    history: list[tuple[int, Action]] = []
    for seat, a in log:
        if not isinstance(a, dict) or "type" not in a:
            raise GameDataError(f"not an action in the history: {a!r}")
        history.append(history_entry(seat, action_from_json(a)))
    return history
