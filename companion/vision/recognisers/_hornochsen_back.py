"""Tanz der Hornochsen: a tile's back told by its printed mark (a light ring round a disc).

Every edition prints the same mark, only in its own colours: a back is told by it, not by being dark (the
board's print or a shadow the reference left in view is dark and textured too). _hornochsen_faces.py asks
for it of dim squares and of faces that read no number or one digit.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, ItemRegion
from companion.vision.recognisers._hornochsen_seen import Seen
from companion.vision.recognisers._lab import FloatArray

BACK_RING_MM = (8.0, 1.5)
"""A tile's back shows a light mark: a ring of this radius and stroke (mm) round a disc..."""
BACK_DISC_MM = 3.0
"""...of this radius, in the back's middle (every edition prints it; only its colours differ)."""
BACK_REACH_MM = 8.0
"""The mark is looked for this far about the square's centre (a tile laid off centre)."""


BACK_SCALES = (1.0, 1.2, 1.1)
"""The mark is looked for at these sizes: markers laid by their cut edge stretch the plane by up to a fifth
(dark wood, seed 8: a back's ring 1.25 times its size). Between them too, last (a back decided at one of
the first two is not looked at again): a travel back's faint mark on a plane stretched 1.1 scored 0.48 and
0.51 at 1.0 and 1.2, 0.53 at 1.1 (burnt 20261137, printed cloth: read empty); faces score 0.45 at most at
all three (dev seeds 8, 21, 34, 55 and that burnt seed, 7000 squares)."""


def _back_template(scale: float) -> FloatArray:
    """The back's mark as the camera shows it, lightly blurred, on a dark ground."""
    ring, stroke = (round(v * PLANE_PX_PER_MM * scale) for v in BACK_RING_MM)
    side = 2 * (ring + stroke) + 1
    template = numpy.zeros((side, side), numpy.float32)
    middle = (side // 2, side // 2)
    cv2.circle(template, middle, ring, 1.0, stroke, cv2.LINE_AA)
    cv2.circle(template, middle, round(BACK_DISC_MM * PLANE_PX_PER_MM * scale), 1.0, -1, cv2.LINE_AA)
    return numpy.asarray(cv2.GaussianBlur(template, (0, 0), PLANE_PX_PER_MM / 2), numpy.float32)


_BACK_TEMPLATES = [_back_template(scale) for scale in BACK_SCALES]
_BACK_HALF = max(template.shape[0] for template in _BACK_TEMPLATES) // 2
"""Half the largest template's side: the mark is looked for this far and BACK_REACH_MM beyond."""


def back_mark(seen: Seen, region: ItemRegion, enough: float | None = None) -> float:
    """How much a square shows a tile's back: the best correlation of its lightness with the back's mark
    (a ring round a disc) about its centre. Backs score 0.57 and more on dev seeds 5, 8, 13, 21 and 34,
    faces and the board's print or a shadow the reference left in view 0.41 and less. `enough`: a score
    that decides, returned as soon as one size scores it (the other sizes are not looked at)."""
    cx, cy = round(region.centre_px()[0]), round(region.centre_px()[1])
    reach = _BACK_HALF + round(BACK_REACH_MM * PLANE_PX_PER_MM)
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    best = _best_match(seen.grey[y0 : cy + reach + 1, x0 : cx + reach + 1], enough)
    if enough is not None and best < enough and _painted_middle(seen, region):
        # A back as dark as the cloth under it (blue felt, burnt 20261147) is taken for empty area by the
        # reference and painted neutral grey but for its light mark: the mark then stands on grey, not on
        # its dark ground, and scored 0.20-0.48 (read empty). Looked at again with the empty area black,
        # as the back's ground is, it scored 0.66-0.76; so looked at, backs scored 0.53 and more, faces and
        # empty squares 0.48 and less (dev and burnt sets, the ~3000 squares looked at for the mark). Only
        # where the square's middle holds empty area: the look costs 0.23 ms, and half the squares looked
        # at show the table only about their tile.
        best = max(best, _best_match(seen.tiles[y0 : cy + reach + 1, x0 : cx + reach + 1], enough))
    return best


def _best_match(grey: numpy.typing.NDArray[numpy.uint8] | FloatArray, enough: float | None) -> float:
    """The best correlation of `grey` with the back's mark at any of BACK_SCALES (see back_mark)."""
    grey = numpy.asarray(grey, numpy.float32)
    best = 0.0
    for template in _BACK_TEMPLATES:
        if min(grey.shape[:2]) >= template.shape[0]:
            best = max(best, float(cv2.minMaxLoc(cv2.matchTemplate(grey, template, cv2.TM_CCOEFF_NORMED))[1]))
            if enough is not None and best >= enough:
                break
    return best


def _painted_middle(seen: Seen, region: ItemRegion) -> bool:
    """Whether the middle of a square (square_levels' middle 0.6) holds any empty area."""
    x0, y0, x1, y1 = region.box_px()
    dy, dx = round((y1 - y0) * 0.2), round((x1 - x0) * 0.2)
    return bool(
        cv2.countNonZero(seen.table[max(0, y0 + dy) : max(0, y1 - dy), max(0, x0 + dx) : max(0, x1 - dx)])
    )
