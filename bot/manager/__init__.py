"""The async game manager: between the bot layer and the engine (no discord imports here).

    async with GameManager(repo, notifier=..., clock=...) as manager:
        info = await manager.create_game(guild_id=..., channel_id=..., host_id=..., host_name="Ann")
        ...
        outcome = await manager.act(game_id, user_id, DrawBlind(), expected_turn=token)
        outcome.info, outcome.state, outcome.events   # everything needed to show the move

Modules, one concern each: :mod:`~bot.manager.games` (GameManager: lifecycle, lobby, act),
:mod:`~bot.manager.store` (cache, locks, storage retries), :mod:`~bot.manager.moves` (apply/persist/adopt, AI
and absent-player moves), :mod:`~bot.manager.seats` (who plays a seat), :mod:`~bot.manager.timers` (durable
timers and the dispatcher), :mod:`~bot.manager.read` (GameInfo, Outcome, queries),
:mod:`~bot.manager.players` (ratings and player preferences), :mod:`~bot.manager.refusals`
(Refused), :mod:`~bot.manager.door` (only Refused leaves the manager: storage faults become refusals),
:mod:`~bot.manager.events` (events, as facts, and turn tokens), :mod:`~bot.manager.game_settings` (settings of
asynchronous play), :mod:`~bot.manager.ai`, :mod:`~bot.manager.clock`. The queries' read types (GameStatus,
GameSummary, PlayerStats, Rating...) are exported here: the presentation imports the manager, never bot.storage.
"""

from bot.manager.ai import choose_ai_action, minimal_action, random_action
from bot.manager.clock import Clock, ManualClock, SystemClock
from bot.manager.events import GameEvent, PrivateEvent, turn_token
from bot.manager.game_settings import ABSENT_POLICIES, AI_LEVELS, GameSettings, SettingError
from bot.manager.games import GameManager
from bot.manager.player_time import time_zones
from bot.manager.players import PlayerPrefs
from bot.manager.read import GameInfo, Outcome, SeatInfo
from bot.manager.refusals import Illegal, Refused
from bot.manager.timer_rows import PingKind
from bot.manager.timers import Notifier, NullNotifier, TurnTimers

# the read types of the queries, so that the presentation knows the manager alone (never bot.storage)
from bot.storage import ChangeFeed, GameStatus, GameSummary, LeaderboardRow, PlayerStats, PlayerTime, Rating
from bot.storage.people import GuildRecords, PlayerHistory, RouteCount, SeatStats

__all__ = [
    "ABSENT_POLICIES",
    "AI_LEVELS",
    "ChangeFeed",
    "Clock",
    "GameEvent",
    "GameInfo",
    "GameManager",
    "GameSettings",
    "GameStatus",
    "GameSummary",
    "GuildRecords",
    "Illegal",
    "LeaderboardRow",
    "ManualClock",
    "Notifier",
    "NullNotifier",
    "Outcome",
    "PlayerHistory",
    "PlayerPrefs",
    "PlayerStats",
    "PingKind",
    "PlayerTime",
    "Rating",
    "PrivateEvent",
    "Refused",
    "RouteCount",
    "SeatStats",
    "SeatInfo",
    "SettingError",
    "SystemClock",
    "TurnTimers",
    "choose_ai_action",
    "minimal_action",
    "random_action",
    "time_zones",
    "turn_token",
]
