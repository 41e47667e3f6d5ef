"""Minotaurus: the rules that look again at the prototypes' reading of the cells (see minotaurus.py).

Apart from minotaurus.py, which had grown past a few screens. On a normalised plane: a cell read down whose
marks tell neither way is a face if it shows a horn as clearly as only a face does (HORN_CLEAR); a cell
read empty for its mostly neutral middle is a face the reference took mostly for a light table if it
varies (TAKEN_VARIATION) and shows a clear horn and a row of pips (PIPS_CLEAR); a cell that shows no
mark at all is empty (FLAT_VARIATION), and so is one read down that shows no back's emblem (none inside
its middle: CORE_POLARITY) and goes on in the same colour across the gap about its place (GAP_LIKE); a
face read white that is too coloured, too dark (WHITE_LEAST_L) or hardly lighter than the table
(DARK_WHITE_LIT) is another colour or a back. Then
every face-up piece's glyphs: its horn finds it and its side, the row of pips where the horn puts it its
value (a cell whose horn is unclear or missing and whose middle goes on across the gap is empty instead).
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame, Profile
from companion.vision.recognisers._minotaurus_cells import (
    BACK_POLARITY,
    COARSE_PX_PER_MM,
    COLOURS,
    EMPTY_COVER,
    FACE_POLARITY,
    FEATURE_WEIGHTS,
    FLAT_VARIATION,
    HORNS,
    MIDDLE_MM,
    PITCH_MM,
    Cells,
    FloatArray,
    GreyImage,
    _back_likeness,
    ink_polarity,
    locate_piece,
)
from companion.vision.recognisers._minotaurus_glyphs import (
    GLYPH_PX_PER_MM,
    HORN_BOX_MM,
    HORN_SLACK_PX,
    VALUE_BOX_MM,
    VALUE_SLACK_PX,
    Glyphs,
    best_match,
    glyph_window,
)
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL
from companion.vision.recognisers._minotaurus_pips import read_value
from companion.vision.recognisers._minotaurus_prototypes import COLOUR_FEATURES, Prototypes
from companion.vision.recognisers._minotaurus_rings import FaceRow, reread_ring_rows
from companion.vision.recognisers._minotaurus_white import too_coloured_for_white
from companion.vision.reference import NEUTRAL_BGR

HORN_SEEN = 0.3
"""Least likeness of the horn to the built-in one (or a taught one) where a face lies: every edition's
faces show one above 0.33 even when their ink hardly differs from them; bare table, even textured, below."""
HORN_CLEAR = 0.7
"""Likeness of the horn that only a face shows: a back's emblem, whatever the edition, looks like a horn
at most 0.6 (generated hard sessions, every edition, 12000 backs); a light face the prototypes took for a
back (a white face beside dark backs on a dark table, its marks' polarity unclear) 0.8."""
WHITE_HORN_INK = 9.0
"""Least standard deviation (grey levels) of the horn's box where a white face lies: every edition's white
face shows its horn as dark ink on white, 24 and more (generated hard sessions: dev 2 5 8 13 21 34 40 55 60
77 88 7x8, burnt 20261131 33 35 37 39 40 14x12); a white check of a gingham the reference left, flat and of
a face's size, about 4 (its noise), yet its likeness to the horn was 0.33-0.37, over HORN_SEEN (burnt
20261140 gingham frames 7 and 11, read white-5 and white-3 where no piece lay). Dark faces show their horns
fainter (blue travel faces 3.7 and more): this holds for white only."""
TAKEN_VARIATION = 20.0
"""On a normalised plane, least variation (see FLAT_VARIATION) of a cell's middle mostly neutral for it to
be looked at as a face the reference took mostly for the table (a white face on a light table keeps little
but its ink and a rim: 26 and more); bare table seldom varies as much (99 % of empty cells under 6.9; a
printed cloth's leftover pattern up to 57), and those that do are told by their glyphs."""
PIPS_CLEAR = 0.6
"""Least likeness of a row of pips, where a clear horn (HORN_CLEAR) puts it, for a cell mostly neutral to be
a face. (Generated hard sessions, dev seeds 2 5 13 21 34 40 and burnt 20261131-33: of 10152 such empty
cells the one most like a horn, 0.63, a printed cloth's leftovers, shows pips at 0.31; the white faces
taken for the table, laminate and linen, horns 0.72-0.93 and pips 0.68-0.99, but one at 0.18.)"""
WHITE_LEAST_L = 100.0
"""Least lightness (OpenCV's 0-255 L of a cell's middle) of a white face on a normalised plane, the light
canonical: generated hard sessions (dev seeds 5 13 21 34, burnt 20261132-34) 368 white faces from 120 (a dim
felt's, left unlit; 1 % under 137); a dark blue face on a dim felt, its chroma under PALE_CHROMA, 73-76."""
DARK_WHITE_LIT = 0.15
"""Least share of a white face's piece pixels lighter than the table: the same 368 white faces from 0.19
but for one (0.03, a dim felt's, with a clear horn and pips); a second print's navy backs on a dark felt,
their body taken for the table and read white, 0-0.11."""
HALF_WHITE_COVER = 0.7
HALF_WHITE_LIT = 0.4
"""A face read white that is under HALF_WHITE_COVER of its middle foreign and under HALF_WHITE_LIT lighter
than the table is a back too: bench seed 20261142 felt (blue second-print backs on blue felt, their body
taken for the cloth, their light cross left) 0.50-0.65 foreign, 0.15-0.29 lit; dev and burnt white faces
under 0.7 foreign (laminate, linen) 0.56 lit and more, and the dimmest white (a felt's, 0.03) 0.72."""


def clear_horns(
    plane: Frame, cells: Cells, classes: list[str], empty: numpy.typing.NDArray[numpy.bool_], glyphs: Glyphs
) -> list[int]:
    """On a normalised plane, the cells read "down" whose marks' polarity is unclear (between FACE_POLARITY
    and BACK_POLARITY) that show a horn as clearly as only a face does (HORN_CLEAR): faces. (Few cells:
    the horn is looked for in these alone.)"""
    unclear = (cells.polarity > FACE_POLARITY) & (cells.polarity < BACK_POLARITY) & ~empty
    found = []
    for n in numpy.flatnonzero(unclear).tolist():
        if classes[n] != "down":
            continue
        x, y = locate_piece(cells.small, cells.centres[n], cells.tables[n])
        grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM))
        likeness = best_match(grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX)[3]
        lit = cells.lit is not None and float(cells.lit[n]) >= DARK_WHITE_LIT
        if likeness >= HORN_CLEAR or (lit and likeness >= HORN_LIT):
            found.append(n)
    return found


