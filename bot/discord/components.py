"""Persistent game buttons and selects whose state lives in the custom id, and the whole custom-id grammar.

A button's id is `ttr:<game_id>:<code>[:<arg>]`, a select's `ttr:<game_id>:<code>[<row>]:*` (several selects
of one code in one message are told apart by a row number: `do`, `do1`, `do2`), at most 100 characters. `code`
is a `bot.play.press.PressCode` (its table says what each asks for). The arg of a button, and the value of each
select option, is `[<token>~]<arg>~<arg>...`: the turn token first for the codes that carry one. A press is
parsed once, here, into a typed `Press`; the presentation never sees a custom id. The item
classes are registered once with `Bot.add_dynamic_items`, so a button posted before a restart still works
after it: discord.py matches the id against the templates below and rebuilds the item, which asks the game
service (and thus storage) what to do. Nothing about a game is kept in a view.

Before any callback, `interaction_check` refuses an id naming a game that does not exist or belongs to
another server, answering ephemerally so the click never fails silently.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.language import tr
from bot.play.press import Press, PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, SelectSpec

if TYPE_CHECKING:
    from bot.i18n import Catalog

log = logging.getLogger(__name__)

PREFIX = "ttr"
SEP = "~"  # between the token and the arguments of a press (a token itself may contain dots)
MAX_CUSTOM_ID = 100
GAME_ID = r"[A-Za-z0-9_-]{1,24}"
ACTION = r"[a-z][a-z0-9_]{0,23}"
ARG = r"[^:*\s][^:\s]{0,39}"
BUTTON_TEMPLATE = rf"{PREFIX}:(?P<game>{GAME_ID}):(?P<action>{ACTION})(?::(?P<arg>{ARG}))?"
SELECT_TEMPLATE = rf"{PREFIX}:(?P<game>{GAME_ID}):(?P<action>{ACTION}):\*"
_BUTTON_RE = re.compile(BUTTON_TEMPLATE)
_SELECT_RE = re.compile(SELECT_TEMPLATE)

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def button_id(game_id: str, action: str, arg: str | None = None) -> str:
    """`ttr:<game>:<action>[:<arg>]`; ValueError when a part has forbidden characters or it is too long."""
    custom_id = f"{PREFIX}:{game_id}:{action}" + (f":{arg}" if arg is not None else "")
    if len(custom_id) > MAX_CUSTOM_ID or not _BUTTON_RE.fullmatch(custom_id):
        raise ValueError(f"bad button id parts: game={game_id!r} action={action!r} arg={arg!r}")
    return custom_id


def select_id(game_id: str, action: str) -> str:
    custom_id = f"{PREFIX}:{game_id}:{action}:*"
    if len(custom_id) > MAX_CUSTOM_ID or not _SELECT_RE.fullmatch(custom_id):
        raise ValueError(f"bad select id parts: game={game_id!r} action={action!r}")
    return custom_id


def join_args(token: str | None, args: Sequence[str]) -> str | None:
    """The arg of a button or the value of an option: `[<token>~]<arg>~...`; None when there is nothing."""
    parts = ([token] if token is not None else []) + list(args)
    return SEP.join(parts) if parts else None


def parse_press(game_id: str, action: str, arg: str | None, values: Sequence[str]) -> Press | None:
    """The press an id (and a select's chosen values) stands for; None for a code no version ever had."""
    name = action.rstrip("0123456789") or action  # `do1`: the second select of `do` in one message
    try:
        code = PressCode(name)
    except ValueError:
        return None
    raws = [arg] if arg is not None else list(values)
    split = [raw.split(SEP) for raw in raws] or [[""] if code.carries_token else []]
    if code.carries_token:
        return Press(game_id, code, split[0][0], tuple(split[0][1:]), tuple(tuple(p[1:]) for p in split))
    return Press(game_id, code, None, tuple(split[0]), tuple(tuple(p) for p in split))


def is_ours(custom_id: str) -> bool:
    """True for an id in our namespace, whether or not a template still accepts it."""
    return custom_id.startswith(PREFIX + ":")


def is_known(custom_id: str) -> bool:
    return bool(_BUTTON_RE.fullmatch(custom_id) or _SELECT_RE.fullmatch(custom_id))


async def check_game_place(interaction: discord.Interaction, game_id: str) -> bool:
    """Allow a press only for an existing game of this server; otherwise answer why, ephemerally."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        await _refuse(interaction, "errors.unavailable")
        return False
    guild_id = await service.game_guild(game_id)
    if guild_id is None:
        await _refuse(interaction, "button.game_gone")
        return False
    if guild_id != interaction.guild_id:
        log.warning(
            "refused button for game %s of guild %s pressed by user %s in guild %s",
            game_id,
            guild_id,
            interaction.user.id,
            interaction.guild_id,
        )
        await _refuse(interaction, "button.other_server")
        return False
    return True


async def _refuse(interaction: discord.Interaction, key: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(tr(interaction, key), ephemeral=True)
        else:
            await interaction.response.send_message(tr(interaction, key), ephemeral=True)
    except discord.HTTPException:
        log.debug("could not send refusal %s", key, exc_info=True)


async def _press(
    interaction: discord.Interaction, game_id: str, action: str, arg: str | None, values: Sequence[str]
) -> None:
    """Parse the press and hand it to the bot (`TTRBot.on_game_press`), which asks the service and shows its
    reply; a code no version knows is answered here."""
    press = parse_press(game_id, action, arg, values)
    if press is None:
        log.info("unknown press code %r on game %s", action, game_id)
        await _refuse(interaction, "button.unknown")
        return
    await interaction.client.on_game_press(interaction, press)  # type: ignore[attr-defined]


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A button on a game message; pressing it sends its `Press` to `GameService.press`."""

    def __init__(
        self,
        game_id: str,
        action: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | discord.PartialEmoji | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=button_id(game_id, action, arg),
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.action = action
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(
            match["game"],
            match["action"],
            match["arg"],
            label=item.label,
            style=item.style,
            emoji=item.emoji,
            disabled=item.disabled,
        )

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await check_game_place(interaction, self.game_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, self.game_id, self.action, self.arg, ())


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A string select on a game message; the chosen options go to `GameService.press` as one `Press`."""

    def __init__(self, game_id: str, action: str, *, select: discord.ui.Select[Any] | None = None) -> None:
        item = select or discord.ui.Select(custom_id=select_id(game_id, action))
        item.custom_id = select_id(game_id, action)
        super().__init__(item)
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(match["game"], match["action"], select=item)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await check_game_place(interaction, self.game_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, self.game_id, self.action, None, self.item.values)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)


def _fit(text: str | None, limit: int) -> str | None:
    """Discord's length limits, applied after translation (a label may grow in another language)."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def build_view(
    rows: Sequence[Sequence[ComponentSpec]], catalog: Catalog, locale: str
) -> discord.ui.View | None:
    """A timeout-free view from component specs (None when there are none)."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows):
        for spec in row:
            if isinstance(spec, ButtonSpec):
                button = GameButton(
                    spec.game_id,
                    spec.code,
                    join_args(spec.token, spec.args),
                    label=_fit(catalog.render(spec.label, locale), 80),
                    style=_STYLES.get(spec.style, discord.ButtonStyle.secondary),
                    emoji=spec.emoji,
                    disabled=spec.disabled,
                )
                button.item.row = row_index
                view.add_item(button)
            elif isinstance(spec, SelectSpec):
                action = spec.code + (str(spec.row) if spec.row else "")
                select: discord.ui.Select[Any] = discord.ui.Select(
                    custom_id=select_id(spec.game_id, action),
                    placeholder=_fit(catalog.render(spec.placeholder, locale), 150),
                    min_values=spec.min_values,
                    max_values=spec.max_values,
                    disabled=spec.disabled,
                    row=row_index,
                    options=[
                        discord.SelectOption(
                            label=_fit(catalog.render(o.label, locale), 100) or value,
                            value=value,
                            description=_fit(catalog.render(o.description, locale), 100),
                            emoji=o.emoji,
                            default=o.default,
                        )
                        for o in spec.options
                        if (value := join_args(o.token, o.args) or "-")
                    ],
                )
                view.add_item(GameSelect(spec.game_id, action, select=select))
            else:  # pragma: no cover - guarded by the type
                raise TypeError(f"unknown component spec {spec!r}")
    return view
