"""The final scores' Share (bot/web/moments.py): a finished game's final board is uploaded once to Discord's
application attachment endpoint (the fake Discord's) with the sharing reader's OAuth2 token (as Discord's SDK
playground does) or else the bot's token, and its CDN URL is given to whoever may
see the game; a game not finished, a server that cannot draw or has no bot token, and Discord refusing get a
refusal, and a failed upload is tried again on the next ask."""

from __future__ import annotations

import asyncio

from helpers.fake_discord import ACCESS_PREFIX, BOT_TOKEN
from helpers.fast_pictures import PNG, FastPictures
from helpers.web_site import finish_game, new_game, site


async def test_a_finished_games_board_is_uploaded_once_and_its_url_given_to_every_page(db_url: str) -> None:
    pictures = FastPictures()
    async with site(db_url, bot_token=BOT_TOKEN, final_pictures=pictures) as s:
        gid = await new_game(s.manager)
        path = f"/api/games/{gid}/moment"
        resp = await s.client.post(path, headers=s.auth(101))
        assert resp.status == 409 and (await resp.json())["error"]["code"] == "not_running"
        assert s.discord.moments == []
        await finish_game(s.manager, gid)
        # Ann's and Bob's pages at once, then Eve watching: one upload
        answers = await asyncio.gather(
            s.client.post(path, headers=s.auth(101)), s.client.post(path, headers=s.auth(102))
        )
        later = await s.client.post(path, headers=s.auth(103))
        urls = set()
        for resp in (*answers, later):
            assert resp.status == 200, await resp.text()
            urls.add((await resp.json())["media_url"])
        assert len(urls) == 1
        (url,) = urls
        assert url.startswith("https://cdn.discordapp.com/ephemeral-attachments/4242/")
        assert s.discord.moments == [PNG]  # the final board, once
        assert pictures.calls.count("board") == 1
        assert s.moments is not None and s.moments.uploads == 1
        # signed out: nothing
        resp = await s.client.post(path)
        assert resp.status == 401


async def test_the_upload_is_made_with_the_readers_discord_token_when_the_page_hands_it(db_url: str) -> None:
    pictures = FastPictures()
    async with site(db_url, bot_token=BOT_TOKEN, final_pictures=pictures) as s:
        gid = await new_game(s.manager)
        await finish_game(s.manager, gid)
        path = f"/api/games/{gid}/moment"
        for bad in (7, "x" * 201, "a\nb"):  # not a token: refused, nothing uploaded
            resp = await s.client.post(path, json={"access_token": bad}, headers=s.auth(101))
            assert resp.status == 400
        assert s.discord.moments == []
        token = ACCESS_PREFIX + "code-ann"
        resp = await s.client.post(path, json={"access_token": token}, headers=s.auth(101))
        assert resp.status == 200, await resp.text()
        assert s.discord.moment_by == ["101"]  # Ann's token, not the bot's
        assert token not in await resp.text()
    async with site(db_url, bot_token=BOT_TOKEN, final_pictures=pictures) as s:
        gid = await new_game(s.manager)
        await finish_game(s.manager, gid)
        resp = await s.client.post(f"/api/games/{gid}/moment", headers=s.auth(101))  # no token handed
        assert resp.status == 200
        assert s.discord.moment_by == ["bot"]


async def test_no_share_without_a_drawer_or_a_bot_token_and_discord_refusing_is_tried_again(
    db_url: str,
) -> None:
    async with site(db_url, bot_token=BOT_TOKEN) as s:  # no render pool (ttr web alone)
        gid = await new_game(s.manager)
        await finish_game(s.manager, gid)
        resp = await s.client.post(f"/api/games/{gid}/moment", headers=s.auth(101))
        assert resp.status == 404 and (await resp.json())["error"]["code"] == "not_found"
    pictures = FastPictures()
    async with site(db_url, final_pictures=pictures) as s:  # no bot token
        gid = await new_game(s.manager)
        await finish_game(s.manager, gid)
        resp = await s.client.post(f"/api/games/{gid}/moment", headers=s.auth(101))
        assert resp.status == 404
        assert s.discord.moments == []
    async with site(db_url, bot_token="not-the-bot", final_pictures=pictures) as s:
        gid = await new_game(s.manager)
        await finish_game(s.manager, gid)
        path = f"/api/games/{gid}/moment"
        for _ in range(2):  # (Discord refuses the token: 503, and the next ask asks again)
            resp = await s.client.post(path, headers=s.auth(101))
            assert resp.status == 503 and (await resp.json())["error"]["code"] == "discord_unavailable"
        assert s.moments is not None and s.moments.uploads == 2
        assert "not-the-bot" not in await resp.text()


async def test_the_bots_drawer_draws_a_finished_games_board_in_its_servers_language(db_url: str) -> None:
    """`bot.wiring.shared_board`: the final board by the service's pictures, in the language of the game's
    server (its public messages'), nothing before the end."""
    from types import SimpleNamespace

    from helpers.fast_pictures import PNG

    from bot.wiring import shared_board

    pictures = FastPictures()
    async with site(db_url) as s:
        gid = await new_game(s.manager)
        messenger = SimpleNamespace(public_locale=lambda channel: "fr" if channel == 10 else "en")
        service = SimpleNamespace(
            games_manager=s.manager,
            messenger=messenger,
            pictures=pictures,
            config=SimpleNamespace(default_locale="en"),
        )
        draw = shared_board(service)  # type: ignore[arg-type]
        assert await draw(gid) is None and pictures.calls == []
        await finish_game(s.manager, gid)
        assert await draw(gid) == PNG
        assert pictures.calls == ["board"]
        ((what, words),) = pictures.words
        assert what == "board" and words.language == "fr"  # the server's language (channel 10: French here)
        assert pictures.names == [("board", ("ann", "bob"))]
