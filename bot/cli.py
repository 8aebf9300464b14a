"""`ttr bot` (run the Discord bot, settings from the environment and `.env`), `ttr web` (the live map alone)
and `ttr cluster-status`."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_bot(args: argparse.Namespace) -> int:
    from bot.discord.startup import run_bot

    return run_bot(database_url=args.database_url, shard_ids=args.shard_ids, shard_count=args.shard_count)


def cmd_web(args: argparse.Namespace) -> int:
    from bot.discord.startup import setup_logging
    from bot.web.alone import run_web

    return run_web(setup_logging, database_url=args.database_url)


def cmd_cluster_status(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import Settings, SettingsError
    from bot.storage import StorageError

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"configuration problem: {exc}")
        return 2
    url = args.database_url or settings.database_url
    try:
        print(asyncio.run(cluster_status_text(url, seen_within=args.seen_within)))
    except StorageError as exc:
        print(f"cannot read the database: {exc}")
        return 2
    return 0


async def cluster_status_text(url: str, *, seen_within: float = 60.0) -> str:
    """What `ttr cluster-status` prints: processes seen recently, games by status, timer rows."""
    from datetime import UTC, datetime

    from bot.storage import open_repository

    async with open_repository(url) as repo:
        status = await repo.cluster_status(seen_within=seen_within)
    now = datetime.now(UTC)
    lines = [f"processes seen in the last {seen_within:.0f} s: {len(status.processes)}"]
    for p in status.processes:
        count = "" if p.shard_count is None or p.shard_ids == "all" else f" of {p.shard_count}"
        lines.append(
            f"  {p.process_id}  shards {p.shard_ids}{count}  up {(now - p.started_at).total_seconds():.0f} s"
            f"  last seen {(now - p.last_seen).total_seconds():.1f} s ago"
        )
    games = ", ".join(f"{n} {status}" for status, n in sorted(status.games_by_status.items())) or "none"
    lines.append(f"games: {games}")
    nxt = "none" if status.next_due is None else f"{(status.next_due - now).total_seconds():.0f} s"
    lines.append(
        f"timer rows: {status.timers_due} due and free, {status.timers_claimed} claimed (lease running), "
        f"{status.timers_later} later; next servable in {nxt}"
    )
    return "\n".join(lines)


def register(sub: Any) -> None:
    p = sub.add_parser("bot", help="run the Discord bot (token from .env: DISCORD_TOKEN)")
    p.add_argument("--database-url", help="overrides DATABASE_URL (sqlite:///file.db or postgresql://...)")
    p.add_argument(
        "--shard-ids", help="overrides SHARD_IDS: the Discord shards this process runs (0-3, 0,2,4)"
    )
    p.add_argument(
        "--shard-count", help="overrides SHARD_COUNT: how many shards in all, across every process"
    )
    p.set_defaults(func=cmd_bot)
    w = sub.add_parser(
        "web", help="run the live map's web server alone (WEB_PORT, PUBLIC_URL, WEB_SECRET; PostgreSQL)"
    )
    w.add_argument("--database-url", help="overrides DATABASE_URL (postgresql://...)")
    w.set_defaults(func=cmd_web)
    s = sub.add_parser(
        "cluster-status",
        help="the bot processes seen recently, their shards, the games in play and the due work",
    )
    s.add_argument("--database-url", help="overrides DATABASE_URL")
    s.add_argument(
        "--seen-within", type=float, default=60.0, help="seconds: a process seen since then is listed"
    )
    s.set_defaults(func=cmd_cluster_status)
