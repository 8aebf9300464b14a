"""A seat's private menus: the turn-message buttons that open them, and each menu's buttons and selects.

Every menu lists `engine.rules.legal_actions` of the seat, filtered by the menu's category; a choice travels
back as the action's code (`bot/play/codec.py`) with the turn token, so a menu of an earlier moment is
refused as stale. Claims and stations go first through a route or city select, then to `confirm.py`; the
routes come ranked by use to the seat (`engine.progress.routes_by_use`). Fewer clicks: a one-payment claim skips
the confirm step when the player turned claim confirmation off (`one_click`), and Draw tickets is drawn at once
when there is no choice of decks (`only_action`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import cast

from bot import presenters
from bot.manager import GameInfo, Outcome, turn_token
from bot.messages import Join, Message, Text
from bot.play import chat, codec, labels, layout
from bot.play.confirm import confirm, group_key, group_label
from bot.play.event_words import line, private_line, table_of
from bot.play.press import PressCode
from bot.play.refusals import fail
from bot.play.reply import ButtonSpec, ButtonStyle, ComponentSpec, EmbedSpec, OptionSpec, Reply, SelectSpec
from engine.actions import Action, DrawFaceUp
from engine.pending import SecondDraw, TicketChoice
from engine.progress import routes_by_use
from engine.rules import legal_actions
from engine.state import GameState


def category_of(action: Action, pending: bool) -> str:
    """The menu that lists `action`: its presenter's, or "decide" for a pending decision."""
    if pending:
        return "decide"
    words = presenters.action_words(action.kind)
    return words.menu if words is not None and words.menu is not None else "decide"


def menu_buttons(game_id: str, state: GameState, seat: int) -> list[ButtonSpec]:
    """The buttons of the turn message that open `seat`'s menus, in a fixed order."""
    token = turn_token(state, seat)
    pending = state.pending.get(seat) is not None
    menus = {category_of(a, pending) for a in legal_actions(state, seat)}
    cards_shown = bool(card_buttons(game_id, state, seat))
    buttons = []
    for m in presenters.menus():
        if m.name in menus and not (m.cards and cards_shown):
            style = cast(ButtonStyle, m.style)
            buttons.append(
                ButtonSpec(
                    game_id,
                    PressCode.OPEN,
                    Text(m.button),
                    token=token,
                    args=(m.name,),
                    style=style,
                    emoji=m.emoji,
                )
            )
    return buttons


def card_buttons(game_id: str, state: GameState, seat: int) -> list[ButtonSpec]:
    """The first card's choices, right on the turn message (a draw in two clicks): one button per face-up card
    and one for the deck. The face-up row is public, so they reveal nothing; the second card's menu comes back
    privately. None when a feature must be chosen first (`presenters.draw_choices`: its select stays in the
    "Draw cards" menu) or the seat has a decision pending."""
    if state.pending.get(seat) is not None:
        return []
    cards = {m.name for m in presenters.menus() if m.cards}
    acts = [a for a in legal_actions(state, seat) if category_of(a, False) in cards]
    fields = [c.field for c in presenters.draw_choices()]
    if any(getattr(a, f, None) is not None for a in acts for f in fields):
        return []
    return _card_buttons(game_id, state, seat, turn_token(state, seat), acts)


def distinct_draws(state: GameState, acts: Sequence[Action]) -> list[tuple[Action, int]]:
    """`acts` with one face-up draw per colour, each with how many face-up cards it stands for: taking one
    orange card or the other changes nothing but the slot the next card fills, so two buttons would only ask
    which ("Face-up orange ×2")."""
    chosen: dict[object, list[Action]] = {}
    for a in acts:
        key: object = a
        if isinstance(a, DrawFaceUp) and 0 <= a.slot < len(state.face_up):
            key = (dataclasses.replace(a, slot=0), state.face_up[a.slot])
        chosen.setdefault(key, []).append(a)
    return [(same[0], len(same)) for same in chosen.values()]


def _card_buttons(
    gid: str, state: GameState, seat: int, token: str, acts: Sequence[Action]
) -> list[ButtonSpec]:
    buttons = []
    for a, n in distinct_draws(state, acts):
        blind = a.kind == "draw_blind"
        label = labels.message(state, seat, a)
        buttons.append(
            ButtonSpec(
                gid,
                PressCode.DO,
                Join((label, f"×{n}"), " ") if n > 1 else label,
                token=token,
                args=(codec.encode(a),),
                style="success" if blind else "secondary",
                emoji="🂠" if blind else None,
            )
        )
    return buttons


