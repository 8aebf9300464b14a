"""The one error family of the web API: a reason code, an HTTP status and the catalogue message the reader
reads, in their language. Nothing else (no token, no secret, no traceback) ever reaches an error."""

from __future__ import annotations

from typing import Any

from bot.i18n import default_catalog
from bot.manager import Illegal, Refused
from bot.messages import Message, Text
from bot.play.refusals import refusal


class WebError(Exception):
    """A refusal of the web API: `code` for the page's logic, `message` for the reader, `status` for HTTP."""

    def __init__(self, code: str, message: Message, status: int = 400) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status

    def body(self, locale: str | None) -> dict[str, Any]:
        text = default_catalog().render(self.message, locale) or ""
        return {"code": self.code, "text": text}


def web_error(code: str, status: int = 400, **params: Any) -> WebError:
    """An error worded by the catalogue key ``web.error.<code>``."""
    return WebError(code, Text(f"web.error.{code}", params), status)


#: The manager's refusals that say the database cannot be used right now (nothing was changed): a 503, never
#: "no such game" (the host reads one line per outage: bot.manager.outage).
OUTAGE = frozenset({"storage", "storage_down", "storage_unavailable"})


def from_refused(exc: Refused) -> WebError:
    """The manager's refusal, worded as the chat words it."""
    status = (
        503
        if exc.code in OUTAGE
        else 409
        if exc.code in ("stale", "conflict", "over", "not_started")
        else 403
        if exc.code in ("not_seated", "seat_ai")
        else 400
    )
    if exc.code in WEB_WORDED:
        return web_error(exc.code, status)
    return WebError(exc.code, refusal(exc).message, status)


#: Refusals the chat words in its own terms (buttons, messages): the map says them in its own (web.error.<code>).
WEB_WORDED = frozenset({"stale", "not_seated"})


#: The engine's reasons that say the move is not the reader's to make now (403, under their own code).
NOT_YOURS = frozenset({"not_your_turn", "wait_for_setup"})


def refused_move(exc: Refused) -> WebError:
    """The manager's refusal of a page's move, worded as the chat words it (the engine's reason for an illegal
    move); a refusal that says the reader may not move now carries the engine's reason as its code."""
    if exc.code in ("no_game", "unreadable"):
        return web_error("no_game", 404)
    error = from_refused(exc)
    reason = exc.params.get("reason")
    if exc.code == "illegal" and isinstance(reason, Illegal) and reason.code in NOT_YOURS:
        return WebError(reason.code, error.message, 403)
    return error


def looked_up(exc: Refused, code: str = "no_game") -> WebError:
    """A refusal met while looking a game up: the database down as itself (503, the chat's words), anything
    else the game not found (`code`, 404)."""
    return from_refused(exc) if exc.code in OUTAGE else web_error(code, 404)


def unless_outage(exc: Refused) -> None:
    """Raise the database's outage (503) where another refusal is no error (a name looked up for a nicety)."""
    if exc.code in OUTAGE:
        raise from_refused(exc) from None
