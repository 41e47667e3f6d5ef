"""Every fault a device can show reaches the players as one sentence: what happened, then what to do.

Each path is driven as it happens (the node link fed bytes and ticks, the runner's beam check, the
calibrator fed markers, the camera lost, the toss check asking the host); the sentence it yields must
carry no developer words (hex ids, snake_case names) and end with advice, in English and in German.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Mapping
from typing import Any

import numpy
import pytest

from companion.device_words import beam_words, one_line
from companion.games.minotaurus import Toss
from companion.sensors.clock import ManualClock
from companion.sensors.judge import TossJudge
from companion.sensors.node import NodeNotFoundError, find_node_port
from companion.sensors.nodelink import NodeLink, not_connected
from companion.sensors.pinmap import PinMap, load_pinmap
from companion.sensors.protocol import (
    PROTOCOL_VERSION,
    Edge,
    FrameEncoder,
    Heartbeat,
    Hello,
    NodeError,
    SelfTest,
)
from companion.sensors.table_link import SensorTosses
from companion.sensors.tossing import SensorFaultError, TossRunner
from companion.table.inputs import SetTableStatus, SubmitAction
from companion.vision.calibration import CalibrationError, CalibrationSettings, Calibrator, plane_homography
from companion.vision.sources import ListSource, SourceError
from companion.vision.tosscheck import NoTossCamera, TossConfirmer, TossLook
from companion.vision.watcher import CameraWatcher
from companion.words import Said
from tests.sensors.test_node_link import CRC, Harness

ADVICE = ("plug", "unplug", "check", "wait", "deploy", "toss", "take", "line", "keep", "put", "enter", "show")
"""How the advice after the colon (or in the last sentence) begins: an instruction to the players, or
the host addressed ("host, look and decide"), or "meanwhile, enter moves by hand"."""


def assert_for_people(said: str) -> None:
    """One sentence for people: no developer words, advice at the end, and German that differs."""
    assert isinstance(said, Said), f"{said!r} is plain text: it reads in English on a German phone"
    english, german = said.texts["en"], said.texts["de"]
    for text in (english, german):
        assert "0x" not in text and "_" not in text and "seat " not in text, text
        assert "\n" not in text and text.endswith("."), text
    after_colon = english.rsplit(": ", 1)[-1] if ": " in english else ""
    last_sentence = english.rsplit(". ", 1)[-1]
    advice = [part.lower() for part in (after_colon, last_sentence)]
    assert any(part.startswith((*ADVICE, "host, ", "meanwhile, ", "toss now")) for part in advice), english
    assert german != english, f"no German for {english!r}"


# ---------------------------------------------------------------- the sensor node, byte by byte


class Node(Harness):
    """The node link's harness (tests/sensors/test_node_link.py), connected, that tells what it said."""

    def __init__(self, pinmap: PinMap) -> None:
        super().__init__(pinmap)
        self.link.connected("/dev/ttyACM0", 0)

    def said(self) -> list[str]:
        """Every sentence the node gave: the faults it reported as they happened, and its status now."""
        return [fault.reason for fault in self.faults] + list(self.link.faults())


@pytest.fixture
def pinmap() -> PinMap:
    return load_pinmap()


@pytest.fixture
def node(pinmap: PinMap) -> Node:
    return Node(pinmap)


def lost_frame(node: Node) -> None:
    node.boot()
    node.encoder.encode(Edge("left_tip_a", True, 5))  # sent, never received
    node.send(Edge("left_tip_a", False, 3005))


def booted_with(node: Node, protocol: int = PROTOCOL_VERSION, beams: int = 99, crc: str = CRC) -> None:
    node.encoder = FrameEncoder()
    node.send(Hello("1.0.0", protocol, 500, node.pinmap.names[:beams], crc))
    node.send(*[SelfTest(name, "ok") for name in node.pinmap.names])


