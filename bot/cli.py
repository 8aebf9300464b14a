"""`ttr bot` (run the Discord bot, settings from the environment and `.env`), `ttr web` (the live map alone),
`ttr cluster-status`, and `ttr backup` / `ttr restore` (an SQLite bot's database, bot.ops.backup)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_bot(args: argparse.Namespace) -> int:
    from bot.launch import run_bot

    return run_bot(database_url=args.database_url, shard_ids=args.shard_ids, shard_count=args.shard_count)


def cmd_web(args: argparse.Namespace) -> int:
    import functools

    from bot.config import Settings, SettingsError
    from bot.discord.startup import setup_logging
    from bot.wiring import run_web

    try:  # LOG_FORMAT (a wrong setting: plain lines, and run_web says what is wrong)
        log_format = Settings.from_env().log_format
    except SettingsError:
        log_format = "text"
    return run_web(functools.partial(setup_logging, log_format=log_format), database_url=args.database_url)


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
        if args.json:
            import json

            print(json.dumps(asyncio.run(cluster_status_data(url, seen_within=args.seen_within)), indent=2))
        else:
            print(asyncio.run(cluster_status_text(url, seen_within=args.seen_within)))
    except StorageError as exc:
        print(f"cannot read the database: {exc}")
        return 2
    return 0


def _url(args: argparse.Namespace) -> str | None:
    """DATABASE_URL (``--database-url`` wins), or None after saying what is wrong with the settings."""
    import sys

    from bot.config import Settings, SettingsError

    if args.database_url:
        return str(args.database_url)
    try:
        return Settings.from_env().database_url
    except SettingsError as exc:
        print(f"configuration problem: {exc}", file=sys.stderr)
        return None


def cmd_backup(args: argparse.Namespace) -> int:
    import sys

    from bot.ops.backup import BackupError, backup

    url = _url(args)
    if url is None:
        return 2
    try:
        copied = backup(url, args.file)
    except BackupError as exc:
        print(f"no backup: {exc}", file=sys.stderr)
        return 2
    print(f"{copied.path}: {copied.games} games, {copied.bytes} bytes, in {copied.seconds:.2f} s")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    import sys

    from bot.ops.backup import BackupError, restore

    url = _url(args)
    if url is None:
        return 2
    try:
        copied = restore(args.file, url)
    except BackupError as exc:
        print(f"not restored: {exc}", file=sys.stderr)
        return 2
    print(f"{copied.path}: restored from {args.file}, {copied.games} games, in {copied.seconds:.2f} s")
    return 0


async def _read_cluster(url: str, seen_within: float) -> tuple[Any, Any, list[str], bool]:
    """The cluster's status, the time it was read, each process's state (``up``, ``late`` or ``gone``:
    :func:`bot.manager.cluster.liveness`; on SQLite, up while it holds the file's lock) and whether the database
    is a SQLite file."""
    from datetime import UTC, datetime

    from bot.manager.cluster import liveness
    from bot.storage import open_repository, parse_database_url
    from bot.storage.file_lock import lock_holder

    parsed = parse_database_url(url)
    on_file = parsed.backend == "sqlite" and not parsed.in_memory
    async with open_repository(url) as repo:
        # (on SQLite a process writes its row once, at start: every row is listed, its lock says if it runs)
        status = await repo.cluster_status(seen_within=1e9 if on_file else seen_within)
    now = datetime.now(UTC)
    holder = lock_holder(parsed.path) if on_file else None
    states = [
        ("up" if holder == p.pid else "gone") if on_file else liveness(p.last_seen, now)
        for p in status.processes
    ]
    return status, now, states, on_file


async def cluster_status_data(url: str, *, seen_within: float = 60.0) -> dict[str, Any]:
    """What `ttr cluster-status --json` prints: the same figures as the text, as data (times in UTC, ISO 8601)."""
    status, now, states, _on_file = await _read_cluster(url, seen_within)
    return {
        "now": now.isoformat(),
        "processes": [
            {
                "process_id": p.process_id,
                "host": p.host,
                "pid": p.pid,
                "state": state,
                "shard_ids": p.shard_ids,
                "shard_count": p.shard_count,
                "started_at": p.started_at.isoformat(),
                "last_seen": p.last_seen.isoformat(),
            }
            for p, state in zip(status.processes, states, strict=True)
        ],
        "games": dict(sorted(status.games_by_status.items())),
        "timer_rows": {
            "due": status.timers_due,
            "claimed": status.timers_claimed,
            "later": status.timers_later,
            "next_servable": None if status.next_due is None else status.next_due.isoformat(),
        },
    }


async def cluster_status_text(url: str, *, seen_within: float = 60.0) -> str:
    """What `ttr cluster-status` prints: processes seen recently and their state, games by status, timer rows."""
    status, now, states, on_file = await _read_cluster(url, seen_within)
    shown = "on this SQLite file" if on_file else f"seen in the last {seen_within:.0f} s"
    lines = [f"processes {shown}: {len(status.processes)}"]
    for p, state in zip(status.processes, states, strict=True):
        count = "" if p.shard_count is None or p.shard_ids == "all" else f" of {p.shard_count}"
        lines.append(
            f"  {state:<4}  {p.process_id}  shards {p.shard_ids}{count}  up {(now - p.started_at).total_seconds():.0f} s"
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
    s.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    s.set_defaults(func=cmd_cluster_status)
    b = sub.add_parser(
        "backup",
        help="a consistent copy of the SQLite database, the bot running or not (PostgreSQL: pg_dump)",
    )
    b.add_argument("file", help="the backup file to write (replaced atomically when it exists)")
    b.add_argument("--database-url", help="overrides DATABASE_URL (sqlite:///file.db)")
    b.set_defaults(func=cmd_backup)
    r = sub.add_parser(
        "restore", help="put a backup in place of the SQLite database (refused while a bot runs on it)"
    )
    r.add_argument("file", help="the backup file (made by ttr backup)")
    r.add_argument("--database-url", help="overrides DATABASE_URL (sqlite:///file.db)")
    r.set_defaults(func=cmd_restore)
