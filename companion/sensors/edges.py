"""The one stream every beam source produces: timestamped edges of named beams.

GPIO beams on the Pi and beams on a MicroPython sensor node both end up as
`BeamEdge`s, so the toss judge does not care where a beam is wired.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol


@dataclasses.dataclass(frozen=True)
class BeamEdge:
    beam: str
    """The beam's name from hardware/pinmap.json, e.g. "left_base"."""
    blocked: bool
    """True when the beam was broken at this edge, False when it cleared."""
    t_us: int
    """Microseconds on the source's monotonic clock (the node's ticks_us, or the Pi's)."""
    source: str = "gpio"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> BeamEdge:
        return BeamEdge(
            str(data["beam"]), bool(data["blocked"]), int(data["t_us"]), str(data.get("source", "gpio"))
        )


EdgeHandler = Callable[[BeamEdge], None]


class EdgeSource(Protocol):
    """A source of beam edges: GPIO, a sensor node over serial, or a simulated horn."""

    def start(self, on_edge: EdgeHandler) -> None: ...

    def stop(self) -> None: ...

    def beam_states(self) -> dict[str, bool]:
        """Each beam's current state (True = blocked), for arming checks and the scoreboard."""
