"""`ttr bot` in its own process, with discord.py pointed at a wire-level fake Discord (tests/helpers/fake_discord.py)
served by the test: ``TTR_FAKE_DISCORD=http://127.0.0.1:PORT python tests/bot/gateway_bot.py``. Settings come
from the environment, as for `ttr bot`; the exit status is `ttr bot`'s."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's code, not an installed copy

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from engine.cli import main  # noqa: E402

if __name__ == "__main__":
    fake = yarl.URL(os.environ["TTR_FAKE_DISCORD"])
    discord.http.Route.BASE = str(fake.with_path("/api/v10"))
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = fake.with_path("/gateway").with_scheme("ws")
    sys.exit(main(["bot"]))
