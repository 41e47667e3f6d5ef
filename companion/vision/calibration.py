"""Calibration: the corner markers give the homography from the camera frame to the top-down plane.

`Calibrator.update(frame)` finds the markers in each frame (on a half-size
grey image first, refined to sub-pixel at full size; while the camera stays
put, only in small windows around where they were last found: a millisecond
or two), finds one the detector misses by its print where the last frame or
the other markers put it (_marker_match.py: a tile or its shadow touching the
black square spoils its outline, not its print), and keeps the homography
while the camera stays put. It sees the camera
bumped when the markers it finds no longer sit where the homography says
(the camera moved: it takes the new homography at once if all four markers
show, and until then has none), and markers lost when none has shown for a
while; either way `status` says so in words for the scoreboard, and the
table goes on with manual entry until the markers are found again.

`companion vision markers` writes the printable sheet (marker_sheet_svg).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Literal

import cv2
import numpy
import numpy.typing

from companion.vision import _marker_finder
from companion.vision._marker_finder import _fit_found_markers, _grey, _lopsided, _predicted_markers
from companion.vision._marker_match import match_marker
from companion.vision.base import (
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    VisionError,
    marker_centres_mm,
)
from companion.words import Said, say

# Finding the markers lives in _marker_finder.py; these are taken from here by the other modules.
Points = _marker_finder.Points
Homography = _marker_finder.Homography
MarkerFinder = _marker_finder.MarkerFinder
aruco_dictionary = _marker_finder.aruco_dictionary
marker_corners_mm = _marker_finder.marker_corners_mm
project = _marker_finder.project

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


log = logging.getLogger(__name__)


class CalibrationError(VisionError):
    """The markers cannot give a homography (missing, or placed so that they make no quadrilateral).

    The message is for a maker (which corner); `said`, when set, is what the players are told instead
    of "the camera is calibrating"."""

    def __init__(self, message: str, said: Said | None = None) -> None:
        super().__init__(message)
        self.said = said


def looking_for_markers() -> Said:
    return say("The camera is looking for the table's corner markers: keep all four in view.")


def _markers_lost() -> Said:
    return say("The camera sees none of the table's corner markers: keep them in view.")


def _camera_moved() -> Said:
    return say("The camera moved: keep the corner markers in view while it finds them again.")


def marker_centre(corners: Points) -> tuple[float, float]:
    """Where the marker's diagonals cross: its true centre even under perspective."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = (tuple(map(float, c)) for c in corners)
    # Diagonals 1→3 and 2→4.
    denominator = (x1 - x3) * (y2 - y4) - (y1 - y3) * (x2 - x4)
    if abs(denominator) < 1e-9:
        return float(corners[:, 0].mean()), float(corners[:, 1].mean())
    a = x1 * y3 - y1 * x3
    b = x2 * y4 - y2 * x4
    return (
        (a * (x2 - x4) - (x1 - x3) * b) / denominator,
        (a * (y2 - y4) - (y1 - y3) * b) / denominator,
    )


THREE_MARKER_TOLERANCE = 0.2
"""With three markers, the fit from their corners may miss a corner by this share of a marker's side at
most; more means a marker lies turned (the sheet's arrows point to the far side), and no fit is made.
A turned marker misses by most of a side (0.85 or more); the lens's bending of a far marker on a hard
frame, by up to a tenth (0.08 refused such frames, leaving them without a plane)."""


def plane_homography(markers: dict[int, Points], plane_mm: tuple[float, float]) -> Homography:
    """The homography from frame pixels to plane pixels: from the four corner markers' centres, or when
    one marker is hidden or out of view, from the corners of the other three (laid upright)."""
    missing = [CORNER_NAMES[n] for n, i in enumerate(CORNER_MARKER_IDS) if i not in markers]
    if len(missing) == 1:
        return _three_marker_homography(markers, plane_mm, missing[0])
    if missing:
        raise CalibrationError(f"marker(s) not found at the {', '.join(missing)} corner(s)")
    targets = marker_centres_mm(plane_mm)
    source = numpy.array([marker_centre(markers[i]) for i in CORNER_MARKER_IDS], dtype=numpy.float32)
    target = numpy.array([targets[i] for i in CORNER_MARKER_IDS], dtype=numpy.float32) * PLANE_PX_PER_MM
    if not _convex_clockwise(source):
        raise CalibrationError(
            "the markers are not in order around the play area: ids 0, 1, 2, 3 go at the "
            "top-left, top-right, bottom-right and bottom-left corners",
            say(
                "The corner markers are out of order: put markers 0, 1, 2 and 3 at the top left, "
                "top right, bottom right and bottom left corner."
            ),
        )
    return numpy.asarray(cv2.getPerspectiveTransform(source, target), dtype=numpy.float64)


