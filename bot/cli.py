"""`ttr bot`: run the Discord bot (settings from the environment and `.env`)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any


def cmd_bot(args: argparse.Namespace) -> int:
    from bot.config import Settings
    from bot.discord.startup import run_bot

    settings = Settings.from_env()
    if args.database_url:
        settings = replace(settings, database_url=args.database_url)
    return run_bot(settings)


def register(sub: Any) -> None:
    p = sub.add_parser("bot", help="run the Discord bot (token from .env: DISCORD_TOKEN)")
    p.add_argument("--database-url", help="overrides DATABASE_URL (sqlite:///file.db or postgresql://...)")
    p.set_defaults(func=cmd_bot)
