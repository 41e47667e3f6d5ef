"""The sensor node protocol state, free of threads and ports: bytes and ticks in; edges and faults out.

`NodeLink` is what `SensorNode` (companion/sensors/node.py) runs on its
reader thread; tests drive it byte by byte with a hand-set clock. It keeps
the beam states (resynchronised at every heartbeat), the node's hello and
self-test, and reports at once, through `on_fault`, anything that may have
cost an edge: garbage, a sequence gap, a full buffer on the node, a
restart, a disconnect, a lost heartbeat. Lasting problems stay in
`NodeStatus.faults` until fixed, for the scoreboard: each a sentence for the players (companion/words.py,
what happened and what to do), the technical detail (a port's error, a code, a beam's name) in the log.
"""

from __future__ import annotations

import binascii
import dataclasses
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.device_words import beam_words
from companion.sensors.edges import BeamEdge, EdgeHandler
from companion.sensors.pinmap import PinMap
from companion.sensors.protocol import (
    PROTOCOL_VERSION,
    CorruptFrame,
    Edge,
    FrameDecoder,
    Heartbeat,
    Hello,
    Message,
    NodeError,
    SelfTest,
    SequenceGap,
)
from companion.words import Said, say

log = logging.getLogger(__name__)

SOURCE = "node"
"""The `source` of the edges a sensor node sends."""


@dataclasses.dataclass(frozen=True)
class NodeStatus:
    """What the scoreboard shows about the node; `faults` is empty when all is well."""

    connected: bool
    port: str | None
    firmware: str | None
    self_test: Mapping[str, str]
    faults: tuple[str, ...]
    corrupt_frames: int
    lost_frames: int
    disruptions: int
    """Events that may have cost an edge, since start: a toss spanning a change of this is void."""
    absent_because: str | None = None
    """Why the node could not be found or opened, for a maker (the port's own error)."""

    @property
    def ok(self) -> bool:
        return self.connected and not self.faults

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["self_test"] = dict(self.self_test)
        data["faults"] = list(self.faults)
        data["ok"] = self.ok
        return data


@dataclasses.dataclass(frozen=True)
class NodeFault:
    """Something that may have cost an edge, or makes the beams untrustworthy: void the toss in progress."""

    kind: str
    """disconnected, heartbeat_lost, corrupt, lost_frames, overflow, restarted, self_test, pinmap, node_error,
    out_of_sync."""
    reason: str
    """A sentence for the players (a `Said`): what happened and what to do."""
    status: NodeStatus


FaultHandler = Callable[[NodeFault], None]
StatusHandler = Callable[[NodeStatus], None]


def not_connected() -> Said:
    return say("The sensor node is not connected: plug its USB cable into the Pi.")


def _garbled() -> Said:
    return say("The sensor node sent garbled data: wait a moment; if this goes on, check its USB cable.")


def _no_heartbeat() -> Said:
    return say("The sensor node stopped answering: check its USB cable, or unplug it and plug it in again.")


def _firmware_stopped() -> Said:
    return say("The sensor node's firmware stopped: unplug the node and plug it in again.")


def pinmap_crc(path: str | Path) -> str:
    """CRC-32 of the pin map file's bytes, as the firmware reports the copy it read."""
    return f"{binascii.crc32(Path(path).read_bytes()):08x}"


