"""End to end: the firmware's real output, through a pty, into the daemon's reader and the toss judge.

Physically simulated tosses (with ground truth) play into the firmware running in
MicroPython under Node; the bytes it writes go, frame by frame at their node
time, into a pty that the daemon's `SensorNode` reads like a Pico's USB
serial; its edges feed the `TossJudge`, whose verdicts must match the truth.
A toss during which garbage arrives on the line must come out void.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
from pathlib import Path

import pytest

from companion.sensors.clock import ManualClock
from companion.sensors.edges import BeamEdge
from companion.sensors.judge import TossJudge, TossSettings, Verdict
from companion.sensors.node import NodeFault, SensorNode, pinmap_crc
from companion.sensors.pinmap import PinMap, load_pinmap
from companion.sim.ringtoss.tosses import PhysicalToss

from .node_fixtures import PINMAP_FILE, PtyPort, flash, pty_port, run_firmware, wait_for
from .physical import physical_tosses

__all__ = ["flash", "pty_port"]

SETTINGS = TossSettings(window_ms=8000)


def chosen_tosses() -> list[PhysicalToss]:
    """The first simulated toss of every kind (ringers on each horn apart), one with glitches among them,
    and one more ringer: the toss with garbage on the line while the ring falls."""
    chosen: dict[tuple[str, str | None], PhysicalToss] = {}
    for toss in physical_tosses():
        chosen.setdefault((toss.kind, toss.horn), toss)
    tosses = list(chosen.values())
    ringers = [t for t in physical_tosses() if t.success and t not in tosses]
    if not any(t.glitches for t in tosses):
        tosses.append(next(t for t in physical_tosses() if t.glitches and t not in tosses))
    return [*tosses, ringers[0]]


@dataclasses.dataclass(frozen=True)
class PlannedToss:
    seat: int
    armed_us: int
    """Node time at which the table arms the judge."""
    sim: PhysicalToss
    """The toss as thrown after arming, on the node's clock."""
    edges: tuple[BeamEdge, ...]
    garbled: bool = False


def last_change_us(toss: PhysicalToss) -> int:
    return max(t for t, _, _ in toss.changes + toss.glitch_changes)


def plan(pinmap: PinMap) -> tuple[list[PlannedToss], list[BeamEdge], int]:
    """Tosses one after another on the node's clock, the ring taken off the figure after each verdict."""
    rng = random.Random(11)
    chosen = chosen_tosses()
    tosses: list[PlannedToss] = []
    train: list[BeamEdge] = []
    armed = 600_000
    for i, toss in enumerate(chosen):
        sim = toss.shifted(armed + rng.randint(300_000, 2_000_000))
        edges = sim.edges()
        tosses.append(PlannedToss(i % 3, armed, sim, tuple(edges), garbled=i == len(chosen) - 1))
        end = max(last_change_us(sim), armed + SETTINGS.window_ms * 1000)
        cleared = end + SETTINGS.settle_ms * 1000 + 1_500_000
        final = {e.beam: e.blocked for e in edges}
        train += edges + [BeamEdge(beam, False, cleared) for beam, blocked in final.items() if blocked]
        armed = cleared + 600_000
    return tosses, train, armed


def frame_time(line: bytes) -> int | None:
    for field in line.split(b"#")[0].split(b" "):
        if field.startswith(b"t="):
            return int(field[2:])
    return None


class Table:
    """The judge's side: edges in from the reader thread, faults void the toss, verdicts collected."""

    def __init__(self, pinmap: PinMap, clock: ManualClock) -> None:
        self.judge = TossJudge(pinmap, SETTINGS, clock)
        self.verdicts: list[Verdict] = []
        self.lock = threading.Lock()

    def on_edge(self, edge: BeamEdge) -> None:
        with self.lock:
            self._keep(self.judge.feed(edge))

    def on_fault(self, fault: NodeFault) -> None:
        with self.lock:
            self._keep(self.judge.void(fault.reason))

    def poll(self) -> None:
        with self.lock:
            self._keep(self.judge.poll())

    def _keep(self, verdict: Verdict | None) -> None:
        if verdict is not None:
            self.verdicts.append(verdict)


def taken(node: SensorNode, frames: int) -> bool:
    return node.frames_received >= frames


@pytest.fixture(scope="module")
def pinmap() -> PinMap:
    return load_pinmap(PINMAP_FILE)


