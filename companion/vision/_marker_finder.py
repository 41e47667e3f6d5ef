"""Finding the corner markers in a frame: OpenCV's detector in passes from cheap to thorough, on the whole
image or in windows where the markers should be (calibration.py uses it; names re-exported there)."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    ARUCO_DICTIONARY,
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
)

Points = numpy.typing.NDArray[numpy.float32]
Homography = numpy.typing.NDArray[numpy.float64]


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


def _sides(corners: numpy.typing.NDArray[numpy.floating[Any]]) -> list[float]:
    """A marker's four sides in pixels, from its four corners (in plain Python: numpy's calls cost ten
    times as much on four points, and this runs for every marker of every frame)."""
    points = corners.tolist()
    return [math.dist(points[k], points[(k + 1) % 4]) for k in range(4)]


def _side(corners: numpy.typing.NDArray[numpy.floating[Any]]) -> float:
    """A marker's mean side in pixels, from its four corners."""
    return sum(_sides(corners)) / 4


LOPSIDED = 0.08
"""Opposite sides of a marker's found corners differing by more than this share of the longer: seen
through the lens a 30 mm marker's opposite sides differ by 5 % at most (shear, as from a rolling shutter,
keeps them equal); an outline that took in something dark beside the square, by 10-20 %."""


def _lopsided(corners: Points) -> bool:
    sides = _sides(corners)
    return any(abs(sides[k] - sides[k + 2]) > LOPSIDED * max(sides[k], sides[k + 2]) for k in (0, 1))


STILL_SCORE = 0.9
"""Least normalised correlation of a marker's neighbourhood with the same neighbourhood when it was found,
to take the marker as still there (`Snapshot.still`). At rest, under the sensor's noise and the lamps'
and exposure's changes from frame to frame, it scores 0.9-1.0 on hard generated frames (a dim table's
low contrast at the least); a finger over a part of the marker 0.6-0.85; a move of a pixel or more puts
the best correlation off its place."""


class Snapshot:
    """A marker's neighbourhood (grey, full size) where it was found, to tell cheaply in a later frame that
    it has not moved: with the camera at rest, one small correlation instead of the detector's passes."""

    def __init__(self, frame: Frame, corners: Points) -> None:
        height, width = frame.shape[:2]
        margin = max(3.0, 0.15 * _side(corners))
        low = numpy.floor(corners.min(axis=0) - margin).astype(int)
        high = numpy.ceil(corners.max(axis=0) + margin).astype(int)
        # One pixel clear of the frame's edges: the neighbourhood is also compared shifted a pixel.
        x0, y0 = int(max(1, low[0])), int(max(1, low[1]))
        x1, y1 = int(min(width - 1, high[0] + 1)), int(min(height - 1, high[1] + 1))
        self.box = (x0, y0, x1, y1)
        self.corners = corners.copy()
        self.patch = _grey(numpy.ascontiguousarray(frame[y0:y1, x0:x1])) if x1 > x0 and y1 > y0 else None

    def still(self, frame: Frame, corners: Points) -> bool:
        """The marker at `corners` (as found when this was taken) looks the same in `frame`, unmoved: the
        neighbourhood correlates at STILL_SCORE or more, and better in place than shifted a pixel any way
        (then it moved by less than half a pixel)."""
        if self.patch is None or min(self.patch.shape) < 8 or not numpy.array_equal(corners, self.corners):
            return False
        x0, y0, x1, y1 = self.box
        if frame.shape[0] <= y1 or frame.shape[1] <= x1:
            return False
        around = _grey(numpy.ascontiguousarray(frame[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1]))
        scores = cv2.matchTemplate(around, self.patch, cv2.TM_CCOEFF_NORMED)
        _low, high, _at_low, at = cv2.minMaxLoc(scores)
        return bool(high >= STILL_SCORE and at == (1, 1))


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
        self._snapshots: dict[int, Snapshot] = {}
        """Each marker's neighbourhood where `find_around` last found it by the detector."""

    def forget(self) -> None:
        """Forget where the markers were seen (`find_around` then runs the detector on each afresh)."""
        self._snapshots.clear()

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
            snapshot = self._snapshots.get(marker_id)
            if snapshot is not None and snapshot.still(frame, corners):
                # Unmoved since the detector found it at these very corners: the same corners (to the
                # noise's hundredths of a pixel), for a twentieth of the detector's time.
                found[marker_id] = corners
                continue
            self._snapshots.pop(marker_id, None)
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
                    self._snapshots[marker_id] = Snapshot(frame, found[marker_id])
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


def project(homography: Homography, points: numpy.typing.ArrayLike) -> Points:
    array = numpy.asarray(points, dtype=numpy.float32).reshape(-1, 1, 2)
    return numpy.asarray(cv2.perspectiveTransform(array, homography), dtype=numpy.float32).reshape(-1, 2)
