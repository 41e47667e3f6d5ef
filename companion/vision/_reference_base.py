"""What the reference's modules share (reference.py, hand_check.py, normalising.py): the masks' scale, the
settings of the comparison, and the few OpenCV helpers each of them uses at that scale."""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.table_light import Floats

MASK_PX_PER_MM = 0.5
"""Resolution of the comparison with the reference (the plane has 2 px/mm): 2 mm pixels are small
beside a die or a piece, and a sixteenth of the plane's pixels to compare."""

FAINT_MM = 5.0
"""Side of the window over which faint differences are averaged."""
HOTSPOT_MM = 35.0
"""Width over which the table's excess over the markers' white is taken as the light's (a lamp's hotspot
is wider than the print on a board)."""


@dataclasses.dataclass(frozen=True)
class ReferenceSettings:
    tolerance: float = 14.0
    """Grey levels a light-corrected pixel may lie beyond its reference neighbourhood's range (noise)..."""
    relative_tolerance: float = 0.07
    """...plus this share of the reference's level (a bright table is noisier in absolute terms)."""
    faint_level: float = 0.5
    """Differences within the tolerance that average more than this share of it over `FAINT_MM`
    (summed over B, G and R) are no table either."""
    shadow_min: float = 0.45
    """A shadow darkens the table by no more than this factor (a dark piece on a grey table is darker)."""
    shadow_chroma: float = 0.05
    """A shadow darkens every channel alike: their ratios to the table differ by at most this."""
    shadow_reach_mm: float = 10.0
    """A shadow-like pixel is table only this close to something that is no table (what casts it)."""
    light_band: float = 0.25
    """A pixel's log ratio to the reference within this of the light of the grid's cells beside it counts
    for the light grid (the light's slope is followed from cell to cell; an arm's sharp side is not)."""
    hand_level: float = 1.0
    """A pixel's distance beyond the reference's range, in tolerances summed over B, G and R, averaged
    over `HAND_BLUR_MM`, that marks it changed for the hand check (noise averages out; a skin on a wood
    of its hue does not)."""
    hand_min_area_mm2: float = 2500.0
    """A changed region coming in over the plane's edge this large is a hand or an arm..."""
    hand_min_edge_mm: float = 18.0
    """...when it comes in over this length at least, where no item lies, at the edge and `HAND_DEPTH_MM`
    inside it (a wrist, a sleeve; a piece near the edge lies where items lie, and is smaller)."""
    min_table_share: float = 0.08
    """Less of the plane than this matching the reference: the cloth or the camera changed, relearn."""
    min_free_share: float = 0.45
    """Less than this share of the area where no item lies matching the reference: not an arm, a new cloth."""
    update_rate: float = 0.02
    """Share of a table pixel's present look taken into the reference per accepted frame (pixels near pieces
    and under them are never taken)."""


def px(mm: float) -> int:
    """A window of about `mm` millimetres as an odd number of mask pixels (3 at least)."""
    return max(3, round(mm * MASK_PX_PER_MM) | 1)


@functools.cache
def square(mm: float) -> numpy.typing.NDArray[numpy.uint8]:
    """A square kernel of about `mm` (made once: OpenCV only reads it, and a look asks for a dozen)."""
    return numpy.ones((px(mm), px(mm)), numpy.uint8)


def at_most(image: Floats, level: float) -> Floats:
    """min(image, level) per element in one OpenCV pass (cv2.min with a scalar takes the first channel)."""
    return numpy.asarray(cv2.threshold(image, level, 0.0, cv2.THRESH_TRUNC)[1], numpy.float32)


def at_least_zero(image: Floats) -> Floats:
    """max(image, 0) per element, in one OpenCV pass."""
    return numpy.asarray(cv2.threshold(image, 0.0, 0.0, cv2.THRESH_TOZERO)[1], numpy.float32)


def of_labels(chosen: numpy.typing.NDArray[numpy.bool_], labels: cv2.typing.MatLike) -> Frame:
    """`chosen[labels]` as bytes (1 or 0) for an image of region labels: by OpenCV's look-up table where the
    labels fit in a byte (numpy's indexing by the labels cost several times more), else by numpy's."""
    if chosen.size <= 256:
        table = numpy.zeros(256, numpy.uint8)
        table[: chosen.size] = chosen
        return numpy.asarray(cv2.LUT(numpy.asarray(labels).astype(numpy.uint8), table), numpy.uint8)
    return numpy.asarray(chosen[numpy.asarray(labels)], numpy.uint8)
