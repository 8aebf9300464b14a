"""DATABASE_URL: the one parser of a storage URL, used by the settings (bot.config: checked and redacted there),
:func:`bot.storage.open_repository` and the start-up checks (bot.wiring). It sits on the ground floor, beside
the settings, so that reading the settings never reaches storage.

``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (SQLAlchemy's convention: the path is
what follows the third slash), ``sqlite:///:memory:``; query options ``busy_timeout`` (milliseconds,
default 5000) and ``synchronous`` (NORMAL by default: durable across a crash of the bot, not across a
power cut; FULL for that).

``postgresql://user@host:5432/dbname`` (or ``postgres://``); query options ``schema`` (tables go in that
schema, created if missing), ``min_size`` and ``max_size`` (pool), ``lock_timeout_ms`` (default 5000: a
write waiting longer on a row lock raises StorageUnavailable). Other query parameters are passed to
asyncpg, which sends unknown ones as server settings: ``?synchronous_commit=off`` trades the last few
hundred milliseconds of commits in a server crash for append latency (about 4 ms -> 1.2 ms per append on
a disk with slow fsync).

A ``+driver`` suffix on the scheme (``postgresql+asyncpg``, ``sqlite+aiosqlite``) is accepted.
Error messages, log lines and reprs show the URL with its secrets masked (:func:`redact_url`): the password,
and the ``password``, ``sslpassword`` and ``passfile`` query parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, quote_plus, unquote, urlencode, urlsplit, urlunsplit

__all__ = ["SECRET_PARAMETERS", "DatabaseURL", "parse_database_url", "redact_url", "url_secrets"]

#: query parameters whose value is a secret (or says where one is): asyncpg reads each of them
SECRET_PARAMETERS = frozenset({"password", "sslpassword", "passfile"})
MASK = "***"

#: query option -> keyword argument of the backend's constructor, and whether it is a whole number
_SQLITE_OPTIONS = {"busy_timeout": ("busy_timeout_ms", True), "synchronous": ("synchronous", False)}
_POSTGRES_OPTIONS = {
    "schema": ("schema", False),
    "min_size": ("min_size", True),
    "max_size": ("max_size", True),
    "lock_timeout_ms": ("lock_timeout_ms", True),
}
_EXAMPLES = "sqlite:///path.db or postgresql://user@host/db"


@dataclass(frozen=True, slots=True)
class DatabaseURL:
    """A parsed storage URL: which backend, where, and the backend's options."""

    url: str
    backend: Literal["sqlite", "postgres"]
    #: keyword arguments for the backend's constructor, from the query string
    options: dict[str, Any] = field(default_factory=dict)
    #: sqlite: the database file, or ``:memory:``
    path: str = ""
    #: postgres: what asyncpg connects with (our own options taken out), and where the server is
    dsn: str = ""
    host: str = ""
    port: int = 0

    @property
    def in_memory(self) -> bool:
        return self.backend == "sqlite" and self.path == ":memory:"

    @property
    def redacted(self) -> str:
        return redact_url(self.url)

    def __repr__(self) -> str:  # the URL and the DSN carry the password: a repr may reach a log
        return f"DatabaseURL({self.redacted!r}, backend={self.backend!r}, path={self.path!r})"


def redact_url(url: str) -> str:
    """The URL with every secret it can carry replaced by ``***``, for log lines and error messages: the
    password of ``user:password@`` and the values of the ``password``, ``sslpassword`` and ``passfile``
    query parameters (asyncpg reads all of them)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    rest, hash_sign, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    if "@" in rest:
        creds, _, host = rest.rpartition("@")
        user, colon, _password = creds.partition(":")
        rest = f"{user}:{MASK}@{host}" if colon else rest
    if query:
        query = "&".join(_redact_parameter(pair) for pair in query.split("&"))
    return f"{scheme}://{rest}{question}{query}{hash_sign}{fragment}"


def _redact_parameter(pair: str) -> str:
    name, equals, value = pair.partition("=")
    if equals and value and unquote(name).strip().lower() in SECRET_PARAMETERS:
        return f"{name}={MASK}"
    return pair


def url_secrets(url: str) -> tuple[str, ...]:
    """The secrets `url` carries, as written and decoded: what a log line must never show."""
    found: list[str] = []
    _scheme, sep, rest = url.partition("://")
    if not sep:
        return ()
    rest = rest.partition("#")[0]
    rest, _, query = rest.partition("?")
    if "@" in rest:
        creds = rest.rpartition("@")[0]
        user, colon, password = creds.partition(":")
        if colon and password:
            found += [password, unquote(password)]
    for pair in query.split("&"):
        name, equals, value = pair.partition("=")
        if equals and value and unquote(name).strip().lower() in SECRET_PARAMETERS:
            plain = unquote(value.replace("+", " "))
            found += [value, plain, quote_plus(plain)]  # quote_plus: how the DSN given to asyncpg writes it
    return tuple(dict.fromkeys(found))


def parse_database_url(url: str) -> DatabaseURL:
    """Parse a storage URL; ValueError (saying what is wrong, password masked) when it is not one."""
    shown = redact_url(url)
    if "://" not in url:
        raise ValueError(f"must look like {_EXAMPLES}, got {shown!r}")
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower().split("+")[0]  # "postgresql+asyncpg", "sqlite+aiosqlite"
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        if scheme == "sqlite":
            if parts.netloc:
                raise ValueError("sqlite URLs have no host: use sqlite:///relative.db or sqlite:////abs.db")
            path = unquote(parts.path)
            path = path[1:] if path.startswith("/") else path
            if not path:
                raise ValueError("sqlite URL has no path")
            return DatabaseURL(url, "sqlite", _options(query, _SQLITE_OPTIONS, "sqlite"), path=path)
        if scheme in {"postgres", "postgresql"}:
            options = _options(query, _POSTGRES_OPTIONS, None)
            dsn = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(query), parts.fragment))
            host, port = parts.hostname or "localhost", parts.port or 5432
            return DatabaseURL(url, "postgres", options, dsn=dsn, host=host, port=port)
    except ValueError as exc:  # also urllib's own, such as a port that is not a number
        raise ValueError(f"{exc}, got {shown!r}") from None
    raise ValueError(f"unsupported scheme {parts.scheme!r} (use {_EXAMPLES}), got {shown!r}")


def _options(query: dict[str, str], known: dict[str, tuple[str, bool]], strict: str | None) -> dict[str, Any]:
    """Take our options out of ``query``; with ``strict`` (the backend's name) nothing else may remain."""
    options: dict[str, Any] = {}
    for name, (keyword, whole_number) in known.items():
        if name not in query:
            continue
        value = query.pop(name)
        if whole_number and not value.isdigit():
            raise ValueError(f"URL option {name} must be a whole number, not {value!r}")
        options[keyword] = int(value) if whole_number else value
    if strict and query:
        raise ValueError(f"unknown {strict} URL options: {sorted(query)}")
    return options
