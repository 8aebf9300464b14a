"""What a timer row holds: its kind (:class:`TimerKind`) and, for each kind, one small frozen payload type read
from and written to the row's JSON. Nothing else reads a payload by key. The table of the kinds (who writes each
row, who clears it, what it sends) is in :mod:`bot.manager.timers`, whose dispatcher serves each kind by table.

The JSON is the one rows already stored hold (``{"key": "main:3:1", "stage": 1}``, ``{"through": 12}``...):
readers keep reading the rows older versions wrote, the missing keys they allowed included.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar, Self

from bot.storage import NewTimer, Timer

__all__ = [
    "ANNOUNCE_KINDS",
    "HELD_KINDS",
    "NOTED_KINDS",
    "PARKED_STAGE",
    "PAYLOAD_TYPES",
    "Absent",
    "LobbyWatch",
    "Notice",
    "AwayEnd",
    "Payload",
    "Ping",
    "PingKind",
    "Remind",
    "Resume",
    "Tell",
    "TimerKind",
    "TurnWait",
    "kind_of",
]


class TimerKind(StrEnum):
    """The kinds of timer rows, as stored in the ``kind`` column."""

    TURN = "turn"
    RESUME = "resume"
    LOBBY = "lobby"
    TELL = "tell"
    NOTICE = "notice"
    REMIND = "remind"
    ABSENT = "absent"
    PING = "ping"
    AWAY = "away"

    @property
    def moves_game_on(self) -> bool:
        """Whether the row moves a running game on: a game over meanwhile only gets the rows it needs now."""
        return self in _MOVING


_MOVING = frozenset({TimerKind.TURN, TimerKind.RESUME, TimerKind.LOBBY})
#: the rows cleared by the note the bot writes once their message is posted
NOTED_KINDS = (TimerKind.TELL, TimerKind.NOTICE)
#: the announcements deleted by the manager once the notifier returned (one row per seat)
ANNOUNCE_KINDS = (TimerKind.REMIND, TimerKind.ABSENT)
#: the rows a process claims for a lease as it writes them (it is about to post their message)
HELD_KINDS = (*NOTED_KINDS, *ANNOUNCE_KINDS)
#: the ``turn`` row's last stage: under the "wait" policy the chain is over for this wait; the row only marks it
PARKED_STAGE = 3


def kind_of(row: Timer) -> TimerKind | None:
    """The kind of `row`; None for a kind this version does not know (a newer version's row)."""
    try:
        return TimerKind(row.kind)
    except ValueError:
        return None


class _Payload:
    """What the payload types share: their kind, a stored row read as one, a new row made of one."""

    __slots__ = ()
    kind: ClassVar[TimerKind]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def of(cls, row: Timer) -> Self:
        """The payload of `row`, a row of this kind (ValueError for another kind, or for a payload that cannot
        be read: a key it needs is missing)."""
        if row.kind != cls.kind:
            raise ValueError(f"timer {row.id} is a {row.kind!r} row, not {cls.kind.value!r}")
        try:
            return cls.from_json(row.payload)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"timer {row.id}: unreadable {row.kind!r} payload {row.payload!r}") from exc

    def row(self, due: datetime) -> NewTimer:
        """A new row of this kind carrying this payload, due at `due`."""
        return NewTimer(self.kind.value, due, self.to_json())


@dataclass(frozen=True, slots=True)
class TurnWait(_Payload):
    """A ``turn`` row: the wait it was armed for (`key`: phase, turn and current seat, see
    :meth:`~bot.manager.store.LiveGame.wait_key`; None in a row written without one) and the stage reached
    (0: before reminder 1, 1: before reminder 2, 2: before the absent-player policy, :data:`PARKED_STAGE`)."""

    kind: ClassVar[TimerKind] = TimerKind.TURN
    key: str | None
    stage: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        key = data.get("key")
        return cls(None if key is None else str(key), int(data.get("stage", 0)))

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage} if self.key is None else {"key": self.key, "stage": self.stage}

    @property
    def parked(self) -> bool:
        return self.stage >= PARKED_STAGE


@dataclass(frozen=True, slots=True)
class Resume(_Payload):
    """A ``resume`` row: AI seats have moves to make (nothing to carry)."""

    kind: ClassVar[TimerKind] = TimerKind.RESUME

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls()


