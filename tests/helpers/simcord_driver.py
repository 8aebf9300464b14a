"""Drives people through the bot's real messages: read the components the bot shows, press one of them.

Humans choose "the first sensible option" among what is offered: claim a route when the turn message offers it
(the longest route, proposed payment confirmed), else a pending decision, else draw cards (blind deck first), else the
first option; tickets keep the minimum (the first ones offered). Turn buttons are told apart by their custom ids
(`ttr:<game>:open:<token>~<menu>`, `ttr:<game>:decide`, `ttr:<game>:join`), or by the catalogue's label in any
language (Confirm, "Confirmer"), never by an English label: a game in French plays the same."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.i18n import default_catalog
from helpers.hidden import hidden_from

DEBUG = False
#: Turn-message menus in the order a person prefers them (claiming routes ends the game soonest).
PREFERRED_MENUS = ("claim", "decide", "draw", "tickets")


def components(message: Any) -> list[dict[str, Any]]:
    out = []
    for row in message.components or []:
        row = row if isinstance(row, dict) else row.to_dict()
        for c in row.get("components", [row]):
            if c.get("custom_id"):
                out.append(c)
    return out


@cache
def labels_of(key: str) -> frozenset[str]:
    """A button's label (catalogue key `key`) in every language the bot speaks."""
    catalog = default_catalog()
    return frozenset(table[key] for table in catalog.messages.values() if key in table)


def button_id(message: Any, code: str) -> str:
    """The custom id of `message`'s button of press code `code` (``join``, ``start``: `ttr:<game>:<code>`)."""
    return next(c["custom_id"] for c in components(message) if c["custom_id"].split(":")[2] == code)


def is_ephemeral(message: Any) -> bool:
    flags = getattr(message, "flags", None)
    if flags is None:
        return False
    eph = getattr(flags, "ephemeral", None)
    if eph is not None:
        return bool(eph)
    return bool(int(flags) & 64)


def public_messages(channel: Any) -> list[Any]:
    return [m for m in channel.history() if not is_ephemeral(m)]


def _stored_tail(channel: Any, count: int) -> list[Any]:
    """The newest `count` public messages as SimCord stores them (content, dict components and attachments),
    oldest first."""
    env = channel._env  # noqa: SLF001 - SimCord's store of what the channel holds
    stored = sorted(env.backend.messages.get(channel.id, {}).values(), key=lambda m: m.id, reverse=True)
    return [m for m in stored if not m.is_ephemeral][:count][::-1]


def _converted(channel: Any, stored: Any) -> Any:
    from simcord.results import to_discord_message

    return to_discord_message(channel._env, stored)  # noqa: SLF001


def public_tail(channel: Any, count: int = 6) -> list[Any]:
    """The newest `count` public messages, oldest first: ``public_messages(channel)[-count:]`` without turning the
    whole history into discord.py messages (SimCord's ``history()`` converts every message on each call, which
    made a whole game's driver quadratic)."""
    return [_converted(channel, m) for m in _stored_tail(channel, count)]


def last_public(channel: Any) -> Any:
    """The newest public message: ``public_messages(channel)[-1]``, converting that one only."""
    (last,) = public_tail(channel, 1)
    return last


@dataclass
class Seen:
    """What the test saw: every interaction result, for the leak and visibility checks."""

    results: list[Any] = field(default_factory=list)
    not_your_turn: int = 0
    private_texts: list[str] = field(default_factory=list)


def message_text(message: Any) -> str:
    parts = [message.content or ""]
    for e in message.embeds or []:
        e = e if isinstance(e, dict) else e.to_dict()
        parts.append(str(e.get("title", "")))
        parts.append(str(e.get("description", "")))
        for f in e.get("fields", []):
            # (on two lines, as Discord shows them)
            parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
        parts.append(str((e.get("footer") or {}).get("text", "")))
    for a in message.attachments or []:
        parts.append(f"{getattr(a, 'filename', '')} {getattr(a, 'description', '') or ''}")
    return "\n".join(parts)


async def follow_menu(member: Any, result: Any, seen: Seen, *, steps: int = 12) -> None:
    """Answer the ephemeral menus that follow a press until the bot stops asking."""
    for _ in range(steps):
        seen.results.append(result)
        message = result.response
        if DEBUG:
            print(
                "FOLLOW",
                result,
                result.ephemeral,
                message and is_ephemeral(message),
                message and message.content[:80],
            )
        if message is None:
            return
        if not is_ephemeral(message):
            return
        seen.private_texts.append(message_text(message))
        comps = components(message)
        if not comps:
            return
        keep = next((c for c in comps if c["custom_id"].endswith(":keep:*")), None)
        confirm = next(
            (c for c in comps if c.get("type") == 2 and c.get("label") in labels_of("btn.confirm")), None
        )
        select = next((c for c in comps if c.get("type") == 3), None)
        button = next((c for c in comps if c.get("type") == 2 and ":do:" in c["custom_id"]), None)
        if keep is not None:
            n = max(1, keep.get("min_values", 1))
            values = [o["value"] for o in keep["options"][:n]]
            result = await member.select(message, values, custom_id=keep["custom_id"])
        elif confirm is not None:
            result = await member.click(message, custom_id=confirm["custom_id"])
        elif button is not None:
            result = await member.click(message, custom_id=button["custom_id"])
        elif select is not None:
            options = select["options"]
            if ":grp" in select["custom_id"]:  # the routes one can claim: the longest ends the game soonest
                options = sorted(options, key=_length, reverse=True)
            result = await member.select(message, [options[0]["value"]], custom_id=select["custom_id"])
        else:
            return


def _length(option: dict[str, Any]) -> int:
    found = re.search(r"\((\d+) ", option.get("label", ""))
    return int(found.group(1)) if found else 0


