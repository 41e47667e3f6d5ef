"""One camera frame to one reading: markers → homography → top-down plane → the game's recogniser.

`PlaneReader` is what both the watcher (live) and the evaluation (recordings)
run, so the figures `companion vision eval` prints are those of the table.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy

from companion.vision._marker_match import forget_matches
from companion.vision.base import Frame, Layout, Profile, Reading, ReadsNormalised, Recogniser, recogniser_for
from companion.vision.calibration import (
    CalibrationResult,
    CalibrationSettings,
    Calibrator,
    Homography,
    warp_plane,
)
from companion.vision.components import with_joined_gaps
from companion.vision.pose import raised_homography
from companion.vision.reference import LearnResult, TableReference, learn_from_planes


@dataclasses.dataclass(frozen=True)
class FrameReading:
    calibration: CalibrationResult
    plane: Frame | None
    """The top-down plane the recogniser read (normalised when there is a reference), or None without a
    homography (markers not found)."""
    reading: Reading | None
    seconds: float
    """Time for the whole pipeline on this frame."""
    stages: dict[str, float] = dataclasses.field(default_factory=dict)
    """Seconds per stage: "markers" (detection and homography), "warp", "reference" (with one: the
    comparison with the empty area and the normalised plane), "recogniser"."""
    cpu_seconds: float = 0.0
    """CPU time of this thread for the whole pipeline: the cost on one core, whatever else runs."""
    hand: bool = False
    """With a reference: a hand or an arm is over the play area (the frame is refused, reading None)."""
    refused: str = ""
    """With a reference: why the frame was not read ("" when it was): a hand, or a table that no longer
    looks like the empty area learned."""


class PlaneReader:
    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        profile: Profile | None = None,
        *,
        recogniser: Recogniser | None = None,
        calibration: CalibrationSettings | None = None,
    ) -> None:
        self.recogniser = recogniser or recogniser_for(game)
        self.layout: Layout = with_joined_gaps(game, self.recogniser.layout(options))
        self.profile = profile
        self.calibrator = Calibrator(self.layout.plane_mm, calibration)
        self._raised: tuple[Homography, tuple[int, int], Homography] | None = None
        self._reference: TableReference | None = None

    @property
    def reference(self) -> TableReference | None:
        """The empty play area learned (None: read as without one, the plane as the camera sees it)."""
        return self._reference

    def learn_reference(self, frames: Frame | Sequence[Frame]) -> LearnResult:
        """Take the frame (or the frames: their median) as the empty play area; then read() compares
        each plane with it, refuses hands and gives the recogniser normalised planes."""
        shots = [frames] if isinstance(frames, numpy.ndarray) else list(frames)
        planes, surrounds = [], []
        for shot in shots:
            calibration, plane = self.plane(shot)
            # Markers seen in this very frame: a homography kept from earlier frames may no longer fit.
            if plane is not None and calibration.homography is not None and len(calibration.markers) >= 3:
                planes.append(plane)
                surrounds.append(self.surround(shot, calibration.homography))
        reference, result = learn_from_planes(self.layout, planes, len(shots), surrounds)
        if reference is not None:
            self._reference = reference
        return result

    def forget_reference(self) -> None:
        self._reference = None

    def adopt_reference(self, reference: TableReference | None) -> None:
        """Read against another reader's empty area (the teach session's, shown on its live view)."""
        self._reference = reference

    def normalised_plane(self, frame: Frame) -> Frame | None:
        """The frame's plane as the recogniser reads it (teach shots, training): normalised against the
        reference when there is one. None without markers, or when the reference refuses the frame."""
        calibration, plane = self.plane(frame)
        if plane is None or self._reference is None or calibration.homography is None:
            return plane
        view = self._reference.look(plane, self.surround(frame, calibration.homography))
        return None if view.refused else self._reference.normalise(plane, view)

    def surround(self, frame: Frame, homography: Homography) -> Frame:
        """The frame over the plane and the table around it, where the reference sees arms come in."""
        return TableReference.surround_of(self.layout, frame, self.read_homography(homography, frame))

    def plane(self, frame: Frame) -> tuple[CalibrationResult, Frame | None]:
        """Calibrate on the frame and warp it to the plane (None when the markers give no homography)."""
        calibration = self._calibrated(frame)
        if calibration.homography is None:
            return calibration, None
        return calibration, warp_plane(
            frame, self.read_homography(calibration.homography, frame), self.layout
        )

    def _calibrated(self, frame: Frame) -> CalibrationResult:
        """The calibrator's update. While the homography holds, a marker unmoved since it was found keeps
        the corners found then (MarkerFinder.find_around, match_marker); one about to be fitted (the first,
        or after the markers were lost) is fitted on corners found in this very frame."""
        if self.calibrator.homography is None:
            self.calibrator.finder.forget()
            forget_matches()
        return self.calibrator.update(frame)

    def read_homography(self, homography: Homography, frame: Frame) -> Homography:
        """The homography to the plane the recogniser reads: the markers' own, or for a layout read
        `raised_mm` above them, the raised plane's from the camera pose (kept while the markers' holds)."""
        if self.layout.raised_mm == 0:
            return homography
        size = (frame.shape[1], frame.shape[0])
        if self._raised is None or self._raised[0] is not homography or self._raised[1] != size:
            raised = raised_homography(homography, self.layout.plane_mm, size, self.layout.raised_mm)
            self._raised = (homography, size, raised)
        return self._raised[2]

    def read(self, frame: Frame) -> FrameReading:
        started, cpu_started = time.perf_counter(), time.thread_time()
        calibration = self._calibrated(frame)
        calibrated = time.perf_counter()
        plane = None
        if calibration.homography is not None:
            plane = warp_plane(frame, self.read_homography(calibration.homography, frame), self.layout)
        warped = time.perf_counter()
        view, table = None, None
        if plane is not None and self._reference is not None:
            assert calibration.homography is not None  # a plane comes from one
            homography = calibration.homography
            # The band around the plane is warped only when the plane's changes reach its edge.
            view = self._reference.look(plane, lambda: self.surround(frame, homography))
            if not view.refused:
                self._reference.keep_current(plane, view)
                plane, table = self._reference.normalise_with_table(plane, view)
        compared = time.perf_counter()
        reading = None
        if plane is not None and (view is None or not view.refused):
            if table is not None and isinstance(self.recogniser, ReadsNormalised):
                # The table the reference replaced is handed over, not found again by the recogniser.
                reading = self.recogniser.read_normalised(plane, table, self.layout, self.profile)
            else:
                reading = self.recogniser.read(plane, self.layout, self.profile)
        done = time.perf_counter()
        stages = {"markers": calibrated - started, "warp": warped - calibrated, "recogniser": done - compared}
        if view is not None:
            stages["reference"] = compared - warped
        cpu = time.thread_time() - cpu_started
        hand, refused = (view.hand, view.reason) if view is not None else (False, "")
        return FrameReading(calibration, plane, reading, done - started, stages, cpu, hand, refused)
