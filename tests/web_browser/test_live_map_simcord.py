"""A whole game of Italy on the live map while the chat goes on in SimCord (the production bot, its web server
started by the bot itself): the players get their personal links from the chat ("Open the map in your browser"
in My hand; the Map button for the watcher), then tap the opening and the end of the game on their pages —
Alice on a phone in English, Bob on a desktop in French; the middle is played through the manager, the pages
away (play.py) — and the game's thread gets the turn messages of the moves made on the pages. Every WebSocket
frame each page received is checked for hidden information."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

import pytest
from browser import Watched, launch, needs_chromium, open_page, shot, wait_version
from helpers.simcord_driver import button_id, game_id_of, is_final, last_public, message_text, public_messages
from helpers.simcord_env import rail_club
from helpers.web_site import check_frame
from play import play_a_game

from bot.i18n import default_catalog

pytestmark = [needs_chromium, pytest.mark.slow]  # whole games in a real browser
SEED = 918_273_645_501


def _link(result, port: int) -> str:  # type: ignore[no-untyped-def]
    found = re.search(rf"http://127\.0\.0\.1:{port}/\?link=\S+", message_text(result.response))
    assert found, message_text(result.response)
    return found.group(0)


async def test_a_whole_game_tapped_on_two_pages_while_the_thread_gets_the_turn_messages(
    simcord_env,
    simcord_bot,
    web_port,
    french_users,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.async_api import async_playwright

    from bot.manager import games

    # The same deal every run: the opening tapped on the pages has claims (the picker) on both pages.
    monkeypatch.setattr(games, "secrets", SimpleNamespace(randbits=lambda bits: SEED))
    guild, channel, alice, bob, carol = rail_club(simcord_env)
    french_users.add(bob.id)  # Bob's Discord speaks French: his link opens the map in French
    await alice.slash(channel, "ttr new", map="italy")
    assert len(channel.threads) == 1
    where = channel.threads[0]  # the game's own thread (LOBBY_THREADS)
    lobby = last_public(where)
    game_id = game_id_of(lobby)
    await bob.click(lobby, custom_id=button_id(lobby, "join"))
    await alice.click(lobby, custom_id=button_id(lobby, "start"))
    await simcord_env.settle()

    links = {}
    for seat, member, lang in ((0, alice, "en"), (1, bob, "fr")):
        hand = await member.slash(where, "ttr hand")
        opened = await member.click(hand.response, label=default_catalog().text("web.btn.browser", lang))
        links[seat] = _link(opened, web_port)
    # The watcher asks for the map in the thread (a link of their own, no seat).
    carol_link = _link(await carol.slash(where, "ttr map"), web_port)
    before = len(public_messages(where))
    # From here the pages hold WebSockets open on the bot's web server: SimCord cannot settle (it waits for every
    # task of the bot) until they are closed, so the thread is read after the browser is gone.

    async with async_playwright() as pw:
        browser = await launch(pw)
        seated = {
            0: await open_page(browser, links[0], phone=True),
            1: await open_page(browser, links[1], locale="fr-FR"),
        }
        watcher = await open_page(browser, carol_link)
        for w in (*seated.values(), watcher):
            await w.page.wait_for_selector("#board svg [data-route]")
            await wait_version(w.page, 0)
        await shot(seated[0].page, "simcord-italy-start-phone-en.png")
        await shot(seated[1].page, "simcord-italy-start-desktop-fr.png")

        played = await play_a_game(
            seated,
            [watcher],
            manager=simcord_bot.service.manager,
            game_id=game_id,
            phone_seat=0,
            name="simcord-italy",
            lang={0: "en", 1: "fr"},
        )
        print(
            f"italy (SimCord): {len(played.taps)} moves tapped in {played.seconds:.1f} s,"
            f" {played.middle} through the manager"
        )

        # never more taps than the chat: a card in one (two cards: deck, deck), a claim in two (the route, then
        # its move with the payment shown), tickets in three at most (the deck, a box unticked, keep)
        print({k: max(v) for k, v in played.taps_per_kind.items()})
        limits = {"deck": 1, "face-up": 1, "tickets": 1, "route": 2, "pending keep_tickets": 2}
        for kind, taps in played.taps_per_kind.items():
            assert max(taps) <= limits.get(kind, 2), (kind, taps)
        state = await simcord_bot.service.manager.state_of(game_id)
        assert state is not None and state.finished
        readers: list[tuple[int | None, Watched]] = [(0, seated[0]), (1, seated[1]), (None, watcher)]
        for reader, w in readers:
            assert w.raw and w.errors == [], w.errors
            for text in w.raw:
                check_frame(text, state, reader)
        assert all(v["me"] is None for v in watcher.views())
        assert await watcher.page.is_hidden("#hand")
        assert await seated[1].page.text_content("#status") == "La partie est terminée."
        await browser.close()
    # (no settle: the web server's idle keep-alive connections count as the bot's work for SimCord until it
    # shuts down) the final result is the bot's last post about the game
    for _ in range(500):
        if any(is_final(m) for m in public_messages(where)):
            break
        await asyncio.sleep(0.02)

    # The thread got the moves made on the pages: a turn message for every turn (a claim ends one), naming the
    # next player, then the final result.
    posted = public_messages(where)[before:]
    turn_messages = [m for m in posted if re.search(rf"<@({alice.id}|{bob.id})>", m.content or "")]
    claims = sum("route" in t for t in played.taps)
    print(f"thread: {len(posted)} posts, {len(turn_messages)} turn messages, {claims} claims")
    assert len(turn_messages) >= claims
    assert any(f"<@{alice.id}>" in (m.content or "") for m in turn_messages)
    assert any(f"<@{bob.id}>" in (m.content or "") for m in turn_messages)
    assert is_final(posted[-1]) or any(is_final(m) for m in posted[-3:])
