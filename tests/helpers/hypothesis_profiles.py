"""Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (loaded by tests/conftest.py before any test module):

- ``dev`` (the default: the developer's loop) runs a fifth of each property test's budget;
- ``ci`` (``.ci/run``) runs each one's whole budget, as before the profiles.

A property test states its whole budget once, ``@settings(max_examples=examples(300))``: the profile scales it.
Both profiles drop the per-example deadline (a shared 2-core machine makes it flaky, and the budgets bound the
time) and the health checks that only say a test is slow or uses a function-scoped fixture (SimCord's
environment: each example uses the same bot on purpose).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SHARE = {"ci": 1.0, "dev": 0.2}
DEFAULT = "dev"

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=20)


def load() -> str:
    """Loads the profile ``HYPOTHESIS_PROFILE`` names (``dev`` if unset) and returns its name."""
    name = os.environ.get("HYPOTHESIS_PROFILE") or DEFAULT
    if name not in SHARE:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: expected one of {', '.join(SHARE)}")
    settings.load_profile(name)
    return name


def examples(full: int) -> int:
    """A property test's number of examples under the loaded profile; `full` is its budget under ``ci``."""
    name = settings.get_current_profile_name()
    return max(5, round(full * SHARE.get(name, 1.0)))
