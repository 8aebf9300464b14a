"""Moved to tests/helpers/bot_fakes.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.bot_fakes`)."""

from helpers.bot_fakes import *  # noqa: F403
