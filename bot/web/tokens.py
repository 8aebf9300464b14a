"""Signed, expiring tokens of the live map (itsdangerous): the page's session and the personal browser link.

A session says who the page is for (a Discord user, their name and language); a link says which user may open
which game in a browser. Both are signed with ``WEB_SECRET`` under different salts, so one can never pass for
the other, and both carry their time: an old one is refused (`TokenRefused`), as is one altered by a single
byte. Nothing here is secret but the key; a token is never logged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

#: How long a page's session lasts (a page left open longer is told to open the map again).
SESSION_SECONDS = 12 * 3600
#: How long a personal link opens the map.
LINK_SECONDS = 7 * 24 * 3600
#: The shortest WEB_SECRET accepted (bytes of text).
MIN_SECRET = 32


class TokenRefused(Exception):
    """A token that is forged, altered, of the wrong kind or expired: `reason` is "expired" or "invalid"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class SessionUser:
    """Who a page is for."""

    user_id: int
    name: str
    locale: str
    game: str = ""  # a session opened by a personal link: that game only


@dataclass(frozen=True, slots=True)
class Link:
    """A personal link: this user, this game."""

    user_id: int
    game_id: str
    locale: str = ""  # the user's Discord language when the link was made: the page's words


class Tokens:
    """Makes and reads the live map's tokens with one secret key."""

    def __init__(
        self,
        secret: str,
        *,
        session_seconds: int = SESSION_SECONDS,
        link_seconds: int = LINK_SECONDS,
    ) -> None:
        if len(secret) < MIN_SECRET:
            raise ValueError(f"WEB_SECRET must be at least {MIN_SECRET} characters long")
        self._sessions = URLSafeTimedSerializer(secret, salt="ttr-web-session")
        self._links = URLSafeTimedSerializer(secret, salt="ttr-web-link")
        self.session_seconds = session_seconds
        self.link_seconds = link_seconds

    def session(self, user: SessionUser) -> str:
        data = {"u": str(user.user_id), "n": user.name[:100], "l": user.locale[:10], "g": user.game}
        return str(self._sessions.dumps(data))

    def read_session(self, token: str) -> SessionUser:
        data = _read(self._sessions, token, self.session_seconds)
        try:
            return SessionUser(int(data["u"]), str(data["n"]), str(data["l"]), str(data.get("g") or ""))
        except (KeyError, TypeError, ValueError):
            raise TokenRefused("invalid") from None

    def seconds_left(self, token: str) -> float:
        """How long the session `token` remains good (TokenRefused when it is not good now)."""
        self.read_session(token)
        _data, signed = self._sessions.loads(token, max_age=self.session_seconds, return_timestamp=True)
        return max(0.0, signed.timestamp() + self.session_seconds - time.time())

    def link(self, link: Link) -> str:
        return str(self._links.dumps({"u": str(link.user_id), "g": link.game_id, "l": link.locale[:10]}))

    def read_link(self, token: str) -> Link:
        data = _read(self._links, token, self.link_seconds)
        try:
            return Link(int(data["u"]), str(data["g"]), str(data.get("l") or ""))
        except (KeyError, TypeError, ValueError):
            raise TokenRefused("invalid") from None


def _read(serializer: URLSafeTimedSerializer, token: Any, max_age: int) -> dict[str, Any]:
    if not isinstance(token, str) or not token or len(token) > 2000:
        raise TokenRefused("invalid")
    try:
        data = serializer.loads(token, max_age=max_age)
    except SignatureExpired:
        raise TokenRefused("expired") from None
    except BadSignature:
        raise TokenRefused("invalid") from None
    if not isinstance(data, dict):
        raise TokenRefused("invalid")
    return data
