"""What one reader's page shows of a game (the contract's ``view``), built from the same parts the chat uses:
the legal actions of the engine, each as its `bot.play.codec` code with its presenter's label, the menus'
categories, the hand and tickets from `engine.views.player_view` of the reader's own seat only, and the board
drawn by `render/` (the same drawing as the PNG's map, with touch targets): a base fetched once at its own URL,
and the game's pieces over it in the view (`render.board_live`).

Hidden information: the public part (players' counts, face-up row, deck sizes, the board, the log) is built from
public views only and is the same for every reader (the board's base drawing is fetched apart, at its own URL;
its pieces are in the view); the private part (``me``, ``actions``, ``pending``) is built only for the seat of
the reader, and only when they sit there. The seed and the deck order never leave the engine; the SVG is drawn
from the public view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast, get_args

from bot import presenters
from bot.i18n import default_catalog, language_of, plural_forms_needed
from bot.manager import GameInfo, GameStatus
from bot.manager.events import GameEvent, final_sheets
from bot.messages import Message
from bot.play import codec, labels
from bot.play.event_words import line, table_of
from bot.play.menus import category_of
from bot.play.names import seat_name, seat_table, seat_words
from bot.play.pictures import board_picture_view, picture_words
from bot.presenters.words import card
from bot.web.contract import Action as ActionEntry
from bot.web.contract import Card, LogLine, Me, Offered, PartKind, Pending, ScorePart, View
from engine.actions import Action, KeepTickets
from engine.pending import TicketChoice
from engine.rules import legal_actions
from engine.sheets import FinalSheet
from engine.state import GameState
from engine.views import player_view, public_view
from maps import CARD_NAMES, load_board
from maps.board import Board
from maps.city_names import city_name
from render.board_live import compose, live_base_svg, live_pieces, seat_mark_svg
from render.from_engine import seat_color
from render.layout import layout_of

#: The catalogue keys of every word the page shows (``web.ui.*``), sent with each view in the reader's language.
UI_KEYS = (
    "title",
    "loading",
    "your_turn",
    "waiting_for",
    "spectator",
    "hand",
    "tickets",
    "deck",
    "tickets_deck",
    "face_up",
    "players",
    "log",
    "claim",
    "cancel",
    "keep",
    "keep_hint",
    "pay_with",
    "trains",
    "cards",
    "score",
    "done",
    "ticket_map",
    "zoom_in",
    "zoom_out",
    "fit",
    "reconnecting",
    "game_over",
    "pending",
    "other_actions",
    "confirm",
    "no_action_here",
    "signin_failed",
    # the page's menus, one per action `group` (bot/presenters' menus), and its own words since
    *(
        f"group.{g}"
        for g in ("draw", "claim", "tickets", "station", "depot", "ferry", "move", "pass", "decide")
    ),
    "choice_gone",
    "last_move",
    "ranking",
    "board",
    "sheet",
    # who is on the map (inside Discord) and the lobby's Invite
    "on_map",
    "invite",
    # the screen readers' labels, whole sentences with their numbers and names in place
    "player_label",
    "score_n",
    "trains_n",
    "cards_n",
    "action_paid",
    "here_playing",
    "here_watching",
    # the reader's Discord status (rich presence) and the final scores' Share (inside Discord)
    "presence_turn",
    "presence_lobby",
    "presence_setup",
    "share",
    # the final ranking's breakdown (with the chat's words for routes and bonuses: SHEET_KEYS)
    "part_done",
    "part_failed",
    "part_bonus",
    # whole sentences the page used to assemble: a watcher's status, a menu's name with its count
    "watching_waiting",
    "group_n",
)

#: The bonuses a final score may hold (`engine.scoring`'s and the board modules' ids: the contract's `PartKind`).
BONUS_KINDS = frozenset(get_args(PartKind)) - {"routes", "tickets_done", "tickets_failed"}

#: The chat's words for the final score sheet that the page shows at the end too (`bot.play.final`), and those of
#: a list of names ("ann, bob and eve"), sent with the page's own words.
SHEET_KEYS = ("final.routes", *(f"bonus.{k}" for k in sorted(BONUS_KINDS)), "list.sep", "list.and")

#: Words with a number, sent in every plural form the reader's language needs (``<key>.<form>``, CLDR's
#: categories): the page picks the form of its number (``Intl.PluralRules``, the same CLDR rules).
PLURAL_KEYS = ("n.points",)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads: a Discord user (None: nobody signed in) and their language."""

    user_id: int | None
    locale: str


