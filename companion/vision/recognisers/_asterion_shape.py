"""Asterion: a wing told from its plain path by its shape in lightness, where the pair test is close.

The pair test (`_asterion_pair_tests.PairTests._pair_test`) fits the light and weighs all three channels
where a winged look and its plain twin differ. A wing is a small white ellipse with a grey outline on a
pale path: some prints and cameras put colour blotches on a plain path that shift it blue as a wing
does (the travel print: plain corridors led by +0.02..+0.13 for the wing) while its lightness shows no
ellipse at all, and a true wing blurred or washed out leads by little. Where the pair test decides by
less than WING_SHAPE_CLOSE, the cell's lightness there is correlated with the wing's own shape (the
drawn winged look's lightness less the plain one's: a bright core and a darker rim), normalised, so
neither the light's level nor its contrast counts, only whether that pattern is there.

Where it fails, the wing is not in the plane's lightness at all, not misplaced. On burnt 20261144's
captured planes, untaught, the 254 wing or plain corridor cells this was asked on: plain corridors
correlated 0.18-0.23 at the median by print (a quarter above 0.26-0.35), true wings 0.31-0.48 (a
quarter under 0.19-0.34, the plain ones' range). Searched over 3 pixels each way rather than 1, medians
and quartiles rose by 0.00-0.06, plain paths' as much as wings'; 94 of 132 wings were best within a
pixel. All 13 of the set's wing/plain errors had this asked; against the pair test alone it righted 6
readings and broke 4. Tried there (items right of 11088, or of 12789 with the travel print taught too),
all within noise, so not taken: WING_SHAPE_WEIGHT 1.0, 1.4, 2.0 (+0, +0, -2), WING_SHAPE_LEVEL 0.3
searched without moves (+0), without moves (-1); `_asterion_pairs.PAIR_GROW_PX` 2, 4 where
`_pair_pixels` grows (-2, +2) and `_asterion_filters.PAIR_SOFTEN_PX` 0.5, 1.2 (+5, -3), each moving a
few wings both ways.
"""

from __future__ import annotations

import functools

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import DESIGNS
from companion.vision.recognisers._asterion_pairs import _drawn_pixels, differ, things_on_path
from companion.vision.recognisers._asterion_window import TEMPLATE_PX
from companion.vision.recognisers._lab import FloatArray

WING_SHAPE_CLOSE = 0.3
"""A wing/plain pair test deciding by less than this is moved by the wing's shape in lightness. 0.15 left
a wing read plain whose lightness showed it plainly (burnt 20261140 gingham session 11 frame 11: the pair
test led for the plain path by 0.25 where the wing's colour read as the path's, shape correlation 0.78).
From 0.25 to 0.6 every reading of dev 2, 5, 8, 13, 21, 34, 44, 55, 60, 77 and burnt 20261134, 37, 39 is
the same: past 0.15 the shape seldom decides against the pair test."""
WING_SHAPE_WEIGHT = 0.7
WING_SHAPE_LEVEL = 0.4
"""The pair test's lead for the wing is moved by WING_SHAPE_WEIGHT times how far the cell's lightness
correlates with the wing's shape above WING_SHAPE_LEVEL. On the planes of dev 5, 21, 77 and burnt
20261139 (wing or plain corridors, 1,144 cells), plain corridors correlated up to 0.49 (the travel
print's 95th centile 0.39, the other prints' 0.35), wings from 0.20 (the 5th centile 0.48). A weight
of 1.0 read a few more right on those, but lost a frame of dev 2 (a washed-out blue wing on linen)."""

WING_LEAN = {"blue": 0.06, "yellow": -0.09}
"""Added to the pair test's lead for a wing over its plain path, by the tile's colour: the test leans
one way in blue and the other in yellow. Untaught, on the captured planes of dev 2-83 and burnt
20261140-51 (10,521 wing or plain corridors), the wing/plain mix-ups were blue wings read plain 22 (plain
read wing 0; the plain ones' leads for the wing at most -0.054 but one), yellow plain corridors read
winged 28 (the travel print's washed paths; wings read plain 6), green 13/11, red 3/12. No local measure
of the wing's own area told them apart better than the pair test (its lightness, its colour against the
tile's own path and walls, the two ends compared, with the wing's shape: right on 36-75 of the 140
mix-ups, and worse than the pair test overall, 14,657-14,980 of 15,217 against 15,077). Leans swept
0.02 apart: blue +0.06..+0.14 righted 6-7 net, yellow -0.14..-0.08 righted 6-10; green and red none.
Blue kept at the plateau's low end: from 0.08 a plain blue corridor blotched blue where a wing would be
(test_asterion_shape) read winged. Item by item there and taught as the bench reads: +34 -8 (yellow wings
read plain 6 of the losses); fitted on those planes, so a lean, not a cause: what leans blue is not known.
On dev 44, not fitted on: +6 -4 (a yellow wing read plain, a felt second print's blue plain read winged)."""

