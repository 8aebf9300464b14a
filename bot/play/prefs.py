"""`/ttr prefs`: a player's own preferences, shown or changed: how they are told of their turn and whether a claim
asks for confirmation (in this server), and their time (in every server: time zone, quiet hours, ping delay,
heads-up, away mode; bot.manager.player_time; the daily digest, bot.manager.digests). Refusals of the manager pass through (the caller words them)."""

from __future__ import annotations

from bot.manager import GameManager
from bot.messages import Text
from bot.play import social
from bot.play.reply import GameError, Reply


async def player_prefs(
    manager: GameManager,
    user_id: int,
    guild_id: int | None,
    *,
    notify: str | None = None,
    confirm_claims: bool | None = None,
    time_zone: str | None = None,
    quiet_hours: str | None = None,
    ping_delay: int | None = None,
    heads_up: bool | None = None,
    away_until: str | None = None,
    digest: str | None = None,
) -> Reply:
    """The player's preferences after the changes given (none: just shown), privately."""
    here = notify is not None or confirm_claims is not None
    if here and guild_id is None:  # a server's own prefs: in a direct message they would apply nowhere
        raise GameError(Text("errors.guild_only"))
    timed = (time_zone, quiet_hours, ping_delay, heads_up, away_until, digest)
    if here:
        await manager.set_player_prefs(user_id, guild_id, notify=notify, confirm_claims=confirm_claims)
    if any(v is not None for v in timed):
        await manager.set_player_time(
            user_id,
            time_zone=time_zone,
            quiet_hours=quiet_hours,
            ping_delay=ping_delay,
            heads_up=heads_up,
            away_until=away_until,
        )
    if digest is not None:
        await manager.set_daily_digest(user_id, digest)
    now = await manager.player_prefs(user_id, guild_id)
    times = await manager.player_time(user_id)
    daily = await manager.daily_digest(user_id)
    return social.prefs_reply(now, here or any(v is not None for v in timed), times, daily)
