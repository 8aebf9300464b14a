"""Games read in German, Italian, Japanese and Spanish (issue 31), each on the board that belongs to the language
(Germany, Italy, Japan, Europe), by a member whose Discord client is in that language (private replies) on a
server whose preferred locale is that language (public messages), AI seats included. Nothing the member receives
(public messages, private replies, buttons, menus, the commands typed along the way) holds a word that only the
English catalogue uses, a placeholder left unfilled (``{color}``), a catalogue key shown instead of its text, a
"1 cards"-like plural by the language's own counted words, or a text beyond Discord's limits.

The fast test of each language plays a few turns and asks the usual commands; the whole game is `slow`."""

from __future__ import annotations

import functools
import os
import re
import string
from typing import Any

import pytest
import simcord
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

#: Discord's locale of each new language, and the board its players play.
LANGUAGES = {"de": ("de", "germany"), "it": ("it", "italy"), "ja": ("ja", "japan"), "es": ("es-ES", "europe")}
#: Discord's locale of each language the games are read in (French too: the Germany board's meeples were English
#: in French as well).
LOCALES = {"fr": "fr", **{lang: locale for lang, (locale, _) in LANGUAGES.items()}}
#: The few turns of the fast loop: each new language on its own board, and French on the Germany board.
FEW_TURNS = [*((lang, board) for lang, (_, board) in sorted(LANGUAGES.items())), ("fr", "germany")]

#: Keys whose values are proper names (boards, variants, options) or command names: they may stay as in English.
PROPER = ("board.", "variant.", "option.", "cmd.")

#: Discord's limits (characters): message content, embed parts, a button's label, a select's option and
#: placeholder.
LIMITS = {
    "content": 2000,
    "title": 256,
    "description": 4096,
    "field.name": 256,
    "field.value": 1024,
    "footer": 2048,
    "embed": 6000,
    "button": 80,
    "option.label": 100,
    "option.description": 100,
    "placeholder": 150,
}


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Users' Discord client locales by user id (SimCord sends "en-US" for everyone else): add to the dict."""
    locales: dict[int, str] = {}
    made = simcord.interactions.base_payload

    @functools.wraps(made)
    def payload(*args: Any, **kwargs: Any) -> Any:
        record, data = made(*args, **kwargs)
        if kwargs.get("user_id") in locales:
            data["locale"] = locales[kwargs["user_id"]]
        return record, data

    monkeypatch.setattr(simcord.interactions, "base_payload", payload)
    return locales