_WINGED = frozenset(number for number, design in enumerate(DESIGNS) if design.name.startswith("wing "))
_GROW = numpy.ones((3, 3), numpy.uint8)
_PADDED = TEMPLATE_PX + 2


class WingShape:
    """Where a wing is looked for in a cell's lightness (padded by a pixel, `shape_lead`), moved by up to
    a pixel each way (9, pixels); the wing's shape there (the winged look's drawn lightness less the
    plain one's) with what the plain path's own lightness and a level explain taken out, unit length;
    those two as orthonormal columns; and the sign that makes the lead the first look's."""

    __slots__ = ("indices", "model", "sign")

    def __init__(
        self, grown: numpy.typing.NDArray[numpy.intp], winged: FloatArray, plain: FloatArray, sign: float
    ):
        rows, columns = grown // TEMPLATE_PX + 1, grown % TEMPLATE_PX + 1
        self.indices = numpy.stack(
            [(rows + dy) * _PADDED + columns + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        )
        basis, _ = numpy.linalg.qr(numpy.column_stack([numpy.ones(len(grown)), plain]))
        shape = winged - plain
        shape = shape - basis @ (basis.T @ shape)
        shape = shape / max(float(numpy.sqrt(shape @ shape)), 1e-9)
        self.model = numpy.asarray(numpy.column_stack([shape, basis]), numpy.float32)
        self.sign = sign


@functools.cache
def wing_shape(design: int, rotation: int, other: int, other_rotation: int) -> WingShape | None:
    """How a winged look is told from its plain twin by lightness (`WingShape`); None unless one look
    is the other with a wing on its path."""
    if (design in _WINGED) == (other in _WINGED) or not things_on_path(
        design, rotation, other, other_rotation
    ):
        return None
    where = differ(design, rotation, other, other_rotation)
    if len(where) < 3:
        return None
    sign = 1.0 if design in _WINGED else -1.0
    winged, plain = ((design, rotation), (other, other_rotation))[:: int(sign)]
    mask = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
    mask[where] = 1
    # A pixel around it: the wing's grey outline, blurred, spreads that far over the path.
    grown = numpy.flatnonzero(cv2.dilate(mask.reshape(TEMPLATE_PX, TEMPLATE_PX), _GROW).ravel())
    lightness = [_drawn_pixels(*look)[grown, 0].astype(numpy.float64) for look in (winged, plain)]
    return WingShape(grown, lightness[0], lightness[1], sign)


def wing_lead(value: float, seen: FloatArray, shape: WingShape, colour: str) -> float:
    """A close wing/plain pair test's lead for its first look (`value`), moved by the wing's shape
    (`shape_lead`) and by the tile's colour's lean (`WING_LEAN`; asked where close only, as the lean is
    far under WING_SHAPE_CLOSE: a lead beyond it keeps its sign)."""
    return value + shape_lead(seen, shape) + shape.sign * WING_LEAN.get(colour, 0.0)


def shape_lead(seen: FloatArray, shape: WingShape) -> float:
    """What the wing's shape in the cell's lightness adds to the first look's lead (`wing_shape`): its
    correlation there, beyond the plain path's lightness and a level, at the best of the cell's moves by
    up to a pixel each way (the cell is lined up by its whole tile; a pixel off put a path's edge where
    the wing is looked for)."""
    lightness = seen.reshape(TEMPLATE_PX, TEMPLATE_PX, 3)[:, :, 0] - numpy.float32(128.0)
    padded = cv2.copyMakeBorder(numpy.ascontiguousarray(lightness), 1, 1, 1, 1, cv2.BORDER_REPLICATE).ravel()
    moved = padded[shape.indices]  # (9 moves, pixels)
    products = moved @ shape.model
    left = (moved * moved).sum(axis=1) - (products[:, 1:] * products[:, 1:]).sum(axis=1)
    correlation = float((products[:, 0] / numpy.sqrt(numpy.maximum(left, 1e-6))).max())
    return shape.sign * WING_SHAPE_WEIGHT * (correlation - WING_SHAPE_LEVEL)