class NodeLink:
    """The node's protocol state: bytes and clock ticks in; edges, faults and status out."""

    def __init__(
        self,
        pinmap: PinMap,
        *,
        on_edge: EdgeHandler,
        on_fault: FaultHandler | None = None,
        on_status: StatusHandler | None = None,
        expected_pinmap_crc: str | None = None,
        heartbeat_timeout_us: int | None = None,
    ) -> None:
        self.pinmap = pinmap
        self._on_edge = on_edge
        self._on_fault = on_fault
        self._on_status = on_status
        self._expected_crc = expected_pinmap_crc
        self.heartbeat_timeout_us = heartbeat_timeout_us or 3 * pinmap.heartbeat_ms * 1000
        self.decoder = FrameDecoder()
        self.states = dict.fromkeys(pinmap.names, False)
        self.port: str | None = None
        self._why_absent: str | None = None
        self.hello: Hello | None = None
        self.self_test: dict[str, str] = {}
        self._seen_clear: set[str] = set()
        self._node_error: str | None = None
        self._last_beat: int | None = None
        self._beat_lost = False
        self._suspect = False
        self._synced = False
        self._frames = 0
        self._overflows = 0
        self.disruptions = 0
        self._published: NodeStatus | None = None

    # ------------------------------------------------------------ events from the port

    def connected(self, port: str, now: int) -> None:
        self.port = port
        self._why_absent = None
        self.decoder.reset()
        self.hello = None  # the node may have restarted meanwhile: wait for its next hello
        self.self_test = {}
        self._last_beat = now
        self._beat_lost = False
        self._synced = False
        self._frames = 0
        self.publish()

    def disconnected(self, reason: str, *, fault: bool = True) -> None:
        """The port went away (`fault`), or the daemon closed it on purpose (not a fault of the node)."""
        if self.port is None:
            return
        self.port = None
        self._why_absent = reason
        if fault:
            said = say("The sensor node was unplugged: plug its USB cable back into the Pi.")
            self._fault("disconnected", said, reason)
        else:
            self.publish()

    def unavailable(self, reason: str) -> None:
        """The node could not be found or opened (the reader keeps trying): say why, for the maker."""
        self._why_absent = reason
        self.publish()

    def received(self, data: bytes, now: int) -> None:
        for item in self.decoder.feed(data):
            if isinstance(item, CorruptFrame):
                self._suspect = True
                self._fault("corrupt", _garbled(), item.reason)
            elif isinstance(item, SequenceGap):
                self._suspect = True
                said = say("Data from the sensor node was lost: toss again if a toss was under way.")
                self._fault("lost_frames", said, f"{item.missing} frame(s) lost")
            else:
                self._frame(item.seq, item.message, now)
        self.publish()

    def _frame(self, seq: int, message: Message, now: int) -> None:
        self._frames += 1
        if isinstance(message, Edge):
            self._edge(message)
        elif isinstance(message, Heartbeat):
            self._heartbeat(message, now)
        elif isinstance(message, Hello):
            self._hello(message, booted=seq == 0)
        elif isinstance(message, SelfTest):
            self._self_test(message)
        else:
            self._node_error_frame(message)

    def tick(self, now: int) -> None:
        """Called often by the reader: notices a heartbeat that stopped."""
        if self.port is None or self._beat_lost or self._last_beat is None:
            return
        if now - self._last_beat > self.heartbeat_timeout_us:
            self._beat_lost = True
            self._fault("heartbeat_lost", _no_heartbeat(), "no heartbeat")

    # ------------------------------------------------------------ frames

    def _edge(self, edge: Edge) -> None:
        if edge.beam not in self.states:
            said = say("The sensor node reports a beam the pin map does not have: deploy its firmware again.")
            self._fault("pinmap", said, f"unknown beam {edge.beam!r}")
            return
        self.states[edge.beam] = edge.blocked
        if not edge.blocked:
            self._seen_clear.add(edge.beam)
        self._on_edge(BeamEdge(edge.beam, edge.blocked, edge.t_us, SOURCE))

    def _heartbeat(self, beat: Heartbeat, now: int) -> None:
        self._last_beat = now
        self._beat_lost = False
        dropped = beat.overflows - self._overflows if self._synced else 0  # (joining late: adopt the count)
        if dropped > 0:
            said = say("The sensor node missed some beam changes: toss again if a toss was under way.")
            self._fault("overflow", said, f"dropped {dropped} edge(s)")
        self._overflows = beat.overflows
        reported = {name: name in beat.blocked for name in self.states}
        if reported != self.states and self._synced and not self._suspect and dropped <= 0:
            said = say(
                "The sensor node's beam states disagreed with its changes: "
                "toss again if a toss was under way."
            )
            self._fault("out_of_sync", said, "heartbeat states disagree with the edges")
        # The heartbeat reflects every edge sent before it: after a loss, this is the truth again.
        self.states = reported
        self._seen_clear.update(name for name, blocked in reported.items() if not blocked)
        self._suspect = False
        self._synced = True

    def _hello(self, hello: Hello, booted: bool) -> None:
        if booted and self._frames > 1:
            self._synced = False
            said = say("The sensor node restarted: wait for its self-test, then toss again.")
            self._fault("restarted", said, "hello with sequence 0")
        if booted or self.hello is None:
            self.self_test = {}
            self._overflows = 0
        if booted:
            self._seen_clear.clear()
            self._node_error = None
        before = self._hello_problem(self.hello) if self.hello else None
        self.hello = hello
        problem = self._hello_problem(hello)
        if problem and problem != before:
            detail = (
                f"protocol {hello.protocol} (the daemon's {PROTOCOL_VERSION}), "
                f"beams {', '.join(hello.beams)}, "
                f"pin map CRC {hello.pinmap_crc} (expected {self._expected_crc})"
            )
            self._fault("pinmap", problem, detail)

    def _hello_problem(self, hello: Hello) -> Said | None:
        if hello.protocol != PROTOCOL_VERSION:
            return say("The sensor node's firmware does not match this program: deploy its firmware again.")
        if hello.beams != self.pinmap.names:
            return say("The sensor node's beams differ from the pin map: deploy its firmware again.")
        if self._expected_crc is not None and hello.pinmap_crc != self._expected_crc:
            return say("The sensor node has another pin map than the Pi: deploy its firmware again.")
        return None

    def _self_test(self, result: SelfTest) -> None:
        before = self._test_failure(result.beam)
        self.self_test[result.beam] = result.result
        failure = self._test_failure(result.beam)
        if failure and failure != before:
            self._fault("self_test", failure, f"beam {result.beam}: {result.result}")

    def _test_failure(self, beam: str) -> Said | None:
        result = self.self_test.get(beam)
        if result == "stuck_clear":
            return dead_receiver(beam_words(self.pinmap, beam))
        if result == "blocked" and beam not in self._seen_clear:
            return say(
                "The self-test found {beam} blocked: take any ring or hand off the horn figure, "
                "or line that beam up.",
                beam=beam_words(self.pinmap, beam),
            )
        return None

    def _node_error_frame(self, error: NodeError) -> None:
        self._node_error = error.code
        self._fault("node_error", _firmware_stopped(), f"firmware error {error.code}")

    # ------------------------------------------------------------ status

    def faults(self) -> tuple[str, ...]:
        """What is wrong, most important first, each a sentence saying what to do (companion/words.py)."""
        if self.port is None:
            return (not_connected(),)
        faults: list[str] = []
        if self._beat_lost:
            faults.append(_no_heartbeat())
        if self._node_error:
            faults.append(_firmware_stopped())
        if self._suspect:
            faults.append(_garbled())
        if self.hello is None:
            faults.append(say("The sensor node is starting: wait a moment; if this stays, plug it in again."))
        else:
            problem = self._hello_problem(self.hello)
            if problem:
                faults.append(problem)
            missing = [name for name in self.pinmap.names if name not in self.self_test]
            if missing and not problem:
                faults.append(say("The sensor node is testing its beams: wait a moment."))
        faults.extend(f for f in (self._test_failure(b) for b in self.pinmap.names) if f)
        return tuple(faults)

    def status(self) -> NodeStatus:
        return NodeStatus(
            connected=self.port is not None,
            port=self.port,
            firmware=self.hello.firmware if self.hello else None,
            self_test=dict(self.self_test),
            faults=self.faults(),
            corrupt_frames=self.decoder.corrupt_frames,
            lost_frames=self.decoder.missing_frames,
            disruptions=self.disruptions,
            absent_because=self._why_absent if self.port is None else None,
        )

    def _fault(self, kind: str, reason: Said, detail: str) -> None:
        """`reason` for the players; `detail` (an error, a code, a count) only for the log."""
        self.disruptions += 1
        log.warning("sensor node: %s (%s: %s)", reason, kind, detail)
        if self._on_fault is not None:
            self._on_fault(NodeFault(kind, reason, self.status()))
        self.publish()

    def publish(self) -> None:
        """Tell `on_status` the status, if it changed since last told."""
        status = self.status()
        if status != self._published:
            self._published = status
            if self._on_status is not None:
                self._on_status(status)


def dead_receiver(beam: Said) -> Said:
    """A beam whose receiver never sees it blocked (the node's self-test, or the Pi's emitter blink)."""
    return say("The self-test found {beam} dead: check that its receiver is plugged in.", beam=beam)
