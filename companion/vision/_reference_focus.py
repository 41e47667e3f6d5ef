"""The camera's focus, as the reference (reference.py) meets it: a plane sharper than the empty area was when
learned. A camera's focus and motion blur differ from frame to frame; a reference learned from a soft frame
holds a printed cloth's thin lines and edges at the levels it mixed with the cloth beside them, and a sharp
frame shows them at their full colours, beyond that range. Specks along them, closed into rings and filled,
came out as pieces of the print's colour (burnt 20261151 printed cloth session 12 frame 5: the halves of
yellow diamonds beside the board read as yellow Minoa pieces on two edge lines, and as an Asterion tile)."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.table_light import Floats, Mask, floats

SHARPER_FROM = 1.2
"""How much more of the reference's detail a plane shows (`Focus.slope`) before the reference is sharpened to
it (burnt 20261151 printed cloth session 12: 0.74-1.48 a frame, 1.36-1.47 where the diamonds came out pieces;
a light wood's grain 0.57-1.02). At 1.15 a gingham frame at 1.17 lost a Hornochsen tile's corner pixel, and
its 92 read 2 (burnt 20261146 session 04 frame 12)."""
SHARPEST = 2.0
"""The most the reference's detail is ever multiplied by."""

_BOX = (3, 3)
"""The detail: what differs from the mean of a pixel's neighbourhood (mask pixels)."""
_NEIGHBOURS = numpy.ones((3, 3), numpy.uint8)
"""The neighbourhood of the reference's ranges (`LearnedReference._set_image`)."""


class Focus:
    """The reference's detail, and how much of it a plane shows where no item lies (only the table there, or
    a hand)."""

    def __init__(self) -> None:
        self._detail: Floats = numpy.zeros(0, numpy.float32)
        self._weighted: Floats = numpy.zeros(0, numpy.float32)
        """The detail where no item lies, divided by its energy there: its dot product with a plane's detail
        is the slope."""

    def remember(self, image: Floats, free: Mask) -> None:
        """Take the detail of the reference `image`; `free`: where no item lies."""
        self._detail = floats(cv2.subtract(image, cv2.blur(image, _BOX)))
        weighted = numpy.multiply(self._detail, free[..., None], dtype=numpy.float32)
        energy = float(numpy.vdot(weighted, weighted))
        self._weighted = floats(weighted / numpy.float32(energy)) if energy > 0.0 else weighted

    def slope(self, corrected: Floats) -> float:
        """How much of the reference's detail the plane (`corrected`: in the reference's light) shows where
        no item lies, by least squares: 1 as sharp as the reference, under 1 softer. The camera's noise in
        either does not correlate, and whatever is no table there (a hand) shows none of the detail: both only
        lower the slope."""
        detail = cv2.subtract(corrected, cv2.blur(corrected, _BOX))
        return float(numpy.vdot(detail, self._weighted))

    def sharpened(self, image: Floats, low: Floats, high: Floats, corrected: Floats) -> tuple[Floats, Floats]:
        """The reference's neighbourhood ranges (`low`, `high`, of `image`), widened to what the plane, when
        sharper than the reference by `SHARPER_FROM` or more, shows of it: the reference with its detail
        multiplied by the slope (at most `SHARPEST`)."""
        slope = self.slope(corrected)
        if slope < SHARPER_FROM:
            return low, high
        sharp = floats(cv2.scaleAdd(self._detail, min(slope, SHARPEST) - 1.0, image))
        return (
            floats(cv2.min(low, cv2.erode(sharp, _NEIGHBOURS))),
            floats(cv2.max(high, cv2.dilate(sharp, _NEIGHBOURS))),
        )
