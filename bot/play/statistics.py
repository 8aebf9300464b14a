"""The statistics of `/ttr stats` beyond results and rating (issue 33): the player's last game (tickets completed
and failed with their points, longest route, routes by length, trains left, points by source, turns and their
average time), the player over time (per board and player count, best game, favourite routes, rating history)
and the server (games finished, most-claimed routes, hall of fame). Every number comes from the stored statistics
rows (`bot.storage.people`), written from the engine's final sheets when a game ended."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.manager import GameManager, GuildRecords, PlayerHistory, RouteCount, SeatStats
from bot.messages import Join, Message, Place, Text, board_name
from bot.play import chat, social
from bot.play.pictures import Pictures, drawn, picture_words
from bot.play.reply import EmbedSpec, FieldSpec, FileSpec, Reply
from bot.play.social import one_decimal, shown_ordinal
from bot.presenters.words import listed

#: the most favourite or most-claimed routes listed
TOP_ROUTES = 5
#: the groups (board and player count) shown, the most played first: the whole reply stays within Discord's
#: 6,000 characters of embeds
MAX_GROUPS = 9
#: the chart's file name (render.stats_chart)
CHART = "stats.png"


def _route(r: RouteCount) -> Message:
    return Join((Place(r.board, r.city_a), " – ", Place(r.board, r.city_b), f" ({r.times})"), "")


def _routes(found: Sequence[RouteCount]) -> Message:
    return listed([_route(r) for r in found[:TOP_ROUTES]])


def _lengths(s: SeatStats) -> Message:
    return listed([f"{length}×{n}" for length, n in sorted(s.routes_by_length.items())])


def last_game_embed(s: SeatStats) -> EmbedSpec:
    """One seat's numbers in one finished game."""
    lines: tuple[Message, ...] = (
        Text("stats.game.result", {"rank": s.rank, "score": s.score, "players": s.players}),
        Text(
            "stats.game.tickets",
            {
                "done": s.tickets_done,
                "done_points": s.tickets_done_points,
                "failed": s.tickets_failed,
                "failed_points": s.tickets_failed_points,
            },
        ),  # fmt: skip
        Text(
            "stats.game.points",
            {
                "routes": s.route_points,
                "tickets": s.tickets_done_points - s.tickets_failed_points,
                "bonuses": s.bonus_points,
            },
        ),  # fmt: skip
        Text(
            "stats.game.routes",
            {
                "lengths": _lengths(s) if s.routes_by_length else "-",
                "longest": s.longest_route,
                "trains": s.trains_left,
            },
        ),
        Text("stats.game.turns", {"turns": s.turns, "minutes": one_decimal(s.mean_turn_seconds / 60)}),
    )
    return EmbedSpec(
        title=Text(
            "stats.game.title", {"board": board_name(s.board), "when": chat.relative_time(s.finished_at)}
        ),
        description=Join(lines),
        color=chat.EMBED_COLOR,
    )


def history_embed(h: PlayerHistory) -> EmbedSpec:
    """The player over time: each board and player count, the best game, favourite routes, the rating's way."""
    fields = tuple(
        FieldSpec(
            Text("stats.group.name", {"board": board_name(g.board), "players": g.players}),
            Text(
                "stats.group.value",
                {
                    "games": g.games,
                    "wins": g.wins,
                    "rate": round(100 * g.wins / g.games),
                    "mean": one_decimal(g.mean_score),
                },
            ),  # fmt: skip
            True,
        )
        for g in h.groups[:MAX_GROUPS]
    )
    lines: list[Message] = []
    if h.best is not None:
        best = h.best
        lines.append(Text("stats.best", {"score": best.score, "board": board_name(best.board),
                                         "when": chat.relative_time(best.finished_at)}))  # fmt: skip
    if h.favourite_routes:
        lines.append(Text("stats.favourites", {"routes": _routes(h.favourite_routes)}))
    if h.ratings:
        way = " → ".join(str(shown_ordinal(r)) for _, r in h.ratings[-8:])
        lines.append(Text("stats.rating_history", {"ratings": way}))
    return EmbedSpec(
        title=Text("stats.history.title"),
        description=Join(tuple(lines)) if lines else Text("stats.history.none"),
        fields=fields,
        color=chat.EMBED_COLOR,
    )


def server_embed(r: GuildRecords) -> EmbedSpec:
    """The server's games, its most-claimed routes and its hall of fame."""
    if not r.games:
        return EmbedSpec(title=Text("stats.server.title"), description=Text("stats.server.none"))
    boards = listed([Join((board_name(b), f" {n}"), "") for b, n in r.games_by_board.items()])
    lines: list[Message] = [Text("stats.server.games", {"games": r.games, "boards": boards})]
    if r.most_claimed:
        lines.append(Text("stats.server.routes", {"routes": _routes(r.most_claimed)}))
    for f in r.fame:
        lines.append(Text(f"stats.fame.{f.record}", {"player": chat.user(f.user_id), "value": f.value}))
    return EmbedSpec(title=Text("stats.server.title"), description=Join(tuple(lines)), color=chat.EMBED_COLOR)


async def stats_reply(
    manager: GameManager, pictures: Pictures | None, guild_id: int | None, user_id: int, locale: str | None
) -> Reply:
    """`/ttr stats`: the player's results and rating in this server (bot.play.social), the statistics and their
    chart (drawn in `locale`'s words; none without `pictures` or when it could not be drawn)."""
    player = await manager.player_stats(guild_id, user_id)
    history = await manager.player_history(user_id, guild_id)
    records = None if guild_id is None else await manager.guild_records(guild_id)
    if guild_id is None:  # ratings are per server
        reply = social.stats_reply(user_id, player, None, {}, [])
    else:
        rating = await manager.rating(guild_id, user_id)
        per_board = {b: await manager.rating(guild_id, user_id, b) for b in player.per_board}
        leaders = await manager.ratings(guild_id, limit=10)
        reply = social.stats_reply(user_id, player, rating, per_board, leaders)
    chart = None
    if pictures is not None and history.last is not None:
        ratings = [shown_ordinal(r) for _, r in history.ratings]
        lengths = sorted(history.last.routes_by_length.items())
        chart = await drawn(pictures.stats_chart(ratings, lengths, words=picture_words(locale)), "stats")
    return with_statistics(reply, history, records, chart)


def with_statistics(
    reply: Reply, history: PlayerHistory, records: GuildRecords | None, chart: bytes | None = None
) -> Reply:
    """`/ttr stats`'s reply with the stored statistics added: the last game, the player over time (with the
    chart), the server."""
    embeds = list(reply.embeds)
    if history.last is not None:
        embeds.append(last_game_embed(history.last))
    over_time = history_embed(history)
    if chart is not None:
        over_time = dataclasses.replace(over_time, image=CHART)
    embeds.append(over_time)
    if records is not None:
        embeds.append(server_embed(records))
    files = (*reply.files, FileSpec(CHART, chart)) if chart is not None else reply.files
    return dataclasses.replace(reply, embeds=tuple(embeds[: chat.MAX_EMBEDS]), files=files)
