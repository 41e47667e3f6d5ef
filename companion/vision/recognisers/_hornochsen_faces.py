"""Tanz der Hornochsen: what a square holding a tile shows on a normalised plane, and a face's number.

A tile there is whatever is not the empty play area (see _hornochsen_tiles.py); these thresholds and the
two steps of reading it (look_normalised: empty, a back by its mark, or a face whose glyphs are still to be
scored; read_face: the face's number from its scored glyphs, looked for again in other windows where it
reads none or one digit) are the recogniser's judgement of faces and backs, apart from finding the tile.
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from companion.vision.base import PLANE_PX_PER_MM, ItemRegion
from companion.vision.recognisers._hornochsen_back import back_mark
from companion.vision.recognisers._hornochsen_digits import (
    JOINED_SCORE,
    MIN_GLYPH_SCORE,
    DigitTemplates,
    number_fit,
    number_of,
    number_score,
    read_number,
)
from companion.vision.recognisers._hornochsen_glyphs import Glyph, tile_glyphs
from companion.vision.recognisers._hornochsen_layout import SLOT_PITCH_MM, SQUARE_PITCH_MM
from companion.vision.recognisers._hornochsen_lost import lost_digit
from companion.vision.recognisers._hornochsen_seen import NORMALISED_TILE_SHARE, Levels, Seen, square_levels
from companion.vision.recognisers._hornochsen_steady import STEADY_MARGIN, steadied
from companion.vision.recognisers._hornochsen_tiles import (
    EVEN_LEVEL,
    WIDE_MM,
    RotatedRect,
    TileWindow,
    evened,
    ink_tile,
    normalised_tile,
    outline_turn,
    tile_window,
)
from companion.vision.recognisers._lab import FloatArray
from companion.vision.vocabulary import DOWN, EMPTY

BACK_LEVEL = 135.0
"""On a normalised plane (markers' paper at 235) a tile whose middle's median lightness is below this shows
its back, unless it shows two digits: every edition's faces are light card (seen at 160 and more, dimly
lit, but at 110 to 150 where the reference did not even out a lamp's change), its backs dark (at 140 and
less, blurred into their light mark)."""
BACK_SHARE = 0.7
"""...and so does one whose median lightness is below this share of its brightest tenth (a back's light mark
overexposed on a light cloth lifts its median above BACK_LEVEL, up to 0.68 of its brightest on seeds 5-9),
unless it shows two digits: a face's median is its card, near its brightest, but in a lamp's fall-off
0.63 of it."""
BACK_MARK = 0.5
"""A tile showing its back's mark this well (see back_mark) is face down."""
LIT_BACK_SHARE = 0.9
"""A face reading one digit whose median is below this share of its brightest tenth is looked at for a
back's mark too: backs looked at as faces show 0.70-0.89 of it, most one-digit faces over 0.9 (burnt
20261138-40, dev 2 and 5; each look costs 0.2 ms, and all one-digit faces cost 0.6 ms a frame)."""
FACE_GLYPH_SCORE = 0.65
"""The least correlation of each digit with its templates on a light square (see MIN_GLYPH_SCORE)."""
WHOLE_FACE = 0.95
"""A light square this share no empty area holds a whole tile (see PALE_GLYPH_SCORE)."""
PALE_GLYPH_SCORE = 0.5
"""The least correlation of each of two digits on a whole light face that reads no number otherwise."""
DIM_PART = 0.5
"""A dim square this share or less not the empty area shows a tile's two digits, not one (see read_face)."""
FACE_JOINED_SCORE = 0.75
"""The least correlation of each half of a shape cut in two (see JOINED_SCORE) on a light square of a
normalised plane: the board and its prints are gone there, and two digits of another typeface blurred
together through a cloth's noise correlate 0.79-0.85 (burnt 20261135: a gingham 29 and 66, a dark wood 99
read empty)."""
TURN_DOUBT = 10.0
"""An outline turned further than this (degrees) from upright is doubted: tiles are laid square with the
board or within a few degrees on the table, and a face torn by the reference or run into a neighbour
outlines a shape turned 15-30 degrees (see read_face). Dev seeds 5, 8, 13, 21 and burnt 20261134-35:
at 6 and 8 degrees, a number or two right at an outline's turn of 6-10 degrees read wrong upright."""
SKEWED_TURN_DOUBT = 5.0
"""An outline no tile's shape (its long side over SKEWED_SIDES times its short) is doubted turned this far
already: a piece of a printed cloth's print left joined to a played tile's corner draws it out (sides
1.35-1.47 to 1) and turns it 6-9 degrees off the upright tile (burnt 20261155 printed, a played 47 read
67 in a window turned 5.9 degrees; 20261154, 27 read 17 at 8.1). A square outline turned as far is
mostly a tile laid so (played tiles lie turned up to 8 degrees): every outline doubted from 5 degrees,
5 faces in 6 were read upright for nothing (1.6 faces a frame, 0.3 ms each) and a linen played 39 read
29."""
SKEWED_SIDES = 1.1
"""See SKEWED_TURN_DOUBT. At 1.1, 5 played numbers more read right on the dev and burnt sets and none
fewer; at 1.15 and 1.2, 1 and 2 of those not (a printed 23, a gingham 82); 0.45 faces a frame are read
upright (0.2 before)."""
UPRIGHT_FIT_SLACK = 0.025
"""See _upright_kept. A doubted outline's two windows' numbers were told apart by their digits' least
correlation alone: burnt 20261156 linen (a dim played 24, its outline drawn out by its shadow, turned 6.3
degrees: 14 turned fits 0.823, 24 upright 0.816, scoring 2.83 against 3.45) and light wood (82 read 81,
fits 0.935 and 0.920, scoring 3.60 against 3.75) kept the turned window's. Scores alone read a printed
cloth's played 42 (outline turned 9.5 degrees) 43 upright (fits 0.954 and 0.919, scoring 3.26 and 3.36):
hence both, the correlation with a slack (0.015 and 0.035 apart there)."""
FACE_LEAST = 105.0
"""No face's median is darker than this (110 where the reference did not even out a changed lamp) but in a
deep shadow: darker is a back where it shows a back's mark, a face only where it shows two digits."""
PLAIN_SHARE = 0.85
"""A dark square whose middle's darkest tenth is lighter than this share of its brightest tenth shows no
back (its light mark leaves the darkest tenth at 0.76 of the brightest and less on seeds 5-7)."""


