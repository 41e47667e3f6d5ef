"""Setting the camera up: what it sees of the play area, and plain words for whatever is off.

`SetupView.look(frame)` finds the corner markers, keeps the homography across frames (a `Calibrator`,
so a bumped camera shows as such), and checks what the host can fix at the table:

- each marker found or missing, by its corner's name;
- a marker that does not lie where the other three put it (moved, turned, or laid by the wrong edge);
- the light: too dark, too flat, or glare blowing parts of the play area out to white;
- the horn figure moved since the empty table was taken (toss): its horns' regions then differ
  strongly from that picture, while the light is the same (each region compared after a gain);
- the camera too high or tilted too far for the game's finest print: the table's millimetres per frame
  pixel where the picture is coarsest, against what the game's hard generated sets read right at.

`SetupView.draw(frame, report)` draws all of it on the camera's picture (companion/vision/overlay.py).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

import cv2
import numpy

from companion.vision.base import (
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    Recogniser,
    VisionError,
    recogniser_for,
)
from companion.vision.calibration import (
    CORNER_NAMES,
    CalibrationResult,
    CalibrationSettings,
    Calibrator,
    Homography,
    Points,
    marker_corners_mm,
    project,
    warp_plane,
)
from companion.vision.components import COARSEST_MM_PER_PX
from companion.vision.overlay import (
    GREEN,
    RED,
    YELLOW,
    checked_image,
    draw_items,
    draw_label,
    draw_outline,
    label_scale,
    line_width,
    plane_to_frame,
    project_layout,
)
from companion.vision.pose import PoseError, raised_homography

DARK_WHITE = 90.0
"""The grey level (0-255) of the markers' white paper below which the table is too dark. The paper is the
light meter: its level measures the light on the table whatever the board's own colours (a dark Minos
board is read right at a mean level of 38; its paper was never below 165 on hard generated frames). Below
this, sensor noise swamps the few grey levels between a piece and the table, and exposures run long."""
FLAT_CONTRAST = 60.0
"""The difference between the markers' white paper and their black print below which the picture is too
flat (fog, a dirty lens, backlight): 165 or more on hard generated frames."""
GLARE_LEVEL = 250
"""A grey level at or above this is blown out: the sensor is saturated, and no colour can be read there."""
GLARE_SHARE = 0.05
"""More than this share of the play area blown out is too much glare: a lamp's reflection on a glossy
board then covers several cells, whose pieces cannot be read (hard generated frames, read right, have up
to 4%)."""
MARKER_OFF_SHARE = 0.25
"""A marker this share of its side (7.5 mm) from where the other three put it lies moved, turned, or laid
by the paper's edge instead of the black square's (a 4 mm white margin puts it 6 mm off diagonally...
together with the printer's own margin, more); the lens bends a far marker by a tenth of a side at most."""
FIGURE_MOVED_LEVEL = 30.0
"""The mean grey difference (0-255, after a gain for the light) over a horn's region, from the empty
table's picture, above which the figure no longer stands where it did: a ring over a horn changes a
thin annulus, well under this on average; a figure moved by a horn's width changes most of the region."""


class SetupError(VisionError):
    """The setup view cannot do what was asked (no picture, no markers for the empty table's picture)."""


@dataclasses.dataclass(frozen=True)
class MarkerView:
    marker_id: int
    name: str
    corners: Points | None
    """Where it was found (frame pixels), or None when missing."""

    @property
    def found(self) -> bool:
        return self.corners is not None


@dataclasses.dataclass(frozen=True)
class Light:
    paper_white: float
    """The markers' white paper's grey level (the frame's brightest tenth without markers)."""
    contrast: float
    """The markers' white minus their black (the frame's brightest tenth minus its darkest without)."""
    glare_share: float
    """The share of the play area (the frame without a homography) blown out to white."""


@dataclasses.dataclass(frozen=True)
class SetupReport:
    calibration: CalibrationResult
    markers: tuple[MarkerView, ...]
    light: Light
    messages: tuple[str, ...]
    outlines: dict[str, Points]
    """Each item's outline in frame pixels (empty without a homography)."""
    predicted: dict[int, Points]
    """Where each missing marker should lie (frame pixels), when a homography says."""
    mm_per_px: float | None = None
    """The play area's millimetres per frame pixel where the camera sees it coarsest (None without a
    homography)."""

    @property
    def ok(self) -> bool:
        return not self.messages

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.calibration.state,
            "calibrated": self.calibration.homography is not None,
            "markers": [{"id": m.marker_id, "name": m.name, "found": m.found} for m in self.markers],
            "light": {
                "paper_white": round(self.light.paper_white, 1),
                "contrast": round(self.light.contrast, 1),
                "glare_share": round(self.light.glare_share, 4),
            },
            "items": len(self.outlines),
            "mm_per_px": None if self.mm_per_px is None else round(self.mm_per_px, 2),
            "messages": list(self.messages),
            "ok": self.ok,
        }


