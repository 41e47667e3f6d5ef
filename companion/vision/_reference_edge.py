"""What a shadow-like pixel's edge says: a cast shadow fades at its penumbra, ink and a black stick are
edged sharply (`TableReference._look`)."""

from __future__ import annotations

import cv2
import numpy

from companion.vision._reference_base import at_most
from companion.vision.table_light import Floats, Mask, floats

STEEP_EDGE = 0.3
"""How much darker (as `darkening`, a share of the light) than the matched table beside it a shadow-like
pixel may be and still be a cast shadow: a penumbra fades over more than a mask pixel (a piece's shadows
stepped by 0.11-0.28 beside the table in the frames below, a digit's ink by 0.43-0.48)."""
PLAIN_RANGE = 0.13
"""The table's neighbourhood range (`LearnedReference.table_range`) under which it is plain enough to tell a
shadow's edge by its step: laminates, woods, linens 0.06-0.12, prints 0.15, ginghams 0.27."""
_NEIGHBOURS = numpy.ones((3, 3), numpy.uint8)


def sharp_edged(cast_shadow: Mask, darkening: Floats, matches: Mask, table_range: float) -> Mask:
    """The `cast_shadow` pixels (and those touching them) that stand `STEEP_EDGE` or more below the matched
    table beside them: no shadow but a surface of its own. In a glare that made a tile's face match the
    laminate, its digit darkened the face by half within a mask pixel right beside the tile and was taken
    for the shadow the tile casts (burnt 20261151 Hornochsen laminate frame 11: 52 read empty, 28 read 2;
    Minoa laminate frame 12: a black stick on the board's line read empty). Told on a plain table only:
    on a gingham or a print every pixel's darkening is off by the pattern's edges, which the camera never
    settles on alike (matched up to 1.2 times), and a tile's ink there was a close call either way (burnt
    20261149 Hornochsen printed frame 10, 18 read 15)."""
    if table_range >= PLAIN_RANGE:
        return numpy.zeros_like(cast_shadow)
    # The table's level beside each pixel, no brighter than the light.
    lit = cv2.dilate(cv2.bitwise_and(darkening, darkening, mask=matches.view(numpy.uint8)), _NEIGHBOURS)
    steep = cast_shadow & (cv2.subtract(at_most(floats(lit), 1.0), darkening) > STEEP_EDGE)
    return (cv2.dilate(steep.view(numpy.uint8), _NEIGHBOURS) > 0) & cast_shadow
