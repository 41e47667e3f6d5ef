"""The generator's camera: markers at the plane's corners, a table around it, perspective and lens.

Marker geometry (base.MARKER_SIDE_MM, as the calibration expects): marker id i
of DICT_4X4_50 is a square whose outer corner lies on plane corner i (0 top-left,
1 top-right, 2 bottom-right, 3 bottom-left), inside the play area, upright, on a
white sheet with a white border of `MARKER_BORDER_MM`.
"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    ARUCO_DICTIONARY,
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Layout,
)

Rng = numpy.random.Generator
FloatArray = numpy.typing.NDArray[numpy.float64]

MARKER_BORDER_MM = 4.0
TABLE_MARGIN_MM = 60.0
"""Table drawn around the plane, so that the frame shows more than the play area."""


def marker_corners_mm(plane_mm: tuple[float, float]) -> dict[int, FloatArray]:
    """Each corner marker's four corners (its own TL, TR, BR, BL, as cv2.aruco reports them), in plane mm."""
    width, height = plane_mm
    size = MARKER_SIDE_MM
    origins = ((0.0, 0.0), (width - size, 0.0), (width - size, height - size), (0.0, height - size))
    square = numpy.array([[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]])
    return {
        marker_id: square + numpy.array(origin)
        for marker_id, origin in zip(CORNER_MARKER_IDS, origins, strict=True)
    }


@functools.cache
def _marker_image(marker_id: int, side_px: int) -> Frame:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    grey = cv2.aruco.generateImageMarker(dictionary, marker_id, side_px)
    return numpy.ascontiguousarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))


def draw_markers(image: Frame, plane_mm: tuple[float, float], origin_px: tuple[int, int] = (0, 0)) -> None:
    """Print the four corner markers on their white sheets onto the image whose plane starts at origin_px.

    The sheet's white border lies partly outside the plane, as a printed marker laid at the corner does.
    """
    scale = PLANE_PX_PER_MM
    side = round(MARKER_SIDE_MM * scale)
    border = round(MARKER_BORDER_MM * scale)
    height, width = image.shape[:2]
    for marker_id, corners in marker_corners_mm(plane_mm).items():
        x0, y0 = (round(v * scale) + o for v, o in zip(corners[0], origin_px, strict=True))
        sheet_x0, sheet_y0 = max(0, x0 - border), max(0, y0 - border)
        sheet_x1, sheet_y1 = min(width, x0 + side + border), min(height, y0 + side + border)
        image[sheet_y0:sheet_y1, sheet_x0:sheet_x1] = (236, 240, 240)
        image[y0 : y0 + side, x0 : x0 + side] = _marker_image(marker_id, side)


@dataclasses.dataclass(frozen=True)
class Table:
    """The plane with markers, on a stretch of table: the scene the camera looks at."""

    image: Frame
    plane_origin_px: tuple[int, int]
    plane_size_px: tuple[int, int]

    def plane_corners_px(self) -> FloatArray:
        x0, y0 = self.plane_origin_px
        w, h = self.plane_size_px
        return numpy.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], dtype=numpy.float64)


