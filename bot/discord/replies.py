"""Turning service `Reply` values into answers to an interaction, and the one error reporter.

Interaction rules this module encodes (each one bit us once):

* An interaction must be answered within 3 s. `answer` waits up to `DEFER_AFTER` seconds for the service, then
  defers with a "thinking" message and finishes later (15 min budget).
* After `defer(thinking=True)`, the first followup *replaces* the thinking message and keeps its visibility.
  So when the reply's visibility differs from the guess made at defer time, the thinking message is deleted
  (public -> private) or edited into a short note (private -> public) before the real message is sent.
* A reply replaces the message whose button was pressed (`edit_source`) only when both have the same
  visibility: whatever id reaches it (a forged one on a public turn message), a private reply is never
  written over a public message; it goes out as a new ephemeral message instead.
* Ephemeral messages cannot be edited once their 15-minute token expires, so nothing relies on editing an old
  private message: "My hand" is a persistent button that answers afresh each time.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from bot.discord.components import build_view
from bot.discord.language import catalog_of, default_locale_of, interaction_locale, public_locale
from bot.discord.limits import Cuts, fit_message
from bot.i18n import Catalog
from bot.messages import Message, Text
from bot.play import chat
from bot.play.refusals import worded
from bot.play.reply import EmbedSpec, GameError, Reply

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds to wait for the service before deferring
_DEFERRED = "ttr_deferred"  # interaction.extras key: True/False = thinking (ephemeral?), None = consumed


_catalog = catalog_of


def _locale(interaction: discord.Interaction) -> str:
    return interaction_locale(interaction, default_locale_of(interaction))


def _public_locale(interaction: discord.Interaction) -> str:
    return public_locale(interaction, default_locale_of(interaction))


def _embed(spec: EmbedSpec, catalog: Catalog, locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=catalog.render(spec.title, locale),
        description=catalog.render(spec.description, locale),
        color=spec.color,
    )
    for f in spec.fields:
        embed.add_field(
            name=catalog.render(f.name, locale) or "\u200b",
            value=catalog.render(f.value, locale) or "\u200b",
            inline=f.inline,
        )
    if spec.footer is not None:
        embed.set_footer(text=catalog.render(spec.footer, locale))
    if spec.image:
        embed.set_image(url=spec.image if "://" in spec.image else f"attachment://{spec.image}")
    if spec.thumbnail:
        embed.set_thumbnail(
            url=spec.thumbnail if "://" in spec.thumbnail else f"attachment://{spec.thumbnail}"
        )
    return embed


def message_kwargs(reply: Reply, catalog: Catalog, locale: str) -> dict[str, Any]:
    """Keyword arguments shared by send_message, followup.send and edits, within Discord's limits (every
    message the bot sends from a `Reply` is checked here, `bot/discord/limits.py`)."""
    cuts = Cuts()
    catalog = catalog.seated(reply.seats)
    kwargs: dict[str, Any] = {
        "content": catalog.render(reply.content, locale),
        "embeds": [_embed(e, catalog, locale) for e in reply.embeds],
    }
    if reply.files:
        kwargs["files"] = [
            discord.File(
                io.BytesIO(f.data),
                filename=f.filename,
                description=catalog.render(f.description, locale),
                spoiler=f.spoiler,
            )
            for f in reply.files
        ]
    view = build_view(reply.rows, catalog, locale, cuts)
    if view is not None:
        kwargs["view"] = view
    return fit_message(kwargs, cuts, where="reply")


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Defer with a thinking message, remembering its visibility for `send_reply`."""
    if interaction.response.is_done():
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[_DEFERRED] = ephemeral


