"""The Italian and Japanese catalogues (issue 31, part 1): every English key with the same placeholders, nothing
left in English by mistake, Discord's limits met with realistic values, colour letters that never collide, and
`/ttr rules` complete in both languages."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LOCALES_DIR, Catalog
from bot.messages import Text
from bot.rules_text import topics
from maps.board import MAPS_DIR, load_board

LANGUAGES = ("it", "ja")
#: Languages whose `/ttr rules` file is written (the rules catalogues are committed after the messages).
RULES_LANGUAGES: tuple[str, ...] = ("it", "ja")
FORMATTER = string.Formatter()


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(LOCALES_DIR) / name).read_text(encoding="utf-8"))
    return data


EN, FR = _load("en.json"), _load("fr.json")

#: Keys beyond English that the mechanism reads, as French has them: slash-command names and descriptions
#: (`cmd.*`), choice labels (`choice.*`), and the feminine forms of colours (`card.<colour>.fem.one/other`).
COMMAND_KEYS = {k for k in FR if k not in EN and k.startswith(("cmd.", "choice."))}
FEMININE_KEYS = {k for k in FR if k not in EN and ".fem." in k}

#: Values that are rightly the same as English: templates of placeholders only, names and loanwords the
#: language writes the same way.
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "it": {
        "games.mine.thread",  # Discord's Italian calls a thread "thread"
        "board.marklin",
        "board.usa",
        "variant.marklin.classic",
        "bonus.european_express",
        "picture.part_european_express",
        "bonus.globetrotter",
        "picture.part_globetrotter",
        "picture.letter_red",
        "picture.letter_blue",
        "picture.letter_locomotive",
        "picture.letter_passenger",
        "settings.no",
        # the game's name, as the Italian edition keeps it
        "web.ui.title",
        "picture.title",
        "lobby.title",
        "lobby.title_plain",
        "lobby.thread_name",
    },
    "ja": {
        # command names stay the English ones (players type them): see the report
        *(k for k in COMMAND_KEYS if k.endswith(".name")),
        "seat.ai_plain",  # "AI 2": Japanese writes AI in Latin letters too
    },
}


def _catalogue(lang: str) -> dict[str, str]:
    return _load(f"{lang}.json")


def _fields(text: str) -> list[tuple[str, str, str | None]]:
    return [(name, spec or "", conv) for _, name, spec, conv in FORMATTER.parse(text) if name is not None]


def _only_placeholders(text: str) -> bool:
    return not re.sub(r"\{[^{}]*\}", "", text).strip(" .:·,;()/\n*+-–`➡️🏁")


# ------------------------------------------------------------------ keys and placeholders


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_english_key_and_only_the_keys_the_mechanism_reads(lang: str) -> None:
    table = _catalogue(lang)
    assert all(isinstance(v, str) and v.strip() for v in table.values())
    assert set(EN) - set(table) == set(), "missing keys"
    extra = set(table) - set(EN)
    allowed = COMMAND_KEYS | (FEMININE_KEYS if lang == "it" else set())
    assert extra <= allowed, extra - allowed
    assert set(table) >= COMMAND_KEYS, COMMAND_KEYS - set(table)
    if lang == "it":  # Italian colour adjectives agree with "carta" as French ones with "carte"
        assert set(table) >= FEMININE_KEYS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_placeholders_as_english(lang: str) -> None:
    table = _catalogue(lang)
    for key, text in table.items():
        model = EN.get(key, FR.get(key))
        assert model is not None, key
        mine = _fields(text)
        theirs = _fields(model)
        assert {n for n, _, _ in mine} == {n for n, _, _ in theirs}, key
        # a `!r` conversion stays (it quotes what the player typed)
        assert {n for n, _, c in mine if c} == {n for n, _, c in theirs if c}, key
        names = {n for n, _, _ in theirs}
        for name, spec, _ in mine:
            ok = (
                spec in ("", "fem", "fem.other", "other", "de")
                or spec.startswith("@")
                or (spec.startswith("fem@") and spec[4:] in names)
            )
            assert ok, (key, name, spec)
            if spec.startswith("@"):  # a counted word: a number placeholder in English too
                assert any(n == name and s.startswith("@") for n, s, _ in theirs), (key, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_left_in_english_by_mistake(lang: str) -> None:
    table = _catalogue(lang)
    same = {
        k
        for k, v in table.items()
        if k in EN
        and v == EN[k]
        and not _only_placeholders(v)
        or (k in COMMAND_KEYS and v == _english_command(k))
    }
    assert same <= SAME_AS_ENGLISH[lang], sorted(same - SAME_AS_ENGLISH[lang])


def _english_command(key: str) -> str | None:
    """The English name of a command or option is the last part of its key path (`cmd.ttr.new.name`: "new")."""
    if not key.endswith(".name"):
        return None
    parts = key.split(".")
    return parts[-2]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_name_the_commands_as_this_language_names_them(lang: str) -> None:
    table = _catalogue(lang)
    names = {k: v for k, v in table.items() if k.startswith("cmd.") and k.endswith(".name")}
    commands = {k.split(".")[2]: v for k, v in names.items() if k.count(".") == 3}
    if lang == "ja":
        assert all(v == _english_command(k) for k, v in names.items()), "Japanese keeps the typed names"
    # every `/ttr <command>` a message shows is the command's name in this language
    for key, text in table.items():
        for shown in re.findall(r"/ttr ([\w-]+)", text):
            assert shown in commands.values(), (key, shown)


# ------------------------------------------------------------------ Discord's limits

NAME = re.compile(r"^[-_\w]{1,32}$")

#: Realistic values for every placeholder, long ones where they can be long (a route between two long names).
SAMPLE: dict[str, Any] = {
    "route": "Frankfurt – København",
    "player": "Alessandro_Bianchi",
    "players": "Alessandro_Bianchi, Beatrice, 花子, AI 2",
    "host": "Alessandro_Bianchi",
    "owner": "Beatrice",
    "owners": "Beatrice, 花子",
    "city": "Sankt Petersburg",
    "cities": "Sankt Petersburg, Constantinople",
    "board": "Europe",
    "variant": "Big Cities of Europe",
    "game": "a1b2c3",
    "n": 3,
    "need": 3,
    "have": 1,
    "have_locomotives": 0,
    "locomotives": 2,
    "ferry_cards": 1,
    "waves": 2,
    "cards": "3 rosso, 1 locomotiva",
    "paid": "3 rosso, 1 locomotiva",
    "revealed": "rosso, blu, locomotiva",
    "extra": "2",
    "points": "7 points",
    "tickets": "Roma – Milano (8); Napoli – Torino (12)",
    "ticket": "Roma – Milano (8)",
    "url": "https://ttr.example.org/play/a1b2c3?t=" + "x" * 40,
    "link": "https://discord.com/channels/123456789012345678/123456789012345678",
    "reason": "x" * 200,
    "lines": "x" * 400,
}


def _filled(catalog: Catalog, lang: str, key: str) -> str:
    text = catalog.messages[lang][key]
    params = {name: SAMPLE.get(name, "Alessandro_Bianchi") for name, _, _ in _fields(text)}
    if "card" in params:
        params["card"] = Text("card.locomotive_plus4", {"n": 3})
    if "color" in params:
        params["color"] = Text("card.yellow")
    if "deck" in params and key.startswith("illegal"):
        params["deck"] = Text("deck.short", {"n": 3})
    return catalog.text(key.rsplit(".", 1)[0] if key.endswith((".one", ".other")) else key, lang, **params)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_slash_command_names_and_descriptions_fit(lang: str) -> None:
    table = _catalogue(lang)
    siblings: dict[str, list[str]] = {}
    for key, value in table.items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert NAME.match(value) and value == value.lower(), (key, value)
            parent = key.split(".param.")[0] if ".param." in key else key.rsplit(".", 2)[0]
            siblings.setdefault(parent, []).append(value)
        elif key.startswith("cmd.") and key.endswith(".description"):
            assert 1 <= len(value) <= 100, (key, len(value))
        elif key.startswith("choice."):
            assert 1 <= len(value) <= 100, key
    for parent, names in siblings.items():
        assert len(names) == len(set(names)), (parent, names)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_and_fields_fit_with_realistic_values(lang: str, catalog: Catalog) -> None:
    for key in catalog.messages[lang]:
        if key.startswith(("cmd.", "choice.")):
            continue
        shown = _filled(catalog, lang, key)
        assert "{" not in shown or "{" in EN.get(key, ""), (key, shown)
        if key.startswith(("btn.", "act.", "web.btn.")):
            assert len(shown) <= 80, (key, len(shown), shown)  # a button label (or a select option's)
        elif key.startswith(("menu.", "lanes.")):
            assert len(shown) <= 100, (key, len(shown), shown)  # select options and placeholders
        elif key.endswith(".title") or key in ("final.routes", "hand.cards", "hand.tickets", "rules.more"):
            assert len(shown) <= 256, (key, len(shown))  # embed titles and field names
        else:
            assert len(shown) <= 1024, (key, len(shown))  # embed field values


@pytest.mark.parametrize("lang", LANGUAGES)
def test_route_letters_are_short_distinct_and_not_english(lang: str) -> None:
    table = _catalogue(lang)
    letters = {k: v for k, v in table.items() if k.startswith("picture.letter_")}
    assert set(letters) == {k for k in EN if k.startswith("picture.letter_")}
    assert len(set(letters.values())) == len(letters), letters
    for key, letter in letters.items():
        assert 1 <= len(letter) <= (1 if lang == "ja" else 2), (key, letter)
    # a colour's letter is this language's (Italian "G" is giallo, yellow): English's only where the words agree
    english = {k for k, v in letters.items() if v == EN[k]}
    assert english <= SAME_AS_ENGLISH[lang], english - SAME_AS_ENGLISH[lang]


def test_italian_colours_agree_with_the_noun(catalog: Catalog) -> None:
    card = Text("card.red", {"n": 3})
    assert catalog.text("count.cards", "it", n=3, card=card) == "3 rosse"
    assert catalog.text("ev.draw_face_up", "it", player="Bea", card=Text("card.white")) == (
        "Bea ha preso una carta bianca scoperta."
    )
    assert catalog.text("illegal.wrong_color", "it", route="Roma – Bari", color=Text("card.yellow")) == (
        "Roma – Bari è gialla: si paga con carte gialle (o Locomotive)."
    )
    need = catalog.text(
        "illegal.route_needs_color", "it", route="R", need=1, color=Text("card.black"), have=0
    )
    assert need == "R richiede 1 carta nera; ne hai 0."
    assert catalog.text("count.cards", "it", n=2, card=Text("card.locomotive", {"n": 2})) == "2 locomotive"


# ------------------------------------------------------------------ /ttr rules

CASES = [
    (board_id, variant)
    for board_id in sorted(p.stem for p in Path(MAPS_DIR).glob("*.json"))
    for variant in load_board(board_id).variants
]


def _structure(data: dict[str, Any]) -> list[tuple[str, str]]:
    parts = [("general", k) for k in data["general"]]
    return parts + [(b, k) for b, topics_ in data["boards"].items() for k in topics_]


def _entry(data: dict[str, Any], where: str, topic: str) -> dict[str, Any]:
    entry: dict[str, Any] = (data["general"] if where == "general" else data["boards"][where])[topic]
    return entry


def _names(text: str) -> set[str]:
    return {n for n, _, _ in _fields(text)}


@pytest.mark.parametrize("lang", RULES_LANGUAGES)
def test_rules_have_every_topic_and_word_with_the_same_placeholders(lang: str) -> None:
    en, mine = _load("rules.en.json"), _load(f"rules.{lang}.json")
    assert _structure(mine) == _structure(en) or sorted(_structure(mine)) == sorted(_structure(en))
    for where, topic_id in _structure(en):
        theirs, ours = _entry(en, where, topic_id), _entry(mine, where, topic_id)
        assert set(ours) == set(theirs), (where, topic_id)
        assert ours.get("when") == theirs.get("when"), (where, topic_id)
        for field in ("title", "text"):
            assert _names(ours[field]) == _names(theirs[field]), (where, topic_id, field)
        assert ours["text"] != theirs["text"], (where, topic_id)
        assert not re.search(r"\d", re.sub(r"\{\w*\}", "", ours["title"] + ours["text"]).replace("+4", "")), (
            where,
            topic_id,
        )
    words_en, words = en["words"], mine["words"]
    assert set(words_en) <= set(words)
    assert all(k in words_en or (k.endswith("_one") and k[:-4] in words_en) for k in words), "unknown words"
    for key, word in words.items():
        base = words_en.get(key, words_en.get(key[:-4], ""))
        assert _names(word) == _names(base), key
        assert not re.search(r"\d", re.sub(r"\{\w*\}", "", word).replace("+4", "").replace("1912", "")), key


@pytest.mark.parametrize(("board_id", "variant"), CASES)
@pytest.mark.parametrize("lang", RULES_LANGUAGES)
def test_rules_fill_for_every_board_and_fit_an_embed(board_id: str, variant: str, lang: str) -> None:
    board = load_board(board_id)
    found = topics(board, lang, variant)
    english = {t.id: t for t in topics(board, "en", variant)}
    assert [t.id for t in found] == list(english)
    for topic in found:
        assert topic.title.strip() and topic.text.strip()
        assert not _names(topic.title + topic.text), (topic.id, _names(topic.title + topic.text))
        assert topic.text != english[topic.id].text, topic.id
        assert len(topic.title) <= 256 and len(topic.text) <= 4096, topic.id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_colour_and_a_round_have_one_name_in_the_text_and_the_pictures(lang: str) -> None:
    table = _catalogue(lang)
    for colour in ("red", "blue", "green", "yellow", "black", "white", "orange", "pink"):
        assert table[f"picture.color_{colour}"] == table[f"card.{colour}.one"], colour
    assert table["picture.color_gray"] == table["card.gray"]
    footer_word = re.search(r"· (\w+?) ?\{round\}", table["turn.footer"])
    assert footer_word and table["picture.round"].lower().startswith(footer_word.group(1).lower())
