"""The manager's AI seats are played by the engine's AI; a broken AI stops the bot at start-up."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.manager_games import started_game

import engine.ai
from bot.manager import GameManager, ManualClock, ai
from bot.storage import GameRepository
from engine.actions import Action
from engine.rules import legal_actions, new_game
from engine.state import GameState

ROOT = Path(__file__).resolve().parents[2]


async def test_the_managers_ai_seats_ask_the_engines_ai(
    repo: GameRepository, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[int, str]] = []

    def engine_choice(state: GameState, seat: int, level: str, rng: random.Random, **kw: Any) -> Action:
        asked.append((seat, level))
        return engine.ai.choose_action(state, seat, level, rng, **kw)

    assert ai.choose_action is engine.ai.choose_action  # no stand-in
    monkeypatch.setattr(ai, "choose_action", engine_choice)
    manager = GameManager(repo, clock=clock)  # the default AI
    await manager.start(dispatcher=False)
    try:
        await started_game(manager, humans=1, ais=2)
    finally:
        await manager.close()
    # both AI seats chose their tickets through the engine's AI
    assert {seat for seat, _ in asked} == {1, 2} and {level for _, level in asked} == {"easy"}


async def test_choose_ai_action_answers_what_the_engine_answers() -> None:
    state = new_game("usa", 3, seed=2)
    seat = state.current
    ours = await ai.choose_ai_action(state, seat, "easy", random.Random(5))
    assert ours == engine.ai.choose_action(state.copy(), seat, "easy", random.Random(5))
    assert ours in legal_actions(state, seat)


def test_a_broken_engine_ai_fails_the_import_loudly() -> None:
    code = "import sys; sys.modules['engine.ai'] = None; import bot.manager"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "import of engine.ai halted" in run.stderr  # no random-move stand-in
