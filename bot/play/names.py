"""The names seats go by, in the reader's language.

A person's seat goes by the name they joined with. An AI seat the manager seated is stored with its number only
(``ai_seat_name``: "🤖2"; games stored before this hold "AI 2 (hard)"), and the presentation names it from the
catalogue and the seat's ``ai_level``: "AI 2 (hard)" in English, "IA 2 (difficile)" in French (``seat.ai``). A
seat handed to the AI (a player away, or resigned) keeps its player's name: the name tells the two apart, the
AI seat is told by its ``ai_level`` (a stored "AI 2 (hard)" is an AI seat's name only on a seat without a
player whose level is ``hard``).

The engine and the manager's events know the seats by their stored names (``"🤖2 claimed Paris – Wien"``):
:class:`SeatNames` puts the catalogue's name in place of each AI seat's stored name in a reply (its texts,
fields, labels and the replies it carries), and in what the pictures draw (:meth:`SeatNames.pictures`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from bot.i18n import default_catalog
from bot.manager import AI_LEVELS
from bot.manager.games import AI_SEAT_MARK
from bot.messages import Join, Message, Text
from bot.play.reply import ButtonSpec, ComponentSpec, EmbedSpec, FieldSpec, OptionSpec, Reply
from engine.scoring import FinalSheet
from engine.state import GameState

_MARKED = re.compile(re.escape(AI_SEAT_MARK) + r"(\d+)")
_STORED_BEFORE = re.compile(r"AI (\d+) \((\w+)\)")  # the English name AI seats were stored with before


class Named(Protocol):
    """A seat as the storage or the manager's summaries hold it."""

    @property
    def name(self) -> str: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def ai_level(self) -> str | int | None: ...


def ai_number(seat: Named) -> int | None:
    """The number of the AI seat the manager seated (None: a person's seat, or one handed to the AI)."""
    marked = _MARKED.fullmatch(seat.name)
    if marked:
        return int(marked.group(1))
    before = _STORED_BEFORE.fullmatch(seat.name)
    if (
        before
        and seat.user_id is None
        and seat.ai_level is not None
        and before.group(2) == str(seat.ai_level)
    ):
        return int(before.group(1))
    return None


def seat_name(seat: Named) -> Message:
    """The name `seat` goes by: "AI 2 (hard)" / "IA 2 (difficile)" for an AI seat (without its level once a
    person took it over: "IA 2"), the player's name otherwise."""
    n = ai_number(seat)
    if n is None:
        return seat.name
    level = str(seat.ai_level) if seat.ai_level is not None else ""
    if level in AI_LEVELS:
        return Text("seat.ai", {"n": n, "level": Text(f"level.{level}")})
    return Text("seat.ai_plain", {"n": n})


def is_ai_seat(seat: Named) -> bool:
    """Whether an AI seat the manager seated (its name says its level: no level marker after it)."""
    return ai_number(seat) is not None and seat.ai_level is not None


@dataclass(frozen=True)
class SeatNames:
    """Stored name -> the name shown, for the seats whose stored name is not shown as it is (AI seats)."""

    shown: Mapping[str, Message]

    @classmethod
    def of(cls, seats: Iterable[Named]) -> SeatNames:
        return cls({s.name: seat_name(s) for s in seats if ai_number(s) is not None})

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.shown:
            return None
        names = sorted(self.shown, key=len, reverse=True)
        return re.compile("|".join(re.escape(n) for n in names))

    # ---------------------------------------------------------------- messages and replies

    def message(self, message: Message) -> Message:
        """`message` with every AI seat's stored name replaced by its name in the catalogue."""
        if self._pattern is None:
            return message
        return self._message(message)

    def _message(self, message: Message) -> Message:
        if isinstance(message, str):
            return self._string(message)
        if isinstance(message, Join):
            return dataclasses.replace(message, parts=tuple(self._message(p) for p in message.parts))
        return Text(message.key, {k: self._value(v) for k, v in message.params.items()})

    def _value(self, value: Any) -> Any:
        return self._message(value) if isinstance(value, str | Text | Join) else value

    def _string(self, text: str) -> Message:
        shown = self.shown.get(text)
        if shown is not None:
            return shown
        assert self._pattern is not None
        if self._pattern.search(text) is None:
            return text
        parts: list[Message] = []
        at = 0
        for found in self._pattern.finditer(text):
            parts += [text[at : found.start()], self.shown[found.group(0)]]
            at = found.end()
        parts.append(text[at:])
        return Join(tuple(p for p in parts if p != ""), "")

    def _maybe(self, message: Message | None) -> Message | None:
        return None if message is None else self._message(message)

    def reply(self, reply: Reply) -> Reply:
        """`reply` (and the replies it carries in `also`) with the AI seats named in the catalogue's words."""
        if self._pattern is None:
            return reply
        return dataclasses.replace(
            reply,
            content=self._maybe(reply.content),
            embeds=tuple(self._embed(e) for e in reply.embeds),
            files=tuple(dataclasses.replace(f, description=self._maybe(f.description)) for f in reply.files),
            rows=tuple(tuple(self._component(c) for c in row) for row in reply.rows),
            also=tuple(self.reply(r) for r in reply.also),
        )

    def _embed(self, embed: EmbedSpec) -> EmbedSpec:
        return dataclasses.replace(
            embed,
            title=self._maybe(embed.title),
            description=self._maybe(embed.description),
            fields=tuple(
                FieldSpec(self._message(f.name), self._message(f.value), f.inline) for f in embed.fields
            ),
            footer=self._maybe(embed.footer),
        )

    def _component(self, component: ComponentSpec) -> ComponentSpec:
        if isinstance(component, ButtonSpec):
            return dataclasses.replace(component, label=self._message(component.label))
        return dataclasses.replace(
            component,
            placeholder=self._maybe(component.placeholder),
            options=tuple(self._option(o) for o in component.options),
        )

    def _option(self, option: OptionSpec) -> OptionSpec:
        return dataclasses.replace(
            option, label=self._message(option.label), description=self._maybe(option.description)
        )

    # ---------------------------------------------------------------- pictures

    def text(self, name: str, language: str) -> str:
        """A stored name as `language` writes it."""
        shown = self.shown.get(name)
        return name if shown is None else default_catalog().render(self._message(name), language) or name

    def state(self, state: GameState, language: str) -> GameState:
        """`state` with its players named in `language` (a copy; `state` itself when no name changes)."""
        if not any(p.name in self.shown for p in state.players):
            return state
        named = state.copy()
        for p in named.players:
            p.name = self.text(p.name, language)
        return named

    def sheets(self, sheets: Sequence[FinalSheet], language: str) -> tuple[FinalSheet, ...]:
        return tuple(dataclasses.replace(s, name=self.text(s.name, language)) for s in sheets)

    def record(self, record: dict[str, Any], language: str) -> dict[str, Any]:
        """A game record (the GIF's) with its players named in `language`."""
        players = record.get("players")
        if not self.shown or not isinstance(players, list):
            return record
        return {**record, "players": [self.text(p, language) if isinstance(p, str) else p for p in players]}


def named_reply(seats: Iterable[Named], reply: Reply) -> Reply:
    """`reply` with the AI seats among `seats` named in the catalogue's words."""
    return SeatNames.of(seats).reply(reply)


__all__ = ["Named", "SeatNames", "ai_number", "is_ai_seat", "named_reply", "seat_name"]