HORN_LIT = 0.58
"""Likeness of the horn that makes a cell read down, its marks' polarity unclear, a face when its piece also
shows as many pixels lighter than the table as a white face does (DARK_WHITE_LIT): a travel white in shade
on laminate (dev 60, horns 0.62-0.63, lit 0.23-0.39) was read down. Backs whose polarity is unclear show
horns up to 0.51, and those as lit (a laminate's glare on them) 0.46 (dev 21 34 40 55 60 77 88 7x8,
burnt 20261136/37/39 14x12: 92 such backs)."""


def faces_taken_for_table(
    plane: Frame, cells: Cells, empty: numpy.typing.NDArray[numpy.bool_], glyphs: Glyphs
) -> list[int]:
    """On a normalised plane, the cells read empty for their mostly neutral middle that are faces the
    reference took mostly for the table (a white face on a light table): their middle varies (its ink,
    TAKEN_VARIATION) and shows a horn as clearly as only a face does (HORN_CLEAR) with a row of pips where
    that horn puts it (PIPS_CLEAR). (Few cells vary so: the glyphs are looked for in these alone.)"""
    found: list[int] = []
    if cells.variation is None:
        return found
    for n in numpy.flatnonzero(empty & (cells.variation >= TAKEN_VARIATION)).tolist():
        # Where its cell lies: what it keeps (its ink and a rim) is not centred on it.
        x, y = cells.centres[n]
        grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM), taken=True)
        _, _, at, horn = best_match(grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX)
        if horn < HORN_CLEAR:
            continue
        pips = max(
            best_match(grey, at, VALUE_BOX_MM, look, list(look.names), VALUE_SLACK_PX, blurred=blurred)[3]
            for look, blurred in zip(glyphs.values, glyphs.blurred_values, strict=True)
        )
        if pips >= PIPS_CLEAR:
            found.append(n)
    return found


