"""Moved to tests/helpers/pg_schema.py: this name stays importable for tests written before the move
(TO BE REMOVED once every branch imports `helpers.pg_schema`)."""

from helpers.pg_schema import *  # noqa: F403