def lay_on_table(plane: Frame, layout: Layout, rng: Rng) -> Table:
    """The plane with its markers, surrounded by table continuing the plane's own edge colour."""
    margin = round(TABLE_MARGIN_MM * PLANE_PX_PER_MM)
    edge = numpy.concatenate([plane[0], plane[-1], plane[:, 0], plane[:, -1]]).astype(numpy.float64)
    colour = numpy.median(edge, axis=0)
    height, width = plane.shape[:2]
    image = numpy.empty((height + 2 * margin, width + 2 * margin, 3), dtype=numpy.uint8)
    coarse = rng.normal(0.0, 6.0, size=(image.shape[0] // 8 + 1, image.shape[1] // 8 + 1))
    grain = cv2.resize(coarse, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    image[:] = numpy.clip(colour + grain[..., None], 0, 255).astype(numpy.uint8)
    image[margin : margin + height, margin : margin + width] = plane
    draw_markers(image, layout.plane_mm, (margin, margin))
    return Table(image, (margin, margin), (width, height))


@dataclasses.dataclass(frozen=True)
class Pose:
    """Where the camera sees the table: a homography and a radial lens distortion."""

    homography: FloatArray
    """Table image pixels → undistorted camera pixels."""
    k1: float
    k2: float
    focal_px: float
    frame_size: tuple[int, int]
    plane_quad: FloatArray
    """The plane's corners in the (undistorted) camera frame, for placing hands and the like."""


def random_pose(table: Table, rng: Rng, *, hard: bool, frame_size: tuple[int, int]) -> Pose:
    """A camera above the table: the plane fills much of the frame, seen a little (hard: more) askew."""
    frame_w, frame_h = frame_size
    plane_w, plane_h = table.plane_size_px
    source = table.plane_corners_px()
    tilt = 0.12 if hard else 0.07
    turn = 10.0 if hard else 4.0
    for _ in range(200):
        fill = rng.uniform(0.55, 0.9) if hard else rng.uniform(0.62, 0.86)
        scale = fill * min(frame_w / plane_w, frame_h / plane_h)
        angle = numpy.deg2rad(rng.uniform(-turn, turn))
        rotation = numpy.array([[numpy.cos(angle), -numpy.sin(angle)], [numpy.sin(angle), numpy.cos(angle)]])
        half = numpy.array(
            [[-plane_w, -plane_h], [plane_w, -plane_h], [plane_w, plane_h], [-plane_w, plane_h]]
        )
        quad = (half / 2 * scale) @ rotation.T
        quad += rng.uniform(-tilt, tilt, size=(4, 2)) * numpy.array([plane_w, plane_h]) * scale
        centre = numpy.array([frame_w / 2, frame_h / 2]) + rng.uniform(-0.06, 0.06, 2) * (frame_w, frame_h)
        quad += centre
        inset = 40.0  # the markers' white border and some table stay in view
        inside = (quad[:, 0].min() > inset and quad[:, 0].max() < frame_w - inset) and (
            quad[:, 1].min() > inset and quad[:, 1].max() < frame_h - inset
        )
        if inside and _convex(quad):
            break
    else:  # pragma: no cover - the ranges above always leave room
        raise RuntimeError("no camera pose keeps the plane in the frame")
    homography = cv2.getPerspectiveTransform(source.astype(numpy.float32), quad.astype(numpy.float32))
    k1 = rng.uniform(-0.12, 0.12) if hard else rng.uniform(-0.06, 0.06)
    k2 = rng.uniform(-0.03, 0.03) if hard else 0.0
    return Pose(homography.astype(numpy.float64), k1, k2, float(frame_w), frame_size, quad)


def _convex(quad: FloatArray) -> bool:
    signs = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        signs.append(numpy.sign((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])))
    return len(set(signs)) == 1


def project(table: Table, pose: Pose) -> Frame:
    """The camera frame: for each (distorted) camera pixel, the table pixel it shows."""
    frame_w, frame_h = pose.frame_size
    u, v = numpy.meshgrid(
        numpy.arange(frame_w, dtype=numpy.float32), numpy.arange(frame_h, dtype=numpy.float32)
    )
    cx, cy, focal = frame_w / 2, frame_h / 2, pose.focal_px
    x, y = (u - cx) / focal, (v - cy) / focal
    r2 = x * x + y * y
    factor = 1 + pose.k1 * r2 + pose.k2 * r2 * r2
    undistorted_u, undistorted_v = cx + focal * x * factor, cy + focal * y * factor
    inverse = numpy.linalg.inv(pose.homography).astype(numpy.float32)
    w = inverse[2, 0] * undistorted_u + inverse[2, 1] * undistorted_v + inverse[2, 2]
    map_x = (inverse[0, 0] * undistorted_u + inverse[0, 1] * undistorted_v + inverse[0, 2]) / w
    map_y = (inverse[1, 0] * undistorted_u + inverse[1, 1] * undistorted_v + inverse[1, 2]) / w
    image = cv2.remap(
        table.image, map_x, map_y, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return numpy.asarray(image, dtype=numpy.uint8)
