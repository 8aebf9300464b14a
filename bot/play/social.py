"""The replies about players rather than games: a player's results and rating (`/ttr stats`), the server's
leaderboard (`/ttr leaderboard`, over every board or on one) and a player's own preferences (`/ttr prefs`).

A rating is shown as openskill's conservative ordinal (mu - 3 sigma), rounded to one decimal: a newcomer
starts at 0 and it rises as they win and as the estimate grows surer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from bot.messages import Join, Message, Text, board_name
from bot.play import chat
from bot.play.reply import EmbedSpec, FieldSpec, Reply
from bot.storage import PlayerPrefs, PlayerStats, Rating
from maps import load_board


def one_decimal(value: float) -> Decimal:
    """`value` rounded to one decimal, never "-0.0": the catalogue writes it as the reader writes numbers
    ("12.3", "12,3" in French)."""
    return Decimal(f"{round(value, 1) + 0.0:.1f}")


def shown(rating: Rating) -> Decimal:
    """A rating as players read it: the ordinal rounded to one decimal."""
    return one_decimal(rating.ordinal)


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
        footer=Text("leaderboard.footer"),
        color=chat.EMBED_COLOR,
    )


def leaderboard_reply(leaders: Sequence[Rating], board: str) -> Reply:
    """The server's best ratings, over every board (`board` empty) or on one board (its own ratings)."""
    return Reply(embeds=(_board_embed(leaders, board),))


def prefs_reply(prefs: PlayerPrefs, changed: bool) -> Reply:
    """A player's own preferences in this server, privately."""
    lines = (
        Text("prefs.notify", {"how": Text(f"prefs.notify_{prefs.notify}")}),
        Text("prefs.confirm_on" if prefs.confirm_claims else "prefs.confirm_off"),
    )
    return Reply(
        content=Text("prefs.changed") if changed else None,
        embeds=(EmbedSpec(title=Text("prefs.title"), description=Join(lines), footer=Text("prefs.footer")),),
        ephemeral=True,
    )