BACK_SEEN = 0.45
"""Likeness to the piece's back under which a cell with no lighter marks (polarity under BACK_POLARITY) shows
no back's emblem at all (see table_left_empty). The same as minotaurus.BACK_CLEAR: a back that shows less of
its pattern than that shows its emblem's polarity instead."""
GAP_MM = 4.0
"""Width of the strip along a cell's edge, half the gap between two pieces' places (pieces lie PITCH_MM apart,
TILE_MM wide), where table_left_empty looks whether the cell's middle goes on."""
GAP_COVER = 0.5
"""Least share of that strip no neutral table for the cell's middle to go on across it."""
GAP_LIKE = 16.0
"""Largest Lab distance (OpenCV's 8-bit scale) between the medians of the strip's foreign pixels and of the
middle's for the middle to go on across the gap. (Generated hard sessions: shadows over dark wood and glare
on laminate the reference left, 2-14; backs without an emblem that cells about them touch, 24 and more.)"""


def table_left_empty(cells: Cells, classes: list[str], confidences: list[float], back: GreyImage) -> None:
    """On a normalised plane, in place: a cell read down that shows no back's emblem (its marks' polarity
    under BACK_POLARITY, or lighter only at its edge or hardly varying: CORE_POLARITY, EMBLEM_VARIATION; and
    the pattern of `back` under BACK_SEEN) and whose middle goes on in the same colour
    across the gap about its place (left_table) is empty: a piece ends at its edge, the table a
    normalisation left behind does not (a shadow cast over dark wood after the reference was taken, a lamp's
    glare on laminate; burnt 20261137 dark wood, 8 empty cells under a round shadow read down). (A face
    read there is looked at in read_glyphs, where its horn is matched anyway.)"""
    if cells.covered is None:
        return
    backs = cells.features[:, 7] / FEATURE_WEIGHTS[7]
    unmarked = (cells.covered >= EMPTY_COVER) & (backs < BACK_SEEN)
    for n in numpy.flatnonzero(unmarked).tolist():
        if classes[n] != "down":
            continue
        # Lighter marks only where the patch meets the neutral grey (its blend with it) are no emblem, nor
        # are those of a middle that hardly varies (its noise). (A middle with no neutral pixel has no such
        # blend: most backs, and 0.1 ms a cell spared.)
        if (
            cells.polarity[n] >= BACK_POLARITY
            and (cells.variation is None or cells.variation[n] >= EMBLEM_VARIATION)
            and (cells.covered[n] >= 1.0 or core_polarity(cells, n) >= CORE_POLARITY)
        ):
            continue
        distance = left_table(cells, n)
        if distance is None:
            continue
        if cells.polarity[n] >= BACK_POLARITY:
            # Its likeness to the back was not matched (its polarity told a back): match it now. A dim
            # back's faint ring (dev 8 linen: 0.53) shows its pattern where its polarity is unsure.
            x, y = (numpy.array([round(float(v))], numpy.intp) for v in cells.centres[n])
            if float(_back_likeness(cells.small, x, y, back)[0, 0]) >= BACK_SEEN:
                continue
        classes[n], confidences[n] = "empty", 1.0 - 0.5 * distance / GAP_LIKE


CORE_POLARITY = 0.3
"""Least ink_polarity of a back's middle away from the neutral grey (core_polarity). A shadowed wood's patch
the normalisation left, gap-like (left_table), but cut by bits of table the reference matched, shows lighter
marks where it blends with them (ink_polarity 0.2-0.74 over its middle, light tail under LIT_LEVEL), none
inside: -0.13 to 0.18 (burnt 20261139 dark wood frame 12 and 20261137 dark wood: 7 such empty cells read
down); backs that lie gap-like, emblem and all, 0.39 and more (burnt 20261137, 20261139 dark wood, dev 21
60 77 7x8: 508 backs)."""
CORE_ERODE = numpy.ones((3, 3), numpy.uint8)
EMBLEM_VARIATION = 8.0
"""Least variation (Cells.variation) of a middle whose lighter marks are a back's emblem: backs from 8.2 (in
a deep shadow; see FLAT_VARIATION), those that lie gap-like from 10.1 (the 722 of dev 2 5 8 13 21 34 40 55
60 77 88 7x8, burnt 20261136/37/39 14x12). A lamp's pool on green felt the normalisation left, gap-like,
varies 5.9-7.1, its noise's light tail polarity 0.15-0.18, and was read down (dev 2 felt, 3 cells)."""


