"""Which frames may be read, and when a reading is an observation.

`SceneChecker` refuses a plane with a hand in it (a large region reaching in
from the plane's edge that was not there when the table was last at rest: a
hand, a sleeve, anything foreign) or with motion (the plane differs from the
previous frame's). Colour alone cannot tell a hand from a wooden table or a
beige tile, so the check compares with the table itself: with the empty play
area's reference when one was learned (companion/vision/reference.py: any
table, light and skin), else with the table when it was last at rest.
`Stabiliser` publishes a reading only once the same reading came from
several accepted frames in a row, and only when it differs from the last
observation: a piece being put down, a die still rolling or a hand passing
over the table never becomes an observation.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame, Layout, Reading
from companion.vision.reference import TableView

Grey = numpy.typing.NDArray[numpy.uint8]

CHECK_WIDTH = 160
"""The plane is checked at this width: a hand or motion is large, and small is fast."""


@dataclasses.dataclass(frozen=True)
class StabilitySettings:
    stable_frames: int = 3
    """Identical readings from this many accepted frames in a row make an observation."""
    motion_level: int = 24
    """A pixel whose grey level changed by more than this since the previous frame moved."""
    motion_share: float = 0.004
    """More than this share of moved pixels is motion."""
    foreign_level: int = 45
    """A pixel whose colour differs this much (summed over B, G, R) from the table at rest shows something
    foreign: a light hand on a light wooden table differs by little more than this."""
    hand_share: float = 0.02
    """A foreign region reaching in from the plane's edge over this share of the plane is a hand..."""
    hand_max_share: float = 0.6
    """...unless it fills more than this (the light changed, or the camera moved: not a hand)."""


@dataclasses.dataclass(frozen=True)
class SceneCheck:
    hand: bool
    motion: bool
    table: str = ""
    """With a reference of the empty area: why the table itself cannot be read ("" when it can)."""

    @property
    def refused(self) -> bool:
        return self.hand or self.motion or bool(self.table)

    @property
    def reason(self) -> str:
        if self.hand:
            return "a hand is over the table"
        if self.table:
            return self.table
        return "something is moving" if self.motion else ""


class SceneChecker:
    def __init__(self, layout: Layout, settings: StabilitySettings | None = None) -> None:
        self.settings = settings or StabilitySettings()
        width, height = layout.plane_size_px()
        self.size = (CHECK_WIDTH, max(1, round(height * CHECK_WIDTH / max(width, 1))))
        self._previous: Grey | None = None
        self._reference: Frame | None = None
        self._kernel = numpy.ones((3, 3), numpy.uint8)

    def _small(self, plane: Frame) -> Frame:
        return numpy.asarray(cv2.resize(plane, self.size, interpolation=cv2.INTER_AREA), dtype=numpy.uint8)

    def check(self, plane: Frame, *, previous: bool = False, view: TableView | None = None) -> SceneCheck:
        """Look at one plane; with `previous`, also compare with the plane of the last call (motion).
        With `view` (the plane compared with the empty area's reference) the reference tells hands on
        any table and skin; without, the plane is compared with the table last at rest."""
        small = self._small(plane)
        grey = numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=numpy.uint8)
        motion = False
        if previous and self._previous is not None:
            moved = cv2.absdiff(grey, self._previous) > self.settings.motion_level
            motion = float(numpy.count_nonzero(moved)) / moved.size > self.settings.motion_share
        if previous:
            self._previous = grey
        if view is not None:
            return SceneCheck(view.hand, motion, "" if view.hand else view.reason)
        return SceneCheck(self._hand(small), motion)

    def forget_motion(self) -> None:
        """The next frame has no predecessor (the camera moved, or frames were lost)."""
        self._previous = None

    def accept(self, plane: Frame) -> None:
        """This plane shows the table at rest: later frames are compared with it for foreign objects."""
        self._reference = self._blurred(self._small(plane))

    @property
    def has_reference(self) -> bool:
        return self._reference is not None

    def _blurred(self, small: Frame) -> Frame:
        return numpy.asarray(cv2.GaussianBlur(small, (3, 3), 0), dtype=numpy.uint8)

    def _hand(self, small: Frame) -> bool:
        """A large region, changed since the table was last at rest, that reaches in from the plane's edge."""
        if self._reference is None:
            return False  # nothing to compare with yet: the stabiliser's agreeing frames must do
        difference = cv2.absdiff(self._blurred(small), self._reference).astype(numpy.uint16).sum(axis=2)
        changed = difference > self.settings.foreign_level
        mask: Any = changed.astype(numpy.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)
        count, _labels, stats, _centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        height, width = mask.shape
        area = float(height * width)
        for label in range(1, count):
            x, y, w, h, pixels = (int(v) for v in stats[label])
            share = pixels / area
            touches_edge = x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1
            if touches_edge and self.settings.hand_share <= share <= self.settings.hand_max_share:
                return True
        return False


class Stabiliser:
    """Turns a stream of per-frame readings into observations: stable, and new."""

    def __init__(self, settings: StabilitySettings | None = None) -> None:
        self.settings = settings or StabilitySettings()
        self._candidate: dict[str, str] | None = None
        self._run = 0
        self.run_started: float | None = None
        """When the first frame of the present run of identical readings came (the caller's clock)."""
        self.last: Reading | None = None
        """The last observation published."""

    def refuse(self) -> None:
        """A frame that could not be read (hand, motion, no markers): the run starts again."""
        self._candidate, self._run, self.run_started = None, 0, None

    def offer(self, reading: Reading, now: float = 0.0) -> Reading | None:
        """The reading of an accepted frame (seen at `now`); returns it as an observation once it is
        stable and new."""
        if reading.items != self._candidate:
            self._candidate, self._run, self.run_started = dict(reading.items), 1, now
        else:
            self._run += 1
        if self._run < self.settings.stable_frames:
            return None
        if self.last is not None and self.last.items == reading.items:
            return None
        self.last = reading
        return reading

    @property
    def stable(self) -> bool:
        """The latest frames agree (the table is at rest)."""
        return self._run >= self.settings.stable_frames
