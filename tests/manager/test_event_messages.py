"""Every event the manager tells the bot (lobby, seats, start, moves, end), as bot.play words it, is a catalogue
message that reads in English and in French with no key missing and no placeholder left."""

from __future__ import annotations

import random
from typing import Any

from helpers.manager_games import HUMANS, play_random, started_game

from bot.i18n import Catalog
from bot.manager import GameManager, Outcome
from bot.messages import Message, Text
from bot.play.event_words import line, private_line, table_of
from bot.play.refusals import refusal_text
from engine.actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, action_from_json
from engine.errors import GameDataError, IllegalAction
from engine.playout import random_legal_action
from engine.rules import apply, legal_actions, new_game, to_act
from engine.state import GameState

ANN, BOB, CLEO, DAN = (uid for uid, _ in HUMANS[:4])


class _Strict(Catalog):
    def __init__(self, base: Catalog, code: str) -> None:
        super().__init__({code: base.messages[code]}, default=code)
        self.missing: set[str] = set()

    def text(self, key: str, locale: Any = None, /, **params: Any) -> str:
        if self.template(key, locale, params.get("n")) is None:
            self.missing.add(key)
        return super().text(key, locale, **params)


def _words(outcomes: list[Outcome]) -> list[tuple[str, Message]]:
    """Every event of `outcomes` (public and private) as bot.play words it: (kind, message)."""
    out: list[tuple[str, Message]] = []
    for o in outcomes:
        table = table_of(o.info)
        out += [(e.kind, line(e, table)) for e in o.events]
        out += [(p.kind, private_line(p, table)) for p in o.private]
    return out


def _check(outcomes: list[Outcome]) -> set[str]:
    base = Catalog.load()
    events = _words(outcomes)
    for code in ("en", "fr"):
        catalog = _Strict(base, code)
        for kind, message in events:
            assert not isinstance(message, str), (kind, message)  # data, not English text
            text = catalog.render(message, code) or ""
            assert text and "{" not in text, (code, kind, text)
        assert catalog.missing == set(), (code, sorted(catalog.missing))
    return {kind for kind, _ in events}


async def test_lobby_seat_and_end_events_read_in_both_languages(manager: GameManager) -> None:
    outcomes: list[Outcome] = []
    # a lobby: someone leaves, the host leaves alone and the lobby closes
    lobby = await manager.create_game(guild_id=1, channel_id=700, host_id=ANN, host_name="Ann")
    await manager.join(lobby.game_id, BOB, "Bob")
    await manager.join(lobby.game_id, CLEO, "Cleo")
    outcomes.append(await manager.kick(lobby.game_id, ANN, CLEO))
    outcomes.append(await manager.leave(lobby.game_id, BOB))
    outcomes.append(await manager.leave(lobby.game_id, ANN))
    # a running game: seats handed to the AI and back, given to someone else, resigned, kicked, ended
    gid, first = await started_game(manager, humans=4, ais=0, channel=701)
    outcomes.append(first)
    outcomes.append(await manager.hand_to_ai(gid, BOB, "hard"))
    outcomes.append(await manager.take_back(gid, BOB))
    outcomes.append(await manager.replace_player(gid, ANN, BOB, 99, "Zoe"))
    outcomes.append(await manager.kick(gid, ANN, CLEO))
    outcomes.append(await manager.leave(gid, DAN))
    outcomes.append(await manager.abandon(gid, ANN))
    kinds = _check(outcomes)
    assert {"started", "left", "seat_ai", "seat_human", "abandoned"} <= kinds, kinds


async def test_a_whole_game_reads_in_both_languages(manager: GameManager) -> None:
    outcomes: list[Outcome] = []
    gid, first = await started_game(manager, humans=2, ais=1, channel=702, board="europe")
    outcomes.append(first)
    original_act = manager.act

    async def act(*args: Any, **kwargs: Any) -> Outcome:
        outcome = await original_act(*args, **kwargs)
        outcomes.append(outcome)
        return outcome

    manager.act = act  # type: ignore[method-assign]
    await play_random(manager, gid, random.Random(3))
    kinds = _check(outcomes)
    assert {"draw_blind", "claim_route", "play_started", "last_round", "game_over", "drew"} <= kinds, kinds
    over = next(message for kind, message in _words(outcomes) if kind == "game_over")
    assert isinstance(over, Text)
    french = Catalog.load().render(over, "fr") or ""
    assert french.startswith("Partie terminée : 1. ") and ("gagne" in french or "gagnent" in french), french


def _wrong_moves(state: GameState, rng: random.Random) -> list[tuple[int, Action]]:
    """Moves the rules refuse, or may: out of turn, impossible claims and draws, foreign pending answers."""
    seat = state.current
    other = (seat + 1) % state.num_players
    moves: list[tuple[int, Action]] = [(other, DrawBlind()), (seat, DrawFaceUp(9)), (seat, KeepTickets((0,)))]
    moves += [(seat, ClaimRoute(r, rng.randrange(9), rng.randrange(3))) for r in rng.sample(range(60), 6)]
    moves += [(seat, a) for s in range(state.num_players) for a in legal_actions(state, s)[:3]]
    moves += [(seat, action_from_json({"type": kind})) for kind in ("pay_tunnel", "take_ferry_card", "pass")]
    return moves


def test_every_engine_refusal_reads_in_both_languages() -> None:
    """The engine's refusals met in play, worded by the catalogue (``illegal.<code>``) with nothing left."""
    base = Catalog.load()
    catalogs = {code: _Strict(base, code) for code in ("en", "fr")}
    codes: set[str] = set()
    for board, options in (
        ("europe", ("warehouses",)),
        ("europe", ()),
        ("italy", ()),
        ("marklin", ()),
        ("usa", ()),
    ):
        state = new_game(board, 3, options=options, variant="mega" if options else None, seed=5)
        rng = random.Random(5)
        for _ in range(120):
            if state.finished:
                break
            for seat, action in _wrong_moves(state, rng):
                try:
                    apply(state.copy(), seat, action)
                except IllegalAction as exc:
                    codes.add(exc.code)
                    message = refusal_text(exc)
                    for code, catalog in catalogs.items():
                        text = catalog.render(message, code) or ""
                        assert text and "{" not in text, (exc.code, code, text)
                except (TypeError, KeyError, GameDataError):
                    pass  # an action built without its arguments
            seat = rng.choice(to_act(state))
            apply(state, seat, random_legal_action(state, seat, rng))
    for catalog in catalogs.values():
        assert catalog.missing == set(), sorted(catalog.missing)
    assert {"not_your_turn", "no_face_up_card", "route_needs_color", "no_ticket_choice"} <= codes, codes
    assert len(codes) >= 12, codes