def core_polarity(cells: Cells, n: int) -> float:
    """ink_polarity of cell n's middle (MIDDLE_MM) counting only its pixels a pixel or more from the
    neutral table: a back's emblem lies inside its body, a patch's blend with the table at its edge."""
    half = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM) + 1
    x, y = (round(float(v)) for v in cells.centres[n])
    height, width = cells.small.shape[:2]
    window = cells.small[max(0, y - half) : min(height, y + half), max(0, x - half) : min(width, x + half)]
    away = numpy.abs(window.astype(numpy.int16) - numpy.array(NEUTRAL_BGR, numpy.int16)).max(axis=2)
    foreign = (away > FOREGROUND_LEVEL).astype(numpy.uint8)
    core = cv2.erode(foreign, CORE_ERODE, borderType=cv2.BORDER_REPLICATE)[1:-1, 1:-1] > 0
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)[1:-1, 1:-1].astype(numpy.float32)
    return float(ink_polarity(grey.reshape(1, -1), core.reshape(1, -1))[0])


def left_table(cells: Cells, n: int) -> float | None:
    """Whether cell n's middle goes on in the same colour across the gap about its place, as the table a
    normalisation left behind does and a piece, which ends at its edge, does not: the outer GAP_MM of its
    pitch at least GAP_COVER foreign, and the medians' Lab distance of those foreign pixels and of the
    middle's at most GAP_LIKE. That distance if so, else None (also for a cell at the plane's edge)."""
    half, inner = round(PITCH_MM / 2 * COARSE_PX_PER_MM), round((PITCH_MM / 2 - GAP_MM) * COARSE_PX_PER_MM)
    middle = round(MIDDLE_MM / 2 * COARSE_PX_PER_MM)
    height, width = cells.small.shape[:2]
    x, y = (round(float(v)) for v in cells.centres[n])
    if x - half < 0 or y - half < 0 or x + half > width or y + half > height:
        return None
    window = cells.small[y - half : y + half, x - half : x + half]
    away = numpy.abs(window.astype(numpy.int16) - numpy.array(NEUTRAL_BGR, numpy.int16)).max(axis=2)
    foreign = away > FOREGROUND_LEVEL
    strip = numpy.ones(foreign.shape, numpy.bool_)
    strip[half - inner : half + inner, half - inner : half + inner] = False
    inside = numpy.zeros(foreign.shape, numpy.bool_)
    inside[half - middle : half + middle, half - middle : half + middle] = True
    gap, body = strip & foreign, inside & foreign
    if gap.sum() < GAP_COVER * strip.sum() or not body.any():
        return None
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(numpy.float32)
    distance = float(numpy.linalg.norm(numpy.median(lab[gap], axis=0) - numpy.median(lab[body], axis=0)))
    return distance if distance <= GAP_LIKE else None


def flat_cells_empty(variation: FloatArray, classes: list[str], confidences: list[float]) -> None:
    """On a normalised plane, a cell read as a piece whose middle shows no mark (FLAT_VARIATION) is read
    empty, in place: it is the table the normalisation left, whatever its shade."""
    for n in numpy.flatnonzero(variation < FLAT_VARIATION).tolist():
        if classes[n] != "empty":
            classes[n], confidences[n] = "empty", 1.0 - 0.5 * float(variation[n]) / FLAT_VARIATION


def pale_faces_not_white(
    features: FloatArray,
    up: list[int],
    classes: list[str],
    confidences: list[float],
    prototypes: Prototypes,
    profile: Profile | None,
) -> None:
    """On a normalised plane, a face read white but too coloured for white (_minotaurus_white) is read by
    its hue among the other colours, in place; unless that hue is one a lamp's cast tints a white towards
    and the face is paler than any pigment of it (CAST_HUES, CAST_SATURATION)."""
    unweigh = numpy.array(FEATURE_WEIGHTS[4:6], numpy.float32)
    casts = features[up][:, 4:6] / unweigh
    taught = None if profile is None else profile.params.get("cell_prototypes", {}).get("white")
    taught_casts = None if not taught else numpy.array(taught, numpy.float32)[:, 4:6] / unweigh
    lightness = features[up][:, 0] / FEATURE_WEIGHTS[0]
    far = too_coloured_for_white(casts, lightness, taught_casts)
    pale = [n for n, is_far in zip(up, far, strict=True) if is_far]
    pale = [n for n in pale if classes[n] == "white"]
    if pale:
        hues, sure = prototypes.colours.classify(features[pale][:, COLOUR_FEATURES], barred="white")
        at = {n: k for k, n in enumerate(up)}
        for n, label, certainty in zip(pale, hues, sure, strict=True):
            chroma = float(numpy.hypot(*casts[at[n]]))
            if label in CAST_HUES and chroma < CAST_SATURATION * float(lightness[at[n]]):
                continue
            classes[n], confidences[n] = label, min(confidences[n], certainty)


