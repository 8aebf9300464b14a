"""Moved to tests/helpers/fake_discord.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.fake_discord`)."""

from helpers.fake_discord import *  # noqa: F403
