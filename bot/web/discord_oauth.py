"""Discord's OAuth2 for the Activity: the code the Embedded App SDK's ``authorize`` gave the page, exchanged at
Discord's token endpoint (client id and secret), then ``GET /users/@me`` for who the user is.

``DISCORD_API`` (default https://discord.com/api/v10) is where; tests point it at a fake server. The client
secret and the tokens never reach a log or an error: a failure is `SignInFailed` with a reason word only.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp

DEFAULT_API = "https://discord.com/api/v10"


class SignInFailed(Exception):
    """The code was refused, or Discord could not be reached; `reason` is a word for the logs."""


@dataclass(frozen=True, slots=True)
class DiscordUser:
    user_id: int
    name: str
    locale: str
    access_token: str  # for the SDK's authenticate(); handed to the page, never stored nor logged


async def exchange_code(
    http: aiohttp.ClientSession,
    code: str,
    *,
    api: str,
    client_id: str,
    client_secret: str,
    timeout: float = 10.0,
) -> DiscordUser:
    """Who signed in with `code` (raises SignInFailed)."""
    if not code or len(code) > 512 or not client_id or not client_secret:
        raise SignInFailed("no code" if not code else "not configured")
    limit = aiohttp.ClientTimeout(total=timeout)
    try:
        async with http.post(
            f"{api.rstrip('/')}/oauth2/token",
            data={
                "client_id": client_id,
                "client_secret": client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
            timeout=limit,
        ) as resp:
            if resp.status != 200:
                raise SignInFailed(f"token endpoint answered {resp.status}")
            token = (await resp.json()).get("access_token")
        if not isinstance(token, str) or not token:
            raise SignInFailed("no access token")
        async with http.get(
            f"{api.rstrip('/')}/users/@me", headers={"Authorization": f"Bearer {token}"}, timeout=limit
        ) as resp:
            if resp.status != 200:
                raise SignInFailed(f"users/@me answered {resp.status}")
            me = await resp.json()
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise SignInFailed(type(exc).__name__) from None
    try:
        user_id = int(me["id"])
    except (KeyError, TypeError, ValueError):
        raise SignInFailed("no user id") from None
    name = str(me.get("global_name") or me.get("username") or user_id)
    return DiscordUser(user_id, name, str(me.get("locale") or ""), token)
