"""The start-up sweep gives running games the rows they lack, beside processes that keep moving those games: a
game another process changes between the sweep's read and its write is read again, never a failed start."""

from __future__ import annotations

from typing import Any

from helpers.manager_games import HUMANS, RecordingNotifier, random_ai

from bot.manager import GameManager, ManualClock
from bot.manager.timer_rows import TimerKind
from bot.storage import GameRepository, GameStatus

ANN, BOB = HUMANS[0][0], HUMANS[1][0]


class _RaceOnFirstTimerWrite:
    """The repository as the starting process sees it: just before its first timer write, another process
    (`other`) changes the game, so the copy the sweep read is one version behind."""

    def __init__(self, repo: GameRepository, other: GameManager) -> None:
        self._repo = repo
        self._other = other
        self.raced = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._repo, name)

    async def change_timers(self, game_id: str, *args: Any, **kwargs: Any) -> Any:
        if not self.raced:
            self.raced += 1
            await self._other.join(game_id, BOB, "Bob")
        return await self._repo.change_timers(game_id, *args, **kwargs)


async def test_a_game_moved_by_another_process_during_the_sweep_is_read_again_not_a_failed_start(
    repo: GameRepository, clock: ManualClock, notifier: RecordingNotifier
) -> None:
    kw: dict[str, Any] = {"clock": clock, "notifier": notifier, "ai": random_ai}
    other = GameManager(repo, lobby_expire_hours=0, **kw)  # writes no lobby row: the sweep has one to give
    info = await other.create_game(guild_id=1, channel_id=7, host_id=ANN, host_name="Ann", board="usa")
    assert await repo.timers_for_game(info.game_id) == []
    racing = _RaceOnFirstTimerWrite(repo, other)
    starting = GameManager(racing, lobby_expire_hours=12, **kw)  # type: ignore[arg-type]
    await starting.start(dispatcher=False)  # lost the race once: read again, wrote from the newer copy
    assert racing.raced == 1
    stored = await repo.load_game(info.game_id)
    assert stored.status == GameStatus.LOBBY and [s.user_id for s in stored.seats] == [ANN, BOB]
    assert [t.kind for t in await repo.timers_for_game(info.game_id)] == [TimerKind.LOBBY]
    for m in (other, starting):
        await m.close()
