"""All my games, statistics and the export (issue 33, items 4 and 5), through SimCord and the production bot."""

from __future__ import annotations

import csv
import io
import json

import discord
from discord import app_commands
from helpers.simcord_driver import message_text, open_game


def _club(simcord_env, name, *users):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild(name)
    channel = guild.create_text_channel("games")
    return guild, channel, [guild.add_member(u) for u in users]


async def _finish_by_ai(simcord_env, channel, host, joiner, board):  # type: ignore[no-untyped-def]
    """A game of two people who both hand their seats to the AI, which plays it to its end."""
    gid, _ = await open_game(channel, host, board=board, joiners=(joiner,), ais=())
    await host.slash(channel, "ttr replace", player=host, new_player=host)
    await joiner.slash(channel, "ttr replace", player=joiner, new_player=joiner)
    await simcord_env.settle()
    info = await simcord_env.bot.service.games_manager.game_info(gid)
    assert info.status == "finished"
    return gid, info


async def test_my_games_across_two_servers_in_a_dm_and_in_a_server(simcord_env):  # type: ignore[no-untyped-def]
    ann, bob, cid = (simcord_env.create_user(n) for n in ("ann", "bob", "cid"))
    one, ch_one, (ann_1, bob_1) = _club(simcord_env, "Rail Club", ann, bob)
    two, ch_two, (ann_2, cid_2) = _club(simcord_env, "Night Trains", ann, cid)
    first, _ = await open_game(ch_one, ann_1, board="usa", joiners=(bob_1,), ais=())
    second, _ = await open_game(ch_two, cid_2, board="europe", joiners=(ann_2,), ais=())
    manager = simcord_env.bot.service.games_manager
    threads = {g: (await manager.game_info(g)) for g in (first, second)}
    in_dm = await ann.slash("ttr games")
    text = message_text(in_dm.response)
    assert in_dm.ephemeral and "Your games" in text
    for gid, info in threads.items():
        assert f"`{gid}`" in text
        assert f"https://discord.com/channels/{info.guild_id}/{info.thread_id or info.channel_id}" in text
    assert "<t:" in text and ":R>" in text  # since when, in each reader's own time
    assert text.count("last move") == 2
    assert "**your turn**" in text or "ann to play" in text  # both seats choose their tickets first
    # in a server, "mine" lists the games of every server too; bob sees only his own
    in_server = message_text((await ann_1.slash(ch_one, "ttr games", scope="mine")).response)
    assert f"`{first}`" in in_server and f"`{second}`" in in_server
    bobs = message_text((await bob.slash("ttr games")).response)
    assert f"`{first}`" in bobs and f"`{second}`" not in bobs
    cids = message_text((await cid.slash("ttr games")).response)
    assert f"`{second}`" in cids and f"`{first}`" not in cids
    # the channel's listing is unchanged: this channel's open games only
    here = message_text((await ann_1.slash(ch_one, "ttr games")).response)
    assert f"`{first}`" in here and f"`{second}`" not in here
    # a member's own commands answer in a DM too; the other commands still need a server
    for own in ("ttr maps", "ttr prefs", "ttr stats"):
        answered = await ann.slash(own)
        assert answered.acknowledged and "server channel" not in message_text(answered.response), own
    refused = await ann.slash("ttr new", map="usa")
    assert refused.ephemeral and "server" in message_text(refused.response)
    assert len(await manager.my_games(ann.id)) == 2
    # (SimCord records the refusal the tree's error handler answered: the only error)
    assert [type(e) for e in simcord_env.errors] == [app_commands.NoPrivateMessage]


async def test_stats_after_two_finished_games_and_the_export(simcord_env):  # type: ignore[no-untyped-def]
    ann, bob = simcord_env.create_user("ann"), simcord_env.create_user("bob")
    guild, channel, (ann_m, bob_m) = _club(simcord_env, "Rail Club", ann, bob)
    one, info_one = await _finish_by_ai(simcord_env, channel, ann_m, bob_m, "usa")
    two, info_two = await _finish_by_ai(simcord_env, channel, bob_m, ann_m, "usa")
    manager = simcord_env.bot.service.games_manager
    sheets = {g: {s.seat: s for s in i.final} for g, i in ((one, info_one), (two, info_two))}
    ann_seat = {one: 0, two: 1}

    shown = await ann_m.slash(channel, "ttr stats")
    text = message_text(shown.response)
    last = sheets[two][ann_seat[two]]  # the last game's numbers, from the engine's final sheet
    done = [t for t in last.tickets if t.completed]
    assert f"Rank {last.rank} of 2, {last.total} points" in text
    assert f"Tickets: {len(done)} completed (+{sum(t.points for t in done)})" in text
    assert f"Points: routes {last.route_points}, tickets {last.ticket_points}" in text
    assert "Routes by length: " in text and "trains left" in text and "min a turn on average" in text
    assert "USA, 2 players" in text and "2 games" in text
    best = max(sheets[g][ann_seat[g]].total for g in (one, two))
    assert f"Best game: {best} points" in text
    assert "Favourite routes: " in text and "Rating, game after game: " in text
    assert "This server" in text and "2 games finished: USA 2" in text and "Most-claimed routes: " in text
    top = max((s for g in (one, two) for s in sheets[g].values()), key=lambda s: s.total)
    assert "Highest score: <@" in text and f", {top.total} points" in text
    assert [a.filename for a in shown.response.attachments] == ["stats.png"]  # the chart, with the statistics
    assert (await shown.response.attachments[0].read())[:8] == b"\x89PNG\r\n\x1a\n"

    # the export: refused to a member who does not manage the server
    refused = await bob_m.slash(channel, "ttr export")
    assert refused.ephemeral and "manage the server" in message_text(refused.response)
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[admins])
    as_jsonl = await boss.slash(channel, "ttr export")
    assert as_jsonl.ephemeral and "2 finished games of this server, as JSONL" in message_text(
        as_jsonl.response
    )
    lines = (await as_jsonl.response.attachments[0].read()).decode().splitlines()
    games = [json.loads(line) for line in lines]
    assert [g["game_id"] for g in games] == [one, two]  # oldest first
    for g in games:
        assert g["board"] == "usa" and g["players"] == 2 and g["guild_id"] == guild.id
        for seat in g["seats"]:
            sheet = sheets[g["game_id"]][seat["seat"]]
            assert (seat["score"], seat["rank"], seat["won"]) == (sheet.total, sheet.rank, sheet.rank == 1)
            assert seat["route_points"] == sheet.route_points and seat["longest_route"] >= 1
            assert seat["tickets"] == [[t.a, t.b, t.points, t.completed] for t in sheet.tickets]
            assert seat["bonus_points"] == sum(sheet.bonuses.values())
            assert seat["turns"] >= 1 and seat["trains_left"] >= 0
            assert seat["user_id"] == (ann.id if seat["seat"] == ann_seat[g["game_id"]] else bob.id)
    as_csv = await boss.slash(channel, "ttr export", format="csv")
    rows = list(csv.DictReader(io.StringIO((await as_csv.response.attachments[0].read()).decode())))
    assert [(r["game_id"], int(r["seat"])) for r in rows] == [(one, 0), (one, 1), (two, 0), (two, 1)]
    assert [int(r["score"]) for r in rows] == [sheets[r["game_id"]][int(r["seat"])].total for r in rows]
    stored = await manager.export_all(guild.id)
    assert len(stored) == 4
    assert simcord_env.errors == []
