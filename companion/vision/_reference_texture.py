"""The table's texture in the reference (reference.py): grain, a weave, checks, compared with a plane's by
correlation over a few millimetres. A shadow or a lamp keeps it; an arm or a piece of the very colour of
the table hides it."""

from __future__ import annotations

import cv2
import numpy

from companion.vision._reference_base import at_least_zero, px
from companion.vision.table_light import Floats, Mask, floats, sum3

TEXTURE_MM = 9.0
"""Side of the window in which the plane's texture is compared with the reference's."""
TEXTURED = 4.0
"""Grey levels of deviation within that window above which the reference shows texture."""
KEPT_AGREEMENT = 0.7
"""Correlation with the reference's texture from which the plane shows the table itself
(`TableTexture.kept`)."""


class TableTexture:
    """The reference's grey levels, their local mean and deviation over `TEXTURE_MM`, and where it shows
    texture (all at the masks' size)."""

    def __init__(self) -> None:
        self._grey: Floats | None = None
        self._mean: Floats | None = None
        self._deviation: Floats | None = None
        self._textured: Mask = numpy.zeros(0, bool)

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

    def lost(self, corrected: Floats) -> Mask:
        """Where the reference shows texture (grain, a weave, checks) that the plane no longer shows: an
        arm of the very colour of the table hides it, a shadow keeps it."""
        if self._grey is None:
            return numpy.zeros(corrected.shape[:2], bool)
        return numpy.asarray(self._textured & (self._agreement(corrected) < 0.3), bool)

    def kept(self, current: Floats) -> Mask:
        """Where the plane (in any light: the agreement is a correlation over a few millimetres, which a
        gain smooth over centimetres leaves alone) shows the reference's texture clearly: the table, lit
        or shaded, not an arm or a piece over it."""
        if self._grey is None:
            return numpy.zeros(current.shape[:2], bool)
        return numpy.asarray(self._textured & (self._agreement(current) > KEPT_AGREEMENT), bool)

    def _agreement(self, corrected: Floats) -> Floats:
        """Per pixel, the correlation of the plane's grey levels with the reference's over `TEXTURE_MM`."""
        assert self._grey is not None and self._mean is not None and self._deviation is not None
        side = (px(TEXTURE_MM), px(TEXTURE_MM))
        grey = sum3(corrected) / 3.0
        mean = floats(cv2.blur(grey, side))
        # OpenCV's per-element operations: the same arithmetic as numpy's, without its temporaries.
        square = floats(cv2.blur(cv2.multiply(grey, grey), side))
        deviation = cv2.sqrt(at_least_zero(floats(cv2.subtract(square, cv2.multiply(mean, mean)))))
        product = cv2.blur(cv2.multiply(grey, self._grey), side)
        covariance = cv2.subtract(product, cv2.multiply(mean, self._mean))
        return floats(
            cv2.divide(covariance, floats(cv2.multiply(deviation, self._deviation)) + numpy.float32(1.0))
        )