def turn_buttons(message: Any) -> list[dict[str, Any]]:
    return [c for c in components(message) if c.get("type") == 2]


def menu_of(button: dict[str, Any]) -> str | None:
    """The menu a turn-message button opens ("claim", "draw", ..., "decide"), None for the others. The deck's
    button on the turn message (the first card of a draw, issue 16) counts as "draw"; the face-up cards' don't."""
    _, _, action, *rest = button["custom_id"].split(":", 3)
    if action == "decide":
        return "decide"
    if action == "open" and rest:
        return rest[0].rpartition("~")[2]
    if action == "do" and rest and rest[0].rpartition("~")[2].startswith("db."):
        return "draw"
    return None


async def play_turn(member: Any, message: Any, seen: Seen) -> bool:
    """Press this member's preferred action on a turn message; False when none is offered."""
    menus = {m: b for b in turn_buttons(message) if (m := menu_of(b)) is not None}
    if not menus:
        return False
    chosen = next((menus[m] for m in PREFERRED_MENUS if m in menus), next(iter(menus.values())))
    result = await member.click(message, custom_id=chosen["custom_id"])
    await follow_menu(member, result, seen)
    return True


def game_id_of(message: Any) -> str:
    return str(components(message)[0]["custom_id"].split(":")[1])


def is_final(message: Any) -> bool:
    """The final scores (their GIF follows in a message of its own); a stored message's attachments are dicts."""
    return any(
        (a.get("filename") if isinstance(a, dict) else getattr(a, "filename", "")) == "summary.png"
        for a in message.attachments or []
    )


async def open_game(
    channel: Any,
    host: Any,
    *,
    board: str,
    variant: str | None = None,
    options: str | None = None,
    joiners: tuple[Any, ...] = (),
    ais: tuple[str, ...] = ("easy",),
) -> tuple[str, Any]:
    """/ttr new, joins, AI seats, Start; returns the game id and the lobby message."""
    kwargs: dict[str, Any] = {"map": board}
    if variant:
        kwargs["variant"] = variant
    if options:
        kwargs["options"] = options
    lobby = await host.slash(channel, "ttr new", **kwargs)
    assert not lobby.ephemeral, lobby
    gid = game_id_of(lobby.response)
    for member in joiners:
        joined = await member.click(lobby.response, custom_id=button_id(lobby.response, "join"))
        assert joined.acknowledged
    for level in ais:
        await host.select(lobby.response, [level], custom_id=f"ttr:{gid}:addai:*")
    started = await host.click(lobby.response, custom_id=button_id(lobby.response, "start"))
    assert started.acknowledged and started.followups, started
    return gid, lobby.response


def last_turn(shown: list[Any]) -> Any:
    """The last turn message among public messages (what a command posted since, /ttr status, comes after it)."""
    return next((m for m in reversed(shown) if any(menu_of(b) for b in turn_buttons(m))), shown[-1])


async def play_until_over(
    channel: Any,
    people: dict[int, Any],
    seen: Seen,
    *,
    max_steps: int = 2000,
) -> Any:
    """Every person whose turn the last public message names plays; stops at the final message."""
    # The newest messages are read as SimCord stores them; only the one pressed (and the final scores) become
    # discord.py messages, as `public_tail` would have made them at that moment.
    for _ in range(max_steps):
        shown = _stored_tail(channel, 6)
        final = next((m for m in reversed(shown[-2:]) if is_final(m)), None)  # its GIF may follow it
        if final is not None:
            return _converted(channel, final)
        stored = last_turn(shown)
        content = stored.content or ""
        last = None
        for uid, member in people.items():
            if f"<@{uid}>" in content and turn_buttons(stored):
                last = _converted(channel, stored) if last is None else last
                await play_turn(member, last, seen)
        if last_turn(_stored_tail(channel, 6)).id == stored.id:
            raise AssertionError(f"nobody could play on: {content!r} {components(stored)}")
    raise AssertionError("the game did not end")


def secrets_of(state: Any) -> list[str]:
    """Strings that would betray a ticket in a public message: what `hidden_from` hides from anyone, as the bot
    writes a ticket."""
    return [f"{t.a} – {t.b}" for t in hidden_from(state, None).tickets]


PRIVATE_MARKERS = (
    "You drew",
    "You kept",
    "You received",
    "Your hand",
    "hand.png",
    "Keep at least",
    "Vous avez pioché",
    "Vous avez gardé",
    "Vous avez reçu",
    "Votre main",
    "Gardez au moins",
)


def assert_no_leak(channel: Any, state: Any, *, until: Any = None) -> int:
    """No public message (text, embeds, attachment names and alt text) before `until` holds a secret."""
    secrets = secrets_of(state)
    checked = 0
    for m in public_messages(channel):
        if until is not None and m.id >= until.id:
            break
        text = message_text(m)
        for secret in (*secrets, *PRIVATE_MARKERS):
            assert secret not in text, f"public message leaks {secret!r}: {text!r}"
        checked += 1
    return checked


async def play_until_button(
    channel: Any, member: Any, label: str, seen: Seen, *, max_steps: int = 120
) -> Any:
    """Play (first sensible options) until the turn message names `member` with a `label` button; that message."""
    for _ in range(max_steps):
        last = last_public(channel)
        if is_final(last):
            raise AssertionError(f"the game ended before {label!r} was offered")
        if f"<@{member.id}>" in (last.content or "") and any(
            b.get("label") == label for b in turn_buttons(last)
        ):
            return last
        if f"<@{member.id}>" in (last.content or ""):
            await play_turn(member, last, seen)
        if last_public(channel).id == last.id:
            raise AssertionError(f"stuck on {last.content!r}")
    raise AssertionError(f"{label!r} never offered")
