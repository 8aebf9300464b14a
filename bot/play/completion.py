"""What the slash commands' autocompletes offer: settings, the caller's games (their board named in the caller's
language), and the routes the caller can claim now, ranked as the Claim menu ranks them
(`engine.progress.routes_by_use`) and found from any part of either city name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.i18n import default_catalog
from bot.manager import GameInfo, GameManager, Refused
from bot.manager.game_settings import GameSettings
from bot.messages import Join, board_name
from bot.play import chat, labels
from bot.play.contract import Caller
from bot.play.reply import Choice, GameError
from engine.actions import ClaimRoute
from engine.progress import routes_by_use
from engine.rules import legal_actions
from engine.state import GameState
from maps import normalize_name
from maps.city_names import city_name


async def complete(
    manager: GameManager, caller: Caller, field: str, current: str, find: Callable[[], Awaitable[GameInfo]]
) -> list[Choice]:
    """The choices for `field` as typed so far; `find` names the game of the command (or of the channel).
    Nothing when the manager refuses (the database cannot be reached): a list of suggestions has no room for
    words."""
    try:
        return await _complete(manager, caller, field, current, find)
    except Refused:
        return []


async def _complete(
    manager: GameManager, caller: Caller, field: str, current: str, find: Callable[[], Awaitable[GameInfo]]
) -> list[Choice]:
    needle = normalize_name(current or "")
    if field == "setting":
        return [Choice(n, n) for n in GameSettings.names() if needle in n][: chat.MAX_OPTIONS]
    if field == "game":
        out = []
        for gid in (await manager.games_of(caller.user_id))[: chat.MAX_OPTIONS]:
            try:
                info = await manager.game_info(gid)
            except Refused:
                continue
            board = board_name(info.board)
            shown = default_catalog().render(board, caller.locale) or info.board
            if info.guild_id == caller.guild_id and needle in normalize_name(f"{gid} {info.board} {shown}"):
                out.append(Choice(Join((f"{gid} · ", board), ""), gid))
        return out
    if field == "route":
        try:
            info = await find()
        except GameError:
            return []
        state = await manager.state_of(info.game_id)
        seat = next((s.seat for s in info.seats if s.user_id == caller.user_id), None)
        if state is None or seat is None or seat not in info.to_act:
            return []
        return route_choices(state, seat, needle, caller.locale)
    return []


def route_choices(state: GameState, seat: int, needle: str, locale: str | None = None) -> list[Choice]:
    """The routes `seat` can claim now whose cities (either, any part, as the board or the reader names them)
    or label hold `needle`, most useful first; each shown as the reader reads it (a Japanese reader: 東京–大阪)."""
    board = state.board
    catalog = default_catalog()
    claimable = {a.route for a in legal_actions(state, seat) if isinstance(a, ClaimRoute)}
    out = []
    for rid in routes_by_use(state, seat, claimable):
        name = labels.route_text(state, rid)
        ends = (board.cities[c].name for c in (board.routes[rid].a, board.routes[rid].b))
        cities = [n for c in ends for n in (c, city_name(board.id, c, locale or catalog.default))]
        if any(needle in normalize_name(c) for c in cities) or needle in normalize_name(name):
            out.append(Choice(labels.route_message(state, rid), str(rid)))
            if len(out) == chat.MAX_OPTIONS:
                break
    return out
