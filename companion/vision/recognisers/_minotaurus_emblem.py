"""Minotaurus: a cell read down for its lighter marks that shows no back's emblem (see minotaurus.py).

A back's emblem, in every edition, is a thin light line (a ring, a diamond) inside the piece: lighter than
what lies a few millimetres either side of it. The table a normalisation left behind (a shadow cast after
the reference was taken, the edge of a lamp's pool, a patch of cloth) has lighter marks too, and its
marks' polarity can tell a back (BACK_POLARITY), but they are broad: the lit side of a shadow's edge, the
neutral table beside it. So a cell read down through its polarity alone is looked at again here: if no
line in its middle stands out of its surroundings (LINE_SHARE) and it does not show the back's pattern
either (BACK_SEEN), it is no back; a face washed by a glare (lit past the table, with a horn) or the
table (empty).
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import Frame
from companion.vision.recognisers._minotaurus_cells import (
    BACK_POLARITY,
    COARSE_PX_PER_MM,
    EMPTY_COVER,
    HORNS,
    MIDDLE_MM,
    Cells,
    FloatArray,
    GreyImage,
    _back_likeness,
    locate_piece,
)
from companion.vision.recognisers._minotaurus_glyphs import (
    HORN_BOX_MM,
    HORN_SLACK_PX,
    Glyphs,
    best_match,
    glyph_window,
)

EMBLEM_LINE = 18.0
"""Grey levels a pixel must stand above its grey opened by LINE_MM (its white top-hat) to be part of a
light line: a back's emblem shows such lines over LINE_SHARE of its middle, whatever its edition."""
LINE_MM = 7.0
"""Width under which a light mark counts as a line: a ring's or a diamond's stroke with room for blur."""
LINE_KERNEL = numpy.ones((round(LINE_MM * COARSE_PX_PER_MM),) * 2, numpy.uint8)
LINE_SHARE = 0.04
"""Least share of a cell's middle in light lines (EMBLEM_LINE) for its lighter marks to be a back's emblem.
Generated hard sets (dev 2 5 8 10 13 17 21 25 31 34 40 44 47 52 55 60 66 77 88 99, burnt 20261139 and
20261140): of 38239 cells read down through their polarity that were backs, 0.068 and more (backs in a
dark wood's deep shadow, their grey varying 8-9; one darker still, 0.02, varying 7, is read empty by
table_left_empty anyway), 0.1 % under 0.18; the seven that were none 0.028 at most: shadows' edges on
felt, dark wood and laminate, a lamp's pool on linen, a dark wood's patch the reference left (dev 2
twice, 44, 60, burnt 20261139) and a travel blue face under a laminate's glare (dev 60). (EMBLEM_LINE 15
parted them 0.048 / 0.075, 20 0.028 / 0.045.)"""
BACK_SEEN = 0.45
"""Likeness to the piece's back (the built-in one or a taught one) that keeps a cell with no emblem's line
down: a back whose pattern shows (minotaurus.BACK_CLEAR)."""
GLARE_LIT = 0.15
"""Least share of a piece's pixels lighter than the table (Cells.lit) for a cell read down without an
emblem to be looked at as a face: a face's ink is darker than it, and only a glare, which lights it past
the table, shows lighter marks on it (the travel blue face: 0.46). A shadow's edge is no lighter than the
table (0.0 for the six); a wood's patch is (0.41), and shows no horn (as DARK_WHITE_LIT)."""
DIM_LINE_RATIO = 0.8
"""Least ratio of the light tail of a cell's top-hat (DIM_LINE_TAIL) to its middle's median grey for a
cell with too few lines over EMBLEM_LINE to show its emblem all the same: a shade darkens the emblem's line
with the back, so in a deep one (a back's middle at grey 11) it stands only 12-16 levels over its
surroundings, yet still as far over them as the back's grey itself. Generated hard sets (H3's 22 and burnt
20261141, cells this rule reads): the two backs so dark 1.09 (burnt 20261139 dark wood, read empty by
table_left_empty anyway) and 1.39 (burnt 20261141 linen, read empty by LINE_SHARE before this); the 19
that were none 0.52 at most (one flat dark wood's patch, 0.82, varies 3.0: read empty by flat_cells_empty
whatever this reads)."""
DIM_LINE_TAIL = 97.5
"""Percentile of a cell's top-hat over its middle taken as its lines' level (a ring's, a diamond's stroke
covers some tenth of the middle; the table's noise, a shadow's broad edge, hardly a pixel in forty)."""
HORN_SEEN = 0.3
"""Least likeness of the horn for such a lit cell to be a face (as _minotaurus_checks.HORN_SEEN; the glared
blue face 0.58, the wood's patch 0.18)."""


