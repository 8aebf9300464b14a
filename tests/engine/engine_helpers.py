"""Moved to tests/helpers/engine_states.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.engine_states`)."""

from helpers.engine_states import *  # noqa: F403
