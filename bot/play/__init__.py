"""The presentation: games turned into replies (plain data, no discord import), on top of `bot.manager`.

`contract.py` is what the Discord adapter calls (`GameService`, `Caller`), `press.py` the typed presses and
what each asks for, `reply.py` what the adapter gets back. `service.py` is the production service, a facade;
what its replies look like is one module per concern: `lobby`, `menus`, `confirm`, `turn`, `final`, `hand`,
`overview`; with `labels` (words for actions, payments, routes; each action's own words are its feature's
presenter's, `bot.presenters`), `codec` (actions <-> short codes),
`pictures`, `layout` (rows and paged selects), `seats`, `refusals`, and `chat` (Discord's mention syntax and
sizes, the one place they are spelled).
"""
