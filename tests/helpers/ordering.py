"""Longest tests first, so that the pytest-xdist workers finish together.

xdist hands out tests in collection order. Left as collected, the whole games in a real browser (tests/web_browser,
near the end of the alphabet) started last and ran alone on one worker for a minute while the others were idle.
This sorts the collection, longest first (the greedy schedule that keeps workers busy until the end), by:

- each test's duration in the last run that timed it (pytest's cache, key ``ttr/durations``, written at the end of
  every run by the xdist controller or the only process);
- else its duration in ``tests/durations.json``: the tests of half a second or more on the project's 2-core
  machine, for a clean clone (CI's) that has no cache. Refresh it now and then from the cache with
  ``python tests/helpers/ordering.py > tests/durations.json``;
- else its markers: ``slow`` before ``cluster`` before the rest, whose order is kept.

Every worker collects the same order: they read the cache written by the last run, never the current one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CACHE_KEY = "ttr/durations"
#: Guesses, in seconds, for a test never timed here: a whole browser game; the other slow and cluster tests.
GUESS = {"web_browser_slow": 60.0, "slow": 10.0, "cluster": 5.0}


def _guess(item: pytest.Item) -> float:
    if item.get_closest_marker("slow"):
        return GUESS["web_browser_slow"] if "web_browser" in item.nodeid else GUESS["slow"]
    if item.get_closest_marker("cluster"):
        return GUESS["cluster"]
    return 0.0


#: The shipped durations (seconds), for a run without pytest's cache.
SHIPPED = Path(__file__).resolve().parents[1] / "durations.json"


def order_longest_first(config: pytest.Config, items: list[pytest.Item]) -> None:
    cache = getattr(config, "cache", None)
    known: dict[str, float] = json.loads(SHIPPED.read_text(encoding="utf-8")) if SHIPPED.is_file() else {}
    known.update(cache.get(CACHE_KEY, {}) if cache is not None else {})
    items.sort(key=lambda item: -known.get(item.nodeid, _guess(item)))  # a stable sort: ties keep their order


class DurationRecorder:
    """Adds up setup, call and teardown of every test this process sees reported (the controller sees its
    workers' reports), and keeps them in the cache at the end, over the earlier runs' figures."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.seconds: dict[str, float] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache: Any = getattr(self.config, "cache", None)
        if cache is None or not self.seconds:
            return
        merged = dict(cache.get(CACHE_KEY, {}))
        merged.update({k: round(v, 3) for k, v in self.seconds.items()})
        cache.set(CACHE_KEY, merged)


def register(config: pytest.Config) -> None:
    """Times the tests in the process that sees every report: the xdist controller, or the only process."""
    if hasattr(config, "workerinput"):  # an xdist worker: its reports reach the controller
        return
    config.pluginmanager.register(DurationRecorder(config), "ttr-durations")


if __name__ == "__main__":  # the shipped durations, from this checkout's cache
    timed = json.loads(
        (SHIPPED.parent.parent / ".pytest_cache" / "v" / CACHE_KEY).read_text(encoding="utf-8")
    )
    print(json.dumps({k: round(v, 1) for k, v in sorted(timed.items()) if v >= 0.5}, indent=0))