NODE_PATHS: dict[str, Callable[[Node], object]] = {
    "waiting for hello": lambda node: None,
    "waiting for the self-test": lambda node: node.send(
        Hello("1.0.0", PROTOCOL_VERSION, 500, node.pinmap.names, CRC)
    ),
    "unplugged": lambda node: (node.boot(), node.link.disconnected("[Errno 5] Input/output error")),
    "heartbeat lost": lambda node: (node.boot(), node.link.tick(5_000_000)),
    "garbled": lambda node: (node.boot(), node.link.received(b"\x00\x17garbage\n", 0)),
    "frames lost": lost_frame,
    "overflow": lambda node: (node.boot(), node.send(Heartbeat(500_000, frozenset(), 2, 0))),
    "out of sync": lambda node: (node.boot(), node.send(Heartbeat(500_000, frozenset({"left_tip_a"}), 0, 0))),
    "restarted": lambda node: (node.boot(), node.send(Heartbeat(1, frozenset(), 0, 0)), node.boot()),
    "firmware stopped": lambda node: (node.boot(), node.send(NodeError("MemoryError"))),
    "old firmware": lambda node: booted_with(node, protocol=PROTOCOL_VERSION + 1),
    "other beams": lambda node: booted_with(node, beams=2),
    "other pin map": lambda node: booted_with(node, crc="0"),
    "unknown beam": lambda node: (node.boot(), node.send(Edge("middle_horn", True, 5))),
    "self-test: receiver dead": lambda node: node.boot({"right_tip_a": "stuck_clear"}),
    "self-test: beam blocked": lambda node: node.boot({"left_back_inner": "blocked"}),
}


@pytest.mark.parametrize("path", NODE_PATHS)
def test_every_fault_of_the_sensor_node_is_a_sentence_for_people(node: Node, path: str) -> None:
    NODE_PATHS[path](node)
    said = node.said()
    assert said, f"{path}: nothing was said"
    for sentence in said:
        assert_for_people(sentence)


def test_a_node_never_connected_and_one_not_found_say_to_plug_it_in(pinmap: PinMap) -> None:
    link = NodeLink(pinmap, on_edge=lambda edge: None)
    link.unavailable("could not open port /dev/ttyACM0: [Errno 13] Permission denied")
    assert link.faults() == (not_connected(),) and link.status().absent_because is not None
    assert_for_people(link.faults()[0])
    with pytest.raises(NodeNotFoundError) as error:
        find_node_port(pinmap, [])
    assert_for_people(error.value.args[0])
    assert "0x2e8a" in error.value.detail


def test_the_node_status_keeps_its_words_through_a_copy(node: Node) -> None:
    node.link.tick(5_000_000)
    copied = copy.deepcopy(node.link.status())  # dataclasses.asdict (to_json) deep-copies the faults
    assert copied.faults[0].texts == node.link.faults()[0].texts  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(node.link.faults()[0])).texts["de"] != node.link.faults()[0]
    assert node.link.status().to_json()["faults"] == list(node.link.faults())


# ---------------------------------------------------------------- the runner and the table link


class FakeSource:
    def __init__(self, pinmap: PinMap, blocked: frozenset[str] = frozenset()) -> None:
        self.pinmap, self.blocked = pinmap, blocked

    def start(self, on_edge: Any) -> None:
        pass

    def stop(self) -> None:
        pass

    def beam_states(self) -> dict[str, bool]:
        return {name: name in self.blocked for name in self.pinmap.names}


def test_a_receiver_dead_in_the_pis_own_beam_check_is_a_sentence(pinmap: PinMap) -> None:
    runner = TossRunner(FakeSource(pinmap), TossJudge(pinmap, clock=ManualClock(0)), lambda verdict: None)
    runner.check_beams = lambda: ["left_tip_a", "right_front_inner"]
    with pytest.raises(SensorFaultError) as error:
        runner.arm(0)
    said = error.value.args[0]
    assert_for_people(said)
    assert "the left horn's tip beam A and one more beam" in said


@pytest.mark.parametrize("stuck", [False, True])
def test_a_blocked_beam_is_named_in_words(pinmap: PinMap, stuck: bool) -> None:
    runner = TossRunner(FakeSource(pinmap), TossJudge(pinmap, clock=ManualClock(0)), lambda verdict: None)
    link = SensorTosses(referee=None, runner=runner)  # type: ignore[arg-type]  # only the words are asked
    said = link._refusal(("right_back_outer", "knock"), stuck)
    assert_for_people(said)
    assert "the right horn's outer back beam and one more beam" in said
    assert ("30 seconds" in said) is stuck


