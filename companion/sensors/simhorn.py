"""The simulated horn figure: physically plausible beam edge trains, each with its ground truth.

Numbers from the rigid-body study (/work/shared/FACTS.md) and the beam
geometry of hardware/beams.md: a ring falls at 2-3 m/s, so it blocks a beam
(3 mm light path, 5 mm cord) for 2.7-4 ms while falling past it; it passes the
tip beam 60 mm above the base beams, 20-60 ms before reaching them; a
bounce-off clears the base within a few hundred milliseconds; a ring can hang
on a tip for over 3 s; electrical glitches last well under a millisecond.

A `SimToss` lists the true occlusions of each beam; `edges` adds the glitches.
Tosses play into gpiozero MockFactory pins (`play_into_pins`) or render as the
sensor node's serial frames (companion.sensors.protocol.node_frames).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from companion.sensors.clock import Clock, ManualClock
from companion.sensors.edges import BeamEdge
from companion.sensors.pinmap import PinMap

MS = 1000
FOREVER = 1 << 62
"""End of an occlusion that lasts past the end of the toss (the ring stays)."""
GLITCH_US = (20, 950)
"""Electrical glitches: a spike on the receiver line, shorter than the judge's 1 ms debounce."""

# Weights follow hardware/beams.md: a tilted ringer escapes both base beams about 1 time in 100, a flat
# ring beside a horn blocks both of its base beams about 1 time in 8.
SUCCESS_KINDS = {"ringer": 0.52, "leaner": 0.22, "rattler": 0.13, "tip_hanger": 0.10, "tilted_above": 0.03}
FAILURE_KINDS = {
    "bounce_off": 0.35,
    "rattle_off": 0.15,
    "near_miss": 0.20,
    "beside": 0.12,
    "miss": 0.15,
    "tip_graze_beside": 0.03,
}
UNDECIDABLE = frozenset({"tilted_above", "tip_graze_beside"})
"""Kinds the beams cannot judge (hardware/beams.md): a tilted ringer above both base beams, and a
ring that grazed the tip and lies flat beside the horn across a base beam. The camera decides those."""

__all__ = [
    "FAILURE_KINDS",
    "SUCCESS_KINDS",
    "UNDECIDABLE",
    "ClockedMockFactory",
    "ManualClock",
    "SimToss",
    "SimulatedHorn",
    "play_into_pins",
]


@dataclasses.dataclass(frozen=True)
class Occlusion:
    beam: str
    start_us: int
    end_us: int = FOREVER


@dataclasses.dataclass(frozen=True)
class SimToss:
    kind: str
    success: bool
    """Ground truth: does the ring end over a horn?"""
    horn: str | None
    occlusions: tuple[Occlusion, ...]
    glitches: tuple[Occlusion, ...]
    """Sub-debounce toggles: a pulse on a clear beam, or a flicker of a blocked one."""
    end_us: int
    """When the ring is at rest (or gone), relative to arming."""

    @property
    def decidable(self) -> bool:
        return self.kind not in UNDECIDABLE

    @property
    def beams_say_success(self) -> bool:
        return self.success == self.decidable

    def settle_start_us(self, pinmap: PinMap) -> int | None:
        """When the final, lasting block of the horn's first base beam began (the verdict's clock starts)."""
        if self.horn is None:
            return None
        lasting = [
            o.start_us
            for o in self.occlusions
            if o.end_us == FOREVER and o.beam in pinmap.base_beams(self.horn)
        ]
        return min(lasting) if lasting else None

    def edges(self, offset_us: int = 0, source: str = "sim") -> list[BeamEdge]:
        """The edge train, with glitches, in time order; a glitch inside an occlusion is a flicker."""
        changes: list[tuple[int, str, bool]] = []
        for o in self.occlusions:
            changes.append((o.start_us, o.beam, True))
            if o.end_us != FOREVER:
                changes.append((o.end_us, o.beam, False))
        for g in self.glitches:
            inside = any(o.beam == g.beam and o.start_us < g.start_us < o.end_us for o in self.occlusions)
            changes.append((g.start_us, g.beam, not inside))
            changes.append((g.end_us, g.beam, inside))
        changes.sort(key=lambda c: c[0])
        return [BeamEdge(beam, blocked, t + offset_us, source) for t, beam, blocked in changes]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "success": self.success, "horn": self.horn, "decidable": self.decidable}


