"""Shared test helpers, imported as ``helpers.<module>`` (``tests`` is on pytest's ``pythonpath``).

One module per kind of test world: engine positions, board data, render views, manager games, PostgreSQL
schemas, the kill-at-every-call harness, the in-memory game service, SimCord's environment and driver, fast
pictures, and the wire-level fake Discord.
"""
