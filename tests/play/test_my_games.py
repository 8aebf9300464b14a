"""`/ttr games` for one member (bot.play.my_games): their games of every server, their turns first, with whose
turn it is, since when, the thread's link and the live map's personal link where the map runs."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import default_catalog
from bot.manager import GameInfo, GameSettings, GameStatus, SeatInfo
from bot.play.live_map import MapLinks
from bot.play.my_games import my_games_reply
from bot.play.reply import Reply

ANN, BOB = 11, 22


def info(
    game_id: str, guild: int, to_act: tuple[int, ...], status: GameStatus = GameStatus.ACTIVE
) -> GameInfo:
    seats = (
        SeatInfo(0, "ann", ANN, None, to_act=0 in to_act),
        SeatInfo(1, "bob", BOB, None, to_act=1 in to_act),
    )
    return GameInfo(game_id, guild, 100 + guild, 200 + guild, ANN, "usa", "standard", (), status, GameSettings(),
                    seats, to_act=to_act)  # fmt: skip


def shown(reply: Reply) -> str:
    catalog = default_catalog()
    return catalog.render(reply.embeds[0].description, "en") or ""


def test_the_members_turns_come_first_with_links_and_times() -> None:
    t1, t2 = datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 11, 2, tzinfo=UTC)
    links = MapLinks(
        link=lambda user, game, locale: f"https://map.example/{game}?u={user}&l={locale}", activity=False
    )
    found = [
        (info("g-bob", 1, (1,)), t1),
        (info("g-ann", 2, (0,)), t2),
        (info("g-lobby", 3, (), GameStatus.LOBBY), t1),
    ]
    text = shown(my_games_reply(found, ANN, links, "fr"))
    lines = text.splitlines()
    assert "`g-ann`" in lines[0] and "**your turn**" in lines[0]
    assert "`g-bob`" in lines[1] and "bob to play" in lines[1]
    assert "waiting for players" in lines[2]
    assert f"last move <t:{int(t2.timestamp())}:R>" in lines[0]
    assert "[thread](https://discord.com/channels/2/202)" in lines[0]
    assert "[live map](https://map.example/g-ann?u=11&l=fr)" in lines[0]
    assert "live map" not in lines[2]  # a lobby has no map yet
    assert "live map" not in shown(my_games_reply(found, ANN, None, "fr"))  # the live map off


def test_no_game() -> None:
    assert shown(my_games_reply([], ANN, None, None)) == "You are in no open game."
