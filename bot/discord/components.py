"""Persistent game buttons and selects whose state lives in the custom id, and the whole custom-id grammar.

A button's id is `ttr:<game_id>:<code>[:<arg>]`, a select's `ttr:<game_id>:<code>[<row>]:*` (several selects
of one code in one message are told apart by a row number: `do`, `do1`, `do2`), at most 100 characters. `code`
is a `bot.play.press.PressCode` (its table says what each asks for). The arg of a button, and the value of each
select option, is `[<token>~]<arg>~<arg>...`: the turn token first for the codes that carry one. A press is
parsed once, here, into a typed `Press`; the presentation never sees a custom id. The item
classes are registered once with `Bot.add_dynamic_items`, so a button posted before a restart still works
after it: discord.py matches the id against the templates below and rebuilds the item, which asks the game
service (and thus storage) what to do. Nothing about a game is kept in a view.

Every press gets an answer, whatever its id: an id a template matches but that cannot be read (a select's id
on a button, a part that no longer fits) rebuilds an item that answers "expired button" (discord.py would
answer nothing); an id naming a game that does not exist or belongs to another server is refused by the
service (`GameService.press`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.discord.language import tr
from bot.discord.limits import Cuts
from bot.ops.logs import bind_interaction
from bot.play import chat
from bot.play.press import Press, PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, SelectSpec

if TYPE_CHECKING:
    from bot.i18n import Catalog

log = logging.getLogger(__name__)

T = TypeVar("T")

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


class _GameItem:
    """What both game items share: a press parsed from the id, or none when the id cannot be read."""

    game_id: str
    action: str
    unreadable: bool = False  # a template matched the id but it names no item we make (forged or mangled)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        bind_interaction(
            interaction, game=getattr(self, "game_id", None)
        )  # on the log lines of the press (LOG_FORMAT=json)
        if self.unreadable:
            # discord.py answers nothing when an item cannot be rebuilt: say the button is outdated instead
            await _refuse(interaction, "button.expired")
            return False
        return True


def _unreadable(cls: type[T], item: discord.ui.Item[Any], match: re.Match[str], error: Exception) -> T:
    """An item of `cls` around the pressed `item` that only answers "expired button" (see `_GameItem`)."""
    log.info("unreadable component id %r (%s: %s)", match.string, type(error).__name__, error)
    made = cls.__new__(cls)
    discord.ui.DynamicItem.__init__(made, item)  # type: ignore[arg-type]
    made.game_id, made.action, made.unreadable = match["game"], match["action"], True  # type: ignore[attr-defined]
    return made


class GameButton(_GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
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
        try:
            if not isinstance(item, discord.ui.Button):
                raise TypeError(f"a button id on a {type(item).__name__}")
            return cls(
                match["game"],
                match["action"],
                match["arg"],
                label=item.label,
                style=item.style,
                emoji=item.emoji,
                disabled=item.disabled,
            )
        except Exception as error:  # noqa: BLE001 - whatever the id, the press gets an answer
            return _unreadable(cls, item, match, error)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, self.game_id, self.action, self.arg, ())


class GameSelect(_GameItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
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
        try:
            if not isinstance(item, discord.ui.Select):
                raise TypeError(f"a select id on a {type(item).__name__}")
            return cls(match["game"], match["action"], select=item)
        except Exception as error:  # noqa: BLE001 - whatever the id, the press gets an answer
            return _unreadable(cls, item, match, error)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _press(interaction, self.game_id, self.action, None, self.item.values)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)


def build_view(
    rows: Sequence[Sequence[ComponentSpec]], catalog: Catalog, locale: str, cuts: Cuts | None = None
) -> discord.ui.View | None:
    """A finished, timeout-free view from component specs (None when there are none), within Discord's limits: texts are
    shortened after translation (a label may grow in another language), what does not fit is dropped and
    noted in `cuts`."""
    if not rows:
        return None
    cuts = cuts if cuts is not None else Cuts()
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()  # custom ids are unique in a message
    for row_index, row in enumerate(cuts.items(rows, chat.MAX_ROWS, "rows")):
        width = 0
        for spec in row:
            where = f"rows[{row_index}]"
            try:
                if isinstance(spec, ButtonSpec):
                    if width >= chat.MAX_BUTTONS:
                        cuts.dropped(f"{where} button {spec.code} (row full)")
                        continue
                    button = _button(spec, catalog, locale, row_index, cuts)
                    if button.custom_id in seen:
                        cuts.dropped(f"{where} button {spec.code} (its id repeats another's)")
                        continue
                    seen.add(button.custom_id)
                    view.add_item(button)
                    width += 1
                elif isinstance(spec, SelectSpec):
                    if width:
                        cuts.dropped(f"{where} select {spec.code} (a select needs a row of its own)")
                        continue
                    select = _select(spec, catalog, locale, row_index, cuts)
                    if select is not None and select.custom_id in seen:
                        cuts.dropped(f"{where} select {spec.code} (its id repeats another's)")
                    elif select is not None:
                        seen.add(select.custom_id)
                        view.add_item(select)
                        width = chat.MAX_BUTTONS
                else:  # pragma: no cover - guarded by the type
                    raise TypeError(f"unknown component spec {spec!r}")
            except ValueError as exc:  # an id that cannot be built: the rest of the message still goes out
                cuts.dropped(f"{where} {spec.code} ({exc})")
    if not view.children:
        return None
    # Every item is a DynamicItem, answered through the registry `add_dynamic_items` fills at startup (the view
    # carries the components, nothing more). Finished before it is sent, discord.py keeps no copy of it: an
    # ephemeral message's view would otherwise get a 15-minute expiry timer (a sleeping task per private menu)
    # that only ever stops listening to presses the registry answers anyway.
    view.stop()
    return view


def _button(spec: ButtonSpec, catalog: Catalog, locale: str, row: int, cuts: Cuts) -> GameButton:
    button = GameButton(
        spec.game_id,
        spec.code,
        join_args(spec.token, spec.args),
        label=cuts.text(
            catalog.render(spec.label, locale), chat.MAX_BUTTON_LABEL, f"button {spec.code} label"
        ),
        style=_STYLES.get(spec.style, discord.ButtonStyle.secondary),
        emoji=spec.emoji,
        disabled=spec.disabled,
    )
    button.item.row = row
    return button


def _select(spec: SelectSpec, catalog: Catalog, locale: str, row: int, cuts: Cuts) -> GameSelect | None:
    action = spec.code + (str(spec.row) if spec.row else "")
    options = []
    values: set[str] = set()  # option values are unique in a select
    for o in cuts.items(spec.options, chat.MAX_OPTIONS, f"select {action} options"):
        value = join_args(o.token, o.args) or "-"
        if len(value) > chat.MAX_OPTION_VALUE or value in values:
            cuts.dropped(f"select {action} option {value[:20]} (value too long or repeated)")
            continue
        values.add(value)
        label = cuts.text(catalog.render(o.label, locale), chat.MAX_OPTION_LABEL, f"select {action} label")
        description = catalog.render(o.description, locale)
        options.append(
            discord.SelectOption(
                label=label or value,
                value=value,
                description=cuts.text(
                    description, chat.MAX_OPTION_DESCRIPTION, f"select {action} description"
                ),
                emoji=o.emoji,
                default=o.default,
            )
        )
    if not options:
        cuts.dropped(f"select {action} (no option left)")
        return None
    placeholder = catalog.render(spec.placeholder, locale)
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=select_id(spec.game_id, action),
        placeholder=cuts.text(placeholder, chat.MAX_PLACEHOLDER, f"select {action} placeholder"),
        min_values=min(spec.min_values, len(options)),
        max_values=min(spec.max_values, len(options)),
        disabled=spec.disabled,
        row=row,
        options=options,
    )
    return GameSelect(spec.game_id, action, select=select)
