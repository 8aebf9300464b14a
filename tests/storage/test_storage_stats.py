"""Statistics of finished games (issue 33, item 5): the storage contract on SQLite (file and memory) and
PostgreSQL."""

from __future__ import annotations

from bot.storage import GameRepository, Seat, SeatResult
from bot.storage.people import SeatDetail, TicketLine

from .test_storage_contract import new_game


def detail(
    name: str,
    routes: list[tuple[str, str, int]],
    tickets: list[tuple[str, str, int, bool]],
    turns: tuple[int, float] = (0, 0.0),
) -> SeatDetail:
    return SeatDetail(
        name=name,
        players=2,
        route_points=sum(length for _, _, length in routes),
        longest_route=max((length for _, _, length in routes), default=0),
        trains_left=45 - sum(length for _, _, length in routes),
        bonuses={"longest_path": 10},
        tickets=tuple(TicketLine(*t) for t in tickets),
        routes=tuple(routes),
        turns=turns[0],
        turn_seconds=turns[1],
    )


ADA_ROUTES = [("Paris", "Wien", 4), ("Wien", "Paris", 4), ("Roma", "Venezia", 2)]
BOB_ROUTES = [("Roma", "Venezia", 2), ("Berlin", "Essen", 2)]


async def finish(
    repo: GameRepository,
    guild: int | None,
    scores: tuple[int, int],
    *,
    users: tuple[int | None, int | None] = (101, 102),
) -> str:
    game = await new_game(
        repo, guild_id=guild, seats=[Seat("Ada", user_id=users[0]), Seat("Bob", user_id=users[1])]
    )
    ada = detail("Ada", ADA_ROUTES, [("Paris", "Wien", 8, True), ("Roma", "Oslo", 12, False)], (3, 42.5))
    bob = detail("Bob", BOB_ROUTES, [("Berlin", "Essen", 3, True)])
    best = max(scores)
    results = [
        SeatResult(0, users[0], scores[0], 1 if scores[0] == best else 2, scores[0] == best, ada),
        SeatResult(1, users[1], scores[1], 1 if scores[1] == best else 2, scores[1] == best, bob),
    ]
    await repo.append_action(game.id, 0, None, {"t": 1}, {}, status="finished", results=results)
    return game.id


async def test_a_finished_game_keeps_each_seats_statistics(repo: GameRepository) -> None:
    gid = await finish(repo, 1, (100, 80))
    ada, bob = await repo.game_stats(gid)
    assert (ada.name, ada.score, ada.rank, ada.won, ada.board, ada.players) == (
        "Ada",
        100,
        1,
        True,
        "europe",
        2,
    )
    assert (ada.tickets_done, ada.tickets_done_points, ada.tickets_failed, ada.tickets_failed_points) == (
        1, 8, 1, 12,
    )  # fmt: skip
    assert (ada.longest_route, ada.route_points, ada.bonus_points, ada.trains_left) == (4, 10, 10, 35)
    assert ada.routes_by_length == {2: 1, 4: 2} and ada.bonuses == {"longest_path": 10}
    assert ada.tickets == (TicketLine("Paris", "Wien", 8, True), TicketLine("Roma", "Oslo", 12, False))
    # turns and their time as the manager counted them (the log here has one action, of no seat)
    assert (ada.turns, ada.turn_seconds, bob.turns, bob.turn_seconds) == (3, 42.5, 0, 0.0)
    assert ada.rating is not None and bob.rating is not None and ada.rating > bob.rating
    assert not bob.won and bob.tickets_failed == 0


async def test_rewritten_results_rewrite_the_statistics_once(repo: GameRepository) -> None:
    gid = await finish(repo, 1, (100, 80))
    await repo.record_results(gid, [SeatResult(0, 101, 100, 1, True, detail("Ada", ADA_ROUTES, []))])
    rows = await repo.game_stats(gid)
    assert [r.seat for r in rows] == [0] and rows[0].tickets == ()
    records = await repo.guild_records(1)
    assert {(r.city_a, r.city_b, r.times) for r in records.most_claimed} == {
        ("Paris", "Wien", 2),
        ("Roma", "Venezia", 1),
    }


