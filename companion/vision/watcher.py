"""The camera as an input of the referee: frames in, stable observations, camera actions out.

`StableReader` runs one game's pipeline over a stream of frames: markers,
plane, the hand/motion check, the recogniser, and the stabiliser, so that
only a reading that held still over several frames counts. `CameraWatcher`
follows the referee's current game with it and, when the game asks what the
camera can see (a Minotaurus reveal, the Minos dice, ...), submits the one
answer its observation confirms, from source "camera", guarded by the event
it was decided at.

With the empty play area learned (companion/vision/reference.py), each plane
is compared with it: hands are refused on any table, and the recogniser reads
a plane without the tablecloth. The reader learns it by itself from its first
steady view that reads as empty, so start the camera before laying out the
pieces; the setup page takes the present view as the empty area with
`CameraWatcher.relearn_reference`.

Bad input never stops the game: an unreadable frame, a lost camera, lost
markers or a recogniser that fails leave the table to manual entry, and the
"camera" table status tells every phone why.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.device_words import one_line
from companion.games import State
from companion.table.inputs import SetTableStatus, SubmitAction
from companion.table.referee import Referee, Snapshot
from companion.vision.base import Frame, Profile, Reading, VisionError, load_profile, recogniser_for
from companion.vision.calibration import CalibrationResult, looking_for_markers
from companion.vision.observe import asks_camera, camera_answer
from companion.vision.pipeline import PlaneReader
from companion.vision.reference import EMPTY_LABELS, LearnResult
from companion.vision.sources import FrameSource, SourceError, TimedFrame
from companion.vision.stability import SceneCheck, SceneChecker, Stabiliser, StabilitySettings
from companion.words import Said, say, texts_of

log = logging.getLogger(__name__)

SOURCE = "camera"
CHANNEL = "camera"


@dataclasses.dataclass(frozen=True)
class WatcherSettings:
    stability: StabilitySettings = dataclasses.field(default_factory=StabilitySettings)
    edition: str = "default"
    """Which taught profile of each game to read with (var/vision/profiles/<game>/<edition>.json)."""
    reopen_after_errors: int = 3
    """Consecutive unreadable frames after which the camera is closed and opened again."""
    retry_seconds: float = 2.0
    """Wait before opening a lost camera again."""
    max_fps: float = 6.0
    """Frames read a second at most: enough for a few agreeing frames within a second, and it leaves
    the Pi's other core to the referee and the web (a live camera gives 30)."""


# ---------------------------------------------------------------- one game's stable readings


@dataclasses.dataclass(frozen=True)
class Step:
    calibration: CalibrationResult
    check: SceneCheck | None
    reading: Reading | None
    observation: Reading | None
    """A new stable observation made with this frame, if any."""
    stable: bool
    run_started: float | None
    """When (on the reader's clock) the frames of the present stable run began."""


class StableReader:
    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        profile: Profile | None,
        settings: StabilitySettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        learn_reference: bool = True,
    ) -> None:
        self.game = game
        self.pipeline = PlaneReader(game, options, profile)
        self.checker = SceneChecker(self.pipeline.layout, settings)
        self.stabiliser = Stabiliser(settings)
        self.clock = clock
        self.learn_reference = learn_reference
        """Learn the empty play area from the first steady frames that read as empty (start the camera
        before laying out the pieces; the setup page can take the view again: `relearn_reference`)."""
        self.current: Reading | None = None
        """The reading of the present stable run (None while the table is not at rest)."""
        self._recent: collections.deque[Frame] = collections.deque(
            maxlen=self.stabiliser.settings.stable_frames
        )
        self._lock = threading.Lock()  # the setup page relearns from the web's thread

    def step(self, image: Frame) -> Step:
        with self._lock:
            return self._step(image)

    def _step(self, image: Frame) -> Step:
        now = self.clock()
        calibration, plane = self.pipeline.plane(image)
        if plane is None or calibration.changed:
            self.checker.forget_motion()
            self._recent.clear()
        if plane is None:
            return self._refused(calibration, None)
        reference = self.pipeline.reference
        view = None
        if reference is not None and calibration.homography is not None:
            # With the table around the plane: arms are seen crossing it (reference.py, surround.py).
            view = reference.look(plane, self.pipeline.surround(image, calibration.homography))
        check = self.checker.check(plane, previous=True, view=view)
        if check.refused:
            self._recent.clear()
            return self._refused(calibration, check)
        self._recent.append(image)
        read = plane
        if reference is not None and view is not None:
            reference.keep_current(plane, view)
            read = reference.normalise(plane, view)
        reading = self.pipeline.recogniser.read(read, self.pipeline.layout, self.pipeline.profile)
        was_stable = self.stabiliser.stable
        observation = self.stabiliser.offer(reading, now)
        stable = self.stabiliser.stable
        self.current = reading if stable else None
        if stable and not was_stable:
            self.checker.accept(plane)  # the table at rest: its skin-coloured things are no hand
            if reference is None and self.learn_reference and _all_empty(reading):
                result = self.pipeline.learn_reference(list(self._recent))
                log.info("camera: %s", result.message)
        return Step(calibration, check, reading, observation, stable, self.stabiliser.run_started)

    def relearn_reference(self) -> LearnResult:
        """Take the latest frames as the empty play area (the setup page, once the area is cleared)."""
        with self._lock:
            if not self._recent:
                return LearnResult(False, "no steady camera view of the play area yet: nothing was learned")
            result = self.pipeline.learn_reference(list(self._recent))
            self.checker.forget_motion()
            return result

    def _refused(self, calibration: CalibrationResult, check: SceneCheck | None) -> Step:
        self.stabiliser.refuse()
        self.current = None
        return Step(calibration, check, None, None, False, None)


