"""The presentation: games turned into replies (plain data, no discord import), on top of `bot.manager`.

`contract.py` is what the Discord adapter calls (`GameService`, `Caller`); `press.py` the typed presses;
`reply.py` what it gets back. `service.py` is the production service; the concerns it delegates to are one
module each: `lobby`, `menus`, `confirm`, `turn`, `final`, `hand`, `labels`, `codec`, `pictures`.
"""
