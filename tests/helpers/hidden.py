"""The one hidden-information oracle: what a reader must never learn of a game, in the engine's terms. The checks
of each edge spell it their way (the live map's JSON: `helpers.web_site.check_frame`; the chat's messages:
`helpers.simcord_driver.assert_no_leak`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.pending import TicketChoice
from engine.state import GameState
from engine.views import TicketInfo, ticket_info


@dataclass(frozen=True)
class Hidden:
    """What `hidden_from` keeps from a reader. Deck order has no field: no view serializes it at all."""

    seed: int
    #: every other seat's kept and offered tickets (every seat's, for a spectator or a public message)
    tickets: tuple[TicketInfo, ...]


def hidden_from(state: GameState, reader_seat: int | None) -> Hidden:
    """What seat `reader_seat` (None: anyone, a public message) may not know: the seed, and the tickets the
    other seats keep or are choosing from (as `player_view` gives them, without the progress it works out: a
    route search per ticket, per frame, was a tenth of a whole game's check)."""
    tickets = []
    for seat in range(state.num_players):
        if seat == reader_seat:
            continue
        pending = state.pending.get(seat)
        offered = pending.offered if isinstance(pending, TicketChoice) else ()
        tickets.extend(ticket_info(state, t) for t in (*state.players[seat].tickets, *offered))
    return Hidden(state.seed, tuple(tickets))