def _all_empty(reading: Reading) -> bool:
    """The recogniser sees nothing anywhere: the play area is (most likely) empty."""
    return bool(reading.items) and all(label in EMPTY_LABELS for label in reading.items.values())


# ---------------------------------------------------------------- the watcher


@dataclasses.dataclass(frozen=True)
class _Following:
    game_id: int
    game: str
    options_key: str


class CameraWatcher:
    def __init__(
        self,
        referee: Referee,
        source: FrameSource,
        settings: WatcherSettings | None = None,
        *,
        profiles_root: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.referee = referee
        self.source = source
        self.settings = settings or WatcherSettings()
        self.profiles_root = profiles_root
        self.clock = clock
        self.reader: StableReader | None = None
        self._following: _Following | None = None
        self._question: tuple[int | None, frozenset[str]] = (None, frozenset())
        self._asked_at = 0.0
        self._asked_state: State | None = None
        """The position at which the present question was first asked (a roll's dice are its then)."""
        self._answered: tuple[int, int] | None = None
        self._errors = 0
        self._faults: dict[str, str] = {}
        self._state, self._message = "idle", ""
        self._last_status: dict[str, Any] | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.latest: Frame | None = None
        """The latest frame read (teach mode takes its shots from it)."""
        self.submitted: list[SubmitAction] = []
        """Every answer the camera submitted (for the log and tests)."""

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
        try:
            self.source.close()
        except Exception:
            log.exception("closing the camera failed")

    def _run(self) -> None:
        opened = False
        while not self._stopping.is_set():
            if not opened:
                try:
                    self.source.open()
                    opened, self._errors = True, 0
                    self._fault("camera", None)
                except SourceError as error:
                    self.camera_lost(error)
                    self._stopping.wait(self.settings.retry_seconds)
                    continue
            try:
                frame = self.source.read()
            except SourceError as error:
                self._errors += 1
                log.warning("camera: unreadable frame: %s", error)
                self._fault("frame", say("The camera gave an unreadable picture: check its cable."))
                if self._errors >= self.settings.reopen_after_errors:
                    self.camera_lost(error)
                    self._close_quietly()
                    opened = False
                    self._stopping.wait(self.settings.retry_seconds)
                continue
            if frame is None:
                log.info("camera: the %s has ended", self.source.name)
                self._status("idle", say("The camera's pictures have ended: enter moves by hand."))
                return
            self._errors = 0
            started = time.monotonic()
            try:
                self.process(frame)
            except Exception:
                # A recogniser or referee hiccup must not end the camera: the table goes on by hand.
                log.exception("the camera could not read a frame")
                self._fault("read", say("The camera could not read the table: enter moves by hand."))
            if self.settings.max_fps > 0:
                self._stopping.wait(max(0.0, 1.0 / self.settings.max_fps - (time.monotonic() - started)))

    def _close_quietly(self) -> None:
        try:
            self.source.close()
        except Exception:
            log.exception("closing the lost camera failed")

    def camera_lost(self, error: Exception) -> None:
        """The camera cannot give frames: the table goes on with manual entry until it is back."""
        self.reader = None
        self._following = None
        log.warning("camera lost: %s", error)
        self._fault("camera", say("The camera is lost: check its cable, and enter moves by hand meanwhile."))

    # ------------------------------------------------------------ one frame

    def process(self, frame: TimedFrame) -> SubmitAction | None:
        """Read one frame for the table's current game; returns the answer submitted with it, if any."""
        self.latest = frame.image
        self._fault("frame", None)
        self._fault("camera", None)
        snapshot = self.referee.snapshot()
        reader = self._reader_for(snapshot)
        if reader is None or snapshot.state is None or snapshot.game is None or snapshot.game_id is None:
            return None
        step = reader.step(frame.image)
        self._fault("read", None)
        self._calibration_status(step.calibration)
        self._fault("table", _table_changed() if step.check is not None and step.check.table else None)
        kinds = frozenset(asks_camera(snapshot.game, snapshot.state))
        if self._question != (snapshot.game_id, kinds):
            self._question, self._asked_at = (snapshot.game_id, kinds), self.clock()
            self._asked_state = snapshot.state
        if not kinds or not step.stable or reader.current is None:
            return None
        position = (snapshot.game_id, snapshot.seq)
        if self._answered == position:
            return None  # already answered at this event; the referee has not taken it yet
        fresh = step.run_started is not None and step.run_started > self._asked_at
        action = camera_answer(
            snapshot.game, snapshot.state, reader.current.items, fresh=fresh, asked=self._asked_state
        )
        if action is None:
            return None
        evidence = {
            "judge": "camera",
            "items": dict(reader.current.items),
            "confidence": {k: round(v, 4) for k, v in reader.current.confidence.items()},
            "edition": self.settings.edition,
        }
        command = SubmitAction(action, evidence=evidence, game_id=snapshot.game_id, after=snapshot.seq)
        try:
            self.referee.submit(command, source=SOURCE)
        except ValueError as error:
            log.warning("the camera's answer %s was not taken: %s", action.label(), error)
            return None
        self._answered = position
        self.submitted.append(command)
        log.info("camera: %s", action.label())
        return command

    def relearn_reference(self) -> LearnResult:
        """The setup page's "the play area is empty now": take the present view as the empty area."""
        reader = self.reader
        if reader is None:
            return LearnResult(False, "the camera is not following a game yet: nothing was learned")
        return reader.relearn_reference()

    def _reader_for(self, snapshot: Snapshot) -> StableReader | None:
        if snapshot.game is None or snapshot.game_id is None or snapshot.state is None:
            self.reader, self._following = None, None
            self._status("idle", "")
            return None
        options = (snapshot.published.payload.get("game") or {}).get("options") or {}
        following = _Following(snapshot.game_id, snapshot.game, repr(sorted(options.items())))
        if following == self._following:
            return self.reader
        self._following, self.reader = following, None
        try:
            profile = load_profile(snapshot.game, self.settings.edition, self.profiles_root)
            recogniser_for(snapshot.game)
            self.reader = StableReader(
                snapshot.game, options, profile, self.settings.stability, clock=self.clock
            )
        except VisionError as error:
            log.warning("the camera cannot read %s: %s", snapshot.game, error)
            self._status("idle", say("The camera cannot read this game: enter moves by hand."))
            return None
        self._status("calibrating", looking_for_markers())
        return self.reader

    # ------------------------------------------------------------ the scoreboard

    def _calibration_status(self, calibration: CalibrationResult) -> None:
        if calibration.state == "calibrated":
            self._status("watching", calibration.message or "")
        elif calibration.state == "searching":
            self._status("calibrating", calibration.message)
        else:  # bumped or lost: manual entry until the markers show again
            self._status(
                "fault", say("{problem} Meanwhile, enter moves by hand.", problem=calibration.message)
            )

    def _fault(self, key: str, message: str | None) -> None:
        if message is None:
            if self._faults.pop(key, None) is not None:
                self._publish()
        elif self._faults.get(key) != message:
            self._faults[key] = message
            self._publish()

    def _status(self, state: str, message: str) -> None:
        self._state, self._message = state, message
        self._publish()

    def _publish(self) -> None:
        """One line for people (`message`, `say`): the most important fault first, else the state's."""
        faults = list(self._faults.values())
        state = "fault" if faults else self._state
        message = one_line(faults) or self._message
        status: dict[str, Any] = {
            "state": state,
            "message": message,
            "say": texts_of(message),
            "problems": [texts_of(fault) for fault in faults],
            "source": self.source.name,
            "faults": faults,
            "edition": self.settings.edition,
        }
        if status == self._last_status:
            return
        self._last_status = status
        try:
            self.referee.submit(SetTableStatus(CHANNEL, status), source=SOURCE)
        except ValueError as error:
            log.debug("camera status not published: %s", error)


def _table_changed() -> Said:
    return say(
        "The table no longer looks like the empty play area the camera learned: show it the empty area "
        "again on the setup page, and enter moves by hand meanwhile."
    )
