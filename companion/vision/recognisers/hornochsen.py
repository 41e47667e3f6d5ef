"""Tanz der Hornochsen: the numbers (1-99) of the tiles on the board's rows and of the tiles played.

Items: "row:R:square:S" for every square of the board (rows and lengths from
seeds/hornochsen.toml; left-side rows top to bottom on the left half, right-side
rows on the right half), "played:seatN" (seats from 0) for the slots below the
board where each seat shows its played tile, and "played:seatN:2" beside it for
the seat's second tile in a double round (empty otherwise). Labels: "1".."99",
"down" (a tile face down) or "empty".

How: on a normalised plane, whatever in a square is no empty area is a tile, a back where it shows a
back's mark (a ring round a disc), else a face if it shows a number; on a raw plane each item's pixels
are labelled by their nearest colour prototype (tile face, tile back, or the board's print). The tile is
found and straightened (_hornochsen_tiles.py: its face's minimum-area rectangle, or its number's ink) and
its number read from its digits (_hornochsen_glyphs.py: their shapes of ink; _hornochsen_digits.py: the
digit classifier and templates and how they are learned); teaching adds the user's tiles' digits (moving
the classifier to them) and colours. Each number is on one tile and a row ascends: readings that break
either are mended from their next likeliest numbers.

This module holds the layout, the colours, the recogniser (reading and teaching), telling a face from a
back and the mending by the game's rules.
"""

from __future__ import annotations

import functools
import re
import statistics
from collections.abc import Mapping
from typing import Any, NamedTuple

import cv2
import numpy
import numpy.typing

from companion.games.hornochsen.board import BOARD
from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.components import dimension_mm
from companion.vision.recognisers._hornochsen_digits import (
    GAME,
    JOINED_SCORE,
    MIN_GLYPH_SCORE,
    TILES_FILE,
    DigitTemplates,
    built_in_templates,
    from_png,
    number_fit,
    number_of,
    read_number,
    to_png,
)
from companion.vision.recognisers._hornochsen_glyphs import Glyph, normalised, tile_glyphs, tiles_glyphs
from companion.vision.recognisers._hornochsen_grid import fitted_layout
from companion.vision.recognisers._hornochsen_tiles import (
    EVEN_LEVEL,
    NORMALISED_TILE_SHARE,
    WIDE_MM,
    Levels,
    Seen,
    TileWindow,
    back_mark,
    evened,
    face_up_tile,
    ink_tile,
    middle_of,
    normalised_tile,
    outline_turn,
    square_levels,
    squares_levels,
    straighten,
    table_mask,
    tile_window,
)
from companion.vision.recognisers._lab import (
    FloatArray,
    Palette,
    balanced,
    learn_colour,
    neutral_gains,
    palette_for,
    to_lab,
)
from companion.vision.recognisers._shipped import shipped_colours

EMPTY = "empty"
DOWN = "down"

SQUARE_PITCH_MM = dimension_mm("hornochsen", "square_pitch")
ROW_PITCH_MM = dimension_mm("hornochsen", "row_pitch")
SLOT_PITCH_MM = 36.0
MARGIN_MM = 40.0
"""Clear of the 30 mm corner markers."""
BLOCK_GAP_MM = dimension_mm("hornochsen", "block_gap")
SLOTS_GAP_MM = 14.0
SLOTS_SIDE_MM = 10.0
"""Least room between the slots' row and the plane's sides: the row lies above the bottom corner markers."""

FACE, BACK, INK, BOARD_PRINT = "face", "back", "ink", "board"
SURFACES = (FACE, BACK, INK, BOARD_PRINT)
TILE_SHARE = 0.4
"""A square holds a tile when this share of its middle shows the tile's face or back."""

_SQUARE = re.compile(r"^row:(\d+):square:(\d+)$")


@functools.lru_cache(maxsize=1024)
def parse_square(item_id: str) -> tuple[int, int] | None:
    """(row, square) of a board square's item id; None for a played slot. (Kept: the game's rules look at
    every item of every frame, and a camera reads the same items frame after frame.)"""
    match = _SQUARE.match(item_id)
    return (int(match.group(1)), int(match.group(2))) if match else None


