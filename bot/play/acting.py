"""`Acting`: a seat choosing and making its move through the play service. The menus are drawn from the state
(`bot.play.menus`: the seat's `legal_actions`), a choice comes back encoded (`bot.play.codec`) with the turn
token, and `GameManager.act` applies it or refuses it, changing nothing; the mover's reply and the public turn
message follow (`bot.play.chat_posts`). `/ttr claim` goes the same way, and so does a hint (`hints` setting)."""

from __future__ import annotations

import asyncio

from bot.manager import GameInfo, Outcome, Refused, turn_token
from bot.play import codec, menus
from bot.play.advice import suggestion_reply
from bot.play.chat_posts import ChatPosts
from bot.play.confirm import claimable, confirm_claim, route_lanes
from bot.play.contract import Caller
from bot.play.names import seated, seating
from bot.play.press import Press, PressCode
from bot.play.refusals import fail, refusal
from bot.play.reply import Reply
from bot.play.seats import check_turn, seat_of
from engine.actions import Action, KeepTickets
from engine.ai.advice import suggest


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


class Acting(ChatPosts):
    """The presses and the command that make a move: menus, payments, confirmation, the move applied."""

    async def _menu_press(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        """`open`, `menu`, `grp`, `decide`: a menu drawn from the state, nothing applied. The manager is not
        asked, so the turn token is checked here (a button of an earlier moment says so, before "not your
        turn"); `decide` carries none: it always opens the seat's pending decision."""
        state = await self._running(info.game_id)
        if press.code != PressCode.DECIDE and press.token != turn_token(state, seat_of(info, caller.user_id)):
            raise fail("play.stale")
        seat = check_turn(info, state, caller.user_id)
        if press.code == PressCode.DECIDE:
            return menus.menu(info, state, seat, "decide", 0, edit=False)
        name = press.arg(0)
        if press.code == PressCode.GROUP:
            if name.startswith("draw"):  # a draw argument chosen (a warehouse): the cards for it
                return menus.draw_cards_for(info, state, seat, _int(name[4:], -1), edit=True)
            key = _int(press.arg(1), -1)
            quick = menus.one_click(state, seat, name, key)
            if quick is not None and await self._claims_at_once(caller):
                return await self._apply(caller, info, quick, press.token or "")
            return menus.payments(info, state, seat, name, key, edit=True)
        page = _int(press.arg(1), 0)
        only = menus.only_action(state, seat, name) if press.code == PressCode.OPEN else None
        if only is not None:  # Draw tickets: drawn at once, the tickets to keep come back privately
            return await self._apply(caller, info, only, press.token or "", edit=False)
        return menus.menu(info, state, seat, name or "decide", page, edit=press.code == PressCode.MENU)

    async def _claims_at_once(self, caller: Caller) -> bool:
        """Whether the caller turned claim confirmation off: a one-payment claim then skips its Confirm."""
        return not (
            await self._call(self.games_manager.player_prefs(caller.user_id, caller.guild_id))
        ).confirm_claims

    async def _suggest(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        """The normal AI's move for the caller's seat, privately (games with the `hints` setting on)."""
        if not info.settings.hints:
            raise fail("suggest.off")
        state = await self._running(info.game_id)
        seat = check_turn(info, state, caller.user_id)
        suggestion = await asyncio.to_thread(suggest, state.copy(), seat)  # CPU work, off the event loop
        return suggestion_reply(info.game_id, state, seat, suggestion)

    async def _do(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        chosen = codec.decode(press.arg(0))
        if chosen is None:
            raise fail("play.bad_choice")
        return await self._apply(caller, info, chosen, press.token or "")

    async def _keep(self, caller: Caller, info: GameInfo, press: Press) -> Reply:
        try:
            tickets = tuple(sorted(int(choice[0]) for choice in press.choices))
        except (ValueError, IndexError):
            raise fail("play.bad_choice") from None
        return await self._apply(caller, info, KeepTickets(tickets), press.token or "")

    async def _apply(
        self, caller: Caller, info: GameInfo, chosen: Action, token: str, *, edit: bool = True
    ) -> Reply:
        """Apply the chosen action (the manager checks game, seat and turn token); `edit`: replace the menu."""
        seat = seat_of(info, caller.user_id)
        try:
            outcome: Outcome = await self.games_manager.act(
                info.game_id, caller.user_id, chosen, expected_turn=token
            )
        except Refused as exc:
            if exc.code in ("not_started", "over"):
                raise fail("play.not_running") from None
            raise refusal(exc) from None
        public = await self._after_public(outcome)
        return menus.after_move(outcome, seat, public, edit=edit)

    async def claim(
        self, caller: Caller, *, route: str, color: str | None = None, game_id: str | None = None
    ) -> Reply:
        info = await self._find(caller, game_id)
        state = await self._running(info.game_id)
        seat = check_turn(info, state, caller.user_id)
        lanes = route_lanes(state, route, claimable(state, seat))
        quick = None if color or len(lanes) > 1 else menus.one_click(state, seat, "claim", lanes[0])
        if quick is not None and await self._claims_at_once(caller):
            return await seating(
                info.seats, self._apply(caller, info, quick, turn_token(state, seat), edit=False)
            )
        return seated(info.seats, confirm_claim(info, state, seat, route, color))
