"""The reader's protocol logic, byte by byte with a hand-set clock: edges out, every fault reported."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from companion.sensors.edges import BeamEdge
from companion.sensors.nodelink import NodeFault, NodeLink, NodeStatus, not_connected
from companion.sensors.pinmap import PinMap
from companion.sensors.protocol import (
    PROTOCOL_VERSION,
    Edge,
    FrameEncoder,
    Heartbeat,
    Hello,
    Message,
    NodeError,
    SelfTest,
    encode_frame,
)

CRC = "1234abcd"


class Harness:
    def __init__(self, pinmap: PinMap, crc: str | None = CRC) -> None:
        self.pinmap = pinmap
        self.edges: list[BeamEdge] = []
        self.faults: list[NodeFault] = []
        self.statuses: list[NodeStatus] = []
        self.link = NodeLink(
            pinmap,
            on_edge=self.edges.append,
            on_fault=self.faults.append,
            on_status=self.statuses.append,
            expected_pinmap_crc=crc,
        )
        self.encoder = FrameEncoder()
        self.now = 0

    def send(self, *messages: Message) -> None:
        self.link.received(b"".join(self.encoder.encode(m) for m in messages), self.now)

    def boot(self, results: dict[str, str] | None = None, blocked: frozenset[str] = frozenset()) -> None:
        self.encoder = FrameEncoder()
        names = self.pinmap.names
        self.send(Hello("1.0.0", PROTOCOL_VERSION, 500, names, CRC))
        self.send(*[SelfTest(n, (results or {}).get(n, "ok")) for n in names])
        self.send(Heartbeat(0, blocked, 0, 0))

    @property
    def kinds(self) -> list[str]:
        return [f.kind for f in self.faults]

    @property
    def status(self) -> NodeStatus:
        return self.link.status()


@pytest.fixture
def node(pinmap: PinMap) -> Harness:
    harness = Harness(pinmap)
    harness.link.connected("/dev/ttyACM0", 0)
    return harness


def test_a_healthy_node_delivers_edges_and_reports_ok(node: Harness) -> None:
    assert not node.status.ok and node.status.faults[0].startswith("The sensor node is starting: wait")
    node.boot()
    assert node.status.ok, node.status.faults
    assert node.status.firmware == "1.0.0" and set(node.status.self_test.values()) == {"ok"}
    node.send(Edge("left_tip_a", True, 10), Edge("left_tip_a", False, 3010))
    assert node.edges == [
        BeamEdge("left_tip_a", True, 10, "node"),
        BeamEdge("left_tip_a", False, 3010, "node"),
    ]
    node.send(Edge("left_front_inner", True, 90_000))
    assert node.link.states["left_front_inner"] is True
    assert node.faults == []
    assert node.statuses[-1].ok


def test_a_receiver_stuck_clear_fails_the_self_test_until_the_node_restarts(
    node: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        node.boot({"right_tip_a": "stuck_clear"})
    assert node.kinds == ["self_test"] and "the right horn's tip beam A dead" in node.faults[0].reason
    assert "beam right_tip_a: stuck_clear" in caplog.text, "the beam's own name, for a maker, in the log"
    node.send(Heartbeat(500_000, frozenset(), 0, 0))
    assert not node.status.ok and any("tip beam A" in f for f in node.status.faults)
    node.boot()  # rebooted with the receiver plugged back in
    assert node.status.ok


def test_a_beam_blocked_at_the_self_test_is_fine_once_seen_clear(node: Harness) -> None:
    node.boot({"left_back_inner": "blocked"}, blocked=frozenset({"left_back_inner"}))
    assert node.kinds == ["self_test"]
    assert not node.status.ok
    node.send(Edge("left_back_inner", False, 2_000_000))
    assert node.status.ok
    # The node repeats its boot results every few seconds: that does not bring the fault back.
    node.send(SelfTest("left_back_inner", "blocked"))
    assert node.status.ok and node.kinds == ["self_test"]


def test_garbage_voids_at_once_and_the_next_heartbeat_resyncs_the_beams(node: Harness) -> None:
    node.boot()
    lost_edge = node.encoder.encode(Edge("right_front_inner", True, 700_000))
    node.link.received(b"\x00\x17garbage" + lost_edge[5:], node.now)
    assert node.kinds == ["corrupt"]
    assert node.faults[0].status.corrupt_frames == 1
    assert not node.status.ok and node.link.states["right_front_inner"] is False
    node.send(Heartbeat(1_000_000, frozenset({"right_front_inner"}), 0, 0))
    assert node.status.ok
    assert node.link.states["right_front_inner"] is True
    assert node.kinds == ["corrupt", "lost_frames"]  # the heartbeat's number shows the edge's frame missing
    assert node.edges == []  # a lost edge is never made up


def test_a_sequence_gap_is_a_fault(node: Harness, caplog: pytest.LogCaptureFixture) -> None:
    node.boot()
    node.encoder.encode(Edge("left_tip_a", True, 5))  # sent by the node, never received
    with caplog.at_level(logging.WARNING):
        node.send(Edge("left_tip_a", False, 3005))
    assert node.kinds == ["lost_frames"] and "was lost: toss again" in node.faults[0].reason
    assert "1 frame(s) lost" in caplog.text
    assert node.status.lost_frames == 1 and not node.status.ok
    node.send(Heartbeat(500_000, frozenset(), 0, 0))
    assert node.status.ok


def test_a_full_buffer_on_the_node_is_a_fault(node: Harness, caplog: pytest.LogCaptureFixture) -> None:
    node.boot()
    with caplog.at_level(logging.WARNING):
        node.send(Heartbeat(500_000, frozenset(), 2, 0))
    assert node.kinds == ["overflow"] and "missed some beam changes" in node.faults[0].reason
    assert "dropped 2 edge(s)" in caplog.text
    node.send(Heartbeat(1_000_000, frozenset(), 2, 0))
    assert node.kinds == ["overflow"]


def test_beam_states_that_disagree_with_the_edges_are_a_fault(node: Harness) -> None:
    node.boot()
    node.send(Heartbeat(500_000, frozenset({"left_tip_a"}), 0, 0))
    assert node.kinds == ["out_of_sync"]
    assert node.link.states["left_tip_a"] is True


def test_a_lost_heartbeat_is_reported_once_and_clears_when_it_returns(node: Harness) -> None:
    node.boot()
    node.link.tick(1_500_000)
    assert node.faults == []
    node.link.tick(1_500_001)
    node.link.tick(3_000_000)
    assert node.kinds == ["heartbeat_lost"]
    assert node.status.faults[0].startswith("The sensor node stopped answering: check its USB cable")
    node.now = 3_100_000
    node.send(Heartbeat(3_000_000, frozenset(), 0, 0))
    assert node.status.ok


def test_a_node_that_says_nothing_after_connecting_loses_its_heartbeat(node: Harness) -> None:
    node.link.tick(2_000_000)
    assert node.kinds == ["heartbeat_lost"]


def test_garbage_only_never_passes_for_a_heartbeat(node: Harness) -> None:
    node.boot()
    for step in range(1, 8):
        node.now = step * 500_000
        node.link.received(b"@%d B t=%d blk=- ovf=0 gl=0#00000000\n" % (step, node.now), node.now)
        node.link.tick(node.now)
    assert "heartbeat_lost" in node.kinds and not node.status.ok


def test_a_restart_is_a_fault_and_resets_the_self_test(node: Harness) -> None:
    node.boot()
    node.send(Heartbeat(500_000, frozenset(), 0, 0))
    node.encoder = FrameEncoder()
    node.send(Hello("1.0.0", PROTOCOL_VERSION, 500, node.pinmap.names, CRC))
    assert node.kinds == ["restarted"]
    assert node.status.self_test == {} and not node.status.ok
    node.send(*[SelfTest(n, "ok") for n in node.pinmap.names])
    assert node.status.ok


@pytest.mark.parametrize(
    ("make_hello", "words"),
    [
        (lambda names: Hello("1.0.0", PROTOCOL_VERSION, 500, names[:1], CRC), "beams differ"),
        (lambda names: Hello("1.0.0", PROTOCOL_VERSION, 500, names, "ffffffff"), "another pin map"),
        (lambda names: Hello("2.0.0", PROTOCOL_VERSION + 1, 500, names, CRC), "firmware does not match"),
    ],
)
def test_a_node_deployed_with_another_pin_map_is_a_fault(
    node: Harness, make_hello: Callable[[tuple[str, ...]], Hello], words: str
) -> None:
    hello = make_hello(node.pinmap.names)
    node.send(hello)
    node.send(*[SelfTest(n, "ok") for n in node.pinmap.names])
    assert node.kinds == ["pinmap"] and words in node.faults[0].reason
    assert not node.status.ok
    node.send(hello)  # repeated every few seconds: reported once
    assert node.kinds == ["pinmap"]


def test_the_pin_map_check_can_be_left_out(pinmap: PinMap) -> None:
    harness = Harness(pinmap, crc=None)
    harness.link.connected("loop://", 0)
    harness.boot()
    assert harness.status.ok


def test_an_edge_of_an_unknown_beam_is_not_passed_on(node: Harness) -> None:
    node.boot()
    node.send(Edge("middle_horn", True, 5))
    assert node.edges == [] and node.kinds == ["pinmap"]


def test_a_firmware_error_is_a_fault_until_the_node_boots_again(
    node: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    node.boot()
    with caplog.at_level(logging.WARNING):
        node.send(NodeError("OSError"))
    assert node.kinds == ["node_error"] and "firmware stopped" in node.status.faults[0]
    assert "OSError" in caplog.text and "OSError" not in node.status.faults[0]
    node.boot()
    assert node.status.ok


def test_a_disconnect_is_a_fault_and_a_reconnect_waits_for_a_new_hello(node: Harness) -> None:
    node.boot()
    node.link.disconnected("unplugged")
    assert node.kinds == ["disconnected"] and node.status.faults == (not_connected(),)
    assert node.faults[0].reason.startswith("The sensor node was unplugged: plug its USB cable back")
    assert node.status.absent_because == "unplugged"
    node.link.disconnected("again")  # already down: not a new fault
    assert node.kinds == ["disconnected"]
    node.link.connected("/dev/ttyACM1", 5_000_000)
    assert node.status.connected and not node.status.ok
    node.now = 5_000_000
    node.boot()  # the Pico lost power with the cable and booted again: no extra "restarted"
    assert node.status.ok and node.kinds == ["disconnected"]
    assert node.status.port == "/dev/ttyACM1"


def test_a_reader_joining_mid_stream_adopts_the_first_heartbeat(node: Harness) -> None:
    node.link.received(encode_frame(4321, Heartbeat(9_000_000, frozenset({"right_tip_a"}), 2, 1)), 0)
    assert node.faults == [] and node.link.states["right_tip_a"] is True  # old overflows are not news
    node.link.received(encode_frame(4322, Hello("1.0.0", PROTOCOL_VERSION, 500, node.pinmap.names, CRC)), 0)
    assert node.status.firmware == "1.0.0"


def test_status_changes_are_published_once_each(node: Harness) -> None:
    node.boot()
    count = len(node.statuses)
    node.send(Heartbeat(500_000, frozenset(), 0, 0), Heartbeat(1_000_000, frozenset(), 0, 0))
    assert len(node.statuses) == count
    node.link.disconnected("gone")
    assert node.statuses[-1].faults == (not_connected(),)
    assert node.statuses[-1].to_json()["ok"] is False
