"""Moved to tests/helpers/simcord_env.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.simcord_env`)."""

from helpers.simcord_env import *  # noqa: F403
