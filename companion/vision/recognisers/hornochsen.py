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

This module holds the colours and the recogniser (reading and teaching); the layout is
_hornochsen_layout.py's, telling a face from a back and reading a face's number on a normalised plane
_hornochsen_faces.py's, a raw plane's squares read by their colours _hornochsen_raw.py's, the mending by the
game's rules _hornochsen_mend.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from companion.vision.recognisers._hornochsen_digits import (
    GAME,
    TILES_FILE,
    DigitTemplates,
    built_in_templates,
    from_png,
    to_png,
)
from companion.vision.recognisers._hornochsen_faces import (
    WINDOW_ROOM,
    Face,
    empty_confidence,
    face_least,
    look_normalised,
    read_face,
)
from companion.vision.recognisers._hornochsen_glyphs import normalised, tile_glyphs, tiles_glyphs
from companion.vision.recognisers._hornochsen_grid import fitted_layout

# (The board's sizes, board_box_mm, parse_square and played_slot re-exported: the seeds' and the
# vocabulary's are checked against them.)
from companion.vision.recognisers._hornochsen_layout import BLOCK_GAP_MM as BLOCK_GAP_MM
from companion.vision.recognisers._hornochsen_layout import ROW_PITCH_MM as ROW_PITCH_MM
from companion.vision.recognisers._hornochsen_layout import SQUARE_PITCH_MM as SQUARE_PITCH_MM
from companion.vision.recognisers._hornochsen_layout import board_box_mm as board_box_mm
from companion.vision.recognisers._hornochsen_layout import board_lines, hornochsen_layout, played_slots
from companion.vision.recognisers._hornochsen_layout import parse_square as parse_square
from companion.vision.recognisers._hornochsen_layout import played_slot as played_slot
from companion.vision.recognisers._hornochsen_mend import ascending_rows, one_of_each

# (The surfaces re-exported: the training module learns their colours by these names.)
from companion.vision.recognisers._hornochsen_raw import BACK as BACK
from companion.vision.recognisers._hornochsen_raw import BOARD_PRINT as BOARD_PRINT
from companion.vision.recognisers._hornochsen_raw import FACE as FACE
from companion.vision.recognisers._hornochsen_raw import INK as INK
from companion.vision.recognisers._hornochsen_raw import (
    LIFTED_TRUST,
    SURFACES,
    find_tile,
    lit_up,
    read_square,
)
from companion.vision.recognisers._hornochsen_seen import (
    NORMALISED_TILE_SHARE,
    Levels,
    Seen,
    squares_levels,
    table_mask,
)
from companion.vision.recognisers._hornochsen_tiles import face_up_tile, middle_of
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
from companion.vision.vocabulary import DOWN, EMPTY

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
        faces: dict[str, Face] = {}
        for place, (item_id, region) in enumerate(layout.items.items()):
            alternatives: list[tuple[int, float]]
            if seen is not None and shares is not None and shares[place] < NORMALISED_TILE_SHARE:
                label, sure, alternatives = EMPTY, empty_confidence(shares[place]), []
            elif seen is not None:
                looked = look_normalised(seen, region, glyphs=False, levels=levels[item_id])
                if isinstance(looked, Face):
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
            least = face_least([face.median for face in faces.values()])
            for item_id, face in faces.items():
                tile_scores = [next(scored) for _ in face.glyphs]
                tile_fits = [next(fitted) for _ in face.glyphs]
                label, sure, alternatives = read_face(seen, face, tile_scores, templates, least, tile_fits)
                items[item_id], confidence[item_id], others[item_id] = label, sure, alternatives
            items = {item_id: items[item_id] for item_id in layout.items}  # in the layout's order
        one_of_each(items, confidence, others)
        ascending_rows(items, confidence, others)
        return Reading(items, confidence)

    def _read_item(
        self, crop: Frame, region: ItemRegion, palette: Palette, templates: DigitTemplates
    ) -> tuple[str, float, list[tuple[int, float]]]:
        """The item's label, how sure, and for a number the next likeliest numbers (with how much less
        likely: their score's shortfall)."""
        if crop.size == 0:
            return EMPTY, 0.0, []
        reading = read_square(crop, palette, templates)
        if reading[0] == EMPTY:
            # Deep shadow darkens a face to the colour of ink or print: look again, lit up.
            lifted = lit_up(crop)
            if lifted is not None:
                again = read_square(lifted, palette, templates)
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
            for place, glyph in enumerate(glyphs):
                found[place].append((glyph.pixels, glyph.aspect))
    return [
        (
            int(digit),
            numpy.asarray(numpy.mean([glyph for glyph, _ in shots], axis=0), numpy.float32),
            float(numpy.mean([aspect for _, aspect in shots])),
        )
        for digit, shots in zip(label, found, strict=True)
    ]


def _middle_pixels(lab: FloatArray, share: float) -> FloatArray:
    return numpy.asarray(middle_of(lab, share).reshape(-1, 3), dtype=numpy.float32)


register_recogniser(GAME, HornochsenRecogniser)
