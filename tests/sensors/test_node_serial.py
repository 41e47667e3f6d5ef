"""The reader on real pyserial ports: loop://, and a pty pair unplugged and plugged back in."""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from companion.sensors.clock import ManualClock
from companion.sensors.edges import BeamEdge
from companion.sensors.node import (
    NodeFault,
    NodeNotFoundError,
    NodeStatus,
    SensorNode,
    SerialPort,
    find_node_port,
    not_connected,
    open_serial,
    pinmap_crc,
)
from companion.sensors.pinmap import PinMap
from companion.sensors.protocol import Edge, FrameEncoder, Heartbeat, Hello, SelfTest, render_node_output

from .node_fixtures import PINMAP_FILE, PtyPort, Recorder, pty_port, wait_for

__all__ = ["pty_port"]


def boot_frames(pinmap: PinMap, encoder: FrameEncoder | None = None) -> bytes:
    encoder = encoder or FrameEncoder()
    crc = pinmap_crc(PINMAP_FILE)
    frames = [encoder.encode(Hello("1.0.0", 1, 500, pinmap.names, crc))]
    frames += [encoder.encode(SelfTest(name, "ok")) for name in pinmap.names]
    frames.append(encoder.encode(Heartbeat(0, frozenset(), 0, 0)))
    return b"".join(frames)


@dataclasses.dataclass
class Reader:
    node: SensorNode
    edges: Recorder
    faults: Recorder
    statuses: Recorder

    def fault_kinds(self) -> list[str]:
        return [f.kind for f in self.faults.snapshot()]

    def last_status(self) -> NodeStatus:
        return self.statuses.snapshot()[-1]  # type: ignore[no-any-return]


def make_reader(pinmap: PinMap, **options: object) -> Reader:
    edges, faults, statuses = Recorder(), Recorder(), Recorder()
    node = SensorNode(
        pinmap,
        on_fault=faults,
        on_status=statuses,
        expected_pinmap_crc=pinmap_crc(PINMAP_FILE),
        reconnect_ms=20,
        **options,  # type: ignore[arg-type]
    )
    node.start(edges)
    return Reader(node, edges, faults, statuses)


# ---------------------------------------------------------------- loop://


class LoopOpener:
    """Opens pyserial's loop:// port and keeps it, so the test can write what the node would send."""

    def __init__(self) -> None:
        self.ports: list[serial.Serial] = []
        self.opened = threading.Event()

    def __call__(self, port: str, baud: int) -> SerialPort:
        opened = open_serial(port, baud)
        assert isinstance(opened, serial.SerialBase)
        self.ports.append(opened)  # type: ignore[arg-type]
        self.opened.set()
        return opened


@pytest.fixture
def loop_reader(pinmap: PinMap) -> Iterator[tuple[Reader, LoopOpener]]:
    opener = LoopOpener()
    reader = make_reader(pinmap, port="loop://", open_port=opener)
    try:
        yield reader, opener
    finally:
        reader.node.stop()


def test_edges_from_a_loop_port_come_out_with_source_node(
    pinmap: PinMap, loop_reader: tuple[Reader, LoopOpener]
) -> None:
    reader, opener = loop_reader
    assert opener.opened.wait(10)
    edges = [BeamEdge("left_tip_a", True, 1_000), BeamEdge("left_tip_a", False, 4_000)]
    edges.append(BeamEdge("right_back_outer", True, 60_000))
    results = dict.fromkeys(pinmap.names, "ok")
    data = render_node_output(edges, pinmap.names, pinmap_crc=pinmap_crc(PINMAP_FILE), self_test=results)
    opener.ports[0].write(data)
    wait_for(lambda: len(reader.edges.snapshot()) == 3, "three edges")
    assert reader.edges.snapshot() == [dataclasses.replace(e, source="node") for e in edges]
    assert reader.node.beam_states()["right_back_outer"] is True
    assert reader.node.status().port == "loop://"
    wait_for(lambda: reader.node.status().ok, "a healthy node")
    assert reader.faults.snapshot() == []


def test_the_reader_resyncs_after_garbage_on_a_loop_port(
    pinmap: PinMap, loop_reader: tuple[Reader, LoopOpener]
) -> None:
    reader, opener = loop_reader
    assert opener.opened.wait(10)
    encoder = FrameEncoder()
    port = opener.ports[0]
    port.write(boot_frames(pinmap, encoder))
    wait_for(lambda: reader.node.status().ok, "a healthy node")
    port.write(b"\xff\xfe\x00 line noise \x07\n")
    wait_for(lambda: "corrupt" in reader.fault_kinds(), "the corrupt frame reported")
    assert not reader.node.status().ok
    port.write(encoder.encode(Heartbeat(500_000, frozenset({"left_tip_a"}), 0, 0)))
    wait_for(lambda: reader.node.status().ok, "the resync at the next heartbeat")
    assert reader.node.beam_states()["left_tip_a"] is True
    assert reader.node.status().corrupt_frames == 1