def measure_light(frame: Frame, markers: Mapping[int, Points], area: Frame) -> Light:
    """The light, measured on the markers' paper and print (on the whole frame when none is found), and
    the glare on `area` (the plane, or the frame)."""
    grey = cv2.cvtColor(checked_image(frame), cv2.COLOR_BGR2GRAY)
    whites, blacks = [], []
    for corners in markers.values():
        mask = numpy.zeros(grey.shape, numpy.uint8)
        cv2.fillConvexPoly(mask, numpy.round(corners).astype(numpy.int32), 1)
        levels = grey[mask > 0]
        if levels.size:
            whites.append(float(numpy.percentile(levels, 90)))
            blacks.append(float(numpy.percentile(levels, 10)))
    if not whites:
        whites, blacks = [float(numpy.percentile(grey, 90))], [float(numpy.percentile(grey, 10))]
    white, black = float(numpy.median(whites)), float(numpy.median(blacks))
    area_grey = cv2.cvtColor(checked_image(area), cv2.COLOR_BGR2GRAY)
    blown = float(numpy.count_nonzero(area_grey >= GLARE_LEVEL)) / max(1, area_grey.size)
    return Light(white, white - black, blown)


def light_messages(light: Light) -> list[str]:
    messages = []
    if light.paper_white < DARK_WHITE:
        messages.append(
            f"Too dark: the markers' white paper shows at {light.paper_white:.0f} of 255 (at least "
            f"{DARK_WHITE:.0f} is needed). Turn a lamp on over the table."
        )
    elif light.contrast < FLAT_CONTRAST:
        messages.append(
            f"The picture is flat (the markers' black and white differ by {light.contrast:.0f}, at least "
            f"{FLAT_CONTRAST:.0f} is needed): clean the lens, or keep light from shining into the camera."
        )
    if light.glare_share > GLARE_SHARE:
        messages.append(
            f"Too much glare: {100 * light.glare_share:.1f}% of the play area is blown out to white (at most "
            f"{100 * GLARE_SHARE:.0f}%). Move or tilt the lamp so that it does not shine into the camera."
        )
    return messages


def misplaced_marker(
    markers: Mapping[int, Points], plane_mm: tuple[float, float]
) -> tuple[int, float] | None:
    """With all four markers found: the one that lies off where the other three put it, and by how many
    mm (None when they agree). The three that agree best among themselves judge the fourth, so one moved
    marker does not make a good one look moved."""
    if any(marker_id not in markers for marker_id in CORNER_MARKER_IDS):
        return None
    targets = marker_corners_mm(plane_mm)
    best: tuple[float, int, float] | None = None
    for left_out in CORNER_MARKER_IDS:
        others = [i for i in CORNER_MARKER_IDS if i != left_out]
        source = numpy.concatenate([markers[i] for i in others]).astype(numpy.float32)
        target = numpy.concatenate([targets[i] for i in others]).astype(numpy.float32) * PLANE_PX_PER_MM
        fit, _ = cv2.findHomography(source, target, 0)
        if fit is None:
            continue
        homography = numpy.asarray(fit, dtype=numpy.float64)
        residual = float(numpy.abs(project(homography, source) - target).max())
        placed = project(homography, markers[left_out])
        off = float(numpy.linalg.norm(placed - targets[left_out] * PLANE_PX_PER_MM, axis=1).max())
        if best is None or residual < best[0]:
            best = (residual, left_out, off / PLANE_PX_PER_MM)
    if best is None or best[2] <= MARKER_OFF_SHARE * MARKER_SIDE_MM:
        return None
    return best[1], best[2]


