"""Pictures without drawing for the end-to-end tests
(`from helpers.fast_pictures import FastPictures`)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image


def _tiny_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (20, 120, 40)).save(buf, format="PNG")
    return buf.getvalue()


PNG = _tiny_png()


class FastPictures:
    """Pictures without drawing (the full-game tests); counts what was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.words: list[tuple[str, Any]] = []  # (picture, the words it was asked to draw with)

    async def board(
        self,
        state: Any,
        *,
        colorblind: bool = True,
        words: Any = None,
        since: Any = None,
        turn: bool = False,
    ) -> bytes:
        self.calls.append("board")
        self.words.append(("board", words))
        return PNG

    async def hand(self, state: Any, seat: int, *, colorblind: bool = True, words: Any = None) -> bytes:
        self.calls.append("hand")
        self.words.append(("hand", words))
        return PNG

    async def ticket_map(self, state: Any, seat: int, *, colorblind: bool = True, words: Any = None) -> bytes:
        self.calls.append("ticket_map")
        self.words.append(("ticket_map", words))
        return PNG

    async def summary(self, state: Any, sheets: Any = (), *, words: Any = None) -> bytes:
        self.calls.append("summary")
        return PNG

    async def gif(self, record: dict[str, Any], *, words: Any = None) -> bytes:
        self.calls.append("gif")
        return b"GIF89a" + PNG

    def close(self) -> None:
        return None
