"""Moved to tests/helpers/simcord_driver.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.simcord_driver`)."""

from helpers.simcord_driver import *  # noqa: F403
