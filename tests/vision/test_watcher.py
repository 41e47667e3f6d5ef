"""The camera as an input: stable observations only, answers the game asks for, bad input never stops
the game, and the camera's check of the beams' toss verdicts with the host deciding disagreements."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy
import pytest
from sensors.fakes import FakeSource, eventually

from companion.games import CHANCE, get_game
from companion.games.minoa import PlaceStick
from companion.games.minotaurus import Flip, Reveal, Toss
from companion.sensors.clock import ManualClock
from companion.sensors.judge import TossJudge, TossSettings
from companion.sensors.pinmap import load_pinmap
from companion.sensors.table_link import SensorTosses, tossing_seat
from companion.sensors.tossing import TossRunner
from companion.sim import make_simulator
from companion.table.inputs import NewGame, SubmitAction
from companion.table.referee import Referee, Snapshot
from companion.vision import observe
from companion.vision.base import Reading
from companion.vision.calibration import looking_for_markers
from companion.vision.recording import load_recording
from companion.vision.sources import ListSource, SourceError, TimedFrame
from companion.vision.stability import SceneChecker, Stabiliser, StabilitySettings
from companion.vision.tosscheck import NoTossCamera, TossConfirmer, TossLook
from companion.vision.watcher import CHANNEL, CameraWatcher, WatcherSettings

from . import scenes

SEQUENCES = Path(__file__).parent / "data" / "sequences"
REVEALED = 4  # the position the committed reveal sequence turns over (sequences/make.py)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    started = Referee(tmp_path / "table.db")
    started.start()
    yield started
    started.stop()


def sequence(name: str) -> list[tuple[Any, numpy.typing.NDArray[numpy.uint8]]]:
    pairs = []
    for entry, image in load_recording(SEQUENCES / name).images():
        assert image is not None
        pairs.append((entry, image))
    return pairs


def camera_status(referee: Referee) -> dict[str, Any]:
    status: dict[str, Any] = referee.latest().payload["table"].get("status", {}).get(CHANNEL, {})
    return status


def new_minotaurus(referee: Referee) -> Snapshot:
    assert referee.call(NewGame("minotaurus", {"players": 3}, ["Ann", "Bo", "Cy"]), source="host").ok
    return referee.snapshot()


# ---------------------------------------------------------------- stabiliser and scene checks


def test_an_observation_needs_identical_readings_from_several_frames_in_a_row() -> None:
    stabiliser = Stabiliser(StabilitySettings(stable_frames=3))
    a, b = Reading({"x": "a"}), Reading({"x": "b"})
    assert [stabiliser.offer(r, t) for t, r in enumerate([a, a, b, a, a])] == [None] * 5
    assert stabiliser.offer(a, 5) == a  # the third a in a row
    assert stabiliser.run_started == 3
    assert stabiliser.offer(a, 6) is None  # nothing new
    stabiliser.refuse()  # a hand passes: the run starts again, but an unchanged table is no news
    assert [stabiliser.offer(a, t) for t in (7, 8, 9)] == [None, None, None]
    assert [stabiliser.offer(b, t) for t in (10, 11, 12)] == [None, None, b]


def test_a_hand_and_motion_are_refused_and_a_revealed_piece_is_not() -> None:
    from companion.vision.pipeline import PlaneReader

    frames = sequence("reveal")
    reader = PlaneReader("minotaurus", {"players": 3})
    checker = SceneChecker(reader.layout)
    planes = []
    for entry, image in frames:
        _, plane = reader.plane(image)
        assert plane is not None, entry.file
        planes.append(plane)
    assert not checker.check(planes[0]).hand  # nothing to compare with yet: never a false hand
    checker.accept(planes[0])
    verdicts = [checker.check(plane) for plane in planes]
    assert [v.hand for v in verdicts] == [entry.hand for entry, _ in frames]
    assert verdicts[4].reason == "a hand is over the table"
    # Motion: consecutive frames of the table at rest do not move; the frame a hand comes in does.
    moving = [checker.check(plane, previous=True).motion for plane in planes]
    assert moving == [False, False, False, False, True, True, True, False, False, False]


# ---------------------------------------------------------------- answers for the referee


def test_the_camera_reveals_the_flipped_piece_once_it_holds_still(referee: Referee) -> None:
    snapshot = new_minotaurus(referee)
    watcher = CameraWatcher(referee, ListSource([]), WatcherSettings(StabilitySettings(stable_frames=3)))
    frames = sequence("reveal")
    for _, image in frames[:4]:  # the table at rest, nobody has turned a piece over: nothing to answer
        assert watcher.process(TimedFrame(image, 0.0)) is None
    eventually(lambda: camera_status(referee).get("state") == "watching", "the camera watching")
    assert snapshot.state is not None
    flip = next(a for a in snapshot.state.legal_actions() if isinstance(a, Flip) and a.position == REVEALED)
    assert referee.call(SubmitAction(flip), source="host").ok
    answers = [watcher.process(TimedFrame(image, 0.0)) for _, image in frames[4:]]
    # Two frames with a hand, then the piece: the first frame after the hand differs from the hand frame
    # (motion), so the piece holds still from the next one on and is answered at its third frame.
    assert [a is not None for a in answers] == [False, False, False, False, False, True]
    eventually(lambda: referee.snapshot().seq == 2, "the camera's reveal recorded")
    game_id = referee.snapshot().game_id
    assert game_id is not None
    event = referee.store.events(game_id)[-1]
    assert event.source == "camera"
    assert event.action == Reveal(CHANCE, REVEALED, "blue", 3, "left").to_json()
    assert event.evidence is not None and event.evidence["judge"] == "camera"
    assert event.evidence["items"][f"cell:{REVEALED}"] == "blue-3-left"


def test_the_camera_answers_only_unambiguously_and_dice_only_after_the_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    minoa = get_game("minoa").setup({})
    sticks = [a for a in minoa.legal_actions() if isinstance(a, PlaceStick)]
    assert len(sticks) >= 2
    one = {f"line:{sticks[0].line}": "stick"}
    assert observe.camera_answer("minoa", minoa, one, fresh=False) == sticks[0]
    two = {**one, f"line:{sticks[1].line}": "stick"}
    assert observe.camera_answer("minoa", minoa, two, fresh=False) is None  # which was placed? the host says
    # Kinds that must be seen after the question (the dice) are not answered from an older observation.
    minotaurus = get_game("minotaurus").setup({"players": 3}).apply(Flip(0, REVEALED))
    seen = {f"cell:{REVEALED}": "blue-3-left"}
    assert observe.camera_answer("minotaurus", minotaurus, seen, fresh=False) is not None
    monkeypatch.setattr(observe, "FRESH_KINDS", {("minotaurus", "reveal")})
    assert observe.camera_answer("minotaurus", minotaurus, seen, fresh=False) is None
    assert observe.camera_answer("minotaurus", minotaurus, seen, fresh=True) is not None
    # A piece the game knows cannot be there is no answer at all.
    assert (
        observe.camera_answer("minotaurus", minotaurus, {f"cell:{REVEALED}": "blue-2-left"}, fresh=True)
        is None
    )


def test_the_minos_tray_is_read_die_by_die_as_the_game_numbers_the_dice() -> None:
    from companion.games.minos.actions import DieShows, RollAgain, SetAside

    roll = get_game("minos").setup({})
    faces = ["Pfeil", "Joker", "Stern", "Gebaeude", "Moewe", "Waage"]
    tray = {f"die:{n}": face for n, face in enumerate(faces)}
    # All six dice in the tray: each place is its own die, read one after the other as the game asks.
    state = roll
    for die, face in enumerate(faces):
        assert observe.camera_answer("minos", state, tray, fresh=False, asked=roll) is None  # seen before
        answer = observe.camera_answer("minos", state, tray, fresh=True, asked=roll)
        assert answer == DieShows(CHANCE, die, face)
        state = state.apply(answer)
    # Dice 0 and 1 set aside (out of the tray), the other four rolled again: the tray's four are dice 2-5.
    seat = state.to_act().seats[0]
    reroll = state.apply(SetAside(seat, 0)).apply(SetAside(seat, 1)).apply(RollAgain(seat))
    four = {"die:0": "Stern", "die:1": "Stern", "die:2": "Joker", "die:3": "Waage", "die:4": "unseen"}
    state = reroll
    for die, face in zip((2, 3, 4, 5), ("Stern", "Stern", "Joker", "Waage"), strict=True):
        answer = observe.camera_answer("minos", state, four, fresh=True, asked=reroll)
        assert answer == DieShows(CHANCE, die, face)
        state = state.apply(answer)
    # Three dice in the tray for a roll of four: one still rolling off the table, the host enters it.
    three = {"die:0": "Stern", "die:1": "Stern", "die:2": "Joker"}
    assert observe.camera_answer("minos", reroll, three, fresh=True, asked=reroll) is None


# ---------------------------------------------------------------- bad input


class FailingSource:
    name = "webcam 9"

    def __init__(self) -> None:
        self.opened = 0

    def open(self) -> None:
        self.opened += 1
        raise SourceError("cannot open the webcam 9")

    def read(self) -> TimedFrame | None:
        raise AssertionError("never opened")

    def close(self) -> None:
        pass


def test_a_lost_camera_is_shown_and_the_game_goes_on_by_hand(referee: Referee) -> None:
    snapshot = new_minotaurus(referee)
    source = FailingSource()
    watcher = CameraWatcher(referee, source, WatcherSettings(retry_seconds=0.01))
    watcher.start()
    try:
        eventually(
            lambda: camera_status(referee).get("state") == "fault", "the camera's fault on the scoreboard"
        )
        status = camera_status(referee)
        lost = "The camera is lost: check its cable, and enter moves by hand meanwhile."
        assert status["faults"] == [lost] and status["message"] == lost
        assert status["say"]["en"] == lost
        eventually(lambda: source.opened >= 3, "the camera tried again")
        assert snapshot.state is not None
        assert referee.call(SubmitAction(snapshot.state.legal_actions()[0]), source="host").ok
    finally:
        watcher.stop()


def test_an_unreadable_frame_is_reported_and_the_next_one_read(referee: Referee) -> None:
    new_minotaurus(referee)
    image = sequence("reveal")[0][1]
    watcher = CameraWatcher(referee, ListSource([image, None, image, image]), WatcherSettings())
    statuses: list[dict[str, Any]] = []
    real_publish = watcher._publish

    def publish() -> None:
        real_publish()
        if watcher._last_status is not None and (not statuses or statuses[-1] != watcher._last_status):
            statuses.append(dict(watcher._last_status))

    watcher._publish = publish  # type: ignore[method-assign]
    watcher.start()
    eventually(lambda: camera_status(referee).get("state") == "idle", "the frames played out")
    watcher.stop()
    assert ["The camera gave an unreadable picture: check its cable."] in [s["faults"] for s in statuses]
    assert [s for s in statuses if s["state"] == "watching"]  # read again after the bad frame
    assert statuses[-1]["faults"] == []


def test_lost_markers_leave_the_table_to_manual_entry_until_they_show(referee: Referee) -> None:
    new_minotaurus(referee)
    watcher = CameraWatcher(referee, ListSource([]))
    image = sequence("reveal")[0][1]
    watcher.process(TimedFrame(image, 0.0))
    eventually(lambda: camera_status(referee).get("state") == "watching", "the camera watching")
    blank = numpy.full_like(image, 128)
    for _ in range(15):
        watcher.process(TimedFrame(blank, 0.0))
    eventually(lambda: camera_status(referee).get("state") == "fault", "markers lost on the scoreboard")
    message = camera_status(referee)["message"]
    assert message == (
        "The camera sees none of the table's corner markers: keep them in view. "
        "Meanwhile, enter moves by hand."
    )
    watcher.process(TimedFrame(image, 0.0))
    eventually(lambda: camera_status(referee).get("state") == "watching", "the camera watching again")


def test_a_game_the_camera_cannot_read_is_said_once(
    referee: Referee, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.vision import base

    monkeypatch.setattr(base, "_FACTORIES", {})
    monkeypatch.setattr(base, "_import_recogniser_module", lambda game: None)
    new_minotaurus(referee)
    watcher = CameraWatcher(referee, ListSource([]))
    image = sequence("reveal")[0][1]
    assert watcher.process(TimedFrame(image, 0.0)) is None
    eventually(
        lambda: "cannot read this game: enter moves by hand" in camera_status(referee).get("message", ""),
        "the reason said",
    )
    assert camera_status(referee)["state"] == "idle"


# ---------------------------------------------------------------- the camera checks the toss


def play_to_a_toss(referee: Referee, seed: int = 5) -> Snapshot:
    assert referee.call(NewGame("minotaurus", {"players": 3}, ["A", "B", "C"]), source="host").ok
    simulator = make_simulator("minotaurus", seed=seed)
    for _ in range(2000):
        snapshot = referee.snapshot()
        if tossing_seat(snapshot) is not None:
            return snapshot
        assert snapshot.state is not None
        to_act = snapshot.state.to_act()
        seat = to_act.seats[0]
        action = (
            simulator.observe(snapshot.state) if to_act.chance else simulator.choose(snapshot.state, seat)
        )
        assert referee.call(SubmitAction(action), source="autoplay").ok
    raise AssertionError("no toss in 2000 moves")


class FakeTossCamera:
    present = True

    def __init__(self, look: TossLook) -> None:
        self.result = look
        self.looks = 0

    def look(self, timeout: float) -> TossLook:
        self.looks += 1
        return self.result


class TossRig:
    def __init__(self, referee: Referee, camera: FakeTossCamera | NoTossCamera) -> None:
        pinmap = load_pinmap()
        self.clock = ManualClock(1_000_000)
        self.source = FakeSource(pinmap)
        self.runner = TossRunner(self.source, TossJudge(pinmap, TossSettings(), self.clock), lambda v: None)
        self.link = SensorTosses(referee, self.runner, source_name="fake")
        self.confirmer = TossConfirmer(referee, camera)  # type: ignore[arg-type]
        self.link.confirmer = self.confirmer

    def ringer(self, *, lines: int = 6) -> None:
        """A ring coming down over the left horn, blocking `lines` of its six base beams: the beams are
        sure with 5 or 6 (around it) or 4 or fewer (not around it)."""
        t, ms = self.clock.now, 1000
        self.source.edge("left_tip_a", True, t)
        self.source.edge("left_tip_a", False, t + 3 * ms)
        for k, name in enumerate(self.source.pinmap.base_beams("left")[:lines]):
            self.source.edge(name, True, t + (30 + k) * ms)
        self.clock.now = t + (30 + lines) * ms + self.runner.judge.settings.settle_ms * ms + 2 * ms
        self.runner.kick()

    def hanger(self) -> None:
        """A ring caught on the left tip for longer than the judge waits: the beams cannot tell."""
        t, ms = self.clock.now, 1000
        self.source.edge("left_tip_a", True, t)
        settings = self.runner.judge.settings
        self.clock.now = t + (settings.window_ms + settings.max_wait_ms) * ms
        self.runner.kick()


def toss_status(referee: Referee) -> dict[str, Any]:
    status: dict[str, Any] = referee.latest().payload["table"].get("status", {}).get("toss-check", {})
    return status


def test_a_verdict_the_camera_agrees_with_is_taken_with_both_as_evidence(referee: Referee) -> None:
    snapshot = play_to_a_toss(referee)
    rig = TossRig(referee, FakeTossCamera(TossLook(True, {"horn:left": "ring", "horn:right": "clear"})))
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat is not None, "the judge armed")
        rig.ringer()
        eventually(lambda: referee.snapshot().seq > snapshot.seq, "the toss recorded")
    finally:
        rig.link.stop()
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[snapshot.seq]
    assert event.source == "sensor" and event.action is not None and event.action["success"] is True
    assert event.evidence is not None and event.evidence["judge"] == "beams"
    assert (
        event.evidence["camera"]["ring"] is True and event.evidence["camera"]["horns"]["horn:left"] == "ring"
    )
    assert rig.confirmer.outcomes == ["agreed"]


def test_when_beams_and_camera_disagree_the_host_decides_and_nothing_is_taken_before(
    referee: Referee,
) -> None:
    from flask import Flask

    from companion.web import create_app
    from companion.web.teach import VisionServices, install_vision

    snapshot = play_to_a_toss(referee)
    seat = tossing_seat(snapshot)
    rig = TossRig(referee, FakeTossCamera(TossLook(False, {"horn:left": "clear", "horn:right": "clear"})))
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat == seat, "the judge armed")
        rig.ringer()
        eventually(lambda: toss_status(referee).get("state") == "confirm", "the host asked on every phone")
        status = toss_status(referee)
        assert status["message"] == (
            f"Beams and camera disagree on {snapshot.names[seat or 0]}'s toss: the beams saw a ring over a "
            "horn, the camera sees no ring over a horn. Host, look and decide."
        )
        assert status["confirm"] == {
            "seat": seat,
            "beams": True,
            "camera": False,
            "game_id": snapshot.game_id,
            "after": snapshot.seq,
        }
        time.sleep(0.6)  # the sensor link's retry period: it must not arm for a new toss meanwhile
        assert rig.runner.armed_seat is None
        assert referee.snapshot().seq == snapshot.seq  # no verdict taken silently

        app: Flask = create_app({"TESTING": True, "HOST_PIN": "4321"}, referee=referee)
        install_vision(app, VisionServices(confirmer=rig.confirmer))
        viewer, host = app.test_client(), app.test_client()
        assert viewer.post("/api/camera/toss", json={"success": False}).status_code == 403
        token = host.post("/api/host/sign-in", json={"pin": "4321"}).json["csrf_token"]  # type: ignore[index]
        host.environ_base["HTTP_X_CSRF_TOKEN"] = token
        assert host.get("/api/camera").json["pending_toss"]["beams"] is True  # type: ignore[index]
        response = host.post("/api/camera/toss", json={"success": False})
        assert response.status_code == 200, response.json
        assert host.post("/api/camera/toss", json={"success": True}).status_code == 409  # decided already
    finally:
        rig.link.stop()
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[snapshot.seq]
    assert event.source == "host"
    assert event.action == Toss(CHANCE, seat, False).to_json()  # type: ignore[arg-type]
    assert event.evidence is not None
    assert (event.evidence["beams_said"], event.evidence["camera_said"], event.evidence["decided"]) == (
        True,
        False,
        False,
    )
    assert event.evidence["edges"]  # the beams' raw evidence kept
    assert toss_status(referee) == {}


def test_a_camera_that_cannot_tell_leaves_the_beams_verdict_and_says_so(referee: Referee) -> None:
    snapshot = play_to_a_toss(referee)
    rig = TossRig(referee, FakeTossCamera(TossLook(None, {}, "markers lost")))
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat is not None, "the judge armed")
        rig.ringer()
        eventually(lambda: referee.snapshot().seq > snapshot.seq, "the beams' verdict recorded")
    finally:
        rig.link.stop()
    assert toss_status(referee)["state"] == "unconfirmed"
    name = snapshot.names[tossing_seat(snapshot) or 0]
    assert f"could not check {name}'s toss, so the beams' verdict stands" in toss_status(referee)["message"]
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[snapshot.seq]
    assert (
        event.source == "sensor" and event.evidence is not None and event.evidence["camera"]["ring"] is None
    )


@pytest.mark.parametrize("camera", [FakeTossCamera(TossLook(None, {}, "markers lost")), NoTossCamera()])
def test_a_toss_the_beams_cannot_tell_goes_to_the_host_when_no_camera_can_tell(
    referee: Referee, camera: FakeTossCamera | NoTossCamera, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.vision.tosscheck")
    snapshot = play_to_a_toss(referee)
    rig = TossRig(referee, camera)
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat is not None, "the judge armed")
        rig.hanger()
        eventually(lambda: toss_status(referee).get("state") == "confirm", "the host asked on every phone")
        name = snapshot.names[tossing_seat(snapshot) or 0]
        assert toss_status(referee)["message"] == (
            f"Neither the beams nor the camera can tell {name}'s toss: host, look and decide."
        )
        assert "hangs on the left horn's tip" in caplog.text, "the beams' reason, for a maker, in the log"
        assert toss_status(referee)["confirm"]["camera"] is None
        assert referee.snapshot().seq == snapshot.seq, "no verdict taken silently"
        assert rig.confirmer.decide(False).ok
    finally:
        rig.link.stop()
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[snapshot.seq]
    assert event.source == "host" and event.action is not None and event.action["success"] is False


def test_without_a_camera_a_sure_verdict_is_taken_at_once_and_quietly(referee: Referee) -> None:
    snapshot = play_to_a_toss(referee)
    rig = TossRig(referee, NoTossCamera())
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat is not None, "the judge armed")
        rig.ringer(lines=5)
        eventually(lambda: referee.snapshot().seq > snapshot.seq, "the beams' verdict recorded")
    finally:
        rig.link.stop()
    assert rig.confirmer.outcomes == ["beams only"]
    assert toss_status(referee) == {}


@pytest.mark.parametrize("ring", [True, False])
def test_the_camera_decides_a_toss_the_beams_cannot_tell_and_the_host_is_not_asked(
    referee: Referee, ring: bool
) -> None:
    snapshot = play_to_a_toss(referee)
    seat = tossing_seat(snapshot)
    horns = {"horn:left": "ring" if ring else "clear", "horn:right": "clear"}
    camera = FakeTossCamera(TossLook(ring, horns))
    rig = TossRig(referee, camera)
    rig.link.start()
    try:
        eventually(lambda: rig.runner.armed_seat == seat, "the judge armed")
        rig.hanger()
        eventually(lambda: referee.snapshot().seq > snapshot.seq, "the camera's verdict recorded")
    finally:
        rig.link.stop()
    assert rig.confirmer.outcomes == ["camera decided"] and camera.looks == 1
    assert rig.confirmer.pending is None and toss_status(referee) == {}
    assert snapshot.game_id is not None
    event = referee.store.events(snapshot.game_id)[snapshot.seq]
    assert event.source == "sensor" and event.action == Toss(CHANCE, seat, ring).to_json()  # type: ignore[arg-type]
    assert event.evidence is not None and event.evidence["judge"] == "camera"
    assert event.evidence["sure"] is False and event.evidence["camera"]["horns"] == horns


class HornsRecogniser(scenes.SquaresRecogniser):
    """The toss recogniser's labels from the toy scene: a red square on a spot is a ring over that horn."""

    def read(self, plane: Any, layout: Any, profile: Any) -> Reading:
        squares = super().read(plane, layout, profile)
        horns = {"spot:0": "horn:left", "spot:1": "horn:right"}
        items = {horns[item]: "ring" if label == "red" else "clear" for item, label in squares.items.items()}
        return Reading(items, {horns[item]: c for item, c in squares.confidence.items()})


def test_the_toss_camera_reports_a_stable_reading_or_why_it_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision import base
    from companion.vision.tosscheck import TossCamera

    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "toss", HornsRecogniser)
    ring = scenes.frame({"spot:0": "red"})
    look = TossCamera(ListSource([ring] * 3)).look(timeout=5.0)
    assert (look.ring, look.horns) == (True, {"horn:left": "ring", "horn:right": "clear"})
    clear = TossCamera(ListSource([scenes.frame({})] * 3)).look(timeout=5.0)
    assert (clear.ring, clear.horns) == (False, {"horn:left": "clear", "horn:right": "clear"})
    unsettled = TossCamera(ListSource([ring, scenes.frame({}), ring])).look(timeout=5.0)
    assert unsettled.ring is None and "has ended" in unsettled.why
    blank = numpy.full((720, 1280, 3), 128, numpy.uint8)
    ticks = iter(range(10_000))
    unseen = TossCamera(ListSource([blank] * 100), clock=lambda: next(ticks) * 0.1).look(timeout=1.0)
    assert (unseen.ring, unseen.why) == (None, looking_for_markers())
    assert TossCamera(FailingSource()).look(timeout=1.0).why == "camera lost: cannot open the webcam 9"