def predicted_marker(markers: dict[int, Points], plane_mm: tuple[float, float]) -> tuple[int, Points] | None:
    """Where the one missing corner marker should be in the frame, from the other three: its id and its
    corners in frame pixels (roughly: with lens distortion, three markers extrapolate the fourth poorly);
    None unless exactly one is missing."""
    if len([i for i in CORNER_MARKER_IDS if i not in markers]) != 1:
        return None
    predicted = _predicted_markers(markers, plane_mm)
    return next(iter(predicted.items()), None)


def _three_marker_homography(
    markers: dict[int, Points], plane_mm: tuple[float, float], missing: str
) -> Homography:
    homography, source, target = _fit_found_markers(markers, marker_corners_mm(plane_mm))
    if homography is None:
        raise CalibrationError(f"marker not found at the {missing} corner, and the other three give no fit")
    error = float(numpy.abs(project(homography, source) - target).max())
    if error > THREE_MARKER_TOLERANCE * MARKER_SIDE_MM * PLANE_PX_PER_MM:
        raise CalibrationError(
            f"marker not found at the {missing} corner, and the other three do not lie upright "
            "(their arrows point to the far side of the table)"
        )
    return homography


def _convex_clockwise(quad: Points) -> bool:
    """True when the four points go round a convex quadrilateral clockwise (image y points down)."""
    signs = []
    for n in range(4):
        a, b, c = quad[n], quad[(n + 1) % 4], quad[(n + 2) % 4]
        signs.append(float((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])))
    return all(s > 0 for s in signs)


WARP_INTERPOLATION = cv2.INTER_NEAREST
"""The plane has about the camera's own resolution over the play area (2 px/mm), so the nearest pixel
loses little, and costs a third of bilinear interpolation: the warp is a large part of each frame's time."""


def warp_plane(frame: Frame, homography: Homography, layout: Layout) -> Frame:
    """The top-down plane of the layout's play area, seen through the homography."""
    size = layout.plane_size_px()
    plane = cv2.warpPerspective(
        frame, homography, size, flags=WARP_INTERPOLATION, borderMode=cv2.BORDER_REPLICATE
    )
    return numpy.asarray(plane, dtype=numpy.uint8)


# ---------------------------------------------------------------- tracking over frames


def _distance_to_found(corners: Points, markers: dict[int, Points]) -> float:
    """From a guessed marker's centre to the nearest found marker's, in frame pixels."""
    centre = corners.mean(axis=0)
    return min(float(numpy.linalg.norm(centre - found.mean(axis=0))) for found in markers.values())


PREDICTION_REACH = {1: 3.0, 2: 2.0, 3: 1.0}
"""How far (in its sides) a missing marker is looked for by its print around where 1, 2 or 3 found ones
put it. From one marker's own corners the others land up to a few sides off (seven at worst on hard
frames: a large board seen turned); from two, up to a side; from three, well within one."""

AGREEING_AT_REST = 2
"""With the markers at rest, this many found in their windows where the kept homography puts them (within
`bump_tolerance_px`) keep it without a search of the whole image. Fewer say too little: one marker in
place is also what a camera turned about it would show."""

CalibrationState = Literal["calibrated", "searching", "bumped", "lost"]


@dataclasses.dataclass(frozen=True)
class CalibrationSettings:
    bump_tolerance_px: float = 6.0
    """A marker this far (in plane pixels) from where the homography puts it means the camera moved."""
    lost_after_frames: int = 15
    """Frames without any marker before the scoreboard says the markers are lost."""


@dataclasses.dataclass(frozen=True)
class CalibrationResult:
    homography: Homography | None
    state: CalibrationState
    message: str
    markers: tuple[int, ...]
    """The ids found in this frame."""
    changed: bool = False
    """The homography was (re)fitted in this frame: the first calibration, or after a bump."""


