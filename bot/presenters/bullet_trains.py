"""Bullet trains (Japan): a bullet train is laid by a claim (the claim's line tells it: no points of its own),
and the bullet track shows on the board picture; the claim menu marks bullet routes. No action or counter of
its own."""

from __future__ import annotations

from bot.messages import Text
from bot.presenters import Presenter, register
from engine.events import BulletTrainPlaced

register(
    Presenter(
        "bullet_trains",
        events=frozenset({BulletTrainPlaced}),
        route_notes=lambda r: [Text("route.bullet")] if getattr(r, "bullet", False) else [],
    )
)
