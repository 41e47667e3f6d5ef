"""The band's texture tests (surround.py compares the band side by side, _surround_side.py): where the
reference's texture (grain, weave, checks) is lost, the per-pixel planes its agreement with the reference's
is summed from, and per changed region whether it keeps that texture under one gain (a shadow) or hides it
(an arm). Separate from the band's light and geometry: these are the evidence a region crossing the band
is the table under a shadow, weighed on their own."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision._surround_side import Side
from companion.vision.table_light import Floats, Mask, sum3

TEXTURE_PX = 5
"""Side of the window (mask pixels) in which the band's texture is compared with the reference's."""
TEXTURED = 4.0
"""Grey levels of deviation within that window above which the reference shows texture."""
KEPT_TEXTURE = 0.4
"""A region crossing the band whose texture (each pixel less its neighbourhood's level, relative to it:
`centred`) agrees this well with the reference's is the table under a shadow, however deep: a
sharp-edged player's shadow keeps the wood's grain, an arm replaces it. Taken relative to the level plus
2 instead, a flat patch on dark wood keeps an offset that alone agreed 0.8-0.9: a flat sleeve in a
shadow, a round dark arm over faintly grained light wood, read as the table. Dev seeds (44 sets, 589
regions crossing the band): shadows at rest from 60 pixels agree 0.51-0.98 centred, at most 0.10 less
than taken with the offset; arms' regions up to 0.45 less (linen: 0.62 with it, 0.35 without)."""
KEPT_TEXTURE_PX = 60
"""Textured mask pixels of a region, away from its edges, that the texture's agreement is judged on (on
a plain cloth there is no texture to keep: the region's depth and hue decide alone). A deep shadow on
faintly grained dark wood leaves few pixels that differ enough to count (83 of a player's shadow over the
band, correlation 0.70: dev minoa 77 dark wood, refused at 100); an arm hides the grain, and over 60
pixels its chance correlation (some 1/sqrt(60) = 0.13) stays far below `KEPT_TEXTURE`. From so many pixels
on `KEPT_TEXTURE` alone decides: a flat sleeve filling half a shadow, the shadow's grain on both sides,
agreed 0.32 over 250 pixels, as unlikely by chance as `KEPT_TEXTURE_Z` asks yet no shadow's agreement."""
KEPT_TEXTURE_Z = 4.0
"""Fewer textured pixels than `KEPT_TEXTURE_PX` (down to `KEPT_TEXTURE_MIN_PX`) tell a kept texture when
their correlation times the square root of their count reaches this: as unlikely by chance as
`KEPT_TEXTURE` over 100 pixels; taken on the textures with their own levels taken out (`centred`: a flat
region's level relative to its neighbourhood's plus 2 is an offset that correlates by itself). A player's
sharp shadow a third deep over dark wood leaves 25-39 such pixels (burnt 20261139: Minotaurus session 08
frames 6 and 10, correlation 0.92 and 0.89; Hornochsen session 08 frame 8, 0.94), refused as arms."""
KEPT_TEXTURE_SURE_Z = 8.0
"""A region whose texture agrees this surely (`KEPT_TEXTURE_Z`'s measure) and that lost it nowhere (under
a quarter of a wrist's crossing of the band) is the table under a shadow however much its depth spreads
(`KEPT_DEPTH_SPREAD`): the band's light, measured over cells wider than a sharp shadow's edge, bends part
of the way towards it, and the darkening against it varies over the shadow (dev hornochsen 2, dark wood
frame 6: 0.26, its texture at 11.4, nothing lost). A sleeve laid in such a shadow hides the grain under
it; an arm's shadow over linen with the arm beyond the band, its depth spread 0.215, agreed at 4.6 (dev
hornochsen 34)."""
KEPT_TEXTURE_MIN_PX = 20
"""Fewest textured pixels that tell a kept texture at all (`KEPT_TEXTURE_Z`)."""
KEPT_FEW_CONTRAST = 2.0
"""With fewer textured pixels than `KEPT_TEXTURE_PX` (`KEPT_TEXTURE_Z`) the texture is kept only at the
reference's contrast (relative to its neighbourhood's level) within this factor: a shadow scales the
table's texture by one factor, its contrast stays (1.0-1.3 times the reference's on those burnt frames).
Those few pixels lie along a few grain lines and may correlate by chance: a flat dark sleeve over
faintly grained dark wood showed 28 at 0.92 (before its level was taken out), at 3.7 times the grain's
contrast."""
KEPT_DISTANCE = 3.0
"""Only pixels that differ from the reference this much (in tolerances) tell whether a region keeps its
texture."""
KEPT_UNLIKE = 0.1
"""Share of a shaded region's differing pixels that may be of another hue than a shadow's (noise)."""
KEPT_DEPTH_SPREAD = 0.2
"""Deviation of the log darkening within a shaded region (a player's shadow is as deep all over, some
0.1; an arm and its shadow joined differ by more, even a grey sleeve of the shadow's hue)."""
KEPT_LOST_SHARE = 0.4
"""A region whose texture is lost (`texture_lost`) over this share of its pixels the texture test is taken on
(and over a quarter of a wrist's crossing of the band) hides the table: an arm, however well the rest agrees.
A black sleeve over plain laminate, across the marker sheet's paper edge, darkens the band like a deep
shadow, and the few pixels the correlation was taken on (the paper's edge beside it, noise on black)
agreed with the reference's (0.47); it had lost the texture over 56 % of them, players' shadows on light
wood 3-22 %."""
TEXTURE_PLANES = 9
"""Planes of `Surround.changed`'s texture (see `kept_texture`)."""


