"""The sensor node protocol state, free of threads and ports: bytes and ticks in; edges and faults out.

`NodeLink` is what `SensorNode` (companion/sensors/node.py) runs on its
reader thread; tests drive it byte by byte with a hand-set clock. It keeps
the beam states (resynchronised at every heartbeat), the node's hello and
self-test, and reports at once, through `on_fault`, anything that may have
cost an edge: garbage, a sequence gap, a full buffer on the node, a
restart, a disconnect, a lost heartbeat. Lasting problems stay in
`NodeStatus.faults` until fixed, for the scoreboard.
"""

from __future__ import annotations

import binascii
import dataclasses
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

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
    status: NodeStatus


FaultHandler = Callable[[NodeFault], None]
StatusHandler = Callable[[NodeStatus], None]


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
            self._fault("disconnected", f"sensor node disconnected ({reason})")
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
                self._fault("corrupt", f"garbled data from the sensor node ({item.reason})")
            elif isinstance(item, SequenceGap):
                self._suspect = True
                self._fault("lost_frames", f"{item.missing} frame(s) from the sensor node lost")
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
            self._fault("heartbeat_lost", "no heartbeat from the sensor node")

    # ------------------------------------------------------------ frames

    def _edge(self, edge: Edge) -> None:
        if edge.beam not in self.states:
            self._fault("pinmap", f"the sensor node reports a beam {edge.beam!r} the pin map does not have")
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
            self._fault("overflow", f"the sensor node dropped {dropped} edge(s)")
        self._overflows = beat.overflows
        reported = {name: name in beat.blocked for name in self.states}
        if reported != self.states and self._synced and not self._suspect and dropped <= 0:
            self._fault("out_of_sync", "the sensor node's beam states disagree with its edges")
        # The heartbeat reflects every edge sent before it: after a loss, this is the truth again.
        self.states = reported
        self._seen_clear.update(name for name, blocked in reported.items() if not blocked)
        self._suspect = False
        self._synced = True

    def _hello(self, hello: Hello, booted: bool) -> None:
        if booted and self._frames > 1:
            self._synced = False
            self._fault("restarted", "the sensor node restarted")
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
            self._fault("pinmap", problem)

    def _hello_problem(self, hello: Hello) -> str | None:
        if hello.protocol != PROTOCOL_VERSION:
            return (
                f"the sensor node speaks protocol {hello.protocol}, the daemon {PROTOCOL_VERSION}: redeploy"
            )
        if hello.beams != self.pinmap.names:
            return "the sensor node's beams differ from the pin map: redeploy the firmware"
        if self._expected_crc is not None and hello.pinmap_crc != self._expected_crc:
            return "the sensor node has another pin map than the daemon: redeploy the firmware"
        return None

    def _self_test(self, result: SelfTest) -> None:
        before = self._test_failure(result.beam)
        self.self_test[result.beam] = result.result
        failure = self._test_failure(result.beam)
        if failure and failure != before:
            self._fault("self_test", failure)

    def _test_failure(self, beam: str) -> str | None:
        result = self.self_test.get(beam)
        if result == "stuck_clear":
            return f"beam {beam} failed its self-test: it never reads blocked (receiver unplugged?)"
        if result == "blocked" and beam not in self._seen_clear:
            return f"beam {beam} was blocked at the self-test: clear the horn or align the beam"
        return None

    def _node_error_frame(self, error: NodeError) -> None:
        self._node_error = error.code
        self._fault("node_error", f"the sensor node firmware stopped: {error.code}")

    # ------------------------------------------------------------ status

    def faults(self) -> tuple[str, ...]:
        if self.port is None:
            why = f" ({self._why_absent})" if self._why_absent else ""
            return (f"sensor node disconnected{why}",)
        faults: list[str] = []
        if self._beat_lost:
            faults.append("no heartbeat from the sensor node")
        if self._node_error:
            faults.append(f"the sensor node firmware stopped: {self._node_error}")
        if self._suspect:
            faults.append("garbled data from the sensor node: waiting for its next heartbeat")
        if self.hello is None:
            faults.append("waiting for the sensor node's hello")
        else:
            problem = self._hello_problem(self.hello)
            if problem:
                faults.append(problem)
            missing = [name for name in self.pinmap.names if name not in self.self_test]
            if missing and not problem:
                faults.append(f"waiting for the self-test of {', '.join(missing)}")
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
        )

    def _fault(self, kind: str, reason: str) -> None:
        self.disruptions += 1
        log.warning("sensor node: %s", reason)
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
