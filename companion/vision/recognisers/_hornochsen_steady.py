"""Tanz der Hornochsen: a doubtful two-digit reading held against the tile's own glyphs cut again.

A camera shows a tile's digits 11 mm tall at 1 mm a pixel or coarser, blurred into blobs: which digit a
blob is rests on a pixel or two of its hole or its stroke's end, and where its box is cut (ink over half
the tile's darkest) and how the warp's pixel grid falls on it move those pixels as much as a digit's
stroke does. Read once, a blurred 0 of an 80 lost to a 9 or a 6, an 8 of a 48 to a 4, by margins of
0.01-0.2 (dev seeds 7, 9, 31, 47: 17 of the 18 misread among 3,480 two-digit faces under 0.35). Such a
tile's glyphs are cut again from the same straightened tile, with the ink's cut a little lower and higher,
its ink half a pixel off each way and a twentieth larger and smaller, and each number's likelihood summed
over the cuts: the number that holds across them is read, not the one a single cut's pixel grid favoured.
The classifier reads every cut as it was learned to read a glyph; nothing of the game is guessed.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.games.hornochsen.board import BOARD
from companion.vision.recognisers._hornochsen_digits import (
    ALTERNATIVES,
    NATS_AS_SCORE,
    DigitTemplates,
    number_fit,
)
from companion.vision.recognisers._hornochsen_glyphs import Glyph, cut_lines, ink_image, shapes_of
from companion.vision.recognisers._lab import FloatArray

STEADY_MARGIN = 0.15
"""A two-digit reading surer than this (its score's margin over the next number) stands as read once: on
the dev and burnt sets above, 0.15 and 0.2 held the same misreadings (0.5: none more, 2 right readings
lost, ten times the faces looked at); about one face in seventy is looked at again, 0.5 ms each."""
INK_CUTS = (0.4, 0.6)
"""Other shares of the tile's darkest ink its digits' shapes are cut at (tile_glyphs': 0.5)."""
SHIFTS = (0.5, -0.5)
"""Half a pixel (both ways, along and across at once) the straightened tile is moved for a cut."""
SCALES = (0.95, 1.05)
"""The straightened tile scaled about its centre for a cut."""


def steadied(
    straight: FloatArray,
    scored: list[tuple[FloatArray, FloatArray]],
    templates: DigitTemplates,
    least: float,
) -> tuple[int, float, list[tuple[int, float]]] | None:
    """The number of 10-99 likeliest over the tile's glyphs cut afresh (see the module) with the first cut's
    scores (`scored`, of exactly two glyphs), its margin and next likeliest numbers as number_of gives them
    (per cut: the likelihoods' mean); None where no cut finds two glyphs again or the winner's digits fit
    their templates less than `least` in the first cut."""
    classifier = templates.classifier
    cuts = _cuts(straight) if classifier is not None else []
    if classifier is None or not cuts:
        return None
    # The classifier's scores of every cut's glyphs in one product (their correlations with the templates
    # are not needed: the winner's fit is the first cut's).
    glyphs = [glyph for pair in cuts for glyph in pair]
    pixels = numpy.array([glyph.pixels for glyph in glyphs]).T
    pixels = pixels - pixels.sum(axis=0) / pixels.shape[0]
    norms = numpy.sqrt(numpy.einsum("ij,ij->j", pixels, pixels))
    pixels = numpy.ascontiguousarray(pixels / numpy.where(norms > 0, norms, 1), numpy.float32)
    aspects = numpy.array([glyph.aspect for glyph in glyphs], numpy.float32)
    # (OpenCV's product on this thread, as DigitTemplates.all_scores takes it: not BLAS's threads.)
    products = numpy.asarray(cv2.gemm(classifier._pixel_weights, pixels, 1.0, None, 0.0), numpy.float32)  # type: ignore[call-overload]
    scores = NATS_AS_SCORE * classifier.of_products(products, aspects)
    # A number's score is its two digits' (number_of's sum): summed over the cuts, each digit's sums.
    (_, first), (_, second) = scored
    first = (first + scores[:, 0::2].sum(axis=1)) / (1 + len(cuts))
    second = (second + scores[:, 1::2].sum(axis=1)) / (1 + len(cuts))
    totals = numpy.asarray((first[1:, None] + second[None, :]).ravel(), numpy.float32)
    order = totals.argsort()[::-1]
    number = 10 + int(order[0])
    if number > BOARD.tiles or number_fit(scored, number) < least:
        return None
    shortfalls = (totals[order[0]] - totals[order[1 : ALTERNATIVES + 1]]).tolist()
    alternatives = [
        (10 + int(n), shortfall)
        for n, shortfall in zip(order[1 : ALTERNATIVES + 1].tolist(), shortfalls, strict=True)
        if 10 + int(n) <= BOARD.tiles
    ]
    return number, shortfalls[0], alternatives


def _cuts(straight: FloatArray) -> list[list[Glyph]]:
    """The tile's glyphs (unnormalised) cut at each of INK_CUTS, and at tile_glyphs' cut on its ink moved by
    SHIFTS and scaled by SCALES (the ink's levels as the tile's: half a pixel moves them little): those of
    two glyphs only."""
    inkness = ink_image(straight)
    if inkness is None:
        return []
    found = [two_glyphs(inkness, share) for share in INK_CUTS]
    height, width = inkness.shape
    moves: list[numpy.typing.NDArray[numpy.float64]] = [
        numpy.array([[1, 0, shift], [0, 1, shift]], numpy.float64) for shift in SHIFTS
    ]
    moves += [
        numpy.asarray(cv2.getRotationMatrix2D((width / 2, height / 2), 0, scale), numpy.float64)
        for scale in SCALES
    ]
    for move in moves:
        moved = cv2.warpAffine(inkness, move, (width, height), borderMode=cv2.BORDER_REPLICATE)
        found.append(two_glyphs(numpy.asarray(moved, numpy.float32), 0.5))
    return [glyphs for glyphs in found if len(glyphs) == 2]


def two_glyphs(inkness: FloatArray, share: float) -> list[Glyph]:
    """tile_glyphs' glyphs of the ink cut at `share` of its darkest."""
    mask = (inkness > share).astype(numpy.uint8)
    glyphs = shapes_of(inkness, mask, normalise=False)
    return glyphs if len(glyphs) >= 2 else cut_lines(inkness, mask, glyphs, normalise=False)
