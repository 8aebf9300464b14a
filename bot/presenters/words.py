"""Words every presenter uses: card colours, counted words, lists, payments, tickets and places, as catalogue
messages (`bot.messages`); names of places and players stay as the board data and the players spell them."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Join, Message, Place, Text
from engine.events import Paid
from engine.state import GameState
from maps import CARD_NAMES, LOCOMOTIVE
from maps.board import Board


def card(name: str, n: int | None = None) -> Text:
    """A card colour by its engine name ("red", "locomotive+4"): catalogue key ``card.<name>``."""
    key = "card." + name.replace("+4", "_plus4")
    return Text(key) if n is None else Text(key, {"n": n})


def cards(n: int, name: str) -> Text:
    """`n` cards of one colour: "3 red", "2 locomotives" / "3 rouges", "2 locomotives"."""
    return Text("count.cards", {"n": n, "card": card(name, n)})


def counted(word: str, n: int) -> Text:
    """`n` of a counted word (catalogue ``n.<word>`` with plural forms): "1 point", "3 tickets"."""
    return Text(f"n.{word}", {"n": n})


def meeple(color: str) -> Text:
    """A meeple's colour by the board's data name ("red"): catalogue key ``meeple.<name>``."""
    return Text(f"meeple.{color}")


def between(items: Sequence[Message], sep: Message) -> Join:
    """`items` with `sep` (a catalogue word, translated with them) between each two."""
    parts: list[Message] = []
    for i, item in enumerate(items):
        if i:
            parts.append(sep)
        parts.append(item)
    return Join(tuple(parts), "")


def listed(items: Sequence[Message]) -> Join:
    """Items as a list, separated as the reader's language separates them ("a, b" / "a、b": ``list.sep``)."""
    return between(items, Text("list.sep"))


def sentences(first: Message, *then: Message) -> Message:
    """Sentences one after the other, spaced as the reader's language spaces them ("Done. Your turn." /
    "完了。あなたの番です。": ``sentence.then``)."""
    said = first
    for following in then:
        said = Text("sentence.then", {"said": said, "next": following})
    return said


def and_list(items: Sequence[Message]) -> Message:
    """ "a, b and c" in the reader's language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Text("list.and", {"items": listed(items[:-1]), "last": items[-1]})


def or_list(items: Sequence[Message]) -> Message:
    """ "a, b or c" in the reader's language."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Text("list.or", {"items": listed(items[:-1]), "last": items[-1]})


def semicolon_list(items: Sequence[Message]) -> Message:
    """Items between semicolons, spaced as the reader's language spaces them ("a; b" / "a ; b")."""
    return between(items, Text("list.semicolon"))


#: The ticket decks the boards' data name (``mix`` of a ticket step), each with a catalogue name ``deck.<name>``.
DECKS = frozenset({"short", "long"})


def deck(name: str, n: int | None = None) -> Text:
    """A ticket deck by its data name ("short", "long"): catalogue ``deck.<name>`` with plural forms ("courts" in
    French: the deck's tickets)."""
    return Text(f"deck.{name}") if n is None else Text(f"deck.{name}", {"n": n})


def count_of(n: int, card_index: int) -> Text:
    return cards(n, CARD_NAMES[card_index])


def card_of(card_index: int | None) -> Message:
    """A card by its index, "?" for none or an unknown one."""
    return (
        card(CARD_NAMES[card_index]) if card_index is not None and 0 <= card_index < len(CARD_NAMES) else "?"
    )


def paid(laid: Paid) -> Message:
    """The cards laid on the table for a claim: "3 red and 1 locomotive"."""
    color, colored, locomotives, plus4, ferry_cards = laid
    parts: list[Message] = []
    if colored and color != LOCOMOTIVE:
        parts.append(cards(colored, CARD_NAMES[color]))
    if locomotives:
        parts.append(cards(locomotives, "locomotive"))
    if plus4:
        parts.append(cards(plus4, "locomotive+4"))
    if ferry_cards:
        parts.append(counted("ferry_cards", ferry_cards))
    return and_list(parts)


def payment_message(
    state: GameState, route: int, color: int, locos: int, plus4: int = 0, ferry: int = 0
) -> Message:
    """What a claim pays: "3 red + 1 locomotive"."""
    length = state.board.routes[route].length
    colored = max(0, length - locos - plus4 - ferry)
    parts: list[Message] = []
    if colored and color != LOCOMOTIVE:
        parts.append(count_of(colored, color))
    if locos:
        parts.append(count_of(locos, LOCOMOTIVE))
    if plus4:
        parts.append(cards(plus4, "locomotive+4"))
    if ferry:
        parts.append(counted("ferry_cards", ferry))
    return Join(tuple(parts), " + ") if parts else Text("pay.free")


def cards_shown(indexes: Sequence[int]) -> Message:
    """Cards by colour, as a list: the face-up row, the cards a tunnel revealed."""
    shown = tuple(card(CARD_NAMES[c]) for c in indexes if 0 <= c < len(CARD_NAMES))
    return listed(shown) if shown else "-"


def city(state: GameState, city_id: int | None) -> Message:
    """A city of the game's board, named as the reader knows it."""
    if city_id is None:
        return "?"
    return place(state.board, city_id)


def place(board: Board, city_id: int) -> Place:
    return Place(board.id, board.cities[city_id].name)


def route_words(board: Board, route: int) -> Message:
    """A route as `Board.route_label` writes it ("Paris–Wien"), its cities named as the reader knows them."""
    r = board.routes[route]
    return Join((place(board, r.a), place(board, r.b)), "–")


def ticket_text(state: GameState, ticket: int) -> Message:
    """A ticket as its owner reads it: "Roma – Bari (8)"."""
    return ticket_words(state.board, ticket)


def ticket_words(board: Board, ticket: int) -> Message:
    t = board.tickets[ticket]
    return Join((place(board, t.a), " – ", place(board, t.b), f" ({t.points})"), "")