WINDOW_ROOM = round((0.2 * max(SQUARE_PITCH_MM, SLOT_PITCH_MM) + WIDE_MM) * PLANE_PX_PER_MM) + 2
"""How far a face's window (its square, WIDE_MM beyond) reaches past its square's middle (the square's
middle 0.6: a fifth of the widest item each side), with a pixel or two for the roundings."""


FRAME_FACES = 5
"""A frame with at least this many faces tells how light its faces are (see face_least)."""
FRAME_FACE_SHARE = 0.8
"""A face this share as light as the frame's typical face is one of them, not a mark of the board's print."""


def face_least(medians: list[float]) -> float:
    """How dark a face may be and still show one digit (see FACE_LEAST): under a dim lamp every face of the
    frame is that dark (printed cloth, travel edition, seed 20261134: the frame's faces at 97 median, its
    tiles 1, 2 and 7 at 84-93 read empty); a mark the reference left in view lies in a shadow darker than
    the faces round it (dark wood: marks at 17-94 among faces at 178)."""
    if len(medians) < FRAME_FACES:
        return FACE_LEAST
    # (statistics' median of a frame's few faces: the same number, a twentieth of numpy.median's time.)
    return float(min(FACE_LEAST, FRAME_FACE_SHARE * float(statistics.median(medians))))


def empty_confidence(tile: float) -> float:
    """How sure a square is empty whose middle is this share no empty area."""
    return float(min(1.0, 1.0 - tile / NORMALISED_TILE_SHARE + 0.3))


class Face(NamedTuple):
    """A square showing a face-up tile whose number is still to be read (see look_normalised)."""

    region: ItemRegion
    tile: float
    median: float
    light_level: float
    dim: bool
    glyphs: list[Glyph]
    window: TileWindow
    """Where the tile was looked for (its window centred on its ink is cut from it too: see read_face)."""
    straight: FloatArray
    """The tile straightened in it (normalised_tile), its glyphs found in it."""


