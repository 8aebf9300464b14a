"""Cogs: one module per feature, each ending in an async `setup(bot)`; `replies` turns service replies into messages."""
