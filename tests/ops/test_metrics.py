"""The metrics as Prometheus scrapes them (``/metrics`` on METRICS_PORT): a game's moves, the games by status, the
timer queue's lateness; no player, id or secret in any label."""

from __future__ import annotations

import contextlib
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from helpers.manager_games import HUMANS, play_random, started_game
from ops_net import get
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Settings
from bot.ops.metrics import Metrics
from bot.ops.operations import Operations
from bot.ops.watch import database_sampler, watch_repository
from bot.storage import open_repository


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(text: str, name: str) -> float:
    return sum(v for (n, _labels), v in samples(text).items() if n == name)


async def test_a_games_moves_show_in_the_scraped_metrics(wired, settings) -> None:
    _wiring, service = wired
    manager = service.games_manager
    status, before = await get(settings.metrics_port, "/metrics")
    assert status == 200 and total(before, "ttr_moves_total") == 0
    game_id, _ = await started_game(manager, humans=3)
    played = await play_random(manager, game_id, random.Random(4), moves=12)
    assert played == 12

    _status, text = await get(settings.metrics_port, "/metrics")
    assert total(text, "ttr_moves_total") == 12
    kinds = {dict(labels)["kind"] for (n, labels), v in samples(text).items() if n == "ttr_moves_total" and v}
    assert kinds and all(re.fullmatch(r"[a-z_]+", k) for k in kinds)
    assert samples(text)[("ttr_games", (("status", "active"),))] == 1
    assert ("ttr_timer_rows", (("state", "later"),)) in samples(text)  # the game's turn timer rows, read


async def test_no_player_id_or_secret_in_any_label(wired, settings) -> None:
    _wiring, service = wired
    manager = service.games_manager
    game_id, _ = await started_game(manager, humans=2, channel=987654321012345678)
    await play_random(manager, game_id, random.Random(1), moves=6)
    with contextlib.suppress(Exception):  # a storage error counted by its class, not its message (its id)
        await manager.status("nosuchgame1")
    _status, text = await get(settings.metrics_port, "/metrics")
    secrets = [game_id, "987654321012345678", settings.discord_token, str(Path(settings.database_url[10:]))]
    people = [name for _id, name in HUMANS] + [str(uid) for uid, _name in HUMANS]
    labels = {value for (_n, pairs) in samples(text) for _k, value in pairs}
    for value in labels:
        assert re.fullmatch(r"[A-Za-z0-9_.+{}/@-]*|\+Inf", value), value
        assert not any(secret in value for secret in secrets + people), value
    assert not any(secret in text for secret in secrets)
    assert 'error="GameNotFound"' in text


async def test_a_late_timer_row_raises_the_lateness_figure(tmp_path: Path) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    metrics = Metrics()
    async with open_repository(f"sqlite:///{tmp_path / 'g.db'}", clock=lambda: now) as repo:
        watch_repository(repo, metrics)
        metrics.samplers.append(database_sampler(repo, now=lambda: now))
        game = await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="usa")
        await repo.add_timer(game.id, "remind", now + timedelta(minutes=5))
        await metrics.scrape()
        assert metrics.value("ttr_timer_oldest_overdue_seconds") == 0
        assert metrics.value("ttr_timer_rows", state="later") == 1

        await repo.add_timer(game.id, "remind", now - timedelta(seconds=90))
        await metrics.scrape()
        assert metrics.value("ttr_timer_oldest_overdue_seconds") == 90
        assert metrics.value("ttr_timer_rows", state="due") == 1


async def test_storage_errors_are_counted_by_class(tmp_path: Path) -> None:
    metrics = Metrics()
    async with open_repository(f"sqlite:///{tmp_path / 'g.db'}") as repo:
        watch_repository(repo, metrics)
        try:
            await repo.load_game("nosuchgame")
        except Exception as exc:  # noqa: BLE001
            assert type(exc).__name__ == "GameNotFound"
    assert metrics.value("ttr_storage_errors_total", error="GameNotFound") == 1


