"""Discord's size limits, checked in one place just before a message is sent.

The presentation lays its pages out within the limits (`bot/play/chat.py` holds them), but translation makes
text longer, and a reply over any limit is refused by Discord with a 400: the person then gets no answer at
all. So every message the bot sends (interaction answers, channel posts, direct messages, error notes) passes
through `Cuts` here: text over a limit is shortened with an ellipsis, items over a count are dropped, and one
warning per message names what was cut (never the text itself, which may be private).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypeVar

import discord

from bot.play import chat

log = logging.getLogger(__name__)

T = TypeVar("T")


class Cuts:
    """What was cut from one message, for its one warning."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def text(self, value: str | None, limit: int, what: str) -> str | None:
        if value is None or len(value) <= limit:
            return value
        self.notes.append(f"{what} {len(value)}>{limit}")
        return chat.fit(value, limit)

    def items(self, values: Sequence[T], limit: int, what: str) -> list[T]:
        if len(values) <= limit:
            return list(values)
        self.notes.append(f"{what} {len(values)}>{limit}")
        return list(values[:limit])

    def dropped(self, what: str) -> None:
        self.notes.append(f"{what} dropped")

    def report(self, where: str = "message") -> None:
        if self.notes:
            log.warning("%s cut to Discord's limits: %s", where, "; ".join(self.notes))


def fit_embed(embed: discord.Embed, cuts: Cuts, where: str = "embed") -> discord.Embed:
    """`embed` with each of its texts within its own limit and at most `MAX_OPTIONS` fields."""
    embed.title = cuts.text(embed.title, chat.MAX_EMBED_TITLE, f"{where}.title")
    embed.description = cuts.text(embed.description, chat.MAX_EMBED_DESCRIPTION, f"{where}.description")
    fields = cuts.items(embed.fields, chat.MAX_OPTIONS, f"{where}.fields")
    embed.clear_fields()
    for i, f in enumerate(fields):
        embed.add_field(
            name=cuts.text(f.name, chat.MAX_FIELD_NAME, f"{where}.fields[{i}].name") or "\u200b",
            value=cuts.text(f.value, chat.MAX_FIELD, f"{where}.fields[{i}].value") or "\u200b",
            inline=bool(f.inline),
        )
    if embed.footer.text:
        text = cuts.text(embed.footer.text, chat.MAX_FOOTER, f"{where}.footer")
        embed.set_footer(text=text, icon_url=embed.footer.icon_url)
    if embed.author.name:
        name = cuts.text(embed.author.name, chat.MAX_AUTHOR, f"{where}.author")
        embed.set_author(name=name or "", url=embed.author.url, icon_url=embed.author.icon_url)
    return embed


def fit_embeds(embeds: Sequence[discord.Embed], cuts: Cuts) -> list[discord.Embed]:
    """At most `MAX_EMBEDS` embeds, each within its limits, and `MAX_EMBED` characters in all of them."""
    kept = [
        fit_embed(e, cuts, f"embeds[{i}]")
        for i, e in enumerate(cuts.items(embeds, chat.MAX_EMBEDS, "embeds"))
    ]
    total = sum(len(e) for e in kept)
    if total > chat.MAX_EMBED:
        cuts.notes.append(f"embeds total {total}>{chat.MAX_EMBED}")
        _share(kept, total - chat.MAX_EMBED)
    return kept


def _share(embeds: list[discord.Embed], excess: int) -> None:
    """Shorten the longest texts of `embeds` until `excess` characters are gone."""
    while excess > 0:
        texts = [(len(text), i, name, at) for i, e in enumerate(embeds) for name, at, text in _texts(e)]
        if not texts:
            return
        length, i, name, at = max(texts)
        keep = max(1, length - excess)
        _shorten(embeds[i], name, at, keep)
        excess -= length - keep


def _texts(embed: discord.Embed) -> list[tuple[str, int, str]]:
    """The texts of `embed` that can still be shortened: (which, field index, text)."""
    out = [("title", -1, embed.title or ""), ("description", -1, embed.description or "")]
    out += [("footer", -1, embed.footer.text or ""), ("author", -1, embed.author.name or "")]
    for i, f in enumerate(embed.fields):
        out += [("name", i, f.name or ""), ("value", i, f.value or "")]
    return [(name, i, text) for name, i, text in out if len(text) > 1]


def _shorten(embed: discord.Embed, name: str, at: int, keep: int) -> None:
    if name == "title":
        embed.title = chat.fit(embed.title or "", keep)
    elif name == "description":
        embed.description = chat.fit(embed.description or "", keep)
    elif name == "footer":
        embed.set_footer(text=chat.fit(embed.footer.text or "", keep), icon_url=embed.footer.icon_url)
    elif name == "author":
        author = embed.author
        embed.set_author(name=chat.fit(author.name or "", keep), url=author.url, icon_url=author.icon_url)
    else:
        f = embed.fields[at]
        label, value = f.name or "", f.value or ""
        if name == "name":
            label = chat.fit(label, keep)
        else:
            value = chat.fit(value, keep)
        embed.set_field_at(at, name=label, value=value, inline=bool(f.inline))


def fit_message(
    kwargs: dict[str, Any], cuts: Cuts | None = None, *, where: str = "message"
) -> dict[str, Any]:
    """The keyword arguments of a send or an edit (`content`, `embed`/`embeds`, `files`) within Discord's
    limits; logs one warning naming what was cut. A view is fitted as it is built (`components.build_view`)."""
    cuts = cuts or Cuts()
    if isinstance(kwargs.get("content"), str):
        kwargs["content"] = cuts.text(kwargs["content"], chat.MAX_CONTENT, "content")
    if kwargs.get("embed") is not None:
        kwargs["embed"] = fit_embeds([kwargs["embed"]], cuts)[0]
    if kwargs.get("embeds"):
        kwargs["embeds"] = fit_embeds(kwargs["embeds"], cuts)
    if kwargs.get("files"):
        files = cuts.items(kwargs["files"], chat.MAX_FILES, "files")
        for i, f in enumerate(files):
            f.description = cuts.text(f.description, chat.MAX_FILE_DESCRIPTION, f"files[{i}].description")
        kwargs["files"] = files
    cuts.report(where)
    return kwargs