CAST_HUES = ("yellow", "red")
CAST_SATURATION = 0.18
"""Chroma per lightness (OpenCV's 0-255 L) under which a face too coloured for white (its chroma past
WHITE_CHROMA) but nearest a yellow or red is a white under a lamp's warm cast, not that colour: dev frames
(seeds 21 34 55 60 77 88, 7x8; burnt 20261136 and 20261139, 14x12) whites up to 0.16 (a second print's
white on dark wood, cast yellow, chroma 37 at L 234, read yellow), yellows from 0.26, reds 0.37. Not green
(from 0.21, but a second print's green washed by a glare is paler: test_minotaurus_white) nor blue (a
second print's pale blue 0.14)."""


def dark_faces_not_white(
    plane: Frame,
    cells: Cells,
    classes: list[str],
    confidences: list[float],
    prototypes: Prototypes,
    glyphs: Glyphs,
    profile: Profile | None,
    taken: list[int],
) -> None:
    """On a normalised plane, in place: a face read white that is darker than any white (WHITE_LEAST_L) is
    read by its hue among the other colours; one whose piece shows hardly anything lighter than the table
    (DARK_WHITE_LIT; half covered, little: HALF_WHITE_LIT) is a back whose dark body the reference took for
    the table, its lighter emblem and a dark rim left (pale on the neutral grey, so nearest a white
    prototype), unless it shows a clear horn and a clear row of pips as only a face does. (A taught white
    as dark is left alone.)"""
    if cells.lit is None or cells.covered is None:
        return
    taught = None if profile is None else profile.params.get("cell_prototypes", {}).get("white")
    if taught and min(row[0] for row in taught) / FEATURE_WEIGHTS[0] < WHITE_LEAST_L:
        return
    lightness = cells.features[:, 0] / FEATURE_WEIGHTS[0]
    whites = [n for n, label in enumerate(classes) if label == "white" and n not in taken]
    dark = [n for n in whites if lightness[n] < WHITE_LEAST_L]
    if dark:
        hues, sure = prototypes.colours.classify(cells.features[dark][:, COLOUR_FEATURES], barred="white")
        for n, label, certainty in zip(dark, hues, sure, strict=True):
            classes[n], confidences[n] = label, min(confidences[n], certainty)
    half = cells.covered < HALF_WHITE_COVER
    backs = [n for n in whites if n not in dark and cells.lit[n] < DARK_WHITE_LIT]
    # Half-covered ones only where they show a mark (a horn's likeness): a bare patch is no face either,
    # and read_glyphs reads it empty.
    halves = [n for n in whites if half[n] and DARK_WHITE_LIT <= cells.lit[n] < HALF_WHITE_LIT]
    backs = [n for n in backs + halves if not _clear_face(plane, cells, n, glyphs, n in halves)]
    if backs:
        # Mostly covered (EMPTY_COVER), it holds a piece: its back, as sure as it lies nearer a back than
        # the table (its middle half neutral grey).
        kinds, sure = prototypes.classify(cells.features[backs], barred=COLOURS)
        for n, label, certainty in zip(backs, kinds, sure, strict=True):
            classes[n], confidences[n] = "down", certainty if label == "down" else 1.0 - certainty


def _clear_face(plane: Frame, cells: Cells, n: int, glyphs: Glyphs, marked: bool = False) -> bool:
    """Whether cell n shows a horn as clearly as only a face does and a row of pips where it puts it; when
    `marked`, also (as a face to be left to read_glyphs) where it shows no mark as much as a horn."""
    x, y = locate_piece(cells.small, cells.centres[n], cells.tables[n])
    grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM))
    _, _, at, horn = best_match(grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX)
    if marked and horn < HORN_SEEN:
        return True
    if horn < HORN_CLEAR:
        return False
    pips = max(
        best_match(grey, at, VALUE_BOX_MM, look, list(look.names), VALUE_SLACK_PX, blurred=blurred)[3]
        for look, blurred in zip(glyphs.values, glyphs.blurred_values, strict=True)
    )
    return pips >= PIPS_CLEAR