def played_slot(seat: int, second: bool = False) -> str:
    """The item id of a seat's played-tile slot; `second` for its second tile in a double round."""
    return f"played:seat{seat}:2" if second else f"played:seat{seat}"


def hornochsen_layout(players: int) -> Layout:
    """Two blocks of rows (the seed's left and right sides) and a row of played-tile slots below: each
    seat a pair side by side, its first tile on the left, its second (in a double round) on the right.

    The plane widens for the slots only when they do not fit below the board (eight seats).
    """
    if not 1 <= players <= 8:
        raise ValueError(f"hornochsen layout: players must be 1 to 8, not {players}")
    longest = max(row.length for row in BOARD.rows)
    block_width = longest * SQUARE_PITCH_MM
    sides = [[row for row in BOARD.rows if row.side == side] for side in ("left", "right")]
    items: dict[str, ItemRegion] = {}
    for column, rows in enumerate(sides):
        x0 = MARGIN_MM + column * (block_width + BLOCK_GAP_MM)
        for place, row in enumerate(rows):
            y = MARGIN_MM + (place + 0.5) * ROW_PITCH_MM
            for square in range(row.length):
                centre = (x0 + (square + 0.5) * SQUARE_PITCH_MM, y)
                items[f"row:{row.index}:square:{square}"] = ItemRegion(
                    centre, (SQUARE_PITCH_MM, SQUARE_PITCH_MM)
                )
    slots = 2 * players
    board_width = 2 * MARGIN_MM + 2 * block_width + BLOCK_GAP_MM
    width = max(board_width, slots * SLOT_PITCH_MM + 2 * SLOTS_SIDE_MM)
    shift = (width - board_width) / 2  # the board stays centred over the slots
    items = {
        item_id: ItemRegion((region.centre_mm[0] + shift, region.centre_mm[1]), region.size_mm)
        for item_id, region in items.items()
    }
    slots_y = MARGIN_MM + max(len(rows) for rows in sides) * ROW_PITCH_MM + SLOTS_GAP_MM + SLOT_PITCH_MM / 2
    for slot in range(slots):
        x = width / 2 + (slot - (slots - 1) / 2) * SLOT_PITCH_MM
        item_id = played_slot(slot // 2, second=slot % 2 == 1)
        items[item_id] = ItemRegion((x, slots_y), (SLOT_PITCH_MM, SLOT_PITCH_MM))
    return Layout((width, slots_y + SLOT_PITCH_MM / 2 + MARGIN_MM), items)


def board_lines(layout: Layout) -> list[list[str]]:
    """The layout's items in lines, in order: each row's squares, each block's rows' first squares (top
    to bottom) and the played slots (left to right); nothing lies a step beyond a line's ends."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for item_id in layout.items:
        square = parse_square(item_id)
        if square is not None:
            rows.setdefault(square[0], []).append((square[1], item_id))
    lines = [[item_id for _, item_id in sorted(squares)] for squares in rows.values()]
    for side in ("left", "right"):
        firsts = [f"row:{row.index}:square:0" for row in BOARD.rows if row.side == side]
        lines.append([item_id for item_id in firsts if item_id in layout.items])
    slots = [item_id for item_id in layout.items if parse_square(item_id) is None]
    lines.append(sorted(slots, key=lambda item_id: layout.items[item_id].centre_mm[0]))
    return lines


def played_slots(layout: Layout) -> list[str]:
    """The layout's played slots: laid on the table below the board, not on its squares."""
    return [item_id for item_id in layout.items if parse_square(item_id) is None]


def board_box_mm(layout: Layout) -> tuple[float, float, float, float]:
    """The printed board's outline (x0, y0, x1, y1): the squares with a small border."""
    squares = [r for item_id, r in layout.items.items() if parse_square(item_id)]
    xs = [r.centre_mm[0] for r in squares]
    ys = [r.centre_mm[1] for r in squares]
    border = SQUARE_PITCH_MM / 2 + 4
    return (min(xs) - border, min(ys) - border, max(xs) + border, max(ys) + border)


# ---------------------------------------------------------------- the recogniser


def default_colours() -> dict[str, list[list[float]]]:
    """The built-in edition's colour prototypes (Lab) of each surface (shipped in TILES_FILE)."""
    return shipped_colours(TILES_FILE, GAME, SURFACES)


class HornochsenRecogniser:
    game = GAME

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return hornochsen_layout(int(options.get("players", 4)))

    # ------------------------------------------------------------ profile

    def default_profile(self) -> Profile:
        """The built-in edition: its colours and digits, as shipped."""
        templates, aspects = built_in_templates()
        return Profile(
            game=GAME,
            colours=default_colours(),
            templates=dict(templates),
            params={"digit_aspect": list(aspects), "taught_digits": [0] * 10, "taught_colours": []},
        )

    def __init__(self) -> None:
        self._cache: dict[tuple[int, bool], tuple[Profile, DigitTemplates]] = {}
        self._default: Profile | None = None
        self._palette_of: tuple[Profile, Palette] | None = None
        self._lines_of: tuple[Layout, list[list[str]], list[str]] | None = None

    def _templates(self, profile: Profile, keep_classifier: bool = False) -> DigitTemplates:
        key = (id(profile), keep_classifier)
        cached = self._cache.get(key)
        if cached is not None and cached[0] is profile:
            return cached[1]
        templates = DigitTemplates.from_profile(profile, keep_classifier)
        self._cache = {k: v for k, v in self._cache.items() if v[0] is profile} | {key: (profile, templates)}
        return templates

    def _lines(self, layout: Layout) -> tuple[list[list[str]], list[str]]:
        """The layout's board_lines and played_slots, kept while the same layout is read."""
        kept = self._lines_of
        if kept is None or kept[0] is not layout:
            kept = self._lines_of = (layout, board_lines(layout), played_slots(layout))
        return kept[1], kept[2]

    def _palette(self, profile: Profile) -> Palette:
        """The profile's colour palette, kept while the same profile is read (0.6 ms to make)."""
        if self._palette_of is None or self._palette_of[0] is not profile:
            self._palette_of = (profile, palette_for(profile.colours, SURFACES, washed=False))
        return self._palette_of[1]

    def _profile(self, profile: Profile | None) -> Profile:
        """The profile completed with built-in colours and digits where it has none of its own."""
        if self._default is None:
            self._default = self.default_profile()
        if profile is None:
            return self._default
        if any(name.startswith("digit:") for name in profile.templates) and profile.colours:
            return profile
        return profile.completed_by(self._default)

    # ------------------------------------------------------------ reading

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        return self._read(plane, table_mask(plane), layout, profile)

    def read_normalised(
        self, plane: Frame, table: numpy.typing.NDArray[numpy.uint8], layout: Layout, profile: Profile | None
    ) -> Reading:
        """`read` with the empty area the reference replaced (base.ReadsNormalised): not found again by
        comparing every pixel with the neutral colour (0.5 ms a frame)."""
        return self._read(plane, table, layout, profile)

    def _read(
        self,
        plane: Frame,
        table: numpy.typing.NDArray[numpy.uint8] | None,
        layout: Layout,
        profile: Profile | None,
    ) -> Reading:
        profile = self._profile(profile)
        seen = Seen.of(plane, table) if table is not None else None
        if seen is None:
            plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        else:
            layout = fitted_layout(seen.grey, seen.table, layout, *self._lines(layout))
        palette = self._palette(profile)
        # On a normalised plane the camera classifier reads other editions' typefaces better than
        # templates taught from one sitting (seeds 5 and 7: 98-100% of items against 96-99%), so it
        # reads there whatever was taught; taught digits still count as digits where the built-in ones
        # would not (read_number's correlation thresholds).
        templates = self._templates(profile, keep_classifier=table is not None)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        others: dict[str, list[tuple[int, float]]] = {}
        # (As Python floats: most squares are empty, and each is only compared.)
        shares: list[float] | None = None
        # The squares that hold a tile have their levels measured at once (squares_levels), in the middles
        # their shares were counted in.
        levels: dict[str, Levels] = {}
        if seen is not None:
            shared, middles = seen.middles(list(layout.items.values()))
            shares = shared.tolist()
            held = [place for place, share in enumerate(shares) if share >= NORMALISED_TILE_SHARE]
            ids = list(layout.items)
            measured = squares_levels(
                seen, [layout.items[ids[place]] for place in held], [middles[place] for place in held]
            )
            levels = {ids[place]: level for place, level in zip(held, measured, strict=True)}
            if held:
                # The faces' windows lie within their middles' box and WINDOW_ROOM round it: their outlines'
                # lightness is shaped there only.
                tops, bottoms, lefts, rights, _ = zip(*(middles[place] for place in held), strict=True)
                room = WINDOW_ROOM
                seen.shape_within(
                    (min(lefts) - room, min(tops) - room, max(rights) + room, max(bottoms) + room)
                )
        faces: dict[str, _Face] = {}
        for place, (item_id, region) in enumerate(layout.items.items()):
            alternatives: list[tuple[int, float]]
            if seen is not None and shares is not None and shares[place] < NORMALISED_TILE_SHARE:
                label, sure, alternatives = EMPTY, _empty_confidence(shares[place]), []
            elif seen is not None:
                looked = _look_normalised(seen, region, glyphs=False, levels=levels[item_id])
                if isinstance(looked, _Face):
                    faces[item_id] = looked
                    continue
                label, sure, alternatives = looked
            else:
                crop = layout.crop(plane, item_id)
                label, sure, alternatives = self._read_item(crop, region, palette, templates)
            items[item_id] = label
            confidence[item_id] = sure
            others[item_id] = alternatives
        if seen is not None and faces:
            # Every face's glyphs are found at once (tiles_glyphs), and scored in one product (a product
            # per tile cost more than its sums).
            found = tiles_glyphs([face.straight for face in faces.values()])
            faces = {
                item_id: face._replace(glyphs=glyphs)
                for (item_id, face), glyphs in zip(faces.items(), found, strict=True)
            }
            glyphs = [glyph for face in faces.values() for glyph in face.glyphs]
            fits: list[float] = []
            scored = iter(templates.all_scores(glyphs, raw=True, fits=fits))
            fitted = iter(fits)
            least = _face_least([face.median for face in faces.values()])
            for item_id, face in faces.items():
                tile_scores = [next(scored) for _ in face.glyphs]
                tile_fits = [next(fitted) for _ in face.glyphs]
                label, sure, alternatives = _read_face(seen, face, tile_scores, templates, least, tile_fits)
                items[item_id], confidence[item_id], others[item_id] = label, sure, alternatives
            items = {item_id: items[item_id] for item_id in layout.items}  # in the layout's order
        _one_of_each(items, confidence, others)
        _ascending_rows(items, confidence, others)
        return Reading(items, confidence)

    def _read_item(
        self, crop: Frame, region: ItemRegion, palette: Palette, templates: DigitTemplates
    ) -> tuple[str, float, list[tuple[int, float]]]:
        """The item's label, how sure, and for a number the next likeliest numbers (with how much less
        likely: their score's shortfall)."""
        if crop.size == 0:
            return EMPTY, 0.0, []
        reading = _read_square(crop, palette, templates)
        if reading[0] == EMPTY:
            # Deep shadow darkens a face to the colour of ink or print: look again, lit up.
            lifted = _lifted(crop)
            if lifted is not None:
                again = _read_square(lifted, palette, templates)
                if again[0] != EMPTY:
                    return again[0], again[1] * LIFTED_TRUST, again[2]
        return reading

    # ------------------------------------------------------------ teaching

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the tiles' face and back colours, the board's print, and each digit's glyph."""
        base = self._profile(profile)
        table = table_mask(plane)
        if table is None:
            plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        else:
            layout = fitted_layout(plane, table, layout, board_lines(layout), played_slots(layout))
        colours = base.colours
        taught = list(base.params.get("taught_colours", []))
        taught_digits = [int(n) for n in base.params.get("taught_digits", [0] * 10)]
        taught_glyphs = {
            d: from_png(decode_template(base.templates[f"digit:{d}:taught"])) * taught_digits[d]
            for d in range(10)
            if taught_digits[d] and f"digit:{d}:taught" in base.templates
        }
        aspects = numpy.asarray(base.params["digit_aspect"], numpy.float64)
        shown = numpy.asarray(base.params.get("taught_aspect", [0.0] * 10), numpy.float64)
        palette = palette_for(colours, SURFACES, washed=False)
        seen = Seen.of(plane, table) if table is not None else None
        samples: dict[str, list[FloatArray]] = {FACE: [], BACK: [], BOARD_PRINT: []}
        for item_id, label in labels.items():
            if item_id not in layout.items:
                raise ValueError(f"hornochsen teach: no item {item_id!r} in the layout")
            crop = layout.crop(plane, item_id)
            lab = to_lab(crop)
            middle = _middle_pixels(lab, 0.5)
            if label == EMPTY:
                samples[BOARD_PRINT].append(middle)
                continue
            if label == DOWN:
                samples[BACK].append(middle)
                continue
            if not label.isdigit() or not 1 <= int(label) <= BOARD.tiles:
                raise ValueError(
                    f"hornochsen teach: {item_id} label {label!r} is not 1-{BOARD.tiles}, down or empty"
                )
            owners = palette.classify_bgr(crop)
            light = lab[..., 0]
            face_pixels = lab[(owners == 0) & (light > numpy.percentile(light, 40))]
            samples[FACE].append(face_pixels)
            # The tile as reading finds it: on a normalised plane, whatever is no empty area.
            if seen is not None:
                tile = face_up_tile(plane, seen.table, layout.items[item_id], seen)
            else:
                tile = find_tile(crop, owners)
            for digit, glyph, aspect in _taught_digits(tile, label):
                taught_glyphs[digit] = taught_glyphs.get(digit, 0.0) + glyph
                aspects[digit] = (aspects[digit] * 9 + aspect) / 10
                shown[digit] = (shown[digit] * taught_digits[digit] + aspect) / (taught_digits[digit] + 1)
                taught_digits[digit] += 1
        for surface, pixels in samples.items():
            if pixels:
                colours, taught = learn_colour(colours, taught, surface, pixels)
        templates = dict(base.templates)
        for digit, total in taught_glyphs.items():
            templates[f"digit:{digit}:taught"] = encode_template(
                to_png(normalised(numpy.asarray(total / taught_digits[digit], numpy.float32)))
            )
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours=colours,
            templates=templates,
            params={
                **base.params,
                "digit_aspect": aspects.tolist(),
                "taught_aspect": shown.tolist(),
                "taught_digits": taught_digits,
                "taught_colours": taught,
            },
            shots=profile.shots + 1,
        )


