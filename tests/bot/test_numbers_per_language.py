"""Decimals as each language writes them (issue 31, item 2): German, Spanish, Italian and French "1,5", English and
Japanese "1.5", in every message that shows one (a game's hours in /ttr settings, the hours after which a lobby
closed, a player's mean score in /ttr stats), and typed back either way in /ttr settings."""

from __future__ import annotations

import pytest

from bot.i18n import default_catalog
from bot.manager.events import Abandoned
from bot.manager.game_settings import GameSettings
from bot.play.event_words import _abandoned
from bot.play.settings_text import setting_value
from bot.play.social import one_decimal
from bot.storage import PlayerStats

MARK = {"de": ",", "es": ",", "it": ",", "fr": ",", "en": ".", "ja": "."}


@pytest.mark.parametrize("lang", sorted(MARK))
def test_hours_and_scores_take_the_languages_decimal_mark(lang: str) -> None:
    catalog = default_catalog()
    mark = MARK[lang]
    hours = catalog.render(setting_value("remind_after_hours", 1.5), lang) or ""
    assert f"1{mark}5" in hours and f"1{'.' if mark == ',' else ','}5" not in hours, hours
    whole = catalog.render(setting_value("remind_after_hours", 12.0), lang) or ""
    assert "12" in whole and "12.0" not in whole and "12,0" not in whole, whole
    closed = catalog.render(_abandoned(None, Abandoned("expired", hours=1.5), None), lang)  # type: ignore[arg-type]
    assert f"1{mark}5" in (closed or ""), closed
    stats = PlayerStats(user_id=1, guild_id=1, games=4, wins=1, mean_score=87.25, best_score=120)
    summary = catalog.text(
        "stats.summary", lang, player="x", games=4, wins=1, mean=one_decimal(stats.mean_score), best=120
    )
    assert f"87{mark}2" in summary or f"87{mark}3" in summary, summary


@pytest.mark.parametrize("typed", ["1.5", "1,5", "1,5h", " 1.5 "])
def test_hours_are_typed_with_either_mark(typed: str) -> None:
    assert GameSettings().with_values({"remind_after_hours": typed}).remind_after_hours == 1.5
