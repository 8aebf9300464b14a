"""Moved to tests/helpers/fast_pictures.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.fast_pictures`)."""

from helpers.fast_pictures import *  # noqa: F403