class Calibrator:
    """Keeps the homography of one play area across frames; finds the markers again after a bump."""

    def __init__(self, plane_mm: tuple[float, float], settings: CalibrationSettings | None = None) -> None:
        self.plane_mm = plane_mm
        self.settings = settings or CalibrationSettings()
        self.finder = MarkerFinder(plane_mm=plane_mm)
        self.homography: Homography | None = None
        self.state: CalibrationState = "searching"
        self._frames_without_markers = 0
        self._last: dict[int, Points] = {}
        """Where each marker was last found while the homography held (frame pixels)."""
        self._printed: set[int] = set()
        """The markers found by their print in the last frame (not by the detector)."""
        self._targets = {
            i: numpy.array(c, dtype=numpy.float32) * PLANE_PX_PER_MM
            for i, c in marker_centres_mm(plane_mm).items()
        }

    def update(self, frame: Frame) -> CalibrationResult:
        return self.update_with(self.find_markers(frame))

    def find_markers(self, frame: Frame) -> dict[int, Points]:
        """The corner markers in the frame (id → corners in frame pixels), as `update` finds them: first
        each around where it was last found (the camera at rest: a millisecond); when that misses one,
        on the whole image, then any still missing by its print where the last frame or the others put
        it."""
        printed, self._printed = self._printed, set()
        if len(self._last) == len(CORNER_MARKER_IDS):
            # A marker the detector missed last frame (a tile lies against it) is looked for by its print
            # first: the passes would miss it again, at a millisecond a marker.
            markers: dict[int, Points] = {}
            for marker_id in printed & set(self._last):
                points = self._match(frame, marker_id, self._last[marker_id])
                if points is not None:
                    markers[marker_id] = points
            rest = {k: v for k, v in self._last.items() if k not in markers}
            markers.update(self._squared(frame, self.finder.find_around(frame, rest)))
            # A far or touched marker the passes miss in its window is found by its print, where it was.
            self._match_missing(frame, markers, predict=False)
            # Two or three where the homography puts them: the camera has not moved (a bump moves them
            # all, a slid sheet its own), so the homography holds and the whole image (20-35 ms, every
            # frame a hand covers two markers) would not change it: with three it would give the same
            # calibration; with two, at most find a covered marker's sheet slid out of its window, which
            # the frames after the hand notice.
            if len(markers) == len(CORNER_MARKER_IDS) or (
                len(markers) >= AGREEING_AT_REST and self.homography is not None and self._agrees(markers)
            ):
                return markers
        grey = _grey(frame)
        markers = self._squared(grey, self.finder.find(grey))
        # Three found: look for the fourth where they say it is (a far marker is small and blurred), by its
        # code, else by its print; only then take an unread dark square there (where something dark
        # touches the marker, the outline taken for that square runs into it, corners off by many pixels).
        for unread in (False, True):
            guess = predicted_marker(markers, self.plane_mm)
            if guess is not None:
                marker_id, expected = guess
                points = self.finder.find_near(grey, marker_id, expected, unread=unread)
                if points is not None:
                    markers[marker_id] = points
                    self._squared(grey, markers)
            if not unread:
                self._match_missing(grey, markers)
        return markers

    def _match(self, frame: Frame, marker_id: int, expected: Points, reach: float = 1.0) -> Points | None:
        """match_marker, noting the markers found by their print in this frame."""
        points = match_marker(frame, marker_id, expected, reach)
        if points is not None:
            self._printed.add(marker_id)
        return points

    def _squared(self, frame: Frame, markers: dict[int, Points]) -> dict[int, Points]:
        """The markers, each whose found corners are lopsided (LOPSIDED) taken again by its print there:
        where something dark touches its black square, the detector's outline may cut a corner or run into
        the dark patch and still read the code, its corners then several pixels off."""
        for marker_id, corners in list(markers.items()):
            if not _lopsided(corners):
                continue
            # Looked for where the others (or the last frame) put it: seen through the lopsided corners
            # the print would be distorted too.
            others = {k: v for k, v in markers.items() if k != marker_id}
            predicted = _predicted_markers(others, self.plane_mm) if len(others) >= 2 else {}
            guesses = [predicted[marker_id]] if marker_id in predicted else []
            guesses += [self._last[marker_id]] if marker_id in self._last else []
            for expected in [*guesses, corners]:
                points = self._match(frame, marker_id, expected)
                if points is not None:
                    markers[marker_id] = points
                    break
        return markers

    def _match_missing(self, frame: Frame, markers: dict[int, Points], *, predict: bool = True) -> None:
        """Find missing markers by their print (match_marker): where each was last found, else (`predict`)
        where the found ones put it (PREDICTION_REACH). A marker whose black square touches something dark
        (a tile laid over a sheet's corner, its shadow) has no outline of its own for the detector."""
        progress = True
        while progress and len(markers) < len(CORNER_MARKER_IDS):
            progress = False
            predicted = _predicted_markers(markers, self.plane_mm) if predict and markers else {}
            reach = PREDICTION_REACH.get(len(markers), 1.0)
            missing = [i for i in CORNER_MARKER_IDS if i not in markers]
            # The nearest to a found marker first, and the others put again once it is found: a guess
            # from one marker is far off at the diagonal corner, and a match there is off by pixels.
            missing.sort(key=lambda i: _distance_to_found(predicted[i], markers) if i in predicted else 0.0)
            for marker_id in missing:
                guesses = [(self._last[marker_id], 1.0)] if marker_id in self._last else []
                guesses += [(predicted[marker_id], reach)] if marker_id in predicted else []
                for expected, sides in guesses:
                    points = self._match(frame, marker_id, expected, sides)
                    if points is not None:
                        markers[marker_id], progress = points, True
                        break
                if progress:
                    break

    def update_with(self, markers: dict[int, Points]) -> CalibrationResult:
        found = tuple(sorted(markers))
        if not markers:
            self._frames_without_markers += 1
            if self._frames_without_markers >= self.settings.lost_after_frames:
                self.state = "lost"
                self.homography = None
                return self._result(found, _markers_lost())
            return self._result(found, self._message())
        self._frames_without_markers = 0
        if self.homography is not None and self._agrees(markers):
            self.state = "calibrated"
            self._last.update(markers)
            return self._result(found, "")
        bumped = self.homography is not None
        # The camera moved, or has no homography yet: where markers were found before says nothing now.
        self._last = {}
        try:
            homography = plane_homography(markers, self.plane_mm)
        except CalibrationError as error:
            log.debug("calibration: %s", error)
            if bumped or self.state == "bumped":
                self.state, self.homography = "bumped", None
                return self._result(found, error.said or _camera_moved())
            self.state = "searching"
            return self._result(found, error.said or looking_for_markers())
        self.homography, self.state, self._last = homography, "calibrated", dict(markers)
        message = say("The camera moved and has found the corner markers again.") if bumped else ""
        return self._result(found, message, changed=True)

    def _agrees(self, markers: dict[int, Points]) -> bool:
        assert self.homography is not None
        ids = list(markers)
        centres = project(self.homography, [marker_centre(markers[i]) for i in ids])
        errors = [float(numpy.linalg.norm(centres[n] - self._targets[i])) for n, i in enumerate(ids)]
        return max(errors) <= self.settings.bump_tolerance_px

    def _message(self) -> str:
        if self.state == "bumped":
            return _camera_moved()
        if self.state == "lost":
            return _markers_lost()
        return "" if self.homography is not None else looking_for_markers()

    def _result(self, found: tuple[int, ...], message: str, *, changed: bool = False) -> CalibrationResult:
        return CalibrationResult(self.homography, self.state, message, found, changed)


