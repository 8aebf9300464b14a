from __future__ import annotations

import socket
from pathlib import Path

import pytest
from helpers.french_client import french_users  # noqa: F401  (a fixture)

# The server's test helpers (the fake Discord OAuth2 server, the map server over a manager) are in
# tests/helpers/web_site.py, SimCord's driver in tests/helpers/simcord_driver.py.
WEB_SECRET = "browser-live-map-secret-" + "w" * 32


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def web_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def simcord_bot(tmp_path: Path, web_port: int):  # type: ignore[no-untyped-def]
    """The production bot for SimCord (tests/conftest.py's simcord_env), with the live map on `web_port` (no
    Activity: personal links), quick AI and tiny chat pictures as in tests/bot_e2e."""
    from helpers.fast_pictures import FastPictures

    from bot import Settings, create_bot
    from bot.wiring import Wiring

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'ttr.db'}",
        lobby_threads=True,
        render_workers=1,
        web_port=web_port,
        public_url=f"http://127.0.0.1:{web_port}",
        web_secret=WEB_SECRET,
    )
    return create_bot(settings, parts=Wiring(settings, ai_budget_ms=20, pictures=FastPictures()))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here drives a real browser: slow by nature, so outside the fast loop (CI runs them all)."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.slow)