# ---------------------------------------------------------------- finding the node


@dataclasses.dataclass
class FakePortInfo:
    device: str
    vid: int | None


def test_the_node_is_found_by_its_usb_vendor_id(pinmap: PinMap) -> None:
    ports = [FakePortInfo("/dev/ttyUSB0", 0x0403), FakePortInfo("/dev/ttyACM1", 0x2E8A)]
    ports.append(FakePortInfo("/dev/ttyS0", None))
    assert find_node_port(pinmap, ports) == "/dev/ttyACM1"
    with pytest.raises(NodeNotFoundError, match="plug its USB cable into the Pi") as error:
        find_node_port(pinmap, ports[:1])
    assert "0x2e8a" in error.value.detail and "0x" not in str(error.value), "the vendor id is for a maker"


def test_the_port_listing_of_this_machine_is_read_without_error(pinmap: PinMap) -> None:
    with contextlib.suppress(NodeNotFoundError):  # no Pico here: what matters is that listing works off a Pi
        find_node_port(pinmap)


# ---------------------------------------------------------------- a pty pair, unplugged and replugged


class PtyFinder:
    """Stands in for the USB listing: finds the pty while it is plugged in, nothing while not."""

    def __init__(self, pty: PtyPort) -> None:
        self.pty = pty
        self.plugged = True

    def __call__(self, pinmap: PinMap) -> str:
        if not self.plugged:
            raise NodeNotFoundError("no USB serial device with vendor id 0x2e8a")
        return str(self.pty.path.resolve())


def test_unplug_and_replug_on_a_pty(pinmap: PinMap, pty_port: PtyPort) -> None:
    finder = PtyFinder(pty_port)
    reader = make_reader(pinmap, find_port=finder)
    try:
        wait_for(lambda: reader.node.status().connected, "the port opened")  # opening flushes input
        pty_port.write(boot_frames(pinmap))
        wait_for(lambda: reader.node.status().ok, "a healthy node")
        first = reader.node.status().port
        pty_port.write(FrameEncoder().encode(Heartbeat(0, frozenset(), 0, 0)))

        finder.plugged = False
        pty_port.unplug()
        wait_for(lambda: "disconnected" in reader.fault_kinds(), "the unplug reported")
        status = reader.node.status()
        assert not status.connected and len(status.faults) == 1
        assert status.faults == (not_connected(),) and status.absent_because

        pty_port.plug()
        finder.plugged = True
        wait_for(lambda: reader.node.status().connected, "the reconnect")
        assert not reader.node.status().ok  # until the node has said hello again
        pty_port.write(boot_frames(pinmap))  # the Pico booted again with the cable
        wait_for(lambda: reader.node.status().ok, "a healthy node again")
        assert reader.fault_kinds().count("disconnected") == 1
        assert first is not None and reader.node.status().port is not None
    finally:
        reader.node.stop()


def test_a_fixed_port_name_is_reopened_after_a_replug(pinmap: PinMap, pty_port: PtyPort) -> None:
    reader = make_reader(pinmap, port=str(pty_port.path))
    try:
        wait_for(lambda: reader.node.status().connected, "the port opened")  # opening flushes input
        pty_port.write(boot_frames(pinmap))
        wait_for(lambda: reader.node.status().ok, "a healthy node")
        pty_port.unplug()
        wait_for(lambda: not reader.node.status().connected, "the unplug")
        pty_port.plug()  # a new pty behind the same name, as udev's symlink does
        wait_for(lambda: reader.node.status().connected, "the port opened")  # opening flushes input
        pty_port.write(boot_frames(pinmap))
        wait_for(lambda: reader.node.status().ok, "the node back on the same name")
        assert reader.node.status().port == str(pty_port.path)
    finally:
        reader.node.stop()


