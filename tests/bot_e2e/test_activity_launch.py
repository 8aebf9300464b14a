"""The Map button and ``/ttr map`` with the Activity set up (a client id), in SimCord with the production bot and
its web server: Discord launches the Activity (the interaction answered with LAUNCH_ACTIVITY, no message); when
Discord refuses the launch (Activities not enabled for the application or in this channel) the caller gets the
personal link privately, never "something went wrong"; an answer too late for a launch (the bot deferred) is
the link too; without the Activity, the link.

SimCord 3.2 does not know the LAUNCH_ACTIVITY answer (callback type 12) and refuses it with 400 Invalid Form Body,
as Discord does when the application has no Activity: the tests of the refused launch use that refusal as it is.
The `launches` fixture teaches SimCord's callback route that one answer, as Discord gives it (the interaction
answered, no message, the activity instance in the resource), for the tests of a launch that happens."""

from __future__ import annotations

import asyncio
import random
import re
import socket
from typing import Any

import aiohttp
import pytest
from helpers.simcord_driver import (
    Seen,
    button_id,
    follow_menu,
    is_ephemeral,
    last_public,
    message_text,
    open_game,
)
from simcord.backend import errors
from simcord.http import router
from simcord.http.routes import interactions as routes

from bot import Settings
from bot.manager import random_action, turn_token
from bot.play.press import PressCode

SECRET = "e2e-activity-launch-secret-" + "q" * 32
LAUNCH_ACTIVITY = 12  # the interaction callback type
APOLOGY = "something went wrong"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT = _free_port()


@pytest.fixture
def activity() -> bool:
    return True


@pytest.fixture
def bot_settings(tmp_path, activity: bool) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'ttr.db'}",
        lobby_threads=False,
        render_workers=1,
        web_port=PORT,
        public_url=f"http://127.0.0.1:{PORT}",
        web_secret=SECRET,
        discord_client_id="4242" if activity else "",
        discord_client_secret="activity-client-secret" if activity else "",
    )


@pytest.fixture
def launches(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    """SimCord's interaction callback route, also answering LAUNCH_ACTIVITY as Discord does; the ids of the
    interactions answered with a launch."""
    launched: list[int] = []
    original = routes.interaction_callback

    def callback(ctx: Any) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return original(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        record.pong()  # answered, and nothing posted: Discord opens the Activity in the person's client
        launched.append(record.id)
        instance = f"i-{record.id}-gc-{record.channel_id}"
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": instance,
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            },
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}},
        }

    posts = [(t, callback if f is original else f) for t, f in router._ROUTES["POST"]]
    monkeypatch.setitem(router._ROUTES, "POST", posts)
    return launched


def _launch_calls(env: Any) -> list[Any]:
    return [
        r
        for r in env.http_requests
        if r.method == "POST"
        and r.path.endswith("/callback")
        and isinstance(r.json, dict)
        and r.json.get("type") == LAUNCH_ACTIVITY
    ]


async def _turn(channel: Any, alice: Any, bob: Any) -> tuple[str, Any]:
    gid, _ = await open_game(channel, alice, board="usa", joiners=(bob,), ais=())
    setup = last_public(channel)
    for m in (alice, bob):
        await follow_menu(m, await m.click(setup, label="Choose tickets"), Seen())
    return gid, last_public(channel)


async def _opens_as(link_message: Any, gid: str, seat: int | None) -> None:
    """The link in `link_message` signs in on the running server and shows game `gid` as `seat`."""
    text = message_text(link_message)
    assert APOLOGY not in text.lower()
    found = re.search(r"http://127\.0\.0\.1:\d+/\?link=(\S+)", text)
    assert found, text
    async with aiohttp.ClientSession(f"http://127.0.0.1:{PORT}") as http:
        async with http.post("/api/session", json={"link": found.group(1)}) as resp:
            body = await resp.json()
        assert body["game_id"] == gid
        async with http.get(
            f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {body['session']}"}
        ) as resp:
            view = await resp.json()
    assert (view["me"] or {}).get("seat") == seat


