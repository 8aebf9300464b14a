"""Who plays a seat of a running game: hand it to the AI and take it back, remove a player (kick), give the seat
to another person (replace). A seat keeps its cards, tickets and score whoever plays it; the engine knows it by
its name, which never changes.
"""

from __future__ import annotations

from typing import Any, Literal

from bot.manager.events import Abandoned, GameEvent, LeftLobby, SeatChanged
from bot.manager.game_settings import AI_LEVELS
from bot.manager.moves import Collector
from bot.manager.read import Outcome, outcome_of
from bot.manager.refusals import Refused
from bot.manager.store import GameStore, LiveGame
from bot.manager.timers import TurnTimers
from bot.storage import GameStatus, Seat

__all__ = ["SeatCommands"]


def _target_seat(game: LiveGame, user_id: int, target_user_id: int, moderator: bool) -> int:
    """The seat of `target_user_id`, which the host (or a moderator) `user_id` acts on (kick, replace)."""
    game.require(GameStatus.LOBBY, GameStatus.ACTIVE)
    game.require_host(user_id, moderator)
    seat = game.seat_of(target_user_id)
    if seat is None:
        raise Refused("player_not_seated")
    return seat


class SeatCommands:
    """The seat commands of :class:`bot.manager.GameManager` (a base class of it)."""

    _store: GameStore
    _timers: TurnTimers

    async def hand_to_ai(self, game_id: str, user_id: int, level: str = "normal") -> Outcome:
        """The player lets an AI play their seat until they take it back (their result still counts)."""
        if level not in AI_LEVELS:
            raise Refused("bad_level", levels=", ".join(AI_LEVELS))
        return await self._set_seat_ai(game_id, user_id, level)

    async def take_back(self, game_id: str, user_id: int) -> Outcome:
        """The player plays their seat again."""
        return await self._set_seat_ai(game_id, user_id, None)

    async def _set_seat_ai(self, game_id: str, user_id: int, level: str | None) -> Outcome:
        """The caller's seat played by an AI of `level`, or by the caller again (None)."""

        async def body(game: LiveGame) -> Outcome:
            game.require(GameStatus.ACTIVE)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refused("not_seated")
            seats = list(game.seats)
            seats[seat] = Seat(seats[seat].name, user_id, level)
            await self._store.update(game, seats=seats)
            out = Collector(game.id)
            if level is not None:
                change = SeatChanged(seat, "ai", level)
                out.events.append(
                    GameEvent(game.id, 0, "seat_ai", seat, {"seat": seat, "level": level}, change=change)
                )
            else:
                change = SeatChanged(seat, "human")
                out.events.append(GameEvent(game.id, 0, "seat_human", seat, {"seat": seat}, change=change))
            await self._timers.after_change(game, out)  # the AI may have a move to make right away
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    async def kick(
        self, game_id: str, user_id: int, target_user_id: int, *, moderator: bool = False
    ) -> Outcome:
        """The host (or a server manager: ``moderator=True``) removes a player: from a lobby their seat goes;
        in a running game an AI (level normal) plays the seat for good and the player gets no result."""

        async def body(game: LiveGame) -> Outcome:
            seat = _target_seat(game, user_id, target_user_id, moderator)
            if target_user_id == game.host_id:
                raise Refused("host_stays")
            out = Collector(game.id)
            if game.status == GameStatus.LOBBY:
                gone = LeftLobby(game.seats[seat].name, removed=True)
                await self._store.update(game, seats=game.seats[:seat] + game.seats[seat + 1 :])
                out.events.append(GameEvent(game.id, 0, "left", seat, {}, "host", change=gone))
                return outcome_of(game, out)
            await self._seat_to_ai(game, seat, out, "removed", "host")
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    async def replace_player(
        self,
        game_id: str,
        user_id: int,
        target_user_id: int,
        new_user_id: int,
        new_name: str,
        *,
        moderator: bool = False,
    ) -> Outcome:
        """The host (or a server manager) gives a seat to another person, who keeps its cards and tickets
        (and its result). The seat is played by that person from now on (not by an AI)."""

        async def body(game: LiveGame) -> Outcome:
            seat = _target_seat(game, user_id, target_user_id, moderator)
            if game.seat_of(new_user_id) is not None:
                raise Refused("new_player_seated")
            seats = list(game.seats)
            seats[seat] = Seat(seats[seat].name, new_user_id, None)  # the engine knows the seat by its name
            fields: dict[str, Any] = {"seats": seats}
            if target_user_id == game.host_id:
                fields["host_id"] = new_user_id
            await self._store.update(game, **fields)
            out = Collector(game.id)
            out.events.append(
                GameEvent(
                    game.id,
                    0,
                    "seat_human",
                    seat,
                    {"seat": seat, "user_name": new_name},
                    "host",
                    change=SeatChanged(seat, "replaced", user_name=new_name),
                )
            )
            return outcome_of(game, out)

        return await self._store.locked(game_id, body)

    async def _seat_to_ai(
        self, game: LiveGame, seat: int, out: Collector, how: Literal["resigned", "removed"], by: str
    ) -> None:
        """In a running game, an AI (level normal) plays `seat` for good and its player gets no result
        (`how`: they ``resigned`` or were ``removed``). A host who goes passes the game to the next person;
        with no person left at the table the game is abandoned."""
        name = game.seats[seat].name
        table = list(game.seats)
        table[seat] = Seat(name, None, "normal")
        fields: dict[str, Any] = {"seats": table}
        humans = [s for s in table if s.user_id is not None]
        if not humans:
            fields["status"] = GameStatus.ABANDONED
        elif game.seats[seat].user_id == game.host_id:
            fields["host_id"] = humans[0].user_id
        await self._store.update(game, **fields)
        out.events.append(
            GameEvent(
                game.id,
                0,
                "seat_ai",
                seat,
                {"seat": seat, "level": "normal"},
                by,
                change=SeatChanged(seat, how, "normal"),
            )
        )
        if game.status == GameStatus.ABANDONED:  # its timers went with the update
            empty = Abandoned("empty")
            out.events.append(GameEvent(game.id, 0, "abandoned", None, {}, "system", change=empty))
            return
        await self._timers.after_change(game, out)
