"""Tanz der Hornochsen: a two-digit face read as one digit, its fainter digit lost to the ink's cut.

tile_glyphs cuts a tile's ink at half its darkest: where one digit of a blurred, faintly lit number is much
darker than the other (the lighter lies nearer the lamp's glare or is blurred thinner), the fainter falls
under the cut and the face reads as the darker digit alone (burnt 20261148, laminate, travel: a 99 read 9,
its second 9 at 0.4 of the first's ink). A lone digit is printed in the tile's middle; a digit standing well
to its side, with a digit's shape on the other side once the ink is cut lower, is one of two.
"""

from __future__ import annotations

from companion.vision.recognisers._hornochsen_digits import DigitTemplates, number_of
from companion.vision.recognisers._hornochsen_glyphs import Glyph, ink_image
from companion.vision.recognisers._hornochsen_steady import two_glyphs
from companion.vision.recognisers._lab import FloatArray

LONE_OFFSET_MM = 2.0
"""A lone digit this far (mm) or more to the side of its tile's middle may be one of two (each of two stands
3.5-4.5 mm off it; a lone digit's window, its outline's, puts it up to 5 mm off where the outline ran into a
neighbour or the board's print, so this asks, the cut below tells)."""
LOST_CUT = 0.4
"""The share of the tile's darkest ink a lost digit is looked for at (tile_glyphs': 0.5)."""
PAIR_SPAN_MM = (6.0, 10.0)
"""Two digits' middles lie this far apart (mm): at the lower cut, a shape further off is the tile's edge or
a neighbour's (a lone digit's window showed one 7-12 mm off it on the dev and burnt sets), one nearer a
piece of the digit itself."""


def lost_digit(
    straight: FloatArray, glyphs: list[Glyph], templates: DigitTemplates, least: float, joined: float
) -> tuple[int, float, list[tuple[int, float]]] | None:
    """The two-digit number of a face whose `glyphs` (tile_glyphs' of `straight`) are one digit off its
    middle, where its ink cut at LOST_CUT shows two digits astride the middle (see the module); None where
    it does not, or they read no number of two digits."""
    if len(glyphs) != 1 or abs(glyphs[0].offset) < LONE_OFFSET_MM:
        return None
    inkness = ink_image(straight, whole_levels=True)
    if inkness is None:
        return None
    pair = two_glyphs(inkness, LOST_CUT)
    if len(pair) != 2:
        return None
    left, right = pair
    low, high = PAIR_SPAN_MM
    if not (left.offset < 0 < right.offset and low <= right.offset - left.offset <= high):
        return None
    number, margin, alternatives = number_of(pair, templates.all_scores(pair, raw=True), least, joined)
    return (number, margin, alternatives) if number is not None and number >= 10 else None
