"""The `/ttr` command group.

Every command shows a `Reply` built in `bot/play`: `/ttr maps` and `/ttr rules` from board data alone
(`board_list`, `rules_page`), each game command by one `GameService` method call, after validating its arguments:
the rules, storage and locking live behind that interface.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.checks import caller, is_admin
from bot.discord.language import (
    catalog_of,
    default_locale_of,
    interaction_locale,
    public_locale,
    tr,
    unchosen_locale,
)
from bot.discord.replies import answer, send_reply
from bot.messages import Text, board_name
from bot.play import chat
from bot.play.board_list import board_list
from bot.play.boards import (
    boards,
    find_board,
    find_variant,
    is_provisional,
    names_of_board,
    names_of_variant,
)
from bot.play.contract import GameService
from bot.play.reply import GameError, Reply
from bot.play.rules_page import rules_page
from bot.play.server_language import AUTOMATIC, language_choices
from bot.play.social import time_zone_choices
from bot.rules_text import topic_ids, topics
from maps.board import COLORS, Board, normalize_name

if TYPE_CHECKING:
    from bot.discord.app import TTRBot

log = logging.getLogger(__name__)

MAX_CHOICES = 25


def _public_text(interaction: discord.Interaction, key: str, /, **params: Any) -> str:
    """The text of `key` in the language of what everyone in the place reads (the server's)."""
    return catalog_of(interaction).text(
        key, public_locale(interaction, default_locale_of(interaction)), **params
    )


def _matches(current: str, *names: str) -> bool:
    needle = normalize_name(current)
    return not needle or any(needle in normalize_name(n) for n in names)


class BoardTransformer(app_commands.Transformer):
    """`map:` option: typed text -> Board, with autocomplete over board names, shown in the caller's language
    (the value sent back is the board's id)."""

    async def transform(self, interaction: discord.Interaction, value: str, /) -> Board:
        return find_board(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        choices = []
        for board in boards():
            shown = tr(interaction, f"board.{board.id}")
            if _matches(value, shown, *names_of_board(board)):
                label = shown + (" ⚠" if is_provisional(board) else "")
                choices.append(app_commands.Choice(name=label[:100], value=board.id))
        return choices[:MAX_CHOICES]


async def variant_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Variants of the board chosen in the `map` option (all boards' variants if none yet), named in the
    caller's language."""
    chosen = getattr(interaction.namespace, "map", None)
    shown = boards()
    if isinstance(chosen, str) and chosen:
        with contextlib.suppress(GameError):
            shown = [find_board(chosen)]
    choices = []
    for board in shown:
        for vid in board.variants:
            name = tr(interaction, f"variant.{board.id}.{vid}")
            if _matches(current, name, *names_of_variant(board, vid)):
                label = name if len(shown) == 1 else f"{tr(interaction, f'board.{board.id}')}: {name}"
                choices.append(app_commands.Choice(name=label[:100], value=vid))
    return choices[:MAX_CHOICES]


async def topic_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    chosen = getattr(interaction.namespace, "map", None)
    try:
        board = find_board(chosen) if isinstance(chosen, str) and chosen else None
    except GameError:
        board = None
    if board is None:
        items = [(t, t) for t in topic_ids()]
    else:
        items = [(t.id, t.title) for t in topics(board, str(interaction.locale))]
    return [
        app_commands.Choice(name=title, value=tid) for tid, title in items if _matches(current, tid, title)
    ][:MAX_CHOICES]


def _service_completer(field: str):  # noqa: ANN202 - returns a discord.py autocomplete callback
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        bot: TTRBot = interaction.client  # type: ignore[assignment]
        game_id = getattr(interaction.namespace, "game", None)
        try:
            found = await bot.service.complete(
                caller(interaction),
                field=field,
                current=current,
                game_id=game_id if isinstance(game_id, str) and game_id else None,
            )
        except Exception:  # noqa: BLE001 - autocomplete failures must not bubble up
            log.exception("autocomplete %s failed", field)
            found = []
        catalog, locale = (
            catalog_of(interaction),
            interaction_locale(interaction, default_locale_of(interaction)),
        )
        return [
            app_commands.Choice(name=(catalog.render(c.name, locale) or c.value)[:100], value=c.value[:100])
            for c in found
        ][:MAX_CHOICES]

    return complete


async def time_zone_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """IANA time zone names (``Europe/Paris``): the names are the same in every language."""
    return [app_commands.Choice(name=z, value=z) for z in time_zone_choices(current, MAX_CHOICES)]


async def language_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The languages a server may choose, each named in itself (Deutsch, 日本語), then Discord's own."""
    return [
        app_commands.Choice(name=tr(interaction, "server_language.auto") if v == AUTOMATIC else name, value=v)
        for v, name in language_choices(current)
    ][:MAX_CHOICES]


async def color_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c, value=c) for c in (*COLORS, "locomotive") if _matches(current, c)]


game_autocomplete = _service_completer("game")
route_autocomplete = _service_completer("route")
setting_autocomplete = _service_completer("setting")

GAME_DESCRIBE = "Which game (default: the game in this channel)"


#: what a member may ask in their direct messages with the bot (the rest needs a server: "errors.guild_only")
IN_DIRECT_MESSAGES = frozenset({"games", "stats", "prefs", "maps", "rules"})


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class TTRCog(commands.GroupCog, group_name="ttr", group_description="Play Ticket to Ride"):
    """Ticket to Ride, played asynchronously in a channel."""

    def __init__(self, bot: TTRBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        command = interaction.command
        if interaction.guild_id is None and (command is None or command.name not in IN_DIRECT_MESSAGES):
            raise app_commands.NoPrivateMessage()
        return True

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ------------------------------------------------------------ board data

    @app_commands.command(name="maps", description="List the boards and their variants")
    @app_commands.describe(share="Show the answer to the whole channel")
    async def maps(self, interaction: discord.Interaction, share: bool = False) -> None:
        await send_reply(interaction, board_list(share=share))

    @app_commands.command(name="rules", description="Short rules of a board")
    @app_commands.describe(
        topic="Which part of the rules (default: a list of topics)",
        map="Which board (default: the first board)",
        variant="Ticket variant (default: the board's usual one)",
        share="Show the answer to the whole channel",
    )
    @app_commands.autocomplete(topic=topic_autocomplete, variant=variant_autocomplete)
    async def rules(
        self,
        interaction: discord.Interaction,
        topic: str | None = None,
        map: app_commands.Transform[Board, BoardTransformer] | None = None,  # noqa: A002 - the option's name
        variant: str | None = None,
        share: bool = False,
    ) -> None:
        # the rule texts in the language the reply is read in: the caller's, or the server's once shared
        default = default_locale_of(interaction)
        locale = public_locale(interaction, default) if share else interaction_locale(interaction, default)
        await send_reply(interaction, rules_page(map, topic, variant, locale=locale, share=share))

    # ------------------------------------------------------------ games

    @app_commands.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(
        map="Which board",
        variant="Ticket variant (default: the board's usual one)",
        options="Optional rules, comma-separated (see /ttr maps)",
        players="Seats (2-5; default: up to 5)",
    )
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        map: app_commands.Transform[Board, BoardTransformer],  # noqa: A002 - the option's name
        variant: str | None = None,
        options: str | None = None,
        players: app_commands.Range[int, 2, 5] | None = None,
    ) -> None:
        variant_id = find_variant(map, variant)
        chosen = [normalize_name(o).replace(" ", "-") for o in (options or "").split(",") if o.strip()]
        unknown = [o for o in chosen if o not in map.options]
        if unknown:
            known = ", ".join(map.options) or "-"
            raise GameError(
                Text("maps.unknown_option", {"value": chat.quote(", ".join(unknown)), "known": known})
            )
        who = caller(interaction)

        async def create(channel: int) -> Reply:
            return await self.service.new_game(
                dataclasses.replace(who, channel_id=channel),
                board_id=map.id,
                variant=variant_id,
                options=tuple(chosen),
                max_players=players,
            )

        async def open_game() -> Reply:
            thread = await self._lobby_thread(interaction, map) if self.bot.config.lobby_threads else None
            if thread is None:
                return await create(who.channel_id)
            try:
                reply = await create(thread.id)
            except BaseException:
                await _delete_quietly(thread)
                raise
            if reply.ephemeral:  # refused: nothing opened, so no empty thread is left behind
                await _delete_quietly(thread)
                return reply
            await self.bot.messenger.post(thread.id, reply, locale=public_locale(interaction))
            return Reply(
                content=Text(
                    "lobby.opened_in_thread", {"thread": thread.mention, "board": board_name(map.id)}
                )
            )

        await answer(interaction, open_game(), private=False)

    @staticmethod
    async def _lobby_thread(interaction: discord.Interaction, board: Board) -> discord.Thread | None:
        """A new public thread for the game when the command comes from a text channel where the bot may
        create threads and speak in them; None otherwise (the game then lives in the channel itself)."""
        channel = interaction.channel
        guild = interaction.guild
        if not isinstance(channel, discord.TextChannel) or guild is None:
            return None
        perms = channel.permissions_for(guild.me)
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            return None
        try:
            return await channel.create_thread(
                name=_public_text(interaction, "lobby.thread_name", board=board_name(board.id))[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
                reason="Ticket to Ride game",
            )
        except discord.HTTPException:
            return None

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(
        route="The route, e.g. Paris - Wien", color="Card colour to pay with", game=GAME_DESCRIBE
    )
    @app_commands.autocomplete(route=route_autocomplete, color=color_autocomplete, game=game_autocomplete)
    async def claim(
        self, interaction: discord.Interaction, route: str, color: str | None = None, game: str | None = None
    ) -> None:
        call = self.service.claim(caller(interaction), route=route, color=color, game_id=game)
        await answer(interaction, call, private=True)

    @app_commands.command(name="hand", description="Your cards and tickets (only you see them)")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def hand(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await answer(interaction, self.service.hand(caller(interaction), game_id=game), private=True)

    @app_commands.command(name="board", description="Show the board")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        # Rendering a board image is slow: show "thinking" at once instead of after DEFER_AFTER.
        call = self.service.board(caller(interaction), game_id=game)
        await answer(interaction, call, private=False, defer_after=0)

    @app_commands.command(name="map", description="The game's live map, played by tapping the board")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def map(self, interaction: discord.Interaction, game: str | None = None) -> None:
        # no deferring: an Activity can only be launched as the interaction's first answer
        await answer(
            interaction, self.service.map(caller(interaction), game_id=game), private=True, defer_after=3
        )

    @app_commands.command(name="status", description="Whose turn it is, scores and cards left")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await answer(interaction, self.service.status(caller(interaction), game_id=game), private=False)

    @app_commands.command(name="log", description="The last moves of a game")
    @app_commands.describe(game=GAME_DESCRIBE, count="How many moves")
    @app_commands.autocomplete(game=game_autocomplete)
    async def log(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        count: app_commands.Range[int, 1, 50] = 10,
    ) -> None:
        call = self.service.log(caller(interaction), game_id=game, limit=count)
        await answer(interaction, call, private=True)

    @app_commands.command(name="settings", description="Show or change a game's settings (yours: /ttr prefs)")
    @app_commands.describe(setting="Which setting (empty: show all)", value="New value", game=GAME_DESCRIBE)
    @app_commands.autocomplete(setting=setting_autocomplete, game=game_autocomplete)
    async def settings(
        self,
        interaction: discord.Interaction,
        setting: str | None = None,
        value: str | None = None,
        game: str | None = None,
    ) -> None:
        call = self.service.settings(caller(interaction), game_id=game, key=setting, value=value)
        await answer(interaction, call, private=True)

    @app_commands.command(name="games", description="List games")
    @app_commands.describe(scope="Which games")
    async def games(
        self, interaction: discord.Interaction, scope: Literal["channel", "server", "mine"] = "channel"
    ) -> None:
        await answer(interaction, self.service.games(caller(interaction), scope=scope), private=True)

    @app_commands.command(name="stats", description="A player's results and rating")
    @app_commands.describe(player="Whose results (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        call = self.service.stats(caller(interaction), target_user_id=player.id if player else None)
        await answer(interaction, call, private=False)

    @app_commands.command(name="export", description="This server's finished games as a file (Manage Server)")
    @app_commands.describe(format="JSON lines (one game a line) or CSV (one seat a row)")
    async def export(
        self,
        interaction: discord.Interaction,
        format: Literal["jsonl", "csv"] = "jsonl",  # noqa: A002 - the option's name
    ) -> None:
        call = self.service.export(caller(interaction), fmt=format, admin=is_admin(interaction))
        await answer(interaction, call, private=True)

    @app_commands.command(name="leaderboard", description="The server's ratings, best first")
    @app_commands.describe(map="Ratings on one board only (default: over every board)")
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        map: app_commands.Transform[Board, BoardTransformer] | None = None,  # noqa: A002 - the option's name
    ) -> None:
        call = self.service.leaderboard(caller(interaction), board_id=map.id if map else None)
        await answer(interaction, call, private=False)

    @app_commands.command(
        name="prefs", description="Your own preferences: turn notifications, claims, quiet hours, away"
    )
    @app_commands.describe(
        notify="How you are told it is your turn (and reminded)",
        confirm_claims="Ask before claiming a route (off: one click when there is only one way to pay)",
        time_zone="Your time zone, e.g. Europe/Paris (for your quiet hours)",
        quiet_hours="Hours with no ping or DM, your time, e.g. 22:00-07:30 (off: none)",
        ping_delay="Ping you only if you have not played within this many minutes (0: at once)",
        heads_up="A private note when the player before you starts their turn",
        away_until="Away until this date (2026-12-24, your time; off: back now): your games play on",
        digest="A direct message each day with all your games: on, off or a time (08:00, your time)",
    )
    @app_commands.autocomplete(time_zone=time_zone_autocomplete)
    async def prefs(
        self,
        interaction: discord.Interaction,
        notify: Literal["mention", "dm", "none"] | None = None,
        confirm_claims: bool | None = None,
        time_zone: str | None = None,
        quiet_hours: str | None = None,
        ping_delay: app_commands.Range[int, 0, 10080] | None = None,
        heads_up: bool | None = None,
        away_until: str | None = None,
        digest: str | None = None,
    ) -> None:
        call = self.service.prefs(
            caller(interaction),
            notify=notify,
            confirm_claims=confirm_claims,
            time_zone=time_zone,
            quiet_hours=quiet_hours,
            ping_delay=ping_delay,
            heads_up=heads_up,
            away_until=away_until,
            digest=digest,
        )
        await answer(interaction, call, private=True)

    @app_commands.command(
        name="language", description="The language of this server's public messages (its admins choose it)"
    )
    @app_commands.describe(language="The language everyone here reads (auto: Discord's); empty: show it")
    @app_commands.autocomplete(language=language_autocomplete)
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        call = self.service.server_language(  # the server's own setting: Manage Server, as Discord's own
            caller(interaction),
            value=language,
            admin=is_admin(interaction),
            unchosen=unchosen_locale(interaction),
        )
        await answer(interaction, call, private=True)

    @app_commands.command(name="leave", description="Leave a lobby or resign from a game")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def leave(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await answer(interaction, self.service.leave(caller(interaction), game_id=game), private=False)

    @app_commands.command(name="kick", description="Remove a player (host or moderator)")
    @app_commands.describe(player="Who to remove", game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def kick(
        self, interaction: discord.Interaction, player: discord.User, game: str | None = None
    ) -> None:
        call = self.service.kick(caller(interaction), target_user_id=player.id, game_id=game)
        await answer(interaction, call, private=False)

    @app_commands.command(name="end", description="End a game now (host or moderator)")
    @app_commands.describe(game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        call = self.service.end(caller(interaction), game_id=game)
        await answer(interaction, call, private=False)

    @app_commands.command(
        name="replace", description="Give a player's seat to someone else (host or moderator)"
    )
    @app_commands.describe(player="Who leaves the seat", new_player="Who takes it", game=GAME_DESCRIBE)
    @app_commands.autocomplete(game=game_autocomplete)
    async def replace(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        new_player: discord.User,
        game: str | None = None,
    ) -> None:
        call = self.service.replace(
            caller(interaction),
            target_user_id=player.id,
            replacement_user_id=new_player.id,
            replacement_name=new_player.display_name,
            game_id=game,
        )
        await answer(interaction, call, private=False)


async def setup(bot: TTRBot) -> None:
    await bot.add_cog(TTRCog(bot))


async def _delete_quietly(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete the unused lobby thread %s", thread.id)