def language(locale: str | None) -> str:
    return language_of(locale) or default_catalog().default


def language_of_tag(tag: str) -> str:
    """The catalogue language of a browser's language tag ("fr-FR" -> "fr"), or "" when the bot does not speak it."""
    code = language_of(tag)
    for candidate in (code, code.split("-")[0]):
        if candidate and candidate in default_catalog().locales:
            return candidate
    return ""


def words_of(message: Message | None, names: Sequence[Message], locale: str) -> str:
    """`message` in `locale`, each seat named from the seat table `names` (`seat_table`)."""
    return default_catalog().seated(names).render(message, locale) or ""


def seat_of(info: GameInfo, user_id: int | None) -> int | None:
    """The reader's seat, when they sit in the game themself (an AI plays no reader's seat)."""
    if user_id is None:
        return None
    return next((s.seat for s in info.seats if s.user_id == user_id), None)


def open_seats(info: GameInfo) -> int:
    """The seats still free in a lobby (as many as the board and the host's setting allow); 0 once started."""
    if info.status is not GameStatus.LOBBY:
        return 0
    hi = load_board(info.board).rules.get("players", [2, 5])[1]
    return max(0, min(hi, info.settings.max_players or hi) - len(info.seats))


def board_base(board: Board, colorblind: bool, locale: str) -> str:
    """The board's base drawing for readers of `locale`: the printed map, its (empty) layers of pieces and the
    touch targets; the same all game (it changes with the board, the language and the colour-blind setting)."""
    return live_base_svg(board, colorblind=colorblind, words=picture_words(locale))


def board_pieces(info: GameInfo, state: GameState, locale: str, highlight: Any = None) -> dict[str, str]:
    """What the game puts over the base, from the public view only: each piece's SVG under its id
    (`render.board_live.live_pieces`)."""
    words = picture_words(locale)
    names = seat_words(info.seats, language(locale))
    return live_pieces(
        state.board,
        board_picture_view(state, words, names=names),
        colorblind=info.settings.colorblind,
        words=words,
        highlight=highlight,
    )


def board_svg(info: GameInfo, state: GameState, locale: str, highlight: Any = None) -> str:
    """The board as every reader of `locale` sees it, whole: the base with the game's pieces in it (as the
    page composes them)."""
    base = board_base(state.board, info.settings.colorblind, locale)
    return compose(base, board_pieces(info, state, locale, highlight))


def texts(locale: str) -> dict[str, str]:
    catalog = default_catalog()
    words = {f"web.ui.{k}": catalog.text(f"web.ui.{k}", locale) for k in UI_KEYS}
    words.update((k, catalog.text(k, locale)) for k in SHEET_KEYS)
    for key in PLURAL_KEYS:
        for form in sorted(plural_forms_needed(language(locale)) | {"one", "other"}):
            words[f"{key}.{form}"] = catalog.template(f"{key}.{form}", locale) or catalog.text(
                key, locale, n=0
            )
    return words


def breakdown(sheet: FinalSheet) -> list[ScorePart]:
    """What made a seat's final score, as facts the page words: its routes, its tickets completed and failed
    (each with how many), then every bonus it scored or lost (a missed one, 0, is left out, as the chat leaves
    it out); the points add up to the sheet's total."""
    done = [t.points for t in sheet.tickets if t.completed]
    failed = [t.points for t in sheet.tickets if not t.completed]
    parts: list[ScorePart] = [{"kind": "routes", "points": sheet.route_points}]
    if done:
        parts.append({"kind": "tickets_done", "points": sum(done), "count": len(done)})
    if failed:
        parts.append({"kind": "tickets_failed", "points": -sum(failed), "count": len(failed)})
    for name, points in sheet.bonuses.items():
        if points:
            if name not in BONUS_KINDS:
                raise ValueError(
                    f"a bonus the contract does not name: {name!r} (bot/web/contract.py PartKind)"
                )
            parts.append({"kind": cast(PartKind, name), "points": points})
    return parts