class SimulatedHorn:
    """Draws tosses: by kind, or by a player's skill (the chance that the ring lands over a horn)."""

    def __init__(self, pinmap: PinMap, seed: int | None = None, glitch_rate: float = 0.3) -> None:
        self.pinmap = pinmap
        self.rng = random.Random(seed)
        self.glitch_rate = glitch_rate
        self._kinds: Mapping[str, Callable[[str, int], tuple[list[Occlusion], int]]] = {
            "ringer": self._ringer,
            "leaner": self._leaner,
            "rattler": self._rattler,
            "tip_hanger": self._tip_hanger,
            "tilted_above": self._tilted_above,
            "bounce_off": self._bounce_off,
            "rattle_off": self._rattle_off,
            "near_miss": self._near_miss,
            "beside": self._beside,
            "miss": self._miss,
            "tip_graze_beside": self._tip_graze_beside,
        }

    def toss(
        self, skill: float | None = None, *, kind: str | None = None, arrive_us: int | None = None
    ) -> SimToss:
        rng = self.rng
        if kind is None:
            lands = rng.random() < (0.5 if skill is None else skill)
            table = SUCCESS_KINDS if lands else FAILURE_KINDS
            kind = rng.choices(list(table), weights=list(table.values()))[0]
        if kind not in self._kinds:
            raise ValueError(f"no simulated toss kind {kind!r}; kinds: {', '.join(self._kinds)}")
        horn = rng.choice(self.pinmap.horns)
        t0 = arrive_us if arrive_us is not None else rng.randint(300 * MS, 6000 * MS)
        occlusions, end = self._kinds[kind](horn, t0)
        success = kind in SUCCESS_KINDS
        glitches = self._glitches(occlusions, end)
        return SimToss(kind, success, horn if success else None, tuple(occlusions), tuple(glitches), end)

    # ------------------------------------------------------------ the physics, kind by kind

    def _cross(self) -> int:
        """Microseconds a falling ring blocks a beam: (5 mm cord + 3 mm light path) / 2-3 m/s."""
        return round(8_000 / self.rng.uniform(2.0, 3.0) * self.rng.uniform(0.85, 1.15))

    def _fall(self) -> int:
        """From the tip beam down to the base beams: 60 mm at 2-3 m/s, slowed by rubbing the horn."""
        return self.rng.randint(20 * MS, 60 * MS)

    def _base(self, horn: str, both: float) -> list[str]:
        names = list(self.pinmap.base_beams(horn))
        return names if self.rng.random() < both else [self.rng.choice(names)]

    def _tip(self, horn: str) -> str:
        return self.pinmap.tip_beams(horn)[0]

    def _rests(self, beams: list[str], t: int, rattles: int = 0) -> tuple[list[Occlusion], int]:
        """A ring coming down on the base beams: short hops (it bounces on the head), then it stays."""
        out: list[Occlusion] = []
        for beam in beams:
            start = t + self.rng.randint(0, 3 * MS)
            for _ in range(rattles):
                length = self.rng.randint(5 * MS, 80 * MS)
                out.append(Occlusion(beam, start, start + length))
                start += length + self.rng.randint(4 * MS, 50 * MS)
            out.append(Occlusion(beam, start))
        return out, max(o.start_us for o in out)

    def _ringer(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        tip = [Occlusion(self._tip(horn), t0, t0 + self._cross())]
        rest, end = self._rests(self._base(horn, 0.97), t0 + self._fall(), self.rng.choice((0, 0, 1)))
        return tip + rest, end

    def _leaner(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        # Held tilted by friction, it slides down to the base beam late, touching one side only.
        tip = [Occlusion(self._tip(horn), t0, t0 + self._cross())]
        slide = self.rng.randint(100 * MS, 2500 * MS)
        rest, end = self._rests(self._base(horn, 0.68), t0 + self._fall() + slide, self.rng.randint(0, 3))
        return tip + rest, end

    def _rattler(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        tip = [Occlusion(self._tip(horn), t0, t0 + self._cross())]
        rest, end = self._rests(self._base(horn, 0.6), t0 + self._fall(), self.rng.randint(3, 8))
        return tip + rest, end

    def _tip_hanger(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        # Caught on the tip, it blocks the tip beam until it slides down, sometimes past the window.
        hang = self.rng.randint(3000 * MS, 7000 * MS)
        t0 = self.rng.choice((t0, t0 + 6000 * MS))
        tip = [Occlusion(self._tip(horn), t0, t0 + hang)]
        rest, end = self._rests(self._base(horn, 0.7), t0 + hang + self._fall(), self.rng.randint(0, 2))
        return tip + rest, end

    def _tilted_above(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        # Came to rest tilted with its cord above both base beams: over the horn, yet no base beam sees it.
        return [Occlusion(self._tip(horn), t0, t0 + self._cross())], t0 + 200 * MS

    def _bounce_off(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        out = []
        t = t0
        if self.rng.random() < 0.5:  # hit near the tip, or only the side of the horn
            out.append(Occlusion(self._tip(horn), t, t + self._cross()))
            t += self._fall()
        for beam in self._base(horn, 0.5):
            start = t + self.rng.randint(0, 5 * MS)
            out.append(Occlusion(beam, start, start + self.rng.randint(30 * MS, 400 * MS)))
        return out, max(o.end_us for o in out)

    def _rattle_off(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        out = [Occlusion(self._tip(horn), t0, t0 + self._cross())]
        t = t0 + self._fall()
        beam = self._base(horn, 0.0)[0]
        for _ in range(self.rng.randint(2, 6)):
            length = self.rng.randint(5 * MS, 120 * MS)
            out.append(Occlusion(beam, t, t + length))
            t += length + self.rng.randint(5 * MS, 60 * MS)
        return out, out[-1].end_us

    def _near_miss(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        # Falling past the figure through one or two light paths: a few milliseconds each.
        out = []
        t = t0
        for beam in self.rng.sample(self.pinmap.names, self.rng.randint(1, 2)):
            out.append(Occlusion(beam, t, t + self._cross()))
            t += self.rng.randint(5 * MS, 40 * MS)
        return out, t

    def _beside(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        # Flat on the head next to the horn, lying across one base beam (sometimes both).
        return self._rests(self._base(horn, 0.13), t0, self.rng.randint(0, 2))

    def _miss(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        return [], t0

    def _tip_graze_beside(self, horn: str, t0: int) -> tuple[list[Occlusion], int]:
        tip = [Occlusion(self._tip(horn), t0, t0 + self._cross())]
        rest, end = self._rests(self._base(horn, 0.13), t0 + self._fall(), self.rng.randint(0, 2))
        return tip + rest, end

    def _glitches(self, occlusions: list[Occlusion], end: int) -> list[Occlusion]:
        """Sub-millisecond spikes, kept 2 ms clear of real edges so each stays a glitch, not a real edge."""
        out: list[Occlusion] = []
        if self.rng.random() >= self.glitch_rate:
            return out
        edges = [(o.beam, t) for o in occlusions for t in (o.start_us, o.end_us)]
        for _ in range(self.rng.randint(1, 3)):
            beam = self.rng.choice(self.pinmap.names)
            start = self.rng.randint(0, end + 500 * MS)
            g = Occlusion(beam, start, start + self.rng.randint(*GLITCH_US))
            near = [t for b, t in edges if b == beam and abs(t - start) < 2 * MS]
            if not near:
                out.append(g)
                edges += [(beam, g.start_us), (beam, g.end_us)]
        return out


# ---------------------------------------------------------------- the GPIO path


class ClockedMockPin(MockPin):  # type: ignore[misc]
    """A MockPin whose edges carry the factory's clock instead of the wall clock."""

    _state: bool
    _last_change: float
    states: list[PinState]

    def _change_state(self, value: bool) -> bool:
        if self._state == value:
            return False
        t = self.factory.ticks()
        self._state = value
        self.states.append(PinState(t - self._last_change, value))
        self._last_change = t
        return True

    def clear_states(self) -> None:
        self._last_change = self.factory.ticks()
        self.states = [PinState(0.0, self._state)]


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """gpiozero's MockFactory on a settable clock, so pulse trains play with exact timing and no sleeping."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        super().__init__(pin_class=ClockedMockPin)

    def ticks(self) -> float:
        return self.clock() / 1e6


def play_into_pins(
    edges: list[BeamEdge], pinmap: PinMap, factory: MockFactory, set_time: Callable[[int], None]
) -> None:
    """Drive each edge into its beam's mock pin at its time (receivers pull low while broken)."""
    for edge in edges:
        spec = pinmap.beam(edge.beam)
        set_time(edge.t_us)
        pin = factory.pin(spec.pi_gpio)
        if edge.blocked == spec.active_low:
            pin.drive_low()
        else:
            pin.drive_high()
