"""Cogs: one module per feature, each ending in an async `setup(bot)`; loaded by name (`INITIAL_EXTENSIONS`)."""
