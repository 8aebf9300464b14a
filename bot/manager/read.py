"""What the manager lets callers read: public game summaries (:class:`GameInfo`), the result of a change
(:class:`Outcome`), and the queries of :class:`GameReads` (games, views, records, listings, statistics), so the
presentation never reaches storage itself. Nothing here changes a game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.manager.events import GameEvent, PrivateEvent, final_sheets, public_events, turn_token
from bot.manager.game_settings import GameSettings
from bot.manager.moves import Collector
from bot.manager.outage import Outage
from bot.manager.refusals import Refused
from bot.manager.store import GameStore, LiveGame
from bot.storage import (
    OPEN_STATUSES,
    GameRepository,
    GameStatus,
    GameSummary,
    LeaderboardRow,
    PlayerStats,
    SeatResult,
)
from bot.storage.people import GuildRecords, PlayerHistory, SeatStats
from engine import views
from engine.actions import Action
from engine.record import iter_replay, make_record
from engine.rules import legal_actions, to_act
from engine.scoring import FinalSheet
from engine.state import GameState

__all__ = ["GameInfo", "GameReads", "Outcome", "SeatInfo", "game_info_of", "outcome_of"]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    user_id: int | None
    ai_level: str | None  # None: a person plays it; set on an AI seat or a seat handed to the AI
    score: int | None = None
    trains: int | None = None
    cards: int | None = None
    tickets: int | None = None
    to_act: bool = False
    next_timer: datetime | None = None  # next reminder / absent-policy moment while this seat must act
    ai_number: int | None = None  # an AI seat the manager seated: its number (`Seat.ai_number`)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A public summary of one game: lobby or play, no secret."""

    game_id: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    board: str
    variant: str
    options: tuple[str, ...]
    status: GameStatus
    settings: GameSettings
    seats: tuple[SeatInfo, ...]
    phase: str | None = None
    turn: int | None = None
    current: int | None = None
    to_act: tuple[int, ...] = ()
    tokens: Mapping[int, str] = field(default_factory=dict)
    last_round_left: int | None = None
    action_count: int = 0
    final: tuple[FinalSheet, ...] = ()  # score sheets once finished, in seat order


