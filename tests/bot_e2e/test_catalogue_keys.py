"""Every message key the game service uses exists in English and French, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import Catalog, check_placeholders

ROOT = Path(__file__).resolve().parents[2] / "bot" / "service_impl"
KEY = re.compile(r"""(?:Text|_fail)\(\s*"([a-z_]+\.[a-z_.]+)"|"((?:btn|act|menu|play|turn)\.[a-z_]+)\"""")


def test_service_keys_are_in_both_catalogues() -> None:
    catalog = Catalog.load()
    used = set()
    for path in ROOT.glob("*.py"):
        for match in KEY.finditer(path.read_text()):
            used.add(match.group(1) or match.group(2))
    used |= {f"ai.{level}" for level in ("easy", "normal", "hard")}
    used |= {f"turn.absent_{p}" for p in ("ai", "skip", "wait")}
    assert len(used) > 80
    for code in ("en", "fr"):
        missing = sorted(k for k in used if k not in catalog.messages[code])
        assert not missing, (code, missing)
    assert check_placeholders(catalog) == []


def test_a_turn_message_in_french() -> None:
    from bot.service import Text

    catalog = Catalog.load()
    text = catalog.render(Text("turn.message", {"lines": "x", "player": "<@1>"}), "fr")
    assert text == "x\n➡️ <@1>, à vous."
    assert catalog.render(Text("act.deck"), "fr") == "Pioche (face cachée)"
