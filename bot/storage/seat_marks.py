"""How an AI seat's name is stored, and how rows written before seats said their AI number are read.

An AI seat the manager seats is stored under the mark and its number ("🤖2", no words: the presentation names it
"AI 2 (hard)" / "IA 2 (difficile)"); games stored before that held the English "AI 2 (hard)". Rows written since
say the number outright (`Seat.ai_number`), so a person who joined as "🤖1" is that person; an older row without
it is read by its name, as it was then: the mark and a number, or the English form whose level is the seat's, on
a seat without a person.
"""

from __future__ import annotations

import re
from typing import Any, Final

AI_SEAT_MARK: Final = "🤖"

_MARKED = re.compile(re.escape(AI_SEAT_MARK) + r"(\d+)")
_STORED_BEFORE = re.compile(r"AI (\d+) \((\w+)\)")  # the English name AI seats were stored with before


def ai_seat_name(n: int) -> str:
    """The stored name of the `n`-th AI seat (the engine and the log know the seat by it)."""
    return f"{AI_SEAT_MARK}{n}"


def stored_ai_number(name: str, user_id: Any, ai_level: Any) -> int | None:
    """The AI number of a seat stored before rows said it: read from its name (None: a person's seat, or one
    handed to the AI)."""
    if user_id is not None:
        return None
    marked = _MARKED.fullmatch(name)
    if marked:
        return int(marked.group(1))
    before = _STORED_BEFORE.fullmatch(name)
    if before and ai_level is not None and before.group(2) == str(ai_level):
        return int(before.group(1))
    return None
