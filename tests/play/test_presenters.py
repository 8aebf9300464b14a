"""The presenters' registry (`bot.presenters`) covers the engine: every feature with actions, pending decisions
or events has a presenter that words all of them, and every word a presenter uses (labels, lines, hints,
counters, menus) is in both catalogues. Adding a board feature without its presenter, or a key in one language
only, fails here."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot import presenters
from bot.i18n import Catalog
from bot.manager.events import PRIVATE_KINDS
from bot.messages import Join, Message, Text
from bot.play.event_words import describe
from bot.play.pictures import board_picture_view, picture_words
from bot.presenters import plain_line
from engine.actions import ACTION_TYPES, Action
from engine.events import EVENT_TYPES, CardDrawn, public_events
from engine.features import FEATURES, _load_modules
from engine.pending import PENDING_TYPES, TunnelPayment
from engine.rules import apply, legal_actions, new_game, to_act

_load_modules()  # every engine feature module registers itself in FEATURES


def _classes(name: str) -> set[type[Action]]:
    return {a.action for a in presenters.presenters()[name].actions}


def _once(named: list[type]) -> set[type]:
    """The classes of `named`, each named once (a class worded by two presenters fails here)."""
    twice = sorted(c.__name__ for c in named if named.count(c) > 1)
    assert not twice, twice
    return set(named)


def test_every_feature_with_actions_or_decisions_has_a_presenter_that_words_them() -> None:
    registry = presenters.presenters()
    featured: set[type[Action]] = set()
    for name, feature in FEATURES.items():
        actions = set(feature.action_types)
        pendings = set(feature.pending_types)
        featured |= actions
        if not actions and not pendings:
            continue
        assert name in registry, f"engine feature {name} has no presenter in bot/presenters/"
        assert actions <= _classes(name), (name, actions - _classes(name))
        assert pendings <= set(registry[name].hints), (name, pendings - set(registry[name].hints))
    # the core game's actions are the base presenter's, and nothing is worded twice or left out
    assert set(ACTION_TYPES.values()) - featured == _classes("base")
    worded = _once([a.action for p in registry.values() for a in p.actions])
    assert worded == set(ACTION_TYPES.values())
    assert all(a.kind == a.action.kind for p in registry.values() for a in p.actions)
    hinted = _once([k for p in registry.values() for k in p.hints])
    assert hinted == set(PENDING_TYPES.values())


def test_every_engine_event_is_worded_by_exactly_one_presenter() -> None:
    owners = _once([k for p in presenters.presenters().values() for k in p.events])
    assert owners == set(EVENT_TYPES.values())
    for p in presenters.presenters().values():
        assert set(p.amend) <= p.events and set(p.private) <= p.events and p.publishes <= p.events, p.name
    # every private engine event class has a private line, and only those
    private = {cls for cls in EVENT_TYPES.values() if not cls.public}
    assert private == _once([k for p in presenters.presenters().values() for k in p.private])
    assert {cls.kind for cls in private} == set(PRIVATE_KINDS)  # each a private event of the manager's


def test_short_codes_and_menus_are_unique_and_known() -> None:
    words = [a for p in presenters.presenters().values() for a in p.actions]
    shorts = [a.short for a in words]
    assert len(shorts) == len(set(shorts))
    assert all(presenters.by_short(a.short) is a.action for a in words)
    menus = [m.name for m in presenters.menus()]
    assert len(menus) == len(set(menus)) and "decide" in menus
    assert {a.menu for a in words if a.menu is not None} <= set(menus)
    assert [m.order for m in presenters.menus()] == sorted(m.order for m in presenters.menus())


def _keys(message: Message) -> Iterator[str]:
    if isinstance(message, Text):
        yield message.key
        for value in message.params.values():
            if isinstance(value, Text | Join):
                yield from _keys(value)
    elif isinstance(message, Join):
        for part in message.parts:
            yield from _keys(part)


def _static_keys() -> set[str]:
    """The keys the registry names without a game: menus, and the plain lines ``ev.<kind>``."""
    keys = set()
    for m in presenters.menus():
        keys |= {m.button, m.text}
    for p in presenters.presenters().values():
        keys |= {f"ev.{a.kind}" for a in p.actions if a.line is plain_line}
    return keys


GAMES = [
    ("europe", ()),
    ("europe", ("warehouses",)),
    ("usa", ()),
    ("germany", ()),
    ("marklin", ()),
    ("japan", ()),
    ("italy", ()),
]


def _words_of_a_game(board: str, options: tuple[str, ...], seed: int) -> tuple[set[str], set[str]]:
    """Every key the presenters use over a random game (route notes, labels of every legal action, lines,
    hints, hand counters, private lines), and the action kinds met."""
    rng = random.Random(seed)
    state = new_game(board, 3, options=options, seed=seed)
    keys: set[str] = set()
    kinds: set[str] = set()
    names = [p.name for p in state.players]
    for route in state.board.routes:
        for note in presenters.route_notes(route):
            keys |= set(_keys(note))
    for _ in range(3000):
        if state.finished:
            break
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        for a in legal[:60]:
            label = presenters.label(state, seat, a)
            assert label is not None, a
            keys |= set(_keys(label))
        keys |= set(_keys(presenters.hint(state, seat)))
        for counter, _emoji in presenters.counters(state, seat):
            keys |= set(_keys(counter))
        claims = [a for a in legal if a.kind == "claim_route"]
        action = rng.choice(claims) if claims and rng.random() < 0.5 else rng.choice(legal)
        kinds.add(action.kind)
        apply(state, seat, action)
        keys |= set(_keys(describe(state.board, names, seat, action.kind, public_events(state.events))))
        for e in state.events:
            line = presenters.private_line(state.board, e) if not e.public else None
            if line is not None:
                keys |= set(_keys(line))
    return keys, kinds


@pytest.mark.parametrize(
    ("board", "options"), GAMES, ids=[f"{b}-{'-'.join(o) or 'classic'}" for b, o in GAMES]
)
def test_every_presenter_word_is_in_both_catalogues(board: str, options: tuple[str, ...]) -> None:
    catalog = Catalog.load()
    keys, kinds = _words_of_a_game(board, options, seed=5)
    keys |= _static_keys()
    assert {"act.deck", "act.claim", "hand.trains"} <= keys and "claim_route" in kinds
    for code in ("en", "fr"):
        missing = sorted(k for k in keys if not catalog.has(k, code))
        assert not missing, (code, missing)


def test_a_french_board_picture_words_its_last_move_in_french() -> None:
    state = new_game("europe", ["Alice", "Bob"], seed=3)
    while to_act(state) and state.phase == "setup":
        seat = to_act(state)[0]
        apply(state, seat, next(a for a in legal_actions(state, seat) if a.kind == "keep_tickets"))
    seat = state.current
    draw = next(a for a in legal_actions(state, seat) if a.kind == "draw_blind")
    apply(state, seat, draw)
    french = board_picture_view(state, picture_words("fr")).last_move
    english = board_picture_view(state, picture_words("en")).last_move
    assert french is not None and english is not None
    catalog = Catalog.load()
    player = state.players[seat].name
    assert french.text == catalog.render(Text("ev.draw_blind", {"player": player}), "fr")
    assert english.text == catalog.render(Text("ev.draw_blind", {"player": player}), "en")
    assert french.text != english.text and player in french.text
    # what the picture draws, in French: the SVG holds the French line (wrapped) and not the English one
    from render.board_svg import render_board_svg

    svg = render_board_svg(
        state.board, board_picture_view(state, picture_words("fr")), words=picture_words("fr")
    )
    assert "pioché une carte" in svg and "drew a card" not in svg


def test_a_class_worded_by_two_presenters_is_refused() -> None:
    presenters.presenters()
    with pytest.raises(ValueError, match="card_drawn"):
        presenters.register(presenters.Presenter("twice", events=frozenset({CardDrawn})))
    with pytest.raises(ValueError, match="tunnel_payment"):
        presenters.register(presenters.Presenter("twice", hints={TunnelPayment: lambda s, p: ""}))
    assert "twice" not in presenters.presenters()
