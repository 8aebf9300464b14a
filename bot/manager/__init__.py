"""The async game manager: between the Discord adapter and the engine (no discord imports here).

    async with GameManager(repo, notifier=..., clock=...) as manager:
        info = await manager.create_game(guild_id=..., channel_id=..., host_id=..., host_name="Ann")
        ...
        outcome = await manager.act(game_id, user_id, DrawBlind(), expected_turn=token)

See :mod:`bot.manager.manager` for the guarantees, :mod:`bot.manager.events` for events and turn tokens,
:mod:`bot.manager.settings` for the settings of asynchronous play.
"""

from bot.manager.ai import choose_ai_action, minimal_action, random_action
from bot.manager.clock import Clock, ManualClock, SystemClock
from bot.manager.events import GameEvent, Outcome, PrivateEvent, turn_token
from bot.manager.manager import GameInfo, GameManager, Notifier, NullNotifier, Refused, SeatInfo
from bot.manager.settings import ABSENT_POLICIES, AI_LEVELS, GameSettings, SettingError

__all__ = [
    "ABSENT_POLICIES",
    "AI_LEVELS",
    "Clock",
    "GameEvent",
    "GameInfo",
    "GameManager",
    "GameSettings",
    "ManualClock",
    "Notifier",
    "NullNotifier",
    "Outcome",
    "PrivateEvent",
    "Refused",
    "SeatInfo",
    "SettingError",
    "SystemClock",
    "choose_ai_action",
    "minimal_action",
    "random_action",
    "turn_token",
]
