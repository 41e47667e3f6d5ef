"""Minotaurus: which cells of the matrix hold a piece face down, none, or which piece face up.

Each cell is read in two steps. First what lies there: the median colour of the cell's middle, seen
relative to the table around it, how patterned the middle is, how well it matches a piece's back and
how much of it is lighter marks (a back's emblem) go to the nearest learned prototype of "empty",
"down" or one of the colours; which way the middle's marks lie from it (ink_polarity: a back's emblem
lighter, a face's ink darker, in every edition) overrules that where it is clear, and a face's colour is
its hue. Then, for a face-up piece, its glyph: the horn template, turned a little either way, finds the
piece and its side (a horn looks like itself only where it is; a cell with no horn is no face), and the
row of pips below it, matched there blurred (round, square or ring pips alike), gives the value.

Most planes come normalised against the empty play area (companion.vision.reference): the table one
neutral grey, the light canonical. There the recogniser reads the pieces by themselves: the matrix is
found where its pieces lie (_minotaurus_grid: sheets laid by their cut edge stretch it), a cell is
empty when its middle is mostly the neutral table (unless it shows a clear horn and a row of pips: a
white face the reference took mostly for a light table; TAKEN_VARIATION, PIPS_CLEAR), or shows no mark
at all (the table a normalisation left behind: a shadow, a lamp's hotspot; FLAT_VARIATION), and the
prototypes are those learned on normalised planes (minotaurus_normalised.json). A cell the prototypes
call a back whose marks tell neither way is a face if it shows a horn as clearly as only a face does
(HORN_CLEAR). No face is white that is darker than a white face under the canonical light (WHITE_LEAST_L:
a dim dark blue face keeps its hue) or shows hardly a pixel lighter than the table (DARK_WHITE_LIT: a dark
back whose body the reference took for a dark table, its dim emblem left) unless it shows a clear horn and
pips. A plane without a reference is read as before, with prototypes learned on planes as the
camera sees them (minotaurus_prototypes.json).

The built-in edition is data shipped beside this module, learned offline from the generator
(`python -m companion.vision.training minotaurus` writes it): the prototypes above and the pieces'
faces and back (minotaurus_faces.json). `teach` learns a user's shot: each label's prototypes (from the
shot seen under a few made-up lights as well), read beside the built-in ones; a face-down cell's back;
and a face-up piece's glyph, laid straight and centred by its horn, as the template of its value and
horn (so numerals do as well as pips). A taught look reads values when it shows every value clearly;
the look that fits a piece best gives its value. Taught on a normalised plane, an edition carries to
other tables.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.seeddata import load_seed
from companion.vision.base import (
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    VisionError,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.components import dimension_mm
from companion.vision.recognisers._minotaurus_glyphs import (
    HORN_BOX_MM,
    HORN_SLACK_PX,
    TURNS_DEG,
    VALUE_BOX_MM,
    VALUE_SLACK_PX,
    GlyphTemplates,
    best_match,
    glyph_crop,
    glyph_window,
    resized,
    upright_face,
)
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL, fit_grid, foreground
from companion.vision.recognisers._minotaurus_light import neutral_pixels, under_made_up_light
from companion.vision.recognisers._minotaurus_prototypes import (
    COLOUR_FEATURES,
    Prototypes,
    cluster_prototypes,
    default_prototypes,
    normalised_prototypes,
)
from companion.vision.recognisers._minotaurus_white import too_coloured_for_white
from companion.vision.recognisers._shipped import (
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)
from companion.vision.reference import NEUTRAL_BGR

GAME = "minotaurus"
_SEED = load_seed("minotaurus")
COLOURS: tuple[str, ...] = tuple(c["name"] for c in _SEED["colours"])
HORNS: tuple[str, ...] = tuple(_SEED["horns"]["names"])
SETUPS: dict[int, dict[str, Any]] = {s["players"]: s for s in _SEED["setup"]}

TILE_MM = dimension_mm("minotaurus", "piece")
PITCH_MM = dimension_mm("minotaurus", "pitch")
MARGIN_MM = 36.0
"""Border of bare table around the matrix: room for the corner markers (30 mm) and then some."""
MIDDLE_MM = 20.0
"""Side of the square at a cell's centre whose median colour is the piece's (or the table's)."""
RING_MM = 1.5
"""Width of the strip along the cell's edge that shows the bare table around it."""
SLACK_MM = 7
"""How far off the cell's centre (and the plane's warp) a piece is looked for."""
COARSE_PX_PER_MM = 1.0
"""Cells' colours are read, and pieces found, on the plane shrunk to this (less noise, fewer pixels)."""
FEATURE_WEIGHTS = (0.5, 1.0, 1.0, 1.0, 2.0, 2.0, 1.5, 60.0, 1000.0)
"""Weights of the cell features (L, a, b, their differences from the table's, texture, likeness to a
piece's back, share of light marks) in distances: lightness varies with the light far more than hue; the
difference from the table tells a piece; the back's pattern tells a face-down piece even under glare; a
mark lighter than the piece (a back's emblem, whatever its shape or colour) tells a face-down piece of
any edition, where a face's glyph is darker than the face."""
LIGHT_MARK = 40.0
"""Grey levels (at the table's brightness) above the middle's median that make a pixel a light mark."""
EMPTY_COVER = 0.5
"""On a normalised plane, a cell whose middle is less than this share foreign (not the neutral table) is
empty: a piece covers all of it, even laid askew and off its place."""
HORN_SEEN = 0.3
"""Least likeness of the horn to the built-in one (or a taught one) where a face lies: every edition's
faces show one above 0.33 even when their ink hardly differs from them; bare table, even textured, below."""
HORN_CLEAR = 0.7
"""Likeness of the horn that only a face shows: a back's emblem, whatever the edition, looks like a horn
at most 0.6 (generated hard sessions, every edition, 12000 backs); a light face the prototypes took for a
back (a white face beside dark backs on a dark table, its marks' polarity unclear) 0.8."""
BACK_POLARITY = 0.12
"""A piece whose ink_polarity is at least this is a back (its marks lighter than it), whatever its colour;
one at most FACE_POLARITY a face (its marks darker); between, its colour and pattern decide. (Generated
hard sessions, every edition: faces up to 0.12 under a glare, backs down to 0.1 where a glare washes their
emblem out, or a dim light leaves the built-in ring faint.)"""
FACE_POLARITY = -0.1
BACK_CLEAR = 0.45
"""Likeness to the piece's back (the built-in one or a taught one) that only a back shows: a cell read down
that shows it stays down whatever its marks' polarity says. (Generated hard sessions, dev seeds 2 5 13 21
34 40 and burnt 20261131-33: 2065 faces at most 0.27; default backs dim on linen, their emblem's ring wide
and faint, polarity -0.10 to -0.16, 0.55-0.68, and read as faces where their ring showed a horn.)"""
FLAT_VARIATION = 5.0
"""On a normalised plane, a cell whose middle varies less than this (the largest standard deviation of its
three channels) shows no mark at all, so holds no piece: every piece shows one there, a back its emblem,
a face its glyph, in shade or in colour (generated hard sessions: 8.2 and more for a back in a deep
shadow, 7.7 for dark ink on a dark blue face). The table a normalisation left behind (a shadow cast after
the reference was taken, a lamp's hotspot saturating a glossy table) varies 0-4.9, and was read as a
back, dark or light, or a face where a neighbour's edge showed a horn."""
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
LIT_LEVEL = 10.0
"""Grey levels above the neutral grey that make a piece's pixel lighter than the table (see Cells.lit)."""
DARK_WHITE_LIT = 0.15
"""Least share of a white face's piece pixels lighter than the table: the same 368 white faces from 0.19
but for one (0.03, a dim felt's, with a clear horn and pips); a second print's navy backs on a dark felt,
their body taken for the table and read white, 0-0.11."""
POLARITY_MIN_PIXELS = 20
"""Pixels of a piece a cell's middle must show for its polarity to be its own (else all are counted)."""
FIT_BOX_MM = 26.0
"""Width of the boxes the matrix's grid is fitted with: a piece's side less its jitter about its cell."""
BACK_MM = 20.0
"""Side of the middle of a piece's back that is matched."""
BACK_SLACK_MM = 4
BACK_TEMPLATE = "back"
"""Name of the taught back in Profile.templates (the others are "<value>-<horn>" faces)."""
TEACH_KEEP = 24
"""Taught prototypes kept per label (the most recent)."""
TEACH_LIGHTS = 8
"""Made-up lights each taught shot is also seen under."""
TEACH_PROTOTYPES = 6
"""Prototypes one taught shot adds per label."""


FloatArray = numpy.typing.NDArray[numpy.float32]
GreyImage = numpy.typing.NDArray[numpy.uint8]


class MinotaurusVisionError(VisionError):
    """Options or labels the Minotaurus recogniser cannot use."""


def piece_label(colour: str, value: int, horn: str) -> str:
    return f"{colour}-{value}-{horn}"


def parse_piece(label: str) -> tuple[str, int, str]:
    """("blue", 3, "left") from "blue-3-left"."""
    colour, _, rest = label.partition("-")
    value, _, horn = rest.partition("-")
    if not colour or not value.isdigit() or horn not in HORNS:
        raise MinotaurusVisionError(f"{label!r} is not a face-up piece label like 'blue-3-left'")
    return colour, int(value), horn


def setup_for(cells: int) -> dict[str, Any]:
    """The setup (values in play, rows, columns) whose matrix has this many cells."""
    for setup in SETUPS.values():
        if setup["rows"] * setup["columns"] == cells:
            return setup
    raise MinotaurusVisionError(f"no Minotaurus setup has a matrix of {cells} cells")


def matrix_layout(options: Mapping[str, Any]) -> Layout:
    players = options.get("players", max(SETUPS))
    if players not in SETUPS:
        raise MinotaurusVisionError(f"players must be one of {sorted(SETUPS)}, not {players!r}")
    rows, columns = SETUPS[players]["rows"], SETUPS[players]["columns"]
    items = {
        f"cell:{row * columns + column}": ItemRegion(
            (MARGIN_MM + (column + 0.5) * PITCH_MM, MARGIN_MM + (row + 0.5) * PITCH_MM), (TILE_MM, TILE_MM)
        )
        for row in range(rows)
        for column in range(columns)
    }
    return Layout((2 * MARGIN_MM + columns * PITCH_MM, 2 * MARGIN_MM + rows * PITCH_MM), items)


# ---------------------------------------------------------------- colour of each cell


@functools.cache
def _offsets(half: int, reach: int, ring: int) -> tuple[numpy.typing.NDArray[numpy.intp], ...]:
    """Pixel offsets (dy, dx) of a cell's middle square and of the strip along its edge, every other
    pixel of each (a checkerboard): their medians hardly change, and take half the time to sort."""
    span = numpy.arange(-half, half)
    middle_y, middle_x = (a.ravel() for a in numpy.meshgrid(span, span, indexing="ij"))
    edge = numpy.arange(-reach, reach)
    grid_y, grid_x = (a.ravel() for a in numpy.meshgrid(edge, edge, indexing="ij"))
    outer = numpy.maximum(numpy.abs(grid_y + 0.5), numpy.abs(grid_x + 0.5)) > reach - ring
    outer &= (grid_y + grid_x) % 2 == 0
    every_other = (middle_y + middle_x) % 2 == 0
    return middle_y[every_other], middle_x[every_other], grid_y[outer], grid_x[outer]


def cell_features(
    plane: Frame, layout: Layout, back: GreyImage | None = None
) -> tuple[list[str], numpy.typing.NDArray[numpy.float32]]:
    """Per cell: the middle's Lab and its difference from the table's, both scaled to the table's brightness,
    how much the middle's brightness varies (its pattern), and how well it matches a piece's back."""
    cells = _cell_colours(plane, layout, back)
    return cells.ids, cells.features


@dataclasses.dataclass(frozen=True)
class Cells:
    """What _cell_colours finds, at COARSE_PX_PER_MM."""

    ids: list[str]
    features: FloatArray
    small: Frame
    """The plane at COARSE_PX_PER_MM."""
    tables: FloatArray
    """Each cell's table colour (BGR) around it."""
    centres: numpy.typing.NDArray[numpy.float64]
    """Each cell's centre (x, y) in small-plane pixels: where the matrix really lies (see cell_centres)."""
    covered: FloatArray | None
    """On a normalised plane, the share of each cell's middle that is no table (None on other planes)."""
    polarity: FloatArray
    """Per cell, which way its middle's minority tone lies from its median: towards the light (a back's
    emblem, +1) or the dark (a face's ink, -1); see ink_polarity."""
    variation: FloatArray | None
    """On a normalised plane, per cell, the largest standard deviation of its middle's three channels:
    how much mark it shows, in shade or in colour alone (None on other planes; see FLAT_VARIATION). Where
    that is plainly no flat cell (its grey varies as much) or plainly bare table (EMPTY_COVER), its grey's
    standard deviation instead: never above the largest channel's, and enough to tell."""
    lit: FloatArray | None = None
    """On a normalised plane, per cell, the share of its middle's piece pixels lighter than the neutral grey
    by more than LIT_LEVEL (None on other planes; see DARK_WHITE_LIT)."""


def cell_centres(
    small: Frame, layout: Layout, ids: list[str], normalised: bool
) -> numpy.typing.NDArray[numpy.float64]:
    """The cells' centres in the small plane: the layout's, or on a normalised plane those of the grid
    its pieces show (the marker sheets may lie by their cut edge, stretching the matrix in the plane)."""
    nominal = numpy.array([layout.items[item].centre_mm for item in ids], numpy.float64) * COARSE_PX_PER_MM
    if not normalised:
        return nominal
    columns, column_of = numpy.unique(nominal[:, 0], return_inverse=True)
    rows, row_of = numpy.unique(nominal[:, 1], return_inverse=True)
    mask = foreground(small, NEUTRAL_BGR)
    fitted_columns, fitted_rows = fit_grid(mask, columns, rows, FIT_BOX_MM / 2 * COARSE_PX_PER_MM)
    return numpy.stack([fitted_columns[column_of], fitted_rows[row_of]], axis=1)


def _cell_colours(
    plane: Frame,
    layout: Layout,
    back: GreyImage | None = None,
    small: Frame | None = None,
    normalised: bool | None = None,
) -> Cells:
    """The cells' features, read at COARSE_PX_PER_MM: that averages sensor noise away, and leaves a
    quarter of the pixels to sort. `normalised`: whether `small` is (is_normalised), when known."""
    ids = list(layout.items)
    small = _small(plane) if small is None else small
    scale = COARSE_PX_PER_MM
    middle_y, middle_x, edge_y, edge_x = _offsets(
        round(MIDDLE_MM * scale / 2), round(PITCH_MM * scale / 2), max(1, round(RING_MM * scale))
    )
    normalised = is_normalised(small) if normalised is None else normalised
    centres = cell_centres(small, layout, ids, normalised)
    cx, cy = numpy.round(centres[:, 0]).astype(numpy.intp), numpy.round(centres[:, 1]).astype(numpy.intp)
    height, width = small.shape[:2]

    def gather(dy: numpy.typing.NDArray[numpy.intp], dx: numpy.typing.NDArray[numpy.intp]) -> Frame:
        ys = numpy.clip(cy[:, None] + dy[None, :], 0, height - 1)
        xs = numpy.clip(cx[:, None] + dx[None, :], 0, width - 1)
        return numpy.asarray(small[ys, xs], dtype=numpy.uint8)

    middle_pixels = gather(middle_y, middle_x)
    middles = numpy.median(middle_pixels, axis=1).astype(numpy.float32)
    if normalised:
        # The table is neutral by construction; around a cell crowded by its neighbours' pieces the
        # strip would show them instead.
        tables = numpy.tile(numpy.array(NEUTRAL_BGR, numpy.float32), (len(ids), 1))
    else:
        tables = numpy.median(gather(edge_y, edge_x), axis=1).astype(numpy.float32)
    gain = 128.0 / numpy.maximum(tables.mean(axis=1, keepdims=True), 8.0)
    # A piece has a pattern (the back's ring, the front's glyph); bare table hardly any.
    grey = middle_pixels.mean(axis=2)
    texture = grey.std(axis=1, keepdims=True) * gain
    marks = (grey * gain > (numpy.median(grey, axis=1, keepdims=True) * gain + LIGHT_MARK)).mean(
        axis=1, keepdims=True
    )
    both = numpy.clip(numpy.concatenate([middles * gain, tables * gain]), 0, 255).astype(numpy.uint8)
    lab = cv2.cvtColor(both[:, None, :], cv2.COLOR_BGR2LAB)[:, 0, :].astype(numpy.float32)
    body, table = lab[: len(ids)], lab[len(ids) :]
    covered = variation = lit = None
    piece = numpy.ones(grey.shape, numpy.bool_)
    if normalised:
        away = numpy.abs(middle_pixels.astype(numpy.int16) - numpy.array(NEUTRAL_BGR, numpy.int16)).max(
            axis=2
        )
        piece = away > FOREGROUND_LEVEL
        covered = piece.mean(axis=1).astype(numpy.float32)
        variation = _variation(middle_pixels, grey, covered)
        lighter = (grey > numpy.mean(NEUTRAL_BGR) + LIT_LEVEL) & piece
        lit = (lighter.sum(axis=1) / numpy.maximum(piece.sum(axis=1), 1)).astype(numpy.float32)
    polarity = ink_polarity(grey, piece)
    matched = None
    if covered is not None:
        # On a normalised plane the back's likeness is wanted only where the prototypes may decide: not
        # in a cell read empty for its bare middle, nor where the marks' polarity already tells a back
        # (a face's may yet show no horn: a back whose dark body the reference took for a dark table).
        matched = (covered >= EMPTY_COVER) & (polarity < BACK_POLARITY)
    backs = _back_likeness(small, cx, cy, default_back() if back is None else back, matched)
    features = numpy.concatenate([body, body - table, texture, backs, marks], axis=1) * numpy.array(
        FEATURE_WEIGHTS, numpy.float32
    )
    return Cells(
        ids, features.astype(numpy.float32), small, tables, centres, covered, polarity, variation, lit
    )


def _variation(middle_pixels: Frame, grey: FloatArray, covered: FloatArray) -> FloatArray:
    """Cells.variation: the middles' grey's standard deviation, and the largest channel's where that is
    below FLAT_VARIATION in a cell mostly covered (few cells: the three channels' cost 0.4 ms a frame)."""
    variation = numpy.asarray(grey.std(axis=1), numpy.float32)
    unsure = numpy.flatnonzero((variation < FLAT_VARIATION) & (covered >= EMPTY_COVER))
    if unsure.size:
        variation[unsure] = middle_pixels[unsure].std(axis=1).max(axis=1)
    return variation


def ink_polarity(grey: FloatArray, piece: numpy.typing.NDArray[numpy.bool_]) -> FloatArray:
    """Per row of grey levels (only those marked `piece` counted), (light tail - dark tail) / both, the
    tails being the 95th and 5th percentiles' distances from the median. A face's ink is darker than the
    face and a back's emblem lighter than the back in every edition, whatever their colours: a coloured
    back and a face of that colour differ this way when their colours do not."""
    counted = numpy.where(piece, grey, numpy.inf)
    counted.sort(axis=1)
    count = piece.sum(axis=1)
    # A middle with hardly any piece (an empty cell): every pixel, so the figure stays defined.
    few = count < POLARITY_MIN_PIXELS
    counted[few] = numpy.sort(grey[few], axis=1)
    count = numpy.where(few, grey.shape[1], count)
    rows = numpy.arange(len(grey))
    dark, middle, light = (counted[rows, ((count - 1) * q).astype(numpy.intp)] for q in (0.05, 0.5, 0.95))
    return numpy.asarray(((light - middle) - (middle - dark)) / (light - dark + 1e-3), numpy.float32)


def _back_likeness(
    small: Frame,
    cx: numpy.typing.NDArray[numpy.intp],
    cy: numpy.typing.NDArray[numpy.intp],
    back: GreyImage,
    matched: numpy.typing.NDArray[numpy.bool_] | None = None,
) -> FloatArray:
    """Per cell, how well the middle matches a piece's back (normalised cross-correlation, best within a few
    mm): a pattern's likeness survives glare and shadow, which wash out its colours. Cells not `matched`
    score 0, as a bare table does."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    reach = back.shape[0] // 2 + round(BACK_SLACK_MM * COARSE_PX_PER_MM)
    padded = cv2.copyMakeBorder(grey, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    scores = numpy.empty((len(cx), 1), numpy.float32)
    for n, (x, y) in enumerate(zip(cx.tolist(), cy.tolist(), strict=True)):
        window = padded[y : y + 2 * reach, x : x + 2 * reach]
        if (
            matched is not None and not matched[n]
        ) or window.min() == window.max():  # flat (a normalised plane's bare table): nothing to match
            scores[n, 0] = 0.0
            continue
        scores[n, 0] = float(cv2.matchTemplate(window, back, cv2.TM_CCOEFF_NORMED).max())
    return scores


FACES_FILE = shipped_path("minotaurus_faces")
"""The built-in edition's faces, straight from above: "back" and "<value>-<horn>" (white), grey PNG."""
FACES_PX_PER_MM = 4.0
"""Resolution of the shipped faces: fine enough to cut every template from."""


@functools.cache
def _shipped_faces() -> dict[str, GreyImage]:
    document = load_shipped(FACES_FILE, GAME, ("faces",), {"px_per_mm": FACES_PX_PER_MM})
    return decoded_templates(document["faces"], FACES_FILE, GAME)


@functools.cache
def default_back() -> GreyImage:
    """The built-in edition's back, grey, at COARSE_PX_PER_MM (shipped in FACES_FILE)."""
    return _back_template(_shipped_faces()[BACK_TEMPLATE], FACES_PX_PER_MM)


def _back_template(face: Frame, px_per_mm: float) -> GreyImage:
    """The middle BACK_MM square of an upright piece's face, grey, at COARSE_PX_PER_MM."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    half = round(BACK_MM * px_per_mm / 2)
    middle = grey.shape[0] // 2
    crop = grey[middle - half : middle + half, middle - half : middle + half]
    side = round(BACK_MM * COARSE_PX_PER_MM)
    return numpy.asarray(cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA), numpy.uint8)


# ---------------------------------------------------------------- glyphs


def face_names() -> list[str]:
    """The built-in faces' names by glyph class: "<value>-<horn>" for every value and horn in play."""
    return [f"{value}-{horn}" for value in SETUPS[max(SETUPS)]["values"] for horn in HORNS]


@functools.cache
def default_faces() -> dict[str, Frame]:
    """The built-in edition's faces by glyph class ("3-left"), grey, at FACES_PX_PER_MM (shipped)."""
    faces = _shipped_faces()
    missing = [name for name in face_names() if name not in faces]
    if missing:
        raise MinotaurusVisionError(
            f"{FACES_FILE} lacks the faces {', '.join(missing)}; write it afresh with {rewrite_command(GAME)}"
        )
    return {name: faces[name] for name in face_names()}


@dataclasses.dataclass(frozen=True)
class Glyphs:
    """Templates of the horn's side (upper part of a face) and of the value (its lower part)."""

    horns: GlyphTemplates
    values: tuple[GlyphTemplates, ...]
    """One set per look (the built-in one, a taught one that shows every value): a value is read by
    the look that fits the piece best, so that one look's style (ring pips) does not draw a piece to
    whichever values it has over the other look's."""
    blurred_values: tuple[GlyphTemplates, ...]


def profile_back(profile: Profile | None) -> GreyImage:
    """The back template: the user's (taught) or the built-in one."""
    if profile is None or BACK_TEMPLATE not in profile.templates:
        return default_back()
    return _back_template(decode_template(profile.templates[BACK_TEMPLATE]), PLANE_PX_PER_MM)


GLYPH_SEEN = 9.0
"""Least standard deviation (grey levels) of a taught face's glyph box for the glyph to be learned from it:
a glyph the camera shows scores 11 and more (a single pip), a flat face about 5 (its noise)."""


def _add_clearest(
    templates: dict[str, list[GreyImage]],
    name: str,
    faces: list[tuple[Frame, float]],
    box_mm: tuple[float, float, float, float],
) -> None:
    """The box of whichever face shows it clearest, turned each of TURNS_DEG, if it shows at all."""
    crops = [glyph_crop(face, scale, 0.0, box_mm) for face, scale in faces]
    if not crops:
        return
    best = max(range(len(crops)), key=lambda n: float(crops[n].std()))
    if float(crops[best].std()) < GLYPH_SEEN:
        return
    face, scale = faces[best]
    templates.setdefault(name, []).extend(glyph_crop(face, scale, turn, box_mm) for turn in TURNS_DEG)


def _templates(profile: Profile | None) -> Glyphs:
    """Each value's and each horn's templates: the built-in face's, and the user's taught one beside it (a
    taught shot is one look, maybe askew or crowded; the built-in glyphs still fit many editions)."""
    sources: list[dict[str, tuple[Frame, float]]] = [
        {name: (face, FACES_PX_PER_MM) for name, face in default_faces().items()}
    ]
    if profile is not None:
        taught = {
            name: (decode_template(text), PLANE_PX_PER_MM)
            for name, text in profile.templates.items()
            if name != BACK_TEMPLATE
        }
        sources.append(taught)
    horns: dict[str, list[GreyImage]] = {}
    looks: list[GlyphTemplates] = []
    # Each value from one face of each source and each horn likewise: the lower part is the same whatever
    # the horn, the upper part whatever the value (and fewer templates match faster). A taught glyph the
    # shot hardly shows (dark ink on a dark face, beyond what the camera resolves) is a flat patch that
    # would match any such face best: the clearest face of each is taken, and none that is too faint.
    needed = {str(value) for value in SETUPS[max(SETUPS)]["values"]}
    for faces in sources:
        values: dict[str, list[GreyImage]] = {}
        for value in sorted({name.partition("-")[0] for name in faces}):
            named = [faces[n] for n in sorted(faces) if n.startswith(f"{value}-")]
            _add_clearest(values, value, named, VALUE_BOX_MM)
        if needed <= set(values):
            looks.append(GlyphTemplates.of(values))
        for horn in HORNS:
            _add_clearest(
                horns, horn, [faces[n] for n in sorted(faces) if n.endswith(f"-{horn}")], HORN_BOX_MM
            )
    return Glyphs(GlyphTemplates.of(horns), tuple(looks), tuple(look.blurred() for look in looks))


def locate_piece(
    small: Frame, centre_px: tuple[float, float] | numpy.typing.NDArray[numpy.float64], table_bgr: FloatArray
) -> tuple[float, float]:
    """Where the piece near a cell's centre really lies (small plane pixels): the centroid of the
    patch unlike the table that covers the cell's middle. Falls back on the cell's centre."""
    cx, cy = round(centre_px[0]), round(centre_px[1])
    reach = round((TILE_MM / 2 + SLACK_MM) * COARSE_PX_PER_MM)
    y0, x0 = max(0, cy - reach), max(0, cx - reach)
    window = small[y0 : cy + reach, x0 : cx + reach].astype(numpy.float32)
    unlike = numpy.abs(window - table_bgr).sum(axis=2) > max(30.0, 0.3 * float(table_bgr.mean()))
    count, components, _stats, centroids = cv2.connectedComponentsWithStats(
        unlike.astype(numpy.uint8), connectivity=4
    )
    middle = components[cy - y0 - 3 : cy - y0 + 3, cx - x0 - 3 : cx - x0 + 3].ravel()
    middle = middle[middle > 0]
    if count < 2 or middle.size == 0:
        return float(cx), float(cy)
    chosen = int(numpy.bincount(middle).argmax())
    return float(centroids[chosen][0] + x0), float(centroids[chosen][1] + y0)


NORMALISED_SHARE = 0.2
"""A plane whose (small) pixels are exactly NEUTRAL_BGR over this share of it is normalised: the margins
and the empty cells alone are more than that, and a camera's plane is never one flat grey."""


def is_normalised(small: Frame) -> bool:
    """Whether the plane (at COARSE_PX_PER_MM) was normalised against a reference of the empty area: its
    table is then one neutral grey whatever the cloth, and read with prototypes learned so."""
    neutral = cv2.inRange(small, NEUTRAL_BGR, NEUTRAL_BGR)
    return cv2.countNonZero(neutral) > NORMALISED_SHARE * neutral.size


def colour_class(label: str) -> str:
    """What a cell's colour tells of its label: "empty", "down", or a face-up piece's colour."""
    return label if label in ("empty", "down") else parse_piece(label)[0]


# ---------------------------------------------------------------- the recogniser


class MinotaurusRecogniser:
    game = GAME

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return matrix_layout(options)

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        small = _small(plane)
        normalised = is_normalised(small)
        prototypes, glyphs, back = self._prepare(profile, normalised)
        cells = _cell_colours(plane, layout, back, small, normalised)
        ids, features, tables = cells.ids, cells.features, cells.tables
        classes, confidences = prototypes.classify(features)
        empty = None
        taken: list[int] = []
        if cells.covered is not None:
            # On a normalised plane a piece is what differs from the table: a cell whose middle is mostly
            # the neutral grey is empty, one mostly covered holds a piece, whatever prototype lies nearest.
            empty = cells.covered < EMPTY_COVER
            taken = _faces_taken_for_table(plane, cells, empty, glyphs)
            empty[taken] = False
            covered = [n for n, label in enumerate(classes) if label == "empty" and not empty[n]]
            if covered:
                pieces, sure = prototypes.classify(features[covered], barred="empty")
                for n, label, certainty in zip(covered, pieces, sure, strict=True):
                    classes[n], confidences[n] = label, certainty
            for n in numpy.flatnonzero(empty).tolist():
                classes[n] = "empty"
                confidences[n] = float(min(1.0, 1.0 - cells.covered[n]))
        # Which way the piece's marks lie from it tells a back from a face better than its colour does
        # (a dark blue back, a dark blue face); only where that is unclear do the prototypes decide. A cell
        # that plainly shows the back's pattern is a back whatever its polarity (BACK_CLEAR).
        backs = features[:, 7] / FEATURE_WEIGHTS[7]
        faces = [
            n
            for n, label in enumerate(classes)
            if label == "down"
            and cells.polarity[n] <= FACE_POLARITY
            and (empty is None or not empty[n])
            and backs[n] < BACK_CLEAR
        ]
        if empty is not None:
            faces += _clear_horns(plane, cells, classes, empty, glyphs)
            faces += [n for n in taken if classes[n] == "down" and n not in faces]
        if faces:
            pieces, sure = prototypes.classify(features[faces], barred=("empty", "down"))
            for n, label, certainty in zip(faces, pieces, sure, strict=True):
                classes[n], confidences[n] = label, certainty
        # (A face taken mostly for the table keeps its ink and a rim of face: their polarity tells nothing.)
        classes = [
            "down"
            if label not in ("empty", "down") and polarity >= BACK_POLARITY and n not in taken
            else label
            for n, (label, polarity) in enumerate(zip(classes, cells.polarity.tolist(), strict=True))
        ]
        up = [n for n, label in enumerate(classes) if label not in ("empty", "down")]
        if up:
            # A face's colour is its hue: its pattern (how dark its ink, how much of its middle) and its
            # lightness are the edition's and the light's, and would pull a pale green face to the white.
            hues, sure = prototypes.colours.classify(features[up][:, COLOUR_FEATURES])
            for n, label, certainty in zip(up, hues, sure, strict=True):
                classes[n], confidences[n] = label, min(confidences[n], certainty)
            if cells.covered is not None and "white" in hues:
                _pale_faces_not_white(features, up, classes, confidences, prototypes, profile)
                _dark_faces_not_white(plane, cells, classes, confidences, prototypes, glyphs, profile, taken)
        if cells.variation is not None:
            _flat_cells_empty(cells.variation, classes, confidences)
        items = dict(zip(ids, classes, strict=True))
        confidence = dict(zip(ids, confidences, strict=True))
        face_up = [item for item in ids if items[item] not in ("empty", "down")]
        if face_up:
            templates = glyphs
            values = setup_for(len(ids))["values"]
            for item in face_up:
                n = ids.index(item)
                x, y = cells.centres[n] if n in taken else locate_piece(small, cells.centres[n], tables[n])
                grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM), n in taken)
                # The horn, unlike the row of pips, looks like itself only where it is: it finds the piece.
                horn, horn_sure, at, likeness = best_match(
                    grey, near, HORN_BOX_MM, templates.horns, list(HORNS), HORN_SLACK_PX
                )
                if likeness < HORN_SEEN and cells.covered is not None:
                    # No horn where a face would show one: the table showing through a normalisation
                    # that missed it (a glare, a shadow), or a back; whichever of those is nearer.
                    kinds, sures = prototypes.classify(features[[n]], barred=COLOURS)
                    items[item], confidence[item] = kinds[0], sures[0]
                    continue
                value, value_sure, _, _ = max(
                    (
                        best_match(
                            grey,
                            at,
                            VALUE_BOX_MM,
                            look,
                            [str(v) for v in values],
                            VALUE_SLACK_PX,
                            blurred=blurred,
                        )
                        for look, blurred in zip(templates.values, templates.blurred_values, strict=True)
                    ),
                    key=lambda match: match[3],
                )
                items[item] = f"{items[item]}-{value}-{horn}"
                confidence[item] = min(confidence[item], horn_sure, value_sure)
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn from a shot with known cells: each label's colour prototypes (from the shot under a few
        made-up lights too, so that one shot stands for the table at other hours), and for face-up pieces
        their glyph's template. A taught label's prototypes are read beside the built-in ones."""
        unknown = sorted(set(labels) - set(layout.items))
        if unknown:
            raise MinotaurusVisionError(f"no such cells in this layout: {', '.join(unknown)}")
        for label in labels.values():
            if label not in ("empty", "down"):
                parse_piece(label)
        templates = dict(profile.templates)
        found = _cell_colours(plane, layout)

        normalised = is_normalised(found.small)

        def face(item: str) -> str:
            """The piece's face as a template, cut about the piece's own outline where the table about it is
            neutral (a normalised plane), else about its cell's centre (on a cloth, beside its neighbours,
            its outline merges with theirs)."""
            n = found.ids.index(item)
            x, y = (float(v) for v in found.centres[n])
            if normalised:
                x, y = locate_piece(found.small, found.centres[n], found.tables[n])
            to_plane = PLANE_PX_PER_MM / COARSE_PX_PER_MM
            horn = None if labels[item] == "down" else parse_piece(labels[item])[2]
            return encode_template(_upright_face(plane, (x * to_plane, y * to_plane), horn))

        down = sorted(item for item, label in labels.items() if label == "down")
        if down:  # the user's back, as the pattern every face-down piece is compared with
            templates[BACK_TEMPLATE] = face(down[0])
        back = profile_back(dataclasses.replace(profile, templates=templates))
        rng = numpy.random.default_rng(profile.shots)
        # On a normalised plane the light is already corrected and the table stays neutral whatever the
        # hour: only the pieces vary (what the correction leaves).
        table = neutral_pixels(plane) if normalised else None
        shots = [plane] + [under_made_up_light(plane, rng, table) for _ in range(TEACH_LIGHTS)]
        samples: dict[str, list[FloatArray]] = {}
        for shot in shots:
            ids, features = cell_features(shot, layout, back)
            for item, row in zip(ids, features, strict=True):
                if item in labels:
                    samples.setdefault(colour_class(labels[item]), []).append(row)
        taught: dict[str, list[list[float]]] = {
            k: [list(v) for v in rows] for k, rows in profile.params.get("cell_prototypes", {}).items()
        }
        for label, learned in cluster_prototypes(samples, TEACH_PROTOTYPES).items():
            taught[label] = [*taught.get(label, []), *learned][-TEACH_KEEP:]
        for item, label in labels.items():
            if label not in ("empty", "down"):
                _, value, horn = parse_piece(label)
                templates[f"{value}-{horn}"] = face(item)
        params = {**profile.params, "cell_prototypes": taught}
        return dataclasses.replace(profile, params=params, templates=templates, shots=profile.shots + 1)

    def __init__(self) -> None:
        # A watcher reads frame after frame with the same profile: prepare it once.
        self._prepared_for: tuple[Profile | None, bool] | None = None
        self._prepared: tuple[Prototypes, Glyphs, GreyImage] | None = None

    def _prepare(self, profile: Profile | None, normalised: bool) -> tuple[Prototypes, Glyphs, GreyImage]:
        """Prototypes (built-in ones for this kind of plane, the taught ones beside them), glyph templates
        and the back to compare with."""
        prepared_for = self._prepared_for
        if (
            self._prepared is None
            or prepared_for is None
            or prepared_for[0] is not profile
            or prepared_for[1] != normalised
        ):
            table = dict(normalised_prototypes() if normalised else default_prototypes())
            if profile is not None:
                # Beside the built-in look, not over it: one shot is one light, and the built-in
                # prototypes still stand for the piece under others (the nearest wins either way).
                for label, rows in profile.params.get("cell_prototypes", {}).items():
                    table[label] = [*table.get(label, []), *rows]
            self._prepared = (Prototypes.of(table), _templates(profile), profile_back(profile))
            self._prepared_for = (profile, normalised)
        return self._prepared


def _clear_horns(
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
        if likeness >= HORN_CLEAR:
            found.append(n)
    return found


def _faces_taken_for_table(
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


def _flat_cells_empty(variation: FloatArray, classes: list[str], confidences: list[float]) -> None:
    """On a normalised plane, a cell read as a piece whose middle shows no mark (FLAT_VARIATION) is read
    empty, in place: it is the table the normalisation left, whatever its shade."""
    for n in numpy.flatnonzero(variation < FLAT_VARIATION).tolist():
        if classes[n] != "empty":
            classes[n], confidences[n] = "empty", 1.0 - 0.5 * float(variation[n]) / FLAT_VARIATION


def _pale_faces_not_white(
    features: FloatArray,
    up: list[int],
    classes: list[str],
    confidences: list[float],
    prototypes: Prototypes,
    profile: Profile | None,
) -> None:
    """On a normalised plane, a face read white but too coloured for white (_minotaurus_white) is read by
    its hue among the other colours, in place."""
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
        for n, label, certainty in zip(pale, hues, sure, strict=True):
            classes[n], confidences[n] = label, min(confidences[n], certainty)


def _dark_faces_not_white(
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
    (DARK_WHITE_LIT) is a back whose dark body the reference took for a dark table, its lighter emblem
    and a dark rim left (pale on the neutral grey, so nearest a white prototype), unless it shows a clear
    horn and a clear row of pips as only a face does. (A taught white as dark is left alone.)"""
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
    backs = [n for n in whites if n not in dark and cells.lit[n] < DARK_WHITE_LIT]
    backs = [n for n in backs if not _clear_face(plane, cells, n, glyphs)]
    if backs:
        # Mostly covered (EMPTY_COVER), it holds a piece: its back, as sure as it lies nearer a back than
        # the table (its middle half neutral grey).
        kinds, sure = prototypes.classify(cells.features[backs], barred=COLOURS)
        for n, label, certainty in zip(backs, kinds, sure, strict=True):
            classes[n], confidences[n] = "down", certainty if label == "down" else 1.0 - certainty


