"""Every word the pictures draw, handed in by the caller so that a French server gets French pictures.

The renderer names no sentence of its own: the board panel, the private hand, the score chart and the GIF take a
:class:`PictureWords`. Its English defaults serve the command line (`ttr render`) and tests; the bot fills every
field from its catalogue (`picture.<field>` keys in `bot/locales/<lang>.json`, see `bot/play/pictures.py`), and a
test checks that both catalogues hold every field with the same placeholders.

A field holds a template with ``{name}`` placeholders. Counted words come as two fields, ``<name>_one`` and
``<name>_other``; :meth:`PictureWords.count` picks the form by the language's CLDR rule, the one the catalogue's
messages follow (`render.language.plural_form`: French says "0 carte", English "0 cards"). Besides the words, the
language's font (`render.fonts`: Japanese is drawn in a CJK font) and the cities' names as its readers know them
(東京 for Tokyo). The value is frozen and hashable, so it can key the cache of the printed map and cross to the
render pool's worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .fonts import LATIN_FONT
from .language import plural_form


@dataclass(frozen=True, slots=True)
class PictureWords:
    #: the language the words are in: its CLDR plural rule picks `count`'s forms
    language: str = "en"
    #: the font family the pictures draw in (`render.fonts.font_for`)
    font: str = LATIN_FONT
    #: (board id, name) pairs in this language; a board not listed shows its data file's name
    board_names: tuple[tuple[str, str], ...] = ()
    #: (board id, city's name on that board, name in this language) triples; a city not listed shows the board's
    #: name. Keyed by the board: one name may be two boards' cities with two translations (or a city on one only)
    city_names: tuple[tuple[str, str, str], ...] = ()
    #: (board id, zoom inset, name in this language) triples: the insets' titles (Japan's Kyushu: 九州)
    zoom_names: tuple[tuple[str, str, str], ...] = ()
    # the board's side panel
    title: str = "Ticket to Ride · {board}"
    round: str = "Round {n}"
    final_scores: str = "Final scores"
    face_up: str = "Face-up"
    deck: str = "Deck {n}"
    discard: str = "Discard {n}"
    tickets_left: str = "Tickets {n}"
    last_move: str = "Last move"
    drew_cards_or_tickets: str = "{player} drew cards or tickets"
    tickets: str = "Tickets"
    more_tickets: str = "+{n} more"
    route_letters: str = "Route letters"
    # the pictograms' legend under the player rows
    icon_trains: str = "trains"
    icon_cards: str = "cards"
    icon_tickets: str = "tickets"
    icon_stations: str = "stations"
    icon_passengers: str = "passengers"
    icon_bullets: str = "bullet trains"
    icon_depots: str = "depots"
    icon_track: str = "bullet track"
    icon_done: str = "tickets done"
    icon_ferry_cards: str = "ferry cards"
    icon_merchandise: str = "merchandise points"
    icon_meeples: str = "meeples taken"
    # colour names (route-letter legend)
    color_red: str = "red"
    color_blue: str = "blue"
    color_green: str = "green"
    color_yellow: str = "yellow"
    color_black: str = "black"
    color_white: str = "white"
    color_orange: str = "orange"
    color_pink: str = "pink"
    color_gray: str = "gray"
    # the letter printed on each route and card colour for colour-blind players (gray routes have none); the
    # route-letter legend pairs each with its colour's name above
    letter_red: str = "R"
    letter_blue: str = "B"
    letter_green: str = "G"
    letter_yellow: str = "Y"
    letter_black: str = "K"
    letter_white: str = "W"
    letter_orange: str = "O"
    letter_pink: str = "P"
    letter_locomotive: str = "L"
    letter_passenger: str = "Pa"
    # the private hand picture
    hand_title: str = "Your hand"
    hand_cards_one: str = "{n} card"
    hand_cards_other: str = "{n} cards"
    no_cards: str = "No cards"
    no_tickets: str = "No tickets"
    tickets_summary: str = "done +{done} · open {open}"
    ticket_done: str = "✔ done"
    ticket_blocked: str = "✘ blocked"
    needs_trains_one: str = "needs {n} train"
    needs_trains_other: str = "needs {n} trains"
    # the private ticket map (render.tickets_map)
    map_title: str = "Your tickets on the map"
    map_done: str = "ticket done"
    map_path: str = "cheapest path left"
    map_network: str = "your routes"
    map_blocked: str = "cannot be completed"
    # the end-of-game score chart: its parts (route points, tickets, each bonus) and the losses
    part_routes: str = "routes"
    part_tickets: str = "tickets"
    part_european_express: str = "European Express"
    part_longest_path: str = "longest path"
    part_globetrotter: str = "Globetrotter"
    part_most_tickets: str = "most tickets"
    part_stations: str = "stations kept"
    part_depots: str = "depots"
    part_bullet_trains: str = "bullet trains"
    part_ferry_cards: str = "ferry cards"
    part_meeples: str = "meeples"
    part_merchandise: str = "merchandise"
    part_passengers: str = "passengers"
    part_regions: str = "regions"
    lost: str = "lost (failed tickets…)"
    # `/ttr stats`'s chart (render.stats_chart)
    stats_rating: str = "Rating, game after game"
    stats_lengths: str = "Routes by length, last game"

    def text(self, name: str, **params: object) -> str:
        """Field `name` with its placeholders filled."""
        return str(getattr(self, name)).format(**params)

    @property
    def zero_is_singular(self) -> bool:
        return plural_form(0, self.language) == "one"

    def count(self, name: str, n: int, **params: object) -> str:
        """The `<name>_one` form when `n`'s CLDR category is "one" in this language, else `<name>_other`."""
        form = "one" if plural_form(n, self.language) == "one" else "other"
        return self.text(f"{name}_{form}", n=n, **params)

    def zoom(self, board_id: str, zoom: str) -> str:
        """A zoom inset's title on board `board_id` (`zoom`: its id, "kyushu")."""
        return next(
            (local for bid, z, local in self.zoom_names if bid == board_id and z == zoom), zoom.title()
        )

    def city(self, board_id: str, name: str) -> str:
        """A city of board `board_id` as this language's readers know it (`name`: the board's)."""
        return next((local for bid, city, local in self.city_names if bid == board_id and city == name), name)

    def board_name(self, board_id: str, default: str) -> str:
        """The board's name in this language (`default`: the data file's, when not translated)."""
        return next((name for bid, name in self.board_names if bid == board_id), default)

    def color(self, name: str) -> str:
        return str(getattr(self, f"color_{name}", name))

    def letter(self, name: str) -> str:
        """The letter of a route or card colour (``"locomotive+4"``: the locomotive's and 4); "" for gray."""
        base, plus, rest = name.partition("+")
        return str(getattr(self, f"letter_{base}", "")) + (plus and rest)

    def part(self, key: str) -> str:
        """A score part's label; an unknown part shows its key."""
        return str(getattr(self, f"part_{key}", key.replace("_", " ")))


ENGLISH = PictureWords()

#: What is not a word of the catalogue: the language and its font.
_NOT_WORDS = frozenset({"language", "font"})
# The template fields: what a catalogue must provide, as `picture.<field>`.
FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(PictureWords) if f.type in (str, "str") and f.name not in _NOT_WORDS
)
