"""Whether a region of the band that is only darker, with an arm's sharp outline, is the table under one
smooth shade (a player's sharp shadow) rather than an arm (surround.py compares the band,
_surround_crossing.py decides on its regions). Where the table shows no texture to keep (plain laminate:
_surround_texture.py cannot speak), a shadow still scales what lies under it, each channel by one smooth
factor: the ratio of the band to its reference is even inside the shadow's outline, of one hue, and the
table's faint pattern (and the marker sheet's edge) shows through it. An arm of the table's hue replaces
the table: its facets and sides step inside the region, its hue turns from the lamp's to the daylight's
across the limb, and the table's pattern is gone under it.

Figures below: regions the outline test found on 7 dev hard sets (asterion 2 and 5, hornochsen, minoa,
minos, minotaurus and toss 2; 7 sessions x 8 frames), 28 laminate sittings of five games (seeds 11-17, 16
frames) and burnt 20261140 Asterion (14 x 12), measured as whole regions."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.table_light import Floats, Mask, floats, sum3

SHADE_OFFSET = 4.0
"""Levels added to the band and its reference before their ratio (a near-black pixel's noise would make
its log meaningless; `LOG_OFFSET`'s)."""
SHADE_SMOOTH_PX = 7
"""Window (mask pixels, 14 mm) whose mean the log darkening is compared with: a lamp's fall-off and the
band's light change over centimetres more, a limb's facets and sides within it."""
SHADE_INSET_PX = 6
"""Mask pixels in from a region's outline that count: the band's changes reach a pixel or two beyond a
shadow's edge, and the window (`SHADE_SMOOTH_PX`) and the 3-pixel smoothing before it would reach across
the edge's step."""
SHADE_EVEN = 0.045
"""Deviation of the log darkening from its window's mean, at most, for one smooth shade. Players' sharp
shadows at rest over laminate (burnt 20261140 Asterion session 09 frame 11; asterion 12 frame 13 and
minotaurus 12 frame 3 of the laminate sittings): 0.017-0.029; arms only darker over the band, with its
outline (every table): mostly 0.05-0.2, some arms of the laminate's hue 0.018-0.042 (`SHADE_PATTERN_Z`
tells those)."""
SHADE_HUE = 0.075
"""Deviation of the channels' log ratios to the reference (blue and red less green's), at most, for one
smooth shade: those shadows 0.029-0.062 (the deeper, the noisier); an arm of another hue beside a shadow,
or a sleeve, 0.1-0.6."""
SHADE_PATTERN_Z = 8.0
"""How surely the table's faint pattern shows through, at least (its correlation with the reference's
times the square root of the pixels it is taken over, as `KEPT_TEXTURE_Z`): those shadows 24-34; arms of
the laminate's hue whose darkening is as even as a shadow's -2 to 2.3 (minotaurus laminate sitting 11
frame 6: 0.7, a hand frame refused by this alone)."""
SHADE_NOISE = 1.0
"""Grey levels of the camera's noise in a channel, smoothed over 3 pixels (`HUE_NOISE`'s): in a deep
shadow it alone turns the log darkening and hue by more than `SHADE_EVEN` and `SHADE_HUE` allow, so
those limits grow by what it makes of them at the band's levels and its reference's (in quadrature).
Bench seed 20261150 (now burnt) Minotaurus and Minoa dark wood cut edge session 01, at rest: a lamp's
pool over the band blocked (the band 7-17 levels of 24-41), the wood's grain showing through at 49 (arms
3.6 at most), uneven 0.049-0.055 and hue 0.15-0.17, refused as a hand."""
PATTERN_PX = 5
"""Side (mask pixels) of the window whose mean the table's faint pattern is taken against."""
SHADE_MIN_PX = 100
"""Fewest of a piece's pixels away from its outline that tell a smooth shade (a wrist's crossing of the
band is some 140 pixels in all): a narrow piece is all outline, and stays an arm."""
SHADE_GAP_PX = 3
"""Side of the window (mask pixels) that closes a region's gaps before it is cut into pieces and eroded
(`smooth_shades`): a player's soft shadow over light wood seen straight down darkens the grain's pale
streaks by less than the band's level, so a crossing of the band 8-15 pixels deep came apart into strips
along the grain, each all outline once eroded, and the shadow stayed an arm (dev minotaurus 7 light wood
session 00 frame 5: a piece of 945 pixels kept 9 away from its outline; closed, one of 2241 kept 769)."""
SHADE_PIECE_MM2 = 135.0
"""A region's part in the band may fall into pieces (joined through the plane's changes, or at the band's
corners): each piece from a quarter of a wrist's crossing of the band on (18 x 30 mm / 4) must be a smooth
shade itself. A pale forearm over the band and a head's shadow beside it, joined through the plane,
measured as one region as even (0.049) and as surely patterned (22.8) as a shadow (asterion laminate
sitting 14 frame 15, a hand frame): the arm's pieces alone show no pattern (0.4) or are too narrow
(`SHADE_MIN_PX`)."""
SHADE_LIFTED = 0.9
"""Log ratio (2.5 times) by which a piece of the band's summed levels, less `SHADE_OFFSET` a channel, lie
above its reference's from which it is the table lifted out of a deep shadow the empty table was learned
under (a lamp's brightening of a lit table stays within it). There the band's own light, a grid of wide
cells, falls short of the old shadow's edge, the reference's near-black levels make every pixel's hue
noisy, and the two lights' colours turn across that edge: one smooth lift is told by its evenness and the
table's pattern alone, over all its pixels (`lifted_shades`), its hue not asked. Burnt 20261144 Minos
printed session 05 frames 2, 4, 11 at rest, learned at levels 6-20 and lit some 5 times, were refused as
a hand: their lifted pieces 1.1-1.7, evenness 0.023-0.043, pattern 16-40 (the band's corners' narrow
pieces too); the arms beside them in that session's hand frames 0.14-0.64, 0.19-0.22 uneven, pattern
-0.3 to 3.6."""

CROP_PAD_PX = 16
"""Pixels kept around the regions' part in the band when `smooth_shades` crops to it: more than its windows
reach from a region's pixels (the closing's 1, the inset's 6 beyond those, the 3-pixel smoothing and the
window's 3 at the inner pixels, the pattern's 2; a lift's smoothing and two windows, 7 from any of them), so
the crop's own edges change none of its measures."""


def smooth_shades(
    frame: numpy.typing.NDArray[numpy.uint8],
    reference: Floats,
    labels: numpy.typing.NDArray[numpy.int32],
    count: int,
    in_band: Mask,
    piece_px: float,
) -> Mask:
    """Per region (`labels`, `count` of them, 0 none), whether its part in the band (`in_band`) is
    `reference` (the band's, float levels) under one smooth shade in `frame` (the band now, at the masks'
    size): every piece of it of `piece_px` pixels or more, away from the region's outline, over
    `SHADE_MIN_PX` pixels at least, its log darkening even (`SHADE_EVEN`), of one hue (`SHADE_HUE`) and
    showing the table's pattern (`SHADE_PATTERN_Z`). Computed over the box around the regions' part in
    the band (`CROP_PAD_PX` wider): an arm's crossing covers a few per cent of the band, and the measures
    over all of it cost 1.3 ms (asked of most hand frames: a foreign region's crossing asks it too)."""
    regions = (labels > 0) & in_band
    lines = numpy.flatnonzero(numpy.any(regions, axis=1))
    if lines.size == 0:
        return numpy.zeros(count, bool)
    columns = numpy.flatnonzero(numpy.any(regions, axis=0))
    pad, (height, width) = CROP_PAD_PX, labels.shape
    rows = slice(max(0, int(lines[0]) - pad), min(height, int(lines[-1]) + pad + 1))
    cols = slice(max(0, int(columns[0]) - pad), min(width, int(columns[-1]) + pad + 1))
    frame, reference, labels, in_band = (
        frame[rows, cols],
        reference[rows, cols],
        labels[rows, cols],
        in_band[rows, cols],
    )
    inside = labels > 0
    whole = cv2.morphologyEx(
        inside.view(numpy.uint8), cv2.MORPH_CLOSE, numpy.ones((SHADE_GAP_PX,) * 2, numpy.uint8)
    )
    part = numpy.asarray((whole > 0) & in_band, numpy.uint8)
    found, labelled = cv2.connectedComponents(part, connectivity=8)
    pieces = numpy.asarray(labelled, numpy.int32)
    region = numpy.zeros(found, numpy.int64)
    # A piece's region from its own pixels (those the closing added are no region's).
    region[pieces[inside]] = labels[inside]
    inset = numpy.ones((2 * SHADE_INSET_PX + 1, 2 * SHADE_INSET_PX + 1), numpy.uint8)
    # Away from the region's outline (the regions are apart, so eroding them together erodes each; a region
    # goes on into the plane, so its part in the band keeps the rows along the plane's edge).
    inner = (cv2.erode(whole, inset) > 0) & in_band
    greys = sum3(numpy.asarray(frame, numpy.float32)), sum3(reference)
    pixels, uneven, hue, agreement, noise_even, noise_hue = shade_measures(
        frame, reference, pieces, inner, greys
    )
    even, one_hue = numpy.hypot(SHADE_EVEN, noise_even), numpy.hypot(SHADE_HUE, noise_hue)
    shade = (pixels >= SHADE_MIN_PX) & (uneven <= even) & (hue <= one_hue)
    shade &= agreement >= SHADE_PATTERN_Z
    counted = numpy.bincount(pieces.ravel(), minlength=found) >= piece_px
    counted[0] = False  # no piece: the rest of the band, and the plane
    # A piece counted that is no shadow's shade may be the table lifted out of a deep shadow it was learned
    # under, told over all its pixels in the band: its narrow pieces (the band's corners) have none away
    # from the outline, and a lift's outline is no step (an arm's is, and counts against it).
    asked = counted & ~shade
    if numpy.any(asked):
        shade |= asked & lifted_shades(frame, reference, pieces, part > 0, greys)
    # A region is a shade where a piece of it counted is one and none is not.
    shaded, arm = numpy.zeros(count, bool), numpy.zeros(count, bool)
    shaded[region[counted & shade]] = True
    arm[region[counted & ~shade]] = True
    shaded[0] = False
    return numpy.asarray(shaded & ~arm, bool)


def shade_measures(
    frame: numpy.typing.NDArray[numpy.uint8],
    reference: Floats,
    pieces: numpy.typing.NDArray[numpy.int32],
    inner: Mask,
    greys: tuple[Floats, Floats] | None = None,
) -> tuple[numpy.typing.NDArray[numpy.float64], ...]:
    """Per piece (`pieces`, numbered from 0 on), `smooth_shades`'s measures over its `inner` pixels: how
    many, the deviation of its log darkening from the window's mean, that of its hue over the reference's,
    how surely the table's pattern shows through, and what the camera's noise (`SHADE_NOISE`) makes of the
    first two at the levels now. `greys`, when known: the frame's and the reference's
    levels summed over the channels."""
    count = int(pieces.max()) + 1
    now = cv2.blur(numpy.asarray(frame, numpy.float32), (3, 3))
    then = cv2.blur(reference, (3, 3))
    offset = numpy.float32(SHADE_OFFSET)
    log = numpy.asarray(cv2.log(cv2.divide(now + offset, then + offset)), numpy.float32)
    darkening = sum3(log) * numpy.float32(1.0 / 3.0)
    uneven = darkening - cv2.blur(darkening, (SHADE_SMOOTH_PX, SHADE_SMOOTH_PX))
    flat = pieces[inner]
    pixels = numpy.bincount(flat, minlength=count).astype(numpy.float64)
    used = numpy.maximum(pixels, 1.0)

    def mean(values: numpy.typing.NDArray[numpy.float64]) -> numpy.typing.NDArray[numpy.float64]:
        return numpy.asarray(numpy.bincount(flat, values, minlength=count) / used, numpy.float64)

    def spread(values: Floats) -> numpy.typing.NDArray[numpy.float64]:
        picked = values[inner].astype(numpy.float64)
        centre = mean(picked)
        return numpy.asarray(numpy.sqrt(numpy.maximum(mean(picked * picked) - centre**2, 0.0)), numpy.float64)

    hue = numpy.hypot(spread(log[..., 2] - log[..., 1]), spread(log[..., 0] - log[..., 1]))
    # The noise's share of each channel's log at its levels now and then (a ratio of two shots): the
    # darkening's (a mean of three) and the hue's (two differences from green), as deviations over it.
    share = (SHADE_NOISE / (now + offset)) ** 2 + (SHADE_NOISE / (then + offset)) ** 2
    blue, green, red = (share[..., k][inner].astype(numpy.float64) for k in range(3))
    noise_even = numpy.sqrt(mean(blue + green + red)) / 3.0
    noise_hue = numpy.sqrt(mean(blue + red + 2.0 * green))
    # The table's faint pattern (each grey level less its neighbourhood's), unsmoothed: a shadow scales
    # it, so it correlates with the reference's whatever the gain; an arm shows its own.
    window = (PATTERN_PX, PATTERN_PX)
    grey_now, grey_then = (
        (sum3(numpy.asarray(frame, numpy.float32)), sum3(reference)) if greys is None else greys
    )
    now_pattern = (grey_now - cv2.blur(grey_now, window))[inner].astype(numpy.float64)
    then_pattern = (grey_then - cv2.blur(grey_then, window))[inner].astype(numpy.float64)
    now_mean, then_mean = mean(now_pattern), mean(then_pattern)
    cross = mean(now_pattern * then_pattern) - now_mean * then_mean
    energies = (mean(now_pattern**2) - now_mean**2) * (mean(then_pattern**2) - then_mean**2)
    agreement = cross / numpy.sqrt(numpy.maximum(energies, 1e-12)) * numpy.sqrt(pixels)
    return pixels, spread(uneven), hue, agreement, noise_even, noise_hue


def lifted_shades(
    frame: numpy.typing.NDArray[numpy.uint8],
    reference: Floats,
    pieces: numpy.typing.NDArray[numpy.int32],
    within: Mask,
    greys: tuple[Floats, Floats],
) -> numpy.typing.NDArray[numpy.bool_]:
    """Per piece (`pieces`, numbered from 0 on), whether its pixels `within` are the table lifted smoothly
    out of a deep shadow: over `SHADE_MIN_PX` of them at least, their summed levels `SHADE_LIFTED` above
    the reference's (summed, the noise of near-black levels cancels out; less `SHADE_OFFSET` a channel, so
    that near-black noise lifts none that far), the log lift even (`SHADE_EVEN`)
    and the table's pattern showing (`SHADE_PATTERN_Z`). The evenness is measured with the offset scaled
    by the lift around each pixel (its window's ratio): a fixed offset, a large share of a near-black level
    and a small one of its lifted level, makes an even lift uneven wherever the table's own level varies.
    Only pieces lifted that far are measured further (an arm over a lit table is not). `greys`: the frame's
    and the reference's levels summed over the channels."""
    count = int(pieces.max()) + 1
    flat = pieces[within]
    pixels = numpy.bincount(flat, minlength=count).astype(numpy.float64)
    now, then = greys
    now_sum = numpy.bincount(flat, now[within], minlength=count)
    then_sum = numpy.bincount(flat, then[within], minlength=count)
    offset = numpy.float32(3 * SHADE_OFFSET)
    lifted = (pixels >= SHADE_MIN_PX) & (now_sum > then_sum * numpy.exp(SHADE_LIFTED) + offset * pixels)
    if not numpy.any(lifted):
        return numpy.asarray(lifted, bool)
    now, then = floats(cv2.blur(now, (3, 3))), floats(cv2.blur(then, (3, 3)))
    window = (SHADE_SMOOTH_PX, SHADE_SMOOTH_PX)
    gain = cv2.divide(cv2.blur(now, window) + offset, cv2.blur(then, window) + offset)
    lift = numpy.asarray(cv2.log(cv2.divide(now + offset * gain, then + offset)), numpy.float32)
    picked = (lift - cv2.blur(lift, window))[within].astype(numpy.float64)
    used = numpy.maximum(pixels, 1.0)
    centre = numpy.bincount(flat, picked, minlength=count) / used
    spread = numpy.sqrt(
        numpy.maximum(numpy.bincount(flat, picked * picked, minlength=count) / used - centre**2, 0.0)
    )
    lifted &= spread <= SHADE_EVEN
    if not numpy.any(lifted):
        return numpy.asarray(lifted, bool)
    return numpy.asarray(
        lifted & (shade_measures(frame, reference, pieces, within, greys)[3] >= SHADE_PATTERN_Z), bool
    )
