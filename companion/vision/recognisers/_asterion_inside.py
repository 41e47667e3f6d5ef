"""Asterion: whether a cell's inside shows any of a tile's grey (`greyless`).

A tile's inside is walls and paths printed grey and sand, whatever its frame's colour; the table the
reference kept (a wood under a shadow it never saw) is one hue throughout, its grain giving it walls'
spread of grey and its colour giving its corners a frame colour.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window, table_painted

GREYLESS_ASKED = 0.4
"""A cell read as a tile whose designs correlate under this with it is asked whether its inside shows
grey (`GREYLESS_SHARE`): no better designed ones were. Of the tiles read on dev 2-83 and burnt
20261140-51 (taught editions too), those under 0.4 showed 0.14 of their inside grey or more; from 0.407
up there are tiles with none (a second print's yellow on dark wood, its walls lit orange: 0.44-0.49)."""
GREYLESS_SHARE = 0.1
GREYLESS_CHROMA = 16.0
"""A cell so asked is empty when under GREYLESS_SHARE of its inside (INSIDE_PX square, as it lies) is
grey, CIELAB chroma (8-bit a and b from 128) under GREYLESS_CHROMA. Why: burnt 20261151 light wood f9,
something that blocked the lamp left a shadow over the table the reference kept as wood, yellow-brown
at every pixel: three empty cells, their corners voted yellow at 0.70-0.92, the grain's spread of grey
13-25, correlated 0.25-0.36 with yellow designs and were read as yellow tiles (no pixel of their inside
grey; the dev and burnt sets' like cases: felt as green, light wood as red or yellow, 0-0.09)."""
INSIDE_PX = 24
"""The inside measured: 60 % of a tile's side around its middle, clear of the frame's rim."""

_FROM = SHIFT_PX + (TEMPLATE_PX - INSIDE_PX) // 2


def greyless(window: Window) -> bool:
    """Whether under GREYLESS_SHARE of the window's inside (INSIDE_PX square about its middle) is grey.
    The table's NEUTRAL_BGR is no tile's grey: burnt 20261152 felt f9, an empty cell the reference
    matched but for a ring of felt darkened by its four neighbours' shadows, blue at 0.99 of its corners,
    correlated 0.36 with blue's designs: 0.80 of its inside was the table's grey, 0.05-0.07 grey besides
    (blended with it). Not the blended pixels too: a dark wood's yellow bend whose dark walls the
    reference matched showed 0.11-0.15 of its inside grey besides the table's, 0.01-0.05 unblended."""
    inside = numpy.ascontiguousarray(window.bgr[_FROM : _FROM + INSIDE_PX, _FROM : _FROM + INSIDE_PX])
    lab = cv2.cvtColor(inside, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(numpy.float32)
    chroma = numpy.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0)
    grey = chroma < GREYLESS_CHROMA
    table = table_painted(inside).reshape(-1) > 0
    return float(numpy.count_nonzero(grey & ~table)) < GREYLESS_SHARE * len(chroma)
