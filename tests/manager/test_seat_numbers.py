"""An AI seat the manager seats says its number in the stored row; a person's seat says none, whatever its name,
so a person who joined as "🤖1" keeps that name even once they resign and an AI plays their seat."""

from __future__ import annotations

from bot.i18n import default_catalog
from bot.manager import GameManager
from bot.play.names import seat_name
from bot.storage import GameRepository

ROBOT, BOB = 11, 12


async def test_people_keep_their_names_and_the_ai_seat_its_number(
    manager: GameManager, repo: GameRepository
) -> None:
    info = await manager.create_game(guild_id=1, channel_id=5, host_id=ROBOT, host_name="🤖1", board="europe")
    gid = info.game_id
    await manager.join(gid, BOB, "Bob🤖2x")
    info = await manager.add_ai(gid, ROBOT, "hard")
    assert [(s.name, s.ai_number) for s in info.seats] == [("🤖1", None), ("Bob🤖2x", None), ("🤖2", 2)]
    await manager.start_game(gid, ROBOT, seed=3)
    await manager.leave(gid, ROBOT)  # resigned: an AI plays the seat for good, under its player's name
    info = await manager.game_info(gid)
    stored = await repo.load_game(gid)
    assert [s.ai_number for s in stored.seats] == [None, None, 2]  # read back as written
    catalog = default_catalog()
    shown = [catalog.render(seat_name(s), "fr") for s in info.seats]
    assert info.seats[0].ai_level == "normal" and info.seats[0].user_id is None
    assert shown == ["🤖1", "Bob🤖2x", "IA 2 (difficile)"]
