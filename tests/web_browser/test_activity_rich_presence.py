"""The reader's Discord status (rich presence) from inside the Activity, through the Discord client stand-in
(tests/helpers/discord_client.py): the page asks for ``rpc.activities.write`` with its sign-in's scopes and,
when Discord's AUTHENTICATE says it was granted, sends SET_ACTIVITY with public facts only (the board, whose
turn, the seats), again when those change (not on every frame: at most one command per `GAP_MS`, the newest
wanted), and clears it at the end. Without the scope, no SET_ACTIVITY and the page works as before."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from browser import needs_chromium, wait_version
from helpers.discord_client import discord_client
from helpers.fake_discord import BOT_TOKEN
from helpers.web_site import finish_game, new_game, site
from test_activity_client import _move_through_the_manager, in_discord, open_activity

from bot.manager import GameManager

pytestmark = needs_chromium

#: web/src/richpresence.ts's GAP_MS (seconds)
GAP = 4.0


async def set_activities(page: Any) -> list[Any]:
    return [
        c["args"]["activity"]
        for c in await page.evaluate("() => standIn.commands()")
        if c["cmd"] == "SET_ACTIVITY"
    ]


async def until_activities(page: Any, count: int, timeout: float = 3 * GAP) -> list[Any]:
    """The SET_ACTIVITY commands sent, once there are `count` (polled: the stand-in records them)."""
    end = time.monotonic() + timeout
    while True:
        sent = await set_activities(page)
        if len(sent) >= count or time.monotonic() > end:
            return sent
        await asyncio.sleep(0.05)


async def version_of(manager: GameManager, game_id: str) -> int:
    """The version of the game's view now (its moves so far)."""
    state = await manager.state_of(game_id)
    assert state is not None
    return len(state.history)


async def test_the_status_says_the_board_and_whose_turn_follows_the_turns_and_is_cleared_at_the_end(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")  # Ann (101) and Bob (102): the opening's tickets first
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in)
            instance = parse_qs(urlparse(url).query)["instance_id"][0]
            opened = time.time() * 1000
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            commands = await page.evaluate("() => standIn.commands()")
            authorize = next(c["args"] for c in commands if c["cmd"] == "AUTHORIZE")
            assert authorize["scope"] == ["identify", "rpc.activities.write"]
            assert await page.evaluate("() => standIn.state.scopes") == ["identify", "rpc.activities.write"]

            first = (await until_activities(page, 1))[0]
            start = first["timestamps"]["start"]
            assert opened - 5000 <= start <= time.time() * 1000
            assert first == {
                "type": 0,
                "details": "Italy",
                "state": "Choosing tickets",  # both players keep their first tickets at once
                "party": {"id": instance, "size": [2, 2]},  # (the instance: Discord's own example)
                "timestamps": {"start": start},
            }
            # the opening's two choices, one after the other: one command (the newest wanted after the gap)
            await _move_through_the_manager(s, gid)
            await _move_through_the_manager(s, gid)
            await wait_version(activity, 2)
            sent = await until_activities(page, 2)
            info = await s.manager.game_info(gid)
            mover, other = info.seats[info.to_act[0]].name, info.seats[1 - info.to_act[0]].name
            assert {mover, other} == {"ann", "bob"}
            assert sent[1:] == [{**first, "state": f"{mover}'s turn"}], sent
            # a change of turn (a card drawn leaves the turn to its player: moves until it passes)
            while (await s.manager.game_info(gid)).seats[info.to_act[0]].name == mover:
                await _move_through_the_manager(s, gid)
                info = await s.manager.game_info(gid)
            await wait_version(activity, await version_of(s.manager, gid))
            sent = await until_activities(page, 3)
            assert sent[2:] == [{**first, "state": f"{other}'s turn"}], sent
            before = len(await set_activities(page))

            # the end: a few hundred moves in a few seconds send a few commands, the last one clearing it
            began = time.monotonic()
            moves = await finish_game(s.manager, gid)
            await wait_version(activity, await version_of(s.manager, gid), timeout=20)
            deadline = time.monotonic() + 3 * GAP
            while (await set_activities(page))[-1] is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            sent = await set_activities(page)
            assert sent[-1] is None, sent[-3:]
            # one command per gap at most (the newest wanted), never one per move
            elapsed = time.monotonic() - began
            assert len(sent) - before <= elapsed / GAP + 2, (moves, elapsed, len(sent) - before)
            assert len(sent) - before < moves / 4, (moves, len(sent) - before)
            # nothing hidden: only these keys, the board's name and public words
            for a in sent[:-1]:
                assert set(a) == {"type", "details", "state", "party", "timestamps"}
            # (a game's end played in seconds asks more drawings than the server's per-user rate: 429s said; this
            # server has no render pool: its Share is 404, tests/web_browser/test_activity_share.py)
            assert [e for e in errors if "status of 429" not in e and "status of 404" not in e] == [], errors
            await browser.close()


async def test_without_the_scope_no_status_is_sent_and_the_page_works_as_before(
    db_url: str, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    async with site(db_url, bot_token=BOT_TOKEN) as s, async_playwright() as pw:
        gid = await new_game(s.manager, "italy")
        upstream = str(s.client.make_url("/")).rstrip("/")
        async with discord_client(upstream, "4242", tmp_path) as stand_in:
            url = in_discord(s, stand_in, grant=("identify",))  # the reader declined the status
            browser, page, activity, errors, _raw = await open_activity(pw, stand_in, url, phone=False)
            await wait_version(activity, 0)
            await _move_through_the_manager(s, gid)
            await wait_version(activity, 1)
            commands = await page.evaluate("() => standIn.commands()")
            assert [c["cmd"] for c in commands if c["cmd"] == "AUTHENTICATE"] == ["AUTHENTICATE"]
            assert [c for c in commands if c["cmd"] == "SET_ACTIVITY"] == []
            # the rest as ever: the board, who is on the map, no failure
            assert await activity.locator("#board svg").count() == 1
            assert await activity.locator('#presence .here[data-user="101"]').count() == 1
            assert not await activity.locator("#splash.failed").count()
            assert errors == [], errors
            await browser.close()
