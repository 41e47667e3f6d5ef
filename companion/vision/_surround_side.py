"""One side of the band around the plane (surround.py compares the band side by side): the reference's
arrays over it, the step of its darkening that is steep, the band's overall gain that its light is
measured under (lifted levels, `LOG_OFFSET`), and a lamp's glare the empty table was learned without."""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.table_light import SATURATED, Floats, Mask, floats, max3, min3, sum3

SHARP_STEP = 0.05
"""A darkening that changes by this much per mask pixel (2 mm) is an object's outline, not a shadow's edge."""
STEP_NOISE = 2.0
"""...and by more than this many grey levels of the reference's, in its channels' mean (on a table too dark
to measure a gain on, the camera's noise alone steps the darkening by more than `SHARP_STEP`: a lamp
switched on over dark felt learned nearly black speckled the band with steep pixels)."""

LOG_OFFSET = 4.0
"""Reference levels are lifted by this before the band's light is measured as a log ratio (as
_reference_learning.py's `LOG_OFFSET`): a near-black pixel's noise would make its log meaningless. The
frame's levels are lifted by as much under the band's overall light (`overall_gain`), and the light's
prediction of the table is lifted alike: with the frame lifted by this alone, a lamp switched on over a
table learned near black (dark wood at 4-11 levels, 3.9-4.6 times brighter) measured 2.6-3.2 times, and the
table, predicted at its reference times that, differed all round the band (burnt seed 20261137, the
dark-wood sessions)."""
GAIN_SAMPLE = 8
"""Every so many of the band's pixels give its overall gain (`overall_gain`): a thousand or so, enough for
its quartiles and sums."""
GAIN_FROM = 2.0
"""A channel whose sampled pixels averaged no more than this in the reference (its noise clipped at black)
takes the other channels' overall gain (`overall_gain`)."""

_ONES = numpy.ones(3, numpy.float32)

GLARE_HUE = 0.25
"""A lamp's glare on the table (its mirror image, blurred) adds the lamp's own colour: its excess over the
table, in the reference's light (the frame divided by the gain), is alike in every channel within this
share of its level and `GLARE_NOISE` (a dark wood's hot spot: 69, 75, 82 levels over the wood under gains
3.9, 4.2, 4.6; 17.7-17.9 divided by them). No gain explains it, yet it is no arm: the empty table was
learned without it (in a dim room), and over the band it ran into the plane's changes."""
GLARE_NOISE = 2.0
"""Levels (the reference's) of the camera's noise allowed in a glare's channels' excess and its steps."""
GLARE_STEP = 0.25
"""A glare fades smoothly over centimetres: its excess changes by less than this share of itself (plus
`GLARE_NOISE`) from one mask pixel (2 mm) to the next wherever the reference is plain. A pale arm's or a
white sleeve's side steps from the table to the arm's excess within a pixel or two (a pale skin under a
warm lamp over dark wood has the lamp's very colour: only its sides, and the grain it hides, tell it)."""
GLARE_STEEP_SHARE = 0.5
"""A region of glare-like excess with steps on as many pixels as this share of the band's depth has an edge:
an arm (over the glare or beside it), not a glare."""
GLARE_SHARE = 0.5
"""A region where the band differs is a glare where as much of its part in the band as this share is
glare-like (`glare`): a lamp's hot spot is one smooth region. A shadow learned over the band and gone since
lifts the table by a gain the band's light does not follow, and here and there its excess comes out alike
in every channel: those specks, taken for glare, left the region differing around them yet no longer
counted in its texture test, and a shadow that keeps the felt's texture was an arm (dev seed 2, Minotaurus
session 06, felt: 2 frames at rest refused)."""


