"""Drawing the play area's layout back onto the camera's own picture, for the host's phone.

The recognisers look at the top-down plane; the host looks at the table. To show the host where the
companion will look, every item region (plane mm) is carried back into the frame through the inverse of
the homography the markers gave, and drawn there with OpenCV: the overlay is part of a plain JPEG, which
any phone shows without scripts or plug-ins.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, ItemRegion, Layout, VisionError
from companion.vision.calibration import Homography, Points, project
from companion.vision.pose import PoseError, raised_homography

Colour = tuple[int, int, int]

GREEN: Colour = (60, 200, 60)
RED: Colour = (40, 40, 230)
YELLOW: Colour = (0, 220, 255)
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)

JPEG_QUALITY = 75
"""Enough to read the labels on a phone; a 1280x720 overlay is then about 100-150 kB."""


class OverlayError(VisionError):
    """The picture cannot be drawn or encoded (not an image, no homography to draw with)."""


def region_corners_mm(region: ItemRegion) -> Points:
    """The region's four corners in plane mm, turned by its rotation (counter-clockwise as seen)."""
    turn = math.radians(region.rotation_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    half_w, half_h = region.size_mm[0] / 2, region.size_mm[1] / 2
    corners = []
    for dx, dy in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)):
        # y points down in the plane, so a counter-clockwise turn sends +x towards -y.
        corners.append((region.centre_mm[0] + dx * cos + dy * sin, region.centre_mm[1] - dx * sin + dy * cos))
    return numpy.array(corners, dtype=numpy.float32)


def plane_to_frame(homography: Homography, points_mm: numpy.typing.ArrayLike) -> Points:
    """Plane mm → frame pixels, through the inverse of the frame → plane-pixel homography."""
    try:
        inverse = numpy.asarray(numpy.linalg.inv(homography), dtype=numpy.float64)
    except numpy.linalg.LinAlgError as error:
        raise OverlayError(f"the homography cannot be inverted: {error}") from error
    return project(inverse, numpy.asarray(points_mm, dtype=numpy.float32) * PLANE_PX_PER_MM)


def project_layout(
    layout: Layout, homography: Homography, frame_size: tuple[int, int] | None = None
) -> dict[str, Points]:
    """Each item's outline in frame pixels (four corners), on the plane the recogniser reads: the markers'
    own, or for a layout read `raised_mm` above them (the toss figure's head), that raised plane, through
    the camera pose the markers give (`frame_size`: (width, height), needed for the pose)."""
    raised = float(getattr(layout, "raised_mm", 0.0))
    if raised and frame_size is not None:
        homography = _raised(homography, layout, frame_size, raised)
    return {
        item: plane_to_frame(homography, region_corners_mm(region)) for item, region in layout.items.items()
    }


def _raised(homography: Homography, layout: Layout, frame_size: tuple[int, int], raised: float) -> Homography:
    """The raised plane's homography; the markers' own when the markers give no camera pose (the outline
    is then drawn where the figure's foot is: off by the parallax, but still drawn)."""
    try:
        return raised_homography(homography, layout.plane_mm, frame_size, raised)
    except PoseError:
        return homography


def checked_image(image: object) -> Frame:
    """The image as a BGR frame, or OverlayError saying what it is instead."""
    if not isinstance(image, numpy.ndarray) or image.dtype != numpy.uint8:
        raise OverlayError(f"not an 8-bit image: {type(image).__name__}")
    if image.ndim == 2:
        return numpy.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=numpy.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise OverlayError(f"not a BGR image: shape {image.shape}")
    return numpy.asarray(image, dtype=numpy.uint8)


def line_width(image: Frame) -> int:
    """Lines about 2 px on a 1280-wide frame, thicker on larger ones, so a phone shows them."""
    return max(1, round(int(max(image.shape[:2])) / 640))


def draw_outline(image: Frame, corners: Points, colour: Colour, width: int) -> None:
    polygon = numpy.round(corners).astype(numpy.int32).reshape(-1, 1, 2)
    cv2.polylines(image, [polygon], isClosed=True, color=colour, thickness=width, lineType=cv2.LINE_AA)


def draw_label(image: Frame, text: str, at: tuple[float, float], colour: Colour, scale: float) -> None:
    """Text centred on `at`, on a dark box so that it reads over any table."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, round(scale * 2))
    (width, height), baseline = cv2.getTextSize(text, font, scale, thickness)
    x = round(at[0] - width / 2)
    y = round(at[1] + height / 2)
    cv2.rectangle(image, (x - 2, y - height - 3), (x + width + 2, y + baseline), BLACK, -1)
    cv2.putText(image, text, (x, y), font, scale, colour, thickness, cv2.LINE_AA)


def label_scale(image: Frame) -> float:
    # About 0.9 on a 1280-wide frame: a phone shows the whole frame some 400 px wide.
    return max(0.4, int(max(image.shape[:2])) / 1400)


def draw_items(
    image: Frame,
    outlines: Mapping[str, Points],
    labels: Mapping[str, str] | None = None,
    colours: Mapping[str, Colour] | None = None,
) -> None:
    """Every item's outline (yellow unless `colours` says), with its label (if any) in its middle."""
    width = line_width(image)
    scale = label_scale(image)
    for item, corners in outlines.items():
        colour = (colours or {}).get(item, YELLOW)
        draw_outline(image, corners, colour, width)
        if labels and item in labels:
            centre = corners.mean(axis=0)
            draw_label(image, labels[item], (float(centre[0]), float(centre[1])), colour, scale)


def encode_jpeg(image: Frame, quality: int = JPEG_QUALITY) -> bytes:
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OverlayError(f"cannot encode a picture of shape {image.shape} as JPEG")
    return bytes(jpeg.tobytes())
