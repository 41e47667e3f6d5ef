"""The toss judge: beam edges in, one verdict per toss out.

The rule (hardware/beams.md explains the geometry behind it): a toss succeeds
when, for one horn, the ring has passed its tip beam since the toss was armed
and then a base beam of that horn stays blocked for the settle time. It fails
when the toss window ends without that, except that a ring still moving, or
hanging on a tip, when the window ends is waited for (up to `max_wait_ms`).
State changes shorter than the debounce are electrical glitches and ignored.

The judge is passive and single-threaded: feed it edges and poll it; it asks
its clock only to stamp arrivals and to see timeouts, so tests drive it with
a hand-set clock and no sleeping. Durations between edges come from the edges'
own timestamps (the source's clock); the judge maps them onto its clock with
the smallest arrival delay seen in the toss.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from companion.sensors.clock import Clock, monotonic_us
from companion.sensors.edges import BeamEdge
from companion.sensors.pinmap import PinMap

Outcome = Literal["success", "failure", "void"]


class TossError(ValueError):
    """A toss the judge cannot take now."""


class HornNotClearError(TossError):
    """Arming refused: a beam is blocked before the ring was tossed."""


class TossInProgressError(TossError):
    """Arming refused: the judge is still waiting for another toss."""


@dataclasses.dataclass(frozen=True)
class TossSettings:
    settle_ms: int = 1000
    """A base beam blocked this long means a ring at rest (a bounce-off clears within ~400 ms)."""
    window_ms: int = 15000
    """From arming: the time the player has to toss."""
    max_wait_ms: int = 10000
    """After the window: how long a ring still moving or hanging on a tip is waited for."""
    debounce_us: int = 1000
    """State changes shorter than this are glitches; a falling ring blocks a beam for 2.5 ms or more."""
    grace_us: int = 2000
    """Allowance for an edge still on its way (USB frames, the node's main loop) before a settle is
    called complete: a later edge may still undo it."""
    late_edge_us: int = 50_000
    """A change no later edge has confirmed is taken as lasting only this long after the debounce: an
    edge ending a glitch may come late (a busy reader), and a glitch taken for a ring passing the tip
    could make a ring lying beside the horn a success. Nothing waits on it but the confirmation."""
    require_tip: bool = True
    """Count a base block only after the ring passed that horn's tip beam (rejects rings lying beside)."""
    require_both_base: bool = False
    """Only both base beams of a horn together count (fewer false successes, more missed tilted ringers)."""

    def __post_init__(self) -> None:
        for name in ("settle_ms", "window_ms", "max_wait_ms", "debounce_us", "grace_us", "late_edge_us"):
            if getattr(self, name) < 0:
                raise TossError(f"the toss setting {name} cannot be negative")
        if self.settle_ms * 1000 <= self.debounce_us:  # (a settle within late_edge_us just waits for it)
            raise TossError("the settle time must be longer than the debounce")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The one outcome of one toss, with everything needed to explain or overturn it."""

    seat: int
    outcome: Outcome
    reason: str
    edges: tuple[BeamEdge, ...]
    """Every raw edge that arrived while the toss was armed, glitches included."""
    settings: TossSettings
    armed_us: int
    decided_us: int
    horn: str | None = None
    settle_end_us: int | None = None
    """On the edges' clock: when the deciding beam had been blocked for the settle time."""
    beams_agree: bool | None = None
    """For a success: did every base beam of the horn see the ring (a flat ringer), or only some?"""

    @property
    def success(self) -> bool:
        return self.outcome == "success"

    def evidence(self) -> dict[str, Any]:
        return {
            "judge": "beams",
            "outcome": self.outcome,
            "reason": self.reason,
            "horn": self.horn,
            "beams_agree": self.beams_agree,
            "settle_end_us": self.settle_end_us,
            "armed_us": self.armed_us,
            "decided_us": self.decided_us,
            "settings": self.settings.to_json(),
            "edges": [e.to_json() for e in self.edges],
        }


@dataclasses.dataclass
class _Beam:
    horn: str
    level: str
    raw: bool = False
    stable: bool = False
    since_us: int | None = None
    """Edge time of the last confirmed change (None: unchanged since arming)."""
    pending_us: int | None = None
    """Edge time of a raw change not yet confirmed by lasting the debounce."""


@dataclasses.dataclass
class _Toss:
    seat: int
    armed_us: int
    beams: dict[str, _Beam]
    edges: list[BeamEdge] = dataclasses.field(default_factory=list)
    offset_us: int | None = None
    """Smallest (arrival on our clock - edge time) seen: maps edge times onto our clock."""
    lag_us: int = 0
    """How much later than that the last edge arrived."""
    tip_passed: dict[str, int] = dataclasses.field(default_factory=dict)
    last_change_us: int | None = None
    glitches: int = 0
    polled_us: int = 0
    """Our clock at the last poll."""


class TossJudge:
    def __init__(
        self, pinmap: PinMap, settings: TossSettings | None = None, clock: Clock = monotonic_us
    ) -> None:
        self.pinmap = pinmap
        self.settings = settings or TossSettings()
        self.clock = clock
        self._toss: _Toss | None = None

    @property
    def armed_seat(self) -> int | None:
        return self._toss.seat if self._toss else None

    # ------------------------------------------------------------ arming

    def arm(self, seat: int, beam_states: Mapping[str, bool]) -> None:
        """Start judging a toss of `seat`; refused while any beam is blocked."""
        if self._toss is not None:
            raise TossInProgressError(f"a toss of seat {self._toss.seat} is being judged already")
        blocked = [name for name in self.pinmap.names if beam_states.get(name, False)]
        if blocked:
            raise HornNotClearError(
                f"clear the horn figure before the toss: {', '.join(blocked)} "
                f"{'is' if len(blocked) == 1 else 'are'} blocked (a ring left on it, or a beam out of line)"
            )
        beams = {b.name: _Beam(b.horn, b.level) for b in self.pinmap.beams}
        now = self.clock()
        self._toss = _Toss(seat, now, beams, polled_us=now)

    def void(self, reason: str) -> Verdict | None:
        """End the toss without a verdict on the ring (a fault): the table re-tosses."""
        if self._toss is None:
            return None
        return self._finish("void", f"toss void: {reason}; toss again")

    # ------------------------------------------------------------ edges and time

    def feed(self, edge: BeamEdge) -> Verdict | None:
        toss = self._toss
        if toss is None:
            return None
        arrived = self.clock()
        toss.edges.append(edge)
        beam = toss.beams.get(edge.beam)
        if beam is None or edge.blocked == beam.raw:
            return self.poll()  # an unknown beam or a repeated state tells nothing about the ring
        delay = arrived - edge.t_us
        toss.offset_us = delay if toss.offset_us is None else min(toss.offset_us, delay)
        # An edge that came late says the edges after it may be late as much: a batch of edges
        # delivered together is judged by the edges' own times, not by when the batch arrived.
        toss.lag_us = delay - toss.offset_us
        if beam.pending_us is not None:
            if edge.t_us - beam.pending_us < self.settings.debounce_us:
                # Back to the stable state before the debounce ran out: a glitch, as if it never was.
                beam.pending_us, beam.raw = None, edge.blocked
                toss.glitches += 1
                return self.poll()
            self._confirm(toss, edge.beam, beam)
        beam.raw, beam.pending_us = edge.blocked, edge.t_us
        return self.poll()

    def poll(self) -> Verdict | None:
        """The verdict, if the time passed since the last edge settles the toss."""
        toss = self._toss
        if toss is None:
            return None
        now = self.clock()
        toss.polled_us = now
        if toss.offset_us is not None:
            edge_now = now - toss.offset_us - toss.lag_us
            for name, beam in toss.beams.items():
                confirmed_at = self.settings.debounce_us + self.settings.late_edge_us
                if beam.pending_us is not None and edge_now - beam.pending_us >= confirmed_at:
                    self._confirm(toss, name, beam)
            for horn in self.pinmap.horns:
                settled = self._settle_end(toss, horn)
                if settled is not None and edge_now - self.settings.grace_us >= settled[0]:
                    return self._finish(
                        "success",
                        f"the ring rests over the {horn} horn",
                        horn=horn,
                        settle_end_us=settled[0],
                        beams_agree=settled[1],
                    )
        window_end = toss.armed_us + self.settings.window_ms * 1000
        if now < window_end:
            return None
        waiting = self._still_moving(toss, now)
        if waiting is None:
            if toss.edges and any(b.stable for b in toss.beams.values()):
                return self._finish("failure", "a ring lies on the figure but not over a horn")
            return self._finish("failure", "no ring came to rest over a horn")
        if now >= window_end + self.settings.max_wait_ms * 1000:
            return self._finish("void", f"undecided: {waiting} past the toss window; the host decides")
        return None

    def next_deadline(self) -> int | None:
        """When (on the judge's clock) polling may next yield a verdict; None when no toss is armed."""
        toss = self._toss
        if toss is None:
            return None
        window_end = toss.armed_us + self.settings.window_ms * 1000
        candidates = [window_end, window_end + self.settings.max_wait_ms * 1000]
        if toss.offset_us is not None:
            to_local = toss.offset_us + toss.lag_us
            for beam in toss.beams.values():
                if beam.pending_us is not None:
                    candidates.append(
                        beam.pending_us + self.settings.debounce_us + self.settings.late_edge_us + to_local
                    )
            for horn in self.pinmap.horns:
                settled = self._settle_end(toss, horn, pending_too=True)
                if settled is not None:
                    candidates.append(settled[0] + self.settings.grace_us + to_local)
            if toss.last_change_us is not None:
                candidates.append(toss.last_change_us + self.settings.settle_ms * 1000 + to_local)
        # Deadlines still ahead of the last poll: one that passed since then must be polled at once,
        # not skipped, or a verdict would wait for the next deadline.
        future = [c for c in candidates if c > toss.polled_us]
        return min(future) if future else toss.polled_us

    # ------------------------------------------------------------ the rule

    def _confirm(self, toss: _Toss, name: str, beam: _Beam) -> None:
        assert beam.pending_us is not None
        beam.stable, beam.since_us = beam.raw, beam.pending_us
        beam.pending_us = None
        toss.last_change_us = beam.since_us
        if beam.level == "tip" and beam.stable and beam.horn not in toss.tip_passed:
            toss.tip_passed[beam.horn] = beam.since_us

    def _settle_end(self, toss: _Toss, horn: str, pending_too: bool = False) -> tuple[int, bool] | None:
        """(edge time at which the horn's base block will have lasted the settle time, all base beams?)."""
        tip_seen = horn in toss.tip_passed or (pending_too and self._tip_pending(toss, horn))
        if self.settings.require_tip and self.pinmap.tip_beams(horn) and not tip_seen:
            return None
        starts: list[int] = []
        names = self.pinmap.base_beams(horn)
        for name in names:
            beam = toss.beams[name]
            if beam.stable and beam.pending_us is None and beam.since_us is not None:
                starts.append(beam.since_us)
            elif pending_too and beam.raw and beam.pending_us is not None:
                starts.append(beam.pending_us)
        if not starts or (self.settings.require_both_base and len(starts) < len(names)):
            return None
        start = max(starts) if self.settings.require_both_base else min(starts)
        return start + self.settings.settle_ms * 1000, len(starts) == len(names)

    def _tip_pending(self, toss: _Toss, horn: str) -> bool:
        return any(
            toss.beams[n].raw and toss.beams[n].pending_us is not None for n in self.pinmap.tip_beams(horn)
        )

    def _still_moving(self, toss: _Toss, now: int) -> str | None:
        """Why the window's end cannot decide the toss yet, or None if it can."""
        for name, beam in toss.beams.items():
            if beam.level == "tip" and (beam.stable or beam.raw):
                return f"a ring hangs on the {beam.horn} horn's tip ({name} blocked)"
        for horn in self.pinmap.horns:
            if self._settle_end(toss, horn, pending_too=True) is not None:
                return f"a ring is settling on the {horn} horn"
        if toss.offset_us is not None and toss.last_change_us is not None:
            quiet_since = now - toss.offset_us - toss.lag_us - toss.last_change_us
            if quiet_since < self.settings.settle_ms * 1000:
                return "the ring is still moving"
        return None

    def _finish(self, outcome: Outcome, reason: str, **details: Any) -> Verdict:
        toss = self._toss
        assert toss is not None
        self._toss = None
        return Verdict(
            toss.seat,
            outcome,
            reason,
            tuple(toss.edges),
            self.settings,
            toss.armed_us,
            self.clock(),
            **details,
        )
