"""Destination tickets: the variant's decks, offers (setup steps and draws during play), keeping, rejecting."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.events import TicketsOffered
from engine.pending import TicketChoice, TicketMix
from engine.state import GameState
from maps.board import select_tickets


def ticket_rules(state: GameState) -> dict[str, Any]:
    return state.board.variant(state.variant)["tickets"]


def build_ticket_decks(state: GameState) -> None:
    decks: dict[str, list[int]] = {}
    for t in select_tickets(state.board.tickets, state.board.variant(state.variant)):
        decks.setdefault(t.deck, []).append(t.id)
    for deck in decks.values():
        state.rng.shuffle(deck)
    state.ticket_decks = decks


def mix_decks(step: dict[str, Any]) -> list[str]:
    return list(step.get("mix") or [])


def available(state: GameState, step: dict[str, Any]) -> int:
    draw = step["draw"]
    decks = state.ticket_decks
    total = 0
    if isinstance(draw, int):
        for name in step.get("mix") or ():
            deck = decks.get(name)
            if deck:
                total += len(deck)
        return min(draw, total)
    for name, n in draw.items():
        deck = decks.get(name)
        if deck:
            total += min(n, len(deck))
    return total


def mix_options(state: GameState, step: dict[str, Any]) -> list[tuple[int, ...]]:
    """Every announceable mix of a two-deck draw, given what the decks still hold."""
    return list(mix_table(state, step))


def mix_table(state: GameState, step: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
    """mix_options as a shared tuple (the legal-action hot path counts them every turn)."""
    decks = state.ticket_decks
    sizes = tuple([len(decks.get(d, ())) for d in step.get("mix") or ()])
    key = (sizes, step["draw"])
    found = _MIXES.get(key)
    if found is None:
        found = _MIXES[key] = _mixes(sizes, min(key[1], sum(sizes)))
    return found


# by (deck sizes, tickets to draw): a few hundred entries at most
_MIXES: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def _mixes(sizes: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(sizes) - 1:
            if left <= sizes[i]:
                out.append((*acc, left))
            return
        for n in range(min(left, sizes[i]) + 1):
            rec(i + 1, left - n, (*acc, n))

    if sizes and total:
        rec(0, total, ())
    return tuple(out)


def offer(state: GameState, seat: int, step: dict[str, Any], index: int, mix: tuple[int, ...] = ()) -> None:
    """Deal the tickets of one step (setup step `index`, or -1 for a draw in play) and make the choice pending."""
    if isinstance(step["draw"], int):
        decks = mix_decks(step)
        if len(mix) != len(decks) or sum(mix) != available(state, step) or min(mix, default=0) < 0:
            n = available(state, step)
            raise IllegalAction(
                "ticket_mix",
                f"Announce how many of the {n} tickets come from each deck ({' / '.join(decks)}).",
                n=n,
                decks=" / ".join(decks),
            )
        counts = dict(zip(decks, mix, strict=True))
    else:
        counts = step["draw"]
    if isinstance(step["draw"], int):  # every deck checked before any ticket leaves one
        for deck_name, n in counts.items():
            left = len(state.ticket_decks.get(deck_name, ()))
            if n > left:
                raise IllegalAction(
                    "ticket_deck_short",
                    f"The {deck_name} ticket deck has only {left} tickets left.",
                    deck=deck_name,
                    n=left,
                )
    if not any(n and state.ticket_decks.get(deck_name) for deck_name, n in counts.items()):
        raise IllegalAction("no_tickets_left", "No destination tickets are left to draw.")
    offered: list[int] = []
    sources: list[str] = []
    for deck_name, n in counts.items():
        deck = state.ticket_decks.get(deck_name, [])
        for _ in range(min(n, len(deck))):  # fewer when the deck runs short
            offered.append(deck.pop())
            sources.append(deck_name)
    player = state.players[seat]
    keep_min = step.get("keep_min", 1)
    if "keep_min_if_none_kept" in step and not player.tickets:
        keep_min = step["keep_min_if_none_kept"]
    keep_min = min(keep_min, len(offered))
    keep_max = min(step.get("keep_max", len(offered)), len(offered))
    state.pending[seat] = TicketChoice(
        tuple(offered), tuple(sources), keep_min, keep_max, step.get("rejected", "bottom"), index
    )
    state.events.append(TicketsOffered(seat, tuple(offered), keep_min, keep_max))


def start_step(state: GameState, seat: int, index: int) -> None:
    """Begin setup step `index` for a seat: ask for the mix first when the step has one."""
    step = ticket_rules(state)["setup"][index]
    if isinstance(step["draw"], int):
        state.pending[seat] = TicketMix(index, available(state, step))
    else:
        offer(state, seat, step, index)


def keep(state: GameState, seat: int, choice: TicketChoice, kept: tuple[int, ...]) -> None:
    offered = set(choice.offered)
    if len(set(kept)) != len(kept) or not set(kept) <= offered:
        raise IllegalAction("keep_offered_only", "You can only keep tickets you were offered, each once.")
    if list(kept) != sorted(kept):  # one spelling per choice, as legal_actions lists it (records compare)
        raise IllegalAction("keep_in_order", "List the tickets you keep in increasing order of their ids.")
    if len(kept) < choice.keep_min:
        raise IllegalAction(
            "keep_at_least", f"Keep at least {choice.keep_min} of these tickets.", n=choice.keep_min
        )
    if len(kept) > choice.keep_max:
        raise IllegalAction(
            "keep_at_most", f"Keep at most {choice.keep_max} of these tickets.", n=choice.keep_max
        )
    player = state.players[seat]
    kept_set = set(kept)
    player.tickets.extend(t for t in choice.offered if t in kept_set)
    rejected = [(t, src) for t, src in zip(choice.offered, choice.sources, strict=True) if t not in kept_set]
    setup = choice.step >= 0
    where = choice.rejected
    if where == "box":
        state.box.extend(t for t, _ in rejected)
    elif where == "bottom" or (where == "bottom_shuffled" and not setup):
        if where == "bottom_shuffled":
            state.rng.shuffle(rejected)
        for t, src in rejected:
            state.ticket_decks[src].insert(0, t)
    elif where in ("bottom_shuffled", "return_shuffled"):
        if setup:
            # Waits for the end of setup: everyone's rejected tickets are handled together.
            state.setup_rejected.extend(t for t, _ in rejected)
        else:
            for t, src in rejected:
                state.ticket_decks[src].append(t)
                state.rng.shuffle(state.ticket_decks[src])
    else:
        raise ValueError(f"unknown rejected-ticket rule {where!r}")


def finish_setup(state: GameState) -> None:
    """All players have chosen: rejected setup tickets go under / back into their decks; boxed decks leave."""
    rules = ticket_rules(state)
    by_deck: dict[str, list[int]] = {}
    for t in state.setup_rejected:
        by_deck.setdefault(state.board.tickets[t].deck, []).append(t)
    state.setup_rejected = []
    last_rule = {step.get("rejected") for step in rules["setup"]}
    for deck_name, tickets in by_deck.items():
        deck = state.ticket_decks.setdefault(deck_name, [])
        if "return_shuffled" in last_rule:
            deck.extend(tickets)
            state.rng.shuffle(deck)
        else:
            state.rng.shuffle(tickets)
            deck[:0] = tickets
    for deck_name in rules.get("box_after_setup", []):
        state.box.extend(state.ticket_decks.pop(deck_name, []))


def draw_step(state: GameState) -> dict[str, Any]:
    step: dict[str, Any] | None = state.derived.get("draw_step")
    if step is None:
        step = state.derived["draw_step"] = ticket_rules(state)["draw"]
    return step


def total_tickets(state: GameState) -> int:
    n = sum(len(d) for d in state.ticket_decks.values()) + len(state.box) + len(state.setup_rejected)
    n += sum(len(p.tickets) for p in state.players)
    for pending in state.pending.values():
        if isinstance(pending, TicketChoice):
            n += len(pending.offered)
    return n
