"""Tanz der Hornochsen: a straightened tile's digits, as shapes of ink.

A straightened tile (see _hornochsen_tiles.py, which finds it in its square) has its ink scaled from its
face's lightness to its darkest ink's (ink_image) and split into digit-like shapes (tile_glyphs), two
digits blurred into one shape cut apart; each is scaled to GLYPH_SIZE for _hornochsen_digits.py to tell
which digit it is.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.components import dimension_mm
from companion.vision.recognisers._lab import FloatArray

TILE_MM = dimension_mm("hornochsen", "tile")
"""A tile's side: where its number lies on a straightened tile."""
GLYPH_SIZE = (16, 24)
"""(width, height) a digit is scaled to before it is compared with the templates."""


def ink_image(tile_lightness: FloatArray, whole_levels: bool = False) -> FloatArray | None:
    """0 (face) .. 1 (ink) over a straightened tile, or None when it shows no ink.

    Face and ink levels come from the tile's middle (the number, no edge or board); the
    scale then applies to the whole picture, whatever lies round the tile. `whole_levels`: the tile holds
    whole levels 0-255 only (a warp of a plane's bytes), whose order is counted rather than sorted.
    """
    height, width = tile_lightness.shape
    keep = round((TILE_MM - 4.0) * PLANE_PX_PER_MM) // 2
    middle = tile_lightness[height // 2 - keep : height // 2 + keep, width // 2 - keep : width // 2 + keep]
    ink, face = _order_statistics(middle, (middle.size // 50, middle.size * 3 // 4), whole_levels)
    if face - ink < INK_CONTRAST:
        return None
    inset = round(1.0 * PLANE_PX_PER_MM)
    inner = tile_lightness[inset:-inset, inset:-inset]
    # (numpy.clip's two halves, in place: its dispatch cost more than its work on a tile.)
    scaled = numpy.asarray((face - inner) / (face - ink), dtype=numpy.float32)
    return numpy.minimum(numpy.maximum(scaled, 0.0, out=scaled), 1.0, out=scaled)


INK_CONTRAST = 25.0
"""A tile's middle whose darkest fiftieth is not this much darker than its face (its upper quarter) shows no
ink."""


def _order_statistics(values: FloatArray, ranks: tuple[int, int], whole_levels: bool) -> tuple[float, float]:
    """The values of these ranks (from the least, 0 first) among `values`; of whole levels 0-255
    (`whole_levels`), counted in a histogram: two thirds of numpy.partition's time on a tile's middle."""
    if whole_levels:
        # (The arrays' own methods: numpy's functions of the same name cost a dispatch more a call.)
        counts = numpy.bincount(values.astype(numpy.uint8).ravel(), minlength=256).cumsum()
        low, high = counts.searchsorted(ranks, side="right").tolist()
        return float(low), float(high)
    ordered = numpy.partition(values.ravel(), ranks)
    return float(ordered[ranks[0]]), float(ordered[ranks[1]])


class Glyph(NamedTuple):
    """One digit's shape on a tile."""

    pixels: FloatArray
    """Scaled to GLYPH_SIZE and normalised (mean 0, norm 1)."""
    aspect: float
    """Its box's width/height."""
    joined: bool
    """Cut from a shape of two digits blurred together (see _split_joined)."""
    offset: float = 0.0
    """Its box's middle's distance right of the tile's middle (mm): a lone digit stands there, each of two
    digits 3.5-4.5 mm to its side."""


def tile_glyphs(
    tile_lightness: FloatArray, normalise: bool = True, whole_levels: bool = False
) -> list[Glyph]:
    """The digits on a straightened tile, left to right. `normalise=False`: their pixels left as scaled,
    to be normalised with other tiles' at once (see DigitTemplates.all_scores). `whole_levels`: the tile
    holds whole levels 0-255 only (see ink_image)."""
    inkness = ink_image(tile_lightness, whole_levels)
    if inkness is None:
        return []
    mask = (inkness > 0.5).astype(numpy.uint8)
    glyphs = shapes_of(inkness, mask, normalise)
    if len(glyphs) < 2:
        glyphs = cut_lines(inkness, mask, glyphs, normalise)
    return glyphs


def cut_lines(
    inkness: FloatArray, mask: numpy.typing.NDArray[numpy.uint8], glyphs: list[Glyph], normalise: bool
) -> list[Glyph]:
    """Columns inked over most of the height are a tile's edge or frame line (digits are 11 mm of 30): cut
    away, they no longer join a digit beside them into one shape touching the side. (Only where fewer than
    two glyphs were found: a digit's stem over a shadowed edge below it may be inked as far.) `mask` is cut
    in place."""
    lines = mask.sum(axis=0) > LINE_SHARE * mask.shape[0]
    if lines.any():
        mask[:, lines] = 0
        cut = shapes_of(inkness, mask, normalise)
        return cut if len(cut) > len(glyphs) else glyphs
    return glyphs


def tiles_glyphs(tiles: list[FloatArray]) -> list[list[Glyph]]:
    """tile_glyphs(tile, normalise=False, whole_levels=True) of each of a frame's straightened tiles (the
    same size, whole levels 0-255: normalised_tile's warps), their ink found at once: every tile's middle's
    ink levels from one histogram of them all (each tile's levels offset by 256 times its place) and their
    ink scaled in one pass, instead of a dozen calls a tile. (Their shapes are still labelled tile by tile:
    one labelling of all the tiles stacked cost more than their labellings one by one.)"""
    if not tiles:
        return []
    if len({tile.shape for tile in tiles}) > 1 or len(tiles) > 255:  # (levels offset within 16 bits)
        return [tile_glyphs(tile, normalise=False, whole_levels=True) for tile in tiles]
    stack = numpy.stack(tiles)
    count, height, width = stack.shape
    keep = round((TILE_MM - 4.0) * PLANE_PX_PER_MM) // 2
    middles = stack[:, height // 2 - keep : height // 2 + keep, width // 2 - keep : width // 2 + keep]
    size = middles.shape[1] * middles.shape[2]
    levels = (
        middles.reshape(count, size).astype(numpy.uint16)
        + (256 * numpy.arange(count, dtype=numpy.uint16))[:, None]
    )
    counts = numpy.bincount(levels.ravel(), minlength=256 * count).reshape(count, 256).cumsum(axis=1)
    # The level of each rank: the first whose count of levels at or below it exceeds the rank.
    ink = (counts > size // 50).argmax(axis=1).astype(numpy.float32)
    face = (counts > size * 3 // 4).argmax(axis=1).astype(numpy.float32)
    inked = numpy.flatnonzero(face - ink >= INK_CONTRAST).tolist()
    found: list[list[Glyph]] = [[] for _ in tiles]
    if not inked:
        return found
    inset = round(1.0 * PLANE_PX_PER_MM)
    inner = stack[inked, inset:-inset, inset:-inset]
    shown_face = face[inked][:, None, None]
    # ink_image's scale, every tile at once (the same float32 operations on the same levels).
    inkness = numpy.asarray((shown_face - inner) / (shown_face - ink[inked][:, None, None]), numpy.float32)
    numpy.minimum(numpy.maximum(inkness, 0.0, out=inkness), 1.0, out=inkness)
    masks = (inkness > 0.5).astype(numpy.uint8)
    for place, tile in enumerate(inked):
        glyphs = shapes_of(inkness[place], masks[place], normalise=False)
        if len(glyphs) < 2:
            glyphs = cut_lines(inkness[place], masks[place], glyphs, normalise=False)
        found[tile] = glyphs
    return found


def shapes_of(
    inkness: FloatArray, mask: numpy.typing.NDArray[numpy.uint8], normalise: bool = True
) -> list[Glyph]:
    """The digit-like shapes of the ink mask (see tile_glyphs)."""
    # (BBDT labels a tile's few shapes in half the time of OpenCV's default here; the same shapes.)
    count, _, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_BBDT)
    min_height = 0.5 * 11.0 * PLANE_PX_PER_MM
    tall = numpy.asarray(stats[1:count][stats[1:count, cv2.CC_STAT_HEIGHT] >= min_height], numpy.int32)
    return _shapes_glyphs(inkness, tall, normalise)


def _shapes_glyphs(
    inkness: FloatArray, tall_stats: numpy.typing.NDArray[numpy.int32], normalise: bool = True
) -> list[Glyph]:
    """shapes_of's glyphs: those of the ink's shapes at least half a digit tall (connectedComponentsWithStats'
    rows: x, y, width, height, area)."""
    height, width = inkness.shape
    reach = (TILE_MM / 2 - 3.5) * PLANE_PX_PER_MM
    # A digit is tall, not a sliver, fills a quarter of its box or more (a tile's frame line, or a wisp of
    # its shadow below a digit, does not), stands in the tile's middle and touches no side (the board or a
    # neighbour round it). (Blur and noise leave dozens of specks: the tall shapes are picked out at once,
    # the few left looked at one by one.)
    tall = tall_stats.tolist()
    boxes = sorted(
        [x, y, x + w, y + h]
        for x, y, w, h, area in tall
        if h < 0.8 * height
        and 0.2 * h <= w < 0.8 * width
        and x > 0
        and x + w < width
        and y > 0
        and y + h < height
        and area >= DIGIT_FILL * w * h
        and abs(x + w / 2 - width / 2) < reach
        and abs(y + h / 2 - height / 2) < reach
    )
    merged: list[list[int]] = []
    for box in boxes:  # parts of one digit overlap in x (a broken stroke)
        if merged and box[0] < merged[-1][2] - 2:
            last = merged[-1]
            merged[-1] = [
                min(last[0], box[0]),
                min(last[1], box[1]),
                max(last[2], box[2]),
                max(last[3], box[3]),
            ]
        else:
            merged.append(box)
    split = [
        (part, len(parts) > 1) for box in merged for parts in [_split_joined(inkness, box)] for part in parts
    ]
    glyphs = []
    for (x0, y0, x1, y1), joined in split[:3]:
        patch = inkness[y0:y1, x0:x1]
        glyph = numpy.asarray(cv2.resize(patch, GLYPH_SIZE, interpolation=cv2.INTER_AREA), numpy.float32)
        pixels = normalised(glyph) if normalise else glyph.ravel()
        offset = ((x0 + x1) / 2 - width / 2) / PLANE_PX_PER_MM
        glyphs.append(Glyph(pixels, (x1 - x0) / max(1, y1 - y0), joined, offset))
    return glyphs


LINE_SHARE = 0.6
"""A column of a straightened tile with ink over more than this share of its height is a line, no digit."""
DIGIT_FILL = 0.25
"""Least share of its box a digit's shape fills (blurred digits fill half or more; a wisp of shadow or the
tile's frame line below a digit, which would join it, less)."""
JOINED_ASPECT = 1.15
"""A shape this much wider than tall is two digits blurred together (the widest digit, a 0 or 4, is
about 0.75 as wide as tall)."""


VALLEY_SHARE = 0.7
"""The column cut between two joined digits holds at most this share of the ink of each digit's fullest."""


def _split_joined(inkness: FloatArray, box: list[int]) -> list[list[int]]:
    """Two digits blurred into one shape, cut between the two neighbouring columns of least ink in its middle;
    else the box."""
    x0, y0, x1, y1 = box
    if x1 - x0 < JOINED_ASPECT * (y1 - y0):
        return [box]
    columns = inkness[y0:y1, x0:x1].sum(axis=0)
    quarter = (x1 - x0) // 4
    # The cut falls between the two neighbouring columns of least ink, each digit keeping its own side of
    # the valley: cut at the column of least ink itself, that column went to the right digit, as did the
    # whole bottom of a valley two columns wide (a camera's pixel drawn twice on the plane), and a
    # blurred 6 so widened read 4 (burnt 20261149 gingham, travel: a 66 read 64).
    pairs = columns[quarter - 1 : len(columns) - quarter - 1] + columns[quarter : len(columns) - quarter]
    cut = quarter + int(numpy.argmin(pairs))
    # Two digits leave a valley of less ink between them; a blot (a cow-pat) has none.
    if columns[cut] > VALLEY_SHARE * min(float(columns[:cut].max()), float(columns[cut:].max())):
        return [box]
    return [[x0, y0, x0 + cut, y1], [x0 + cut, y0, x1, y1]]


def normalised(glyph: FloatArray) -> FloatArray:
    flat = glyph.ravel()
    flat = flat - float(numpy.add.reduce(flat)) / flat.size  # numpy's mean() costs more than the sum
    norm = math.sqrt(float(flat @ flat))
    return numpy.asarray(flat / norm if norm > 0 else flat, dtype=numpy.float32)
