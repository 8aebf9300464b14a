"""The end of a game on the live map: each seat's breakdown of its final score (`Player.breakdown`), as facts the
page words: routes, tickets completed and failed (counted), every bonus scored or lost. Its points add up to the
score shown; it is empty until the game is over (the tickets are revealed then, as the chat reveals them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.web_site import finish_game, new_game, site

from bot.i18n import default_catalog
from bot.manager.events import final_sheets
from bot.web.view import BONUS_KINDS, SHEET_KEYS, texts

MAPS = Path(__file__).resolve().parents[2] / "maps"


async def views_of(s: Any, gid: str, users: dict[int, str]) -> dict[int, dict[str, Any]]:
    out = {}
    for user, locale in users.items():
        resp = await s.client.get(f"/api/games/{gid}/view", headers=s.auth(user, locale))
        assert resp.status == 200
        out[user] = await resp.json()
    return out


async def test_each_seats_breakdown_adds_up_to_its_final_score_and_shows_only_at_the_end(db_url: str) -> None:
    async with site(db_url) as s:
        gid = await new_game(s.manager, "europe")
        readers = {101: "en", 102: "fr", 999: "en"}  # two seats and a spectator
        for view in (await views_of(s, gid, readers)).values():
            assert all(p["breakdown"] == [] for p in view["players"])
        await finish_game(s.manager, gid)
        state = await s.manager.state_of(gid)
        assert state is not None and state.finished
        sheets = {f.seat: f for f in final_sheets(state)}
        views = await views_of(s, gid, readers)
        for view in views.values():
            assert view["status"] == "finished"
            for p in view["players"]:
                sheet, parts = sheets[p["seat"]], p["breakdown"]
                kinds = [x["kind"] for x in parts]
                assert kinds[0] == "routes" and parts[0]["points"] == sheet.route_points
                assert sum(x["points"] for x in parts) == p["score"] == sheet.total
                done = [t for t in sheet.tickets if t.completed]
                failed = [t for t in sheet.tickets if not t.completed]
                by_kind = {x["kind"]: x for x in parts}
                if done:
                    assert by_kind["tickets_done"] == {
                        "kind": "tickets_done",
                        "points": sum(t.points for t in done),
                        "count": len(done),
                    }
                if failed:
                    assert by_kind["tickets_failed"]["points"] == -sum(t.points for t in failed)
                    assert by_kind["tickets_failed"]["count"] == len(failed)
                assert ("tickets_done" in by_kind) == bool(done)
                assert ("tickets_failed" in by_kind) == bool(failed)
                scored = {k for k, v in sheet.bonuses.items() if v}
                assert set(kinds) - {"routes", "tickets_done", "tickets_failed"} == scored
        # Europe's bonus (the longest path's European Express) went to someone, in the reader's words
        assert any(x["kind"] == "european_express" for p in views[101]["players"] for x in p["breakdown"])
        assert views[102]["texts"]["bonus.european_express"] == default_catalog().text(
            "bonus.european_express", "fr"
        )
        assert views[102]["texts"]["final.routes"] == "Routes : {points}"


def test_every_bonus_of_every_board_has_a_kind_of_the_contract_and_words_in_every_language() -> None:
    names = set()
    for path in MAPS.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    if key.endswith("_bonus") and isinstance(value, dict) and "name" in value:
                        names.add(value["name"])
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(data)
    import engine.features as features

    for module in Path(features.__file__).parent.glob("*.py"):
        for line in module.read_text(encoding="utf-8").splitlines():
            if line.startswith('NAME = "'):
                names.add(line.split('"')[1])
    names |= {"stations", "depots"}  # (the station and depot features score under these ids)
    assert names and names <= BONUS_KINDS, names - BONUS_KINDS
    catalog = default_catalog()
    for locale in catalog.locales:
        words = texts(locale)
        for key in SHEET_KEYS:
            assert words[key] and words[key] != key, (locale, key)
        for key in ("web.ui.part_done", "web.ui.part_failed", "web.ui.part_bonus"):
            assert "{points}" in words[key], (locale, key)
        # "n points" in every form the language needs (the page picks one with the same CLDR rules)
        from bot.i18n import plural_forms_needed

        for form in plural_forms_needed(locale) | {"one", "other"}:
            assert "{n}" in words[f"n.points.{form}"], (locale, form)
        assert "{items}" in words["list.and"] and "{player}" in words["web.ui.watching_waiting"]


def test_a_sheet_with_tickets_done_and_failed_and_a_lost_bonus_breaks_down_into_parts_that_add_up() -> None:
    from types import MappingProxyType

    from bot.web.view import breakdown
    from engine.sheets import FinalSheet, TicketResult

    sheet = FinalSheet(
        seat=1,
        name="bob",
        route_points=45,
        tickets=(
            TicketResult(1, "Paris", "Wien", 8, True),
            TicketResult(2, "Roma", "Riga", 21, False),
            TicketResult(3, "Kyiv", "Sofia", 12, True),
        ),
        ticket_points=-1,
        completed_tickets=2,
        longest_path=9,
        bonuses=MappingProxyType({"longest_path": 0, "bullet_trains": -3, "stations": 8}),
        total=49,
        rank=1,
    )
    assert breakdown(sheet) == [
        {"kind": "routes", "points": 45},
        {"kind": "tickets_done", "points": 20, "count": 2},
        {"kind": "tickets_failed", "points": -21, "count": 1},
        {"kind": "bullet_trains", "points": -3},
        {"kind": "stations", "points": 8},
    ]
    assert sum(p["points"] for p in breakdown(sheet)) == sheet.total