# ---------------------------------------------------------------- the printable sheet


def marker_bits(marker_id: int) -> numpy.typing.NDArray[numpy.bool_]:
    """The marker's cells including its black border, True = black (6x6 for DICT_4X4_50)."""
    dictionary = aruco_dictionary()
    cells = int(dictionary.markerSize) + 2
    image = dictionary.generateImageMarker(marker_id, cells)
    bits: numpy.typing.NDArray[numpy.bool_] = numpy.asarray(image, dtype=numpy.uint8) == 0
    return bits


def marker_sheet_svg(side_mm: float = MARKER_SIDE_MM) -> str:
    """The printable A4 sheet of the four corner markers, each cut along its black square's outer edges
    so that it cannot be laid by the wrong edge (drawn by companion/vision/sheets.py, with the mats)."""
    from companion.vision.sheets import marker_sheet_svg as sheet

    return sheet(side_mm)


def render_marker(marker_id: int, side_px: int, quiet_px: int = 0) -> numpy.typing.NDArray[numpy.uint8]:
    """The marker as a grey image (black on white), with a white quiet zone around it."""
    bits = marker_bits(marker_id)
    cells = numpy.where(bits, 0, 255).astype(numpy.uint8)
    image = cv2.resize(cells, (side_px, side_px), interpolation=cv2.INTER_NEAREST)
    if quiet_px:
        pad = quiet_px
        image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    return numpy.asarray(image, dtype=numpy.uint8)