def look_normalised(
    seen: Seen, region: ItemRegion, glyphs: bool = True, levels: Levels | None = None
) -> tuple[str, float, list[tuple[int, float]]] | Face:
    """What a square shows on a normalised plane: whatever is not the empty play area in its middle is a
    tile, whatever its edition's colours. A face is light with dark ink, a back dark with a light mark (a
    ring round a disc): a dark square (see BACK_SHARE) is a back where it shows the mark, and any square
    that reads no number is looked at for the mark too (a back overexposed). A face's glyphs are returned
    to be scored with the other squares' (see read_face)."""
    tile, (median, light_level, dark) = square_levels(seen, region) if levels is None else levels
    if tile < NORMALISED_TILE_SHARE:
        return EMPTY, empty_confidence(tile), []
    if median < BACK_LEVEL and dark > PLAIN_SHARE * light_level:
        # Dark and even all over, without a back's light mark: the empty area the reference did not take
        # for it (a board or cloth under a lamp changed since it was learned).
        return EMPTY, 0.3, []
    dim = median < BACK_LEVEL or median < BACK_SHARE * light_level
    # A back is told by its mark, not by being dark: the board's print or a shadow the reference left in
    # view is dark and textured too (light wood, seed 5: a row of the board's squares read "down").
    if (dim or median < FACE_LEAST) and back_mark(seen, region, BACK_MARK) >= BACK_MARK:
        return DOWN, float(min(1.0, tile)), []
    window = tile_window(seen, region, light_level)
    straight = normalised_tile(seen, region, light_level, window=window)
    if straight is None:
        return EMPTY, 0.2, []
    # (normalised_tile's tile is a warp of the plane's bytes: whole levels.)
    found = tile_glyphs(straight, normalise=False, whole_levels=True) if glyphs else []
    return Face(region, tile, median, light_level, dim, found, window, straight)