PART_COVER = 0.9
"""Share of a cell's middle (Cells.covered) under which a cell that shows neither a horn nor a back's emblem
(its marks darker, FACE_POLARITY; the back's pattern under BACK_SEEN) is the table a normalisation left, not
a piece: a lamp's glare on linen, 0.65 covered, read white then down (dev 40 linen frame 5). Pieces so
partly covered are white faces on light cloths, told by their horns, or backs, told by their emblems
(dev 2 8 40 55 60 77 7x8: 9964 pieces, 21 under 0.9, none of them without a horn or an emblem). Not for
cells read down whose lighter marks are no emblem by core_polarity: default backs washed by a laminate's
glare (burnt 20261139 session 09) are 0.76-0.88 covered, core 0.08-0.24, likeness to the back 0.11-0.44."""


def _horn_ink(grey: GreyImage, at: tuple[float, float]) -> float:
    """Standard deviation of the horn's box about a piece found at `at` (glyph pixels): its ink's."""
    x0, y0, x1, y1 = (round(c + v * GLYPH_PX_PER_MM) for c, v in zip(at * 2, HORN_BOX_MM, strict=True))
    box = grey[max(0, y0) : y1, max(0, x0) : x1]
    return float(box.std()) if box.size else 0.0


def read_glyphs(
    plane: Frame,
    cells: Cells,
    items: dict[str, str],
    confidence: dict[str, float],
    prototypes: Prototypes,
    glyphs: Glyphs,
    values: list[int],
    taken: list[int],
) -> None:
    """Each face-up cell's horn and value, in place: "<colour>" becomes "<colour>-<value>-<horn>" (or, on a
    normalised plane, in a cell that shows no horn where a face would, the nearer of empty and down; in one
    whose horn is unclear and whose middle goes on across the gap about its place, left_table, empty)."""
    faces: list[FaceRow] = []
    for item in [item for item in cells.ids if items[item] not in ("empty", "down")]:
        n = cells.ids.index(item)
        x, y = (
            cells.centres[n] if n in taken else locate_piece(cells.small, cells.centres[n], cells.tables[n])
        )
        grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM), n in taken)
        # The horn, unlike the row of pips, looks like itself only where it is: it finds the piece.
        horn, horn_sure, at, likeness = best_match(
            grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX
        )
        inkless_white = items[item] == "white" and _horn_ink(grey, at) < WHITE_HORN_INK
        if cells.covered is not None and (likeness < HORN_SEEN or inkless_white):
            # No horn where a face would show one: the table showing through a normalisation
            # that missed it (a glare, a shadow), or a back; whichever of those is nearer.
            kinds, sures = prototypes.classify(cells.features[[n]], barred=COLOURS)
            items[item], confidence[item] = kinds[0], sures[0]
            if kinds[0] == "down" and cells.features[n, 7] / FEATURE_WEIGHTS[7] < BACK_SEEN:
                # No back's emblem either, its middle going on across the gap: the table's glare or
                # shadow, as table_left_empty reads it (dev 77 laminate, a glare read white then down).
                distance = left_table(cells, n)
                if distance is not None:
                    items[item], confidence[item] = "empty", 1.0 - 0.5 * distance / GAP_LIKE
                elif cells.polarity[n] <= FACE_POLARITY and cells.covered[n] < PART_COVER:
                    # Nor lighter marks at all, and bits of its middle the table: a glare (dev 40 linen).
                    items[item], confidence[item] = "empty", float(1.0 - cells.covered[n])
                elif inkless_white:
                    # White, without a horn's ink or a back's emblem: the table's own white, whole (a
                    # gingham's white check the reference left, burnt 20261140 gingham frame 11).
                    items[item], confidence[item] = "empty", 0.5
            continue
        if likeness < HORN_CLEAR and cells.covered is not None and n not in taken:
            # A horn no clearer than the table's noise can show, in a middle that goes on across the gap
            # about its place: a patch of cloth the normalisation left (a lamp's pool on green felt, read
            # a green face; dev seed 2), no face.
            distance = left_table(cells, n)
            if distance is not None:
                items[item], confidence[item] = "empty", 1.0 - 0.5 * distance / GAP_LIKE
                continue
        centre_mm = (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM)
        value, value_sure, like = read_value(
            plane, grey, centre_mm, n in taken, at, items[item], glyphs, values
        )
        faces.append(FaceRow(item, centre_mm, n in taken, at, value, value_sure, like))
        items[item] = f"{items[item]}-{value}-{horn}"
        confidence[item] = min(confidence[item], horn_sure, value_sure)
    for item, value in reread_ring_rows(plane, faces, glyphs, values).items():
        colour, _, horn = items[item].split("-")
        items[item] = f"{colour}-{value}-{horn}"
