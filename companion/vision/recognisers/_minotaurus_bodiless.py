"""Minotaurus: a back whose body the reference took for the table, its emblem left (see minotaurus.py).

On a normalised plane a cell is empty when most of its middle is the neutral table (EMPTY_COVER). A back
whose colour, under the frame's light, matches what the reference saw of the cloth there (a navy back on
dark felt in a frame far darker than the empty area) is replaced by the neutral grey over most of its body;
what is left is its emblem, a thin mark in the middle, darker or lighter than the grey, and a few specks of
its edge. So a cell read empty that is still partly covered (BODILESS_COVER) is compared with the backs the
same frame shows plainly (SURE_COVER, SURE_POLARITY): where what is foreign in it lies as their emblem's
lines do (EMBLEM_LIKE), it is a back. A frame's own backs are its edition's, under its light, whatever
the emblem (a ring, a cross, a diamond); the table a normalisation left, a neighbour's edge, a lamp's
patch, are broad and lie as no emblem does. Where several cells of one frame show the emblem so (FRAME_BACKS)
the reference took the backs' colour for the cloth's under that frame's light, not one piece's shadow: every
back there lost its body alike, and a fainter likeness, a thinner remnant, is taken (FRAME_LIKE, FRAME_COVER).
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
SURE_COVER = 0.6
"""Least foreign share of a cell's middle for a back read there to lend its emblem (SURE_POLARITY). Bench
seed 20261142 felt (second print, blue backs on blue felt, session 13): in a frame whose every back lost
most of its body the plainest were 0.69-0.91 foreign; at 0.6 nothing else changes on the dev sets."""
SURE_POLARITY = 0.3
"""Least ink_polarity of such a back: its emblem plainly lighter than it. 0.5 left a frame with no back to
lend its emblem: bench seed 20261148 felt (second print, navy backs on navy felt in a very dim room,
session 13), where the backs read down showed polarity -0.05 to 0.36 and five bodiless ones read empty.
At 0.3, on the pipeline's planes of 35 dev and burnt sets (dev hard sets of seeds 2-99, burnt 20261138-42
and 44-46), 11 items more right and none lost (frames 2858 -> 2859); on 20261148 6868 -> 6882 of 6900."""
FEW_LENDERS = 2
FEW_COVER = 0.5
"""Where fewer than FEW_LENDERS backs are plain at SURE_COVER, backs from FEW_COVER foreign lend their emblem
too: a lone plain back may be speckled, its emblem unlike its neighbours'. Bench seed 20261148 felt (second
print, a very dim room, session 13, frame 000002): one back at SURE_COVER (0.71), its emblem speckled, and
11 bodiless backs read empty; with one more back read down, 0.52 foreign (polarity 0.37), lending its
emblem they read down. SURE_COVER 0.5 in every frame righted them too but lost two cells elsewhere. On
the pipeline's planes of 35 dev and burnt sets (dev 2-99, burnt 20261138-42, 44-46) nothing else changes."""
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
FRAME_BACKS = 4
"""Cells at EMBLEM_LIKE in one frame that show the reference took the frame's backs' bodies for the table
as a whole (its light and the backs' colour, not one piece's shadow): there every cell read empty that is
FRAME_COVER foreign is a back at FRAME_LIKE. Dev and burnt sets: only burnt 20261141 frame 133 has more
than one (four backs); bench seed 20261142 felt session 13 has 10-30 in each of its eight frames."""
FRAME_LIKE = 0.45
"""Least likeness to the plain backs' emblem in such a frame. Bench seed 20261142 felt: its bodiless
backs 0.36-0.78, 7 of 180 under this; the empty cells looked at there 0.17 and 0.28, on the dev and burnt
sets 0.51 at most (a lone cell, one in its frame) and under 0.47 in frames with several."""
FRAME_COVER = 0.15
"""Least foreign share of a cell's middle in such a frame (BODILESS_COVER elsewhere): a back left with its
thin emblem alone, 0.2-0.25 foreign.

Where no rule here can reach, measured so it is not tried again: bench seed 20261149 (burnt) felt session 13
(second print), frames 000005 and 000008, 46 cells wrong, the same untaught and with the second print taught
on dark wood (the plane holds no back to match the taught one with). A shadow cast over the matrix after the
reference was taken (the table there 10-20 grey levels of 255 in the frame) was painted neutral with every
piece in it, emblem and all, and a pale blue face too. In 000005 the shadowed backs keep 0.06-0.19 of their
middle foreign, likeness 0.46-0.73 to the lit backs' emblem, an empty cell 0.12 and 0.64; in 000008 (all but
two columns shadowed) 22 backs keep 0-0.08 (7 of them nothing), the empty cells 0-0.08: no cover or likeness
tells them apart. The frame itself does: the plus's white top-hat, matched as a cross, peaks at every back
even in the deepest shadow of the un-normalised plane. That is for the reference to keep, not for a recogniser
that is handed the plane already painted."""

