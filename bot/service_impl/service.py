"""`ManagerGameService`: the `bot.service.GameService` the /ttr cog calls, on top of `bot.manager.GameManager`.

Every rule decision is the engine's: menus list `legal_actions` of the seat, a choice travels back as the
encoded action (see `bot.service_impl.actions`) with the turn token, and `GameManager.act` applies it (refusing a
stale token or an illegal action; nothing changes then). Pictures are drawn in the render pool.

Custom-id actions (`ttr:<game>:<action>[:<arg>]`; selects send their values):

* lobby: ``join``, ``leave``, ``start`` (buttons), ``addai`` (select of AI levels);
* public turn message: ``open`` (arg ``<token>~<menu>``: the seat's ephemeral menu), ``decide`` (the seat's
  pending decision, e.g. the start-of-game tickets; answered afresh), ``hand``, ``board``;
* ephemeral menus (edited in place): ``menu`` (``<token>~<menu>~<page>``), ``grp`` (a route or city chosen:
  its payments), ``do`` (apply one encoded action), ``keep`` (tickets kept, multi-select).

Public messages are made of `GameEvent` messages only (built by the manager from public views, translated by
the adapter); what a player alone may know (`PrivateEvent`, hand, tickets) is only ever in ephemeral replies.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.config import Settings
from bot.manager import Clock, GameEvent, GameInfo, GameManager, Outcome, Refused, turn_token
from bot.manager import events as ev
from bot.manager.game_settings import AI_LEVELS, GameSettings
from bot.messages import Join, Message, Text
from bot.service import (
    ButtonSpec,
    ButtonStyle,
    Choice,
    ComponentSpec,
    EmbedSpec,
    FieldSpec,
    FileSpec,
    GameError,
    Messenger,
    OptionSpec,
    Reply,
    SelectSpec,
)
from bot.service_impl import actions as act
from bot.service_impl.pictures import Pictures, PoolPictures
from bot.storage import OPEN_STATUSES, GameStatus, StorageError, open_repository
from engine.actions import Action, ClaimRoute, KeepTickets
from engine.pending import SecondDraw, TicketChoice
from engine.rules import legal_actions
from engine.state import SETUP, GameState
from engine.views import player_view
from maps import CARD_NAMES, LOCOMOTIVE, load_board, normalize_name

log = logging.getLogger(__name__)

EMBED_COLOR = 0x2E7D32
MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_ARG = 40
MAX_LINES = 12
PUBLISH_KINDS = frozenset({"play_started", "game_over", "last_round", "abandoned", "seat_ai", "seat_human"})
REFUSED_KEYS = {
    "not_seated": "play.not_in_game",
    "stale": "play.stale",
    "not_host": "play.not_host",
    "seat_ai": "play.seat_ai",
    "no_game": "game.none",
}
MENU_LABELS: dict[str, tuple[str, ButtonStyle, str | None]] = {
    "draw": ("btn.draw", "primary", "🃏"),
    "claim": ("btn.claim", "success", "🚂"),
    "tickets": ("btn.tickets", "secondary", "🎫"),
    "station": ("btn.station", "secondary", "🏠"),
    "move": ("btn.move", "secondary", "🧳"),
    "ferry": ("btn.ferry", "secondary", "⛴"),
    "depot": ("btn.depot", "secondary", "📦"),
    "pass": ("btn.pass", "danger", None),
    "decide": ("btn.decide", "primary", "👉"),
}


def _refusal(exc: Refused) -> GameError:
    key = REFUSED_KEYS.get(exc.code)
    if key:
        return GameError(Text(key))
    return GameError(exc.text)


def _fail(message_key: str, /, **params: Any) -> GameError:
    return GameError(Text(message_key, params))


def _cut(message: Message, n: int) -> Message:
    return message[:n] if isinstance(message, str) else message


def _fit(text: str, limit: int) -> str:
    """`text` cut at a line end to at most `limit` characters (an ellipsis line says some were left out)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2].rsplit("\n", 1)[0]
    return cut + "\n…"


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _rows_of_buttons(buttons: Sequence[ButtonSpec]) -> list[tuple[ComponentSpec, ...]]:
    return [tuple(chunk) for chunk in _chunks(buttons, 5)]


def _mention(info: GameInfo, seat: int) -> str:
    s = info.seats[seat]
    if s.user_id is not None and s.ai_level is None:
        return f"<@{s.user_id}>"
    return f"**{s.name}**"


