"""How the browser benches print their timings (bench_web_page, bench_activity_signin, bench_activity_presence)."""

from __future__ import annotations

import statistics


def p95(xs: list[float]) -> float:
    """The 95th percentile of `xs` (nearest rank)."""
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def line(name: str, xs: list[float]) -> str:
    """`name` and the count, median, p95 and max of `xs` (seconds) in ms."""
    ms = [x * 1000 for x in xs]
    return f"{name}: n={len(ms)} median {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms, max {max(ms):.0f} ms"
