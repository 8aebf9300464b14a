"""The replies about players rather than games: a player's results and rating (`/ttr stats`), the server's
leaderboard (`/ttr leaderboard`, over every board or on one) and a player's own preferences (`/ttr prefs`).

A rating is shown on a familiar scale: openskill's conservative ordinal (mu - 3 sigma), times
:data:`RATING_SCALE`, plus :data:`RATING_BASE`, rounded to a whole number. A newcomer stands at 1000 (ordinal 0);
a first game of two moves it to about 1140 (a win) or 930 (a loss); someone who wins 70 % of their games of
two against newcomers is near 1850 after a hundred. It rises as one wins and as the estimate grows surer, and
the ranks follow the same order. It reads "provisional" for the first :data:`PROVISIONAL_GAMES` rated games,
while the estimate is still wide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from bot.manager import PlayerPrefs, PlayerStats, PlayerTime, Rating, time_zones
from bot.messages import Join, Message, Text, board_name
from bot.play import chat
from bot.play.reply import EmbedSpec, FieldSpec, Reply
from maps import load_board


def one_decimal(value: float) -> Decimal:
    """`value` rounded to one decimal, never "-0.0": the catalogue writes it as the reader writes numbers
    ("12.3", "12,3" in French)."""
    return Decimal(f"{round(value, 1) + 0.0:.1f}")


RATING_BASE = 1000
RATING_SCALE = 40
PROVISIONAL_GAMES = 5


def shown_ordinal(ordinal: float) -> int:
    """A stored rating (openskill's conservative ordinal) on the familiar scale players read."""
    return round(RATING_BASE + RATING_SCALE * ordinal)


def display_rating(rating: Rating) -> int:
    """The number players read for `rating`."""
    return shown_ordinal(rating.ordinal)


def shown(rating: Rating) -> Message:
    """A rating as players read it: "**1148** (provisional)" for the first rated games, then "**1342**"."""
    key = "rating.provisional" if rating.games < PROVISIONAL_GAMES else "rating.settled"
    return Text(key, {"rating": display_rating(rating)})


def rating_footer() -> Text:
    """What the number means, under every embed that shows one."""
    return Text("rating.explained", {"base": RATING_BASE, "games": PROVISIONAL_GAMES})


def _board_name(board: str) -> Message:
    return board_name(load_board(board).id) if board else board


def rating_line(rating: Rating | None) -> Message:
    if rating is None:
        return Text("stats.unrated")
    return Text("stats.rating", {"rating": shown(rating), "rank": rating.rank, "n": rating.games})


def stats_reply(
    user_id: int,
    player: PlayerStats,
    rating: Rating | None,
    per_board: Mapping[str, Rating | None],
    leaders: Sequence[Rating],
) -> Reply:
    """A player's results and rating (overall and per board), and the top of the server's leaderboard."""
    fields = []
    for board, v in player.per_board.items():
        counts = {"games": v.games, "wins": v.wins, "best": v.best_score}
        on_board = per_board.get(board)
        value: Message = Text("stats.board", counts)
        if on_board is not None:
            value = Join(
                (value, Text("stats.board_rating", {"rating": shown(on_board), "rank": on_board.rank}))
            )
        fields.append(FieldSpec(_board_name(board), value, True))
    summary = {
        "player": chat.user(user_id),
        "games": player.games,
        "wins": player.wins,
        "mean": one_decimal(player.mean_score),
        "best": player.best_score,
    }
    embeds = (
        EmbedSpec(
            title=Text("stats.title"),
            description=Join((Text("stats.summary", summary), rating_line(rating))),
            fields=tuple(fields[: chat.MAX_OPTIONS - 1]),
            color=chat.EMBED_COLOR,
            footer=rating_footer(),
        ),
        _board_embed(leaders, ""),
    )
    return Reply(embeds=embeds)


def _board_embed(leaders: Sequence[Rating], board: str) -> EmbedSpec:
    lines = tuple(
        Text(
            "leaderboard.line",
            {"rank": r.rank, "player": chat.user(r.user_id), "rating": shown(r), "n": r.games},
        )
        for r in leaders
    )
    where: Message = _board_name(board) if board else Text("leaderboard.all_boards")
    return EmbedSpec(
        title=Text("leaderboard.title", {"board": where}),
        description=Join(lines, head=chat.MAX_DESCRIPTION) if lines else Text("leaderboard.empty"),
        footer=rating_footer(),
        color=chat.EMBED_COLOR,
    )


def leaderboard_reply(leaders: Sequence[Rating], board: str) -> Reply:
    """The server's best ratings, over every board (`board` empty) or on one board (its own ratings)."""
    return Reply(embeds=(_board_embed(leaders, board),))


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def time_lines(times: PlayerTime) -> tuple[Message, ...]:
    """A player's time (in every server), one line each: zone, quiet hours, ping delay, heads-up, away."""
    quiet: Message = Text("prefs.quiet_none")
    if times.quiet_start is not None and times.quiet_end is not None:
        quiet = Text("prefs.quiet", {"start": _clock(times.quiet_start), "end": _clock(times.quiet_end)})
    lines: list[Message] = [
        Text("prefs.time_zone", {"zone": times.time_zone}),
        quiet,
        Text("prefs.ping_delay", {"n": times.ping_delay}) if times.ping_delay else Text("prefs.ping_at_once"),
        Text("prefs.heads_up_on" if times.heads_up else "prefs.heads_up_off"),
    ]
    if times.away_until is not None:
        lines.append(Text("prefs.away", {"until": f"<t:{int(times.away_until.timestamp())}:f>"}))
    return tuple(lines)


def prefs_reply(
    prefs: PlayerPrefs, changed: bool, times: PlayerTime | None = None, digest: int | None = None
) -> Reply:
    """A player's own preferences in this server (and their time, in every server; `digest`: the minute of
    their day their daily digest is sent at, None: off), privately."""
    daily = (
        Text("prefs.digest_on", {"time": _clock(digest)}) if digest is not None else Text("prefs.digest_off")
    )
    lines: tuple[Message, ...] = (
        Text("prefs.notify", {"how": Text(f"prefs.notify_{prefs.notify}")}),
        Text("prefs.confirm_on" if prefs.confirm_claims else "prefs.confirm_off"),
        *((*time_lines(times), daily) if times is not None else ()),
    )
    return Reply(
        content=Text("prefs.changed") if changed else None,
        embeds=(EmbedSpec(title=Text("prefs.title"), description=Join(lines), footer=Text("prefs.footer")),),
        ephemeral=True,
    )


def time_zone_choices(current: str, limit: int = 25) -> list[str]:
    """The IANA time zones matching what the player typed (``paris``, ``new_york``, ``america/``), the ones
    that start with it first."""
    needle = current.strip().lower().replace(" ", "_")
    zones = time_zones()
    starts = [z for z in zones if any(part.lower().startswith(needle) for part in (z, *z.split("/")))]
    inside = [z for z in zones if needle in z.lower() and z not in starts]
    return (starts + inside)[:limit]
