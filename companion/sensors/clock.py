"""Clocks in microseconds: the real one, and the ones tests and the benchmark set by hand."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Clock = Callable[[], int]
"""Microseconds on a monotonic clock."""


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class ManualClock:
    """A clock that moves only when told: tests set `now` and nothing sleeps."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, us: int) -> int:
        self.now += us
        return self.now


class WarpClock:
    """The real clock plus a jump: runs at real speed, but can skip ahead over idle time.

    The benchmark plays hours of tosses in seconds this way, while the last
    stretch before each deadline still passes in real time, so the measured
    delay from a settle time's end to its verdict is a real one.
    """

    def __init__(self) -> None:
        self._skipped = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return monotonic_us() + self._skipped

    def skip_to(self, t_us: int) -> None:
        """Jump forward to `t_us` (never backward)."""
        with self._lock:
            now = monotonic_us() + self._skipped
            if t_us > now:
                self._skipped += t_us - now
