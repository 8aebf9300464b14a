"""What the Discord adapter needs from the game manager.

The cog turns a slash command or a button press into one call on a `GameService` and turns the returned
`Reply` into Discord messages. The service owns everything else: loading the game from storage, the per-game
lock, applying the engine action, persisting it and rendering images. It never touches discord.py objects;
replies are plain data, so the manager can be tested without Discord and the adapter without a database.

Every game method takes the place and person first: `guild_id` (None in a DM), `channel_id` (a thread's id
inside a thread), `user_id`. Methods that seat someone also get their display name (`user_name`); methods a
host may do get `moderator` (the caller may manage the server or its messages, so acts as host).
Text in replies is either a plain string, a `Text` (a message-catalogue key plus parameters, which may be
messages themselves) or a `Join` of messages, which the adapter translates (see `bot/i18n.py`): a private
reply into the person's language, a public message (turn messages, lobbies) into the server's. Game events
come from the manager in the same form, so a turn line is data until it is shown.

Conventions the flows should keep: hands and tickets are always ephemeral; every public turn message carries
a persistent "My hand" button (`ButtonSpec(game_id, "hand", ...)`) because an ephemeral message cannot be
edited once its 15-minute token expires, so a private hand is never updated in place but sent afresh; a
claim is confirmed by a button before it is applied.

Errors a person should read ("not your turn", "no such route") are either returned as an ephemeral `Reply` or
raised as `GameError`; the adapter shows both ephemerally. Any other exception is a bug: it is logged with
its traceback and the user gets a generic apology.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from bot.messages import Message, Text

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: Message
    value: Message
    inline: bool = True


@dataclass(frozen=True, slots=True)
class EmbedSpec:
    title: Message | None = None
    description: Message | None = None
    fields: tuple[FieldSpec, ...] = ()
    color: int | None = None
    footer: Message | None = None
    image: str | None = None  # a file name from Reply.files ("board.png"), or an https URL
    thumbnail: str | None = None


@dataclass(frozen=True, slots=True)
class FileSpec:
    filename: str  # "board.png"
    data: bytes
    description: str | None = None  # alt text
    spoiler: bool = False


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A persistent button; its custom id is `ttr:<game_id>:<action>[:<arg>]` (see bot/components.py)."""

    game_id: str
    action: str
    label: Message
    arg: str | None = None
    style: ButtonStyle = "secondary"
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class OptionSpec:
    label: Message
    value: str
    description: Message | None = None
    emoji: str | None = None
    default: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A persistent string select; its custom id is `ttr:<game_id>:<action>` and the choices go to `press`."""

    game_id: str
    action: str
    options: tuple[OptionSpec, ...]
    placeholder: Message | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False


ComponentSpec = ButtonSpec | SelectSpec


@dataclass(frozen=True, slots=True)
class Reply:
    """One message to show. `rows` are action rows of at most 5 buttons or 1 select.

    `ephemeral`: only the caller sees it (hands and tickets always are).
    `edit_source`: for a button press, replace the message carrying the button (a lobby updating its
    player list) instead of posting a new one.
    `also`: further messages sent after this one, in order (e.g. a private "claimed" plus a public
    announcement mentioning the next player).
    """

    content: Message | None = None
    embeds: tuple[EmbedSpec, ...] = ()
    files: tuple[FileSpec, ...] = ()
    rows: tuple[tuple[ComponentSpec, ...], ...] = ()
    ephemeral: bool = False
    edit_source: bool = False
    also: tuple[Reply, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One autocomplete suggestion: `name` is shown, `value` is sent back."""

    name: str
    value: str


class GameError(Exception):
    """A refusal a person should read, shown ephemerally ("It is not your turn.")."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.key if isinstance(message, Text) else str(message))
        self.message = message


@runtime_checkable
class Messenger(Protocol):
    """What the adapter gives the service for messages outside any interaction (turn reminders, deadlines).

    Both methods swallow Discord errors: they return None / False when the channel is gone, the bot lost
    access or the user refuses DMs, so the caller can react (e.g. pause the game) without try/except.
    """

    async def post(self, channel_id: int, reply: Reply, *, locale: str | None = None) -> int | None:
        """Send `reply` to a channel (ephemeral is ignored); the new message id, or None on failure."""

    async def direct(self, user_id: int, reply: Reply, *, locale: str | None = None) -> bool:
        """Send `reply` to a user by DM; False when it could not be delivered."""


@runtime_checkable
class GameService(Protocol):
    """The game manager as the Discord adapter sees it. All methods are coroutines."""

    async def start(self, messenger: Messenger) -> None:
        """Open storage and keep `messenger` for later announcements (called once from `setup_hook`)."""

    async def close(self) -> None:
        """Close storage and workers (called from `Bot.close`); must leave no open connection."""

    async def game_guild(self, game_id: str) -> int | None:
        """The server a game belongs to, or None when there is no such game (guards button custom ids)."""

    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        board_id: str,
        variant: str | None = None,
        options: Sequence[str] = (),
        max_players: int | None = None,
        user_name: str = "",
    ) -> Reply:
        """Open a lobby in this channel; the reply carries Join / Start buttons."""

    async def press(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str,
        action: str,
        arg: str | None = None,
        values: Sequence[str] = (),
        user_name: str = "",
        moderator: bool = False,
    ) -> Reply:
        """A button or select on a game message: join, start, hand, confirm claim, keep tickets, ...

        `arg` can carry a turn token so that a click on an old turn's button is refused as stale.
        """

    async def claim(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        route: str,
        color: str | None = None,
        game_id: str | None = None,
    ) -> Reply:
        """Ask to claim a route; the reply is an ephemeral confirmation with a Confirm button."""

    async def hand(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        """The caller's cards and tickets (ephemeral)."""

    async def board(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        """The board image and face-up cards."""

    async def status(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        """Whose turn, scores so far, trains and cards left."""

    async def log(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        limit: int = 10,
    ) -> Reply:
        """The last actions of the game."""

    async def settings(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        key: str | None = None,
        value: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        """Show (no key) or change a game setting, e.g. turn deadline or notifications."""

    async def games(
        self, guild_id: int | None, channel_id: int, user_id: int, *, scope: str = "channel"
    ) -> Reply:
        """Games in this channel, this server ("server") or the caller's own ("mine")."""

    async def stats(
        self, guild_id: int | None, channel_id: int, user_id: int, *, target_user_id: int | None = None
    ) -> Reply:
        """Finished-game statistics of a player (default: the caller)."""

    async def leave(
        self, guild_id: int | None, channel_id: int, user_id: int, *, game_id: str | None = None
    ) -> Reply:
        """The caller leaves a lobby, or resigns from a running game."""

    async def kick(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        target_user_id: int,
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        """The host (or a moderator) removes a player."""

    async def end(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        """The host (or a moderator) ends the game now."""

    async def replace(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        target_user_id: int,
        replacement_user_id: int,
        replacement_name: str = "",
        game_id: str | None = None,
        moderator: bool = False,
    ) -> Reply:
        """Hand a seat over to another person (host or moderator)."""

    async def complete(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        *,
        field: str,
        current: str,
        game_id: str | None = None,
    ) -> list[Choice]:
        """Autocomplete for game fields: "game", "route", "color", "setting". At most 25 choices."""
