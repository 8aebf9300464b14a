"""Live pages: every open page of a game gets its reader's new view within moments of any change of the game,
wherever it was made (a page, a chat button or command, an AI seat, a timer, another process).

In one process the manager tells the hub of each new version it holds (`GameManager.listen`: called under the
game's lock, so the hub only takes note and schedules). Across processes on PostgreSQL, every new version of a
game row is announced by the database (migration V005's trigger, channel ``ttr_game_changed``, payload
"<schema> <game id> <version>": no game data); `PgChanges` listens with asyncpg's ``add_listener`` and hands
the id to the same hub, which reads the game again through the manager. On SQLite, in-process only.

One push per game at a time: changes that arrive meanwhile are folded into the next push. A push never waits on
a page: each page has its own sender (`_Outbox`) holding at most one frame, the newest (a page that falls behind
skips to the latest view when it catches up), and a frame that takes longer than the send time-out to go out
closes that page (close code 1013, "slow"): a page that does not read its socket holds up nobody but itself. A
view is built and spelt as JSON once per (seat, language), field by field; each page's frame carries only the
fields that differ from what that page was last sent (a move's frame: a few kilobytes). The board's base
drawing (the printed map, `view.board_base`) is drawn once per board, language and colour-blind setting and
fetched by the pages at its own URL (`Drawing`), once: the browser keeps it; the game's pieces over it
(`view.board_pieces`: claimed trains, stations, the last move's glow, ...) are drawn once per language and version
and are in the view, each by its id: a frame carries only the pieces added or changed (and null for each one
gone). The move's
log lines are the public events the manager's change notices carried (the same words as the chat's turn
message: `bot.manager.events.public_events`, worded by `bot.play.event_words`): the hub applies no move. Only a
change made by another process comes without them; its events are then read from the manager
(`public_events_since`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.manager import GameInfo, GameManager, Refused
from bot.manager.events import GameEvent
from bot.web.contract import LogLine, Move, View
from bot.web.view import (
    Reader,
    board_base,
    board_pieces,
    drawing_url,
    game_view,
    log_lines,
    one_line,
    seat_of,
)
from engine.state import GameState
from maps import load_board
from render.from_engine import moves_since
from render.model import LastMove

log = logging.getLogger(__name__)

#: How many log lines a view carries.
LOG_LINES = 12
#: How many change notices' events a game keeps until its next push (a push folds many moves into one).
MAX_HEARD = 2000
#: How many games the hub keeps what it drew for when no page of theirs is open.
MAX_IDLE_GAMES = 500
#: How many base drawings (board, language, colour-blind setting) the hub keeps.
MAX_BASES = 64
#: How long one frame may take to go out to a page before that page is closed as too slow (seconds).
SEND_TIMEOUT = 10.0


@dataclass(eq=False)
class Page:
    """One open page: its reader, and how to send it a frame (a WebSocket in production, a list in tests)."""

    game_id: str
    reader: Reader
    send: Callable[[str], Awaitable[None]]
    expires: float  # time.time() when its session ends
    close: Callable[[], Awaitable[object]] = field(default=lambda: asyncio.sleep(0))
    #: closes a page that fell behind (a frame did not go out within the send time-out), with a clear frame
    too_slow: Callable[[], Awaitable[object]] | None = None
    outbox: _Outbox | None = field(default=None, init=False, repr=False)


class _Outbox:
    """A page's own sender: one view waits at most (a newer one replaces it), sent by the page's own task, each
    frame within `timeout` seconds or the page is closed as too slow. `gone` is told when the page can take no
    more. A frame carries only the view's fields that differ from the page's previous frame (the first: all),
    so a page that skipped a view still ends up with the newest whole."""

    def __init__(
        self, page: Page, timeout: float, sent: Callable[[], None], gone: Callable[[Page], None]
    ) -> None:
        self.page = page
        self.timeout = timeout
        self._sent = sent
        self._gone = gone
        self._view: dict[str, str] | None = None
        self._shown: dict[str, str] = {}  # the page's view as last sent: field -> its JSON
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def put(self, view: dict[str, str]) -> None:
        """Send `view` (its fields' JSON: `view_parts`) soon."""
        self._view = view
        self._wake.set()

    def stop(self) -> None:
        self._task.cancel()

    def _frame(self, view: dict[str, str]) -> str:
        shown = self._shown
        changed = [
            (k, v)
            for k, v in view.items()
            if not k.startswith(PIECE) and (k == "version" or shown.get(k) != v)
        ]
        pieces = [(k, v) for k, v in view.items() if k.startswith(PIECE) and shown.get(k) != v]
        pieces += [(k, "null") for k in shown if k.startswith(PIECE) and k not in view]
        if pieces or not shown:  # (the first frame: every piece, maybe none)
            inner = ",".join(f"{json.dumps(k[len(PIECE) :])}:{v}" for k, v in pieces)
            changed.append(("pieces", "{" + inner + "}"))
        self._shown = view
        return '{"type":"view","view":{' + ",".join(f"{json.dumps(k)}:{v}" for k, v in changed) + "}}"

    async def _run(self) -> None:
        page = self.page
        while True:
            await self._wake.wait()
            self._wake.clear()
            view, self._view = self._view, None
            if view is None:
                continue
            try:
                await asyncio.wait_for(page.send(self._frame(view)), self.timeout)
            except TimeoutError:
                log.debug("game %s: a page too slow to read its frames is closed", page.game_id)
                self._gone(page)
                if page.too_slow is not None:
                    await page.too_slow()
                return
            except Exception:  # noqa: BLE001 - whatever ends this sender ends the page, never a page left unsent
                log.debug("game %s: a page's sender stopped", page.game_id, exc_info=True)
                self._gone(page)
                return
            self._sent()


#: A piece of the board among a view's parts: ``pieces.<piece id>`` (a frame carries the pieces that changed).
PIECE = "pieces."


def view_parts(view: View | dict[str, Any]) -> dict[str, str]:
    """A view as its fields' JSON, each spelt once for every page of its reader kind (each piece of the board
    apart: `PIECE`)."""
    parts = {
        k: json.dumps(v, separators=(",", ":"), ensure_ascii=False) for k, v in view.items() if k != "pieces"
    }
    for pid, svg in (view.get("pieces") or {}).items():
        parts[PIECE + pid] = json.dumps(svg, separators=(",", ":"), ensure_ascii=False)
    return parts


@dataclass(frozen=True, slots=True)
class Drawing:
    """The board's base drawn for one language, and its tag (a digest of the SVG: its URL's key)."""

    svg: str
    tag: str


@dataclass
class _Game:
    """What the hub keeps of one watched game."""

    pages: set[Page] = field(default_factory=set)
    count: int = -1  # the game's number of actions at the last push (-1: not read yet)
    events: list[GameEvent] = field(default_factory=list)  # the latest public events, oldest first
    heard: list[GameEvent] = field(default_factory=list)  # the change notices' events not pushed yet
    version: int = -1  # the newest version heard of
    pushed: int = -1  # the version of the last push
    task: asyncio.Task[None] | None = None
    #: (language, action count, colour-blind) -> the board's pieces
    pieces: dict[tuple[str, int, bool], dict[str, str]] = field(default_factory=dict)
    shown: tuple[Any, ...] = ()  # what the last push showed (actions, status, seats, settings)
    #: language -> (the events worded, the seats they were named after, their log lines)
    log: dict[str, tuple[tuple[GameEvent, ...], tuple[Any, ...], list[LogLine]]] = field(default_factory=dict)


class LiveHub:
    """The open pages of every game of this process, and the pushes to them."""

    def __init__(
        self,
        manager: GameManager,
        *,
        expired: Callable[[Page], Awaitable[None]] | None = None,
        send_timeout: float = SEND_TIMEOUT,
    ):
        self.manager = manager
        self._games: dict[str, _Game] = {}
        self._stop = manager.listen(self.changed)
        self._expired = expired
        self.send_timeout = send_timeout
        self._closing: set[asyncio.Task[None]] = set()  # expired pages being told
        self.pushes = 0  # frames sent (benchmarks)
        self._bases: dict[tuple[str, str, bool], Drawing] = {}  # (board, language, colour-blind) -> base

    def close(self) -> None:
        self._stop()
        for game in self._games.values():
            if game.task is not None:
                game.task.cancel()
            for page in game.pages:
                if page.outbox is not None:
                    page.outbox.stop()
        self._games.clear()

    # ------------------------------------------------------------------ pages

    async def open(self, page: Page) -> View:
        """Register `page`, send it its first view (through its own sender, as every later frame) and return
        that view."""
        game = self._games.setdefault(page.game_id, _Game())
        heard = game.version
        if not game.pages:  # the moves made while no page was open were not heard: the log is read afresh
            game.count, game.heard = -1, []
        view, shown = await self._read(page.game_id, page.reader)  # (sets the count moves are told from)
        game = self._games.setdefault(page.game_id, game)  # (the same, unless dropped meanwhile as idle)
        if not game.pages:  # the first page: what it shows is what the next push compares with
            game.shown = shown
        page.outbox = _Outbox(page, self.send_timeout, self._counted, self._gone)
        page.outbox.put(view_parts(view))
        game.pages.add(page)
        if game.version > heard:  # a change heard while the view was built: pushed now, not lost
            self.changed(page.game_id, game.version)
        return view

    def leave(self, page: Page) -> None:
        if page.outbox is not None:
            page.outbox.stop()
        self._gone(page)

    def _gone(self, page: Page) -> None:
        """`page` takes no more frames (left, closed, too slow)."""
        game = self._games.get(page.game_id)
        if game is None:
            return
        game.pages.discard(page)
        if not game.pages and game.task is None:
            del self._games[page.game_id]

    def _counted(self) -> None:
        self.pushes += 1

    def pages(self, game_id: str) -> int:
        game = self._games.get(game_id)
        return len(game.pages) if game else 0

    # ------------------------------------------------------------------ views

    async def view_of(self, game_id: str, reader: Reader) -> View:
        """`reader`'s view of the game now (Refused propagates)."""
        return (await self._read(game_id, reader))[0]

    async def _read(self, game_id: str, reader: Reader) -> tuple[View, tuple[Any, ...]]:
        info = await self.manager.game_info(game_id)
        state = await self.manager.state_of(game_id)
        if len(self._games) > MAX_IDLE_GAMES:  # games read without a page open: their caches go first
            self._games = {k: g for k, g in self._games.items() if g.pages or g.task is not None}
        game = self._games.setdefault(game_id, _Game())
        if game.count < 0 and state is not None:
            game.count = len(state.history)
            game.events = await self.manager.recent_events(game_id, LOG_LINES)
        board = await self._board(game, info, state, reader.locale)
        return self._view(game, info, reader, state, board), _shown(info)

    async def drawing(self, game_id: str, locale: str) -> Drawing | None:
        """The board's base drawing for readers of `locale` (None: the game has not started; Refused
        propagates)."""
        info = await self.manager.game_info(game_id)
        state = await self.manager.state_of(game_id)
        return None if state is None else await self._base(info, locale)

    async def _base(self, info: GameInfo, locale: str) -> Drawing:
        """The base drawing of the game's board for `locale`, drawn once per board, language and colour-blind
        setting (CPU work, done off the event loop)."""
        key = (info.board, locale, info.settings.colorblind)
        drawing = self._bases.get(key)
        if drawing is None:
            board = load_board(info.board)
            svg = await asyncio.to_thread(board_base, board, info.settings.colorblind, locale)
            drawing = Drawing(svg, hashlib.blake2b(svg.encode(), digest_size=8).hexdigest())
            while len(self._bases) >= MAX_BASES:
                del self._bases[next(iter(self._bases))]
            self._bases[key] = drawing
        return drawing

    async def _board(
        self, game: _Game, info: GameInfo, state: GameState | None, locale: str
    ) -> tuple[Drawing, dict[str, str]] | None:
        """The base drawing and the game's pieces over it for `locale` at this version, the pieces drawn once."""
        if state is None:
            return None
        base = await self._base(info, locale)
        key = (locale, len(state.history), info.settings.colorblind)
        pieces = game.pieces.get(key)
        if pieces is None:
            pieces = await asyncio.to_thread(board_pieces, info, state, locale)
            game.pieces = {k: v for k, v in game.pieces.items() if k[1:] == key[1:]}
            game.pieces[key] = pieces
        return base, pieces

    def _view(
        self,
        game: _Game,
        info: GameInfo,
        reader: Reader,
        state: GameState | None,
        board: tuple[Drawing, dict[str, str]] | None,
    ) -> View:
        url = "" if board is None else drawing_url(info.game_id, reader.locale, board[0].tag)
        pieces = None if board is None else board[1]
        log = self._log(game, info, reader.locale)
        return game_view(info, state, reader, drawing=url, log=log, pieces=pieces)

    @staticmethod
    def _log(game: _Game, info: GameInfo, locale: str) -> list[LogLine]:
        """The log's lines in `locale`, worded once for each set of latest events and seat names (each push and
        each read would word the same dozen lines again for every page)."""
        events = tuple(game.events[-LOG_LINES:])
        seats = (info.board, tuple((s.name, s.user_id, s.ai_level, s.ai_number) for s in info.seats))
        cached = game.log.get(locale)
        if (
            cached is not None
            and cached[1] == seats
            and len(cached[0]) == len(events)
            and all(a is b for a, b in zip(cached[0], events, strict=True))
        ):
            return list(cached[2])
        lines = log_lines(events, info, locale)
        game.log[locale] = (events, seats, lines)
        return list(lines)

    # ------------------------------------------------------------------ changes

    def refresh(self) -> None:
        """Read every watched game again (after the change announcements could have been missed)."""
        for game_id, game in list(self._games.items()):
            self.changed(game_id, game.pushed + 1)

    def changed(self, game_id: str, version: int, events: tuple[GameEvent, ...] = ()) -> None:
        """A new version of a game is held or was announced, with the public events of the move that made it
        (none when another process made it): push it to its pages (soon, once)."""
        game = self._games.get(game_id)
        if game is None:
            return
        if events and game.pages:  # (a game read without a page open keeps none: nothing to push them to)
            game.heard = [*game.heard, *events][-MAX_HEARD:]
        game.version = max(game.version, version)
        if not game.pages or version <= game.pushed:
            return
        if game.task is None:
            game.task = asyncio.get_running_loop().create_task(self._push_loop(game_id, game))

    async def _push_loop(self, game_id: str, game: _Game) -> None:
        try:
            while game.version > game.pushed and game.pages:
                target = game.version
                try:
                    await self._push(game_id, game)
                except Refused as exc:
                    log.warning("game %s: live push skipped (%s)", game_id, type(exc).__name__)
                game.pushed = max(game.pushed, target)
        except Exception:
            log.exception("game %s: live push failed", game_id)
        finally:
            game.task = None
            if not game.pages:
                self._games.pop(game_id, None)

    async def _push(self, game_id: str, game: _Game) -> None:
        info = await self.manager.game_info(game_id)
        state = await self.manager.state_of(game_id)
        shown = _shown(info)
        if shown == game.shown:  # a new version that changes nothing a page shows (the chat's own notes)
            return
        game.shown = shown
        move = await self._moves(game_id, game, state)
        frames: dict[tuple[int | None, str], dict[str, str]] = {}
        now = time.time()
        for page in list(game.pages):
            if page.expires <= now:
                game.pages.discard(page)
                if page.outbox is not None:
                    page.outbox.stop()
                if self._expired is not None:  # told in the background, within the send time-out
                    told = asyncio.create_task(_within(self._expired(page), self.send_timeout))
                    self._closing.add(told)
                    told.add_done_callback(self._closing.discard)
                continue
            seat = seat_of(info, page.reader.user_id)
            key = (seat, page.reader.locale)
            frame = frames.get(key)
            if frame is None:
                board = await self._board(game, info, state, page.reader.locale)
                view = self._view(game, info, page.reader, state, board)
                view["move"] = None if move is None else _move_frame(move, info, page.reader.locale)
                frame = frames[key] = view_parts(view)
            if page.outbox is not None:
                page.outbox.put(frame)  # never waits: each page's own sender sends it

    async def _moves(
        self, game_id: str, game: _Game, state: GameState | None
    ) -> tuple[LastMove, list[GameEvent]] | None:
        """The new actions since the last push, as their public events, and what they took on the board."""
        before = game.count
        game.count = -1 if state is None else len(state.history)
        if state is None or before < 0 or game.count <= before:
            game.heard = [e for e in game.heard if e.seq > game.count]
            return None
        first, last = before + 1, game.count
        events = [e for e in game.heard if first <= e.seq <= last]
        game.heard = [e for e in game.heard if e.seq > last]
        if {e.seq for e in events} != set(range(first, last + 1)):  # made by another process: not heard
            events = [e for e in await self.manager.public_events_since(game_id, first) if e.seq <= last]
        game.events = [*game.events, *events][-LOG_LINES:]
        routes, cities = moves_since(state, first)
        seat = state.history[-1][0]
        return LastMove(seat=seat, routes=routes, cities=cities), events


async def _within(told: Awaitable[None], seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(told, seconds)


def _shown(info: GameInfo) -> tuple[Any, ...]:
    """What of a game its pages show, to compare: its moves, status, seats and settings."""
    return (info.action_count, info.status, repr(info.seats), repr(info.settings))


def _move_frame(move: tuple[LastMove, list[GameEvent]], info: GameInfo, locale: str) -> Move:
    last, events = move
    lines = log_lines(events, info, locale)
    return {
        "line": one_line([x["line"] for x in lines if x["line"]], locale),
        "lines": lines,
        "seat": last.seat,
        "routes": list(last.routes),
        "cities": list(last.cities),
    }