class ManagerGameService:
    """The game service of the production bot. `pictures` may be replaced (tests, benchmarks)."""

    def __init__(
        self,
        settings: Settings,
        *,
        pictures: Pictures | None = None,
        ai_budget_ms: int | None = None,
        manager: GameManager | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.config = settings
        self.pictures: Pictures = pictures or PoolPictures(settings.render_workers)
        self.ai_budget_ms = ai_budget_ms
        self.clock = clock  # None: the system clock (tests set a ManualClock before start)
        self.manager: GameManager | None = manager
        self.messenger: Messenger | None = None
        self._lines: dict[str, list[Message]] = {}  # public lines not yet posted, per game

    # ------------------------------------------------------------------ lifecycle

    async def start(self, messenger: Messenger) -> None:
        self.messenger = messenger
        if self.manager is None:
            repo = open_repository(self.config.database_url)
            await repo.connect()
            self.manager = GameManager(
                repo, notifier=self, owns_repo=True, ai_budget_ms=self.ai_budget_ms, clock=self.clock
            )
            await self.manager.start()  # with the timer dispatcher; manager.close() stops it

    def set_messenger(self, messenger: Messenger) -> None:
        """Where unsolicited messages (AI and timer moves, reminders) go; `start` sets it from the bot."""
        self.messenger = messenger

    async def close(self) -> None:
        manager, self.manager = self.manager, None
        try:
            if manager is not None:
                await manager.close()
        finally:
            self.pictures.close()

    @property
    def m(self) -> GameManager:
        if self.manager is None:
            raise _fail("errors.unavailable")
        return self.manager

    async def game_guild(self, game_id: str) -> int | None:
        try:
            info = await self.m.game_info(game_id)
        except (Refused, StorageError, GameError, ValueError, KeyError):
            return None
        return info.guild_id

    # ------------------------------------------------------------------ helpers

    async def _state(self, game_id: str) -> GameState | None:
        return await self.m.state_of(game_id)

    async def _colorblind(self, game_id: str) -> bool:
        try:
            return (await self.m.game_info(game_id)).settings.colorblind
        except Refused:
            return True

    async def _since(self, game_id: str) -> datetime:
        return await self.m.waiting_since(game_id)

    async def _info(self, game_id: str) -> GameInfo:
        try:
            return await self.m.game_info(game_id)
        except Refused as exc:
            raise _refusal(exc) from None
        except StorageError:
            raise _fail("game.none") from None

    async def _find(
        self, guild_id: int | None, channel_id: int, game_id: str | None, *, open_only: bool = True
    ) -> GameInfo:
        if game_id:
            info = await self._info(game_id.strip())
            if info.guild_id != guild_id:
                raise _fail("game.none")
            return info
        found = await self.m.find_open_game(thread_id=channel_id) or await self.m.find_open_game(
            channel_id=channel_id
        )
        if found is None:
            raise _fail("game.none_here")
        return found

    async def _call(self, coro: Any) -> Any:
        try:
            return await coro
        except Refused as exc:
            raise _refusal(exc) from None

    def _seat(self, info: GameInfo, user_id: int) -> int:
        for s in info.seats:
            if s.user_id == user_id:
                return s.seat
        raise _fail("play.not_in_game")

    # ------------------------------------------------------------------ lobby

    def _lobby_reply(self, info: GameInfo, *, note: Message | None = None) -> Reply:
        board = load_board(info.board)
        variant = str(board.variant(info.variant).get("name", info.variant))
        seats = (
            "\n".join(
                f"{s.seat + 1}. "
                + (f"<@{s.user_id}>" if s.user_id is not None else s.name)
                + (f" 🤖 {s.ai_level}" if s.ai_level else "")
                for s in info.seats
            )
            or "-"
        )
        lo, hi = board.rules.get("players", [2, 5])
        most = min(hi, info.settings.max_players or hi)
        fields = [
            FieldSpec(Text("lobby.players", {"n": len(info.seats), "max": most}), seats, False),
            FieldSpec(Text("lobby.options"), ", ".join(info.options) or "-", True),
            FieldSpec(Text("lobby.host"), f"<@{info.host_id}>", True),
        ]
        embed = EmbedSpec(
            title=Text("lobby.title", {"board": board.name, "variant": variant, "game": info.game_id}),
            description=Text("lobby.help", {"min": lo}),
            fields=tuple(fields),
            color=EMBED_COLOR,
            footer=Text("lobby.footer", {"game": info.game_id}),
        )
        gid = info.game_id
        rows: tuple[tuple[ComponentSpec, ...], ...] = ()
        if info.status == GameStatus.LOBBY:
            rows = (
                (
                    ButtonSpec(gid, "join", Text("btn.join"), style="success"),
                    ButtonSpec(gid, "leave", Text("btn.leave")),
                    ButtonSpec(gid, "start", Text("btn.start"), style="primary"),
                ),
                (
                    SelectSpec(
                        gid,
                        "addai",
                        tuple(OptionSpec(Text(f"ai.{lvl}"), lvl) for lvl in AI_LEVELS),
                        placeholder=Text("btn.add_ai"),
                    ),
                ),
            )
        return Reply(content=note, embeds=(embed,), rows=rows, edit_source=True)

    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        board_id: str,
        variant: str | None = None,
        options: Sequence[str] = (),
        max_players: int | None = None,
        user_name: str = "",
    ) -> Reply:
        settings = {"max_players": max_players} if max_players else None
        info = await self._call(
            self.m.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                host_name=user_name or str(user_id),
                board=board_id,
                variant=variant,
                options=tuple(options),
                settings=settings,
            )
        )
        reply = self._lobby_reply(info, note=Text("lobby.opened", {"host": f"<@{user_id}>"}))
        return Reply(content=reply.content, embeds=reply.embeds, rows=reply.rows)

    # ------------------------------------------------------------------ presses

    async def press(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str,
        action: str,
        arg: str | None = None,
        values: Sequence[str] = (),
        user_name: str = "",
        moderator: bool = False,
    ) -> Reply:
        info = await self._info(game_id)
        if info.guild_id != guild_id:
            raise _fail("button.other_server")
        action = action.rstrip("0123456789") if action.startswith(("do", "grp")) else action
        if action == "join":
            info = await self._call(self.m.join(game_id, user_id, user_name or str(user_id)))
            return self._lobby_reply(info, note=Text("lobby.joined", {"player": f"<@{user_id}>"}))
        if action == "addai":
            level = values[0] if values else "normal"
            info = await self._call(self.m.add_ai(game_id, user_id, level, moderator=moderator))
            return self._lobby_reply(info)
        if action == "leave" and info.status == GameStatus.LOBBY:
            await self._call(self.m.leave(game_id, user_id))
            info = await self._info(game_id)
            return self._lobby_reply(info, note=Text("lobby.left", {"player": f"<@{user_id}>"}))
        if action == "leave":
            return await self.leave(guild_id, channel_id, user_id, game_id=game_id)
        if action == "start":
            return await self._start(info, user_id, moderator)
        if action == "hand":
            return await self.hand(guild_id, channel_id, user_id, game_id=game_id)
        if action == "board":  # the button answers privately (no channel spam); /ttr board posts publicly
            shown = await self.board(guild_id, channel_id, user_id, game_id=game_id)
            return Reply(embeds=shown.embeds, files=shown.files, ephemeral=True)
        if action == "status":
            return await self.status(guild_id, channel_id, user_id, game_id=game_id)
        if action in ("open", "menu", "grp", "do", "keep", "decide"):
            return await self._play(info, user_id, action, arg, values)
        raise _fail("button.unknown")

    async def _start(self, info: GameInfo, user_id: int, moderator: bool) -> Reply:
        outcome = await self._call(self.m.start_game(info.game_id, user_id, moderator=moderator))
        info = await self._info(info.game_id)
        lobby = self._lobby_reply(info, note=Text("lobby.started"))
        public = await self._after_public(info.game_id, outcome, force=True)
        return Reply(content=lobby.content, embeds=lobby.embeds, rows=(), edit_source=True, also=public)

    # ------------------------------------------------------------------ playing

    def _check_turn(self, info: GameInfo, state: GameState, user_id: int) -> int:
        seat = self._seat(info, user_id)
        if info.status != GameStatus.ACTIVE:
            raise _fail("play.not_running")
        if info.seats[seat].ai_level is not None:
            raise _fail("play.seat_ai")
        if seat not in info.to_act:
            if state.phase == SETUP:
                raise _fail("play.nothing")
            raise _fail("play.not_your_turn", current=_mention(info, state.current))
        return seat

    def _check_token(self, state: GameState, seat: int, token: str) -> None:
        if token != turn_token(state, seat):
            raise _fail("play.stale")

    async def _play(
        self, info: GameInfo, user_id: int, action: str, arg: str | None, values: Sequence[str]
    ) -> Reply:
        state = await self._state(info.game_id)
        if state is None:
            raise _fail("play.not_running")
        raw = arg if arg is not None else (values[0] if values else "")
        token, _, rest = raw.partition(act.SEP)
        if action != "decide":  # a button of an earlier moment says so, before "not your turn"
            self._check_token(state, self._seat(info, user_id), token)
        seat = self._check_turn(info, state, user_id)
        if action == "decide":
            return self._menu(info, state, seat, "decide", 0, edit=False)
        if action in ("open", "menu"):
            menu, _, page = rest.partition(act.SEP)
            return self._menu(info, state, seat, menu or "decide", _int(page, 0), edit=action == "menu")
        if action == "grp":
            menu, _, key = rest.partition(act.SEP)
            return self._payments(info, state, seat, menu, _int(key, -1), edit=True)
        if action == "keep":
            try:
                tickets = tuple(sorted(int(v.partition(act.SEP)[2]) for v in values))
            except ValueError:
                raise _fail("play.bad_choice") from None
            chosen: Action | None = KeepTickets(tickets)
        else:
            chosen = act.decode(rest)
        if chosen is None:
            raise _fail("play.bad_choice")
        return await self._apply(info, user_id, seat, chosen, token)

    async def _apply(self, info: GameInfo, user_id: int, seat: int, chosen: Action, token: str) -> Reply:
        outcome: Outcome = await self._call(self.m.act(info.game_id, user_id, chosen, expected_turn=token))
        private = [e.message for e in outcome.private_for(seat) if e.kind != "tickets_offered"]
        state = await self._state(info.game_id)
        info = await self._info(info.game_id)
        mine = [e.message for e in outcome.events if e.seat == seat and e.seq in outcome.seqs[:1]]
        public = await self._after_public(info.game_id, outcome)
        body: Message = Join((*mine, *private), tail=1900) if mine or private else Text("play.done")
        rows: tuple[tuple[ComponentSpec, ...], ...] = ()
        next_text: Message | None = None
        if (
            state is not None
            and not state.finished
            and seat in info.to_act
            and info.seats[seat].ai_level is None
            and state.pending.get(seat) is not None
            and legal_actions(state, seat)
        ):
            follow = self._menu(info, state, seat, "decide", 0, edit=True)
            rows, next_text = follow.rows, follow.content
        if next_text is None:
            return Reply(content=body, rows=rows, ephemeral=True, edit_source=True, also=public)
        # what just happened above, the next decision below (each translated on its own)
        done = EmbedSpec(description=body)
        return Reply(
            content=next_text, embeds=(done,), rows=rows, ephemeral=True, edit_source=True, also=public
        )

    @staticmethod
    def _face_up(state: GameState) -> Message:
        shown = tuple(ev.card(CARD_NAMES[c]) for c in state.face_up if 0 <= c < len(CARD_NAMES))
        return Join(shown, ", ") if shown else "-"

    # ------------------------------------------------------------------ menus

    def _menu(
        self, info: GameInfo, state: GameState, seat: int, menu: str, page: int, *, edit: bool
    ) -> Reply:
        gid = info.game_id
        token = turn_token(state, seat)
        pending = state.pending.get(seat)
        legal = legal_actions(state, seat)
        if not legal:
            raise _fail("play.nothing")
        if isinstance(pending, SecondDraw):
            menu = "draw"
        elif pending is not None:
            menu = "decide"
        acts = legal if pending is not None else [a for a in legal if act.category_of(a, False) == menu]
        if not acts:
            raise _fail("play.stale")
        if isinstance(pending, TicketChoice):
            options = tuple(
                OptionSpec(act.ticket_text(state, t)[:100], f"{token}{act.SEP}{t}") for t in pending.offered
            )
            most = min(pending.keep_max, len(pending.offered))
            select = SelectSpec(
                gid,
                "keep",
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
        if menu == "claim" or menu == "station":
            return self._groups(info, state, seat, menu, acts, page, edit=edit)
        if menu == "draw":
            return self._draw_menu(info, state, seat, acts, edit=edit)
        if menu == "move":
            acts = sorted(acts, key=lambda a: (-len(getattr(a, "routes", ())), act.label(state, seat, a)))
        key = {
            "tickets": "menu.tickets",
            "move": "menu.move",
            "depot": "menu.depot",
            "decide": "menu.decide",
        }.get(menu, "menu.choose")
        return Reply(
            content=Text(key, {"hint": self._pending_hint(state, seat)}),
            rows=self._choices(gid, state, seat, token, acts, page, menu),
            ephemeral=True,
            edit_source=edit,
        )

    def _pending_hint(self, state: GameState, seat: int) -> Message:
        pending = state.pending.get(seat)
        if pending is None:
            return ""
        kind = pending.kind
        if kind == "tunnel_payment":
            p: Any = pending
            shown = tuple(ev.card(CARD_NAMES[c]) for c in p.revealed)
            return Text(
                "hint.tunnel",
                {
                    "route": state.board.route_label(p.route),
                    "revealed": Join(shown, ", ") if shown else "-",
                    "extra": ev.counted("more_cards", int(p.extra)),
                },
            )
        if kind in ("ticket_mix", "passenger_placement", "meeple_choice", "warehouse_choice"):
            return Text(f"hint.{kind}")
        return ""

    def _choices(
        self,
        gid: str,
        state: GameState,
        seat: int,
        token: str,
        acts: Sequence[Action],
        page: int,
        menu: str,
    ) -> tuple[tuple[ComponentSpec, ...], ...]:
        """Buttons when few (and short), else selects of 25, paged with a More button."""
        packed = [(act.message(state, seat, a), act.pack(token, a)) for a in acts]
        if len(packed) <= 5 and all(len(v) <= MAX_ARG for _, v in packed):
            return (
                tuple(
                    ButtonSpec(gid, "do", _cut(lbl, 80), arg=v, style="primary" if i == 0 else "secondary")
                    for i, (lbl, v) in enumerate(packed)
                ),
            )
        per_page = MAX_OPTIONS * (MAX_ROWS - 1)
        pages = max(1, -(-len(packed) // per_page))
        page = max(0, min(page, pages - 1))
        shown = packed[page * per_page : (page + 1) * per_page]
        rows: list[tuple[ComponentSpec, ...]] = []
        for i, chunk in enumerate(_chunks(shown, MAX_OPTIONS)):
            # distinct select ids in one message: the action name carries the row number
            rows.append(
                (
                    SelectSpec(
                        gid,
                        "do" if i == 0 else f"do{i}",
                        tuple(OptionSpec(_cut(lbl, 100), v) for lbl, v in chunk),
                        placeholder=Text("menu.pick"),
                    ),
                )
            )
        if pages > 1:
            nxt = (page + 1) % pages
            rows.append(
                (
                    ButtonSpec(
                        gid,
                        "menu",
                        Text("btn.more", {"page": nxt + 1, "pages": pages}),
                        arg=f"{token}{act.SEP}{menu}{act.SEP}{nxt}",
                    ),
                )
            )
        return tuple(rows)

    def _draw_menu(
        self, info: GameInfo, state: GameState, seat: int, acts: Sequence[Action], *, edit: bool
    ) -> Reply:
        gid = info.game_id
        token = turn_token(state, seat)
        second = isinstance(state.pending.get(seat), SecondDraw)
        warehouses = sorted({w for a in acts if (w := getattr(a, "warehouse", None)) is not None})
        if warehouses:
            # Warehouses & Depots: first the warehouse that gets the top card, then the card
            names = [p.name for p in state.players]
            options = [
                (Text("menu.warehouse_of", {"owner": names[w]}), f"{token}{act.SEP}draw{w}")
                for w in warehouses
            ]
            return Reply(
                content=Text("menu.warehouse"),
                rows=(
                    (
                        SelectSpec(
                            gid,
                            "grp",
                            tuple(OptionSpec(lbl, v) for lbl, v in options),
                            placeholder=Text("menu.pick"),
                        ),
                    ),
                ),
                ephemeral=True,
                edit_source=edit,
            )
        buttons = []
        for a in acts:
            style: ButtonStyle = "success" if a.kind == "draw_blind" else "secondary"
            emoji = "🂠" if a.kind == "draw_blind" else None
            buttons.append(
                ButtonSpec(
                    gid,
                    "do",
                    act.message(state, seat, a),
                    arg=act.pack(token, a),
                    style=style,
                    emoji=emoji,
                )
            )
        face_up = self._face_up(state)
        return Reply(
            content=Text("menu.draw_second" if second else "menu.draw", {"face_up": face_up}),
            rows=tuple(_rows_of_buttons(buttons)),
            ephemeral=True,
            edit_source=edit,
        )

    def _group_key(self, a: Action) -> int:
        return int(getattr(a, "route", getattr(a, "city", -1)))

    def _groups(
        self,
        info: GameInfo,
        state: GameState,
        seat: int,
        menu: str,
        acts: Sequence[Action],
        page: int,
        *,
        edit: bool,
    ) -> Reply:
        """Claim / station: first the route or city (selects of 25, paged), then its payments."""
        gid = info.game_id
        token = turn_token(state, seat)
        keys = sorted({self._group_key(a) for a in acts}, key=lambda k: self._group_sort(state, menu, k))
        if len(keys) == 1:
            return self._payments(info, state, seat, menu, keys[0], edit=edit)
        per_page = MAX_OPTIONS * (MAX_ROWS - 1)
        pages = max(1, -(-len(keys) // per_page))
        page = max(0, min(page, pages - 1))
        shown = keys[page * per_page : (page + 1) * per_page]
        rows: list[tuple[ComponentSpec, ...]] = []
        for i, chunk in enumerate(_chunks(shown, MAX_OPTIONS)):
            rows.append(
                (
                    SelectSpec(
                        gid,
                        "grp" if i == 0 else f"grp{i}",
                        tuple(
                            OptionSpec(
                                self._group_label(state, menu, k), f"{token}{act.SEP}{menu}{act.SEP}{k}"
                            )
                            for k in chunk
                        ),
                        placeholder=Text("menu.pick_route" if menu == "claim" else "menu.pick_city"),
                    ),
                )
            )
        if pages > 1:
            nxt = (page + 1) % pages
            rows.append(
                (
                    ButtonSpec(
                        gid,
                        "menu",
                        Text("btn.more", {"page": nxt + 1, "pages": pages}),
                        arg=f"{token}{act.SEP}{menu}{act.SEP}{nxt}",
                    ),
                )
            )
        key = "menu.claim" if menu == "claim" else "menu.station"
        return Reply(content=Text(key, {"n": len(keys)}), rows=tuple(rows), ephemeral=True, edit_source=edit)

    @staticmethod
    def _group_label(state: GameState, menu: str, key: int) -> Message:
        if menu == "claim":
            return act.route_message(state, key)
        return state.board.cities[key].name

    @staticmethod
    def _group_sort(state: GameState, menu: str, key: int) -> str:
        if menu == "claim":
            return state.board.route_label(key)
        return state.board.cities[key].name

    def _payments(
        self, info: GameInfo, state: GameState, seat: int, menu: str, key: int, *, edit: bool
    ) -> Reply:
        gid = info.game_id
        token = turn_token(state, seat)
        if menu.startswith("draw"):  # a warehouse chosen: the card picker for it
            w = _int(menu[4:], -1)
            acts = [a for a in legal_actions(state, seat) if getattr(a, "warehouse", None) == w]
            if not acts:
                raise _fail("play.bad_choice")
            buttons = [
                ButtonSpec(gid, "do", act.message(state, seat, a), arg=act.pack(token, a)) for a in acts
            ]
            face_up = self._face_up(state)
            return Reply(
                content=Text("menu.draw", {"face_up": face_up}),
                rows=tuple(_rows_of_buttons(buttons)),
                ephemeral=True,
                edit_source=edit,
            )
        kind = "claim_route" if menu == "claim" else "build_station"
        acts = [a for a in legal_actions(state, seat) if a.kind == kind and self._group_key(a) == key]
        if not acts:
            raise _fail("play.bad_choice")
        return self._confirm(info, state, seat, menu, key, acts, edit=edit)

    def _confirm(
        self,
        info: GameInfo,
        state: GameState,
        seat: int,
        menu: str,
        key: int,
        acts: Sequence[Action],
        *,
        edit: bool,
    ) -> Reply:
        gid = info.game_id
        token = turn_token(state, seat)
        best = act.cheapest(acts, state.players[seat].hand)
        what = self._group_label(state, menu, key)
        rows: list[tuple[ComponentSpec, ...]] = [
            (
                ButtonSpec(
                    gid, "do", Text("btn.confirm"), arg=act.pack(token, best), style="success", emoji="✅"
                ),
                ButtonSpec(gid, "menu", Text("btn.back"), arg=f"{token}{act.SEP}{menu}{act.SEP}0"),
            )
        ]
        others = [a for a in acts if a != best]
        if others:
            options = [(act.message(state, seat, a), act.pack(token, a)) for a in [best, *others]]
            for i, chunk in enumerate(_chunks(options, MAX_OPTIONS)[: MAX_ROWS - 1]):
                rows.append(
                    (
                        SelectSpec(
                            gid,
                            "do" if i == 0 else f"do{i}",
                            tuple(OptionSpec(_cut(lbl, 100), v) for lbl, v in chunk),
                            placeholder=Text("menu.other_payment"),
                        ),
                    )
                )
        notes: list[Message] = []
        route = state.board.routes[key] if menu == "claim" else None
        if route is not None and route.tunnel:
            notes.append(Text("menu.tunnel_note"))
        if route is not None and getattr(route, "bullet", False):
            notes.append(Text("menu.bullet_note"))
        note = Join(("", *notes), " ") if notes else ""
        payment = act.payment_of(state, seat, best)
        return Reply(
            content=Text("menu.confirm", {"what": what, "payment": payment, "note": note}),
            rows=tuple(rows),
            ephemeral=True,
            edit_source=edit,
        )

    # ------------------------------------------------------------------ public messages

    def _should_publish(self, events: Iterable[GameEvent]) -> bool:
        for e in events:
            if e.kind in PUBLISH_KINDS or "next" in e.data:
                return True
            if e.kind == "claim_route" and "tunnel_revealed" in e.data.get("public", {}):
                return True
        return False

    async def _after_public(
        self, game_id: str, outcome: Outcome, *, force: bool = False
    ) -> tuple[Reply, ...]:
        lines = self._lines.setdefault(game_id, [])
        lines.extend(e.message for e in outcome.events)
        if not (force or self._should_publish(outcome.events)):
            return ()
        return (await self.turn_message(game_id),)

    async def turn_message(self, game_id: str) -> Reply:
        """The public message after a turn: what happened, the board, whose turn, the buttons of the seat."""
        lines = self._lines.pop(game_id, [])
        info = await self._info(game_id)
        state = await self._state(game_id)
        if state is None:
            raise _fail("play.not_running")
        if len(lines) > MAX_LINES:
            lines = ["…", *lines[-MAX_LINES:]]
        text = Join(tuple(lines), tail=1500)
        if state.finished or info.status != GameStatus.ACTIVE:
            return await self._final_message(info, state, text)
        gid = info.game_id
        buttons: list[ButtonSpec] = []
        if state.phase == SETUP:
            waiting = [s for s in info.to_act if info.seats[s].ai_level is None]
            who = ", ".join(_mention(info, s) for s in waiting)
            content: Text = Text("turn.setup", {"lines": text, "players": who or "-"})
            buttons.append(ButtonSpec(gid, "decide", Text("btn.choose_tickets"), style="primary", emoji="🎫"))
        else:
            seat = state.current
            content = Text("turn.message", {"lines": text, "player": _mention(info, seat)})
            if info.seats[seat].ai_level is None:
                token = turn_token(state, seat)
                pending = state.pending.get(seat) is not None
                menus = {act.category_of(a, pending) for a in legal_actions(state, seat)}
                for menu in [*act.CATEGORY_ORDER, "decide"]:
                    if menu in menus:
                        key, style, emoji = MENU_LABELS[menu]
                        buttons.append(
                            ButtonSpec(
                                gid,
                                "open",
                                Text(key),
                                arg=f"{token}{act.SEP}{menu}",
                                style=style,
                                emoji=emoji,
                            )
                        )
        buttons.append(ButtonSpec(gid, "hand", Text("btn.hand"), emoji="✋"))
        buttons.append(ButtonSpec(gid, "board", Text("btn.board"), emoji="🗺"))
        png = await self._picture(self.pictures.board(state, colorblind=await self._colorblind(gid)), gid)
        rnd = state.turn // max(1, state.num_players) + 1
        embed = EmbedSpec(
            image="board.png" if png else None,
            color=EMBED_COLOR,
            footer=Text(
                "turn.footer",
                {"game": gid, "round": rnd, "deck": len(state.deck), "left": state.last_round_left or "-"},
            ),
        )
        alt = f"Board of game {gid}, round {rnd}"
        return Reply(
            content=content,
            embeds=(embed,),
            files=(FileSpec("board.png", png, description=alt),) if png else (),
            rows=tuple(_rows_of_buttons(buttons)),
        )

    async def _picture(self, call: Any, game_id: str) -> bytes | None:
        """A picture, or None when drawing failed (the move is already saved: the message goes out without it)."""
        try:
            data: bytes = await call
        except Exception:  # noqa: BLE001 - a broken picture must not hide the move
            log.exception("game %s: picture failed", game_id)
            return None
        return data

    async def _final_message(self, info: GameInfo, state: GameState, lines: Join) -> Reply:
        if info.status != GameStatus.FINISHED:
            return Reply(content=Text("turn.ended", {"lines": lines}))
        embeds = [
            EmbedSpec(
                title=Text("final.title", {"game": info.game_id}),
                description=lines if lines.parts else None,
                color=EMBED_COLOR,
                image="board.png",
            )
        ]
        fields = []
        budget = min(1024, 5000 // max(1, len(info.final)))  # an embed holds 6000 characters in all
        for s in sorted(info.final, key=lambda s: (s["rank"], s["seat"])):
            parts: list[str] = []
            for t in s["tickets"]:
                mark = "✅" if t["completed"] else "❌"
                sign = "+" if t["completed"] else "−"
                parts.append(f"{mark} {t['a']} – {t['b']} {sign}{t['points']}")
            bonuses = [
                Join(("🏅", Text(f"bonus.{name}"), f"+{pts}"), " ")
                for name, pts in s.get("bonuses", {}).items()
                if pts
            ]
            routes = Text("final.routes", {"points": s["route_points"]})
            tickets = (_fit("\n".join(parts), budget - 40 * (1 + len(bonuses))),) if parts else ()
            fields.append(
                FieldSpec(
                    f"{s['rank']}. {s['name']}: {s['total']}",
                    Join((routes, *tickets, *bonuses), head=1024),
                    False,
                )
            )
        embeds.append(EmbedSpec(title=Text("final.sheets"), fields=tuple(fields[:25]), image="summary.png"))
        board_png, summary_png = await asyncio.gather(
            self._picture(self.pictures.board(state, colorblind=info.settings.colorblind), info.game_id),
            self._picture(self.pictures.summary(state), info.game_id),
        )
        files = []
        if board_png:
            files.append(FileSpec("board.png", board_png, description=f"Final board of game {info.game_id}"))
        if summary_png:
            files.append(FileSpec("summary.png", summary_png, description="Final scores"))
        try:
            record = await self.m.export_record(info.game_id)
            files.append(
                FileSpec("game.gif", await self.pictures.gif(record), description="The game, round by round")
            )
        except Exception:  # noqa: BLE001 - the scores matter more than the animation
            log.exception("game %s: GIF failed", info.game_id)
        return Reply(content=Text("final.content"), embeds=tuple(embeds), files=tuple(files))

    # ------------------------------------------------------------------ notifier (bot.manager.Notifier)

    async def _post(self, game_id: str, reply: Reply) -> None:
        if self.messenger is None:
            return
        info = await self._info(game_id)
        await self.messenger.post(info.thread_id or info.channel_id, reply)

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        public = await self._after_public(game_id, outcome)
        for reply in public:
            await self._post(game_id, reply)

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        await self._post(
            game_id,
            Reply(content=Text("turn.reminder", {"player": f"<@{user_id}>", "game": game_id, "n": n})),
        )

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        who: Message = f"<@{user_id}>" if user_id else Text("turn.seat", {"n": seat + 1})
        await self._post(game_id, Reply(content=Text(f"turn.absent_{policy}", {"player": who})))

    # ------------------------------------------------------------------ commands

    async def claim(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        route: str,
        color: str | None = None,
        game_id: str | None = None,
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        state = await self._state(info.game_id)
        if state is None:
            raise _fail("play.not_running")
        seat = self._check_turn(info, state, user_id)
        rid = self._route_id(state, route)
        claims = [a for a in legal_actions(state, seat) if isinstance(a, ClaimRoute) and a.route == rid]
        if not claims:
            raise _fail("claim.cannot", route=act.route_text(state, rid))
        if color:
            wanted = normalize_name(color)
            idx = (
                LOCOMOTIVE
                if wanted.startswith("loco")
                else next((i for i, n in enumerate(CARD_NAMES) if normalize_name(n) == wanted), None)
            )
            if idx is None:
                raise _fail("claim.bad_color", color=color)
            matching = [a for a in claims if a.color == idx]
            if not matching:
                raise _fail("claim.not_with_color", route=act.route_text(state, rid), color=color)
            claims = matching
        return self._confirm(info, state, seat, "claim", rid, claims, edit=False)

    @staticmethod
    def _route_id(state: GameState, text: str) -> int:
        board = state.board
        raw = text.strip()
        if raw.isdigit() and int(raw) < len(board.routes):
            return int(raw)
        wanted = normalize_name(raw.split("(")[0]).replace("–", "-").replace(" ", "")
        found = []
        for r in board.routes:
            a, b = (normalize_name(board.cities[c].name).replace(" ", "") for c in (r.a, r.b))
            if wanted in (f"{a}-{b}", f"{b}-{a}"):
                found.append(r.id)
        if not found:
            raise _fail("claim.no_route", route=text)
        return found[0]

    async def hand(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        seat = self._seat(info, user_id)
        state = await self._state(info.game_id)
        if state is None:
            raise _fail("play.not_running")
        you = player_view(state, seat)["you"]
        cards: Message = (
            Join(tuple(ev.cards(n, c) for c, n in you["hand"].items()), ", ") if you["hand"] else "-"
        )
        tickets: list[Message] = []
        for t in you["tickets"]:
            mark = "✅" if t["done"] else "⬜"
            line = f"{mark} {t['a']} – {t['b']} ({t['points']})"
            if t["done"] or t["trains_needed"] is None:
                tickets.append(line)
            else:
                tickets.append(Join((line, Text("hand.to_go", {"n": t["trains_needed"]})), " · "))
        p = state.players[seat]
        stock = [FieldSpec(Text("hand.trains", {"n": p.trains}), "🚂")]
        if state.board.rules.get("stations_per_player"):
            stock.append(FieldSpec(Text("hand.stations", {"n": p.stations}), "🏠"))
        if "passengers" in p.extra:
            stock.append(FieldSpec(Text("hand.passengers", {"n": p.extra["passengers"]}), "🧳"))
        if p.ferry_cards:
            stock.append(FieldSpec(Text("hand.ferry", {"n": p.ferry_cards}), "⛴"))
        if p.depots:
            stock.append(FieldSpec(Text("hand.depots", {"n": p.depots}), "📦"))
        fields = (
            FieldSpec(Text("hand.cards"), cards, False),
            FieldSpec(Text("hand.tickets"), Join(tuple(tickets), head=1024) if tickets else "-", False),
            *stock,
        )
        png = await self._picture(
            self.pictures.hand(state, seat, colorblind=info.settings.colorblind), info.game_id
        )
        embed = EmbedSpec(
            title=Text("hand.title", {"game": info.game_id}),
            fields=fields,
            image="hand.png" if png else None,
            color=EMBED_COLOR,
        )
        rows: tuple[tuple[ComponentSpec, ...], ...] = ()
        if seat in info.to_act and state.pending.get(seat) is not None and info.seats[seat].ai_level is None:
            rows = ((ButtonSpec(info.game_id, "decide", Text("btn.decide"), style="primary"),),)
        return Reply(
            embeds=(embed,),
            files=(FileSpec("hand.png", png, description="Your cards and tickets"),) if png else (),
            rows=rows,
            ephemeral=True,
        )

    async def board(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id, open_only=False)
        state = await self._state(info.game_id)
        if state is None:
            raise _fail("play.not_running")
        png = await self._picture(
            self.pictures.board(state, colorblind=info.settings.colorblind), info.game_id
        )
        face_up = self._face_up(state)
        embed = EmbedSpec(
            title=Text("board.title", {"game": info.game_id, "board": load_board(info.board).name}),
            description=Text("board.face_up", {"cards": face_up, "deck": len(state.deck)}),
            image="board.png" if png else None,
            color=EMBED_COLOR,
        )
        return Reply(
            embeds=(embed,),
            files=(FileSpec("board.png", png, description=f"Board of game {info.game_id}"),) if png else (),
            rows=((ButtonSpec(info.game_id, "hand", Text("btn.hand"), emoji="✋"),),),
        )

    async def status(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        if info.status == GameStatus.LOBBY:
            lobby = self._lobby_reply(info)
            return Reply(embeds=lobby.embeds)
        since = await self._since(info.game_id)
        fields = []
        for s in info.seats:
            marker = "▶ " if s.to_act else ""
            ai = f" 🤖 {s.ai_level}" if s.ai_level else ""
            fields.append(
                FieldSpec(
                    f"{marker}{s.name}{ai}",
                    Text(
                        "status.seat",
                        {"score": s.score, "trains": s.trains, "cards": s.cards, "tickets": s.tickets},
                    ),
                    True,
                )
            )
        whose = ", ".join(_mention(info, s) for s in info.to_act) or "-"
        stamp = int(since.replace(tzinfo=since.tzinfo or UTC).timestamp())
        embed = EmbedSpec(
            title=Text("status.title", {"game": info.game_id, "board": load_board(info.board).name}),
            description=Text(
                "status.turn", {"players": whose, "since": f"<t:{stamp}:R>", "phase": info.phase}
            ),
            fields=tuple(fields),
            color=EMBED_COLOR,
        )
        return Reply(embeds=(embed,))

    async def log(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        limit: int = 10,
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        if info.status == GameStatus.LOBBY:
            raise _fail("play.not_running")
        events = await self._call(self.m.recent_events(info.game_id, max(1, min(limit, 50))))
        numbered = tuple(Join((f"{e.seq}.", e.message), " ") for e in events if e.seq)
        text: Message = Join(numbered, tail=4000) if numbered else "-"
        return Reply(
            embeds=(EmbedSpec(title=Text("log.title", {"game": info.game_id}), description=text),),
            ephemeral=True,
        )

    async def settings(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        key: str | None = None,
        value: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        current: GameSettings = info.settings
        if key:
            if value is None:
                raise _fail("settings.need_value", key=key)
            current = await self._call(
                self.m.update_settings(info.game_id, user_id, moderator=moderator, **{key: value})
            )
        text = "\n".join(f"`{k}`: {v}" for k, v in current.to_json().items())
        return Reply(
            content=Text("settings.changed", {"key": key}) if key else None,
            embeds=(EmbedSpec(title=Text("settings.title", {"game": info.game_id}), description=text),),
            ephemeral=True,
        )

    async def games(
        self, guild_id: int | None, channel_id: int, user_id: int, *, scope: str = "channel"
    ) -> Reply:
        repo = self.m.repository
        if scope == "mine":
            rows = await repo.games_for_player(user_id, status=OPEN_STATUSES)
        else:
            page = await repo.list_games(
                status=OPEN_STATUSES,
                guild_id=guild_id,
                channel_id=channel_id if scope == "channel" else None,
                limit=25,
            )
            rows = page.items
        if guild_id is not None:
            rows = [r for r in rows if r.guild_id == guild_id]
        lines = [
            f"`{r.id}` {load_board(r.board).name} · {r.status.value} · <#{r.thread_id or r.channel_id}> · "
            + ", ".join(s.name for s in r.seats)
            for r in rows
        ]
        return Reply(
            embeds=(
                EmbedSpec(
                    title=Text("games.title"), description="\n".join(lines)[:4000] or Text("games.none")
                ),
            ),
            ephemeral=True,
        )

    async def stats(
        self, guild_id: int | None, channel_id: int, user_id: int, *, target_user_id: int | None = None
    ) -> Reply:
        repo = self.m.repository
        who = target_user_id or user_id
        st = await repo.player_stats(guild_id, who)
        fields = [
            FieldSpec(
                load_board(b).name if b else b,
                Text("stats.board", {"games": v.games, "wins": v.wins, "best": v.best_score}),
                True,
            )
            for b, v in st.per_board.items()
        ]
        board_rows = await repo.leaderboard(guild_id, limit=10)
        top = "\n".join(
            f"{i + 1}. <@{r.user_id}> · {r.wins}/{r.games} · {r.mean_score:.0f}"
            for i, r in enumerate(board_rows)
        )
        embeds = (
            EmbedSpec(
                title=Text("stats.title"),
                description=Text(
                    "stats.summary",
                    {
                        "player": f"<@{who}>",
                        "games": st.games,
                        "wins": st.wins,
                        "mean": f"{st.mean_score:.1f}",
                        "best": st.best_score,
                    },
                ),
                fields=tuple(fields[:24]),
                color=EMBED_COLOR,
            ),
            EmbedSpec(title=Text("stats.leaderboard"), description=top or "-"),
        )
        return Reply(embeds=embeds)

    async def _outcome_reply(self, game_id: str, outcome: Outcome) -> Reply:
        text: Message = Join(tuple(e.message for e in outcome.events)) if outcome.events else "-"
        if any(e.seq for e in outcome.events):
            public = await self._after_public(game_id, outcome, force=True)
            first = public[0] if public else Reply(content=text)
            return first
        return Reply(content=text)

    async def leave(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        outcome = await self._call(self.m.leave(info.game_id, user_id))
        return await self._outcome_reply(info.game_id, outcome)

    async def kick(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        target_user_id: int,
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        outcome = await self._call(self.m.kick(info.game_id, user_id, target_user_id, moderator=moderator))
        return await self._outcome_reply(info.game_id, outcome)

    async def end(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        info = await self._find(guild_id, channel_id, game_id)
        outcome = await self._call(self.m.abandon(info.game_id, user_id, moderator=moderator))
        self._lines.pop(info.game_id, None)
        lines = tuple(e.message for e in outcome.events)
        return Reply(content=Join(lines) if lines else Text("game.ended"))

    async def replace(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        target_user_id: int,
        replacement_user_id: int,
        replacement_name: str = "",
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        """Same person twice: that player hands their seat to the AI, or takes it back. Otherwise the host
        (or a moderator) gives the seat to another member."""
        info = await self._find(guild_id, channel_id, game_id)
        if target_user_id == replacement_user_id:
            if target_user_id != user_id:
                raise _fail("replace.self_only")
            seat = self._seat(info, user_id)
            if info.seats[seat].ai_level is None:
                outcome = await self._call(self.m.hand_to_ai(info.game_id, user_id, "normal"))
            else:
                outcome = await self._call(self.m.take_back(info.game_id, user_id))
        else:
            outcome = await self._call(
                self.m.replace_player(
                    info.game_id,
                    user_id,
                    target_user_id,
                    replacement_user_id,
                    replacement_name or str(replacement_user_id),
                    moderator=moderator,
                )
            )
        return await self._outcome_reply(info.game_id, outcome)

    async def complete(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        field: str,
        current: str,
        game_id: str | None = None,
    ) -> list[Choice]:
        needle = normalize_name(current or "")
        if field == "setting":
            return [Choice(n, n) for n in GameSettings.names() if needle in n][:MAX_OPTIONS]
        if field == "game":
            ids = await self.m.games_of(user_id)
            out = []
            for gid in ids[:MAX_OPTIONS]:
                info = await self._info(gid)
                if info.guild_id == guild_id and needle in normalize_name(f"{gid} {info.board}"):
                    out.append(Choice(f"{gid} · {load_board(info.board).name}", gid))
            return out
        if field == "route":
            try:
                info = await self._find(guild_id, channel_id, game_id)
            except GameError:
                return []
            state = await self._state(info.game_id)
            seat = next((s.seat for s in info.seats if s.user_id == user_id), None)
            if state is None or seat is None or seat not in info.to_act:
                return []
            routes = sorted({a.route for a in legal_actions(state, seat) if isinstance(a, ClaimRoute)})
            out = []
            for rid in routes:
                name = act.route_text(state, rid)
                if needle in normalize_name(name):
                    out.append(Choice(name, str(rid)))
            return out[:MAX_OPTIONS]
        return []


def create_game_service(settings: Settings) -> ManagerGameService:
    """The service the bot runs (`bot.discord.app.TTRBot` builds it when none is given)."""
    return ManagerGameService(settings)