async def answer(
    interaction: discord.Interaction,
    call: Awaitable[Reply],
    *,
    private: bool,
    defer_after: float | None = None,
) -> None:
    """Await a service call and show its reply, deferring first if the call is slow.

    `private` is the visibility to guess when deferring: the command's usual answer.
    """
    delay = DEFER_AFTER if defer_after is None else defer_after
    task = asyncio.ensure_future(call)
    if delay > 0:
        done, _ = await asyncio.wait({task}, timeout=delay)
    else:
        done = set()
    if not done:
        try:
            await defer(interaction, ephemeral=private)
        except BaseException:
            # Too late to answer (the 3 s window passed): the service call still finishes; log what it did.
            task.add_done_callback(_log_orphan)
            raise
    reply = await task
    await send_reply(interaction, reply)


def _log_orphan(task: asyncio.Future[Reply]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("service call failed after its interaction expired", exc_info=task.exception())


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send `reply` (and its `also` messages) as the answer to `interaction`: a private reply in the
    person's language, a public one (a turn message, a lobby) in the server's."""
    catalog = _catalog(interaction)
    locale = _locale(interaction) if reply.ephemeral else _public_locale(interaction)
    response = interaction.response
    if reply.activity:  # the live map: Discord opens the Activity for the caller, as the first answer only
        if not response.is_done():
            try:
                await response.launch_activity()
                return
            except discord.NotFound:
                raise  # the interaction is gone: nothing else can answer it either
            except discord.HTTPException as exc:
                # Discord refused the launch (Activities off in this channel or for the application): the
                # caller gets the personal link instead, the operator a line to fix the set-up.
                log.warning("Discord did not launch the Activity (HTTP %s, code %s)", exc.status, exc.code)
        reply = reply.instead or Reply(content=Text("web.activity_late"), ephemeral=True)
        locale = _locale(interaction)
    kwargs = message_kwargs(reply, catalog, locale)
    is_component = interaction.type is discord.InteractionType.component

    source = interaction.message if is_component else None
    if reply.edit_source and source is not None and bool(source.flags.ephemeral) == reply.ephemeral:
        await _edit_source(interaction, kwargs)
    elif not response.is_done():
        await response.send_message(ephemeral=reply.ephemeral, **kwargs)
        if reply.posted is not None and interaction.channel_id is not None:
            original = await interaction.original_response()
            await reply.posted(interaction.channel_id, original.id)
    else:
        thinking = interaction.extras.get(_DEFERRED)
        interaction.extras[_DEFERRED] = None
        if thinking is True and not reply.ephemeral:
            # private thinking, public answer: close the private note, then post publicly
            # the note replaces the private thinking message: the person's language
            note = catalog.text("reply.posted_below", _locale(interaction))
            await interaction.edit_original_response(content=note)
            await _followup(interaction, reply, kwargs)
        elif thinking is False and reply.ephemeral:
            await _answer_privately_after_public_thinking(
                interaction, kwargs, catalog, _public_locale(interaction)
            )
        else:
            await _followup(interaction, reply, kwargs)

    for extra in reply.also:
        await send_reply(interaction, extra)


async def _followup(interaction: discord.Interaction, reply: Reply, kwargs: dict[str, Any]) -> None:
    """A followup message; its id goes to `reply.posted` when the service wants it (a turn message)."""
    if reply.posted is None or interaction.channel_id is None:
        await interaction.followup.send(ephemeral=reply.ephemeral, wait=False, **kwargs)
        return
    sent = await interaction.followup.send(ephemeral=reply.ephemeral, wait=True, **kwargs)
    await reply.posted(interaction.channel_id, sent.id)


async def _answer_privately_after_public_thinking(
    interaction: discord.Interaction, kwargs: dict[str, Any], catalog: Catalog, locale: str
) -> None:
    """The public thinking message must not become a private answer (its visibility is fixed).

    Complete it with a short note first (a followup sent while it is still "thinking" would replace it),
    send the private answer as a real followup, then delete the note.
    """
    await interaction.edit_original_response(content=catalog.text("reply.answered_privately", locale))
    await interaction.followup.send(ephemeral=True, wait=False, **kwargs)
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.debug("could not delete the public placeholder", exc_info=True)


async def _edit_source(interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
    files = kwargs.pop("files", None)
    if files is not None:
        kwargs["attachments"] = files
    kwargs.setdefault("view", None)
    if not interaction.response.is_done():
        await interaction.response.edit_message(**kwargs)
        return
    thinking = interaction.extras.get(_DEFERRED)
    interaction.extras[_DEFERRED] = None
    message = interaction.message
    assert message is not None
    if thinking is None:  # deferred update: the original response *is* the source message
        await interaction.edit_original_response(**kwargs)
        return
    if message.flags.ephemeral:
        # Only the token that created an ephemeral message may edit it: answer afresh instead.
        kwargs.pop("attachments", None)
        if files is not None:
            kwargs["files"] = files
        if kwargs.get("view") is None:
            kwargs.pop("view", None)
        await interaction.followup.send(ephemeral=True, wait=False, **kwargs)
        return
    await message.edit(**kwargs)
    await interaction.delete_original_response()


# ---------------------------------------------------------------- errors


def _error_message(error: BaseException) -> tuple[Message, bool]:
    """The user-facing message for `error`, and whether it is expected (no traceback in the log)."""
    if isinstance(error, GameError):
        return error.message, True
    refused = worded(error)  # (a manager's refusal no handler worded: a database that is down, say)
    if refused is not None:
        return refused.message, True
    if isinstance(error, app_commands.NoPrivateMessage):
        return Text("errors.guild_only"), True
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        perms = ", ".join(getattr(error, "missing_permissions", []))
        key = (
            "errors.bot_permissions"
            if isinstance(error, app_commands.BotMissingPermissions)
            else "errors.permissions"
        )
        return Text(key, {"permissions": perms}), True
    if isinstance(error, app_commands.CommandOnCooldown):
        return Text("errors.cooldown", {"seconds": f"{error.retry_after:.0f}"}), True
    if isinstance(error, app_commands.TransformerError):
        cause = error.__cause__
        if isinstance(cause, GameError):
            return cause.message, True
        return Text("errors.bad_value", {"value": chat.quote(str(error.value))}), True
    if isinstance(error, app_commands.CheckFailure):
        return Text("errors.not_allowed"), True
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return Text("errors.out_of_date"), True
    return Text("errors.unexpected"), False


async def report_error(
    interaction: discord.Interaction, error: BaseException, *, where: str | None = None
) -> None:
    """Log `error` with who/where/what and answer the user ephemerally. Never raises."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if interaction.type is discord.InteractionType.autocomplete:  # nothing can be shown to the user
        log.error("autocomplete failed for user %s", interaction.user.id, exc_info=original)
        return
    message, expected = _error_message(original)
    command = interaction.command.qualified_name if interaction.command is not None else None
    what = where or (f"/{command}" if command else f"interaction {interaction.type.name}")
    namespace = dict(interaction.namespace.__dict__) if interaction.command is not None else {}
    details = (
        "%s by user %s in guild %s channel %s failed (args=%r): %s",
        what,
        interaction.user.id,
        interaction.guild_id,
        interaction.channel_id,
        namespace,
        type(original).__name__,
    )
    if expected:
        log.debug(*details)
    else:
        log.error(*details, exc_info=original)

    if isinstance(original, discord.Forbidden | discord.NotFound) and not expected:
        return  # we cannot talk there (missing access, expired token): nothing more to do
    seats = original.seats if isinstance(original, GameError) else ()
    text = _catalog(interaction).seated(seats).render(message, _locale(interaction)) or ""
    if not expected:
        text = f"{text} (ref {interaction.id})"
    text = fit_message({"content": text}, where="error note")["content"]
    try:
        if interaction.response.is_done():
            if interaction.extras.get(_DEFERRED) is False:  # a public thinking message: answer privately
                interaction.extras[_DEFERRED] = None
                catalog = _catalog(interaction)
                await _answer_privately_after_public_thinking(
                    interaction, {"content": text}, catalog, _locale(interaction)
                )
            else:
                await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about a failed %s", interaction.user.id, what, exc_info=True)
    except Exception:  # noqa: BLE001 - the reporter itself must never raise
        log.exception("error while reporting an error for %s", what)
