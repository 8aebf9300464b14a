"""The `/ttr` command group.

`/ttr maps` and `/ttr rules` need only board data. Every game command validates its arguments, calls one
`GameService` method and shows the `Reply`: the rules, storage and locking live behind that interface.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.checks import caller
from bot.discord.language import catalog_of, default_locale_of, interaction_locale, public_locale, tr
from bot.discord.limits import fit_message
from bot.discord.replies import answer
from bot.i18n import default_catalog
from bot.messages import Text, board_name
from bot.play import chat
from bot.play.chat import EMBED_COLOR
from bot.play.contract import GameService
from bot.play.reply import GameError, Reply
from bot.rules_text import topic_ids, topic_list, topics
from maps.board import COLORS, Board, BoardDataError, board_ids, load_board, normalize_name

if TYPE_CHECKING:
    from bot.discord.app import TTRBot

log = logging.getLogger(__name__)

MAX_CHOICES = 25
PROVISIONAL = "provisional"


def _boards() -> list[Board]:
    out = []
    for board_id in board_ids():
        try:
            out.append(load_board(board_id))
        except BoardDataError:
            log.exception("board file %s does not load; hidden from /ttr", board_id)
    return out


def _board_names(board: Board) -> list[str]:
    """Every name of `board`: its id, its data file's name and its name in every catalogue ("Allemagne")."""
    catalog = default_catalog()
    return [
        board.id,
        board.name,
        *(catalog.exact(f"board.{board.id}", code) or "" for code in catalog.locales),
    ]


def find_board(value: str) -> Board:
    """The board named (in any language) or id'd `value` (case/accent-insensitive); GameError listing the
    boards otherwise."""
    wanted = normalize_name(value)
    for board in _boards():
        if wanted in {normalize_name(n) for n in _board_names(board) if n}:
            return board
    known = ", ".join(b.id for b in _boards())
    raise GameError(Text("maps.unknown", {"value": chat.quote(value), "known": known}))


def _variant_names(board: Board, vid: str) -> list[str]:
    """Every name of a variant: its id, its data file's name and its name in every catalogue."""
    catalog = default_catalog()
    named = (catalog.exact(f"variant.{board.id}.{vid}", code) or "" for code in catalog.locales)
    return [vid, str(board.variants[vid].get("name", vid)), *named]


def find_variant(board: Board, value: str | None) -> str:
    if value is None or not value.strip():
        return board.default_variant
    wanted = normalize_name(value)
    for vid in board.variants:
        if wanted in {normalize_name(n) for n in _variant_names(board, vid) if n}:
            return vid
    known = ", ".join(board.variants)
    raise GameError(
        Text(
            "maps.unknown_variant",
            {"value": chat.quote(value), "board": board_name(board.id), "known": known},
        )
    )


def _public_text(interaction: discord.Interaction, key: str, /, **params: Any) -> str:
    """The text of `key` in the language of what everyone in the place reads (the server's)."""
    return catalog_of(interaction).text(
        key, public_locale(interaction, default_locale_of(interaction)), **params
    )


def _matches(current: str, *names: str) -> bool:
    needle = normalize_name(current)
    return not needle or any(needle in normalize_name(n) for n in names)


def _is_provisional(data: Any) -> bool:
    return (
        str(getattr(data, "status", None) or (data.get("status") if isinstance(data, dict) else ""))
        == PROVISIONAL
    )


class BoardTransformer(app_commands.Transformer):
    """`map:` option: typed text -> Board, with autocomplete over board names, shown in the caller's language
    (the value sent back is the board's id)."""

    async def transform(self, interaction: discord.Interaction, value: str, /) -> Board:
        return find_board(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        choices = []
        for board in _boards():
            shown = tr(interaction, f"board.{board.id}")
            if _matches(value, shown, *_board_names(board)):
                label = shown + (" ⚠" if _is_provisional(board) else "")
                choices.append(app_commands.Choice(name=label[:100], value=board.id))
        return choices[:MAX_CHOICES]


async def variant_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Variants of the board chosen in the `map` option (all boards' variants if none yet), named in the
    caller's language."""
    chosen = getattr(interaction.namespace, "map", None)
    boards = _boards()
    if isinstance(chosen, str) and chosen:
        with contextlib.suppress(GameError):
            boards = [find_board(chosen)]
    choices = []
    for board in boards:
        for vid in board.variants:
            name = tr(interaction, f"variant.{board.id}.{vid}")
            if _matches(current, name, *_variant_names(board, vid)):
                label = name if len(boards) == 1 else f"{tr(interaction, f'board.{board.id}')}: {name}"
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


async def color_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c, value=c) for c in (*COLORS, "locomotive") if _matches(current, c)]


