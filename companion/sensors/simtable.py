"""The simulated table's hands for `companion run --simulate`: tossing rings at the simulated horn.

When the judge is armed, a simulated player tosses after a moment; the
physical horn (companion/sim/ringtoss) throws a ring with the player's skill
and simulates its flight and rest, and the resulting edge train is played in
real time into the chosen source: gpiozero MockFactory pins
(the GPIO path, exactly as lgpio would deliver them) or a simulated sensor
node writing its serial frames into a pty that the real node reader opens.
After the verdict the ring is lifted off, as a player would.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from companion.sensors.clock import Clock, monotonic_us
from companion.sensors.edges import BeamEdge
from companion.sensors.judge import Verdict
from companion.sensors.pinmap import PinMap
from companion.sim.ringtoss.horn import PhysicalHorn


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


class PinPlayer:
    """Plays edges into MockFactory pins at their times, stamped exactly as lgpio stamps an edge."""

    def __init__(self, pinmap: PinMap) -> None:
        self.pinmap = pinmap
        self._edge_time = monotonic_us()
        self.factory = ClockedMockFactory(lambda: self._edge_time)
        self._lock = threading.Lock()

    def play(self, edges: list[BeamEdge]) -> None:
        """Play in real time: each edge waits for its moment on the monotonic clock."""
        for edge in edges:
            _sleep_until(edge.t_us)
            self.send(edge)

    def send(self, edge: BeamEdge) -> None:
        """Drive one edge now, stamped with its own time."""

        def at(t_us: int) -> None:
            self._edge_time = t_us

        with self._lock:
            play_into_pins([edge], self.pinmap, self.factory, at)

    def lift(self) -> None:
        now = monotonic_us()
        self.play([BeamEdge(name, False, now, "sim") for name in self.pinmap.names])

    def close(self) -> None:
        self.factory.close()


class NodePlayer:
    """A simulated sensor node on a pty: hello, self-test, heartbeats, and the edges it is given."""

    def __init__(self, pinmap: PinMap, pinmap_crc: str = "00000000") -> None:
        from companion.sensors.protocol import PROTOCOL_VERSION, FrameEncoder, Hello, SelfTest

        self.pinmap = pinmap
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave
        self._encoder = FrameEncoder()
        self.boot_us = monotonic_us()
        self._blocked: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._hello = Hello("simulated", PROTOCOL_VERSION, pinmap.heartbeat_ms, pinmap.names, pinmap_crc)
        # The knock sensor has no light for the emitter test: the node reports it untested.
        self._self_test = [SelfTest(b.name, "untested" if b.level == "knock" else "ok") for b in pinmap.beams]
        self._announce()
        self._beats = threading.Thread(target=self._heartbeat, name="simulated-node", daemon=True)
        self._beats.start()

    def play(self, edges: list[BeamEdge]) -> None:
        """Play in real time: each edge waits for its moment on the monotonic clock."""
        for edge in edges:
            _sleep_until(edge.t_us)
            self.send(edge)

    def send(self, edge: BeamEdge) -> None:
        """Send one edge now, stamped with its own time on the node's clock (microseconds since boot)."""
        from companion.sensors.protocol import Edge

        with self._lock:
            if edge.blocked == (edge.beam in self._blocked):
                return  # the firmware sends changes only
            (self._blocked.add if edge.blocked else self._blocked.discard)(edge.beam)
            self._write(Edge(edge.beam, edge.blocked, edge.t_us - self.boot_us))

    def lift(self) -> None:
        now = monotonic_us()
        self.play([BeamEdge(name, False, now, "sim") for name in self.pinmap.names])

    def close(self) -> None:
        self._stop.set()
        self._beats.join(2)
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _heartbeat(self) -> None:
        from companion.sensors.protocol import HELLO_EVERY, Heartbeat

        period = self.pinmap.heartbeat_ms / 1000
        beats = 0
        while not self._stop.wait(period):
            with self._lock:
                self._write(Heartbeat(monotonic_us() - self.boot_us, frozenset(self._blocked), 0, 0))
                beats += 1
                # As the firmware does, for a reader that connects late; also at the first beat, since
                # the reader flushes what was written to the pty before it opened it.
                if beats % HELLO_EVERY == 1:
                    self._announce()

    def _announce(self) -> None:
        self._write(self._hello)
        for message in self._self_test:
            self._write(message)

    def _write(self, message: object) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, self._encoder.encode(message))  # type: ignore[arg-type]


class SimulatedTosser:
    """On each arming, the seat's simulated player tosses; after the verdict, the ring is lifted off."""

    def __init__(
        self,
        horn: PhysicalHorn,
        play: Callable[[list[BeamEdge]], None],
        lift: Callable[[], None],
        *,
        skill: Callable[[int], float],
        delay: float = 1.0,
    ) -> None:
        self.horn = horn
        self.play = play
        self.lift = lift
        self.skill = skill
        self.delay = delay
        self._lock = threading.Lock()
        self._lifting = False

    def on_armed(self, seat: int) -> None:
        armed_us = monotonic_us()
        threading.Thread(target=self._toss, args=(seat, armed_us), name="simulated-toss", daemon=True).start()

    def on_verdict(self, verdict: Verdict) -> None:
        threading.Timer(max(self.delay, 0.5), self.lift).start()

    def on_not_clear(self) -> None:
        """A ring is still on the figure (its toss was entered by the host, say): a player takes it off."""
        with self._lock:
            if self._lifting:
                return
            self._lifting = True
        threading.Timer(max(self.delay, 0.5), self._lift_once).start()

    def _lift_once(self) -> None:
        try:
            self.lift()
        finally:
            with self._lock:
                self._lifting = False

    def _toss(self, seat: int, armed_us: int) -> None:
        # The window counts from arming, so the simulated player tosses `delay` after it, however long
        # the simulation took (a toss takes a tenth of a second to seconds of CPU); if it took longer, at
        # once: edges are never stamped with a time already past.
        toss = self.horn.toss(self.skill(seat))
        thrown_us = max(armed_us + round(self.delay * 1e6), monotonic_us())
        self.play(toss.edges(offset_us=thrown_us))


def _sleep_until(t_us: int) -> None:
    wait = (t_us - monotonic_us()) / 1e6
    if wait > 0:
        time.sleep(wait)
