"""A whole game played by a French player on a French server, AI seats included, through the real messages (the
driver finds buttons by custom id or by the catalogue's label in any language): nothing the player receives (public
messages, private replies, buttons, menus, the commands they type along the way) holds a sentence of the English
catalogue that the French one words otherwise."""

from __future__ import annotations

import functools
import re
import string
from typing import Any

import pytest
from helpers.simcord_driver import (
    Seen,
    components,
    is_ephemeral,
    last_public,
    last_turn,
    message_text,
    open_game,
    play_turn,
    play_until_over,
    public_messages,
    turn_buttons,
)

from bot.i18n import default_catalog

#: Keys whose values are proper names (boards, variants, options, bonuses named after a card) or ids.
PROPER = ("board.", "variant.", "option.", "cmd.")


@functools.cache
def english_only() -> tuple[str, ...]:
    """The literal pieces of the English catalogue's values (between placeholders) that no French value holds:
    what would show English leaking into a French reader's messages: runs of words, and words of four letters or
    more that no French value holds (a word both languages share, "Tunnels", "Express", never counts)."""
    catalog = default_catalog()
    english, french = catalog.messages["en"], catalog.messages["fr"]
    everything_french = "\n".join(french.values())
    french_words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']+", everything_french)}
    pieces: set[str] = set()
    for key, text in english.items():
        if key.startswith(PROPER) or french.get(key) == text:
            continue
        for literal, *_ in string.Formatter().parse(text):
            for piece in re.split(r"[\n`*_()\[\]:;,.!?/|·→➡️—–-]+", literal or ""):
                piece = piece.strip()
                words = re.findall(r"[A-Za-z']+", piece)
                if len(words) >= 2 and piece not in everything_french:
                    pieces.add(piece)
                pieces.update(w for w in words if len(w) >= 4 and w.lower() not in french_words)
    return tuple(sorted(pieces))


@functools.cache
def _english_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each English piece as a whole-words pattern, compiled once (some 900 of them: `re`'s own cache of 512
    recompiled them for every text)."""
    return tuple((p, re.compile(rf"(?<![\w']){re.escape(p)}(?![\w'])")) for p in english_only())


@functools.cache
def _any_english() -> re.Pattern[str]:
    """All the pieces in one pattern: it matches a text exactly when one of them does."""
    return re.compile("|".join(f"(?:{pattern.pattern})" for _, pattern in _english_patterns()))


def english_in(text: str) -> list[str]:
    if _any_english().search(text) is None:  # the usual case, one pass over the text
        return []
    return [p for p, pattern in _english_patterns() if pattern.search(text)]


def everything_in(message: Any) -> str:
    """A message's text, embeds, attachments' alt texts and its components' labels and options (not the files'
    names)."""
    parts = [message_text(message)]
    for c in components(message):
        parts.append(str(c.get("label") or ""))
        parts.append(str(c.get("placeholder") or ""))
        for o in c.get("options", []):
            parts.append(f"{o.get('label', '')} {o.get('description') or ''}")
    return re.sub(r"[\w-]+\.(png|gif)\b", "", "\n".join(parts))  # the files' names are ids, not words


def test_the_check_finds_english() -> None:
    """The detector itself: an English turn line is caught, its French wording is not."""
    catalog = default_catalog()
    line = catalog.text("ev.draw_tickets", "en", player="bob", tickets="3")
    assert english_in(f"{line} AI 1 (hard)"), line
    assert not english_in(
        catalog.text("ev.draw_tickets", "fr", player="bob", tickets="3") + " IA 1 (difficile)"
    )


@pytest.mark.slow  # a whole game; the fast loop keeps test_the_check_finds_english and the French guild tests
async def test_a_french_player_reads_no_english_in_a_whole_game(simcord_env, french_users):  # type: ignore[no-untyped-def]
    guild = simcord_env.create_guild("Club du rail", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice = guild.add_member(simcord_env.create_user("alice"))
    french_users.add(alice.id)
    gid, lobby = await open_game(channel, alice, board="usa", ais=("easy", "hard"))
    seen = Seen()
    received: list[Any] = [lobby]

    # a few turns, then what a player asks along the way, then the game to its end
    for _ in range(6):
        last = last_public(channel)
        if f"<@{alice.id}>" in (last.content or "") and turn_buttons(last):
            await play_turn(alice, last, seen)
    for command, params in (
        ("ttr status", {}),
        ("ttr log", {}),
        ("ttr settings", {}),
        ("ttr settings", {"setting": "remind_after_hours", "value": "1.5"}),
        ("ttr rules", {"map": "usa"}),
        ("ttr hand", {}),
        ("ttr games", {}),
    ):
        asked = await alice.slash(channel, command, **params)
        assert asked.response is not None, command
        received.append(asked.response)
    turn = last_turn(public_messages(channel))
    board = next(c for c in components(turn) if c["custom_id"].endswith(":board"))
    received.append((await alice.click(turn, custom_id=board["custom_id"])).response)
    final = await play_until_over(channel, {alice.id: alice}, seen)
    await simcord_env.settle()
    received += public_messages(channel)
    received += [r.response for r in seen.results if r.response is not None]
    received += [f for r in seen.results for f in getattr(r, "followups", None) or []]

    texts = [everything_in(m) for m in received]
    everything = "\n".join(texts)
    assert "IA 1 (facile)" in everything and "IA 2 (difficile)" in everything
    assert "AI 1" not in everything and "🤖1" not in everything and "(easy)" not in everything
    assert "`remind_after_hours` : 1,5 heure" in everything  # the settings in words, French spacing
    assert "Mise en place" in everything  # the rules' other topics by their French titles
    assert any(is_ephemeral(m) for m in received) and final in received
    leaks = {piece: t for t in texts for piece in english_in(t)}
    assert not leaks, leaks
