"""What the Discord adapter asks of the presentation (`GameService`), and what it gives back (`Messenger`).

The cog turns a slash command or a press into one call on a `GameService` and turns the returned `Reply`
(`bot/play/reply.py`) into Discord messages. The service owns everything else: the game manager (loading,
the per-game lock, applying the engine action, persisting it) and the pictures. It never touches discord.py
objects; replies are plain data, so the presentation can be tested without Discord and the adapter without a
database.

Every game method takes a `Caller` first: who asks, where, and whether they may act as host. Text in replies
is a `bot.messages.Message`, which the adapter translates (see `bot/i18n.py`): a private reply into the
person's language, a public message (turn messages, lobbies) into the server's. Game events come from the
manager in the same form, so a turn line is data until it is shown.

Conventions the flows keep: hands and tickets are always ephemeral; every public turn message carries a
persistent "My hand" button because an ephemeral message cannot be edited once its 15-minute token expires,
so a private hand is never updated in place but sent afresh; a claim is confirmed by a button before it is
applied.

Errors a person should read ("not your turn", "no such route") are either returned as an ephemeral `Reply` or
raised as `GameError`; the adapter shows both ephemerally. Any other exception is a bug: it is logged with
its traceback and the user gets a generic apology.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.play.press import Press
from bot.play.reply import Choice, Reply


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks and where: `guild_id` (None in a DM), `channel_id` (a thread's id inside a thread), `user_id`,
    their display name, and `moderator` (may manage the server or its messages, so acts as any game's host).
    `locale` is the caller's own language (private replies), `public_locale` the server's (public messages);
    None where unknown (the bot's default then)."""

    guild_id: int | None
    channel_id: int
    user_id: int
    name: str = ""
    moderator: bool = False
    locale: str | None = None
    public_locale: str | None = None

    @property
    def display_name(self) -> str:
        return self.name or str(self.user_id)


