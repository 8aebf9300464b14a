"""Pictures for the bot: every image is drawn in the RenderPool's worker processes, never on the event loop.

Only public views cross into the board/summary/GIF pictures (`render.from_engine.board_view` reads
`engine.views.public_view`); the hand picture and the ticket map (`ticket_map_data`, apart from the public view) are built from the player's
own view and only ever sent to them.
Every word drawn comes from the catalogue (`picture.*` keys, :func:`picture_words`), in the language of whoever
reads the picture: the server's for public pictures, the player's own for their hand. The board's last-move line
is the turn message's line of that move (:func:`last_move_text`), in the same language.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import cache
from typing import Any, Protocol, runtime_checkable

from bot.config import Settings
from bot.i18n import default_catalog, language_of
from bot.manager import GameManager
from bot.manager.game_settings import GameSettings
from bot.play.event_words import describe, table_of
from bot.play.names import Named, seat_words
from engine.events import public_events
from engine.scoring import FinalSheet
from engine.state import GameState
from maps.board import board_ids, load_board
from maps.city_names import city_names, zoom_names
from render.fonts import font_for
from render.from_engine import board_view, hand_picture_data, summary_rows, ticket_map_data
from render.gif import GIF_WIDTH  # the render workers warm the GIF's printed map at this width
from render.model import BoardView, LastMove
from render.words import ENGLISH, FIELDS, PictureWords

log = logging.getLogger(__name__)

BOARD_WIDTH = 1600


@cache
def picture_words(locale: str | None) -> PictureWords:
    """The pictures' words in `locale` (its language, else the catalogue's default, else English), in its
    language's font, count and city names. A region counts and draws as its language ("en-US" as "en"), so every
    server writing one language shares one set of words (the render workers' caches are keyed by them)."""
    catalog = default_catalog()
    language = (language_of(locale) or catalog.default).split("-")[0]
    words = {f: catalog.template(f"picture.{f}", language) or getattr(ENGLISH, f) for f in FIELDS}
    names = tuple(
        (bid, name) for bid in board_ids() if (name := catalog.template(f"board.{bid}", language)) is not None
    )
    cities = tuple((bid, *pair) for bid in board_ids() for pair in city_names(bid, language).items())
    zooms = tuple((bid, *pair) for bid in board_ids() for pair in zoom_names(bid, language).items())
    made = PictureWords(
        language=language,
        font=font_for(language),
        board_names=names,
        city_names=cities,
        zoom_names=zooms,
        **words,
    )
    return made


def last_move_text(
    state: GameState, words: PictureWords = ENGLISH, names: Sequence[str] = ()
) -> Callable[[LastMove], str]:
    """How the board picture words its last move: the turn message's line of that action (its presenter's,
    from the PUBLIC events only), in the language of `words`, each seat named `names[seat]`."""

    def text(move: LastMove) -> str:
        if not state.history:
            return ""
        seat, action = state.history[-1]
        line = describe(state.board, table_of(state).seats, seat, action.kind, public_events(state.events))
        return default_catalog().seated(names).render(line, words_language(words)) or ""

    return text


def board_picture_view(
    state: GameState, words: PictureWords = ENGLISH, since: int | None = None, names: Sequence[str] = ()
) -> BoardView:
    """The public view the board picture draws, its last move worded in the picture's language; `since`: a log
    position from which every route and city taken is outlined too; `names`: each seat's name as drawn."""
    return board_view(state, last_move_text=last_move_text(state, words, names), since=since, names=names)


class Pictures(Protocol):
    """The bot's pictures. `board`: the whole board with its side panel, or with `turn` the turn message's
    picture (the part of the board where the moves since log position `since` were, sized for the chat).
    `names`: each seat's name as the picture writes it (`drawn_names`; the state's player names when empty)."""

    async def board(
        self,
        state: GameState,
        *,
        colorblind: bool = True,
        words: PictureWords = ENGLISH,
        since: int | None = None,
        turn: bool = False,
        names: Sequence[str] = (),
    ) -> bytes: ...

    async def hand(
        self, state: GameState, seat: int, *, colorblind: bool = True, words: PictureWords = ENGLISH
    ) -> bytes: ...

    async def ticket_map(
        self,
        state: GameState,
        seat: int,
        *,
        colorblind: bool = True,
        words: PictureWords = ENGLISH,
        names: Sequence[str] = (),
    ) -> bytes: ...

    async def summary(
        self,
        state: GameState,
        sheets: Sequence[FinalSheet] = (),
        *,
        words: PictureWords = ENGLISH,
        names: Sequence[str] = (),
    ) -> bytes: ...

    async def gif(
        self, record: dict[str, Any], *, words: PictureWords = ENGLISH, names: Sequence[str] = ()
    ) -> bytes: ...

    async def stats_chart(
        self, ratings: Sequence[int], lengths: Sequence[tuple[int, int]], *, words: PictureWords = ENGLISH
    ) -> bytes: ...

    def close(self) -> None: ...


def words_language(words: PictureWords) -> str:
    """The language `words` are in (the last-move line is worded in the same one)."""
    return words.language


def drawn_names(seats: Iterable[Named], words: PictureWords) -> tuple[str, ...]:
    """Every seat's name as a picture in the language of `words` draws it (the `names` the pictures take)."""
    return seat_words(seats, words_language(words))


@runtime_checkable
class WarmPictures(Protocol):
    """Pictures that can get ready ahead: :meth:`PoolPictures.warm` (the fakes of the tests need not)."""

    def warm(
        self, board_ids: Iterable[str], *, colorblind: bool = True, words: PictureWords = ENGLISH
    ) -> None: ...


class PoolPictures:
    """The production pictures: a `render.pool.RenderPool`, started by the first picture or by :meth:`warm`
    (the bot's start-up), whose workers draw the boards asked to be warmed once ahead, in the background, so
    that no player waits for a board's first picture in a worker (~1 s). `warm`: board ids warmed as soon as
    the pool starts (colour-blind, in English)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        width: int = BOARD_WIDTH,
        gif_width: int = GIF_WIDTH,
        warm: Sequence[str] = (),
    ) -> None:
        self._workers = workers
        self._warm = tuple(warm)
        self._pool: Any = None
        self.width = width
        self.gif_width = gif_width

    @property
    def pool(self) -> Any:
        if self._pool is None:
            from render.pool import RenderPool

            self._pool = RenderPool(self._workers, warm=self._warm)
        return self._pool

    def warm(
        self, board_ids: Iterable[str], *, colorblind: bool = True, words: PictureWords = ENGLISH
    ) -> None:
        """Start the render workers now (in the background: returns at once) and have each draw these boards
        once, as this object will draw them, whenever it has no picture to draw. Needs a running event loop."""
        from render.pool import warm_key

        keys = [warm_key(b, width=self.width, colorblind=colorblind, words=words) for b in board_ids]
        pool = self.pool
        pool.warm(keys)
        pool.start()

    async def board(
        self,
        state: GameState,
        *,
        colorblind: bool = True,
        words: PictureWords = ENGLISH,
        since: int | None = None,
        turn: bool = False,
        names: Sequence[str] = (),
    ) -> bytes:
        """The whole board with its panel; with `turn`, the turn message's picture: the part of the board where
        the moves since log position `since` were, for the size Discord shows it (render.turn_picture)."""
        view = board_picture_view(state, words, since, names)
        if turn:
            turn_png: bytes = await self.pool.render_turn(
                state.board.id, view, colorblind=colorblind, words=words
            )
            return turn_png
        data: bytes = await self.pool.render_board(
            state.board.id, view, width=self.width, colorblind=colorblind, words=words
        )
        return data

    async def hand(
        self, state: GameState, seat: int, *, colorblind: bool = True, words: PictureWords = ENGLISH
    ) -> bytes:
        cards, tickets = hand_picture_data(state, seat)
        data: bytes = await self.pool.run(
            "render.hand.render_hand_png",
            cards,
            tickets,
            colorblind=colorblind,
            words=words,
            board_id=state.board.id,
        )
        return data

    async def ticket_map(
        self,
        state: GameState,
        seat: int,
        *,
        colorblind: bool = True,
        words: PictureWords = ENGLISH,
        names: Sequence[str] = (),
    ) -> bytes:
        """`seat`'s private ticket map: the public view (no last-move glow) and the seat's own tickets apart."""
        view = board_view(state, names=names)
        mine = ticket_map_data(state, seat)
        data: bytes = await self.pool.run(
            "render.tickets_map.render_ticket_map_png",
            state.board.id,
            view,
            mine,
            width=self.width,
            colorblind=colorblind,
            words=words,
        )
        return data

    async def summary(
        self,
        state: GameState,
        sheets: Sequence[FinalSheet] = (),
        *,
        words: PictureWords = ENGLISH,
        names: Sequence[str] = (),
    ) -> bytes:
        """The score chart of a finished game, from its final sheets (scored from `state` when not given)."""
        rows = summary_rows(state, sheets, names)
        data: bytes = await self.pool.run("render.summary.render_summary_png", rows, words=words)
        return data

    async def stats_chart(
        self, ratings: Sequence[int], lengths: Sequence[tuple[int, int]], *, words: PictureWords = ENGLISH
    ) -> bytes:
        """`/ttr stats`'s chart: the rating game after game, the last game's routes by length."""
        data: bytes = await self.pool.run(
            "render.stats_chart.render_stats_png", tuple(ratings), tuple(lengths), words=words
        )
        return data

    async def gif(
        self, record: dict[str, Any], *, words: PictureWords = ENGLISH, names: Sequence[str] = ()
    ) -> bytes:
        """The game's GIF: the record crosses to a render worker, which replays it and draws the frames (no
        replay in the bot's process; the frames' captions name what each move touched, see `render.replay`)."""
        if names:  # the replay names its players from the record
            record = {**record, "players": list(names)}
        data: bytes = await self.pool.run_background(  # its own worker: turn pictures do not wait for it
            "render.replay.render_record_gif", record, width=self.gif_width, words=words
        )
        return data

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close(wait=False)
            self._pool = None


#: The newest open games whose boards the render workers draw at start-up (their boards: a handful at most).
WARM_GAMES_READ = 1000


async def warm_up(pictures: Pictures, manager: GameManager, config: Settings) -> None:
    """The bot's start-up: start the render workers at once and have them draw ahead the boards of the games in
    play (the most played first, each with its game's colour-blind setting), then `RENDER_WARM`'s, in
    `DEFAULT_LOCALE`'s words (the servers' own are not known before Discord's guilds come). In the background:
    neither the start-up nor any picture waits for it (a worker warms only while it has nothing else to draw,
    see render.pool)."""
    if not isinstance(pictures, WarmPictures):
        return
    words = picture_words(config.default_locale)
    try:
        pictures.warm((), words=words)  # the processes start now, before the query below
        games = await manager.open_games(limit=WARM_GAMES_READ)
    except Exception:  # noqa: BLE001 - warming is an optimisation: the bot runs without it
        log.exception("could not warm the render workers")
        return
    boards = Counter((g.board, GameSettings.from_json(g.settings).colorblind) for g in games).most_common()
    for (board_id, colorblind), _ in boards:
        pictures.warm((board_id,), colorblind=colorblind, words=words)
    pictures.warm(config.render_warm, words=words)
    named = ", ".join(dict.fromkeys([b for (b, _), _ in boards] + list(config.render_warm)))
    log.info("render workers warming: %s", named or "nothing (no game in play, RENDER_WARM empty)")


async def stop_warming(task: asyncio.Task[None] | None) -> None:
    """Closing: the warm-up's database read, if it still runs, is cancelled (and waited for)."""
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def warm_lobby(pictures: Pictures, board_id: str, words: PictureWords) -> None:
    """A lobby just opened on `board_id` (valid: the lobby exists): its board is warmed for when it starts."""
    if isinstance(pictures, WarmPictures):
        pictures.warm((load_board(board_id).id,), words=words)


async def drawn(call: Awaitable[bytes], game_id: str) -> bytes | None:
    """A picture, or None when drawing failed (the move is already saved: the message goes out without it)."""
    try:
        return await call
    except Exception:  # noqa: BLE001 - a broken picture must not hide the move
        log.exception("game %s: picture failed", game_id)
        return None
