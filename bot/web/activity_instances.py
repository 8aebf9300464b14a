"""Discord's word on an Activity instance, so that a page's channel id is never taken on trust: ``GET
{DISCORD_API}/applications/<client id>/activity-instances/<instance id>`` with the bot's token answers where the
instance runs (its channel, its guild) and which users are connected to it. A page then gets the game of that
channel only, and only for a user in the instance.

One call to Discord per instance, kept `ttl` seconds (a forged or ended instance too, so that a page cannot
make the server ask again and again); a user not in the kept answer asks once more when the answer is older than
`recheck` seconds (someone who just joined). Concurrent checks of one instance share one call. The bot's token
never reaches a log or an error: a failure is `InstanceRefused` with a reason word.

Used by the sign-in through Discord (bot/web/instance_gate.py) when the server has the bot's token.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp

#: An instance id as Discord makes them ("i-<launch id>-gc-<guild id>-<channel id>", "i-…-pc-<channel id>").
INSTANCE_ID = re.compile(r"[A-Za-z0-9-]{1,120}")


class InstanceRefused(Exception):
    """`reason`: "bad_id" (not an instance id), "unknown" (Discord knows no such instance of this application),
    "not_in_instance" (the user is not connected to it), "unavailable" (Discord could not be asked)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    instance_id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


@dataclass(slots=True)
class _Kept:
    at: float
    instance: ActivityInstance | None  # None: Discord knows no such instance


class ActivityInstances:
    """Asks Discord about instances of the application `client_id`, with the bot's `bot_token`."""

    def __init__(
        self,
        http: Callable[[], aiohttp.ClientSession],
        *,
        api: str,
        client_id: str,
        bot_token: str,
        ttl: float = 60.0,
        recheck: float = 5.0,
        timeout: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._http = http
        self._url = f"{api.rstrip('/')}/applications/{client_id}/activity-instances/"
        self._auth = {"Authorization": f"Bot {bot_token}"}
        self.ttl, self.recheck, self.timeout = ttl, recheck, timeout
        self._clock = clock
        self._kept: dict[str, _Kept] = {}
        self._asking: dict[str, asyncio.Future[_Kept]] = {}
        self.calls = 0  # calls made to Discord (for the figures)

    async def check(self, instance_id: str, user_id: int) -> ActivityInstance:
        """The instance, when `user_id` is connected to it (raises `InstanceRefused`)."""
        if not INSTANCE_ID.fullmatch(instance_id):
            raise InstanceRefused("bad_id")
        kept = await self._get(instance_id)
        if (
            kept.instance is not None
            and user_id not in kept.instance.users
            and self._clock() - kept.at >= self.recheck
        ):
            self._kept.pop(instance_id, None)
            kept = await self._get(instance_id)
        if kept.instance is None:
            raise InstanceRefused("unknown")
        if user_id not in kept.instance.users:
            raise InstanceRefused("not_in_instance")
        return kept.instance

    def prefetch(self, instance_id: str) -> None:
        """Starts asking Discord about the instance (unless kept or being asked), so that its answer comes while
        the sign-in's code is exchanged; `check` then awaits that same call."""
        if INSTANCE_ID.fullmatch(instance_id):
            asking = self._asking_for(instance_id)
            if asking is not None:  # (its failure is `check`'s to say; none if nobody checks)
                asking.add_done_callback(lambda f: f.cancelled() or f.exception())

    async def _get(self, instance_id: str) -> _Kept:
        kept = self._kept.get(instance_id)
        if kept is not None and self._clock() - kept.at < self.ttl:
            return kept
        asking = self._asking_for(instance_id)
        assert asking is not None
        return await asyncio.shield(asking)

    def _asking_for(self, instance_id: str) -> asyncio.Future[_Kept] | None:
        """The call to Discord about the instance under way (started now if none); None while a fresh answer
        is kept."""
        kept = self._kept.get(instance_id)
        if kept is not None and self._clock() - kept.at < self.ttl:
            return None
        asking = self._asking.get(instance_id)
        if asking is None:
            asking = asyncio.ensure_future(self._ask(instance_id))
            self._asking[instance_id] = asking
            asking.add_done_callback(lambda _f: self._asking.pop(instance_id, None))
        return asking

    async def _ask(self, instance_id: str) -> _Kept:
        self.calls += 1
        try:
            async with self._http().get(
                self._url + instance_id,
                headers=self._auth,
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            ) as resp:
                if resp.status == 404:
                    kept = _Kept(self._clock(), None)
                    self._remember(instance_id, kept)
                    return kept
                if resp.status != 200:
                    raise InstanceRefused("unavailable")
                data = await resp.json()
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise InstanceRefused("unavailable") from None
        kept = _Kept(self._clock(), _read(instance_id, data))
        self._remember(instance_id, kept)
        return kept

    def _remember(self, instance_id: str, kept: _Kept) -> None:
        now = self._clock()
        for key in [k for k, v in self._kept.items() if now - v.at >= self.ttl]:
            del self._kept[key]
        self._kept[instance_id] = kept


def _read(instance_id: str, data: object) -> ActivityInstance | None:
    """The instance in Discord's answer; None when it is not that instance (or not an answer at all)."""
    if not isinstance(data, dict) or data.get("instance_id") != instance_id:
        return None
    location = data.get("location")
    try:
        channel = int(location["channel_id"])  # type: ignore[index]
        guild = location.get("guild_id")  # type: ignore[union-attr]
        users = frozenset(int(u) for u in data.get("users") or ())
        return ActivityInstance(instance_id, channel, int(guild) if guild else None, users)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
