"""The band around the plane, warped from the camera frame strip by strip (reference.py's `surround_of`).

`Surround.changed` reads the band's four strips (each `STRIP_PAD` mask pixels into the plane, for its
windows); the rest of the surround image, the plane's middle, only counts towards the band's own light.
Warping the whole of it at `WARP_PX_PER_MM` cost more than the band's comparison: the strips alone are
warped here (the same warp, pixel for pixel), and the middle is taken from the plane itself, already
warped and averaged down to the masks' size (`with_middle`), where it serves the light alike.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.surround import STRIP_PAD, SURROUND_MM, WARP_PX_PER_MM, Surround

FINE = 2
"""Fine (warped) pixels per mask pixel: the strips are averaged down over FINE x FINE blocks."""


def band_of(surround: Surround, frame: Frame, homography: numpy.typing.NDArray[numpy.float64]) -> Frame:
    """The camera frame over the band around the plane (`homography`: frame to plane pixels) at the
    surround's size; the plane's middle, beyond the strips the band's comparison reads, left black."""
    width, height = surround.size
    reach = surround.margin + STRIP_PAD  # mask pixels of each strip, from the outer edge inward
    scale = WARP_PX_PER_MM / PLANE_PX_PER_MM
    shift = SURROUND_MM * WARP_PX_PER_MM
    to_fine = numpy.array([[scale, 0, shift], [0, scale, shift], [0, 0, 1]]) @ homography
    band = numpy.zeros((height, width, 3), numpy.uint8)
    # Top and bottom strips whole; left and right between them (mask pixel boxes x, y, w, h).
    boxes = (
        (0, 0, width, reach),
        (0, height - reach, width, reach),
        (0, reach, reach, height - 2 * reach),
        (width - reach, reach, reach, height - 2 * reach),
    )
    for x, y, w, h in boxes:
        if w <= 0 or h <= 0:
            continue
        # The same warp shifted to the strip's first fine pixel: pixel for pixel the whole warp's.
        moved = numpy.array([[1, 0, -x * FINE], [0, 1, -y * FINE], [0, 0, 1]], numpy.float64) @ to_fine
        # Beyond the camera's view the frame's edge is carried on: an arm entering there streaks outward.
        fine = cv2.warpPerspective(
            frame, moved, (w * FINE, h * FINE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        band[y : y + h, x : x + w] = cv2.resize(fine, (w, h), interpolation=cv2.INTER_AREA)
    return band


def with_middle(surround: Surround, band: Frame, small: Frame) -> Frame:
    """`band` (`band_of`'s) with the plane's middle taken from `small`, the plane at the masks' size."""
    reach = surround.margin + STRIP_PAD
    inset = STRIP_PAD
    whole = band.copy()
    middle = small[inset:-inset, inset:-inset]
    if middle.size:
        whole[reach:-reach, reach:-reach] = middle
    return whole
