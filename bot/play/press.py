"""What a press on a persistent game component asks for, as a typed value.

`bot/discord/components.py` owns the custom-id syntax (`ttr:<game>:<code>[:<token>~<arg>~...]`; a select's
chosen values are `<token>~<arg>~...`) and parses an id once into a `Press`; the presentation
(`bot/play/service.py`) dispatches on its `code`.

| code     | on                         | carries             | asks for                                           |
|----------|----------------------------|---------------------|----------------------------------------------------|
| `join`   | lobby button               |                     | a seat                                             |
| `leave`  | lobby button               |                     | give the seat up (in play: resign)                 |
| `start`  | lobby button               |                     | start the game (host or moderator)                 |
| `addai`  | lobby select               | choice: level       | seat an AI of that level                           |
| `hand`   | turn message, board        |                     | my cards and tickets, privately, afresh            |
| `tmap`   | my hand                    | seat                | my tickets on the map, privately (that seat only)  |
| `board`  | turn message               |                     | the board picture, privately                       |
| `status` | (old messages)             |                     | whose turn, scores                                 |
| `open`   | turn message button        | token, menu         | the seat's menu (draw, claim, ...), privately      |
| `menu`   | private menu button        | token, menu, page   | another page of a menu, in place                   |
| `grp`    | private menu select        | token, menu, key    | a route, city or warehouse chosen: its payments    |
| `do`     | private button or select   | token, action code  | apply that action (`bot/play/codec.py`)            |
| `keep`   | private multi-select       | token, ticket each  | keep these tickets                                 |
| `decide` | turn message, hand         |                     | the seat's pending decision (start tickets), afresh|
| `suggest`| turn message (hints on)    |                     | the normal AI's move for my seat, privately        |
| `map`    | turn message (live map on) |                     | the live map: the Activity, else my personal link  |
| `maplink`| my hand (live map on)      |                     | my personal link to the live map, privately        |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PressCode(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    ADD_AI = "addai"
    HAND = "hand"
    TICKET_MAP = "tmap"
    BOARD = "board"
    STATUS = "status"
    OPEN = "open"
    MENU = "menu"
    GROUP = "grp"
    DO = "do"
    KEEP = "keep"
    DECIDE = "decide"
    SUGGEST = "suggest"
    MAP = "map"
    MAP_LINK = "maplink"

    @property
    def carries_token(self) -> bool:
        """Whether its first argument is the turn token the component was drawn for."""
        return self in _TOKENED


_TOKENED = frozenset({PressCode.OPEN, PressCode.MENU, PressCode.GROUP, PressCode.DO, PressCode.KEEP})


@dataclass(frozen=True, slots=True)
class Press:
    """A press on a component of game `game_id`. A button sends its own token and args; a select sends the
    token and args of the first chosen option, and `choices` holds the args of every chosen option."""

    game_id: str
    code: PressCode
    token: str | None = None
    args: tuple[str, ...] = ()
    choices: tuple[tuple[str, ...], ...] = ()

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default