def coarsest_mm_per_px(homography: Homography, plane_mm: tuple[float, float]) -> float:
    """The play area's millimetres per frame pixel where the camera sees it coarsest: over a grid of the
    area, in the direction a pixel covers most (a tilted camera foreshortens its far edge along the line
    of sight first). `homography` maps frame pixels to plane pixels."""
    to_frame = numpy.linalg.inv(numpy.asarray(homography, dtype=numpy.float64))
    width, height = plane_mm
    xs, ys = numpy.meshgrid(numpy.linspace(0.0, width, 5), numpy.linspace(0.0, height, 5))
    points = numpy.stack([xs.ravel(), ys.ravel(), numpy.ones(xs.size)]) * [
        [PLANE_PX_PER_MM],
        [PLANE_PX_PER_MM],
        [1],
    ]
    seen = to_frame @ points
    depth = seen[2]
    at = seen[:2] / depth
    coarsest = 0.0
    for n in range(points.shape[1]):
        # The projective map's derivative: frame pixels per plane pixel, then per millimetre.
        jacobian = (to_frame[:2, :2] - numpy.outer(at[:, n], to_frame[2, :2])) / depth[n] * PLANE_PX_PER_MM
        finest_direction = float(numpy.linalg.svd(jacobian, compute_uv=False).min())
        coarsest = max(coarsest, 1.0 / max(finest_direction, 1e-9))
    return coarsest


def detail_messages(game: str, mm_per_px: float) -> list[str]:
    limit = COARSEST_MM_PER_PX.get(game)
    if limit is None or mm_per_px <= limit:
        return []
    return [
        f"The camera is too far for this game's print: it sees {mm_per_px:.2f} mm of table per pixel where "
        f"the picture is coarsest, and needs {limit:.1f} or finer. Lower the camera, tilt it less, or use "
        "the standard lens instead of the wide one (docs/camera.md gives the heights)."
    ]


