"""Engine actions <-> short codes that travel in custom ids, so nothing is kept between clicks.

The presentation never decides a rule: it lists `engine.rules.legal_actions`, shows each with a label and
sends the chosen one back as its code (the short name its presenter gives the kind, `bot.presenters`), e.g. `cr.12.3.1.0.0` for ClaimRoute(route=12, color=3, locomotives=1).
Any feature's action is encoded the same way from its dataclass fields; unknown codes decode to None.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot import presenters
from engine.actions import ACTION_TYPES, Action


def _value(v: Any) -> str:
    if v is None:
        return "n"
    if isinstance(v, tuple | list):
        return "+".join(str(int(x)) for x in v)
    return str(v)


def encode(action: Action) -> str:
    words = presenters.action_words(action.kind)
    parts = [words.short if words is not None else action.kind]
    parts.extend(_value(getattr(action, f.name)) for f in fields(action))
    return ".".join(parts)


def decode(code: str) -> Action | None:
    """The action a code names, or None when it names nothing (never raises)."""
    try:
        head, *values = code.split(".")
        cls = presenters.by_short(head) or ACTION_TYPES.get(head)
        if cls is None:
            return None
        fs = fields(cls)
        if len(values) != len(fs):
            return None
        kwargs: dict[str, Any] = {}
        for f, raw in zip(fs, values, strict=True):
            default = f.default
            if isinstance(default, tuple):
                kwargs[f.name] = tuple(int(x) for x in raw.split("+")) if raw else ()
            elif isinstance(default, str):
                kwargs[f.name] = raw
            elif raw == "n":
                kwargs[f.name] = None
            else:
                kwargs[f.name] = int(raw)
        return cls(**kwargs)
    except (ValueError, TypeError):
        return None
