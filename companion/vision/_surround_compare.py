"""One side of the band compared with its reference (surround.py's `Surround.changed`): where it differs
at all (`side_differs`), and where beyond light and shadow, where its darkening steps as an arm's outline,
and whether its texture is kept (`side_rest`). Separate from surround.py: per side, from the reference's
arrays gathered into `Side`, with nothing of the band's own state but its noise floor and margin."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy

from companion.vision._surround_side import LOG_OFFSET, STEP_NOISE, Side, clipped_ratio, glare, shifted
from companion.vision._surround_texture import TEXTURE_PX, kept_texture, texture_lost
from companion.vision.base import Frame
from companion.vision.table_light import SATURATED, Floats, Mask, floats, max3, min3, sum3

SHADE_LIFT = 2.5
"""The band may be brighter than its light says by this factor: that light is measured over cells as
wide as a lamp's fall-off, so the lit side of a shadow's edge within a cell is brighter than it (an arm
on a dark table is brighter still, or of another hue)."""
DARK_NOISE = 5.0
"""Grey levels of the camera's noise (and its JPEG's) on a near-black table. Where the table at the light
is darker than the noise floor plus this, the hand check's tolerance is its level less this (at least
this) in place of the floor, which holds for lit tables: a dark arm over a near-black cloth in a dim room
differs from it by 4-8 levels a channel, alike all over."""
HUE_NOISE = 1.0
"""Grey levels of the camera's noise in a channel averaged over the shadow's window (`TEXTURE_PX`): it
turns a shadow's hue by as much against the level now (the reference's own level has its allowance in
`Side.shadow_hue`). A head's shadow over dark wood under a lamp leaves it near black (6-20 levels) and
the band's light, measured over wide cells, follows part of the way (the band 0.56-1.1 of the table it
predicts): the channels' ratios spread 0.19-0.42 against a shadow's 0.18-0.28 (bench seed 20261142
Asterion dark wood session 01 frame 8, refused at rest; cleared from 0.25 levels on)."""
LIFT_FLOOR = 0.8
"""A step of the darkening with the band of the table's hue and at least this bright against its reference
on both sides of it (within the band's light's error: the band of a linen learned under a player's shadow
came out 0.87-1.1 beside the shadow's old edge) may be that shadow's, gone since: an outline only where the
band steps too. An arm hiding the marker sheet's paper edge is darker than the paper (0.6-0.8)."""

_WINDOW = numpy.ones((TEXTURE_PX, TEXTURE_PX), numpy.uint8)


class Differs(NamedTuple):
    """Where one side of the band differs at all (`side_differs`), and what the rest of its
    comparison under its own light goes on from (`side_rest`)."""

    any_change: Mask
    distance: Floats
    lost: Mask
    grey: Floats
    mean: Floats
    blurred: Floats
    slack: Floats
    """The camera's noise in the ratio of `blurred` to the reference (`HUE_NOISE`): how far a shadow's
    hue may stray from the table's by noise alone."""
    step_floor: Floats
    """The step of the darkening that `STEP_NOISE` grey levels of the frame's own move it by (`side_rest`)."""
    white: Mask
    """Where every channel of the frame is clipped (`side_rest`'s outline: the darkening there a floor)."""


def side_differs(
    side: Side,
    surround: Frame,
    gain: Floats,
    blur: int,
    level: float,
    overall: Floats | None,
    noise_floor: numpy.float32,
    margin: int,
) -> Differs:
    """`Surround.changed`'s second mask (where the band differs at all) for one side of the band
    (`Surround._gather`'s), under the band's own light (`overall`: its overall gain, `overall_gain`) or the
    plane's light carried outward; with what `side_rest` goes on from. `noise_floor`: the reference's
    tolerance; `margin`: the band's width (mask pixels)."""
    # OpenCV's per-element operations: numpy's temporaries would cost more than the band's arm test.
    current = numpy.asarray(surround, numpy.float32)
    whole = overall is not None
    if overall is None:
        low, high = cv2.multiply(side.low, gain), cv2.multiply(side.high, gain)
        at_light = cv2.multiply(cv2.add(side.low, side.high), gain, scale=0.5)
        corrected = floats(cv2.divide(current, gain))
    else:
        # The light was measured between levels lifted by `LOG_OFFSET`, the frame's under the overall
        # gain: the table it predicts is lifted alike, (reference + offset) x gain - offset x overall,
        # and the frame brought back to the reference's light so.
        shift = numpy.float32(LOG_OFFSET) * overall
        low = shifted(floats(cv2.multiply(side.low_lifted, gain)), -shift)
        high = shifted(floats(cv2.multiply(side.high_lifted, gain)), -shift)
        at_light = shifted(floats(cv2.multiply(side.both_lifted, gain, scale=0.5)), -shift)
        corrected = floats(cv2.subtract(cv2.divide(shifted(current, shift), gain), side.offset))
    low = numpy.minimum(low, numpy.float32(SATURATED))
    over, under = cv2.subtract(current, high), cv2.subtract(low, current)
    outside = numpy.maximum(cv2.max(over, under), numpy.float32(0.0))
    # A clipped channel could be any table brighter than white.
    unclipped = cv2.threshold(current, SATURATED - 0.5, 1.0, cv2.THRESH_BINARY_INV)[1]
    white = max3(floats(unclipped)) < numpy.float32(0.5)
    # On a table darker than the noise floor plus DARK_NOISE, its level less DARK_NOISE (at least that).
    noise = numpy.clip(at_light - numpy.float32(DARK_NOISE), numpy.float32(DARK_NOISE), noise_floor)
    scaled = cv2.divide(cv2.multiply(outside, unclipped), cv2.multiply(side.tolerance, gain) + noise)
    distance = sum3(numpy.asarray(scaled, numpy.float32))
    lost, grey, mean = texture_lost(corrected, side)
    # A shadow is judged over a few millimetres: on a checked cloth single pixels, a little off
    # their reference ones, differ in hue even in a shadow.
    window = (TEXTURE_PX, TEXTURE_PX)
    blurred: Floats = numpy.zeros(0, numpy.float32)
    slack: Floats = blurred
    step_floor: Floats = blurred
    differs = cv2.blur(distance, (blur, blur)) > level
    if whole:
        blurred = floats(cv2.blur(corrected, window) + numpy.float32(2.0))
        # A channel's noise of HUE_NOISE levels moves its ratio by that share of its level now (the
        # darkest channel's: the one the noise turns most), less what the reference's own level has
        # its allowance for (`Side.shadow_hue`): a dark arm over near-black felt stays foreign.
        now = cv2.divide(float(HUE_NOISE), min3(floats(cv2.blur(current, window))) + numpy.float32(1.0))
        then = cv2.divide(float(HUE_NOISE), min3(side.mean_2) - numpy.float32(1.0))
        slack = floats(numpy.maximum(cv2.subtract(now, then), numpy.float32(0.0)))
        # The camera's noise is in the frame's levels: under a light a fifth of the reference's, its
        # STEP_NOISE levels move the darkening five times as far as `Side.steep_step` allows for.
        inverse = cv2.divide(1.0, numpy.maximum(at_light, numpy.float32(0.0)) + numpy.float32(2.0))
        step_floor = floats(cv2.sqrt(sum3(floats(cv2.multiply(inverse, inverse))))) * numpy.float32(
            STEP_NOISE / 3.0
        )
        # A lamp's glare the empty table was learned without is light, not a change.
        lamp = glare(blurred, grey, lost, differs, side, margin)
        if lamp is not None and numpy.any(lamp):
            distance[lamp] = 0.0
            differs = cv2.blur(distance, (blur, blur)) > level
    # What differs beyond light and shadow differs at all: where it differs at all needs no shadow's.
    return Differs(differs | lost, distance, lost, grey, mean, blurred, slack, step_floor, white)


def floor_step(darkening: Floats, white: Mask) -> Mask:
    """Where the darkening steps down to pixels the frame clips in every channel (`white`) from pixels it
    does not, within the shadow's window: a clipped pixel's darkening is only a floor, so that step is
    none. A light far above a near-black reference (dark wood learned at 3-10 levels, lit 15-25 times
    brighter) clips a marker's plate at 5 times its reference while the wood beside it rose 15 times:
    the plate's rim stepped as an arm's outline (the unseen bench on 20261157, Hornochsen dark wood
    travel session 08 frames 12 and 14, refused at rest). A clipped white sleeve over the table steps
    up to its floor, and stands."""
    size = TEXTURE_PX + 2
    window = numpy.ones((size, size), numpy.uint8)
    high = numpy.float32(1e6)
    lowest_white = cv2.erode(numpy.where(white, darkening, high).astype(numpy.float32), window)
    highest_other = cv2.dilate(numpy.where(white, -high, darkening).astype(numpy.float32), window)
    return numpy.asarray(lowest_white < highest_other, bool)


def side_rest(
    side: Side, state: Differs, shadow_min: float, blur: int, level: float
) -> tuple[Mask, Mask, Floats]:
    """`Surround.changed`'s first and third masks (beyond light and shadow; an outline) and the texture for
    one side of the band under its own light, from where it differs at all (`side_differs`)."""
    distance, lost, grey, mean, blurred = (
        state.distance,
        state.lost,
        state.grey,
        state.mean,
        state.blurred,
    )
    ratio = numpy.asarray(cv2.divide(blurred, side.mean_2), numpy.float32)
    darkening = numpy.asarray(sum3(ratio) * numpy.float32(1.0 / 3.0), numpy.float32)
    # Where the lamp is shaded, daylight still reaches: a shadow is a little bluer as well as darker.
    # Where the plane is shaded and the band is not, the plane's light carried outward is too dim
    # there: the band is brighter than its reference by as much, alike in every channel.
    scaled = clipped_ratio(ratio, side.clipped)
    hue = (
        cv2.subtract(max3(scaled), min3(scaled))
        <= side.shadow_hue * numpy.maximum(darkening, 1.0) + state.slack * darkening
    )
    shadow = (darkening >= shadow_min) & (darkening <= SHADE_LIFT) & hue
    excess = numpy.where(shadow, numpy.float32(0.0), distance)
    changed = (cv2.blur(excess, (blur, blur)) > level) | lost
    # An arm's sides are sharp where they cross the band; a head's shadow fades over centimetres.
    rise_x = cv2.Sobel(darkening, cv2.CV_32F, 1, 0, ksize=1, scale=0.5)
    rise_y = cv2.Sobel(darkening, cv2.CV_32F, 0, 1, ksize=1, scale=0.5)
    # On a print or checks a shadow a pixel off its reference steps sharply too: plain cloth only.
    magnitude = cv2.magnitude(rise_x, rise_y)
    steep = magnitude > side.steep_step
    # The darkening steps where the band steps now (an arm's side) or where its reference does, hidden
    # now: the marker sheet's edge or a grain line under an arm, the band darker than its reference on
    # one side of it at least. A player's shadow over the band while the empty area was learned, gone
    # since, leaves its sharp old edge in the darkening alone, the band of the table's hue and as bright
    # as its reference or brighter on both sides (`LIFT_FLOOR`): there the step has to be the band's
    # own too (each channel's step over its reference level, the reference's left out: a third of the
    # central difference, the mean of the three channels' as the darkening's). Over the band's level now
    # where that is the higher: a band lit far above its reference (a lamp's fall-off learned dim, 45
    # levels, lit now to 130) steps over the dim reference by the lift's factor more than it steps.
    higher = floats(cv2.max(side.mean_2, blurred))
    step_x, step_y = (
        sum3(
            numpy.asarray(
                cv2.divide(cv2.Sobel(blurred, cv2.CV_32F, dx, 1 - dx, ksize=1, scale=1 / 6), higher),
                numpy.float32,
            )
        )
        for dx in (1, 0)
    )
    lifted_by = cv2.erode(darkening, _WINDOW)
    lifted = hue & (lifted_by > numpy.float32(LIFT_FLOOR))
    # An outline steps beyond the camera's noise now too: a frame far dimmer than its reference (a lamp
    # turned down over a dark print, 7 levels of 35) speckles the darkening with noise's steps alone.
    sharp = cv2.max(side.steep_step, state.step_floor)
    outline = (magnitude > sharp) & side.plain & (~lifted | (cv2.magnitude(step_x, step_y) > sharp))
    if numpy.any(state.white):
        outline &= ~floor_step(darkening, state.white)
    table_hue = hue & ((darkening <= SHADE_LIFT) | ~lost)
    centred = (grey - mean) / (mean + numpy.float32(2.0))
    texture = kept_texture(centred, side, steep, distance, table_hue, darkening, lost)
    return numpy.asarray(changed, bool), numpy.asarray(outline, bool), texture