async def test_each_stored_move_is_counted_by_its_kind_however_its_arguments_are_passed(
    tmp_path: Path,
) -> None:
    metrics = Metrics()
    async with open_repository(f"sqlite:///{tmp_path / 'g.db'}") as repo:
        watch_repository(repo, metrics)
        game = await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="usa")
        await repo.append_action(game.id, game.version, 0, {"type": "draw_blind"}, None)
        await repo.append_action(
            game_id=game.id,
            expected_version=game.version + 1,
            seat=1,
            action={"type": "claim_route", "route": 3},
            new_snapshot=None,
        )
        with contextlib.suppress(Exception):  # a stale version: refused, an error and no move
            await repo.append_action(game.id, game.version, 0, {"type": "draw_blind"}, None)
    assert metrics.value("ttr_moves_total", kind="draw_blind") == 1
    assert metrics.value("ttr_moves_total", kind="claim_route") == 1
    assert metrics.value("ttr_storage_errors_total", error="VersionConflict") == 1


async def test_health_answers_and_readiness_names_its_checks(wired, settings) -> None:
    status, body = await get(settings.metrics_port, "/healthz")
    assert status == 200 and "ok" in body
    status, body = await get(settings.metrics_port, "/readyz")
    assert status == 200 and '"database": true' in body  # (no gateway check: no Discord bot in this test)


async def test_a_metrics_port_in_use_is_refused_as_a_setting(settings) -> None:
    from bot.config import SettingsError
    from bot.launch import explain_startup_error
    from bot.ops.endpoints import OpsServer, Readiness

    first = OpsServer(Metrics(), Readiness(), settings.metrics_port, host="127.0.0.1")
    await first.start()
    try:
        second = OpsServer(Metrics(), Readiness(), settings.metrics_port, host="127.0.0.1")
        try:
            await second.start()
        except SettingsError as exc:
            line = explain_startup_error(exc)
            assert line is not None and line.startswith(
                f"METRICS_PORT {settings.metrics_port}: cannot listen"
            )
        else:
            raise AssertionError("a second server on the same port started")
    finally:
        await first.stop()


async def test_without_a_metrics_port_the_live_maps_server_serves_them(tmp_path: Path) -> None:
    from helpers.fast_pictures import FastPictures
    from ops_net import free_port

    from bot.config import Settings
    from bot.wiring import Wiring

    port = free_port()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'g.db'}",
        web_port=port,
        public_url="https://ttr.example.org",
        web_secret="s" * 40,
    )
    wiring = Wiring(settings, pictures=FastPictures())
    async with wiring:
        assert wiring.live_map is not None and wiring.ops is not None and wiring.ops.server is None
        await wiring.live_map.start()
        try:
            status, text = await get(port, "/metrics")
            assert status == 200 and "ttr_map_pages_open 0.0" in text
            assert (await get(port, "/readyz"))[0] == 200
            assert (await get(port, "/healthz"))[0] == 200
        finally:
            await wiring.live_map.stop()


async def test_a_row_whose_claim_lapsed_counts_as_taken_over(tmp_path: Path) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    metrics = Metrics()
    async with open_repository(f"sqlite:///{tmp_path / 'g.db'}", clock=lambda: now) as repo:
        watch_repository(repo, metrics)
        game = await repo.create_game(guild_id=1, channel_id=2, host_id=3, board="usa")
        await repo.add_timer(game.id, "remind", now - timedelta(seconds=5))
        claimed = await repo.claim_due_timers("dead-process", now, lease=30.0)
        assert len(claimed) == 1 and metrics.value("ttr_timer_rows_claimed_late_total") == 0  # served in time

        later = now + timedelta(
            seconds=31
        )  # the first process died: its lease ran out, another takes the row
        taken = await repo.claim_due_timers("live-process", later, lease=30.0)
        assert [t.id for t in taken] == [claimed[0].id]
        assert metrics.value("ttr_timer_rows_claimed_late_total") == 1


async def test_readiness_asks_the_bots_own_tables_and_fails_once_the_database_is_gone(tmp_path: Path) -> None:
    ops = Operations(Settings(database_url=f"sqlite:///{tmp_path / 'g.db'}"))
    async with open_repository(f"sqlite:///{tmp_path / 'g.db'}") as repo:
        asked: list[str] = []
        real = repo.next_timer_due

        async def next_timer_due() -> object:
            asked.append("timers")
            return await real()

        repo.next_timer_due = next_timer_due  # type: ignore[method-assign]
        ops.watch_repository(repo)
        assert await ops.readiness.failing() == [] and asked == ["timers"]  # a real query, no made-up game
        async with repo._write("drop the timers") as tx:  # a database that answers, without the bot's tables
            await tx.execute("DROP TABLE timers")
        assert await ops.readiness.failing() == ["database"]
