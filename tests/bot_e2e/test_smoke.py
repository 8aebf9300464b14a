from __future__ import annotations

import driver
from driver import Seen, components, play_turn, public_messages

driver.DEBUG = False


async def test_usa_smoke(simcord_env, world):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob, carol = world
    lobby = await alice.slash(channel, "ttr new", map="usa")
    print(lobby, lobby.response.content, components(lobby.response))
    gid = components(lobby.response)[0]["custom_id"].split(":")[1]
    r = await alice.select(lobby.response, ["easy"], custom_id=f"ttr:{gid}:addai:*")
    print(r, simcord_env.errors)
    r = await alice.click(lobby.response, label="Start")
    print(r, r.followups, simcord_env.errors)
    seen = Seen()
    for i in range(400):
        msgs = public_messages(channel)
        last = msgs[-1]
        if "game is over" in (last.content or ""):
            break
        ok = await play_turn(alice, last, seen)
        if not ok:
            print("stuck", last.content, components(last))
            break
    print(i, public_messages(channel)[-1].content, simcord_env.errors)