def _gain_difference(now: Frame, then: Frame) -> float:
    """Mean grey difference of two crops after matching their brightness (a dimmed lamp is no move)."""
    a = cv2.cvtColor(now, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    b = cv2.cvtColor(then, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    gain = float(b.mean()) / max(1.0, float(a.mean()))
    return float(numpy.abs(a * gain - b).mean())


class SetupView:
    """The setup view of one game's play area, kept across the frames the phone asks for."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        *,
        recogniser: Recogniser | None = None,
        settings: CalibrationSettings | None = None,
    ) -> None:
        self.game = game
        self.recogniser = recogniser or recogniser_for(game)
        self.layout: Layout = self.recogniser.layout(options)
        self.calibrator = Calibrator(self.layout.plane_mm, settings)
        self.empty_plane: Frame | None = None
        """The plane when the host took the empty table (the figure's place is judged against it)."""
        self.lock = threading.Lock()

    def look(self, frame: Frame) -> SetupReport:
        image = checked_image(frame)
        found = self.calibrator.find_markers(image)
        calibration = self.calibrator.update_with(found)
        markers = tuple(
            MarkerView(marker_id, CORNER_NAMES[n], found.get(marker_id))
            for n, marker_id in enumerate(CORNER_MARKER_IDS)
        )
        messages: list[str] = []
        if calibration.state == "bumped":
            messages.append(
                "The camera (or a marker) moved: the companion is finding the markers again. "
                "Keep the camera and the markers still."
            )
        for marker in markers:
            if not marker.found:
                messages.append(
                    f"The {marker.name} marker (id {marker.marker_id}) is not seen: is it covered, in "
                    "shadow, or outside the picture?"
                )
        off = misplaced_marker(found, self.layout.plane_mm)
        if off is not None:
            name = CORNER_NAMES[CORNER_MARKER_IDS.index(off[0])]
            messages.append(
                f"The {name} marker lies {off[1]:.0f} mm from where the other three put it: lay it square in "
                "its corner, the black square's outer edges along the play area's edges."
            )
        if calibration.homography is None and len(found) >= 3:
            messages.append(calibration.message or "The markers give no view of the play area.")
        outlines: dict[str, Points] = {}
        predicted: dict[int, Points] = {}
        plane: Frame | None = None
        mm_per_px: float | None = None
        if calibration.homography is not None:
            size = (image.shape[1], image.shape[0])
            outlines = project_layout(self.layout, calibration.homography, size)
            corners_mm = marker_corners_mm(self.layout.plane_mm)
            predicted = {
                m.marker_id: plane_to_frame(calibration.homography, corners_mm[m.marker_id])
                for m in markers
                if not m.found
            }
            plane, seen_through = self._plane_and_homography(image, calibration.homography)
            mm_per_px = coarsest_mm_per_px(seen_through, self.layout.plane_mm)
            messages += detail_messages(self.game, mm_per_px)
        light = measure_light(image, found, plane if plane is not None else image)
        messages += light_messages(light)
        if plane is not None:
            messages += self._figure_messages(plane)
        return SetupReport(calibration, markers, light, tuple(messages), outlines, predicted, mm_per_px)

    def _figure_messages(self, plane: Frame) -> list[str]:
        horns = [item for item in self.layout.items if item.startswith("horn:")]
        if self.empty_plane is None or not horns or self.empty_plane.shape != plane.shape:
            return []
        moved = [
            item.split(":", 1)[1]
            for item in horns
            if _gain_difference(self.layout.crop(plane, item), self.layout.crop(self.empty_plane, item))
            > FIGURE_MOVED_LEVEL
        ]
        if not moved:
            return []
        return [
            "The horn figure is not where it stood when the empty table was taken (the "
            f"{' and '.join(moved)} horn): put it back in its place, or take the empty table again "
            "if it is meant to stand here."
        ]

    def _plane_and_homography(self, image: Frame, homography: Homography) -> tuple[Frame, Homography]:
        """The plane the recogniser reads, and the homography it is seen through: at the layout's height
        above the markers (the toss figure's head) when it has one, through the camera pose; the markers'
        own when no pose can be had."""
        if self.layout.raised_mm:
            try:
                size = (image.shape[1], image.shape[0])
                homography = raised_homography(homography, self.layout.plane_mm, size, self.layout.raised_mm)
            except PoseError:
                pass
        return warp_plane(image, homography, self.layout), homography

    def remember_empty(self, frame: Frame) -> None:
        """Keep the present plane as the empty table (SetupError when the markers give none)."""
        image = checked_image(frame)
        calibration = self.calibrator.update(image)
        if calibration.homography is None:
            why = calibration.message or "the corner markers are not in view"
            raise SetupError(f"cannot take the empty table: {why}")
        self.empty_plane, _ = self._plane_and_homography(image, calibration.homography)

    def draw(self, frame: Frame, report: SetupReport) -> Frame:
        """The frame with every item outlined where the companion looks, and every marker found (green)
        or missing (red, where it should lie when the others say), each with its corner's name."""
        image = checked_image(frame).copy()
        width, scale = line_width(image), label_scale(image)
        draw_items(image, report.outlines)
        height, frame_width = image.shape[:2]
        # Without a homography, a missing marker is named in its corner of the picture.
        corner_spots = ((0.12, 0.06), (0.88, 0.06), (0.88, 0.94), (0.12, 0.94))
        for n, marker in enumerate(report.markers):
            corners = marker.corners if marker.corners is not None else report.predicted.get(marker.marker_id)
            colour = GREEN if marker.found else RED
            text = f"{marker.name} {'found' if marker.found else 'missing'}"
            if corners is None:
                spot = (corner_spots[n][0] * frame_width, corner_spots[n][1] * height)
                draw_label(image, text, spot, colour, scale)
                continue
            draw_outline(image, corners, colour, 2 * width)
            # Names go outside the play area (above the top markers, below the bottom ones), clear of
            # the items' outlines, but stay in the picture.
            gap = 30 * scale
            y = corners[:, 1].min() - gap if n < 2 else corners[:, 1].max() + gap
            y = min(max(y, gap), height - gap)
            draw_label(image, text, (float(corners[:, 0].mean()), float(y)), colour, scale)
        if report.outlines and not report.ok:
            draw_label(image, "see the messages", (frame_width / 2, 0.04 * height), YELLOW, scale)
        return image