def test_every_beam_of_the_pin_map_has_a_name_in_words(pinmap: PinMap) -> None:
    names = [beam_words(pinmap, name) for name in pinmap.names]
    assert len({name.texts["en"] for name in names}) == len(names), "two beams read alike"
    for said in names:
        assert "_" not in said and said.texts["de"] != said.texts["en"], said.texts
    assert beam_words(pinmap, "left_back_inner") == "the left horn's inner back beam"


def test_several_problems_are_one_line_the_first_and_how_many_more() -> None:
    problems = [not_connected(), "second", "third"]
    line = one_line(problems)
    assert line == f"{not_connected()} And 2 more problems."
    assert_for_people(line)
    assert line.texts["de"].startswith(not_connected().texts["de"])  # type: ignore[attr-defined]
    assert one_line([]) == "" and one_line(problems[:1]) is problems[0]


# ---------------------------------------------------------------- the camera


class FakeReferee:
    """Takes the devices' statuses as the referee would, and names the players."""

    def __init__(self) -> None:
        self.statuses: dict[str, Mapping[str, Any] | None] = {}
        self.submitted: list[SubmitAction] = []

    def submit(self, command: Any, source: str) -> None:
        if isinstance(command, SetTableStatus):
            self.statuses[command.channel] = command.status
        else:
            self.submitted.append(command)

    def snapshot(self) -> Any:
        return type("Snapshot", (), {"names": ("Ann", "Ben", "Cleo")})()


def test_a_lost_camera_is_a_sentence_and_its_status_one_line_in_both_languages() -> None:
    referee = FakeReferee()
    watcher = CameraWatcher(referee, ListSource([]))  # type: ignore[arg-type]
    watcher.camera_lost(SourceError("cannot open /dev/video0: [Errno 16] Device or resource busy"))
    status = referee.statuses["camera"]
    assert status is not None and status["state"] == "fault"
    assert_for_people(status["message"])
    assert status["say"] == status["message"].texts and "Errno" not in str(status["say"])


def test_calibrating_lost_and_bumped_markers_are_sentences() -> None:
    calibrator = Calibrator((300.0, 200.0), CalibrationSettings(lost_after_frames=2))
    searching = calibrator.update_with({})
    assert searching.state == "searching"
    assert_for_people(searching.message)
    lost = calibrator.update_with({})
    assert lost.state == "lost"
    assert_for_people(lost.message)
    calibrator.homography = numpy.eye(3)  # calibrated once; now a marker shows far off where it was
    bumped = calibrator.update_with({0: square(5000, 5000)})
    assert bumped.state == "bumped"
    assert_for_people(bumped.message)


def square(x: float, y: float) -> numpy.ndarray:  # type: ignore[type-arg]
    return numpy.array([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]], dtype=numpy.float32)


def test_markers_out_of_order_say_where_each_goes() -> None:
    swapped = {0: square(0, 0), 1: square(0, 500), 2: square(500, 500), 3: square(500, 0)}  # anticlockwise
    with pytest.raises(CalibrationError) as error:
        plane_homography(swapped, (300.0, 200.0))
    assert error.value.said is not None
    assert_for_people(error.value.said)
    assert "top left" in error.value.said


class SeeingCamera:
    present = True

    def __init__(self, ring: bool | None) -> None:
        self.ring = ring

    def look(self, timeout: float) -> TossLook:
        return TossLook(self.ring, {}, "" if self.ring is not None else "markers lost")


@pytest.mark.parametrize(
    ("camera", "beams_sure", "state"),
    [
        (NoTossCamera(), False, "confirm"),  # the beams unsure, no camera: the host decides
        (SeeingCamera(None), False, "confirm"),  # the beams unsure, the camera cannot tell either
        (SeeingCamera(False), True, "confirm"),  # beams and camera disagree
        (SeeingCamera(None), True, "unconfirmed"),  # the camera could not check: the beams' verdict stands
    ],
)
def test_an_unsure_toss_is_a_sentence_naming_the_player(camera: Any, beams_sure: bool, state: str) -> None:
    referee = FakeReferee()
    confirmer = TossConfirmer(referee, camera)  # type: ignore[arg-type]
    command = SubmitAction(Toss(-1, 1, True), evidence={"sure": beams_sure, "reason": "a ring hangs"})
    confirmer.confirm(1, True, command)
    status = referee.statuses["toss-check"]
    assert status is not None and status["state"] == state
    assert_for_people(status["message"])
    assert "Ben's toss" in status["message"] and "Ben" in status["say"]["de"]