@dataclass(frozen=True, slots=True)
class Outcome:
    """Everything a caller needs after a change (an action and the automatic moves that followed it, a lobby
    or seat change, a timer), so it reads the game no more:

    * `info`: the game's :class:`GameInfo` after the change (status, whose turn, turn tokens, scores, seats);
    * `state`: the engine state after the change (None in a lobby). Shared with the manager's cache: read it,
      never change it;
    * `events` / `private`: what happened, public and per seat, in order;
    * `results`: the stored results when the game finished; `seqs`: the log positions of every action covered.

    ``game_id``, ``status``, ``to_act``, ``tokens`` and ``finished`` read `info`."""

    info: GameInfo
    state: GameState | None
    events: tuple[GameEvent, ...] = ()
    private: tuple[PrivateEvent, ...] = ()
    results: tuple[SeatResult, ...] = ()
    seqs: tuple[int, ...] = ()

    @property
    def game_id(self) -> str:
        return self.info.game_id

    @property
    def status(self) -> GameStatus:
        return self.info.status

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now."""
        return self.info.to_act

    @property
    def tokens(self) -> Mapping[int, str]:
        """Seat -> turn token of its next action."""
        return self.info.tokens

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    def private_for(self, seat: int) -> tuple[PrivateEvent, ...]:
        return tuple(e for e in self.private if e.seat == seat)


def game_info_of(game: LiveGame) -> GameInfo:
    """The public summary of a held game."""
    state = game.state
    acting = tuple(to_act(state)) if state is not None and game.status == GameStatus.ACTIVE else ()
    next_due = game.reminder_due()
    seats = []
    for i, s in enumerate(game.seats):
        level = None if s.ai_level is None else str(s.ai_level)
        if state is not None and i < state.num_players:
            p = state.players[i]
            seats.append(
                SeatInfo(
                    i,
                    s.name,
                    s.user_id,
                    level,
                    p.score,
                    p.trains,
                    sum(p.hand),
                    len(p.tickets),
                    i in acting,
                    next_due.get(i),
                    s.ai_number,
                )
            )
        else:
            seats.append(SeatInfo(i, s.name, s.user_id, level, ai_number=s.ai_number))
    final = final_sheets(state) if state is not None else ()
    return GameInfo(
        game.id,
        game.guild_id,
        game.channel_id,
        game.thread_id,
        game.host_id,
        game.board,
        game.variant,
        game.engine_options,
        game.status,
        game.settings,
        tuple(seats),
        phase=None if state is None else state.phase,
        turn=None if state is None else state.turn,
        current=None if state is None else state.current,
        to_act=acting,
        tokens={s: turn_token(state, s) for s in acting} if state is not None else {},
        last_round_left=None if state is None else state.last_round_left,
        action_count=game.action_count,
        final=final,
    )


def outcome_of(game: LiveGame, out: Collector) -> Outcome:
    """The result of a change: the game as it is now and what `out` collected."""
    return Outcome(
        game_info_of(game),
        game.state,
        tuple(out.events),
        tuple(out.private),
        out.results,
        tuple(out.seqs),
    )


class GameReads:
    """The read-only queries of :class:`bot.manager.GameManager` (a base class of it)."""

    _store: GameStore

    @property
    def repository(self) -> GameRepository:
        """The storage behind the manager, for tools and tests; the presentation uses the queries below."""
        return self._store.repo

    @property
    def outage(self) -> Outage:
        """The database's outages as this process saw them (the host's one line per outage): the chat and the
        live map refuse through the manager, so they share it."""
        return self._store.outage

    @property
    def open_game_ids(self) -> frozenset[str]:
        """Ids of the lobby/active games (known since start, kept up to date by this manager)."""
        return frozenset(self._store.open_ids)

    async def game_info(self, game_id: str) -> GameInfo:
        return game_info_of(await self._store.get(game_id))

    async def status(self, game_id: str) -> GameInfo:
        """The same as :meth:`game_info`."""
        return await self.game_info(game_id)

    async def state_of(self, game_id: str) -> GameState | None:
        """The game's current engine state (None in the lobby), for reading only: the manager replaces the
        cached state after each accepted move and never changes it in place, so callers must not either."""
        return (await self._store.get(game_id)).state

    async def note(self, game_id: str, key: str) -> Any:
        """What the presentation stored under its own `key` with :meth:`~bot.manager.GameManager.swap_note`
        (None: nothing), read only."""
        return (await self._store.get(game_id)).raw_settings.get(key)

    async def waiting_since(self, game_id: str) -> datetime:
        """When the current wait began (the game's last change)."""
        return (await self._store.get(game_id)).last_move_at

    async def find_open_game(
        self, *, channel_id: int | None = None, thread_id: int | None = None
    ) -> GameInfo | None:
        repo = self._store.repo
        rec = await self._store.storage(
            lambda: repo.find_open_game(channel_id=channel_id, thread_id=thread_id)
        )
        return None if rec is None else await self.game_info(rec.id)

    async def games_of(self, user_id: int, *, open_only: bool = True) -> list[str]:
        """Ids of `user_id`'s games (open ones only, by default)."""
        return [r.id for r in await self.player_games(user_id, open_only=open_only)]

    async def player_games(
        self, user_id: int, *, open_only: bool = True, guild_id: int | None = None
    ) -> list[GameSummary]:
        """`user_id`'s games, newest first (open ones only, by default; of one server when `guild_id`)."""
        repo = self._store.repo
        status = OPEN_STATUSES if open_only else None
        return await self._store.storage(
            lambda: repo.games_for_player(user_id, status=status, guild_id=guild_id)
        )

    async def open_games(
        self, *, guild_id: int | None = None, channel_id: int | None = None, limit: int = 25
    ) -> list[GameSummary]:
        """The lobby/active games of a server (or of one channel), at most `limit`."""
        repo = self._store.repo
        page = await self._store.storage(
            lambda: repo.list_games(
                status=OPEN_STATUSES, guild_id=guild_id, channel_id=channel_id, limit=limit
            )
        )
        return page.items

    async def my_games(self, user_id: int, limit: int = 25) -> list[tuple[GameInfo, datetime]]:
        """Every open game `user_id` sits in, in every server, newest first: each game's public summary (whose
        turn it is) and when its current wait began."""
        repo = self._store.repo
        found = await self._store.storage(
            lambda: repo.games_for_player(user_id, status=OPEN_STATUSES, limit=limit)
        )
        games = [await self._store.get(r.id) for r in found]
        return [(game_info_of(g), g.last_move_at) for g in games]

    async def player_history(self, user_id: int, guild_id: int | None) -> PlayerHistory:
        """`user_id`'s statistics over time (in one server, or everywhere), from the stored statistics rows."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.player_history(user_id, guild_id))

    async def guild_records(self, guild_id: int) -> GuildRecords:
        repo = self._store.repo
        return await self._store.storage(lambda: repo.guild_records(guild_id))

    async def export_stats(
        self, guild_id: int, after: tuple[datetime, str] | None = None, limit: int = 500
    ) -> Sequence[SeatStats]:
        """One page of the server's finished games' statistics rows (whole games, oldest first)."""
        repo = self._store.repo
        return await self._store.storage(lambda: repo.export_stats(guild_id, after=after, limit=limit))

    async def export_all(self, guild_id: int) -> list[SeatStats]:
        """Every statistics row of the server's finished games, oldest game first (page after page)."""
        rows: list[SeatStats] = []
        after: tuple[datetime, str] | None = None
        while page := await self.export_stats(guild_id, after):
            rows.extend(page)
            after = (page[-1].finished_at, page[-1].game_id)
        return rows

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        repo = self._store.repo
        return await self._store.storage(lambda: repo.player_stats(guild_id, user_id))

    async def leaderboard(
        self, guild_id: int | None, board: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        repo = self._store.repo
        return await self._store.storage(lambda: repo.leaderboard(guild_id, board, limit))

    async def seat_of(self, game_id: str, user_id: int) -> int | None:
        return (await self._store.get(game_id)).seat_of(user_id)

    async def turn_token(self, game_id: str, user_id: int | None = None) -> str | None:
        game = await self._store.get(game_id)
        if game.state is None:
            return None
        seat = game.seat_of(user_id) if user_id is not None else None
        return turn_token(game.state, seat)

    async def legal_actions(self, game_id: str, user_id: int) -> list[Action]:
        """What `user_id` may play now (empty when it is not their turn or the AI plays their seat)."""
        game = await self._store.get(game_id)
        seat = game.seat_of(user_id)
        if game.state is None or seat is None or game.status != GameStatus.ACTIVE:
            return []
        if game.seats[seat].ai_level is not None:
            return []
        return legal_actions(game.state, seat)

    async def public_view(self, game_id: str) -> views.PublicView:
        game = await self._store.get(game_id)
        if game.state is None:
            raise Refused("not_started", game=game_id)
        return views.public_view(game.state)

    async def player_view(self, game_id: str, user_id: int) -> views.PlayerView:
        game = await self._store.get(game_id)
        if game.state is None:
            raise Refused("not_started", game=game_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refused("not_seated")
        return views.player_view(game.state, seat)

    async def export_record(self, game_id: str) -> dict[str, Any]:
        """The game as a record that ``engine.record.replay`` (``ttr replay FILE``) plays back exactly: the
        setup from the snapshot, the actions from the stored log."""
        game = await self._store.get(game_id)
        if game.state is None:
            raise Refused("not_started", game=game_id)
        repo = self._store.repo
        rows = await self._store.storage(lambda: repo.load_actions(game_id))
        return make_record(game.state, actions=[(r.seat, r.action) for r in rows])

    async def recent_events(self, game_id: str, limit: int = 10) -> list[GameEvent]:
        """The public events of the last `limit` actions, rebuilt by replaying the stored log (in a worker
        thread: a whole game replays in well under a second)."""
        game = await self._store.get(game_id)
        if game.state is None:
            return []
        record = await self.export_record(game_id)
        return await asyncio.to_thread(_replay_events, game_id, record, limit)

    async def public_events_since(self, game_id: str, first_seq: int) -> list[GameEvent]:
        """The public events of the actions from log position `first_seq` on (what a player coming back
        missed), rebuilt from the stored log: the same after a restart and in any process."""
        game = await self._store.get(game_id)
        if game.state is None or first_seq > len(game.state.history):
            return []
        record = await self.export_record(game_id)
        first = max(1, first_seq)
        return await asyncio.to_thread(_replay_events, game_id, record, len(record["actions"]) - first + 1)


def _replay_events(game_id: str, record: dict[str, Any], limit: int) -> list[GameEvent]:
    first = max(0, len(record["actions"]) - limit)
    events: list[GameEvent] = []
    for i, seat, action, state in iter_replay(record):
        if i > first:
            sheets = final_sheets(state) if state.finished else None
            events.extend(public_events(game_id, i, state, seat, action, "player", sheets))
    return events