PEER_BACKS = 3
PEER_LIKE = 0.75
REMNANT_MM = 8.0
"""Where PEER_BACKS cells or more of a frame were found bodiless backs, those left (as foreign as they, under
their likeness) are backs too where their foreign pixels lie as the middle REMNANT_MM square of PEER_BACKS of
the found ones do, at PEER_LIKE: a back that lost its body lends what it kept, the plus of that frame's
edition at that frame's tilt, where the plain backs are few or far (a lender's emblem matches cells across
the matrix less well). Bench seed 20261142 felt (second print, session 13), frames 131 and 134: one plain
back (cell 49) in 134, and nine bodiless backs read empty at 0.07-0.40 alike its emblem were 0.82-1.0 alike
the found backs' remnants; frame 131's two at 0.87 and 0.97. On the pipeline's planes of 37 dev and burnt
sets (dev 2-99 cached, burnt 20261138-42, 44-46, 48, 49, and 49's second print taught as the bench does) no
other cell comes to this rule: 11 items more right, none lost. The remnants' middle, not more: cut 12 mm
square, frame 131's two were read at 0.8, nine of the eleven at 0.7."""


def bodiless_backs(cells: Cells, classes: list[str], confidences: list[float], taken: list[int]) -> None:
    """On a normalised plane, in place: the cells read empty for their mostly neutral middle whose foreign
    pixels lie as the emblem of the frame's plain backs does are read down (see the module), and where
    several are, those whose foreign pixels lie as theirs do (PEER_LIKE)."""
    if cells.covered is None:
        return
    covered = cells.covered
    unsure = [
        n
        for n, label in enumerate(classes)
        if label == "empty" and FRAME_COVER <= covered[n] < EMPTY_COVER and n not in taken
    ]
    if not unsure:
        return
    sure = _lenders(classes, covered, cells.polarity, SURE_COVER)
    if len(sure) < FEW_LENDERS:
        sure = _lenders(classes, covered, cells.polarity, FEW_COVER)
    if not sure:
        return
    emblems: dict[int, FloatArray | None] = {}
    likeness = {n: _likeness(cells, n, sure, emblems) for n in unsure}
    backs = sum(1 for n in unsure if covered[n] >= BODILESS_COVER and likeness[n] >= EMBLEM_LIKE)
    whole_frame = backs >= FRAME_BACKS
    least, cover = (FRAME_LIKE, FRAME_COVER) if whole_frame else (EMBLEM_LIKE, BODILESS_COVER)
    found = [n for n in unsure if covered[n] >= cover and likeness[n] >= least]
    for n in found:
        classes[n], confidences[n] = "down", likeness[n]
    if len(found) >= PEER_BACKS:
        for n, alike in _peers(cells, [n for n in unsure if n not in found and covered[n] >= cover], found):
            classes[n], confidences[n] = "down", alike


def _peers(cells: Cells, left: list[int], found: list[int]) -> list[tuple[int, float]]:
    """The cells of `left` whose foreign pixels lie as the middles of PEER_BACKS of the bodiless backs
    `found` do (PEER_LIKE), with that likeness (the PEER_BACKS-th best)."""
    cut = round((MIDDLE_MM / 2 + SLACK_MM - REMNANT_MM / 2) * COARSE_PX_PER_MM)
    windows = [_foreign(cells, m) for m in found]
    remnants = [w[cut:-cut, cut:-cut] for w in windows if w is not None]
    remnants = [remnant for remnant in remnants if remnant.min() != remnant.max()]
    if len(remnants) < PEER_BACKS:
        return []
    peers = []
    for n in left:
        window = _foreign(cells, n)
        if window is None:
            continue
        alike = sorted(float(cv2.matchTemplate(window, r, cv2.TM_CCOEFF_NORMED).max()) for r in remnants)
        if alike[-PEER_BACKS] >= PEER_LIKE:
            peers.append((n, alike[-PEER_BACKS]))
    return peers


def _lenders(classes: list[str], covered: FloatArray, polarity: FloatArray, cover: float) -> list[int]:
    """The cells read down that are at least `cover` foreign and SURE_POLARITY: backs plain enough to lend
    their emblem."""
    return [
        n
        for n, label in enumerate(classes)
        if label == "down" and covered[n] >= cover and polarity[n] >= SURE_POLARITY
    ]


def _likeness(cells: Cells, n: int, sure: list[int], emblems: dict[int, FloatArray | None]) -> float:
    """How well cell n's foreign pixels lie as the emblem of its SURE_BACKS nearest plain backs (the best of
    them); -1 where there is nothing to match. `emblems` keeps the backs' emblems between cells."""
    window = _foreign(cells, n)
    if window is None:
        return -1.0
    distance = numpy.hypot(*(cells.centres[sure] - cells.centres[n]).T)
    likeness = -1.0
    for m in [sure[k] for k in numpy.argsort(distance, kind="stable")[:SURE_BACKS].tolist()]:
        if m not in emblems:
            emblems[m] = _emblem(cells, m)
        emblem = emblems[m]
        if emblem is not None:
            likeness = max(likeness, float(cv2.matchTemplate(window, emblem, cv2.TM_CCOEFF_NORMED).max()))
    return likeness


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