# ----------------------------------------------------------------------------------------------- the checks


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_][\w']*", text)}


@functools.cache
def english_only(lang: str) -> tuple[str, ...]:
    """The literal pieces of the English catalogue's values (between placeholders) that the `lang` catalogue
    never holds: runs of words, and words of four letters or more that no `lang` value holds (a word both
    languages share, "Tunnel", "Express", never counts)."""
    catalog = default_catalog()
    english, other = catalog.messages["en"], catalog.messages[lang]
    everything_other = "\n".join(other.values())
    other_words = _words(everything_other)
    pieces: set[str] = set()
    for key, text in english.items():
        if key.startswith(PROPER) or other.get(key) == text:
            continue
        for literal, *_ in string.Formatter().parse(text):
            for piece in re.split(r"[\n`*_()\[\]:;,.!?/|·→➡️—–-]+", literal or ""):
                piece = piece.strip()
                words = re.findall(r"[A-Za-z']+", piece)
                if len(words) >= 2 and piece not in everything_other:
                    pieces.add(piece)
                pieces.update(w for w in words if len(w) >= 4 and w.lower() not in other_words)
    return tuple(sorted(pieces))


@functools.cache
def _english_pattern(lang: str) -> re.Pattern[str]:
    return re.compile("|".join(rf"(?<![\w']){re.escape(p)}(?![\w'])" for p in english_only(lang)))


def english_in(text: str, lang: str) -> list[str]:
    if _english_pattern(lang).search(text) is None:  # the usual case, one pass over the text
        return []
    return sorted({p for p in english_only(lang) if re.search(rf"(?<![\w']){re.escape(p)}(?![\w'])", text)})


@functools.cache
def _counted_words(lang: str) -> tuple[tuple[str, str], ...]:
    """`lang`'s counted words as (singular, plural) where they differ: the word after the number in a key's
    ``.one`` and ``.other`` forms, and the two words of an ``{x:@one|other}`` spec."""
    table = default_catalog().messages[lang]
    found: set[tuple[str, str]] = set()
    for key, text in table.items():
        if key.endswith(".other") and key[: -len("other")] + "one" in table:
            one_after = re.search(r"\{n\} (\w+)", table[key[: -len("other")] + "one"])
            after = re.search(r"\{n\} (\w+)", text)
            if after and one_after and after.group(1) != one_after.group(1):
                found.add((one_after.group(1), after.group(1)))
        for one, other in re.findall(r"\{\w+:@([^}|]*)\|([^}]*)\}", text):
            if one != other and one and other:
                found.add((one, other))
    return tuple(sorted(found))


#: The whole numbers each language counts in the singular (CLDR's cardinal rule "one" for integers: French 0 and
#: 1, German, Italian and Spanish 1 only).
SINGULAR_NUMBERS = {"fr": {0, 1}, "de": {1}, "it": {1}, "es": {1}, "ja": set()}


@functools.cache
def _counted_pattern(lang: str) -> re.Pattern[str] | None:
    words = {w for pair in _counted_words(lang) for w in pair}
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\d.,])\b(\d+) ({alternatives})\b(?![.,]\d)")


def plural_mistakes(text: str, lang: str) -> list[str]:
    """A whole number followed by a counted word in the other number: "1 Wagenkarten", "3 Karte", "0 cartes"
    (not "11", "1,5" or "21")."""
    pattern = _counted_pattern(lang)
    if pattern is None:
        return []
    singular = {one for one, _ in _counted_words(lang)}
    plural = {other for _, other in _counted_words(lang)}
    found = []
    for number, word in pattern.findall(text):
        one = int(number) in SINGULAR_NUMBERS[lang]
        if (one and word in plural and word not in singular) or (
            not one and word in singular and word not in plural
        ):
            found.append(f"{number} {word}")
    return found


#: Latin punctuation spacing in a language that writes none (Japanese: "東京、大阪", "です。次"): a Latin comma or
#: a space after a Japanese comma, full stop, "！" or "？" (a list or sentences joined in code).
LATIN_SPACING = {
    "ja": re.compile(r"[\u3001\u3002\u3040-\u30ff\u4e00-\u9fff\uff09], |[\u3001\u3002\uff01\uff1f] (?=\S)")
}


def spacing_mistakes(text: str, lang: str) -> list[str]:
    pattern = LATIN_SPACING.get(lang)
    return pattern.findall(text) if pattern is not None else []


PLACEHOLDER = re.compile(r"\{[A-Za-z_][\w.]*(?::[^{}]*)?\}")


@functools.cache
def _keys() -> frozenset[str]:
    keys = set()
    for table in default_catalog().messages.values():
        for key in table:
            keys.add(key)
            keys.add(re.sub(r"\.(one|other|few|many|two|zero)$", "", key))
    return frozenset(keys)


def keys_shown(text: str) -> list[str]:
    """Catalogue keys shown as they are (a key missing from every catalogue shows its name)."""
    return [k for k in re.findall(r"\b[a-z][a-z0-9_]*(?:\.[a-z0-9_+]+)+\b", text) if k in _keys()]