def emblemless_downs(
    plane: Frame,
    cells: Cells,
    classes: list[str],
    confidences: list[float],
    back: GreyImage,
    glyphs: Glyphs,
) -> list[int]:
    """On a normalised plane, the cells read down whose marks' polarity told a back (BACK_POLARITY) but
    that show no emblem's lines (LINE_SHARE) nor the back's pattern (BACK_SEEN): those lit past the table
    that show a horn are returned (faces, for the caller to colour); the others are read empty in place."""
    if cells.covered is None:
        return []
    # (Not a face the reference took mostly for the table: its polarity tells nothing, and it is mostly
    # neutral, EMPTY_COVER.)
    downs = [
        n
        for n, label in enumerate(classes)
        if label == "down" and cells.polarity[n] >= BACK_POLARITY and cells.covered[n] >= EMPTY_COVER
    ]
    if not downs:
        return []
    shares = emblem_shares(cells, downs)
    faces: list[int] = []
    for n, share in zip(downs, shares.tolist(), strict=True):
        if share >= LINE_SHARE or dim_emblem(cells, n):
            continue
        x, y = (numpy.array([round(float(v))], numpy.intp) for v in cells.centres[n])
        small = cells.small if cells.grey is None else cells.grey
        if float(_back_likeness(small, x, y, back)[0, 0]) >= BACK_SEEN:
            continue
        if (
            cells.lit is not None
            and float(cells.lit[n]) >= GLARE_LIT
            and _horn(plane, cells, n, glyphs) >= HORN_SEEN
        ):
            faces.append(n)
            continue
        classes[n], confidences[n] = "empty", float(1.0 - 0.5 * share / LINE_SHARE)
    return faces


def emblem_shares(cells: Cells, cells_at: list[int]) -> FloatArray:
    """Per cell of `cells_at`, the share of its middle (MIDDLE_MM) that stands out of what lies about it as
    a light line does: its grey's white top-hat (opened by LINE_MM) at least EMBLEM_LINE."""
    grey = cv2.cvtColor(cells.small, cv2.COLOR_BGR2GRAY) if cells.grey is None else cells.grey
    half = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM)
    height, width = grey.shape
    centres = numpy.round(cells.centres[cells_at]).astype(numpy.intp)
    low = numpy.clip(centres - half, 0, (width, height))
    high = numpy.clip(centres + half, 0, (width, height))
    # Only about these cells (and as far beyond as the opening reaches): the margins hold none.
    reach = LINE_KERNEL.shape[0]
    x0, y0 = (max(0, int(v) - reach) for v in low.min(axis=0))
    hat = cv2.morphologyEx(
        grey[y0 : int(high[:, 1].max()) + reach, x0 : int(high[:, 0].max()) + reach],
        cv2.MORPH_TOPHAT,
        LINE_KERNEL,
    )
    lines = cv2.integral(cv2.threshold(hat, EMBLEM_LINE - 1, 1, cv2.THRESH_BINARY)[1])
    (left, top), (right, bottom) = (low - (x0, y0)).T, (high - (x0, y0)).T
    count = lines[bottom, right] - lines[top, right] - lines[bottom, left] + lines[top, left]
    return numpy.asarray(count / numpy.maximum((right - left) * (bottom - top), 1), numpy.float32)


def dim_emblem(cells: Cells, n: int) -> bool:
    """Whether cell n's middle shows light lines that stand over their surroundings by DIM_LINE_RATIO of its
    own median grey (a back's emblem in a deep shade, see DIM_LINE_RATIO)."""
    grey = cv2.cvtColor(cells.small, cv2.COLOR_BGR2GRAY) if cells.grey is None else cells.grey
    half, reach = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM), LINE_KERNEL.shape[0]
    height, width = grey.shape
    x, y = (round(float(v)) for v in cells.centres[n])
    if x - half - reach < 0 or y - half - reach < 0 or x + half + reach > width or y + half + reach > height:
        return False
    around = grey[y - half - reach : y + half + reach, x - half - reach : x + half + reach]
    hat = cv2.morphologyEx(around, cv2.MORPH_TOPHAT, LINE_KERNEL)[reach:-reach, reach:-reach]
    level = max(float(numpy.median(around[reach:-reach, reach:-reach])), 1.0)
    return float(numpy.percentile(hat, DIM_LINE_TAIL)) >= DIM_LINE_RATIO * level


def _horn(plane: Frame, cells: Cells, n: int, glyphs: Glyphs) -> float:
    """The horn's best likeness about the piece in cell n."""
    x, y = locate_piece(cells.small, cells.centres[n], cells.tables[n])
    grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM))
    return best_match(grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX)[3]