@dataclasses.dataclass(frozen=True)
class Side:
    """The reference's arrays over one side of the band (`Surround._gather`)."""

    low: Floats
    high: Floats
    low_lifted: Floats
    """`low` plus `LOG_OFFSET`; `high_lifted` as much, `both_lifted` the two summed, `offset` that alone."""
    high_lifted: Floats
    both_lifted: Floats
    offset: Floats
    tolerance: Floats
    """The share of the level that the light scales (the noise is added unscaled)."""
    mean_2: Floats
    shadow_hue: Floats
    plain: Mask
    plain_around: Mask
    """`plain` within two pixels all round: a glare's steps are counted only away from the reference's own
    edges (the marker sheet's paper, shifting with the calibration)."""
    in_band: Mask
    """The band's own pixels (not the plane's the strip reaches into)."""
    grey: Floats
    grey_mean: Floats
    grey_deviation: Floats
    textured: Mask
    relative: Floats
    centred: Floats
    """`relative` with its own level taken out: the grey level less its neighbourhood's, relative to it."""
    steep_step: Floats
    """The step of the darkening that is steep (`SHARP_STEP`, or beyond `STEP_NOISE`)."""
    clipped: Floats
    """Per channel, 1.0 where the reference is clipped over most of the shadow's window (`clipped_ratio`),
    else 0.0."""


def clipped_ratio(ratio: Floats, clipped: Floats) -> Floats:
    """The band's ratio to its reference with each channel the reference clipped (`Side.clipped`: 1.0 there)
    brought down to the unclipped channels' highest, where it stood above: the table there was brighter
    than the camera could tell, so the true ratio is no more than the one measured, and a shadow scaling
    every channel alike may lie anywhere below it. Burnt 20261141 Hornochsen gingham session 04 frame 13:
    the white checks at (180, 254, 254) in a player's shadow went to 0.62 in blue and seemed 0.74 and 0.83
    in green and red, a hue no shadow has (a foreign region across the band)."""
    height = ratio.shape[0]
    if not cv2.countNonZero(clipped.reshape(height, -1)):
        return ratio
    # OpenCV's per-element operations and max3: numpy's where and reductions over three channels cost
    # 2.5 ms a side. A ratio is above zero: a highest of zero is every channel clipped, which nothing
    # bounds (left as measured).
    top = max3(floats(cv2.subtract(ratio, cv2.multiply(ratio, clipped))))
    top[top <= 0.0] = numpy.inf
    lowered = cv2.subtract(cv2.min(ratio, cv2.merge([top, top, top])), ratio)
    return floats(cv2.add(ratio, cv2.multiply(lowered, clipped)))


def typed(values: numpy.typing.NDArray[Any]) -> numpy.typing.NDArray[Any]:
    """Contiguous, and float32 unless a mask."""
    return numpy.ascontiguousarray(values, bool if values.dtype == bool else numpy.float32)


def steep_step(mean_2: Floats) -> Floats:
    """Per pixel, the step of the darkening (the mean of the channels' ratios to `mean_2`, the
    reference's level plus 2) that is steep: `SHARP_STEP`, or as far as `STEP_NOISE` grey levels of noise
    in each channel move it."""
    inverse = numpy.asarray(1.0 / mean_2, numpy.float32)
    noise = numpy.sqrt(sum3(inverse * inverse)) * numpy.float32(STEP_NOISE / 3.0)
    return numpy.asarray(numpy.maximum(noise, numpy.float32(SHARP_STEP)), numpy.float32)


def overall_gain(now: Floats, then: Floats, then_grey: Floats) -> Floats:
    """Per channel, the band's overall gain since its reference (`now`, `then`: the band's sampled pixels'
    levels, N x 3, in the frame and the reference; `then_grey`: the reference's summed over the channels):
    the ratio of the summed levels, now and then, of the pixels whose grey level brightened by no more and
    no less than most (between the quartiles, unclipped: an arm, a glare or a shadow over part of the band
    is left out). Summed, the camera's noise cancels out even on a near-black channel, as it does not out
    of each pixel's ratio (picking the pixels bright enough for one picks those the noise lifted), nor out
    of a median of whole levels. A channel too dark to tell (`GAIN_FROM`) takes the others' mean gain."""
    # Matrix products and partitions: numpy's reductions over an axis of three, and its percentiles, cost
    # ten times as much on a band's samples.
    lift = numpy.float32(3 * LOG_OFFSET)
    brightened = (now @ _ONES + lift) / (then_grey + lift)
    quarter = len(brightened) // 4
    low, high = numpy.partition(brightened, (quarter, 3 * quarter))[[quarter, 3 * quarter]]
    brightest = numpy.maximum(numpy.maximum(now[:, 0], now[:, 1]), now[:, 2])
    middle = ((brightened >= low) & (brightened <= high) & (brightest < SATURATED)).astype(numpy.float32)
    summed = middle @ then
    usable = summed > GAIN_FROM * max(1.0, float(middle.sum()))
    if not numpy.any(usable):
        return numpy.ones(3, numpy.float32)
    gain = (middle @ now)[usable] / summed[usable]
    overall = numpy.full(3, float(gain.mean()), numpy.float32)
    overall[usable] = gain
    return overall