def test_firmware_output_through_a_pty_gives_the_right_verdicts(
    pinmap: PinMap, flash: Path, pty_port: PtyPort, tmp_path: Path
) -> None:
    tosses, train, end = plan(pinmap)
    run = run_firmware(
        flash, {"edges": [[e.t_us, e.beam, e.blocked] for e in train], "end_us": end}, tmp_path
    )
    assert run.report["errors"] == []
    lines = run.serial.splitlines(keepends=True)

    clock = ManualClock(0)
    table = Table(pinmap, clock)
    node = SensorNode(
        pinmap,
        port=str(pty_port.path),
        on_fault=table.on_fault,
        expected_pinmap_crc=pinmap_crc(PINMAP_FILE),
        clock=clock,
    )
    node.start(table.on_edge)
    try:
        wait_for(lambda: node.status().connected, "the port opened")
        base = 10_000_000  # the daemon's clock is not the node's
        pending = list(tosses)
        # Right after the ring's first change in the last toss (it is falling past the tips).
        noise_at: int | None = tosses[-1].sim.changes[0][0]
        for sent, line in enumerate(lines, start=1):
            t = frame_time(line)
            if t is not None:
                clock.now = max(clock.now, base + t)
                while pending and t >= pending[0].armed_us:
                    toss = pending.pop(0)
                    assert node.status().ok, node.status().faults
                    with table.lock:
                        table.judge.arm(toss.seat, node.beam_states())
                if noise_at is not None and not pending and t > noise_at:
                    pty_port.write(b"\x00\xfe@17 E b=left_tip_a blocked=1 t=\xff\n")  # noise on the cable
                    noise_at = None
            pty_port.write(line)
            wait_for(functools.partial(taken, node, sent), "the reader to take the frame")
            table.poll()
        assert not pending
    finally:
        node.stop()

    verdicts = table.verdicts
    assert [v.seat for v in verdicts] == [t.seat for t in tosses]
    for toss, verdict in zip(tosses[:-1], verdicts, strict=False):
        assert verdict.outcome == ("success" if toss.sim.success else "failure"), (
            toss.sim.kind,
            verdict.reason,
        )
        assert verdict.horn == toss.sim.horn
        assert all(e.source == "node" for e in verdict.edges)
        assert [(e.beam, e.blocked, e.t_us) for e in verdict.edges] == [
            (e.beam, e.blocked, e.t_us) for e in toss.edges if e.t_us <= verdict.edges[-1].t_us
        ]
    assert verdicts[-1].outcome == "void" and "garbled" in verdicts[-1].reason
    assert {t.sim.success for t in tosses[:-1]} == {True, False}
    assert {t.sim.horn for t in tosses[:-1]} == {"left", "right", None}
    assert any(t.sim.glitches for t in tosses[:-1])


@pytest.fixture(scope="module")
def one_ringer(
    pinmap: PinMap, flash: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[PhysicalToss, bytes]:
    """The firmware's output for one ringer thrown 1 s after arming, armed at 0.6 s on the node's clock."""
    sim = next(t for t in physical_tosses() if t.success).shifted(1_600_000)
    edges = sim.edges()
    scenario = {
        "edges": [[e.t_us, e.beam, e.blocked] for e in edges],
        "end_us": last_change_us(sim) + 2_000_000,
    }
    return sim, run_firmware(flash, scenario, tmp_path_factory.mktemp("ringer")).serial


@pytest.mark.parametrize("trouble", ["heartbeat stops", "cable pulled"])
def test_a_node_that_goes_quiet_or_away_mid_toss_voids_it(
    pinmap: PinMap, one_ringer: tuple[PhysicalToss, bytes], pty_port: PtyPort, trouble: str
) -> None:
    sim, serial = one_ringer
    clock = ManualClock(0)
    table = Table(pinmap, clock)
    node = SensorNode(pinmap, port=str(pty_port.path), on_fault=table.on_fault, clock=clock)
    node.start(table.on_edge)
    try:
        wait_for(lambda: node.status().connected, "the port opened")
        first_edge = sim.changes[0][0]  # the ring reaches the first beam
        for sent, line in enumerate(serial.splitlines(keepends=True), start=1):
            t = frame_time(line)
            if t is not None:
                clock.now = max(clock.now, t)
                if t >= 600_000 and table.judge.armed_seat is None:
                    with table.lock:
                        table.judge.arm(1, node.beam_states())
            pty_port.write(line)
            wait_for(functools.partial(taken, node, sent), "the reader to take the frame")
            if t is not None and t >= first_edge:
                break  # the ring is coming down: the toss is under way
        assert table.verdicts == []
        if trouble == "heartbeat stops":
            clock.advance(2_000_000)
        else:
            pty_port.unplug()
        wait_for(lambda: bool(table.verdicts), "the verdict")
    finally:
        node.stop()
    (verdict,) = table.verdicts
    assert verdict.outcome == "void" and verdict.seat == 1
    assert ("stopped answering" if trouble == "heartbeat stops" else "was unplugged") in verdict.reason
