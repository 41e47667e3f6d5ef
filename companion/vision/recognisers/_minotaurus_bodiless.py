"""Minotaurus: a back whose body the reference took for the table, its emblem left (see minotaurus.py).

On a normalised plane a cell is empty when most of its middle is the neutral table (EMPTY_COVER). A back
whose colour, under the frame's light, matches what the reference saw of the cloth there (a navy back on
dark felt in a frame far darker than the empty area) is replaced by the neutral grey over most of its body;
what is left is its emblem, a thin mark in the middle, darker or lighter than the grey, and a few specks of
its edge. So a cell read empty that is still partly covered (BODILESS_COVER) is compared with the backs the
same frame shows plainly (SURE_COVER, SURE_POLARITY): where what is foreign in it lies as their emblem's
lines do (EMBLEM_LIKE), it is a back. A frame's own backs are its edition's, under its light, whatever
the emblem (a ring, a cross, a diamond); the table a normalisation left, a neighbour's edge, a lamp's
patch, are broad and lie as no emblem does.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.recognisers._minotaurus_cells import (
    COARSE_PX_PER_MM,
    EMPTY_COVER,
    MIDDLE_MM,
    Cells,
    FloatArray,
)
from companion.vision.recognisers._minotaurus_emblem import LINE_KERNEL
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL
from companion.vision.reference import NEUTRAL_BGR

BODILESS_COVER = 0.25
"""Least share of a cell's middle that is foreign for the cell read empty to be looked at as a back whose
body the reference took for the table. Burnt 20261141 felt (second print) frame 133: such backs 0.28-0.46;
the empty cells of H3's 22 generated hard sets and burnt 20261139-41 beside a piece or a patch the
reference left lie at every share under EMPTY_COVER, and are told by EMBLEM_LIKE."""
SURE_COVER = 0.95
"""Least foreign share of a cell's middle for a back read there to lend its emblem (SURE_POLARITY)."""
SURE_POLARITY = 0.5
"""Least ink_polarity of such a back: its emblem plainly lighter than it."""
SURE_BACKS = 3
"""The frame's plain backs nearest a cell that it is compared with (the same light, the same tilt)."""
SLACK_MM = 4.0
"""How far off the cell's centre its emblem is looked for (a piece lies askew and off its place)."""
EMBLEM_LIKE = 0.55
"""Least likeness (normalised cross-correlation) of a cell's foreign pixels to a plain back's emblem lines
(its grey's white top-hat, opened by LINE_MM) for the cell to be a back. Of the cells read empty for their
mostly neutral middle at BODILESS_COVER and over, on H3's 22 generated hard sets, dev 61 and 73 (14x12)
and burnt 20261139-41: the backs whose body the reference took 0.59 (dev 61 dark wood, a travel back's
diamond) and 0.61-0.67 (burnt 20261141 felt frame 133, four second-print crosses; two more there, half
their body left beside the emblem, 0.42 and 0.51), the empty ones 0.51 at most (a printed cloth's patch
the reference left, dev 13; under BODILESS_COVER an empty cell reaches 0.58). A dark disc drawn at a cell's
centre, a third of its middle, beside blurred second-print backs reaches 0.56 (a broad patch off the
centre 0.47): a centred blot is the case this rule is least sure of."""


def bodiless_backs(cells: Cells, classes: list[str], confidences: list[float], taken: list[int]) -> None:
    """On a normalised plane, in place: the cells read empty for their mostly neutral middle whose foreign
    pixels lie as the emblem of the frame's plain backs does are read down (see the module)."""
    if cells.covered is None:
        return
    covered = cells.covered
    unsure = [
        n
        for n, label in enumerate(classes)
        if label == "empty" and BODILESS_COVER <= covered[n] < EMPTY_COVER and n not in taken
    ]
    if not unsure:
        return
    sure = [
        n
        for n, label in enumerate(classes)
        if label == "down" and covered[n] >= SURE_COVER and cells.polarity[n] >= SURE_POLARITY
    ]
    if not sure:
        return
    emblems: dict[int, FloatArray | None] = {}
    for n in unsure:
        window = _foreign(cells, n)
        if window is None:
            continue
        distance = numpy.hypot(*(cells.centres[sure] - cells.centres[n]).T)
        likeness = -1.0
        for m in [sure[k] for k in numpy.argsort(distance, kind="stable")[:SURE_BACKS].tolist()]:
            if m not in emblems:
                emblems[m] = _emblem(cells, m)
            emblem = emblems[m]
            if emblem is not None:
                likeness = max(likeness, float(cv2.matchTemplate(window, emblem, cv2.TM_CCOEFF_NORMED).max()))
        if likeness >= EMBLEM_LIKE:
            classes[n], confidences[n] = "down", likeness


def _foreign(cells: Cells, n: int) -> FloatArray | None:
    """Cell n's middle and SLACK_MM about it: 1 where it is foreign (no neutral table), else 0; None where
    the plane's edge cuts it or it is all one (nothing to match)."""
    half = round((MIDDLE_MM / 2 + SLACK_MM) * COARSE_PX_PER_MM)
    window = _around(cells.small, cells.centres[n], half)
    if window is None:
        return None
    away = numpy.abs(window.astype(numpy.int16) - numpy.array(NEUTRAL_BGR, numpy.int16)).max(axis=2)
    foreign = (away > FOREGROUND_LEVEL).astype(numpy.float32)
    return None if foreign.min() == foreign.max() else foreign


def _emblem(cells: Cells, m: int) -> FloatArray | None:
    """A plain back's emblem: the white top-hat of its middle's grey (light lines, the body dark)."""
    half, reach = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM), LINE_KERNEL.shape[0]
    grey = numpy.asarray(
        cv2.cvtColor(cells.small, cv2.COLOR_BGR2GRAY) if cells.grey is None else cells.grey, numpy.uint8
    )
    around = _around(grey, cells.centres[m], half + reach)
    if around is None:
        return None
    hat = cv2.morphologyEx(around, cv2.MORPH_TOPHAT, LINE_KERNEL)[reach:-reach, reach:-reach]
    return None if hat.min() == hat.max() else hat.astype(numpy.float32)


def _around(
    image: numpy.typing.NDArray[numpy.uint8], centre: numpy.typing.NDArray[numpy.float64], half: int
) -> numpy.typing.NDArray[numpy.uint8] | None:
    """The square of side 2 * half about `centre` (x, y), or None where the image's edge cuts it."""
    x, y = (round(float(v)) for v in centre)
    height, width = image.shape[:2]
    if x - half < 0 or y - half < 0 or x + half > width or y + half > height:
        return None
    return image[y - half : y + half, x - half : x + half]
