"""The camera checks each toss verdict of the beams; when they disagree, the host decides.

`TossConfirmer` sits between the sensors' verdict and the referee: the
sensor link hands it each verdict with the command it would submit; the
confirmer looks at the horn figure through a `TossCamera` (the toss
recogniser reads "horn:left"/"horn:right" → "ring" | "clear") and

- submits the verdict, with the camera's reading added to its evidence, when
  the camera sees the same outcome;
- submits nothing when they disagree: the "toss-check" table status asks
  the host on every phone, and `decide` (the control endpoint
  POST /api/camera/toss) submits the host's verdict, with both readings as
  evidence. No verdict is taken silently;
- when the camera cannot tell (no picture, markers lost, a hand in view until
  the time runs out), submits the beams' verdict and says so on the
  scoreboard: a lost camera never stops the game, and the host can still
  overturn the verdict;
- a verdict the beams themselves are unsure of (`sure` false in the evidence:
  a ring still hanging on a tip, a count of blocked base beams between the
  sure ones) is the camera's to decide: its reading is submitted, with the
  beams' as evidence. Only when the camera cannot tell is the host asked.
  `NoTossCamera` stands in where no camera watches the figure, so that such a
  toss is never taken silently (hardware/beams.md, "Where beams alone cannot
  decide").

While a verdict is being checked or waits for the host, the sensors do not
ask for another toss (`holds`).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from companion.games import CHANCE
from companion.games.minotaurus import Toss
from companion.table.inputs import RefereeStoppedError, Reply, SetTableStatus, SubmitAction, TableError
from companion.table.referee import Referee
from companion.vision.base import Frame, Reading, VisionError, load_profile
from companion.vision.sources import FrameSource, SourceError
from companion.vision.stability import StabilitySettings
from companion.words import Said, say, texts_of

log = logging.getLogger(__name__)

CHANNEL = "toss-check"
GAME = "toss"

Outcome = Literal["agreed", "asked", "unconfirmed", "beams only", "camera decided"]


class NoTossWaitingError(TableError):
    """The host decided a toss, but none waits for the host's decision."""


@dataclasses.dataclass(frozen=True)
class TossLook:
    ring: bool | None
    """A ring over some horn (True), none (False), or the camera cannot tell (None)."""
    horns: dict[str, str]
    why: str = ""
    confidence: dict[str, float] = dataclasses.field(default_factory=dict)

    def evidence(self) -> dict[str, Any]:
        return {
            "ring": self.ring,
            "horns": self.horns,
            "why": self.why,
            "confidence": {k: round(v, 4) for k, v in self.confidence.items()},
        }


class TossCamera:
    """The camera over the horn figure: a stable reading of its horns on demand."""

    present = True

    def __init__(
        self,
        source: FrameSource,
        *,
        options: Mapping[str, Any] | None = None,
        edition: str = "default",
        profiles_root: Path | None = None,
        settings: StabilitySettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.options = dict(options or {})
        self.edition = edition
        self.profiles_root = profiles_root
        self.settings = settings or StabilitySettings()
        self.clock = clock
        self._opened = False
        self._lock = threading.Lock()

    def look(self, timeout: float) -> TossLook:
        """Read frames until the horns' reading holds still over several frames (or `timeout` s pass)."""
        from companion.vision.watcher import StableReader

        with self._lock:
            try:
                profile = load_profile(GAME, self.edition, self.profiles_root)
                reader = StableReader(GAME, self.options, profile, self.settings, clock=self.clock)
            except VisionError as error:
                return TossLook(None, {}, f"the camera cannot read the horn figure: {error}")
            deadline = self.clock() + timeout
            why = "no picture from the camera"
            while self.clock() < deadline:
                try:
                    if not self._opened:
                        self.source.open()
                        self._opened = True
                    frame = self.source.read()
                except SourceError as error:
                    self._close()
                    return TossLook(None, {}, f"camera lost: {error}")
                if frame is None:
                    self._close()
                    return TossLook(None, {}, f"the {self.source.name} has ended")
                step = reader.step(frame.image)
                if step.reading is None:
                    why = step.calibration.message or (step.check.reason if step.check else why)
                    continue
                why = "the horns' reading did not hold still"
                if step.stable and reader.current is not None:
                    return _look(reader.current)
            return TossLook(None, {}, why)

    def grab(self, wait: float = 0.5) -> Frame | None:
        """One frame now, for the setup page; None when the camera gives none or is busy checking a toss
        (the check holds it for seconds: the page asks again shortly rather than wait)."""
        if not self._lock.acquire(timeout=wait):
            return None
        try:
            if not self._opened:
                self.source.open()
                self._opened = True
            frame = self.source.read()
        except SourceError:
            self._close()
            return None
        finally:
            self._lock.release()
        return None if frame is None else frame.image

    def _close(self) -> None:
        self._opened = False
        try:
            self.source.close()
        except Exception:
            log.exception("closing the toss camera failed")

    def close(self) -> None:
        with self._lock:
            self._close()


class NoTossCamera:
    """Where no camera watches the horn figure: it never sees anything."""

    present = False

    def look(self, timeout: float) -> TossLook:
        return TossLook(None, {}, "no camera watches the horn figure")

    def close(self) -> None:
        pass


def _look(reading: Reading) -> TossLook:
    horns = {item: label for item, label in reading.items.items() if item.startswith("horn:")}
    return TossLook(any(label == "ring" for label in horns.values()), horns, "", dict(reading.confidence))


@dataclasses.dataclass(frozen=True)
class PendingToss:
    seat: int
    beams: bool
    camera: bool | None
    """What the camera saw; None when it could not tell (the beams were unsure)."""
    game_id: int | None
    after: int | None
    evidence: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "beams": self.beams,
            "camera": self.camera,
            "game_id": self.game_id,
            "after": self.after,
        }


