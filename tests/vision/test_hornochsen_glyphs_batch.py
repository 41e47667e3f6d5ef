"""Tanz der Hornochsen: a frame's faces' glyphs found at once (tiles_glyphs) are each tile's own."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.recognisers import _hornochsen_glyphs
from companion.vision.recognisers._lab import FloatArray


def _tile(rng: numpy.random.Generator) -> FloatArray:
    """A straightened tile as normalised_tile gives it (64 px, whole levels): a face, a number of one or
    two digits, sometimes a frame line or a neighbour's edge at a side, blurred and noisy; or a blank."""
    face = int(rng.integers(150, 250))
    tile = numpy.full((64, 64), face, numpy.uint8)
    kind = int(rng.integers(0, 5))
    if kind > 0:
        number = str(int(rng.integers(1, 100)))
        ink = int(rng.integers(20, face - 20))
        cv2.putText(tile, number, (14 + 8 * (len(number) == 1), 42), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 3)
    if kind == 2:
        cv2.line(tile, (int(rng.integers(2, 12)), 0), (int(rng.integers(2, 12)), 63), 40, 3)
    if kind == 3:
        tile[: int(rng.integers(2, 10)), :] = 60  # a neighbour's dark edge along the top
    blurred = cv2.GaussianBlur(tile.astype(numpy.float32), (0, 0), float(rng.uniform(0.6, 2.5)))
    noisy = blurred + rng.normal(0, float(rng.uniform(0, 8)), blurred.shape)
    return numpy.asarray(numpy.clip(numpy.rint(noisy), 0, 255), numpy.float32)


def test_a_frames_tiles_glyphs_found_at_once_are_each_tiles_own() -> None:
    """The same glyphs (pixels, aspects, joined), in order, as tile_glyphs of each tile alone: one shape
    labelling of every tile stacked, the ink levels of all in one partition."""
    rng = numpy.random.default_rng(21)
    shown = 0
    for _ in range(20):
        tiles = [_tile(rng) for _ in range(int(rng.integers(1, 30)))]
        together = _hornochsen_glyphs.tiles_glyphs(tiles)
        for tile, glyphs in zip(tiles, together, strict=True):
            alone = _hornochsen_glyphs.tile_glyphs(tile, normalise=False, whole_levels=True)
            assert [(g.aspect, g.joined) for g in glyphs] == [(g.aspect, g.joined) for g in alone]
            assert all(numpy.array_equal(a.pixels, b.pixels) for a, b in zip(glyphs, alone, strict=True))
            shown += len(alone)
    assert shown > 200, "the tiles show digits"
    assert _hornochsen_glyphs.tiles_glyphs([]) == []


def test_the_scores_best_correlations_taken_at_once_are_each_glyphs_own() -> None:
    """all_scores' `fits` are each glyph's best correlation with the templates, as number_of takes it, and
    number_of reads the same number from them."""
    from companion.vision.recognisers import _hornochsen_digits
    from companion.vision.recognisers.hornochsen import HornochsenRecogniser

    recogniser = HornochsenRecogniser()
    templates = recogniser._templates(recogniser._profile(None), keep_classifier=True)
    rng = numpy.random.default_rng(22)
    tiles = [_tile(rng) for _ in range(30)]
    for glyphs in _hornochsen_glyphs.tiles_glyphs(tiles):
        fits: list[float] = []
        scored = templates.all_scores(glyphs, raw=True, fits=fits)
        assert fits == [float(correlations.max()) for correlations, _ in scored]
        assert _hornochsen_digits.number_of(glyphs, scored, fits=fits) == _hornochsen_digits.number_of(
            glyphs, scored
        )