def beyond_limits(message: Any) -> list[str]:
    """The parts of `message` longer than Discord allows."""
    out = []

    def check(kind: str, text: Any) -> None:
        if text and len(str(text)) > LIMITS[kind]:
            out.append(f"{kind} {len(str(text))}: {str(text)[:60]!r}")

    check("content", message.content)
    for e in message.embeds or []:
        e = e if isinstance(e, dict) else e.to_dict()
        check("title", e.get("title"))
        check("description", e.get("description"))
        check("footer", (e.get("footer") or {}).get("text"))
        total = len(str(e.get("title") or "")) + len(str(e.get("description") or ""))
        for f in e.get("fields", []):
            check("field.name", f.get("name"))
            check("field.value", f.get("value"))
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
        if total > LIMITS["embed"]:
            out.append(f"embed {total}")
    for c in components(message):
        check("button" if c.get("type") == 2 else "placeholder", c.get("label") or c.get("placeholder"))
        for o in c.get("options", []):
            check("option.label", o.get("label"))
            check("option.description", o.get("description"))
    return out


def everything_in(message: Any) -> str:
    """A message's text, embeds, attachments' alt texts and its components' labels and options (not the files'
    names)."""
    parts = [message_text(message)]
    for c in components(message):
        parts.append(str(c.get("label") or ""))
        parts.append(str(c.get("placeholder") or ""))
        for o in c.get("options", []):
            parts.append(f"{o.get('label', '')} {o.get('description') or ''}")
    text = re.sub(r"[\w-]+\.(png|gif)\b", "", "\n".join(parts))  # the files' names are ids, not words
    return re.sub(r"`[a-z0-9_.-]+`", "", text)  # ids to type (`warehouses`, `remind_after_hours`)


def problems(received: list[Any], lang: str) -> dict[str, Any]:
    """Everything wrong in what a reader of `lang` received, by kind (empty when all is well)."""
    found: dict[str, Any] = {}
    if os.environ.get("TTR_DUMP"):  # to read a game as its player reads it
        with open(f"{os.environ['TTR_DUMP']}-{lang}.txt", "a", encoding="utf-8") as out:
            out.write(
                "\n\n=====\n".join(m.text if isinstance(m, Snapshot) else everything_in(m) for m in received)
            )
    for m in received:
        text = m.text if isinstance(m, Snapshot) else everything_in(m)
        for kind, hits in (
            ("english", english_in(text, lang)),
            ("placeholder", PLACEHOLDER.findall(text)),
            ("key", keys_shown(text)),
            ("plural", plural_mistakes(text, lang)),
            ("spacing", spacing_mistakes(text, lang)),
            ("limits", m.too_long if isinstance(m, Snapshot) else beyond_limits(m)),
        ):
            if hits:
                found.setdefault(kind, {})[tuple(hits)] = text[:300]
    return found


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_checks_find_what_they_look_for(lang: str) -> None:
    """The detectors themselves: an English turn line, a placeholder, a key, a wrong singular are caught; the
    line in the language is not."""
    catalog = default_catalog()
    english = catalog.text("ev.draw_tickets", "en", player="bob", tickets="3")
    assert english_in(english, lang), english
    assert not english_in(catalog.text("ev.draw_tickets", lang, player="bob", tickets="3"), lang)
    assert PLACEHOLDER.findall("a {color} b {city:de} c") == ["{color}", "{city:de}"]
    assert keys_shown("see ev.draw_tickets here") == ["ev.draw_tickets"]
    if lang in LATIN_SPACING:
        assert spacing_mistakes("東京, 大阪", lang) and spacing_mistakes("完了。 次", lang)
        assert not spacing_mistakes("東京、大阪。\n次", lang)
    if _counted_words(lang):  # Japanese counts without plural forms
        one, other = _counted_words(lang)[0]
        assert plural_mistakes(f"x 1 {other}.", lang) and plural_mistakes(f"x 3 {one}.", lang)
        assert not plural_mistakes(f"x 11 {other}, 1 {one}, 3,5 {other}.", lang)


# ---------------------------------------------------------------------------------------------- the games


