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
from typing import Any, Literal

import cv2
import numpy
import numpy.typing

from companion.vision._marker_match import match_marker
from companion.vision.base import (
    ARUCO_DICTIONARY,
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    VisionError,
    marker_centres_mm,
)

Points = numpy.typing.NDArray[numpy.float32]
Homography = numpy.typing.NDArray[numpy.float64]

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


class CalibrationError(VisionError):
    """The markers cannot give a homography (missing, or placed so that they make no quadrilateral)."""


def aruco_dictionary() -> Any:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))


def _detector(window: int | None, constant: float) -> Any:
    parameters = cv2.aruco.DetectorParameters()
    # Corners are refined by us at full resolution, after detection on a smaller image.
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    parameters.adaptiveThreshConstant = constant
    if window is not None:
        parameters.adaptiveThreshWinSizeMin = parameters.adaptiveThreshWinSizeMax = window
    return cv2.aruco.ArucoDetector(aruco_dictionary(), parameters)


DETECTION_PASSES: tuple[tuple[int, int | None, float, int], ...] = (
    (2, 5, 20.0, 4),
    (2, 7, 20.0, 4),
    (2, None, 7.0, 4),
    (1, None, 7.0, 4),
)
"""(downscale, threshold window or None for OpenCV's three, threshold constant, run while fewer than this
many markers are found), tried in turn. The first passes find the markers in most frames in 1-3 ms: a
high threshold constant keeps only strong black-on-white edges, so the texture of pieces and table gives
few candidates. OpenCV's defaults at half and at full size (10-20 ms) catch markers in dim light, glare
or blur. All four are looked for even when three would do: with lens distortion, three markers' corners
extrapolate the fourth corner poorly (up to 20 mm off on a large board)."""


def _grey(frame: Frame) -> numpy.typing.NDArray[numpy.uint8]:
    if frame.ndim == 2:
        return frame
    return numpy.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), dtype=numpy.uint8)


NEAR_REACH = 0.8
"""How far (share of its side) the fourth marker's square may lie from where the other three put it: with
the lens's bending, three markers put a far fourth up to three quarters of its side off on hard frames."""


FOURTH_MARKER_REACH = 4.0
"""Once three markers are found, the later (slow) passes look for the fourth only within this many of its
sides around where the three put it (up to 0.75 of a side off on hard frames; see NEAR_REACH)."""
PAIR_REACH = 3.0
"""With two markers found, the later passes first look for the other two within this many sides around
where the two put them (two markers put them less surely: a third of a side off typically, several sides
at worst on hard frames); the whole image is searched only when no pass's windows find a third."""


TRACK_REACH = 1.0
"""With the camera at rest, each marker is looked for first within this many of its sides around where
it was last found (a bump moves it further: the whole image is searched then)."""


def _side(corners: numpy.typing.NDArray[numpy.floating[Any]]) -> float:
    """A marker's mean side in pixels, from its four corners."""
    return float(numpy.linalg.norm(corners - numpy.roll(corners, -1, axis=0), axis=1).mean())


LOPSIDED = 0.08
"""Opposite sides of a marker's found corners differing by more than this share of the longer: seen
through the lens a 30 mm marker's opposite sides differ by 5 % at most (shear, as from a rolling shutter,
keeps them equal); an outline that took in something dark beside the square, by 10-20 %."""


def _lopsided(corners: Points) -> bool:
    sides = numpy.linalg.norm(corners - numpy.roll(corners, -1, axis=0), axis=1)
    return any(abs(sides[k] - sides[k + 2]) > LOPSIDED * max(sides[k], sides[k + 2]) for k in (0, 1))


