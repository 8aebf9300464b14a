"""Running the bot as a service: metrics, health checks, JSON logs and backups.

Beside the composition root (bot.wiring), which builds the parts, this package watches them through the hooks
they already offer (the manager's change listeners, the repository's methods, the render pool's own counters,
discord.py's HTTP trace and its ``on_interaction`` event, logging): no part below knows it. The modules the
Discord adapter uses (metrics, discord_watch, logs) import no storage; ``backup`` (the command line's) does.
"""