def texture_lost(corrected: Floats, side: Side) -> tuple[Mask, Floats, Floats]:
    """Where the reference shows texture (grain, weave, checks) that is gone over a wide window: an
    arm of the very colour of the table hides it, a shadow keeps it. With the grey levels and their
    mean over the window."""
    window = (TEXTURE_PX, TEXTURE_PX)
    grey = sum3(corrected) / 3.0
    mean = numpy.asarray(cv2.blur(grey, window), numpy.float32)
    # OpenCV's per-element operations: the same arithmetic as numpy's, without its temporaries.
    variance = cv2.subtract(cv2.blur(cv2.multiply(grey, grey), window), cv2.multiply(mean, mean))
    deviation = cv2.sqrt(cv2.threshold(variance, 0.0, 0.0, cv2.THRESH_TOZERO)[1])
    covariance = cv2.subtract(
        cv2.blur(cv2.multiply(grey, side.grey), window), cv2.multiply(mean, side.grey_mean)
    )
    correlation = cv2.divide(covariance, cv2.multiply(deviation, side.grey_deviation) + numpy.float32(1.0))
    lost = (side.textured & (correlation < 0.3)).astype(numpy.float32)
    return numpy.asarray(cv2.blur(lost, window) > 0.6, bool), grey, mean


def kept_texture(
    centred: Floats,
    side: Side,
    steep: Mask,
    distance: Floats,
    shadow_hue: Mask,
    darkening: Floats,
    lost: Mask,
) -> Floats:
    """Per pixel, what `shaded` sums over a region (`shadow_hue`: where the pixel may be the table under
    another light: a shadow's hue and depth, or brighter where no texture is lost, as when a shadow over
    the band while the empty area was learned has lifted by more than the band's light follows, not
    an arm of the table's hue hiding its grain): where the reference is textured, the pixel differs and no
    steep edge is near (a shadow's is no texture of the table; the table around an arm that the
    band's changes take in keeps its texture), the reference's texture energy (where it is above zero, the
    region's textured pixels); then whether the pixel is of no shadow's hue, whether it counts, its log
    darkening and that squared, and whether its texture is lost (`lost`); last, the correlation's cross
    product and two energies of the band's texture with the reference's, each with its own level taken
    out (`centred`: the grey level less its neighbourhood's, relative to it, so a shadow's gain drops out
    and a flat region keeps no offset that could agree with a dark reference's)."""
    differing = distance >= KEPT_DISTANCE
    left_out = (steep | ~differing).astype(numpy.uint8)
    edge = cv2.dilate(left_out, numpy.ones((3, 3), numpy.uint8)) > 0
    # What differs yet is of no shadow's hue (`shadow_hue`): an arm's, not the table's.
    unlike = differing & ~shadow_hue
    # A shadow's depth is one within it; an arm beside it (a grey sleeve on a print) is at another.
    # Only its steep pixels are left out: leaving out its whole edge as the texture test does also
    # dropped a skin-toned arm's pixels beside a sharp shadow, and the arm went unseen.
    counted = differing & ~steep
    planes = numpy.empty((TEXTURE_PLANES, *centred.shape), numpy.float32)
    textured = numpy.where(edge, 0.0, side.relative)
    numpy.multiply(textured, textured, out=planes[0])
    planes[1], planes[2] = unlike, counted
    numpy.log(numpy.maximum(darkening, numpy.float32(0.01)), out=planes[3])
    planes[3][~counted] = 0.0
    numpy.multiply(planes[3], planes[3], out=planes[4])
    planes[5] = lost
    reference = numpy.where(edge, 0.0, side.centred)
    numpy.multiply(centred, reference, out=planes[6])
    numpy.multiply(centred, centred, out=planes[7])
    planes[7][reference == 0.0] = 0.0
    numpy.multiply(reference, reference, out=planes[8])
    return planes


