"""The table's texture in the reference (reference.py): grain, a weave, checks, compared with a plane's by
correlation over a few millimetres. A shadow or a lamp keeps it; an arm or a piece of the very colour of
the table hides it."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy
import numpy.typing

from companion.vision._reference_base import MASK_PX_PER_MM, at_least_zero, px, square
from companion.vision.table_light import Floats, Mask, floats, sum3

TEXTURE_MM = 9.0
"""Side of the window in which the plane's texture is compared with the reference's."""
TEXTURED = 4.0
"""Grey levels of deviation within that window above which the reference shows texture."""
KEPT_AGREEMENT = 0.7
"""Correlation with the reference's texture from which the plane shows the table itself
(`TableTexture.kept`)."""
LOST_AGREEMENT = 0.3
"""Correlation below which the texture is lost (`TableTexture.lost`: over an arm's width, a hand)."""
FADED_AGREEMENT = 0.5
"""Correlation below which the texture is faded (`TableTexture.hidden`): beside a piece, piece too. A tile
of the cloth's own colour over a print shows its digits where the print was, which correlate with it by
chance in places (burnt 20261136 Hornochsen, cream tiles on a cream print: 0.3-0.5 in patches)."""
FLATTER = 0.4
"""... as is the texture where the plane's deviation over `TEXTURE_MM` falls below this share of the
reference's: a flat tile over a print, however its few strokes correlate with it."""


PIECE_MM = 40.0
"""A cluster of foreground fragments no wider or taller than this is one piece (`pieces_whole`)."""
JOIN_MM = 4.0
"""Fragments this close are one cluster."""
WHOLE_SHARE = 0.8
"""A cluster covering this share of its box is whole already."""
TORN_SHARE = 0.45
"""... and one covering less than this share of its hull is no torn piece but specks (a felt's fluff or a
shadow's edge, scattered: made whole they read as a tile on an empty Asterion cell, dev seed 5)."""
FRAGMENTS_MM2 = 100.0
"""... and one of fragments covering less than this is none (specks of a print's line settled off)."""


_RIM = numpy.ones((3, 3), numpy.uint8)
"""A hull's rim, a mask pixel (2 mm) wide, as a kernel (`pieces_whole`)."""


def pieces_whole(
    foreground: numpy.typing.NDArray[numpy.uint8],
    hidden: numpy.typing.NDArray[numpy.uint8],
    unclear: numpy.typing.NDArray[numpy.uint8] | None = None,
) -> numpy.typing.NDArray[numpy.uint8]:
    """The foreground with each piece-sized cluster of fragments made whole (its convex hull): a tile of
    the cloth's own colour matches it where no texture tells them apart, and comes out torn around its
    digits; pieces and tiles are convex. Larger clusters (a row of tiles, pieces side by side) are left, and
    only what is `unclear` (1 there: where the cloth's texture does not clearly show, `hidden` if not given)
    is added; nothing on a plain cloth (nothing `hidden`, textured and not the cloth's own, anywhere)."""
    unclear = hidden if unclear is None else unclear
    if not cv2.countNonZero(hidden):
        # A plain cloth: no texture tells a piece from it (a felt's specks made whole read as a tile on an
        # empty Asterion cell, dev seed 5).
        return foreground
    joined = cv2.dilate(foreground, square(JOIN_MM))
    # The clusters' outlines (OpenCV's labelling with statistics cost five times as much).
    outlines, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    largest = round(PIECE_MM * MASK_PX_PER_MM) + px(JOIN_MM)
    least = FRAGMENTS_MM2 * MASK_PX_PER_MM**2
    reach = px(JOIN_MM) // 2
    out = foreground
    for outline in outlines:
        x, y, width, height = cv2.boundingRect(outline)
        if width > largest or height > largest or width * height < least:
            continue
        box = (slice(y, y + height), slice(x, x + width))
        cluster = numpy.zeros((height, width), numpy.uint8)
        cv2.drawContours(cluster, [outline], 0, 1, -1, offset=(-x, -y))
        found = cv2.findNonZero(foreground[box] & cluster)
        # Measured against the fragments' own box (the cluster's less the joining's reach).
        whole = WHOLE_SHARE * (width - 2 * reach) * (height - 2 * reach)
        if found is None or not least <= len(found) < whole:
            continue
        hull = cv2.convexHull(found)
        if len(found) < TORN_SHARE * cv2.contourArea(hull):
            continue
        cluster[:] = 0
        cv2.fillConvexPoly(cluster, hull, 1)
        if out is foreground:
            out = foreground.copy()
        # Where the texture tells, the whole hull; where nothing tells (`unclear` beyond `hidden`), only
        # within its rim: a blurred outline's hull overreaches there by a mask pixel, and a tile's face
        # let in at its rim was misread (dev 13 gingham 95 read 98, dev 55 printed 88 read 68), where a
        # hole well inside is surely tile.
        added = hidden[box]
        if unclear is not hidden:
            added = added | (numpy.asarray(cv2.erode(cluster, _RIM), numpy.uint8) & unclear[box])
        out[box] |= cluster & added
    return out


class HiddenTexture(NamedTuple):
    """Where a plane hides the reference's texture, by degrees (masks at the masks' size; bytes 0/1)."""

    lost: Mask
    """Hardly correlated at all (`LOST_AGREEMENT`): an arm or a piece of the table's colour."""
    faded: numpy.typing.NDArray[numpy.uint8]
    """Faded or flattened (`FADED_AGREEMENT`, `FLATTER`): piece, beside what differs."""
    unkept: numpy.typing.NDArray[numpy.uint8]
    """Textured, but not clearly the table's own (`KEPT_AGREEMENT`): none anywhere, a plain cloth."""
    unclear: numpy.typing.NDArray[numpy.uint8]
    """Not clearly the table's own texture: `unkept`, or where the reference shows too little texture to tell
    (a linen's weave is below `TEXTURED` over most of it): within a piece's hull, piece (`pieces_whole`).
    Burnt 20261140 Hornochsen linen: tiles torn around their tens digits (62 read 2, 29 empty) kept their
    hulls only where the weave was textured, a fifth of the face."""


class TableTexture:
    """The reference's grey levels, their local mean and deviation over `TEXTURE_MM`, and where it shows
    texture (all at the masks' size)."""

    def __init__(self) -> None:
        self._grey: Floats | None = None
        self._mean: Floats | None = None
        self._deviation: Floats | None = None
        self._textured: Mask = numpy.zeros(0, bool)
        self._flat: Floats = numpy.zeros(0, numpy.float32)
        """`FLATTER` times the reference's deviation: a plane's below it is flattened (`hidden`)."""

    def remember(self, image: Floats) -> None:
        """Take the texture of the reference `image` (at the masks' size)."""
        side = (px(TEXTURE_MM), px(TEXTURE_MM))
        grey = sum3(image) / 3.0
        mean = floats(cv2.blur(grey, side))
        self._grey, self._mean = grey, mean
        # OpenCV's per-element operations, as `lost`'s: numpy's arithmetic without its temporaries.
        variance = cv2.subtract(cv2.blur(cv2.multiply(grey, grey), side), cv2.multiply(mean, mean))
        self._deviation = floats(cv2.sqrt(at_least_zero(floats(variance))))
        self._textured = self._deviation > TEXTURED
        self._flat = floats(self._deviation * numpy.float32(FLATTER))

    def lost(self, corrected: Floats) -> Mask:
        """Where the reference shows texture (grain, a weave, checks) that the plane no longer shows: an
        arm of the very colour of the table hides it, a shadow keeps it."""
        if self._grey is None:
            return numpy.zeros(corrected.shape[:2], bool)
        return numpy.asarray(self._textured & (self._agreement(corrected)[0] < LOST_AGREEMENT), bool)

    def hidden(self, corrected: Floats) -> HiddenTexture:
        """Where the plane (`corrected`: in the reference's light) hides the reference's texture: `lost`'s
        mask, and the looser ones a piece's outline is mended with (reference.py's `look`)."""
        if self._grey is None or self._deviation is None:
            nothing = numpy.zeros(corrected.shape[:2], numpy.uint8)
            return HiddenTexture(nothing.view(bool), nothing, nothing, nothing)
        agreement, deviation = self._agreement(corrected)
        textured = self._textured
        faded = textured & ((agreement < FADED_AGREEMENT) | (deviation < self._flat))
        disagreeing = agreement < KEPT_AGREEMENT
        return HiddenTexture(
            textured & (agreement < LOST_AGREEMENT),
            faded.view(numpy.uint8),
            (textured & disagreeing).view(numpy.uint8),
            (~textured | disagreeing).view(numpy.uint8),
        )

    def kept(self, current: Floats) -> Mask:
        """Where the plane (in any light: the agreement is a correlation over a few millimetres, which a
        gain smooth over centimetres leaves alone) shows the reference's texture clearly: the table, lit
        or shaded, not an arm or a piece over it."""
        if self._grey is None:
            return numpy.zeros(current.shape[:2], bool)
        return numpy.asarray(self._textured & (self._agreement(current)[0] > KEPT_AGREEMENT), bool)

    def _agreement(self, corrected: Floats) -> tuple[Floats, Floats]:
        """Per pixel, the correlation of the plane's grey levels with the reference's over `TEXTURE_MM`, and
        the plane's deviation there."""
        assert self._grey is not None and self._mean is not None and self._deviation is not None
        side = (px(TEXTURE_MM), px(TEXTURE_MM))
        grey = sum3(corrected) / 3.0
        mean = floats(cv2.blur(grey, side))
        # OpenCV's per-element operations: the same arithmetic as numpy's, without its temporaries.
        square = floats(cv2.blur(cv2.multiply(grey, grey), side))
        deviation = cv2.sqrt(at_least_zero(floats(cv2.subtract(square, cv2.multiply(mean, mean)))))
        product = cv2.blur(cv2.multiply(grey, self._grey), side)
        covariance = cv2.subtract(product, cv2.multiply(mean, self._mean))
        agreement = floats(
            cv2.divide(covariance, floats(cv2.multiply(deviation, self._deviation)) + numpy.float32(1.0))
        )
        return agreement, floats(deviation)