async def test_a_players_history_and_a_servers_records(repo: GameRepository) -> None:
    first = await finish(repo, 1, (100, 80))
    second = await finish(repo, 1, (70, 90))
    await finish(repo, 2, (300, 10))  # another server
    await finish(
        repo, 1, (50, 40), users=(None, 103)
    )  # an AI seat: in the server's games, in no one's history
    history = await repo.player_history(101, 1)
    assert history.games == 2
    (group,) = history.groups
    assert (group.board, group.players, group.games, group.wins, group.mean_score) == (
        "europe",
        2,
        2,
        1,
        85.0,
    )
    assert history.best is not None and (history.best.game_id, history.best.score) == (first, 100)
    assert history.last is not None and history.last.game_id == second
    assert [(r.city_a, r.city_b, r.times) for r in history.favourite_routes] == [
        ("Paris", "Wien", 4), ("Roma", "Venezia", 2),
    ]  # fmt: skip
    assert len(history.ratings) == 2 and history.ratings[0][1] > history.ratings[1][1]  # won, then lost
    everywhere = await repo.player_history(101, None)
    assert everywhere.games == 3 and everywhere.best is not None and everywhere.best.score == 300
    records = await repo.guild_records(1)
    assert records.games == 3 and records.games_by_board == {"europe": 3}
    assert [(r.city_a, r.times) for r in records.most_claimed] == [("Paris", 6), ("Roma", 6), ("Berlin", 3)]
    fame = {f.record: (f.user_id, f.value, f.game_id) for f in records.fame}
    assert fame["score"] == (101, 100, first)
    assert fame["longest_route"][:2] == (101, 4) and fame["tickets_done"][1] == 1
    assert (await repo.guild_records(3)).games == 0


async def test_export_pages_through_whole_games_oldest_first(repo: GameRepository) -> None:
    ids = [await finish(repo, 1, (100 + i, 80)) for i in range(5)]
    await finish(repo, 2, (1, 2))
    seen: list[str] = []
    after = None
    while page := await repo.export_stats(1, after=after, limit=2):
        assert len({r.game_id for r in page}) <= 2 and len(page) % 2 == 0  # whole games: both seats
        seen += [r.game_id for r in page if r.seat == 0]
        after = (page[-1].finished_at, page[-1].game_id)
    assert sorted(seen) == sorted(ids) and len(seen) == 5
    line = (await repo.export_stats(1, limit=1))[0].to_json()
    assert line["tickets"] == [["Paris", "Wien", 8, True], ["Roma", "Oslo", 12, False]]


async def test_a_game_outside_any_server_counts_in_the_players_own_totals(repo: GameRepository) -> None:
    await finish(repo, 1, (100, 80))
    await finish(repo, None, (60, 90))  # a game in a DM
    everywhere = await repo.player_history(101, None)
    assert everywhere.games == 2 and everywhere.favourite_routes[0].times == 4  # Paris-Wien, twice a game
    assert (await repo.player_history(101, 1)).favourite_routes[0].times == 2
    assert (await repo.guild_records(1)).games == 1


async def test_no_statistics_without_every_seats_detail(repo: GameRepository) -> None:
    game = await new_game(repo, seats=[Seat("Ada", user_id=101), Seat("Bob", user_id=102)])
    results = [
        SeatResult(0, 101, 10, 1, True, detail("Ada", ADA_ROUTES, [])),
        SeatResult(1, 102, 5, 2, False),
    ]
    await repo.append_action(game.id, 0, None, {"t": 1}, {}, status="finished", results=results)
    assert await repo.game_stats(game.id) == [] and (await repo.guild_records(1)).most_claimed == ()
    assert len(await repo.load_results(game.id)) == 2  # the results themselves are kept