def read_face(
    seen: Seen,
    face: Face,
    scored: list[tuple[FloatArray, FloatArray]],
    templates: DigitTemplates,
    face_least: float = FACE_LEAST,
    fits: list[float] | None = None,
) -> tuple[str, float, list[tuple[int, float]]]:
    """The number of a face found by look_normalised, from its glyphs' scores (and their best
    correlations, when taken already: see number_of)."""
    # A light face in its square is a tile: its blurred digits of another typeface need not look as much
    # like the built-in ones as a dark mark the reference left in view must to be taken for digits.
    # Under a dim lamp every face of the frame is dim (see face_least): one as light as the frame's faces
    # is a face, its digits blurred by the dark as a light face's are by a cloth's noise (burnt 20261138,
    # laminate in a dark room: faces at 83-124 median, their joined digits at 0.8-0.89 read empty).
    dim = face.dim and (face_least >= FACE_LEAST or face.median < face_least)
    least = FACE_GLYPH_SCORE if not dim else MIN_GLYPH_SCORE
    joined = FACE_JOINED_SCORE if not dim else JOINED_SCORE
    # A lone 0 on a dim square is a ring of the board's print left in view; on a light face, a blurred
    # digit (an 8 blurred into a blob looks most like a 0): its likeliest digit of 1-9 is read.
    ring = face.dim
    number, margin, alternatives = number_of(face.glyphs, scored, least, joined, ring, fits)
    if number is not None and number >= 10 and margin < STEADY_MARGIN and len(face.glyphs) == 2:
        # Two blurred digits read by a narrow margin: held against their glyphs cut again (a blurred 0
        # read 6 or 9 on one cut's pixel grid; see _hornochsen_steady.py).
        held = steadied(face.straight, scored, templates, least)
        if held is not None:
            number, margin, alternatives = held
    rect = face.window.rect
    if number is not None and rect is not None and abs(outline_turn(rect)) > _turn_doubt(rect):
        # An outline turned this far is more likely a face torn by the reference or run into a neighbour
        # than a tile laid so: the window is read upright too, and the number whose digits look the more
        # like digits kept (burnt 20261135: an upright 40 and 37 read 60 and 47 in windows turned 15-20
        # degrees by their outlines).
        upright = normalised_tile(seen, face.region, face.light_level, window=face.window, level=True)
        glyphs = tile_glyphs(upright, whole_levels=True) if upright is not None else []
        upright_scored = templates.all_scores(glyphs)
        again = number_of(glyphs, upright_scored, least, joined, ring)
        if again[0] is not None and _upright_kept(scored, number, upright_scored, again[0]):
            number, margin, alternatives = again
    if number is None or number < 10:
        # No number, or one digit: a digit may have fallen off a window the outline put askew. (Every
        # window read here is a warp of the plane's bytes, whole levels: counted, not sorted, in tile_glyphs.)
        centred = normalised_tile(seen, face.region, face.light_level, on_ink=True, window=face.window)
        again = (
            read_number(centred, templates, least, joined, ring, whole_levels=True)
            if centred is not None
            else (None, 0.0, [])
        )
        # Of one digit read in both windows, the surer reading is kept: the outline's window may cut the
        # digit at its side (dev seed 5, felt: a 1 read 3 by a margin of 0.007, 1 by 0.24 on its ink).
        if again[0] is not None and (number is None or again[0] >= 10 or again[1] > margin):
            number, margin, alternatives = again
    if number is None:
        # Still none: the number's ink nearest the square's centre, whatever outline was found there.
        inked = ink_tile(face.window, face.light_level)
        again = (
            read_number(inked, templates, least, joined, ring, whole_levels=True)
            if inked is not None
            else (None, 0.0, [])
        )
        if again[0] is not None:
            number, margin, alternatives = again
    # (A back's mark, where a light face reads no number: asked here, kept for the end.)
    marked = back_mark(seen, face.region, BACK_MARK) if number is None and not face.dim else None
    if (face.dim and (number is None or number < 10)) or (marked is not None and marked < BACK_MARK):
        # A dim face may lie in a shadow's edge: its lightness evened out against the face round each
        # pixel, its number looked for again (where its outline was found, then at its ink); one digit
        # found before may be half of it. Only two digits count there: evened, any shadow's texture shows
        # strokes (a shadow on felt, burnt seed 20261134, read 1); a lone digit keeps the reading before.
        # So may a light face reading no number, unless it shows a back's mark (evened, a back's ring shows
        # strokes): a shadow across part of it is darker than half the way to its ink and joins a digit to
        # the tile's edge (dev seed 58 dark wood, travel: a played 82 read 81 from the 8 and a sliver). (Not
        # one reading one digit: evened, a lone 8 read 87.)
        even = evened(face.window)
        for centred in (
            normalised_tile(seen, face.region, EVEN_LEVEL, window=even),
            ink_tile(even, EVEN_LEVEL),
        ):
            again = (
                read_number(centred, templates, least, joined, ring, whole_levels=True)
                if centred is not None
                else (None, 0.0, [])
            )
            if again[0] is not None and again[0] >= 10:
                number, margin, alternatives = again
                break
    if number is None and not dim and face.tile >= WHOLE_FACE and len(face.glyphs) == 2:
        # A whole light face in its square is a tile, and every face shows a number: two glyphs are read as
        # one though a digit correlates less than FACE_GLYPH_SCORE (burnt 20261138: a travel edition's pale
        # 0 of a 30 at 0.57, read empty).
        again = number_of(face.glyphs, scored, PALE_GLYPH_SCORE, joined, ring, fits)
        if again[0] is not None and again[0] >= 10:
            number, margin, alternatives = again
    # A back lit up to a face's lightness (an overexposed mark); one digit read on one as uneven as a back
    # may be a piece of its ring (burnt 20261138 dark wood, travel: a red back at 0.72 of its brightest
    # read 7 in the ink window).
    maybe_back = number is None or (number < 10 and face.median < LIT_BACK_SHARE * face.light_level)
    if maybe_back and (back_mark(seen, face.region, BACK_MARK) if marked is None else marked) >= BACK_MARK:
        return DOWN, float(min(1.0, face.tile)), []
    if number is None or (face.median < face_least and number < 10):
        # No face is this dark (nor this much darker than the frame's: face_least) but one in a deep
        # shadow, which still shows its two digits: one digit there is a mark of the board's print the
        # reference left in view.
        return EMPTY, 0.1, []
    if face.dim and number < 10 and face.tile < DIM_PART:
        # Nor does a dim patch covering little of the square's middle show one digit but as a mark of a
        # printed cloth the reference left in view (burnt 20261138: a 6 at 0.28 of the middle, 139 median).
        return EMPTY, 0.1, []
    if number < 10:
        # One digit standing off the tile's middle may be the darker of two (see _hornochsen_lost.py).
        two = lost_digit(face.straight, face.glyphs, templates, least, joined)
        if two is not None:
            number, margin, alternatives = two
    return str(number), float(min(1.0, margin * 4)), alternatives


def _turn_doubt(rect: RotatedRect) -> float:
    """How far an outline may turn before it is doubted: less where it is no tile's shape."""
    sides = rect[1]
    skewed = max(sides) > SKEWED_SIDES * max(1e-6, min(sides))
    return SKEWED_TURN_DOUBT if skewed else TURN_DOUBT


def _upright_kept(
    scored: list[tuple[FloatArray, FloatArray]],
    number: int,
    upright_scored: list[tuple[FloatArray, FloatArray]],
    upright: int,
) -> bool:
    """Of a doubted outline's turned window's number and its upright window's, whether the upright one is
    kept: where its digits score higher (see number_score) and correlate no more than UPRIGHT_FIT_SLACK
    less with their templates (see number_fit)."""
    if number_score(upright_scored, upright) <= number_score(scored, number):
        return False
    return number_fit(upright_scored, upright) >= number_fit(scored, number) - UPRIGHT_FIT_SLACK
