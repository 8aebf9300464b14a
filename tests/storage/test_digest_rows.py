"""The daily digest's rows (bot.storage._digests, V010) on every backend: saved, read, found when due, moved on by
a compare-and-set that only one caller wins, deleted when turned off."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.storage import Digest, GameRepository

T0 = datetime(2026, 3, 28, 7, 0, tzinfo=UTC)


async def test_digest_rows_round_trip_and_compare_and_set(repo: GameRepository) -> None:
    assert await repo.load_digest(7) is None
    assert await repo.next_digest_due() is None
    await repo.save_digest(7, 480, T0)
    await repo.save_digest(8, 1200, T0 + timedelta(hours=12))
    assert await repo.load_digest(7) == Digest(7, 480, T0)
    assert await repo.next_digest_due() == T0
    assert await repo.due_digests(T0 - timedelta(seconds=1)) == []
    assert await repo.due_digests(T0) == [Digest(7, 480, T0)]
    tomorrow = T0 + timedelta(days=1)
    assert await repo.move_digest(7, T0, tomorrow)
    assert not await repo.move_digest(7, T0, tomorrow)  # the second caller read the old due time: loses
    assert await repo.load_digest(7) == Digest(7, 480, tomorrow)
    await repo.save_digest(7, 540, T0)  # a new time: replaced
    assert await repo.load_digest(7) == Digest(7, 540, T0)
    await repo.save_digest(7, None, None)  # off
    assert await repo.load_digest(7) is None
    assert not await repo.move_digest(7, T0, tomorrow)
    assert await repo.next_digest_due() == T0 + timedelta(hours=12)
