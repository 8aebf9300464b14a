"""Laying components out within Discord's sizes (`bot/play/chat.py`): rows of buttons, paged selects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.messages import Message, Text
from bot.play import chat
from bot.play.press import PressCode
from bot.play.reply import ButtonSpec, ComponentSpec, OptionSpec, SelectSpec


def chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def rows_of_buttons(buttons: Sequence[ButtonSpec]) -> tuple[tuple[ComponentSpec, ...], ...]:
    return tuple(tuple(chunk) for chunk in chunks(buttons, chat.MAX_BUTTONS))


def cut(message: Message, n: int) -> Message:
    return message[:n] if isinstance(message, str) else message


def paged_selects(
    game_id: str,
    code: PressCode,
    options: Sequence[OptionSpec],
    *,
    placeholder: Message,
    page: int = 0,
    rows: int = chat.MAX_ROWS - 1,
    more: tuple[str, str] | None = None,
) -> list[tuple[ComponentSpec, ...]]:
    """`options` in selects of 25, at most `rows` selects a page. With `more` (the turn token and the menu),
    a More button shows the next page (the menu is drawn again at that page); without it, only the first."""
    per_page = chat.MAX_OPTIONS * rows
    pages = max(1, -(-len(options) // per_page))
    page = max(0, min(page, pages - 1))
    shown = options[page * per_page : (page + 1) * per_page]
    out: list[tuple[ComponentSpec, ...]] = [
        (SelectSpec(game_id, code, tuple(chunk), placeholder=placeholder, row=i),)
        for i, chunk in enumerate(chunks(shown, chat.MAX_OPTIONS))
    ]
    if pages > 1 and more is not None:
        token, menu = more
        nxt = (page + 1) % pages
        label = Text("btn.more", {"page": nxt + 1, "pages": pages})
        out.append((ButtonSpec(game_id, PressCode.MENU, label, token=token, args=(menu, str(nxt))),))
    return out
