"""A server's own language (V008): the storage contract on SQLite (file and memory) and PostgreSQL."""

from __future__ import annotations

from bot.storage import GameRepository, open_repository


async def test_a_server_chooses_its_language_changes_it_and_goes_back(repo: GameRepository) -> None:
    assert await repo.load_server_language(1) is None and await repo.server_languages() == {}
    await repo.save_server_language(1, "de")
    await repo.save_server_language(2**62, "ja")  # Discord ids are 64-bit
    assert await repo.load_server_language(1) == "de"
    await repo.save_server_language(1, "es")  # changed in place
    assert await repo.server_languages() == {1: "es", 2**62: "ja"}
    await repo.save_server_language(1, None)  # back to Discord's locale: no row
    await repo.save_server_language(3, None)  # nothing to forget: no error
    assert await repo.load_server_language(1) is None
    assert await repo.server_languages() == {2**62: "ja"}


async def test_the_choice_outlives_the_connection(repo_url: str) -> None:
    async with open_repository(repo_url) as first:
        await first.save_server_language(7, "it")
    if repo_url.endswith(":memory:"):
        return  # a memory database dies with its connection
    async with open_repository(repo_url) as again:
        assert await again.load_server_language(7) == "it"