@runtime_checkable
class Messenger(Protocol):
    """What the adapter gives the service for messages outside any interaction (turn reminders, deadlines).

    Both methods swallow Discord errors: they return None / False when the channel is gone, the bot lost
    access or the user refuses DMs, so the caller can react (e.g. pause the game) without try/except.
    """

    async def post(self, channel_id: int, reply: Reply, *, locale: str | None = None) -> int | None:
        """Send `reply` to a channel (ephemeral is ignored); the new message id, or None on failure."""

    async def edit_rows(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        """Replace the buttons of a message the bot posted by `reply.rows` (no rows: none left); its text
        and pictures stay. False when it could not be edited (gone, no access)."""

    async def edit(self, channel_id: int, message_id: int, reply: Reply) -> bool:
        """Replace the text, embeds and buttons of a message the bot posted by `reply`'s (its pictures stay).
        False when it could not be edited (gone, no access)."""

    async def close_thread(self, channel_id: int) -> bool:
        """Archive `channel_id` when it is a thread the bot created (a game's own thread); False when it is
        not one, or could not be archived. A channel, or a thread someone else opened, is left as it is."""

    def public_locale(self, channel_id: int) -> str:
        """The language public messages in that channel are written in (its server's, else the default)."""

    async def direct(self, user_id: int, reply: Reply, *, locale: str | None = None) -> bool:
        """Send `reply` to a user by DM; False when it could not be delivered."""


@runtime_checkable
class GameService(Protocol):
    """The games as the Discord adapter sees them. All methods are coroutines."""

    async def start(self, messenger: Messenger) -> None:
        """Keep `messenger` for later announcements and start serving the timers (called once from
        `setup_hook`; the composition root, bot.wiring, has opened the storage)."""

    async def join_cluster(self, *, shard_ids: str, shard_count: int | None) -> None:
        """Write this process's heartbeat row: its shards as an operator reads them ("all", "0-3"), and their
        count (None until Discord told it); called again once Discord chose the count."""

    async def finish_posts(self, timeout: float) -> bool:
        """A clean stop (called from `Bot.close` before Discord is closed): the messages owed as rows that are in
        flight are posted and recorded within `timeout` s, none starts any more; whether they all were."""

    async def close(self) -> None:
        """Stop the service's own work (called from `Bot.close`; the composition root then closes the manager,
        the pictures and the storage); may be called twice."""

    async def new_game(
        self,
        caller: Caller,
        *,
        board_id: str,
        variant: str | None = None,
        options: Sequence[str] = (),
        max_players: int | None = None,
    ) -> Reply:
        """Open a lobby in the caller's channel; the reply carries Join / Start buttons."""

    async def server_language(
        self, caller: Caller, *, value: str | None, admin: bool, unchosen: str
    ) -> Reply:
        """The language of the caller's server's public messages, privately; `value` (a language, or "auto":
        Discord's again) changes it when `admin` (Manage Server), else is refused. `unchosen`: the language the
        server's public messages take without a choice of its own."""

    async def press(self, caller: Caller, press: Press) -> Reply:
        """A button or select on a game message: join, start, hand, confirm claim, keep tickets, ...

        A press naming a game that does not exist (``button.game_gone``) or belongs to another server
        (``button.other_server``) is refused, and one whose turn token belongs to an earlier moment of the game
        as stale."""

    async def claim(
        self, caller: Caller, *, route: str, color: str | None = None, game_id: str | None = None
    ) -> Reply:
        """Ask to claim a route; the reply is an ephemeral confirmation with a Confirm button."""

    async def hand(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """The caller's cards and tickets (ephemeral)."""

    async def board(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """The board image and face-up cards."""

    async def map(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """The live map of the game: opens the Activity (`Reply.activity`), else the caller's personal link."""

    async def status(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """Whose turn, scores so far, trains and cards left."""

    async def log(self, caller: Caller, *, game_id: str | None = None, limit: int = 10) -> Reply:
        """The last actions of the game."""

    async def settings(
        self, caller: Caller, *, game_id: str | None = None, key: str | None = None, value: str | None = None
    ) -> Reply:
        """Show (no key) or change a game setting, e.g. turn deadline or notifications."""

    async def games(self, caller: Caller, *, scope: str = "channel") -> Reply:
        """Games in this channel, this server ("server") or the caller's own in every server ("mine"; in a DM,
        always)."""

    async def stats(self, caller: Caller, *, target_user_id: int | None = None) -> Reply:
        """Finished-game statistics and the rating of a player (default: the caller) in this server."""

    async def leaderboard(self, caller: Caller, *, board_id: str | None = None) -> Reply:
        """The server's best ratings, over every board or on one board."""

    async def export(self, caller: Caller, *, fmt: str = "jsonl", admin: bool = False) -> Reply:
        """The server's finished games as a file ("jsonl" or "csv"), for a member who manages it (`admin`)."""

    async def prefs(
        self,
        caller: Caller,
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
        """The caller's own preferences, privately: in this server (turn notifications, claim confirmation) and
        in every server (time zone, quiet hours, ping delay in minutes, heads-up, away until a date, the daily
        digest by direct message: on, off or a time of their day)."""

    async def leave(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """The caller leaves a lobby, or resigns from a running game."""

    async def kick(self, caller: Caller, *, target_user_id: int, game_id: str | None = None) -> Reply:
        """The host (or a moderator) removes a player."""

    async def end(self, caller: Caller, *, game_id: str | None = None) -> Reply:
        """The host (or a moderator) ends the game now."""

    async def replace(
        self,
        caller: Caller,
        *,
        target_user_id: int,
        replacement_user_id: int,
        replacement_name: str = "",
        game_id: str | None = None,
    ) -> Reply:
        """Hand a seat over to another person (host or moderator)."""

    async def complete(
        self, caller: Caller, *, field: str, current: str, game_id: str | None = None
    ) -> list[Choice]:
        """Autocomplete for game fields: "game", "route", "setting". At most 25 choices."""
