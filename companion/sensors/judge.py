"""The toss judge: sensor edges in, one verdict per toss out.

The rule (hardware/beams.md explains the geometry behind it): a toss is judged
once the ring has come down (some sensor changed since arming) and is at
rest: no sensor has changed for the settle time. Then each horn's base beams
(low beams around it, hardware/beams.md) say where the ring lies: a ring
around a horn blocks all of them, one beside, between the horns or leaning
against a horn blocks at most `sure_failure_at_most` of any horn's. A count
in between is a *doubtful* verdict: the camera, or the host, decides
(companion/vision/tosscheck.py). A tip beam that stays blocked is a ring
hanging on the tip: nothing is decided while it hangs. State changes shorter
than the debounce are electrical glitches and ignored. A toss in which
nothing ever came down fails when the toss window ends.

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
    """Arming refused: a beam is blocked before the ring was tossed (`blocked`: which, for the words)."""

    def __init__(self, message: str, blocked: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.blocked = blocked


class TossInProgressError(TossError):
    """Arming refused: the judge is still waiting for another toss."""


@dataclasses.dataclass(frozen=True)
class TossSettings:
    settle_ms: int = 600
    """No sensor changing for this long means the ring is at rest (hardware/beams.md: the longest quiet
    stretch of a ring still moving on the figure in the simulated tosses, with margin)."""
    settle_after_tip_ms: int = 950
    """The settle time while a ring that went down over a tip (it crossed all of that tip's beams) lies
    on no base beam: it may be circling the horn on its way down, between the tip and the base beams,
    where no beam sees it (in 10,000 simulated tosses two rings spiralled down a horn unseen for 0.73 and
    0.78 s). Longer would keep a miss that bounced off a tip waiting past a second."""
    window_ms: int = 15000
    """From arming: the time the player has to toss, when no sensor sees the ring come down."""
    max_wait_ms: int = 10000
    """After the window: how long a ring still moving or hanging on a tip is waited for."""
    debounce_us: int = 1000
    """State changes shorter than this are glitches; a falling ring blocks a beam for 2 ms or more."""
    grace_us: int = 2000
    """Allowance for an edge still on its way (USB frames, the node's main loop) before a rest is
    called complete: a later edge may still undo it."""
    late_edge_us: int = 50_000
    """A change no later edge has confirmed is taken as lasting only this long after the debounce: an
    edge ending a glitch may come late (a busy reader). Nothing waits on it but the confirmation."""
    sure_success_at_least: int = 5
    """A horn with at least this many of its base beams blocked at rest wears the ring, surely."""
    sure_failure_at_most: int = 4
    """With at most this many of every horn's base beams blocked at rest, surely no ring is around one;
    counts in between are doubtful and go to the camera or the host."""

    def __post_init__(self) -> None:
        for name in (
            "settle_ms",
            "settle_after_tip_ms",
            "window_ms",
            "max_wait_ms",
            "debounce_us",
            "grace_us",
            "late_edge_us",
        ):
            if getattr(self, name) < 0:
                raise TossError(f"the toss setting {name} cannot be negative")
        if self.settle_ms * 1000 <= self.debounce_us:  # (a settle within late_edge_us just waits for it)
            raise TossError("the settle time must be longer than the debounce")
        if not 0 <= self.sure_failure_at_most < self.sure_success_at_least:
            raise TossError("sure_failure_at_most must be below sure_success_at_least")

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
    """On the edges' clock: when the sensors had been still for the settle time (the rest was seen)."""
    sure: bool = True
    """False: the sensors cannot tell this toss with margin (the camera or the host decides)."""
    blocked: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per horn: how many of its base beams the resting ring blocks."""

    @property
    def success(self) -> bool:
        return self.outcome == "success"

    def evidence(self) -> dict[str, Any]:
        return {
            "judge": "beams",
            "outcome": self.outcome,
            "reason": self.reason,
            "horn": self.horn,
            "sure": self.sure,
            "blocked": dict(self.blocked),
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
    last_change_us: int | None = None
    tips_crossed: set[str] = dataclasses.field(default_factory=set)
    """The tip beams the ring has crossed since arming: all of a horn's, and it went down over that tip."""
    knocked: bool = False
    """Did the knock sensor feel an impact (a ring coming down, not a hand in a beam) since arming?"""
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
        blocked = [name for name in self.pinmap.beam_names if beam_states.get(name, False)]
        if blocked:
            raise HornNotClearError(
                f"clear the horn figure before the toss: {', '.join(blocked)} "
                f"{'is' if len(blocked) == 1 else 'are'} blocked (a ring left on it, or a beam out of line)",
                tuple(blocked),
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
        window_end = toss.armed_us + self.settings.window_ms * 1000
        give_up = window_end + self.settings.max_wait_ms * 1000
        if toss.offset_us is not None:
            edge_now = now - toss.offset_us - toss.lag_us
            for name, beam in toss.beams.items():
                confirmed_at = self.settings.debounce_us + self.settings.late_edge_us
                if beam.pending_us is not None and edge_now - beam.pending_us >= confirmed_at:
                    self._confirm(toss, name, beam)
            rest = self._rest_end(toss)
            if rest is not None and edge_now - self.settings.grace_us >= rest:
                hanging = self._hanging(toss)
                if hanging is None:
                    verdict = self._at_rest(toss, rest, window_over=now >= window_end)
                    if verdict is not None:
                        return verdict
                elif now >= give_up:
                    return self._finish(
                        "success",
                        f"{hanging} for too long; the camera or the host decides",
                        settle_end_us=rest,
                        sure=False,
                        blocked=self._counts(toss),
                    )
                else:
                    return None
        if now < window_end:
            return None
        if toss.last_change_us is None and not self._pending(toss):
            return self._finish("failure", "no ring came down near the figure")
        if now >= give_up:
            return self._finish(
                "void", "undecided: the ring was still moving past the toss window; the host decides"
            )
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
            latest = max(
                [toss.last_change_us or 0] + [b.pending_us for b in toss.beams.values() if b.pending_us]
            )
            if toss.last_change_us is not None or self._pending(toss):
                candidates.append(latest + self._settle_us(toss) + self.settings.grace_us + to_local)
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
        toss.knocked = toss.knocked or (beam.level == "knock" and beam.stable)
        if beam.level == "tip" and beam.stable:
            toss.tips_crossed.add(name)

    @staticmethod
    def _pending(toss: _Toss) -> bool:
        return any(b.pending_us is not None for b in toss.beams.values())

    def _rest_end(self, toss: _Toss) -> int | None:
        """Edge time at which the sensors will have been still for the settle time (once a ring came down)."""
        if toss.last_change_us is None or self._pending(toss):
            return None
        return toss.last_change_us + self._settle_us(toss)

    def _settle_us(self, toss: _Toss) -> int:
        on_the_plate = any(b.stable for b in toss.beams.values() if b.level == "base")
        over_a_tip = any(
            set(self.pinmap.tip_beams(horn)) <= toss.tips_crossed
            for horn in self.pinmap.horns
            if self.pinmap.tip_beams(horn)
        )
        if over_a_tip and not on_the_plate:
            return max(self.settings.settle_ms, self.settings.settle_after_tip_ms) * 1000
        return self.settings.settle_ms * 1000

    def _hanging(self, toss: _Toss) -> str | None:
        for name in self.pinmap.beam_names:
            beam = toss.beams[name]
            if beam.level == "tip" and beam.stable:
                return f"a ring hangs on the {beam.horn} horn's tip ({name} blocked)"
        return None

    def _counts(self, toss: _Toss) -> dict[str, int]:
        return {
            horn: sum(1 for name in self.pinmap.base_beams(horn) if toss.beams[name].stable)
            for horn in self.pinmap.horns
        }

    def _came_down(self, toss: _Toss) -> bool:
        """A ring struck the figure or the table: the knock sensor says so (without one, any change does)."""
        if any(b.level == "knock" for b in self.pinmap.beams):
            return toss.knocked
        return toss.last_change_us is not None

    def _at_rest(self, toss: _Toss, rest: int, window_over: bool) -> Verdict | None:
        """The verdict on what lies still on the figure; None while no ring came down and time remains
        (a hand that brushed a beam after arming is not a toss)."""
        counts = self._counts(toss)
        horn, most = max(counts.items(), key=lambda item: item[1])
        of = len(self.pinmap.base_beams(horn))
        if most >= self.settings.sure_success_at_least:
            return self._finish(
                "success",
                f"the ring rests around the {horn} horn ({most} of its {of} base beams blocked)",
                horn=horn,
                settle_end_us=rest,
                blocked=counts,
            )
        if not self._came_down(toss):
            if not window_over:
                return None
            return self._finish(
                "failure", "no ring came down near the figure", settle_end_us=rest, blocked=counts
            )
        if most <= self.settings.sure_failure_at_most:
            where = (
                "no ring lies on the figure"
                if most == 0
                else "the ring lies on the figure but not around a horn"
            )
            return self._finish("failure", where, settle_end_us=rest, blocked=counts)
        return self._finish(
            "failure",
            f"doubtful: the ring blocks {most} of the {horn} horn's {of} base beams, as a ring around it "
            "tilted or one lying close beside it may; the camera or the host decides",
            horn=horn,
            settle_end_us=rest,
            sure=False,
            blocked=counts,
        )

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
