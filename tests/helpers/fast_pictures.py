"""The tests' one picture service that draws nothing: every picture is the same tiny PNG, and it notes what it
was asked (`from helpers.fast_pictures import FastPictures`; it follows `bot.play.pictures.Pictures`)."""

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
    """Pictures without drawing; notes what was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.words: list[tuple[str, Any]] = []  # (picture, the words it was asked to draw with)
        self.names: list[tuple[str, Any]] = []  # (picture, the seats' names it was asked to draw)

    async def board(
        self,
        state: Any,
        *,
        colorblind: bool = True,
        words: Any = None,
        since: Any = None,
        turn: bool = False,
        names: Any = (),
    ) -> bytes:
        self.calls.append("board")
        self.words.append(("board", words))
        self.names.append(("board", tuple(names)))
        return PNG

    async def hand(self, state: Any, seat: int, *, colorblind: bool = True, words: Any = None) -> bytes:
        self.calls.append("hand")
        self.words.append(("hand", words))
        return PNG

    async def ticket_map(
        self, state: Any, seat: int, *, colorblind: bool = True, words: Any = None, names: Any = ()
    ) -> bytes:
        self.calls.append("ticket_map")
        self.words.append(("ticket_map", words))
        self.names.append(("ticket_map", tuple(names)))
        return PNG

    async def stats_chart(self, ratings: Any, lengths: Any, *, words: Any = None) -> bytes:
        self.calls.append("stats_chart")
        self.words.append(("stats_chart", words))
        return PNG

    async def summary(self, state: Any, sheets: Any = (), *, words: Any = None, names: Any = ()) -> bytes:
        self.calls.append("summary")
        self.names.append(("summary", tuple(names)))
        return PNG

    async def gif(self, record: dict[str, Any], *, words: Any = None, names: Any = ()) -> bytes:
        self.calls.append("gif")
        self.names.append(("gif", tuple(names)))
        return b"GIF89a" + PNG

    def close(self) -> None:
        return None