def shaded(
    labels: numpy.typing.NDArray[numpy.int32],
    count: int,
    texture: Floats,
    width: float,
    margin: int,
    band_pixels: numpy.typing.NDArray[numpy.intp],
) -> tuple[Mask, Mask]:
    """Per region, whether its part in the band keeps the reference's texture under one gain
    (`width`: an arm's least, in mask pixels; `margin`: the band's width, `band_pixels`: its pixels'
    indices in an image of its size, raveled); and whether it does only as its texture is kept so surely
    (`KEPT_TEXTURE_SURE_Z`) that its depth may spread beyond `KEPT_DEPTH_SPREAD` (that sureness speaks for
    the pixels that hold the texture: `BandCrossing.crossing` judges such a region's pieces by themselves)."""
    m = margin
    # The band's pixels alone (the plane's are zeros in the texture, and no part of a region there).
    flat = labels.ravel()[band_pixels]
    planes = texture.reshape(TEXTURE_PLANES, -1)[:, band_pixels]
    sums = [numpy.bincount(flat, planes[k], minlength=count) for k in range(TEXTURE_PLANES)]
    textured = numpy.bincount(flat[planes[0] > 0.0], minlength=count)
    # An arm beside its own shadow: the shadow keeps the texture, the arm's other hue tells it.
    # However large the shadow it lies in, a quarter of a wrist's crossing of the band is an arm.
    alike = sums[1] <= numpy.minimum(KEPT_UNLIKE * sums[2], width * m / 4.0)
    inner = numpy.maximum(sums[2], 1.0)
    spread = numpy.sqrt(numpy.maximum(sums[4] / inner - (sums[3] / inner) ** 2, 0.0))
    # The texture's agreement with its own level taken out, at the reference's contrast (a shadow
    # scales it by one factor): how unlikely by chance (`KEPT_TEXTURE_Z`, `KEPT_TEXTURE_SURE_Z`).
    centred = sums[6] / numpy.sqrt(sums[7] * sums[8] + 1e-12)
    contrast = numpy.sqrt(sums[7] / numpy.maximum(sums[8], 1e-12))
    scaled = (contrast <= KEPT_FEW_CONTRAST) & (contrast >= 1.0 / KEPT_FEW_CONTRAST)
    evidence = numpy.where(scaled, centred * numpy.sqrt(textured), 0.0)
    # Where it lost no texture at all (less than a quarter of a wrist's crossing of the band).
    sure = (evidence >= KEPT_TEXTURE_SURE_Z) & (sums[5] < width * m / 4.0)
    alike &= (spread <= KEPT_DEPTH_SPREAD) | sure
    # A shadow keeps the texture nearly everywhere; an arm hides it wherever it lies over some (the
    # correlation, summed over the region, may still be carried by the rest of it).
    alike &= (sums[5] < KEPT_LOST_SHARE * textured) | (sums[5] < width * m / 4.0)
    many = textured >= KEPT_TEXTURE_PX
    # Over so many pixels the agreement alone tells, whatever the contrast (a player's shadow over
    # linen kept the weave at 2.5 times the reference's contrast: burnt 20261138, Minoa session 10
    # frame 9, centred 0.403 over 1113 pixels): by chance, 0.4 over 60 pixels is three deviations out.
    kept = many & (centred > KEPT_TEXTURE)
    # Fewer pixels tell it only with a correlation as unlikely by chance (over more, `KEPT_TEXTURE`).
    kept |= ~many & (textured >= KEPT_TEXTURE_MIN_PX) & (evidence >= KEPT_TEXTURE_Z)
    out = numpy.asarray(kept & alike, bool)
    return out, out & (spread > KEPT_DEPTH_SPREAD)
