"""Moved to tests/helpers/render_states.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.render_states`)."""

from helpers.render_states import *  # noqa: F403