def log_lines(events: Sequence[GameEvent], info: GameInfo, locale: str) -> list[LogLine]:
    """The log of the page: each public event's line in `locale`, with the route it took to highlight."""
    names, table = seat_table(info.seats), table_of(info)
    return [
        {
            "seq": e.seq,
            "line": words_of(line(e, table), names, locale),
            "seat": e.seat,
            "routes": [r] if isinstance(r := (e.data.get("args") or {}).get("route"), int) else [],
        }
        for e in events
    ]


def one_line(texts: Sequence[str], locale: str) -> str:
    """Sentences one after the other, spaced as the reader's language spaces them (``sentence.then``)."""
    catalog, said = default_catalog(), ""
    for text in texts:
        said = catalog.text("sentence.then", locale, said=said, next=text) if said else text
    return said


def drawing_url(game_id: str, locale: str, tag: str) -> str:
    """Where the page fetches the board's drawing (relative to the page): one URL per drawing, so it is cached."""
    return f"api/games/{game_id}/board.svg?lang={locale}&v={tag}"


def public_part(
    info: GameInfo,
    state: GameState | None,
    locale: str,
    drawing: str,
    log: list[LogLine],
    pieces: dict[str, str] | None = None,
) -> View:
    """Everything every reader of `locale` sees alike (and no private part: `game_view` adds it)."""
    catalog = default_catalog()
    names = seat_table(info.seats)
    # once the game is over, the score is the final one (tickets, bonuses), as the drawing's panel shows it
    sheets = {f.seat: f for f in final_sheets(state)} if state is not None else {}
    view: View = {
        "game_id": info.game_id,
        "version": info.action_count,
        "status": info.status.value,
        "board": {"id": info.board, "name": catalog.text(f"board.{info.board}", locale)},
        "locale": locale,
        "drawing": drawing,
        "pieces": dict(pieces or {}),
        "log": log,
        "texts": texts(locale),
        "players": [
            {
                "seat": s.seat,
                "name": words_of(seat_name(s), names, locale),
                "color": seat_color(s.seat),
                "trains": s.trains,
                "cards": s.cards,
                "tickets": s.tickets,
                "score": sheets[s.seat].total if s.seat in sheets else s.score,
                "rank": sheets[s.seat].rank if s.seat in sheets else None,
                "is_turn": s.to_act,
                "ai": s.ai_level is not None,
                "user": str(s.user_id) if s.user_id is not None and s.ai_level is None else None,
                "breakdown": breakdown(sheets[s.seat]) if s.seat in sheets else [],
            }
            for s in info.seats
        ],
        "marks": {
            str(s.seat): seat_mark_svg(seat_color(s.seat)) for s in info.seats if info.settings.colorblind
        },
        "open_seats": open_seats(info),
        "face_up": [],
        "deck": {"cards": 0, "tickets": 0},
        "map_box": None,
        "move": None,
        "me": None,
        "actions": [],
        "pending": None,
    }
    if state is not None:
        pub = public_view(state)
        cb = info.settings.colorblind
        view["face_up"] = [
            {"index": i, "color": None, "label": ""}
            if c is None
            else {"index": i, **card_words(CARD_NAMES[c], locale, cb)}
            for i, c in enumerate(pub.face_up)
        ]
        view["deck"] = {"cards": pub.deck, "tickets": sum(pub.ticket_decks.values())}
        lay = layout_of(state.board)
        view["map_box"] = [0.0, 0.0, float(lay.map_w), float(lay.map_h)]  # the map inside the drawing
    return view


def card_words(name: str, locale: str, colorblind: bool) -> Card:
    """A card colour as the reader reads it: its name and, with the colour-blind setting on, its letter as the
    drawing prints it on the routes of that colour (`render.words.PictureWords.letter`)."""
    shown: Card = {"color": name, "label": default_catalog().render(card(name), locale) or ""}
    letter = picture_words(locale).letter(name) if colorblind else ""
    if letter:
        shown["letter"] = letter
    return shown