async def _start(simcord_env, readers, lang: str, ais: tuple[str, ...], board: str = "", options: str = ""):  # type: ignore[no-untyped-def]
    locale = LOCALES[lang]
    board = board or LANGUAGES[lang][1]
    guild = simcord_env.create_guild("Rail", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    readers[alice.id] = locale
    gid, lobby = await open_game(channel, alice, board=board, ais=ais, options=options or None)
    return channel, alice, gid, lobby


async def _commands(alice, channel, board: str) -> list[Any]:  # type: ignore[no-untyped-def]
    received = []
    for command, params in (
        ("ttr status", {}),
        ("ttr log", {}),
        ("ttr settings", {}),
        ("ttr settings", {"setting": "remind_after_hours", "value": "1.5"}),
        ("ttr rules", {"map": board}),
        ("ttr hand", {}),
        ("ttr games", {}),
        ("ttr maps", {}),
    ):
        asked = await alice.slash(channel, command, **params)
        assert asked.response is not None, command
        received.append(asked.response)
    turn = last_turn(public_messages(channel))
    board_button = next((c for c in components(turn) if c["custom_id"].endswith(":board")), None)
    if board_button is not None:
        received.append((await alice.click(turn, custom_id=board_button["custom_id"])).response)
    return received


class Snapshot:
    """A message as it read at one moment: SimCord's interaction results show the message as it is now, and a
    private menu is edited in place step by step (the meeple choice became "alice took a meeple"), so each
    step is kept as it was shown."""

    def __init__(self, message: Any) -> None:
        self.text = everything_in(message)
        self.too_long = beyond_limits(message)
        self.private = is_ephemeral(message)


class Snapshots(list):  # type: ignore[type-arg]
    """`Seen.results` that keeps each result's response and follow-ups as they read when the driver saw them."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[Snapshot] = []

    def append(self, result: Any) -> None:
        super().append(result)
        for m in (result.response, *(getattr(result, "followups", None) or [])):
            if m is not None:
                self.shown.append(Snapshot(m))


def watching() -> tuple[Seen, Snapshots]:
    seen = Seen()
    seen.results = shown = Snapshots()
    return seen, shown


@pytest.mark.parametrize(("lang", "board"), FEW_TURNS)
async def test_a_few_turns_read_in_the_language(simcord_env, readers, lang, board):  # type: ignore[no-untyped-def]
    channel, alice, _gid, lobby = await _start(simcord_env, readers, lang, ("easy",), board)
    seen, shown = watching()
    for _ in range(6):
        last = last_public(channel)
        if f"<@{alice.id}>" in (last.content or "") and turn_buttons(last):
            await play_turn(alice, last, seen)
    received = [lobby, *await _commands(alice, channel, board)]
    await simcord_env.settle()
    received += public_messages(channel) + shown.shown
    assert any(is_ephemeral(m) for m in received)
    assert not problems(received, lang)
    assert simcord_env.errors == []


async def test_a_japanese_member_on_an_english_server(simcord_env, readers):  # type: ignore[no-untyped-def]
    """Who reads what: the member's private replies in Japanese, the server's public messages in English."""
    guild = simcord_env.create_guild("Rail", preferred_locale="en-US")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    readers[alice.id] = "ja"
    _gid, lobby = await open_game(channel, alice, board="japan", ais=("easy",))
    seen, shown = watching()
    for _ in range(4):
        last = last_public(channel)
        if f"<@{alice.id}>" in (last.content or "") and turn_buttons(last):
            await play_turn(alice, last, seen)
    received = [lobby, *await _commands(alice, channel, "japan")]
    await simcord_env.settle()
    received += public_messages(channel) + shown.shown
    private = [m for m in received if (m.private if isinstance(m, Snapshot) else is_ephemeral(m))]
    public = [m for m in received if m not in private]
    assert len(private) > 5 and len(public) > 5
    assert not problems(private, "ja")
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    shown_publicly = [m.text if isinstance(m, Snapshot) else everything_in(m) for m in public]
    assert not [t for t in shown_publicly if japanese.search(t)]
    assert all(japanese.search(m.text if isinstance(m, Snapshot) else everything_in(m)) for m in private)
    assert simcord_env.errors == []


#: The whole games (one AI seat: a two-player game is the shortest): each language on its own board, and the
#: features that make words of their own (Märklin's passengers in German, Europe's warehouses and depots in
#: Spanish).
WHOLE_GAMES = [
    ("de", "germany", ""),
    ("de", "marklin", ""),
    ("es", "europe", "warehouses"),  # Spanish's board, with the option's words too
    ("it", "italy", ""),
    ("ja", "japan", ""),
]


@pytest.mark.slow  # a whole game each; the fast loop keeps the few turns above
@pytest.mark.parametrize(("lang", "board", "options"), WHOLE_GAMES)
async def test_a_whole_game_read_in_the_language(simcord_env, readers, lang, board, options):  # type: ignore[no-untyped-def]
    channel, alice, _gid, lobby = await _start(simcord_env, readers, lang, ("hard",), board, options)
    seen, shown = watching()
    received: list[Any] = [lobby]
    for _ in range(6):
        last = last_public(channel)
        if f"<@{alice.id}>" in (last.content or "") and turn_buttons(last):
            await play_turn(alice, last, seen)
    received += await _commands(alice, channel, board)
    final = await play_until_over(channel, {alice.id: alice}, seen)
    await simcord_env.settle()
    received += public_messages(channel) + shown.shown
    assert final in received or any(m.id == final.id for m in received)
    assert not problems(received, lang)
    assert simcord_env.errors == []


# ------------------------------------------------------------------------------------- refusals' words


@pytest.mark.parametrize("lang", ["en", "fr", *sorted(LANGUAGES)])
def test_a_meeple_refusal_names_colours_and_cities_in_the_language(lang: str) -> None:
    """The engine names meeple colours by their data names and joins lists in English ("red, black", "Köln and
    Bonn"): the reader reads their own words (found reading the German game's words, issue 31)."""
    from bot.play.refusals import refusal_text
    from engine.errors import IllegalAction

    catalog = default_catalog()
    gone = IllegalAction("meeple_gone", "", meeple="black", city="Köln", meeples="red, white")
    ends = IllegalAction("meeple_not_on_route", "", cities="Köln and Bonn")
    either = IllegalAction("passenger_not_on_route", "", cities="Köln or Bonn")
    texts = [catalog.render(refusal_text(e), lang) or "" for e in (gone, ends, either)]
    words = {k: catalog.text(k, lang) for k in ("meeple.black", "meeple.red", "meeple.white")}
    assert all(w in texts[0] for w in words.values()), texts[0]
    assert catalog.text("list.and", lang, items="Köln", last="Bonn") in texts[1]
    assert catalog.text("list.or", lang, items="Köln", last="Bonn") in texts[2]
    if lang != "en":
        joined = "\n".join(texts)
        assert not any(w in joined for w in ("black", "white", " and ", " or ")), joined


@pytest.mark.parametrize("lang", ["en", "fr", *sorted(LANGUAGES)])
def test_a_meeple_is_offered_in_the_readers_colour_words(lang: str) -> None:
    """The Germany board's meeple choice names each colour in the reader's language (it was the board data's
    English word in every language, French included)."""
    from bot.play import labels
    from engine.actions import TakeMeeple
    from engine.rules import new_game

    state = new_game("germany", ["alice", "bob"], seed=1)
    colours = state.board.rule("meeples")["colors"]
    catalog = default_catalog()
    shown = [
        catalog.render(labels.message(state, 0, TakeMeeple(city=0, color=c)), lang) or "" for c in colours
    ]
    for colour, text in zip(colours, shown, strict=True):
        assert catalog.exact(f"meeple.{colour}", lang) in text, text
        if lang != "en":
            assert colour not in text, text
