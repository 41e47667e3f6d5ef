"""An in-memory edge source, and a way to wait for the threads under test without timing anything."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.sensors.edges import BeamEdge, EdgeHandler
from companion.sensors.pinmap import PinMap


class FakeSource:
    """Beams set by the test: `edge()` changes a beam and hands the edge to whoever started the source."""

    def __init__(self, pinmap: PinMap) -> None:
        self.pinmap = pinmap
        self.states = dict.fromkeys(pinmap.names, False)
        self.handler: EdgeHandler | None = None
        self.stopped = False

    def start(self, on_edge: EdgeHandler) -> None:
        self.handler = on_edge

    def stop(self) -> None:
        self.stopped = True

    def beam_states(self) -> dict[str, bool]:
        return dict(self.states)

    def edge(self, beam: str, blocked: bool, t_us: int) -> None:
        self.states[beam] = blocked
        assert self.handler is not None
        self.handler(BeamEdge(beam, blocked, t_us, "fake"))


def eventually(check: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    """Wait for another thread to make `check()` true; the timeout only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.005)
