"""`ttr bot`: run the Discord bot (settings from the environment and `.env`)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_bot(args: argparse.Namespace) -> int:
    from bot.discord.startup import run_bot

    return run_bot(database_url=args.database_url)


def register(sub: Any) -> None:
    p = sub.add_parser("bot", help="run the Discord bot (token from .env: DISCORD_TOKEN)")
    p.add_argument("--database-url", help="overrides DATABASE_URL (sqlite:///file.db or postgresql://...)")
    p.set_defaults(func=cmd_bot)
