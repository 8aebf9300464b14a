from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The server's test helpers (the fake Discord OAuth2 server, the map server over a manager) live in tests/web/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"