TAUGHT_BLURS = (0.0, 0.8, 1.3, 1.8)
"""A lesson's tile is learned as shot and blurred by these sigmas (plane pixels): the one shot's sharpness
is no other table's, and the built-in digits were learned over every table's."""


def _taught_digits(tile: FloatArray | None, label: str) -> list[tuple[int, FloatArray, float]]:
    """Each digit of a lesson's tile: the digit, its glyph (mean over TAUGHT_BLURS) and width/height; none
    where the tile as shot does not split into the label's digits (nothing wrong is learned)."""
    if tile is None or len(tile_glyphs(tile)) != len(label):
        return []
    found: list[list[tuple[FloatArray, float]]] = [[] for _ in label]
    for sigma in TAUGHT_BLURS:
        seen = numpy.asarray(cv2.GaussianBlur(tile, (0, 0), sigma), numpy.float32) if sigma else tile
        glyphs = tile_glyphs(seen)
        if len(glyphs) == len(label):
            for place, (glyph, aspect, _) in enumerate(glyphs):
                found[place].append((glyph, aspect))
    return [
        (
            int(digit),
            numpy.asarray(numpy.mean([glyph for glyph, _ in shots], axis=0), numpy.float32),
            float(numpy.mean([aspect for _, aspect in shots])),
        )
        for digit, shots in zip(label, found, strict=True)
    ]


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
"""A dim square this share or less not the empty area shows a tile's two digits, not one (see _read_face)."""
FACE_JOINED_SCORE = 0.75
"""The least correlation of each half of a shape cut in two (see JOINED_SCORE) on a light square of a
normalised plane: the board and its prints are gone there, and two digits of another typeface blurred
together through a cloth's noise correlate 0.79-0.85 (burnt 20261135: a gingham 29 and 66, a dark wood 99
read empty)."""
TURN_DOUBT = 10.0
"""An outline turned further than this (degrees) from upright is doubted: tiles are laid square with the
board or within a few degrees on the table, and a face torn by the reference or run into a neighbour
outlines a shape turned 15-30 degrees (see _read_face). Dev seeds 5, 8, 13, 21 and burnt 20261134-35:
at 6 and 8 degrees, a number or two right at an outline's turn of 6-10 degrees read wrong upright."""
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
"""A frame with at least this many faces tells how light its faces are (see _face_least)."""
FRAME_FACE_SHARE = 0.8
"""A face this share as light as the frame's typical face is one of them, not a mark of the board's print."""


