"""Moved to tests/helpers/manager_games.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.manager_games`)."""

from helpers.manager_games import *  # noqa: F403