def _words(success: bool) -> Said:
    return say("a ring over a horn") if success else say("no ring over a horn")


class TossConfirmer:
    def __init__(self, referee: Referee, camera: TossCamera | NoTossCamera, *, timeout: float = 4.0) -> None:
        self.referee = referee
        self.camera = camera
        self.timeout = timeout
        self._lock = threading.Lock()
        self._checking: tuple[int | None, int | None] | None = None
        self.pending: PendingToss | None = None
        self.outcomes: list[Outcome] = []

    def holds(self, game_id: int | None, after: int | None) -> bool:
        """While this position's verdict is being checked or waits for the host, no new toss is asked."""
        with self._lock:
            if self._checking == (game_id, after):
                return True
            return self.pending is not None and (self.pending.game_id, self.pending.after) == (game_id, after)

    def check(self, seat: int, success: bool, command: SubmitAction) -> None:
        """Check the beams' verdict in the background (the sensors' thread must not wait for the camera)."""
        with self._lock:
            self._checking = (command.game_id, command.after)
        threading.Thread(
            target=self.confirm, args=(seat, success, command), name="toss-check", daemon=True
        ).start()

    def confirm(self, seat: int, success: bool, command: SubmitAction) -> Outcome:
        """Look, then submit the verdict, or ask the host. Returns what happened."""
        try:
            look = self.camera.look(self.timeout)
        except Exception as error:  # a camera bug must not cost the toss
            log.exception("the toss camera failed")
            look = TossLook(None, {}, f"the camera failed: {error}")
        evidence = {**(command.evidence or {}), "camera": look.evidence()}
        beams_unsure = (command.evidence or {}).get("sure") is False
        outcome: Outcome
        status: dict[str, Any] | None = None
        name = self._name(seat)
        with self._lock:
            self._checking = None
            if beams_unsure and look.ring is not None:
                outcome = "camera decided"
                evidence = {**evidence, "judge": "camera", "beams_said": success}
                command = dataclasses.replace(command, action=Toss(CHANCE, seat, look.ring))
            elif beams_unsure:
                outcome = "asked"
                self.pending = PendingToss(seat, success, None, command.game_id, command.after, evidence)
                log.info(
                    "the beams cannot tell the toss of seat %d (%s), and %s",
                    seat,
                    (command.evidence or {}).get("reason", ""),
                    look.why,
                )
                status = _status(
                    "confirm",
                    say(
                        "Neither the beams nor the camera can tell {name}'s toss: host, look and decide.",
                        name=name,
                    ),
                    confirm=self.pending.to_json(),
                )
            elif look.ring is None and not self.camera.present:
                outcome = "beams only"
            elif look.ring is None:
                outcome = "unconfirmed"
                log.info("the camera could not check the toss of seat %d: %s", seat, look.why)
                status = _status(
                    "unconfirmed",
                    say(
                        "The camera could not check {name}'s toss, so the beams' verdict stands: "
                        "host, overturn it if it is wrong.",
                        name=name,
                    ),
                )
            elif look.ring == success:
                outcome = "agreed"
            else:
                outcome = "asked"
                self.pending = PendingToss(seat, success, look.ring, command.game_id, command.after, evidence)
                status = _status(
                    "confirm",
                    say(
                        "Beams and camera disagree on {name}'s toss: the beams saw {beams}, the camera "
                        "sees {camera}. Host, look and decide.",
                        name=name,
                        beams=_words(success),
                        camera=_words(look.ring),
                    ),
                    confirm=self.pending.to_json(),
                )
            self.outcomes.append(outcome)
        self._status(status)
        if outcome != "asked":
            self._submit(dataclasses.replace(command, evidence=evidence), "sensor")
        return outcome

    def decide(self, success: bool, *, source: str = "host", timeout: float = 10.0) -> Reply:
        """The host's verdict on the toss that beams and camera disagree on."""
        with self._lock:
            pending, self.pending = self.pending, None
        if pending is None:
            raise NoTossWaitingError("no toss waits for the host's decision")
        evidence = {
            **pending.evidence,
            "judge": "host",
            "decided": success,
            "beams_said": pending.beams,
            "camera_said": pending.camera,
        }
        toss = Toss(CHANCE, pending.seat, success)
        command = SubmitAction(toss, evidence=evidence, game_id=pending.game_id, after=pending.after)
        reply = self.referee.call(command, source=source, timeout=timeout)
        self._status(None)
        return reply

    def _name(self, seat: int) -> str:
        try:
            names = self.referee.snapshot().names
        except RefereeStoppedError:
            names = ()
        return names[seat] if 0 <= seat < len(names) else say("player {number}", number=seat + 1)

    def _submit(self, command: SubmitAction, source: str) -> None:
        try:
            self.referee.submit(command, source=source)
        except ValueError as error:
            log.warning("the checked verdict was not taken: %s", error)

    def _status(self, status: dict[str, Any] | None) -> None:
        try:
            self.referee.submit(SetTableStatus(CHANNEL, status), source="camera")
        except ValueError as error:
            log.debug("toss check status not published: %s", error)


def _status(state: str, line: Said, **more: Any) -> dict[str, Any]:
    """A toss-check status: its one line for people in every language (`say`), and what the host needs."""
    return {"state": state, "message": line, "say": texts_of(line), "faults": [], **more}
