"""The rating model: openskill's Plackett-Luce, multiplayer, ranked by final score (equal scores tie).

The storage applies it inside the transaction that writes a finished game's results (``_social.py``), so a
game is rated exactly when its results land, once. Players see the conservative ordinal ``mu - 3 sigma``
(0 for a newcomer, rising as the rating grows surer and higher).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: a newcomer's rating (openskill's defaults: mu 25, sigma 25/3)
START_MU: float = _MODEL.mu
START_SIGMA: float = _MODEL.sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """What is shown and ranked: a rating the player very probably has at least."""
        return self.mu - 3 * self.sigma


def rate(before: Sequence[Skill], scores: Sequence[int]) -> list[Skill]:
    """Each player's skill after one game where they scored ``scores`` (higher is better, equal ties)."""
    if len(before) != len(scores) or len(before) < 2:
        raise ValueError(
            f"a rated game needs two players or more, with one score each: {len(before)}, {len(scores)}"
        )
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = _MODEL.rate(teams, scores=list(scores))
    return [Skill(team[0].mu, team[0].sigma) for team in after]
