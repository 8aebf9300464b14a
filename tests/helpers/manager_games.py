"""Shared helpers of the manager tests: a recording notifier, a random AI, game set-up and random play."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.manager import GameManager, Outcome, Refused, random_action
from engine.actions import Action
from engine.state import GameState


async def random_ai(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
    """Tests never depend on engine.ai: AI seats play uniformly random legal actions."""
    return random_action(state, seat, rng)


@dataclass
class RecordingNotifier:
    turns: list[tuple[str, Outcome]] = field(default_factory=list)
    reminders: list[tuple[str, int, int, int]] = field(default_factory=list)
    absent: list[tuple[str, int, int | None, str]] = field(default_factory=list)
    expired: list[tuple[str, Outcome]] = field(default_factory=list)  # lobbies that expired
    #: when set, each turn message writes the "told_through" note, and each expiry notice the "expiry_told"
    #: one, as the play service's do
    manager: GameManager | None = None

    async def on_turn(self, game_id: str, outcome: Outcome) -> None:
        self.turns.append((game_id, outcome))
        if self.manager is not None and outcome.state is not None:
            await self.manager.swap_note(game_id, "told_through", len(outcome.state.history))

    async def on_reminder(self, game_id: str, seat: int, user_id: int, n: int) -> None:
        self.reminders.append((game_id, seat, user_id, n))

    async def on_absent(self, game_id: str, seat: int, user_id: int | None, policy: str) -> None:
        self.absent.append((game_id, seat, user_id, policy))

    async def on_lobby_expired(self, game_id: str, outcome: Outcome) -> None:
        self.expired.append((game_id, outcome))
        if self.manager is not None:  # the note the bot writes once the notice is posted
            await self.manager.swap_note(game_id, "expiry_told", True)


HUMANS = [(101, "Ann"), (102, "Bob"), (103, "Cleo"), (104, "Dan"), (105, "Eve")]


async def started_game(
    manager: GameManager,
    *,
    humans: int = 2,
    ais: int = 0,
    board: str = "europe",
    seed: int = 7,
    channel: int | None = None,
    settings: dict[str, Any] | None = None,
    options: tuple[str, ...] = (),
) -> tuple[str, Outcome]:
    host_id, host_name = HUMANS[0]
    info = await manager.create_game(
        guild_id=1,
        channel_id=channel or random.randrange(1, 1 << 40),
        host_id=host_id,
        host_name=host_name,
        board=board,
        settings=settings,
        options=options,
    )
    for uid, name in HUMANS[1:humans]:
        await manager.join(info.game_id, uid, name)
    for _ in range(ais):
        await manager.add_ai(info.game_id, host_id, "easy")
    outcome = await manager.start_game(info.game_id, host_id, seed=seed)
    return info.game_id, outcome


async def play_random(
    manager: GameManager, game_id: str, rng: random.Random, moves: int | None = None
) -> int:
    """Human seats play random legal actions (with fresh turn tokens) until `moves` or the end."""
    done = 0
    while moves is None or done < moves:
        info = await manager.status(game_id)
        if info.status != "active" or not info.to_act:
            break
        humans = [s for s in info.to_act if info.seats[s].ai_level is None]
        if not humans:
            break
        seat = rng.choice(humans)
        uid = info.seats[seat].user_id
        assert uid is not None
        legal = await manager.legal_actions(game_id, uid)
        await manager.act(game_id, uid, rng.choice(legal), expected_turn=info.tokens[seat])
        done += 1
    return done


async def state_of(manager: GameManager, game_id: str) -> GameState:
    game = await manager._store.get(game_id)  # tests may look behind the API
    assert game.state is not None
    return game.state


__all__ = ["HUMANS", "RecordingNotifier", "Refused", "play_random", "random_ai", "started_game", "state_of"]
