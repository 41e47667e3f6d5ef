"""The four marker sheets on the table: cut from the printed page, laid in the play area's corners.

The printed page (calibration.marker_sheet_svg) has each marker's black square inside a dashed
cut line two marker cells (10 mm) outside it: a cut-out sheet is white paper with that margin all
round. Laid as the sheet asks, the black square's outer edges lie on the play area's edges (the
paper sticks out beyond them). Laid by the wrong edge, the paper's cut edge lies on the play
area's edge, so the black square sits a margin further in, and a sheet pushed against an edge by
hand is seldom quite square to it. Either way the items lie where they lie: the truth is the same.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy
import numpy.typing

from companion.vision.base import ARUCO_DICTIONARY, CORNER_MARKER_IDS, MARKER_SIDE_MM, Frame, VisionError

Rng = numpy.random.Generator
FloatArray = numpy.typing.NDArray[numpy.float64]

SHEET_MARGIN_MM = 10.0
"""White paper from the black square to the sheet's cut edge (two of the marker's six cells)."""
PLACEMENTS = ("square-edge", "cut-edge")
"""As the sheet asks (the black square on the edge), or by the paper's cut edge."""
PAPER_BGR = (236, 240, 241)
_INWARD = ((1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0))
"""From each plane corner (TL, TR, BR, BL) into the play area."""


class PlacementError(VisionError):
    """An unknown way of laying the marker sheets."""


@dataclasses.dataclass(frozen=True)
class PlacedSheet:
    """One sheet on the table: its paper's corners and its marker's (TL, TR, BR, BL of the marker
    as printed, which cv2.aruco reports in that order), in world mm."""

    marker_id: int
    paper_mm: FloatArray
    marker_mm: FloatArray


def place_sheets(plane_mm: tuple[float, float], placement: str, rng: Rng) -> list[PlacedSheet]:
    """The four sheets laid at the plane's corners the given way, with a hand's small errors."""
    if placement not in PLACEMENTS:
        raise PlacementError(f"no marker placement {placement!r} (known: {', '.join(PLACEMENTS)})")
    width, height = plane_mm
    corners = ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))
    side, margin = MARKER_SIDE_MM, SHEET_MARGIN_MM
    sheets = []
    for marker_id, corner, inward in zip(CORNER_MARKER_IDS, corners, _INWARD, strict=True):
        direction = numpy.array(inward)
        # The black square's inner offsets from the corner, along each axis (into the area).
        inset = margin if placement == "cut-edge" else 0.0
        near, far = inset, inset + side
        xs = sorted((corner[0] + direction[0] * near, corner[0] + direction[0] * far))
        ys = sorted((corner[1] + direction[1] * near, corner[1] + direction[1] * far))
        marker = numpy.array([[xs[0], ys[0]], [xs[1], ys[0]], [xs[1], ys[1]], [xs[0], ys[1]]])
        paper = marker + numpy.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * margin
        turn, shift = (3.0, 1.5) if placement == "cut-edge" else (1.0, 0.5)
        angle = math.radians(rng.uniform(-turn, turn))
        rotation = numpy.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        offset = rng.uniform(-shift, shift, 2)

        # Turned about the play area's corner, where the hand lines the sheet up.
        both = (numpy.concatenate([paper, marker]) - corner) @ rotation.T + corner + offset
        sheets.append(PlacedSheet(marker_id, both[:4], both[4:]))
    return sheets


@functools.cache
def _marker_image(marker_id: int, cell_px: int) -> Frame:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    grey = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * cell_px)
    return numpy.ascontiguousarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))


def draw_sheets(
    ground: Frame, origin_mm: tuple[float, float], px_per_mm: float, sheets: list[PlacedSheet]
) -> None:
    """Lay the sheets onto the ground texture (pixel (0, 0) at `origin_mm`), paper then print."""
    for sheet in sheets:
        paper = (sheet.paper_mm - origin_mm) * px_per_mm
        cv2.fillPoly(ground, [numpy.round(paper * 16).astype(numpy.int32)], PAPER_BGR, cv2.LINE_AA, shift=4)
        marker = _marker_image(sheet.marker_id, 20)
        target = (sheet.marker_mm - origin_mm) * px_per_mm
        x0, y0 = numpy.floor(target.min(axis=0)).astype(int) - 2
        x1, y1 = numpy.ceil(target.max(axis=0)).astype(int) + 2
        if x0 < 0 or y0 < 0 or x1 > ground.shape[1] or y1 > ground.shape[0]:
            continue  # off the stretch of table drawn: the camera cannot see it either
        side = marker.shape[0]
        # Pixel centres at whole coordinates: the print's outer edges are half a pixel outside them.
        source = numpy.array([[0, 0], [side, 0], [side, side], [0, side]], numpy.float32) - 0.5
        transform = cv2.getPerspectiveTransform(source, (target - (x0, y0)).astype(numpy.float32))
        size = (int(x1 - x0), int(y1 - y0))
        printed = cv2.warpPerspective(marker, transform, size, flags=cv2.INTER_AREA)
        cover = cv2.warpPerspective(
            numpy.ones((side, side), numpy.float32), transform, size, flags=cv2.INTER_LINEAR
        )
        region = ground[y0:y1, x0:x1].astype(numpy.float32)
        mixed = region * (1 - cover[..., None]) + printed.astype(numpy.float32) * cover[..., None]
        ground[y0:y1, x0:x1] = numpy.clip(mixed, 0, 255).astype(numpy.uint8)
