"""Board modules: each special rule of a board lives in its own module, switched on by the board's data
(`rules.features` in the board file, plus game options such as `warehouses`).

A module is a `Feature` whose hooks the core calls at fixed points of the turn. Hooks that do not apply are
left as the base class has them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.actions import Action
from engine.errors import IllegalAction
from engine.pending import Pending
from engine.state import GameState

if TYPE_CHECKING:
    from engine.claims import Payment
    from engine.sheets import ScoreSheet
    from engine.union_find import UnionFind

FEATURES: dict[str, Feature] = {}


# board modules that stay interpreted (their action types cannot be compiled, see setup.py) subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class Feature:
    # class-level facts (ClassVar: a compiled class would otherwise hold them per instance, hiding a subclass's)
    name: ClassVar[str] = ""
    free_turn_actions: ClassVar[bool] = False  # its turn actions never end the turn (placing depots)
    action_types: ClassVar[tuple[type[Action], ...]] = ()  # actions this module applies
    pending_types: ClassVar[tuple[type[Pending], ...]] = ()  # pending decisions this module resolves

    def setup(self, state: GameState) -> None:
        """After the core setup (decks dealt), before the ticket choice."""

    def turn_actions(self, state: GameState, seat: int) -> Iterable[Action]:
        """Extra actions open at the start of a turn (besides draw / claim / tickets)."""
        return ()

    def count_turn_actions(self, state: GameState, seat: int) -> int:
        """len(turn_actions(...)); modules with many actions compute it without building them."""
        return len(list(self.turn_actions(state, seat)))

    def nth_turn_action(self, state: GameState, seat: int, k: int) -> Action:
        """list(turn_actions(...))[k], the same way."""
        return list(self.turn_actions(state, seat))[k]

    def pending_actions(self, state: GameState, seat: int, pending: Pending) -> list[Action]:
        return []

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        raise NotImplementedError

    def claim_error(self, state: GameState, seat: int, route: int) -> IllegalAction | None:
        """Why this module forbids claiming `route` now, or None."""
        return None

    def start_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> bool:
        """A checked claim is about to complete: True when this module takes it over (a tunnel reveals cards
        first and may leave a decision pending); False lets the claim complete at once."""
        return False

    def start_play(self, state: GameState) -> None:
        """Every seat has chosen its first tickets and the core set the main phase and the first seat; the
        module may open another phase first (Warehouses & Depots: initial depots, last seat first)."""

    def draw_choices(self, state: GameState, seat: int) -> list[int | None]:
        """The values of the `warehouse` argument a first card draw may take (only None without a module
        that uses it; Warehouses & Depots: the seat whose warehouse gets the top card of the deck)."""
        return [None]

    def blind_after_choice(self, state: GameState) -> bool:
        """Asked of the module that gives `draw_choices`, when a blind draw is possible: whether one is still
        left for the player once the first draw's choice took its card (Warehouses: the top card of the deck)."""
        return True

    def ticket_links(self, state: GameState, seat: int, base: UnionFind) -> tuple[UnionFind, list[int]]:
        """At the final count: `base`, the seat's network for its tickets, with the links this module adds
        (stations borrowing other players' routes), and the routes it borrowed."""
        return base, []

    def uses_own_trains(self, state: GameState, seat: int, route: int) -> bool:
        """False when the module places something else than the player's trains (Japan's bullet trains)."""
        return True

    def after_claim(self, state: GameState, seat: int, route: int, pay: Payment) -> None:
        """The route is now the player's; the module may set a pending decision (which keeps the turn open)."""

    def before_draw(self, state: GameState, seat: int, action: Action) -> None:
        """First card draw of a turn (Warehouses: the blind card into a warehouse)."""

    def end_triggered(self, state: GameState, seat: int) -> bool | None:
        """None: no opinion (the core trains rule decides); True/False: this module decides."""
        return None

    def shared_routes(self, state: GameState) -> Iterable[int]:
        """Routes that link for every player's tickets (Japan's claimed bullet routes)."""
        return ()

    def score(self, state: GameState, sheets: list[ScoreSheet]) -> None:
        """Add end-of-game bonuses to the sheets."""

    def invariants(self, state: GameState) -> list[str]:
        """Broken invariants of this module's pieces (the simulator checks them after every action)."""
        return []

    def load_score_extras(self, state: GameState, seat: int, data: dict[str, Any]) -> None:
        """`ttr score`: read this module's extras of one player's entry in a score file into the state
        (e.g. Germany's meeples); raise engine.errors.GameDataError on bad input."""

    def public_info(self, state: GameState) -> dict[str, Any]:
        return {}


def register_feature(feature: Feature) -> Feature:
    FEATURES[feature.name] = feature
    return feature


_loaded = False


def _load_modules() -> None:
    """Import every module of this package once: each registers its Feature."""
    import importlib
    import pkgutil

    global _loaded
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def active_features(state: GameState) -> list[Feature]:
    if not _loaded:
        _load_modules()
    names = list(state.board.rules.get("features", [])) + list(state.options)
    return [FEATURES[n] for n in names if n in FEATURES]