class MarkerFinder:
    """Finds the corner markers in a frame: id → its 4 corners (x, y) in frame pixels, clockwise from
    the marker's own top-left.

    Given the play area's size (`plane_mm`), a pass that starts with three markers found searches only a
    window around where they put the fourth: the slow passes then cost a tenth (on hard generated frames
    of a 9 x 7 Asterion board, the far marker often needs them: 10-15 ms on the whole frame). They find
    the same corners there: OpenCV's detection is local, and the window keeps the frame's size limits.
    A pass that starts with two first looks around where those two put the others (PAIR_REACH), and
    searches the whole image only if that leaves fewer than three: what it finds is what the whole
    image would give, and once three are found the fourth is looked for as above."""

    def __init__(
        self,
        passes: tuple[tuple[int, int | None, float, int], ...] = DETECTION_PASSES,
        plane_mm: tuple[float, float] | None = None,
    ) -> None:
        self.passes = [
            (scale, (window, constant), _detector(window, constant), wanted)
            for scale, window, constant, wanted in passes
        ]
        self.plane_mm = plane_mm
        self._criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.05)
        self._near_detector = _detector(None, 7.0)

    def find(self, frame: Frame) -> dict[int, Points]:
        grey = _grey(frame)
        found: dict[int, Points] = {}
        smaller: dict[int, Any] = {}

        def shrunk(scale: int) -> Any:
            if scale not in smaller:
                height, width = grey.shape[:2]
                smaller[scale] = (
                    grey
                    if scale == 1
                    else cv2.resize(grey, (width // scale, height // scale), interpolation=cv2.INTER_AREA)
                )
            return smaller[scale]

        start = 0
        while True:
            deferred: int | None = None
            for index in range(start, len(self.passes)):
                scale, settings, detector, wanted = self.passes[index]
                if len(found) >= wanted:
                    continue
                image = shrunk(scale)
                if self.plane_mm is not None and len(found) == 2:
                    for window in self._windows(found, image.shape[:2], scale, PAIR_REACH):
                        for marker_id, points in self._detect_within(settings, image, scale, window).items():
                            found.setdefault(marker_id, points)
                    if len(found) == 2:  # the whole image later, unless a later pass's windows find one
                        deferred = index if deferred is None else deferred
                        continue
                self._search(found, image, scale, settings, detector, wanted)
            if deferred is None or len(found) != 2:
                break
            # No window showed a third marker: the first pass put off searches the whole image after
            # all, and the passes after it go on from there.
            scale, settings, detector, wanted = self.passes[deferred]
            self._search(found, shrunk(scale), scale, settings, detector, wanted)
            start = deferred + 1
        return self._refined(grey, found)

    def _refined(self, grey: Any, found: dict[int, Points]) -> dict[int, Points]:
        if found:
            stacked = numpy.concatenate(list(found.values())).reshape(-1, 1, 2)
            # A corner found at half size may be off by a pixel or two here: search 7x7 around it.
            refined = cv2.cornerSubPix(grey, stacked, (3, 3), (-1, -1), self._criteria)
            for n, key in enumerate(found):
                found[key] = numpy.asarray(refined[4 * n : 4 * n + 4], dtype=numpy.float32).reshape(4, 2)
        return found

    def find_around(self, frame: Frame, last: dict[int, Points]) -> dict[int, Points]:
        """The markers found by the passes of `find`, each looked for only in a window around where it
        was `last` found (TRACK_REACH): with the camera at rest, the same markers at the same corners as
        the whole image gives (the detection is local), for a fiftieth of the pixels. A marker not in its
        window is missing here: the caller then searches the whole image."""
        height, width = frame.shape[:2]
        found: dict[int, Points] = {}
        for marker_id, corners in last.items():
            side = _side(corners)
            # The thresholding looks up to 11 px around each pixel at half size: keep 32 px clear of it.
            half = TRACK_REACH * side + 32
            centre = corners.mean(axis=0)
            # Even corners, so that halving the window halves the frame's own pixels (as `find` does).
            x0, y0 = max(0, int(centre[0] - half)) & ~1, max(0, int(centre[1] - half)) & ~1
            x1, y1 = min(width, int(centre[0] + half) + 1), min(height, int(centre[1] + half) + 1)
            if x1 - x0 < 16 or y1 - y0 < 16:
                continue
            window = _grey(frame[y0:y1, x0:x1])
            for scale, settings, _, _ in self.passes:
                part: Any = window
                if scale != 1:
                    size = ((x1 - x0) // scale, (y1 - y0) // scale)
                    part = cv2.resize(
                        window[: size[1] * scale, : size[0] * scale], size, interpolation=cv2.INTER_AREA
                    )
                detected = self._detect_part(settings, part, scale, (height // scale, width // scale))
                if marker_id in detected:
                    points = self._refined(window, {marker_id: detected[marker_id]})[marker_id]
                    found[marker_id] = points + numpy.array([x0, y0], dtype=numpy.float32)
                    break
        return found

    def find_near(
        self, frame: Frame, marker_id: int, expected: Points, *, unread: bool = True
    ) -> Points | None:
        """Look for one marker where the others say it is (`expected`: its corners in frame pixels, roughly),
        enlarged: a far marker is small and blurred. When its code cannot be read but (`unread`) a dark
        square of its size lies right there, that square is taken: its place is all the homography needs.
        Its corners in frame pixels (in the order of `expected`), or None."""
        grey = _grey(frame)
        height, width = grey.shape[:2]
        centre = expected.mean(axis=0)
        side = _side(expected)
        half = max(12.0, 2.0 * side)
        x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
        x1, y1 = min(width, int(centre[0] + half)), min(height, int(centre[1] + half))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        zoom = 3
        crop = cv2.resize(grey[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        corners, ids, rejected = self._near_detector.detectMarkers(crop)
        candidates = [
            quad.reshape(4, 2)
            for marker, quad in zip([] if ids is None else ids.ravel().tolist(), corners, strict=True)
            if marker == marker_id
        ]
        identified = len(candidates)
        candidates += [quad.reshape(4, 2) for quad in rejected] if unread else []
        offset = numpy.array([x0, y0], dtype=numpy.float32)
        best: Points | None = None
        best_rank = (2, 0.0)
        for n, quad in enumerate(candidates):
            points = ((quad.astype(numpy.float32) + 0.5) / zoom - 0.5 + offset).astype(numpy.float32)
            size = _side(points)
            if not 0.6 * side <= size <= 1.6 * side:
                continue
            middle = points.mean(axis=0)
            off = float(numpy.linalg.norm(middle - centre))
            if off > NEAR_REACH * side:
                continue
            # Put its corners in the expected order: each expected corner takes the nearest one, both
            # taken from their own centre (the square may lie a good part of its side off the guess).
            order = [
                int(numpy.argmin(numpy.linalg.norm(points - middle - (corner - centre), axis=1)))
                for corner in expected
            ]
            rank = (0 if n < identified else 1, off)
            if sorted(order) == [0, 1, 2, 3] and rank < best_rank:
                best, best_rank = points[order], rank
        if best is None:
            return None
        refined = cv2.cornerSubPix(grey, best.reshape(-1, 1, 2), (2, 2), (-1, -1), self._criteria)
        return numpy.asarray(refined, dtype=numpy.float32).reshape(4, 2)

    def _search(
        self,
        found: dict[int, Points],
        image: Any,
        scale: int,
        settings: tuple[int | None, float],
        detector: Any,
        wanted: int,
    ) -> None:
        """One pass: around the fourth marker when three are found, else on the whole image."""
        fourth = []
        if self.plane_mm is not None and len(found) == 3:
            fourth = self._windows(found, image.shape[:2], scale, FOURTH_MARKER_REACH)
        if fourth:
            detected = self._detect_within(settings, image, scale, fourth[0])
        elif len(found) < wanted:
            detected = self._detect(detector, image, scale)
        else:
            detected = {}
        for marker_id, points in detected.items():
            found.setdefault(marker_id, points)

    def _windows(
        self, found: dict[int, Points], shape: tuple[int, ...], scale: int, reach: float
    ) -> list[tuple[int, int, int, int]]:
        """Where a pass at `scale` looks for each missing marker, `reach` of its sides around where the
        found ones put it: (x0, y0, x1, y1) in that pass's image, empty when it lies out of view."""
        assert self.plane_mm is not None
        windows = []
        for expected in _predicted_markers(found, self.plane_mm).values():
            corners = expected / scale
            side = _side(corners)
            # The thresholding looks up to 11 px around each pixel: the window keeps 16 px clear of it.
            half = reach * side + 16
            centre = corners.mean(axis=0)
            height, width = shape[0], shape[1]
            x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
            x1, y1 = min(width, int(centre[0] + half) + 1), min(height, int(centre[1] + half) + 1)
            windows.append((x0, y0, x1, y1) if x1 - x0 >= 8 and y1 - y0 >= 8 else (0, 0, 0, 0))
        return windows

    def _detect_within(
        self, settings: tuple[int | None, float], image: Any, scale: int, window: tuple[int, int, int, int]
    ) -> dict[int, Points]:
        """`_detect` on a window of the image, with the pass's settings and the whole image's size limits
        (OpenCV takes a marker's least and greatest perimeter as a share of the image's longer side)."""
        x0, y0, x1, y1 = window
        if x1 <= x0 or y1 <= y0:
            return {}
        offset = numpy.array([x0, y0], dtype=numpy.float32)
        return {
            marker_id: points + offset * scale
            for marker_id, points in self._detect_part(
                settings, image[y0:y1, x0:x1], scale, image.shape
            ).items()
        }

    def _detect_part(
        self, settings: tuple[int | None, float], part: Any, scale: int, whole: tuple[int, ...]
    ) -> dict[int, Points]:
        """`_detect` on a part of an image of shape `whole`, keeping the whole image's size limits: OpenCV
        takes a marker's least and greatest perimeter as a share of the image's longer side. Corners in
        the part's pixels at full size."""
        detector = _detector(*settings)
        parameters = detector.getDetectorParameters()
        stretch = max(whole[:2]) / max(part.shape[:2])
        parameters.minMarkerPerimeterRate *= stretch
        parameters.maxMarkerPerimeterRate *= stretch
        detector.setDetectorParameters(parameters)
        return self._detect(detector, part, scale)

    @staticmethod
    def _detect(detector: Any, image: Any, scale: int) -> dict[int, Points]:
        corners, ids, _rejected = detector.detectMarkers(image)
        found: dict[int, Points] = {}
        if ids is None:
            return found
        for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
            if marker_id in CORNER_MARKER_IDS and marker_id not in found:
                # Pixel centres: a point at x in the small image is at (x + 0.5) * scale - 0.5 here.
                points = (quad.reshape(4, 2).astype(numpy.float32) + 0.5) * scale - 0.5
                found[marker_id] = points
        return found


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


def marker_corners_mm(plane_mm: tuple[float, float]) -> dict[int, Points]:
    """Each corner marker's own four corners (its TL, TR, BR, BL, as cv2.aruco reports them) in plane mm,
    for a marker laid upright (its arrow to the far side) in its corner square."""
    width, height = plane_mm
    side = MARKER_SIDE_MM
    origins = ((0.0, 0.0), (width - side, 0.0), (width - side, height - side), (0.0, height - side))
    square = numpy.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=numpy.float32)
    return {
        marker_id: square + numpy.array(origin, dtype=numpy.float32)
        for marker_id, origin in zip(CORNER_MARKER_IDS, origins, strict=True)
    }


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
            "top-left, top-right, bottom-right and bottom-left corners"
        )
    return numpy.asarray(cv2.getPerspectiveTransform(source, target), dtype=numpy.float64)


def _fit_found_markers(
    markers: dict[int, Points], targets: dict[int, Points]
) -> tuple[Homography | None, Points, Points]:
    """The homography from the found corner markers' frame corners to their places in the plane (pixels),
    None when they give no fit; with the corners it was fitted on (frame, plane)."""
    ids = [i for i in CORNER_MARKER_IDS if i in markers]
    source = numpy.concatenate([markers[i] for i in ids]).astype(numpy.float32)
    target = numpy.concatenate([targets[i] for i in ids]).astype(numpy.float32) * PLANE_PX_PER_MM
    found, _inliers = cv2.findHomography(source, target, 0)
    return (None if found is None else numpy.asarray(found, dtype=numpy.float64)), source, target


def _predicted_markers(markers: dict[int, Points], plane_mm: tuple[float, float]) -> dict[int, Points]:
    """Where the missing corner markers should be in the frame, from the corners of two or three found
    ones (laid upright): id → corners in frame pixels, roughly; empty when that gives no fit."""
    targets = marker_corners_mm(plane_mm)
    found, _, _ = _fit_found_markers(markers, targets)
    if found is None:
        return {}
    inverse = numpy.asarray(numpy.linalg.inv(found), dtype=numpy.float64)
    return {i: project(inverse, targets[i] * PLANE_PX_PER_MM) for i in CORNER_MARKER_IDS if i not in markers}


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


def project(homography: Homography, points: numpy.typing.ArrayLike) -> Points:
    array = numpy.asarray(points, dtype=numpy.float32).reshape(-1, 1, 2)
    return numpy.asarray(cv2.perspectiveTransform(array, homography), dtype=numpy.float32).reshape(-1, 2)


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
        if len(self._last) == len(CORNER_MARKER_IDS):
            markers = self._squared(frame, self.finder.find_around(frame, self._last))
            # A far or touched marker the passes miss in its window is found by its print, where it was.
            self._match_missing(frame, markers, predict=False)
            # Three where the homography puts them: the camera has not moved, so the fourth (under a
            # hand) is nowhere else, and the whole image would give the same calibration.
            if len(markers) == len(CORNER_MARKER_IDS) or (
                len(markers) >= 3 and self.homography is not None and self._agrees(markers)
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
                points = match_marker(frame, marker_id, expected)
                if points is not None:
                    markers[marker_id] = points
                    break
        return markers

    def _match_missing(self, frame: Frame, markers: dict[int, Points], *, predict: bool = True) -> None:
        """Find missing markers by their print (match_marker): where each was last found, else (`predict`)
        where two or three found ones put it. A marker whose black square touches something dark (a tile
        laid over a sheet's corner, its shadow) has no outline of its own for the detector."""
        progress = True
        while progress and len(markers) < len(CORNER_MARKER_IDS):
            progress = False
            predicted = _predicted_markers(markers, self.plane_mm) if predict and len(markers) >= 2 else {}
            for marker_id in CORNER_MARKER_IDS:
                if marker_id in markers:
                    continue
                guesses = [self._last[marker_id]] if marker_id in self._last else []
                guesses += [predicted[marker_id]] if marker_id in predicted else []
                for expected in guesses:
                    points = match_marker(frame, marker_id, expected)
                    if points is not None:
                        markers[marker_id], progress = points, True
                        break

    def update_with(self, markers: dict[int, Points]) -> CalibrationResult:
        found = tuple(sorted(markers))
        if not markers:
            self._frames_without_markers += 1
            if self._frames_without_markers >= self.settings.lost_after_frames:
                self.state = "lost"
                self.homography = None
                return self._result(found, "markers lost: the camera sees none of the table's corner markers")
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
            if bumped or self.state == "bumped":
                self.state, self.homography = "bumped", None
                return self._result(found, f"camera moved: looking for the markers again ({error})")
            self.state = "searching"
            return self._result(found, f"calibrating: {error}")
        self.homography, self.state, self._last = homography, "calibrated", dict(markers)
        message = "camera moved: found the markers again" if bumped else ""
        return self._result(found, message, changed=True)

    def _agrees(self, markers: dict[int, Points]) -> bool:
        assert self.homography is not None
        ids = list(markers)
        centres = project(self.homography, [marker_centre(markers[i]) for i in ids])
        errors = [float(numpy.linalg.norm(centres[n] - self._targets[i])) for n, i in enumerate(ids)]
        return max(errors) <= self.settings.bump_tolerance_px

    def _message(self) -> str:
        if self.state == "bumped":
            return "camera moved: looking for the markers again"
        if self.state == "lost":
            return "markers lost: the camera sees none of the table's corner markers"
        return "" if self.homography is not None else "calibrating: looking for the corner markers"

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
