"""Moved to tests/helpers/boards.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.boards`)."""

from helpers.boards import *  # noqa: F403