def _face_least(medians: list[float]) -> float:
    """How dark a face may be and still show one digit (see FACE_LEAST): under a dim lamp every face of the
    frame is that dark (printed cloth, travel edition, seed 20261134: the frame's faces at 97 median, its
    tiles 1, 2 and 7 at 84-93 read empty); a mark the reference left in view lies in a shadow darker than
    the faces round it (dark wood: marks at 17-94 among faces at 178)."""
    if len(medians) < FRAME_FACES:
        return FACE_LEAST
    # (statistics' median of a frame's few faces: the same number, a twentieth of numpy.median's time.)
    return float(min(FACE_LEAST, FRAME_FACE_SHARE * float(statistics.median(medians))))


def _empty_confidence(tile: float) -> float:
    """How sure a square is empty whose middle is this share no empty area."""
    return float(min(1.0, 1.0 - tile / NORMALISED_TILE_SHARE + 0.3))


class _Face(NamedTuple):
    """A square showing a face-up tile whose number is still to be read (see _look_normalised)."""

    region: ItemRegion
    tile: float
    median: float
    light_level: float
    dim: bool
    glyphs: list[Glyph]
    window: TileWindow
    """Where the tile was looked for (its window centred on its ink is cut from it too: see _read_face)."""
    straight: FloatArray
    """The tile straightened in it (normalised_tile), its glyphs found in it."""