game_autocomplete = _service_completer("game")
route_autocomplete = _service_completer("route")
setting_autocomplete = _service_completer("setting")

GAME_DESCRIBE = "Which game (default: the game in this channel)"


@app_commands.guild_only()
class TTRCog(commands.GroupCog, group_name="ttr", group_description="Play Ticket to Ride"):
    """Ticket to Ride, played asynchronously in a channel."""

    def __init__(self, bot: TTRBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ------------------------------------------------------------ board data

    @app_commands.command(name="maps", description="List the boards and their variants")
    @app_commands.describe(share="Show the answer to the whole channel")
    async def maps(self, interaction: discord.Interaction, share: bool = False) -> None:
        embed = discord.Embed(title=tr(interaction, "maps.title"), color=EMBED_COLOR)
        any_provisional = False
        for board in _boards():
            lines = []
            for vid, data in board.variants.items():
                name = tr(interaction, f"variant.{board.id}.{vid}")
                flags = []
                if vid == board.default_variant:
                    flags.append(tr(interaction, "maps.default"))
                if _is_provisional(data):
                    flags.append("⚠ " + tr(interaction, "maps.provisional"))
                    any_provisional = True
                suffix = f" ({', '.join(flags)})" if flags else ""
                lines.append(f"• **{name}** `{vid}`{suffix}")
            for oid in board.options:
                name = tr(interaction, f"option.{board.id}.{oid}")
                lines.append("• " + tr(interaction, "maps.option", name=name, id=oid))
            lines.append(
                tr(
                    interaction,
                    "maps.counts",
                    cities=len(board.cities),
                    routes=len(board.routes),
                    tickets=len(board.tickets),
                    trains=board.rule("trains_per_player", 45),
                )
            )
            title = f"{tr(interaction, f'board.{board.id}')} — `{board.id}`"
            if _is_provisional(board):
                title += " ⚠ " + tr(interaction, "maps.provisional")
                any_provisional = True
            embed.add_field(name=title, value="\n".join(lines), inline=False)
        if not embed.fields:
            embed.description = tr(interaction, "maps.none")
        if any_provisional:
            embed.set_footer(text=tr(interaction, "maps.provisional_note"))
        await interaction.response.send_message(**fit_message({"embed": embed}), ephemeral=not share)

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
        boards = _boards()
        if map is None and not boards:
            raise GameError(Text("maps.none"))
        board = map or boards[0]
        locale = str(interaction.locale)
        found = topics(board, locale, find_variant(board, variant))
        embed = discord.Embed(color=EMBED_COLOR)
        if topic is None:
            overview = found[0]
            embed.title = tr(interaction, "rules.title", board=board_name(board.id), topic=overview.title)
            embed.description = overview.text
            listing = topic_list(found[1:])
            embed.add_field(name=tr(interaction, "rules.more"), value=listing or "-", inline=False)
        else:
            wanted = normalize_name(topic)
            chosen = next(
                (t for t in found if wanted in (normalize_name(t.id), normalize_name(t.title))), None
            )
            if chosen is None:
                known = topic_list(found)
                params = {"topic": chat.quote(topic), "board": board_name(board.id), "known": known}
                raise GameError(Text("rules.unknown", params))
            embed.title = tr(interaction, "rules.title", board=board_name(board.id), topic=chosen.title)
            embed.description = chosen.text
        if _is_provisional(board):
            embed.set_footer(text=tr(interaction, "maps.provisional_note"))
        await interaction.response.send_message(**fit_message({"embed": embed}), ephemeral=not share)

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
        name="prefs", description="Your own preferences: turn notifications, claim confirmation"
    )
    @app_commands.describe(
        notify="How you are told it is your turn (and reminded)",
        confirm_claims="Ask before claiming a route (off: one click when there is only one way to pay)",
    )
    async def prefs(
        self,
        interaction: discord.Interaction,
        notify: Literal["mention", "dm", "none"] | None = None,
        confirm_claims: bool | None = None,
    ) -> None:
        call = self.service.prefs(caller(interaction), notify=notify, confirm_claims=confirm_claims)
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
