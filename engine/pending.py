"""Pending decisions: what a player still has to decide before play goes on (the second card of a draw, which
tickets to keep, paying for a tunnel...). Small mutable records kept in `GameState.pending`, with a JSON form.

The board modules' decisions are here too (engine/features/* resolve them), registered with `register_pending`
so saved states can name any of them. Interpreted even when the engine is compiled, as engine.actions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

# ---- Pending decisions -------------------------------------------------------------------------------------

PENDING_TYPES: dict[str, type[Pending]] = {}


@dataclass(slots=True)
class Pending:
    kind: ClassVar[str] = "pending"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {"kind": self.kind, **{k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}}


def register_pending(cls: type[Pending]) -> type[Pending]:
    PENDING_TYPES[cls.kind] = cls
    return cls


def pending_from_json(data: dict[str, Any]) -> Pending:
    cls = PENDING_TYPES[data["kind"]]
    kwargs = {}
    for f in fields(cls):
        v = data[f.name]
        kwargs[f.name] = tuple(v) if isinstance(v, list) else v
    return cls(**kwargs)


@register_pending
@dataclass(slots=True)
class SecondDraw(Pending):
    """The player has drawn one card and may take a second (never a face-up Locomotive)."""

    kind: ClassVar[str] = "second_draw"


@register_pending
@dataclass(slots=True)
class TicketMix(Pending):
    """Announce how many of `total` tickets come from each of `decks` (setup step `step`, or -1 in play)."""

    kind: ClassVar[str] = "ticket_mix"
    step: int = 0
    total: int = 4


@register_pending
@dataclass(slots=True)
class TicketChoice(Pending):
    """Choose which of `offered` tickets to keep. `sources[i]` is the deck `offered[i]` came from."""

    kind: ClassVar[str] = "ticket_choice"
    offered: tuple[int, ...] = ()
    sources: tuple[str, ...] = ()
    keep_min: int = 1
    keep_max: int = 99
    rejected: str = "bottom"
    step: int = -1  # setup step index, -1 for a draw during play


@register_pending
@dataclass(slots=True)
class TunnelPayment(Pending):
    """A tunnel claim laid down; `revealed` cards ask `extra` more cards of `color` (or Locomotives)."""

    kind: ClassVar[str] = "tunnel_payment"
    route: int = 0
    color: int = 0
    locomotives: int = 0
    plus4: int = 0
    revealed: tuple[int, ...] = ()
    extra: int = 0


@register_pending
@dataclass(slots=True)
class WarehouseChoice(Pending):
    """Warehouses & Depots: the claim reached depots; the player may empty these seats' warehouses."""

    kind: ClassVar[str] = "warehouse_choice"
    owners: tuple[int, ...] = ()


@register_pending
@dataclass(slots=True)
class MeepleChoice(Pending):
    """The seat claimed `route` and still takes a meeple from each place of `cities` (one per entry)."""

    kind: ClassVar[str] = "meeple_choice"
    route: int = 0
    cities: tuple[int, ...] = ()


@register_pending
@dataclass(slots=True)
class PassengerPlacement(Pending):
    """The seat has claimed `route` and may put a reserve passenger on one of `cities` (or none)."""

    kind: ClassVar[str] = "passenger_placement"
    route: int = 0
    cities: tuple[int, ...] = ()