@dataclass(frozen=True, slots=True)
class LobbyWatch(_Payload):
    """A ``lobby`` row: a lobby waits for its start, and expires (bot.manager.lobbies) (nothing to carry)."""

    kind: ClassVar[TimerKind] = TimerKind.LOBBY

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls()


@dataclass(frozen=True, slots=True)
class Tell(_Payload):
    """A ``tell`` row: a turn message (or the final scores) owed up to log position `through` (None, in a row
    written without it: up to the end of the log)."""

    kind: ClassVar[TimerKind] = TimerKind.TELL
    through: int | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        through = data.get("through")
        return cls(None if through is None else int(through))

    def to_json(self) -> dict[str, Any]:
        return {} if self.through is None else {"through": self.through}


@dataclass(frozen=True, slots=True)
class Notice(_Payload):
    """A ``notice`` row: the notice of an expired lobby is owed (its words come from the game's notes)."""

    kind: ClassVar[TimerKind] = TimerKind.NOTICE

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls()


@dataclass(frozen=True, slots=True)
class Remind(_Payload):
    """A ``remind`` row: reminder `n` (1 or 2) owed to `seat`'s player `user` in the wait `key`."""

    kind: ClassVar[TimerKind] = TimerKind.REMIND
    key: str | None
    seat: int
    user: int
    n: int

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        key = data.get("key")
        return cls(None if key is None else str(key), int(data["seat"]), int(data["user"]), int(data["n"]))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat, "user": self.user, "n": self.n}


@dataclass(frozen=True, slots=True)
class Absent(_Payload):
    """An ``absent`` row: the absent-player `policy` ("ai", "skip" or "wait") is applied to `seat` (its player
    `user`, None for a seat nobody holds) in the wait `key`."""

    kind: ClassVar[TimerKind] = TimerKind.ABSENT
    key: str | None
    seat: int
    user: int | None
    policy: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        key, user = data.get("key"), data.get("user")
        return cls(
            None if key is None else str(key),
            int(data["seat"]),
            None if user is None else int(user),
            str(data["policy"]),
        )

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat, "user": self.user, "policy": self.policy}

    @property
    def waits(self) -> bool:
        """Announced with the re-arm that parks the ``turn`` row ("wait"), not with a move it announces."""
        return self.policy == "wait"


class PingKind(StrEnum):
    """What a ``ping`` row holds for its player, as stored in its ``what`` (and told to the notifier)."""

    TURN = "turn"  # it is their turn
    REMINDER = "reminder"  # reminder `n` of their wait, held through their quiet hours
    HEADS_UP = "heads_up"  # the player before them started: they are next
    AWAY = "away"  # the other players are told that the seat's player is away


@dataclass(frozen=True, slots=True)
class Ping(_Payload):
    """A ``ping`` row (bot.manager.player_time): the notification `what` owed to `seat`'s player `user` in the
    wait `key`, held for their ping delay or quiet hours: ``turn`` (it is their turn), ``reminder`` (reminder
    `n`, held through quiet hours), ``heads_up`` (the player before them started) or ``away`` (the other
    players are told that `seat` is away; `key` names the away period). Sent at most once per game, wait, seat
    and `what` (``pings_sent``), never once the wait is over."""

    kind: ClassVar[TimerKind] = TimerKind.PING
    key: str
    seat: int
    user: int
    what: PingKind
    n: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        what = PingKind(str(data["what"]))  # (ValueError for a kind this version does not know)
        return cls(str(data["key"]), int(data["seat"]), int(data["user"]), what, int(data.get("n", 0)))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat, "user": self.user, "what": self.what.value, "n": self.n}


@dataclass(frozen=True, slots=True)
class AwayEnd(_Payload):
    """An ``away`` row: the away mode of `user`, set to end at `until`, ends (one row per game they sit in)."""

    kind: ClassVar[TimerKind] = TimerKind.AWAY
    user: int
    until: datetime

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(int(data["user"]), datetime.fromisoformat(str(data["until"])))

    def to_json(self) -> dict[str, Any]:
        return {"user": self.user, "until": self.until.isoformat()}


#: every payload type, one per kind
Payload = TurnWait | Resume | LobbyWatch | Tell | Notice | Remind | Absent | Ping | AwayEnd
#: the payload type of each kind
PAYLOAD_TYPES: dict[TimerKind, type[Payload]] = {
    cls.kind: cls for cls in (TurnWait, Resume, LobbyWatch, Tell, Notice, Remind, Absent, Ping, AwayEnd)
}
