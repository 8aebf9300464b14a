"""`GameManager`: every game's lifecycle between the bot layer and the engine (no discord imports here).

It is put together from parts, each in its own module:

* :mod:`bot.manager.store`: the games held in memory (LRU cache), one lock per game, storage calls with retries;
* :mod:`bot.manager.moves`: the one place an action reaches the engine (apply on a copy, persist, adopt), and
  the moves nobody clicked (AI seats, the absent-player policy);
* :mod:`bot.manager.timers`: durable timers and the one dispatcher that serves them, telling the bot layer
  through a :class:`~bot.manager.timers.Notifier`;
* :mod:`bot.manager.seats` (:class:`SeatCommands`) and :mod:`bot.manager.read` (:class:`GameReads`): the seat
  commands and the read-only queries, base classes of the manager;
* :mod:`bot.manager.lobbies`: a lobby nobody starts expires (a timer row served by the dispatcher);
* this module: starting and stopping, the lobby (create, join, add an AI, leave, settings, start, abandon) and
  :meth:`GameManager.act`.

Guarantees
----------
* Every change of a game runs under that game's lock, in one order, and is stored before the cache follows (see
  :mod:`bot.manager.store`): nothing is ever half-applied.
* The game that ends is written FINISHED with its results in the same transaction as its last action.
* Every change returns an :class:`~bot.manager.read.Outcome` holding the new game info, the new state and the
  events, so the caller reads the game no more; a request turned down raises
  :class:`~bot.manager.refusals.Refused` (a catalogue code) and changed nothing.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.manager import lobbies, retries
from bot.manager.ai import AIChooser
from bot.manager.clock import Clock, SystemClock
from bot.manager.cluster import Heartbeat, Member
from bot.manager.digests import DailyDigests
from bot.manager.door import only_refusals
from bot.manager.events import (
    Abandoned,
    GameEvent,
    LeftLobby,
    Started,
    private_events,
    turn_token,
    turn_token_at,
)
from bot.manager.game_settings import AI_LEVELS, GameSettings, SettingError
from bot.manager.moves import Collector, Moves
from bot.manager.player_time import PlayerTimes
from bot.manager.players import PlayerQueries
from bot.manager.read import GameInfo, GameReads, Outcome, game_info_of, outcome_of
from bot.manager.refusals import Refused
from bot.manager.seats import SeatCommands
from bot.manager.servers import ServerSettings
from bot.manager.store import GameStore, LiveGame
from bot.manager.timers import Notifier, NullNotifier, TurnTimers
from bot.storage import ChangeFeed, GameRecord, GameRepository, GameStatus, PlaceTaken, Seat
from bot.storage.seat_marks import AI_SEAT_MARK, ai_seat_name
from engine.actions import Action, action_from_json
from engine.errors import GameDataError, IllegalAction
from engine.rules import new_game
from maps import BoardDataError, load_board

__all__ = ["AI_SEAT_MARK", "GameManager", "ai_seat_name"]

log = logging.getLogger(__name__)

#: Told of each new copy of a game this process holds: (game id, version, the public events of the move).
Listener = Callable[[str, int, tuple[GameEvent, ...]], None]


@only_refusals
class GameManager(SeatCommands, GameReads, PlayerQueries, PlayerTimes, DailyDigests, ServerSettings):
    """Owns every game's lifecycle between the bot layer and the engine. See the module docstring.

    ``repo`` is a connected :class:`~bot.storage.GameRepository` (the manager does not close it unless
    ``owns_repo``). ``ai`` picks AI moves (default: engine.ai in a worker thread). ``notifier`` hears about
    what timers did; ``clock`` tells the time (a ManualClock in tests); ``max_sleep`` bounds how long the timer
    dispatcher sleeps before it looks at storage again (timers written by another process);
    ``lobby_expire_hours``: a lobby nobody starts is abandoned this long after its last change (0: never; see
    :mod:`bot.manager.lobbies`).
    """

    def __init__(
        self,
        repo: GameRepository,
        *,
        notifier: Notifier | None = None,
        clock: Clock | None = None,
        cache_size: int = 256,
        retry_delays: Sequence[float] = (0.05, 0.1, 0.2, 0.4, 0.8),
        ai: AIChooser | None = None,
        ai_budget_ms: int | None = None,
        owns_repo: bool = False,
        max_sleep: float = 300.0,
        member: Member | None = None,
        lobby_expire_hours: float = 24.0,
    ) -> None:
        self.clock: Clock = clock or SystemClock()
        self._store = GameStore(repo, self.clock, cache_size=cache_size, retry_delays=retry_delays)
        self._store.lobby_expiry = lobbies.expiry_of(lobby_expire_hours)
        self._moves = Moves(self._store, self.clock, ai=ai, ai_budget_ms=ai_budget_ms)
        self._timers = TurnTimers(
            self._store,
            self._moves,
            self.clock,
            notifier or NullNotifier(),
            max_sleep=max_sleep,
            member=member,
        )
        self._heartbeat: Heartbeat | None = None
        self._owns_repo = owns_repo
        self._listeners: list[Listener] = []
        self._store.on_changed = self._changed

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(game_id, version, events)`` whenever this process holds a new copy of a game (a change
        made here, or a newer stored version read); `events` are the public events of the move that made that
        version (empty for any other change). It must only take note (no I/O): it runs under the game's lock.
        Returns the call that stops listening."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, game_id: str, version: int, events: tuple[GameEvent, ...]) -> None:
        for listener in tuple(self._listeners):
            try:
                listener(game_id, version, events)
            except Exception:  # a listener's bug never stops a move
                log.exception("change listener failed for game %s", game_id)

    async def follow_other_processes(
        self, on_change: Callable[[str, int], None], *, on_reconnect: Callable[[], None]
    ) -> ChangeFeed | None:
        """Hear the changes other processes make (PostgreSQL; None where no other process writes: SQLite):
        ``on_change(game_id, version)`` for each, ``on_reconnect`` after a gap; started, close it when done. A
        database that goes away is the host's one line per outage, as for every other storage call."""
        outage = self._store.outage
        feed = self._store.repo.changes_elsewhere(
            on_change, on_reconnect=on_reconnect, on_lost=outage.failed, on_back=outage.recovered
        )
        if feed is not None:
            await feed.start()
        return feed

    def set_notifier(self, notifier: Notifier) -> None:
        """Who hears what the timers did: the service, which the composition root (bot.wiring) builds after
        the manager."""
        self._timers.notifier = notifier

    @property
    def timers(self) -> TurnTimers:
        """The timer rows and their dispatcher (``start()``, ``stop()``, ``settled()``, ``run_due()``)."""
        return self._timers

    # ------------------------------------------------------------------ start / stop

    async def start(self, *, dispatcher: bool = True, posts: bool = True) -> None:
        """Learn the ids of the open games, give every running game whose next step has no timer the rows it
        needs (:meth:`TurnTimers.sweep`) and, unless ``dispatcher=False``, start the timer dispatcher, which
        serves the timer rows stored before a restart as well. Without it, timers fire only when someone calls
        :meth:`run_due_timers`. ``posts=False``: this process posts no message at all (``ttr web``), so the
        messages its writes make owed are left at once to the bot processes (:meth:`TurnTimers.serve_none`)."""
        await self._store.learn_open_games()
        await self._timers.sweep()
        if dispatcher:
            self._timers.start()
        if not posts:
            self._timers.serve_none()

    async def join_cluster(self, *, shard_ids: str, shard_count: int | None, every: float = 10.0) -> None:
        """Write this process's heartbeat row (its shards) now and, on a database other processes may share,
        every ``every`` seconds until closed. Called again when the shards are known (Discord chose the
        count), it rewrites the row at once."""
        member = self._timers.member
        member.shard_ids, member.shard_count = shard_ids, shard_count
        if self._heartbeat is None:
            self._heartbeat = Heartbeat(
                self._store.repo, member, self.clock, every=every, outage=self._store.outage
            )
            await self._heartbeat.start(periodic=self._store.check_versions)
        else:
            await self._heartbeat.beat()

    async def finish_posts(self, timeout: float = 8.0) -> bool:
        """A clean stop begins: the owed messages in flight are finished (posted and recorded), none starts any
        more (left to the next process); see :meth:`bot.manager.leases.Leases.finish`."""
        return await self._timers.leases.finish(timeout)

    async def close(self) -> None:
        """Stop the dispatcher and the heartbeat (and close the repository when the manager owns it), once
        the owed messages in flight are finished (:meth:`finish_posts`): a deploy posts none of them twice."""
        await self.finish_posts()
        await self._timers.stop()
        heartbeat, self._heartbeat = self._heartbeat, None
        if heartbeat is not None:
            await heartbeat.stop()
        if self._owns_repo:
            await self._store.repo.close()

    async def __aenter__(self) -> GameManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def run_due_timers(self, limit: int = 100) -> int:
        """Serve every timer due by the clock now (what the dispatcher does); returns how many were handled."""
        return await self._timers.run_due(limit)

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        board: str = "europe",
        variant: str | None = None,
        options: Sequence[str] = (),
        settings: Mapping[str, Any] | None = None,
        thread_id: int | None = None,
        join: bool = True,
    ) -> GameInfo:
        """Open a lobby in this channel (or thread); the host takes the first seat unless ``join=False``."""
        try:
            b = load_board(board)
        except BoardDataError:
            raise Refused("bad_board", board=board) from None
        variant_id = variant or b.default_variant
        if variant_id not in b.variants:
            raise Refused("bad_variant", board=b.id, variant=variant_id, variants=", ".join(b.variants))
        for opt in options:
            if opt not in b.options:
                raise Refused("bad_option", board=b.id, option=opt, options=", ".join(b.options) or "-")
        game_settings = _settings(settings)
        store = self._store
        place = f"place:{thread_id}" if thread_id is not None else f"place:c{channel_id}"
        async with store.locks.hold(place):
            existing = await store.storage(
                lambda: store.repo.find_open_game(
                    channel_id=None if thread_id is not None else channel_id, thread_id=thread_id
                )
            )
            if existing is not None:
                raise Refused("channel_busy", game=existing.id)
            seats = [Seat(host_name, host_id)] if join else []
            first = lobbies.first_rows(self.clock.now(), store.lobby_expiry)  # stored with the lobby
            fields: dict[str, Any] = dict(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                board=b.id,
                variant=variant_id,
                options={o: True for o in options},
                settings=game_settings.to_json(),
                seats=seats,
                thread_id=thread_id,
                status=GameStatus.LOBBY,
            )
            since = self.clock.now()

            async def ours(
                conflict: Exception,
            ) -> GameRecord | None:  # its own lobby, its acknowledgement lost
                if not isinstance(conflict, PlaceTaken):
                    return None
                stored = await store.storage(lambda: store.repo.find_game(conflict.game_id))
                return stored if stored is not None and retries.created(stored, since, fields) else None

            try:  # the lock above covers this process; storage checks again for every process
                rec = await store.storage(
                    lambda: store.repo.create_game(only_if_place_free=True, **fields, timers=first or None),
                    doing=" while opening a game",
                    wrote=True,
                    landed=ours,
                )
            except PlaceTaken as exc:
                raise Refused("channel_busy", game=exc.game_id) from None
        return game_info_of(store.adopt(rec, first))

    async def join(self, game_id: str, user_id: int, name: str) -> GameInfo:
        async def body(game: LiveGame) -> GameInfo:
            game.require(GameStatus.LOBBY)
            if game.seat_of(user_id) is not None:
                raise Refused("already_seated")
            game.require_room()
            await self._store.update(game, seats=(*game.seats, Seat(name, user_id)))
            return game_info_of(game)

        return await self._store.locked(game_id, body)

    async def add_ai(
        self,
        game_id: str,
        user_id: int,
        level: str = "normal",
        name: str | None = None,
        *,
        moderator: bool = False,
    ) -> GameInfo:
        if level not in AI_LEVELS:
            raise Refused("bad_level", levels=", ".join(AI_LEVELS))

        async def body(game: LiveGame) -> GameInfo:
            game.require(GameStatus.LOBBY)
            game.require_host(user_id, moderator)
            game.require_room()
            taken = {s.name for s in game.seats}
            n = next(k for k in range(1, len(game.seats) + 2) if ai_seat_name(k) not in taken)
            seat = Seat(name, None, level) if name else Seat(ai_seat_name(n), None, level, n)
            await self._store.update(game, seats=(*game.seats, seat))
            return game_info_of(game)

        return await self._store.locked(game_id, body)

    async def remove_seat(
        self, game_id: str, user_id: int, seat: int, *, moderator: bool = False
    ) -> GameInfo:
        """The host removes a seat from the lobby (an AI, or a player who joined)."""

        async def body(game: LiveGame) -> GameInfo:
            game.require(GameStatus.LOBBY)
            game.require_host(user_id, moderator)
            if not 0 <= seat < len(game.seats):
                raise Refused("no_seat", seat=seat + 1)
            if game.seats[seat].user_id == game.host_id:
                raise Refused("host_stays")
            await self._store.update(game, seats=game.seats[:seat] + game.seats[seat + 1 :])
            return game_info_of(game)

        return await self._store.locked(game_id, body)

    async def leave(self, game_id: str, user_id: int) -> Outcome:
        """Leave a lobby (a host leaving passes the lobby to the next person, or closes it when alone), or
        resign from a running game: the seat goes to an AI (level normal) for good, and the player gets no
        result. When no person is left at the table, the game is abandoned."""

        async def body(game: LiveGame) -> Outcome:
            game.require(GameStatus.LOBBY, GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            out = Collector(game.id)
            if game.status == GameStatus.ACTIVE:
                await self._seat_to_ai(game, seat, out, "resigned", "player")
                return outcome_of(game, out)
            name = game.seats[seat].name
            seats = game.seats[:seat] + game.seats[seat + 1 :]
            humans = [s for s in seats if s.user_id is not None]
            if user_id == game.host_id and not humans:
                await self._store.update(game, seats=seats, status=GameStatus.ABANDONED)
                closed = Abandoned("closed", name=name)
                out.events.append(GameEvent(game.id, 0, "abandoned", None, {}, "system", change=closed))
                return outcome_of(game, out)
            fields: dict[str, Any] = {"seats": seats}
            if user_id == game.host_id:
                fields["host_id"] = humans[0].user_id
            await self._store.update(game, **fields)
            out.events.append(GameEvent(game.id, 0, "left", None, {}, "player", change=LeftLobby(name)))
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    async def update_settings(
        self, game_id: str, user_id: int, changes: Mapping[str, Any], *, moderator: bool = False
    ) -> GameSettings:
        """The host changes settings (values may be typed text). Timers already running keep their times.

        `changes` is a mapping, never keyword arguments: a setting's name is typed by a person."""

        async def body(game: LiveGame) -> GameSettings:
            game.require(GameStatus.LOBBY, GameStatus.ACTIVE)
            game.require_host(user_id, moderator)
            try:
                new = game.settings.with_values(changes)
            except SettingError as exc:
                raise _setting_refused(exc) from None
            await self._store.update(game, settings={**game.raw_settings, **new.to_json()})
            return new

        return await self._store.locked(game_id, body)

    async def swap_note(self, game_id: str, key: str, value: Any) -> Any:
        """Store `value` under the presentation's own `key` in the game's settings JSON (not a setting: kept
        untouched by them) and return what was there (the id of the last turn message survives restarts)."""

        async def body(game: LiveGame) -> Any:
            before = game.raw_settings.get(key)
            if before != value:
                await self._store.update(game, settings={**game.raw_settings, key: value})
            return before

        return await self._store.locked(game_id, body)

    async def swap_notes(
        self, game_id: str, notes: Mapping[str, Any], *, rising: Sequence[str] = ()
    ) -> dict[str, Any]:
        """:meth:`swap_note` for several notes in one write; returns what each key held before. A key of
        `rising` is a log position that never goes back (a message built before another but posted after it
        leaves it as it is)."""

        async def body(game: LiveGame) -> dict[str, Any]:
            before = {key: game.raw_settings.get(key) for key in notes}
            new = {
                key: value
                for key, value in notes.items()
                if before[key] != value and not (key in rising and int(before[key] or 0) >= int(value))
            }
            if new:
                await self._store.update(game, settings={**game.raw_settings, **new})
            return before

        return await self._store.locked(game_id, body)

    async def may_tell(self, game_id: str, through: int) -> bool:
        """Whether this process may post the turn message owed by automatic moves up to log position
        `through` now (:meth:`bot.manager.leases.Leases.may_tell`)."""
        return await self._timers.leases.may_tell(game_id, through)

    async def note(self, game_id: str, key: str) -> Any:
        """The presentation's note `key` of the game (None when never written)."""
        return (await self._store.get(game_id)).raw_settings.get(key)

    async def start_game(
        self, game_id: str, user_id: int, *, seed: int | None = None, moderator: bool = False
    ) -> Outcome:
        """The host starts the game: cards dealt, every seat offered its tickets (chosen in any order)."""

        async def body(game: LiveGame) -> Outcome:
            game.require(GameStatus.LOBBY)
            game.require_host(user_id, moderator)
            board = load_board(game.board)
            lo, hi = board.rules.get("players", [2, 5])
            if not lo <= len(game.seats) <= hi:
                raise Refused("player_count", board=board.id, min=lo, max=hi, n=len(game.seats))
            try:
                state = new_game(
                    board,
                    [s.name for s in game.seats],
                    variant=game.variant,
                    options=game.engine_options,
                    seed=secrets.randbits(62) if seed is None else seed,
                )
            except (IllegalAction, BoardDataError) as exc:
                log.error("game %s cannot start: %s", game.id, exc)
                raise Refused("cannot_start", game=game.id) from None
            # the first timers are written with the new status (GameStore.update)
            game.last_move_at = self.clock.now()
            await self._store.update(game, status=GameStatus.ACTIVE, snapshot=state.to_dict())
            out = Collector(game.id)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "started",
                    None,
                    {"players": [s.name for s in game.seats], "first_player": state.first_player},
                    "host",
                    change=Started(board.id, len(game.seats), state.first_player),
                )
            )
            for seat, s in enumerate(game.seats):
                out.private.extend(private_events(game.id, 0, seat, s.user_id, state))  # the deal
            await self._timers.after_change(game, out)
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    async def abandon(self, game_id: str, user_id: int, *, moderator: bool = False) -> Outcome:
        """End a lobby or a running game now (host, or a server manager: the bot checks and passes
        ``moderator=True``). No results are recorded."""

        async def body(game: LiveGame) -> Outcome:
            game.require(GameStatus.LOBBY, GameStatus.ACTIVE)
            game.require_host(user_id, moderator)
            await self._store.update(game, status=GameStatus.ABANDONED)  # its timers go with it
            out = Collector(game.id)
            ended = Abandoned("host")
            out.events.append(
                GameEvent(game.id, 0, "abandoned", None, {"by_user": user_id}, "host", change=ended)
            )
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    # ------------------------------------------------------------------ play

    async def act(
        self,
        game_id: str,
        user_id: int,
        action: Action | Mapping[str, Any],
        *,
        expected_turn: str | None = None,
        expected_version: int | None = None,
        by: str = "player",
    ) -> Outcome:
        """Play `action` for `user_id`'s seat, then let AI seats play their turns. Refused (nothing changed)
        when the game is not running, the user has no seat or handed it to the AI, `expected_turn` is not the
        current turn token (:func:`bot.manager.events.turn_token`; code ``stale``) or `expected_version` (the
        game's number of actions its caller showed: a live page) is one whose turn has passed, the rules forbid
        it, or storage cannot save it. The :class:`Outcome` holds the new game info, the new state and every event,
        so the caller reads nothing more to show the result. `by` says where the move was made: ``player``
        (a command, whose caller tells the chat), or a place that cannot tell it (``page``: the live map served
        apart from the bot), whose move then owes the turn message as a ``tell`` row, posted by a bot process."""
        if not isinstance(action, Action):
            try:
                action = action_from_json(dict(action))
            except (GameDataError, TypeError):
                raise Refused("bad_action") from None
        parsed: Action = action

        async def body(game: LiveGame) -> Outcome:
            game.require(GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            if game.seats[seat].ai_level is not None:
                raise Refused("seat_ai")
            assert game.state is not None
            if expected_turn is not None and str(expected_turn) != turn_token(game.state, seat):
                raise Refused("stale")
            now = turn_token(game.state, seat)
            if expected_version is not None and turn_token_at(game.state, seat, expected_version) != now:
                raise Refused("stale")
            out = Collector(game.id)
            await self._moves.commit(game, seat, parsed, out, by)
            await self._timers.after_change(game, out)
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)


def _settings(raw: Mapping[str, Any] | None) -> GameSettings:
    try:
        return GameSettings.from_json(raw)
    except SettingError as exc:
        raise _setting_refused(exc) from None
    except TypeError:
        raise Refused("bad_settings") from None


def _setting_refused(exc: SettingError) -> Refused:
    if not exc.known:
        return Refused("no_setting", setting=exc.setting, settings=", ".join(GameSettings.names()))
    return Refused("bad_setting", setting=exc.setting, value=str(exc.value))