def menu(info: GameInfo, state: GameState, seat: int, name: str, page: int, *, edit: bool) -> Reply:
    """Menu `name` of `seat` (its pending decision, when it has one, whatever was asked)."""
    gid = info.game_id
    token = turn_token(state, seat)
    pending = state.pending.get(seat)
    legal = legal_actions(state, seat)
    if not legal:
        raise fail("play.nothing")
    if isinstance(pending, SecondDraw):
        name = "draw"
    elif pending is not None:
        name = "decide"
    acts = legal if pending is not None else [a for a in legal if category_of(a, False) == name]
    if not acts:
        raise fail("play.stale")
    if isinstance(pending, TicketChoice):
        return _keep_tickets(gid, state, token, pending, edit=edit)
    spec = presenters.menu(name)
    if spec is not None and spec.places:
        return _places(info, state, seat, name, acts, page, edit=edit)
    if spec is not None and spec.cards:
        return _draw(gid, state, seat, token, acts, edit=edit)
    if spec is not None and spec.sort is not None:
        order = spec.sort
        acts = sorted(acts, key=lambda a: (order(state, seat, a), labels.label(state, seat, a)))
    return Reply(
        content=Text(spec.text if spec is not None else "menu.choose", {"hint": pending_hint(state, seat)}),
        rows=_choices(gid, state, seat, token, acts, page, name),
        ephemeral=True,
        edit_source=edit,
    )


def _keep_tickets(gid: str, state: GameState, token: str, pending: TicketChoice, *, edit: bool) -> Reply:
    options = tuple(
        OptionSpec(labels.ticket_text(state, t), token=token, args=(str(t),)) for t in pending.offered
    )
    most = min(pending.keep_max, len(pending.offered))
    select = SelectSpec(
        gid,
        PressCode.KEEP,
        options,
        placeholder=Text("menu.keep_placeholder", {"min": pending.keep_min, "max": most}),
        min_values=min(pending.keep_min, len(options)),
        max_values=most,
    )
    return Reply(
        content=Text("menu.keep", {"min": pending.keep_min, "max": most}),
        rows=((select,),),
        ephemeral=True,
        edit_source=edit,
    )


def pending_hint(state: GameState, seat: int) -> Message:
    """What the seat's pending decision is about (the cards a tunnel revealed...), or nothing."""
    return presenters.hint(state, seat)


def _choices(
    gid: str, state: GameState, seat: int, token: str, acts: Sequence[Action], page: int, name: str
) -> tuple[tuple[ComponentSpec, ...], ...]:
    """Buttons when few (and short), else selects of 25, paged with a More button."""
    packed = [(labels.message(state, seat, a), codec.encode(a)) for a in acts]
    if len(packed) <= chat.MAX_BUTTONS and all(chat.button_arg_fits(token, (code,)) for _, code in packed):
        return (
            tuple(
                ButtonSpec(
                    gid,
                    PressCode.DO,
                    layout.cut(label, chat.MAX_BUTTON_LABEL),
                    token=token,
                    args=(code,),
                    style="primary" if i == 0 else "secondary",
                )
                for i, (label, code) in enumerate(packed)
            ),
        )
    options = [
        OptionSpec(layout.cut(label, chat.MAX_OPTION_LABEL), token=token, args=(code,))
        for label, code in packed
    ]
    return tuple(
        layout.paged_selects(
            gid, PressCode.DO, options, placeholder=Text("menu.pick"), page=page, more=(token, name)
        )
    )


def _draw(gid: str, state: GameState, seat: int, token: str, acts: Sequence[Action], *, edit: bool) -> Reply:
    second = isinstance(state.pending.get(seat), SecondDraw)
    for choice in presenters.draw_choices():
        # a feature's draw argument is chosen first (its select), then the card for it (`draw_cards_for`)
        values = sorted({v for a in acts if (v := getattr(a, choice.field, None)) is not None})
        if not values:
            continue
        options = tuple(OptionSpec(choice.option(state, v), token=token, args=(f"draw{v}",)) for v in values)
        return Reply(
            content=Text(choice.prompt),
            rows=((SelectSpec(gid, PressCode.GROUP, options, placeholder=Text("menu.pick")),),),
            ephemeral=True,
            edit_source=edit,
        )
    buttons = _card_buttons(gid, state, seat, token, acts)
    return Reply(
        content=Text("menu.draw_second" if second else "menu.draw", {"face_up": labels.face_up(state)}),
        rows=layout.rows_of_buttons(buttons),
        ephemeral=True,
        edit_source=edit,
    )


