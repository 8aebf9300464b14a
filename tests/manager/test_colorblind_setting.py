"""The per-game colour-blind board setting: on by default, switched with on/off words."""

from __future__ import annotations

import pytest

from bot.manager.game_settings import GameSettings, SettingError


def test_colorblind_is_on_by_default_and_can_be_switched():
    settings = GameSettings()
    assert settings.colorblind is True
    assert settings.with_values(colorblind="off").colorblind is False
    assert settings.with_values(colorblind="On").colorblind is True
    assert GameSettings.from_json({"colorblind": False}).colorblind is False
    with pytest.raises(SettingError, match="on or off"):
        settings.with_values(colorblind="maybe")