async def test_the_map_launches_the_activity_where_it_is_set_up(simcord_env, world, launches):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, turn = await _turn(channel, alice, bob)
    before = len(channel.history())  # public and private
    pressed = await bob.click(turn, label="Map")
    command = await alice.slash(channel, "ttr map")
    assert len(launches) == 2 and len(_launch_calls(simcord_env)) == 2
    # a launch posts nothing: no link, no apology, privately or in the channel
    for result in (pressed, command):
        assert result.response is None or APOLOGY not in message_text(result.response).lower()
        assert result.response is None or "?link=" not in message_text(result.response)
    assert len(channel.history()) == before


async def test_a_refused_launch_answers_with_the_personal_link(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, turn = await _turn(channel, alice, bob)
    pressed = await bob.click(turn, label="Map")
    assert len(_launch_calls(simcord_env)) == 1  # the launch was tried, and SimCord (as Discord) refused it
    assert is_ephemeral(pressed.response)
    await _opens_as(pressed.response, gid, 1)
    command = await alice.slash(channel, "ttr map")
    assert len(_launch_calls(simcord_env)) == 2
    assert is_ephemeral(command.response)
    await _opens_as(command.response, gid, 0)
    watching = await carol.click(turn, label="Map")  # a spectator's link watches
    await _opens_as(watching.response, gid, None)


@pytest.mark.parametrize("activity", [False])
async def test_without_the_activity_the_map_is_the_personal_link(simcord_env, world, launches):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    gid, turn = await _turn(channel, alice, bob)
    pressed = await bob.click(turn, label="Map")
    command = await alice.slash(channel, "ttr map")
    assert launches == [] and _launch_calls(simcord_env) == []
    assert is_ephemeral(pressed.response) and is_ephemeral(command.response)
    await _opens_as(pressed.response, gid, 1)
    await _opens_as(command.response, gid, 0)


async def test_a_map_answer_too_late_for_a_launch_is_the_personal_link(
    simcord_env, world, launches, monkeypatch
):  # type: ignore[no-untyped-def]
    """The Map button's answer came after the bot deferred (a slow moment): an Activity can only be launched as
    the first answer, so the caller gets the link in the deferred message, not "press Map again"."""
    from bot.discord import replies
    from bot.play import service as play_service
    from bot.play.press import PressCode

    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)  # (the real 1.5 s, shortened)
    quick = play_service._PRESSES[PressCode.MAP]

    async def slow(self, caller, info, press):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.3)
        return await quick(self, caller, info, press)

    monkeypatch.setitem(play_service._PRESSES, PressCode.MAP, slow)
    guild, channel, alice, bob, carol = world
    gid, turn = await _turn(channel, alice, bob)
    pressed = await bob.click(turn, label="Map")
    assert launches == [] and _launch_calls(simcord_env) == []
    assert is_ephemeral(pressed.response)
    await _opens_as(pressed.response, gid, 1)


async def test_a_turn_by_direct_message_and_a_reminder_carry_the_map_of_their_game(simcord_env, world):  # type: ignore[no-untyped-def]
    """The notices that call a player to the game carry its Map button: the turn's direct message (pressed there,
    where no Activity launches, it answers with the personal link to that game) and the public reminder."""
    guild, channel, alice, bob, carol = world
    await bob.slash(channel, "ttr prefs", notify="dm")
    gid, _turn_message = await _turn(channel, alice, bob)
    manager = simcord_env.bot.service.games_manager
    rng = random.Random(3)
    for _ in range(10):  # Alice's moves (the chat's or a page's: the manager's) until it is Bob's turn
        info = await manager.game_info(gid)
        if info.seats[info.to_act[0]].user_id == bob.id:
            break
        state = await manager.state_of(gid)
        seat = info.to_act[0]
        await manager.act(
            gid, alice.id, random_action(state, seat, rng), expected_turn=turn_token(state, seat)
        )
    dms = [m for m in bob.user.dm_channel.history() if m.author.bot]
    assert dms and gid in dms[-1].content
    launches_before = len(_launch_calls(simcord_env))
    pressed = await bob.user.click(dms[-1], custom_id=button_id(dms[-1], "map"))  # (in the DM: the user)
    assert len(_launch_calls(simcord_env)) == launches_before  # no launch tried where the game is not
    assert is_ephemeral(pressed.response)
    await _opens_as(pressed.response, gid, 1)

    notices = simcord_env.bot.service.notices
    reminder = await notices.reminder(manager, None, info, 0, alice.id, 1, held=False)
    assert reminder is not None
    assert [(b.game_id, b.code) for row in reminder.rows for b in row] == [(gid, PressCode.MAP)]