def test_a_silent_node_on_a_pty_loses_its_heartbeat(pinmap: PinMap, pty_port: PtyPort) -> None:
    clock = ManualClock(0)
    reader = make_reader(pinmap, port=str(pty_port.path), clock=clock)
    try:
        encoder = FrameEncoder()
        wait_for(lambda: reader.node.status().connected, "the port opened")  # opening flushes input
        pty_port.write(boot_frames(pinmap, encoder))
        wait_for(lambda: reader.node.status().ok, "a healthy node")
        clock.advance(1_400_000)  # just inside 3 heartbeats: still fine
        pty_port.write(encoder.encode(Heartbeat(500_000, frozenset(), 0, 0)))
        pty_port.write(encoder.encode(Edge("left_tip_a", True, 600_000)))  # read after the heartbeat
        wait_for(lambda: len(reader.edges.snapshot()) == 1, "the heartbeat and an edge")
        assert reader.faults.snapshot() == []
        clock.advance(1_600_000)  # the node hangs: nothing for 1.6 s
        wait_for(lambda: "heartbeat_lost" in reader.fault_kinds(), "the lost heartbeat reported")
        faults: list[NodeFault] = reader.faults.snapshot()
        assert faults[-1].reason.startswith("The sensor node stopped answering")
        assert reader.node.status().connected and not reader.node.status().ok
        pty_port.write(encoder.encode(Heartbeat(1_000_000, frozenset({"left_tip_a"}), 0, 0)))
        wait_for(lambda: reader.node.status().ok, "the heartbeat back")
        assert reader.fault_kinds() == ["heartbeat_lost"]
    finally:
        reader.node.stop()


def test_faults_reach_a_runner_style_fault_callback(pinmap: PinMap, pty_port: PtyPort) -> None:
    calls: list[tuple[str, str | None]] = []
    lock = threading.Lock()

    def fault(key: str, message: str | None) -> None:
        with lock:
            calls.append((key, message))

    node = SensorNode(pinmap, port=str(pty_port.path), reconnect_ms=20)
    node.report_faults(fault)
    node.start(lambda edge: None)
    try:
        wait_for(lambda: node.status().connected, "the port opened")  # opening flushes input
        pty_port.write(boot_frames(pinmap))
        wait_for(lambda: node.status().ok, "a healthy node")
        wait_for(lambda: calls[-1] == ("node", None), "the fault closed")
        pty_port.write(b"garbage\n")
        wait_for(lambda: any("garbled" in str(message) for _, message in calls), "the void")
        assert calls[-1][0] == "node" and calls[-1][1] is not None  # stays open until the next heartbeat
    finally:
        node.stop()
    assert calls[0] == ("node", not_connected())


def test_a_port_that_cannot_be_opened_says_why_until_stopped(pinmap: PinMap, tmp_path: Path) -> None:
    reader = make_reader(pinmap, port=str(tmp_path / "no-such-port"))
    wait_for(lambda: len(reader.statuses.snapshot()) >= 2, "the first attempt")
    reader.node.stop()
    assert not reader.node.status().connected
    assert reader.last_status().faults == (not_connected(),)
    assert "no-such-port" in str(reader.last_status().absent_because), "why, for a maker"
    assert reader.faults.snapshot() == []  # never connected, so nothing was lost


def test_a_callback_may_wait_for_a_table_that_is_asking_for_beam_states(
    pinmap: PinMap, pty_port: PtyPort
) -> None:
    # The table arms under its own lock and asks the source for beam states; the reader hands
    # an edge to the table, which takes that lock. Both at once must not deadlock.
    table_lock = threading.Lock()
    in_callback = threading.Event()

    def on_edge(edge: BeamEdge) -> None:
        in_callback.set()
        with table_lock:
            pass

    node = SensorNode(pinmap, port=str(pty_port.path), reconnect_ms=20)
    node.start(on_edge)
    try:
        wait_for(lambda: node.status().connected, "the port opened")
        states: list[dict[str, bool]] = []
        with table_lock:
            pty_port.write(FrameEncoder().encode(Edge("left_tip_a", True, 5)))
            assert in_callback.wait(10)
            asker = threading.Thread(target=lambda: states.append(node.beam_states()), daemon=True)
            asker.start()
            asker.join(5)
            assert not asker.is_alive(), "beam_states() blocked behind a callback"
        assert states[0]["left_tip_a"] is True
    finally:
        node.stop()


def test_stopping_the_reader_is_not_a_fault_of_the_node(pinmap: PinMap, pty_port: PtyPort) -> None:
    reader = make_reader(pinmap, port=str(pty_port.path))
    wait_for(lambda: reader.node.status().connected, "the port opened")
    pty_port.write(boot_frames(pinmap))
    wait_for(lambda: reader.node.status().ok, "a healthy node")
    reader.node.stop()
    assert reader.faults.snapshot() == []
    assert not reader.node.status().connected
    assert reader.last_status().faults == (not_connected(),)
    assert reader.last_status().absent_because == "reader stopped"
