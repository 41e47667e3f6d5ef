"""One camera frame to one reading: markers → homography → top-down plane → the game's recogniser.

`PlaneReader` is what both the watcher (live) and the evaluation (recordings)
run, so the figures `companion vision eval` prints are those of the table.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any

from companion.vision.base import Frame, Layout, Profile, Reading, Recogniser, recogniser_for
from companion.vision.calibration import (
    CalibrationResult,
    CalibrationSettings,
    Calibrator,
    Homography,
    warp_plane,
)
from companion.vision.pose import raised_homography


@dataclasses.dataclass(frozen=True)
class FrameReading:
    calibration: CalibrationResult
    plane: Frame | None
    """The top-down plane, or None without a homography (markers not found)."""
    reading: Reading | None
    seconds: float
    """Time for the whole pipeline on this frame."""
    stages: dict[str, float] = dataclasses.field(default_factory=dict)
    """Seconds per stage: "markers" (detection and homography), "warp", "recogniser"."""
    cpu_seconds: float = 0.0
    """CPU time of this thread for the whole pipeline: the cost on one core, whatever else runs."""


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
        self.layout: Layout = self.recogniser.layout(options)
        self.profile = profile
        self.calibrator = Calibrator(self.layout.plane_mm, calibration)
        self._raised: tuple[Homography, tuple[int, int], Homography] | None = None

    def plane(self, frame: Frame) -> tuple[CalibrationResult, Frame | None]:
        """Calibrate on the frame and warp it to the plane (None when the markers give no homography)."""
        calibration = self.calibrator.update(frame)
        if calibration.homography is None:
            return calibration, None
        return calibration, warp_plane(
            frame, self.read_homography(calibration.homography, frame), self.layout
        )

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
        calibration = self.calibrator.update(frame)
        calibrated = time.perf_counter()
        plane = None
        if calibration.homography is not None:
            plane = warp_plane(frame, self.read_homography(calibration.homography, frame), self.layout)
        warped = time.perf_counter()
        reading = self.recogniser.read(plane, self.layout, self.profile) if plane is not None else None
        done = time.perf_counter()
        stages = {"markers": calibrated - started, "warp": warped - calibrated, "recogniser": done - warped}
        cpu = time.thread_time() - cpu_started
        return FrameReading(calibration, plane, reading, done - started, stages, cpu)
