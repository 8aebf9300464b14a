"""The database down, in the chat (issue 28): every command and button answers that the game database cannot be
reached right now and nothing was changed, never "no such game" and never "something went wrong" with a
traceback; the host reads one ERROR line for the whole outage, and a WARNING when it ends.

The production bot driven through SimCord, on PostgreSQL reached through a proxy the test cuts (its connections
reset, new ones refused: the server stopped), and on SQLite with its repository raising what the SQLite store
raises for a database it cannot open (``StorageDown``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from helpers.db_outage import PostgresProxy, host_errors, proxied_postgres, storage_refusing
from helpers.simcord_driver import components, last_public, open_game

from bot import Settings
from bot.i18n import default_catalog
from bot.manager import GameManager
from bot.play.reply import GameError

DOWN = default_catalog().text("refused.storage_down", "en")
DOWN_FR = default_catalog().text("refused.storage_down", "fr")

#: Every slash command that reads or writes the database (maps and rules read the boards' data only).
COMMANDS: list[tuple[str, Callable[[Any], dict[str, Any]]]] = [
    ("ttr status", lambda w: {}),
    ("ttr board", lambda w: {}),
    ("ttr log", lambda w: {}),
    ("ttr hand", lambda w: {}),
    ("ttr settings", lambda w: {}),
    ("ttr settings", lambda w: {"setting": "hints", "value": "on"}),
    ("ttr leave", lambda w: {}),
    ("ttr end", lambda w: {}),
    ("ttr map", lambda w: {}),
    ("ttr claim", lambda w: {"route": "Roma - Napoli"}),
    ("ttr kick", lambda w: {"player": w["bob"]}),
    ("ttr replace", lambda w: {"player": w["bob"], "new_player": w["carol"]}),
    ("ttr new", lambda w: {"map": "usa"}),
    ("ttr games", lambda w: {"scope": "server"}),
    ("ttr games", lambda w: {"scope": "mine"}),
    ("ttr stats", lambda w: {}),
    ("ttr leaderboard", lambda w: {}),
    ("ttr prefs", lambda w: {"notify": "dm"}),
]


def said(result: Any) -> str:
    """What the person read: the answer and its follow-ups (a refusal after public "thinking" is private)."""
    messages = [result.response, *result.followups]
    return "\n".join(m.content or "" for m in messages if m is not None)


@pytest.fixture(params=["postgres", "sqlite"])
async def backend(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[PostgresProxy | None]:
    if request.param == "sqlite":
        yield None
        return
    async with proxied_postgres() as proxy:
        yield proxy


@pytest.fixture
def bot_settings(backend: PostgresProxy | None, tmp_path: Any) -> Settings:
    # (min_size=0: asyncpg's pool keeps no floor of connections, whose background reconnection during the
    # outage would keep SimCord from ever seeing the bot settle)
    url = f"{backend.url}&min_size=0" if backend is not None else f"sqlite:///{tmp_path / 'ttr.db'}"
    return Settings(database_url=url, lobby_threads=False, render_workers=1)


@asynccontextmanager
async def outage(backend: PostgresProxy | None, manager: GameManager) -> AsyncIterator[None]:
    if backend is None:
        with storage_refusing(manager):
            yield
        return
    await backend.cut()
    try:
        yield
    finally:
        await backend.restore()


async def test_every_command_and_button_says_the_database_cannot_be_reached(  # type: ignore[no-untyped-def]
    simcord_env, world, backend, french_users, caplog
) -> None:
    guild, channel, alice, bob, carol = world
    people = {"bob": bob, "carol": carol}
    gid, _lobby = await open_game(channel, alice, board="italy", joiners=(bob,), ais=())
    turn = last_public(channel)
    buttons = [c["custom_id"] for c in components(turn)]
    assert buttons
    manager: GameManager = simcord_env.bot.service.games_manager
    manager._store.retry_delays = (0.01,)  # (the retries' waits: the same refusal, sooner)
    before = await manager.repository.load_game(gid)
    manager._store.evict(gid)  # (on SQLite a cached game is read without the database: a restart has none)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        async with outage(backend, manager):
            for command, options in COMMANDS:
                result = await alice.slash(channel, command, **options(people))
                text = said(result)
                assert DOWN in text, (command, text)
            for custom_id in buttons:
                result = await alice.click(turn, custom_id=custom_id)
                assert DOWN in said(result), (custom_id, said(result))
            for command, option in (("ttr hand", "game"), ("ttr claim", "route")):  # nothing to suggest
                assert list(await alice.autocomplete(channel, command, option, "")) == []
            french = guild.add_member(simcord_env.create_user("zoé"))
            french_users.add(french.id)
            result = await french.slash(channel, "ttr status")
            assert DOWN_FR in said(result), said(result)
            errors = host_errors(caplog)
            assert len(errors) == 1, errors
            assert "cannot be reached" in errors[0] and "[traceback]" not in errors[0]
        result = await alice.slash(channel, "ttr status")  # back: the game as it was
        assert DOWN not in said(result) and not result.ephemeral
    assert len(host_errors(caplog)) == 1
    raised = [getattr(e, "original", e) for e in simcord_env.errors]  # (reading them acknowledges them)
    assert all(isinstance(e, GameError) for e in raised), raised  # refusals, worded: no bug
    back = [r for r in caplog.records if "works again" in r.getMessage()]
    assert len(back) == 1 and back[0].levelno == logging.WARNING
    after = await manager.repository.load_game(gid)
    assert (after.version, after.status, after.seats) == (before.version, before.status, before.seats)