def _action(
    state: GameState, seat: int, action: Action, pending: bool, names: Sequence[Message], locale: str
) -> ActionEntry:
    words = presenters.action_words(action.kind)
    entry: ActionEntry = {
        "code": codec.encode(action),
        "kind": action.kind,
        "short": words.short if words is not None else action.kind,
        "label": words_of(labels.message(state, seat, action), names, locale),
        "route": getattr(action, "route", None),
        "city": getattr(action, "city", None),
        "slot": getattr(action, "slot", None),
        "group": category_of(action, pending),
    }
    if entry.get("route") is not None or entry.get("city") is not None:
        entry["payment"] = words_of(labels.payment_of(state, seat, action), names, locale)
    return entry


def _ticket_label(state: GameState, a: str, b: str, locale: str) -> str:
    """A ticket's two cities as the reader knows them ("東京 – 大阪" for a Japanese reader)."""
    board, language = state.board.id, language_of(locale) or default_catalog().default
    return f"{city_name(board, a, language)} – {city_name(board, b, language)}"


def _ticket_cities(state: GameState, a: str, b: str) -> list[int]:
    """A ticket's two places as facts: their ids, which the page finds on the drawing (``data-city``)."""
    return [state.board.city(a).id, state.board.city(b).id]


def private_part(
    info: GameInfo, state: GameState, seat: int, locale: str
) -> tuple[Me, list[ActionEntry], Pending | None]:
    """What the seated reader alone sees: hand, kept tickets, their legal actions and pending decision."""
    catalog = default_catalog()
    names = seat_table(info.seats)
    mine = player_view(state, seat)
    me: Me = {
        "seat": seat,
        "hand": [
            {**card_words(name, locale, info.settings.colorblind), "count": n}
            for name, n in mine.hand.items()
        ],
        "tickets": [
            {
                "id": t.id,
                "label": _ticket_label(state, t.a, t.b, locale),
                "cities": _ticket_cities(state, t.a, t.b),
                "points": t.points,
                "done": bool(t.done),
            }
            for t in mine.tickets
        ],
        "ticket_map": f"api/games/{info.game_id}/ticket_map",
        "counters": [
            {"label": words_of(m, names, locale), "emoji": e} for m, e in presenters.counters(state, seat)
        ],
    }
    actions: list[ActionEntry] = []
    pending: Pending | None = None
    acting = seat in info.to_act and info.seats[seat].ai_level is None
    if acting:
        waiting = state.pending.get(seat)
        legal = legal_actions(state, seat)
        if isinstance(waiting, TicketChoice):
            keep = KeepTickets(())
            offered: list[Offered] = [
                {
                    "id": t.id,
                    "label": _ticket_label(state, t.a, t.b, locale),
                    "cities": _ticket_cities(state, t.a, t.b),
                    "points": t.points,
                    "deck": t.deck,
                }
                for t in mine.offered
            ]
            choice: ActionEntry = {
                "code": codec.encode(keep),
                "kind": keep.kind,
                "label": catalog.text("web.ui.keep", locale),
                "min": waiting.keep_min,
                "max": min(waiting.keep_max, len(waiting.offered)),
                "offered": offered,
            }
            legal = [a for a in legal if not isinstance(a, KeepTickets)]
            actions = [choice, *(_action(state, seat, a, True, names, locale) for a in legal)]
            label = words_of(presenters.hint(state, seat), names, locale)
            pending = {"kind": waiting.kind, "label": label, "choices": actions}
        else:
            actions = [_action(state, seat, a, waiting is not None, names, locale) for a in legal]
            if waiting is not None:
                label = words_of(presenters.hint(state, seat), names, locale)
                pending = {"kind": waiting.kind, "label": label, "choices": actions}
    return me, actions, pending


def game_view(
    info: GameInfo,
    state: GameState | None,
    reader: Reader,
    *,
    drawing: str,
    log: list[LogLine],
    pieces: dict[str, str] | None = None,
) -> View:
    """The whole view of `reader` (public part, and the private part when they sit in the game)."""
    view = public_part(info, state, reader.locale, drawing, log, pieces)
    seat = seat_of(info, reader.user_id)
    if state is not None and seat is not None:
        view["me"], view["actions"], view["pending"] = private_part(info, state, seat, reader.locale)
    return view