def shifted(image: Floats, shift: Floats) -> Floats:
    """`image` (3 channels) with `shift` (per channel) added: OpenCV's channel transform, one pass (numpy's
    broadcast add, or a full image of the shift, cost several)."""
    matrix = numpy.hstack([numpy.eye(3, dtype=numpy.float32), shift.reshape(3, 1).astype(numpy.float32)])
    return numpy.asarray(cv2.transform(image, matrix), numpy.float32)


def glare(blurred: Floats, grey: Floats, lost: Mask, differs: Mask, side: Side, margin: int) -> Mask | None:
    """Where one side of the band shows a lamp's glare the reference was learned without (None where none
    may lie): its excess over the table (in the reference's light, over a few millimetres: `blurred`, plus
    2, less the reference's `mean_2`) is alike in every channel (`GLARE_HUE`: the lamp's own colour), the
    table's texture shows through it (not `lost`), and no step of it (in the grey level's, `grey`, excess
    over the reference's) crosses its region on the band's plain table (`GLARE_STEP`, `GLARE_STEEP_SHARE`
    of the band's depth, `margin`): a glare fades over centimetres. Looked for only where the band
    `differs` at all. A pale arm or a white sleeve over dark wood, of the lamp's very colour, hides the
    texture or steps at its sides, and it steps wherever it runs into a glare."""
    excess = floats(cv2.subtract(blurred, side.mean_2))
    least = min3(excess)
    if not numpy.any(differs & side.in_band & (least > GLARE_NOISE)):
        return None  # what differs in the band is nowhere brighter in every channel (most frames)
    mean = sum3(excess) * numpy.float32(1.0 / 3.0)
    spread = cv2.subtract(max3(excess), least)
    alike = spread <= mean * numpy.float32(GLARE_HUE) + numpy.float32(GLARE_NOISE)
    # The strip's part in the plane too (the band's windows reach into it), but only the band's steps
    # count: the plane's own edges (a board's, pieces') are none of a glare's.
    candidate = (least > 0.0) & alike & ~lost
    if not numpy.any(candidate):
        return None
    level = floats(cv2.blur(cv2.subtract(grey, side.grey), (3, 3)))
    step = cv2.magnitude(
        cv2.Sobel(level, cv2.CV_32F, 1, 0, ksize=1, scale=0.5),
        cv2.Sobel(level, cv2.CV_32F, 0, 1, ksize=1, scale=0.5),
    )
    steep = side.in_band & side.plain_around & (step > level * numpy.float32(GLARE_STEP) + GLARE_NOISE)
    count, found = cv2.connectedComponents(candidate.view(numpy.uint8), connectivity=8)
    labels = numpy.asarray(found, numpy.int32)
    smooth = numpy.bincount(labels[steep], minlength=count) < GLARE_STEEP_SHARE * margin
    smooth[0] = False
    light = numpy.asarray(smooth[labels], bool)
    # In the band, only regions that differ and are mostly glare are light (`GLARE_SHARE`); the regions
    # are the band's own (the two strips of a side meet inside the plane, and the plane's changes join
    # what they touch), and the glare the strip's part in the plane shows stays light.
    band = differs & side.in_band
    count, found = cv2.connectedComponents(band.view(numpy.uint8), connectivity=8)
    regions = numpy.asarray(found, numpy.int32)
    share = numpy.bincount(regions[light & band], minlength=count)
    mostly = share >= GLARE_SHARE * numpy.bincount(regions[band], minlength=count)
    mostly[0] = False
    return numpy.asarray(light & (mostly[regions] | ~side.in_band), bool)
