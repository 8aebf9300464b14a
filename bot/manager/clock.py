"""Injectable clocks: the manager asks a clock for the time, so tests can jump days ahead instantly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "ManualClock", "SystemClock"]


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to. Moving it wakes whoever subscribed (the timer dispatcher)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> datetime:
        return self._now

    def subscribe(self, callback: Callable[[], None]) -> None:
        self._listeners.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move forward by `delta` or by keyword parts (``hours=13``) and wake the subscribers."""
        self._now += (delta or timedelta()) + timedelta(**kwargs)
        for callback in list(self._listeners):
            callback()
        return self._now
