"""Minotaurus: what each cell of the matrix shows, as features the prototypes classify (see minotaurus.py).

Apart from minotaurus.py, which had grown past a few screens: the cells' colours, pattern, likeness to a
piece's back and marks' polarity, read on the plane shrunk to COARSE_PX_PER_MM, where the matrix really
lies, and where a piece near a cell's centre lies; with the game's pieces and matrix from its seeds.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.seeddata import load_seed
from companion.vision.base import Frame, Layout
from companion.vision.components import dimension_mm
from companion.vision.recognisers._minotaurus_glyphs import resized
from companion.vision.recognisers._minotaurus_grid import FOREGROUND_LEVEL, fit_grid, foreground
from companion.vision.reference import NEUTRAL_BGR

GAME = "minotaurus"
_SEED = load_seed("minotaurus")
COLOURS: tuple[str, ...] = tuple(c["name"] for c in _SEED["colours"])
HORNS: tuple[str, ...] = tuple(_SEED["horns"]["names"])
SETUPS: dict[int, dict[str, Any]] = {s["players"]: s for s in _SEED["setup"]}

TILE_MM = dimension_mm("minotaurus", "piece")
PITCH_MM = dimension_mm("minotaurus", "pitch")
SLACK_MM = 7
"""How far off the cell's centre (and the plane's warp) a piece is looked for."""
MIDDLE_MM = 20.0
"""Side of the square at a cell's centre whose median colour is the piece's (or the table's)."""
RING_MM = 1.5
"""Width of the strip along the cell's edge that shows the bare table around it."""
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
BACK_POLARITY = 0.12
"""A piece whose ink_polarity is at least this is a back (its marks lighter than it), whatever its colour;
one at most FACE_POLARITY a face (its marks darker); between, its colour and pattern decide. (Generated
hard sessions, every edition: faces up to 0.12 under a glare, backs down to 0.1 where a glare washes their
emblem out, or a dim light leaves the built-in ring faint.)"""
FACE_POLARITY = -0.1
FLAT_VARIATION = 5.0
"""On a normalised plane, a cell whose middle varies less than this (the largest standard deviation of its
three channels) shows no mark at all, so holds no piece: every piece shows one there, a back its emblem,
a face its glyph, in shade or in colour (generated hard sessions: 8.2 and more for a back in a deep
shadow, 7.7 for dark ink on a dark blue face). The table a normalisation left behind (a shadow cast after
the reference was taken, a lamp's hotspot saturating a glossy table) varies 0-4.9, and was read as a
back, dark or light, or a face where a neighbour's edge showed a horn."""
LIT_LEVEL = 10.0
"""Grey levels above the neutral grey that make a piece's pixel lighter than the table (see Cells.lit)."""
POLARITY_MIN_PIXELS = 20
"""Pixels of a piece a cell's middle must show for its polarity to be its own (else all are counted)."""
FIT_BOX_MM = 26.0
"""Width of the boxes the matrix's grid is fitted with: a piece's side less its jitter about its cell."""
BACK_MM = 20.0
"""Side of the middle of a piece's back that is matched."""
BACK_SLACK_MM = 4


FloatArray = numpy.typing.NDArray[numpy.float32]
GreyImage = numpy.typing.NDArray[numpy.uint8]


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


@dataclasses.dataclass(frozen=True)
class Cells:
    """What cell_colours finds, at COARSE_PX_PER_MM."""

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
    grey: GreyImage | None = None
    """The small plane in grey (what the back is matched in)."""


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
    fitted_columns, fitted_rows = fit_grid(
        mask, columns, rows, FIT_BOX_MM / 2 * COARSE_PX_PER_MM, small, TILE_MM / 2 * COARSE_PX_PER_MM
    )
    return numpy.stack([fitted_columns[column_of], fitted_rows[row_of]], axis=1)


def cell_colours(
    plane: Frame,
    layout: Layout,
    back: GreyImage,
    small: Frame | None = None,
    normalised: bool | None = None,
) -> Cells:
    """The cells' features, read at COARSE_PX_PER_MM: that averages sensor noise away, and leaves a
    quarter of the pixels to sort. `normalised`: whether `small` is (is_normalised), when known."""
    ids = list(layout.items)
    small = small_plane(plane) if small is None else small
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
    small_grey = numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), numpy.uint8)
    backs = _back_likeness(small_grey, cx, cy, back, matched)
    features = numpy.concatenate([body, body - table, texture, backs, marks], axis=1) * numpy.array(
        FEATURE_WEIGHTS, numpy.float32
    )
    return Cells(
        ids,
        features.astype(numpy.float32),
        small,
        tables,
        centres,
        covered,
        polarity,
        variation,
        lit,
        small_grey,
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
    score 0, as a bare table does. `small`: the small plane, in colour or grey."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
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


def small_plane(plane: Frame) -> Frame:
    """The plane at COARSE_PX_PER_MM."""
    return resized(plane, COARSE_PX_PER_MM)
