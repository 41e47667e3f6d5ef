"""Which frames may be read, and when a reading is an observation.

`SceneChecker` refuses a plane with a hand in it (a large skin-coloured
region reaching in from the plane's edge, that was not there in the last
stable scene) or with motion (the plane differs from the previous frame's).
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
    hand_share: float = 0.012
    """A skin-coloured region from the plane's edge over this share of the plane is a hand..."""
    hand_max_share: float = 0.6
    """...unless it fills more than this (a wooden board, not a hand)."""


@dataclasses.dataclass(frozen=True)
class SceneCheck:
    hand: bool
    motion: bool

    @property
    def refused(self) -> bool:
        return self.hand or self.motion

    @property
    def reason(self) -> str:
        if self.hand:
            return "a hand is over the table"
        return "something is moving" if self.motion else ""


def skin_mask(small: Frame) -> Grey:
    """Pixels of skin colour (a broad YCrCb range that holds for light and dark skin alike)."""
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycrcb, (40, 135, 80), (250, 175, 125))
    return numpy.asarray(mask, dtype=numpy.uint8)


class SceneChecker:
    def __init__(self, layout: Layout, settings: StabilitySettings | None = None) -> None:
        self.settings = settings or StabilitySettings()
        width, height = layout.plane_size_px()
        self.size = (CHECK_WIDTH, max(1, round(height * CHECK_WIDTH / max(width, 1))))
        self._previous: Grey | None = None
        self._reference_skin: Grey | None = None
        self._kernel = numpy.ones((3, 3), numpy.uint8)

    def _small(self, plane: Frame) -> Frame:
        return numpy.asarray(cv2.resize(plane, self.size, interpolation=cv2.INTER_AREA), dtype=numpy.uint8)

    def check(self, plane: Frame, *, previous: bool = False) -> SceneCheck:
        """Look at one plane; with `previous`, also compare with the plane of the last call (motion)."""
        small = self._small(plane)
        grey = numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=numpy.uint8)
        motion = False
        if previous and self._previous is not None:
            moved = cv2.absdiff(grey, self._previous) > self.settings.motion_level
            motion = float(numpy.count_nonzero(moved)) / moved.size > self.settings.motion_share
        if previous:
            self._previous = grey
        return SceneCheck(self._hand(small), motion)

    def forget_motion(self) -> None:
        """The next frame has no predecessor (the camera moved, or frames were lost)."""
        self._previous = None

    def accept(self, plane: Frame) -> None:
        """This plane shows the table at rest: what is skin-coloured in it is part of the table."""
        skin = skin_mask(self._small(plane))
        self._reference_skin = numpy.asarray(cv2.dilate(skin, self._kernel, iterations=2), dtype=numpy.uint8)

    def _hand(self, small: Frame) -> bool:
        skin: Any = skin_mask(small)
        if self._reference_skin is not None:
            skin = cv2.bitwise_and(skin, cv2.bitwise_not(self._reference_skin))
        skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, self._kernel)
        count, _labels, stats, _centres = cv2.connectedComponentsWithStats(skin, connectivity=8)
        height, width = skin.shape
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
        self.last: Reading | None = None
        """The last observation published."""

    def refuse(self) -> None:
        """A frame that could not be read (hand, motion, no markers): the run starts again."""
        self._candidate, self._run = None, 0

    def offer(self, reading: Reading) -> Reading | None:
        """The reading of an accepted frame; returns it as an observation once it is stable and new."""
        if reading.items != self._candidate:
            self._candidate, self._run = dict(reading.items), 1
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
