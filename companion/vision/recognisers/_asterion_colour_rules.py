"""Asterion: the rules that read a cell in a frame colour other than its corners' vote (`read_cell`'s).

A tile's corners vote its frame colour, but a lamp, a table beside it or glare turns a frame towards a
neighbouring colour: green towards yellow, yellow towards orange and red, blue towards green. These are
the limits by which a cell's frame and prisoner (`tinted_lead`) or its designs (`Templates.likeness`) may
overrule the vote, and yellow's and green's partnership (their designs are alike).
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._asterion_profile import FRAME_LABELS, _CellPalettes
from companion.vision.recognisers._asterion_tint import frame_pixels

RIVAL_SHARE = 0.1
RIVAL_LEAD = 0.3
"""A cell whose corners show a runner-up frame colour at least RIVAL_SHARE as often as the most shown
is read in the runner-up's colour when its frame and prisoner show that colour's by more than
RIVAL_LEAD (`Templates.colour_lead`): a second print's green, its corners washed towards yellow under a
lamp or beside a light wood, read as yellow (burnt 20261133, dev 13). On dev planes (seeds 5, 13, 21,
55; 13's sessions 6-7 alone) tiles' corners voting their own colour first and a runner-up at a tenth
of it or more never showed the runner-up's frame by 0.3 (green against yellow led by 0.32-0.37 only
with a runner-up under 0.08 of the votes); those voting a wrong colour first led the truth's by
0.38-0.96. Taught colours too: a second print taught on dark wood (burnt 20261141) read its green tiles
on light wood and gingham yellow, its taught yellow voted first (their frames, lit by the wood, lie
at Lab a 118-131 where the print's green is 90) and the rule, left out for taught colours, did not
right them (2,725 of 2,772 cells, 2,752 untaught; 2,747 with it). It was left out when a second print
taught on light wood read 11 yellow tiles on dark wood green: taught colours were then every corner
pixel's median, half the table's and the outline's (_asterion_teach.FRAME_PART). Taught from that
sitting on light wood instead, 2,566 of 2,583 read right (2,567 before and untaught: felt's yellow
tiles are read green by this rule, untaught too)."""

WARM_LEAD = 0.85
WARM_SHARE = 0.75
WARM_L = 150.0
WARM_B = 170.0
"""A cell whose corners vote yellow (at least WARM_SHARE of them) with green too seldom for the runner-up
rules is read green when its frame and prisoner with the corners' tint (`tinted_lead`) lead green by over
WARM_LEAD; tried only where the corners of a frame colour are no lighter than CIELAB L WARM_L and no
yellower than b WARM_B (medians, 8-bit). Why: on burnt 20261142 dark wood (second print, frame 3) a warm
light patch turned four green frames wholly yellow (share 0.77-1.0, green at 0-7 of 100; corners L
131-141, b 164-168), their paths orange with them, the lead -0.95..-1.25, and no runner-up rule asked.
On dev 2-83 and burnt 20261140-42 (11,564 yellow tiles voted yellow), yellows led green by -0.68 at
worst, other tiles voted yellow -0.73. The colour gate (22 us) passes 7 % of the cells voted yellow:
the lead costs 0.3 ms a cell, a colour's likeness about as much."""

GREENER_DESIGNS = 0.07
"""Nor need the corners vote yellow at WARM_SHARE when green's designs are likelier than yellow's by over
GREENER_DESIGNS (`Templates.likeness`) and the lead is over RIVAL_LEAD: burnt 20261143 light wood second
print frame 7, two greens voted yellow at 0.54 and 0.66 (no green, the wood's red and the path's sand the
rest) led green by 0.70 and 0.80, short of WARM_LEAD, green's designs likelier by 0.16 and 0.10. Of 14,351
yellows voted yellow on dev 2-83 and burnt 20261140-43 (taught editions too), those leading green by over
0.3 were at most 0.043 likelier green; the two likelier by 0.08-0.10 led yellow. Asked where the corners
are warm (`_warm_green`) or show yellow under HALF_FRAMED: burnt 20261151 light wood second print f9, a
green whose corners showed yellow at 0.5 only (no green; L 158, over WARM_L) led green by 0.54, its designs
0.09 likelier green, and was read yellow."""

YELLOWER_DESIGNS = 0.0
"""A cell voted red whose runner-up is yellow (at RIVAL_SHARE of its corners) is read yellow when yellow's
designs are likelier than red's by over YELLOWER_DESIGNS: a second print's yellow under a red lamp on
felt or gingham turns orange, voted red at 0.61-0.63 with yellow 0.19-0.28 (burnt 20261143 gingham f8,
felt f11; dev 60 felt f10), its frame and prisoner leading yellow by -0.05-0.2 only, yellow's designs
likelier by 0.02-0.11. Of 14,395 reds voted red (dev 2-83, burnt 20261140-43, taught editions too) none
was likelier yellow (the 892 with a yellow runner-up at 0.034 less at most): red's designs are not
yellow's."""

YELLOW_BESIDE_RED = 0.04
"""The YELLOWER_DESIGNS rule asks a cell voted red whose corners show yellow at least this share of red's
(not RIVAL_SHARE): a second print's yellow under the lamp on felt turned wholly orange, voted red at 0.95
and yellow at 0.05, correlated 0.59 with yellow's designs and 0.46 with red's (burnt 20261156 felt f10).
Asked from 0.02, no other reading moved on dev 2-83 and burnt 20261140-55; from 0.04 the likenesses are
asked 0.5 times a read more (0.8 from 0.02)."""

FAR_COLOUR = 0.15
ASKED_LIKENESS = 0.6
"""A cell whose corners show its voted frame colour under HALF_FRAMED, and whose designs in it correlate
under ASKED_LIKENESS, is read in another colour the cell can show when that colour's designs are likelier
by over FAR_COLOUR and at least TILE_LIKENESS (as a doubtful cell's must be to hold a tile): a second
print's blue in a dark wood's shadow or beside a light wood, its corners voted green at 0.40-0.44 (the
rest the table), correlated 0.47-0.52 with green's designs and 0.85-0.86 with blue's (burnt 20261145,
20261144 and 20261141 taught); a linen's green voted blue, 0.46 against 0.70 (dev 61). Of the 3,211
cells voted under HALF_FRAMED on dev 2-83 and burnt 20261140-45 (taught editions too), none read right
had another colour's designs likelier by over 0.15, and 150 were asked. At 0.2, a second print's blue on
linen under a green cast (burnt 20261151 f8, voted green at 0.46) was read green, its designs 0.49 green's
and 0.66 blue's; at 0.1 two yellows (dev 9 dark wood, burnt 20261143 felt) were read red. Without the
TILE_LIKENESS floor an empty cell on dark wood (corners red 0.41, the table the rest) was read as a blue
tile at 0.24.
Yellow's and green's designs are alike: the likelier of the two gives way to the other when more corners
show the other and its frame and prisoner (with the corners' tint, `tinted_lead`) lead: burnt 20261148 felt
second print f12, a yellow voted blue at 0.42 (yellow 0.13, green none) correlated 0.61 with green's
designs and 0.58 with yellow's, its tint yellow's by 0.13. Without the corners' count a light wood's
green voted red (green 0.12 of the corners, yellow 0.06; burnt 20261146 f4) was read yellow, the wood's
orange leaning its tint to yellow."""

ORANGE_YELLOW = True
"""A cell whose corners vote yellow first and red next (and, doubtful, are nearest those two with the
path's pixels counted) is yellow, not read red for red's designs being likelier, and is a tile when
red's designs are like it as a tile's must be (TILE_LIKENESS doubtful, HALF_FRAMED_LIKENESS half framed):
a second print's yellow on a dark wood turns orange, and correlated 0.39-0.45 with yellow's designs and
0.50-0.52 with red's (burnt 20261149 dark wood second print f4, f7: read empty and red). Of ~230 cells
voted yellow under HALF_FRAMED on dev 2-83 and burnt 20261140-49 none was red, and the empty ones' red
likeness was 0.31 at most. Not where the corners vote red and only the path's glare puts yellow first
among the nearest: two red tiles (0.62 and 0.80 red's designs) then read yellow."""

ORANGE_FAR = 0.25
"""Nor is it yellow (`ORANGE_YELLOW`) when red's designs are likelier by over this: a red junction whose
corners split yellow 0.38 and red 0.38 (a light wood's glare) correlated 0.87 with red's designs and 0.44
with yellow's (burnt 20261156 light wood second print f10, taught on dark wood). The orange yellows were
0.05-0.13 likelier red."""

_PARTNERS = {
    FRAME_LABELS.index("yellow"): FRAME_LABELS.index("green"),
    FRAME_LABELS.index("green"): FRAME_LABELS.index("yellow"),
}
"""Yellow's and green's designs are alike and their frames near in colour; where the corners'
runner-up is another colour (a light wood's red), the other of the two is compared as the runner-up is.
A doubtful cell nearest one of them first is read in the other when that one's designs are far likelier
(FAR_LIKELIER) though no corner pixel lies nearest it: a second print's green under a
warm lamp on a light wood the reference left orange (burnt 20261146, 4 tiles in 3 frames) showed its
corners the wood's orange (nearest red), the path and a thin frame washed to yellow, none nearest green,
and correlated 0.74-0.81 with green's designs, 0.12-0.17 over yellow's. Of the doubtful cells so placed
on dev 2-83 and burnt 20261140-46 (taught editions too), yellow tiles were at most 0.054 likelier green,
and empty cells, up to 0.16 likelier, under TILE_LIKENESS. Nor need the other be far likelier when its
designs are no less like and its frame and prisoner (with the corners' tint, `tinted_lead`) lead by over
RIVAL_LEAD, as where a corner lies nearest it: burnt 20261148 light wood second print f13, a green under
glare, its corners yellow at 0.25 and the wood's red, none nearest green, correlated 0.82 with green's
designs (0.07 over yellow's) and led green by 0.8."""


def _warm_green(
    corner_pixels: Frame, palettes: _CellPalettes, on_frame: numpy.typing.NDArray[numpy.bool_] | None = None
) -> bool:
    """Whether the corners' pixels of a frame colour (all of them when none; `on_frame` as `frame_pixels`)
    are no lighter than WARM_L and no yellower than WARM_B (medians)."""
    # Medians of OpenCV's 8-bit Lab as it gives them (`to_lab`'s float copy holds the same values): asked
    # of every cell voted yellow, 22 us a call against 30.
    pixels = frame_pixels(corner_pixels, palettes, on_frame)
    lab = cv2.cvtColor(pixels.reshape(1, -1, 3), cv2.COLOR_BGR2LAB)[0]
    middle = len(lab) // 2
    lightness, _, yellowness = numpy.partition(lab, middle, axis=0)[middle].tolist()
    return bool(lightness <= WARM_L and yellowness <= WARM_B)


_YELLOW, _GREEN, _RED = (FRAME_LABELS.index(colour) for colour in ("yellow", "green", "red"))


def _partner(colour: int, compared: int, frames_here: numpy.typing.NDArray[numpy.bool_]) -> int | None:
    """The other of yellow and green to `colour` (indices in FRAME_LABELS), when the cell can show it and
    it is not `compared` already; else None."""
    partner = _PARTNERS.get(colour)
    return partner if partner is not None and partner != compared and frames_here[partner] else None