def _clear_face(plane: Frame, cells: Cells, n: int, glyphs: Glyphs) -> bool:
    """Whether cell n shows a horn as clearly as only a face does and a row of pips where it puts it."""
    x, y = locate_piece(cells.small, cells.centres[n], cells.tables[n])
    grey, near = glyph_window(plane, (x / COARSE_PX_PER_MM, y / COARSE_PX_PER_MM))
    _, _, at, horn = best_match(grey, near, HORN_BOX_MM, glyphs.horns, list(HORNS), HORN_SLACK_PX)
    if horn < HORN_CLEAR:
        return False
    pips = max(
        best_match(grey, at, VALUE_BOX_MM, look, list(look.names), VALUE_SLACK_PX, blurred=blurred)[3]
        for look, blurred in zip(glyphs.values, glyphs.blurred_values, strict=True)
    )
    return pips >= PIPS_CLEAR


def _small(plane: Frame) -> Frame:
    """The plane at COARSE_PX_PER_MM."""
    return resized(plane, COARSE_PX_PER_MM)


def _upright_face(
    plane: Frame, centre_px: tuple[float, float], horn: str | None = None
) -> numpy.typing.NDArray[numpy.uint8]:
    """The square about a taught piece's centre, grey, at plane resolution: a face (`horn` given) turned
    upright and centred by that horn (a lesson's piece lies as a hand left it), a back as it lies (its
    emblem is matched turned anyway)."""
    side = round(TILE_MM * PLANE_PX_PER_MM)
    return upright_face(plane, centre_px, side, None if horn is None else _built_in_horn(horn))


@functools.cache
def _built_in_horn(horn: str) -> GreyImage:
    """The built-in face's horn on that side, upright, at GLYPH_PX_PER_MM."""
    face = default_faces()[next(name for name in face_names() if name.endswith(f"-{horn}"))]
    return glyph_crop(face, FACES_PX_PER_MM, 0.0, HORN_BOX_MM)


register_recogniser(GAME, MinotaurusRecogniser)