def _look_normalised(
    seen: Seen, region: ItemRegion, glyphs: bool = True, levels: Levels | None = None
) -> tuple[str, float, list[tuple[int, float]]] | _Face:
    """What a square shows on a normalised plane: whatever is not the empty play area in its middle is a
    tile, whatever its edition's colours. A face is light with dark ink, a back dark with a light mark (a
    ring round a disc): a dark square (see BACK_SHARE) is a back where it shows the mark, and any square
    that reads no number is looked at for the mark too (a back overexposed). A face's glyphs are returned
    to be scored with the other squares' (see _read_face)."""
    tile, (median, light_level, dark) = square_levels(seen, region) if levels is None else levels
    if tile < NORMALISED_TILE_SHARE:
        return EMPTY, _empty_confidence(tile), []
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
    return _Face(region, tile, median, light_level, dim, found, window, straight)


def _read_face(
    seen: Seen,
    face: _Face,
    scored: list[tuple[FloatArray, FloatArray]],
    templates: DigitTemplates,
    face_least: float = FACE_LEAST,
    fits: list[float] | None = None,
) -> tuple[str, float, list[tuple[int, float]]]:
    """The number of a face found by _look_normalised, from its glyphs' scores (and their best
    correlations, when taken already: see number_of)."""
    # A light face in its square is a tile: its blurred digits of another typeface need not look as much
    # like the built-in ones as a dark mark the reference left in view must to be taken for digits.
    # Under a dim lamp every face of the frame is dim (see _face_least): one as light as the frame's faces
    # is a face, its digits blurred by the dark as a light face's are by a cloth's noise (burnt 20261138,
    # laminate in a dark room: faces at 83-124 median, their joined digits at 0.8-0.89 read empty).
    dim = face.dim and (face_least >= FACE_LEAST or face.median < face_least)
    least = FACE_GLYPH_SCORE if not dim else MIN_GLYPH_SCORE
    joined = FACE_JOINED_SCORE if not dim else JOINED_SCORE
    # A lone 0 on a dim square is a ring of the board's print left in view; on a light face, a blurred
    # digit (an 8 blurred into a blob looks most like a 0): its likeliest digit of 1-9 is read.
    ring = face.dim
    number, margin, alternatives = number_of(face.glyphs, scored, least, joined, ring, fits)
    rect = face.window.rect
    if number is not None and rect is not None and abs(outline_turn(rect)) > TURN_DOUBT:
        # An outline turned this far is more likely a face torn by the reference or run into a neighbour
        # than a tile laid so: the window is read upright too, and the number whose digits look the more
        # like digits kept (burnt 20261135: an upright 40 and 37 read 60 and 47 in windows turned 15-20
        # degrees by their outlines).
        upright = normalised_tile(seen, face.region, face.light_level, window=face.window, level=True)
        glyphs = tile_glyphs(upright) if upright is not None else []
        upright_scored = templates.all_scores(glyphs)
        again = number_of(glyphs, upright_scored, least, joined, ring)
        if again[0] is not None and number_fit(upright_scored, again[0]) > number_fit(scored, number):
            number, margin, alternatives = again
    if number is None or number < 10:
        # No number, or one digit: a digit may have fallen off a window the outline put askew.
        centred = normalised_tile(seen, face.region, face.light_level, on_ink=True, window=face.window)
        again = (
            read_number(centred, templates, least, joined, ring) if centred is not None else (None, 0.0, [])
        )
        # Of one digit read in both windows, the surer reading is kept: the outline's window may cut the
        # digit at its side (dev seed 5, felt: a 1 read 3 by a margin of 0.007, 1 by 0.24 on its ink).
        if again[0] is not None and (number is None or again[0] >= 10 or again[1] > margin):
            number, margin, alternatives = again
    if number is None:
        # Still none: the number's ink nearest the square's centre, whatever outline was found there.
        inked = ink_tile(face.window, face.light_level)
        again = read_number(inked, templates, least, joined, ring) if inked is not None else (None, 0.0, [])
        if again[0] is not None:
            number, margin, alternatives = again
    if face.dim and (number is None or number < 10):
        # A dim face may lie in a shadow's edge: its lightness evened out against the face round each
        # pixel, its number looked for again (where its outline was found, then at its ink); one digit
        # found before may be half of it. Only two digits count there: evened, any shadow's texture shows
        # strokes (a shadow on felt, burnt seed 20261134, read 1); a lone digit keeps the reading before.
        even = evened(face.window)
        for centred in (
            normalised_tile(seen, face.region, EVEN_LEVEL, window=even),
            ink_tile(even, EVEN_LEVEL),
        ):
            again = (
                read_number(centred, templates, least, joined, ring)
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
    if maybe_back and back_mark(seen, face.region, BACK_MARK) >= BACK_MARK:
        return DOWN, float(min(1.0, face.tile)), []
    if number is None or (face.median < face_least and number < 10):
        # No face is this dark (nor this much darker than the frame's: _face_least) but one in a deep
        # shadow, which still shows its two digits: one digit there is a mark of the board's print the
        # reference left in view.
        return EMPTY, 0.1, []
    if face.dim and number < 10 and face.tile < DIM_PART:
        # Nor does a dim patch covering little of the square's middle show one digit but as a mark of a
        # printed cloth the reference left in view (burnt 20261138: a 6 at 0.28 of the middle, 139 median).
        return EMPTY, 0.1, []
    return str(number), float(min(1.0, margin * 4)), alternatives


def _read_square(
    crop: Frame, palette: Palette, templates: DigitTemplates
) -> tuple[str, float, list[tuple[int, float]]]:
    """What a square (or slot) shows, as HornochsenRecogniser._read_item says."""
    middle = palette.classify_bgr(middle_of(crop, 0.6)[::2, ::2])
    shares = numpy.bincount(middle.ravel(), minlength=len(SURFACES)) / max(1, middle.size)
    face, back = float(shares[0]), float(shares[1])
    if max(face, back) < TILE_SHARE:
        return EMPTY, float(min(1.0, 1.0 - max(face, back) / TILE_SHARE + 0.3)), []
    if back > face:
        return DOWN, float(min(1.0, back)), []
    tile = find_tile(crop, palette.classify_bgr(crop))
    if tile is None:
        return EMPTY, 0.2, []
    number, margin, alternatives = read_number(tile, templates)
    if number is None:
        return EMPTY, 0.1, []
    return str(number), float(min(1.0, margin * 4)), alternatives


DARK_LEVEL = 120.0
"""A square whose middle's brightest tenth is darker than this (a tile's face is about 228 grey, the board's
squares 140) lies in deep shadow..."""
LIT_LEVEL = 200.0
"""...and is looked at again scaled so that its brightest tenth is this light,"""
INK_SHARE = 0.5
"""...when its darkest fiftieth is at most this share of its brightest quarter's lightness: ink on a face
(a plain table or square in shadow is more even)."""
LIFTED_TRUST = 0.5
"""How much of its confidence a reading of a lit-up square keeps."""


def _lifted(crop: Frame) -> Frame | None:
    """The square lit up to a face's lightness, when it lies in deep shadow and shows ink; else None."""
    sample = numpy.ascontiguousarray(middle_of(crop, 0.6)[::2, ::2])
    blue, green, red, _ = cv2.mean(sample)
    if 0.114 * blue + 0.587 * green + 0.299 * red >= DARK_LEVEL:
        return None  # lit well enough on average: so is its brightest tenth (a quick look for most squares)
    middle = cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY).ravel()
    size = middle.size
    ordered = numpy.partition(middle, (size // 50, size * 3 // 4, size * 9 // 10))
    brightest, face, ink = (
        float(ordered[size * 9 // 10]),
        float(ordered[size * 3 // 4]),
        float(ordered[size // 50]),
    )
    if not 0 < brightest < DARK_LEVEL or ink > INK_SHARE * face:
        return None
    return numpy.asarray(cv2.convertScaleAbs(crop, alpha=LIT_LEVEL / brightest), numpy.uint8)


def _middle_pixels(lab: FloatArray, share: float) -> FloatArray:
    return numpy.asarray(middle_of(lab, share).reshape(-1, 3), dtype=numpy.float32)


def find_tile(crop: Frame, owners: numpy.typing.NDArray[numpy.intp]) -> FloatArray | None:
    """The tile in a square, straightened (see straighten), from its pixels' surfaces (SURFACES' indices)."""
    return straighten(crop, owners == SURFACES.index(FACE))


SWAP_SHORTFALL = 0.15
"""A number read twice is kept where it is surest; elsewhere the next likeliest number not read yet is
taken instead when it scores at most this much less (each number is on one tile only)."""


def _one_of_each(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """Each number is on one tile: where one is read twice, the less sure reading takes its next likeliest."""
    readers: dict[str, list[str]] = {}
    for item_id, label in items.items():
        if label.isdigit():
            readers.setdefault(label, []).append(item_id)
    for item_ids in list(readers.values()):
        if len(item_ids) < 2:
            continue
        for item_id in sorted(item_ids, key=lambda i: confidence[i], reverse=True)[1:]:
            for number, shortfall in others[item_id]:
                if shortfall <= SWAP_SHORTFALL and str(number) not in readers:
                    items[item_id] = str(number)
                    readers[str(number)] = [item_id]
                    confidence[item_id] = 0.0
                    break


def _ascending_rows(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """A row's tiles ascend from its first square (the game refuses a tile out of order): where two
    neighbours read out of order, the less sure of them (failing that, the other) takes its next likeliest
    number that fits between its neighbours and is not read elsewhere, when it scores at most
    SWAP_SHORTFALL less."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for item_id, label in items.items():
        square = parse_square(item_id)
        if square is not None and label.isdigit():
            rows.setdefault(square[0], []).append((square[1], item_id))
    read = {label for label in items.values() if label.isdigit()}
    for squares in rows.values():
        row = [item_id for _, item_id in sorted(squares)]
        for place in range(len(row) - 1):
            left, right = row[place], row[place + 1]
            if int(items[left]) < int(items[right]):
                continue
            for item_id in sorted((left, right), key=lambda i: confidence[i]):
                at = row.index(item_id)
                low = int(items[row[at - 1]]) if at > 0 else 0
                high = int(items[row[at + 1]]) if at + 1 < len(row) else BOARD.tiles + 1
                fitting = [
                    number
                    for number, shortfall in others[item_id]
                    if shortfall <= SWAP_SHORTFALL and low < number < high and str(number) not in read
                ]
                if fitting:
                    read.discard(items[item_id])
                    items[item_id] = str(fitting[0])
                    read.add(items[item_id])
                    confidence[item_id] = 0.0
                    break


register_recogniser(GAME, HornochsenRecogniser)