def draw_cards_for(info: GameInfo, state: GameState, seat: int, value: int, *, edit: bool) -> Reply:
    """A draw argument chosen (a warehouse, Warehouses & Depots): the cards that may be drawn with it."""
    token = turn_token(state, seat)
    fields = [c.field for c in presenters.draw_choices()]
    acts = [a for a in legal_actions(state, seat) if any(getattr(a, f, None) == value for f in fields)]
    if not acts:
        raise fail("play.bad_choice")
    buttons = _card_buttons(info.game_id, state, seat, token, acts)
    return Reply(
        content=Text("menu.draw", {"face_up": labels.face_up(state)}),
        rows=layout.rows_of_buttons(buttons),
        ephemeral=True,
        edit_source=edit,
    )


def _places(
    info: GameInfo, state: GameState, seat: int, name: str, acts: Sequence[Action], page: int, *, edit: bool
) -> Reply:
    """Claim / station: first the route or city (selects of 25, paged), then its payments."""
    token = turn_token(state, seat)
    if name == "claim":  # most useful first: on the cheapest paths of the seat's open tickets, then by points
        keys = routes_by_use(state, seat, {group_key(a) for a in acts})
    else:
        keys = sorted({group_key(a) for a in acts}, key=lambda k: state.board.cities[k].name)
    if len(keys) == 1:
        return payments(info, state, seat, name, keys[0], edit=edit)
    options = [OptionSpec(group_label(state, name, k), token=token, args=(name, str(k))) for k in keys]
    spec = presenters.menu(name)
    placeholder = Text(spec.pick if spec is not None else "menu.pick")
    rows = layout.paged_selects(
        info.game_id, PressCode.GROUP, options, placeholder=placeholder, page=page, more=(token, name)
    )
    text = Text(spec.text if spec is not None else "menu.choose", {"n": len(keys)})
    return Reply(content=text, rows=tuple(rows), ephemeral=True, edit_source=edit)


def one_click(state: GameState, seat: int, name: str, key: int) -> Action | None:
    """The claim of route `key` when it has one possible payment and no tunnel (whose revealed cards always
    ask): what a player who turned claim confirmation off gets at once. Otherwise None."""
    if name != "claim" or not 0 <= key < len(state.board.routes) or state.board.routes[key].tunnel:
        return None
    acts = [a for a in legal_actions(state, seat) if category_of(a, False) == name and group_key(a) == key]
    return acts[0] if len(acts) == 1 else None


def only_action(state: GameState, seat: int, name: str) -> Action | None:
    """The one action of the Draw tickets menu when it has one (no choice of ticket decks) and no decision is
    pending: a menu of one button would only cost a click."""
    if state.pending.get(seat) is not None or name != "tickets":
        return None
    acts = [a for a in legal_actions(state, seat) if category_of(a, False) == name]
    return acts[0] if len(acts) == 1 else None


def payments(info: GameInfo, state: GameState, seat: int, name: str, key: int, *, edit: bool) -> Reply:
    """A route (claim) or city (station) chosen: confirm its cheapest payment, or pick another."""
    acts = [a for a in legal_actions(state, seat) if category_of(a, False) == name and group_key(a) == key]
    if not acts:
        raise fail("play.bad_choice")
    return confirm(info, state, seat, name, key, acts, edit=edit)


def after_move(outcome: Outcome, seat: int, public: tuple[Reply, ...], *, edit: bool) -> Reply:
    """What the player who moved reads, privately: their move's line and what they alone learnt, then the next
    decision of theirs when one follows at once (a second card, tickets to keep); `public` goes after it."""
    state, info = outcome.state, outcome.info  # the game after the move (and the AI's): no second read
    table = table_of(info)
    private = [private_line(e, table) for e in outcome.private_for(seat) if e.kind != "tickets_offered"]
    mine = [line(e, table) for e in outcome.events if e.seat == seat and e.seq in outcome.seqs[:1]]
    body: Message = Join((*mine, *private), tail=1900) if mine or private else Text("play.done")
    follow: Reply | None = None
    if (
        state is not None
        and not state.finished
        and seat in info.to_act
        and info.seats[seat].ai_level is None
        and state.pending.get(seat) is not None
        and legal_actions(state, seat)
    ):
        follow = menu(info, state, seat, "decide", 0, edit=True)
    if follow is None or follow.content is None:
        rows = follow.rows if follow is not None else ()
        return Reply(content=body, rows=rows, ephemeral=True, edit_source=edit, also=public)
    # what just happened above, the next decision below (each translated on its own)
    done = EmbedSpec(description=body)
    return Reply(
        content=follow.content,
        embeds=(done,),
        rows=follow.rows,
        ephemeral=True,
        edit_source=edit,
        also=public,
    )
