"""A pytest fixture: the users whose Discord client is in French (SimCord sends "en-US" otherwise). Conftests
that need it import it: `from helpers.french_client import french_users`."""

from __future__ import annotations

import functools
from typing import Any

import pytest
import simcord


@pytest.fixture
def french_users(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The ids of the users whose Discord client is in French: add ids to the set it returns."""
    users: set[int] = set()
    made = simcord.interactions.base_payload

    @functools.wraps(made)
    def payload(*args: Any, **kwargs: Any) -> Any:
        record, data = made(*args, **kwargs)
        if kwargs.get("user_id") in users:
            data["locale"] = "fr"
        return record, data

    monkeypatch.setattr(simcord.interactions, "base_payload", payload)
    return users
