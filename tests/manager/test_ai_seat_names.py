"""The manager stores an AI seat's number and level, no English words: "🤖1" (the presentation names it, "IA 1
(difficile)"), and a new AI seat takes the first free number, so two seats never share a name."""

from __future__ import annotations

from bot.manager import GameManager


async def test_ai_seats_are_stored_by_number_and_level(manager: GameManager) -> None:
    info = await manager.create_game(guild_id=1, channel_id=50, host_id=11, host_name="Ann", board="europe")
    gid = info.game_id
    for level in ("easy", "hard", "normal"):
        info = await manager.add_ai(gid, 11, level)
    assert [(s.name, s.ai_level) for s in info.seats[1:]] == [
        ("🤖1", "easy"),
        ("🤖2", "hard"),
        ("🤖3", "normal"),
    ]
    info = await manager.remove_seat(gid, 11, 1)  # the first AI goes: the next one takes its number
    info = await manager.add_ai(gid, 11, "hard")
    assert [s.name for s in info.seats[1:]] == ["🤖2", "🤖3", "🤖1"]
    outcome = await manager.start_game(gid, 11, seed=1)
    assert outcome.state is not None
    assert [p.name for p in outcome.state.players] == ["Ann", "🤖2", "🤖3", "🤖1"]
