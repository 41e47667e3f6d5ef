"""Tanz der Hornochsen: a two-digit face whose fainter digit fell under the ink's cut reads two digits."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.recognisers import _hornochsen_digits as digits
from companion.vision.recognisers import _hornochsen_glyphs, _hornochsen_lost, hornochsen
from companion.vision.recognisers._hornochsen_lost import lost_digit
from companion.vision.recognisers._lab import FloatArray

from .test_hornochsen_digits import _blurred_tile

BLUR = 2.0


def _templates() -> digits.DigitTemplates:
    return digits.DigitTemplates.from_profile(hornochsen.HornochsenRecogniser().default_profile())


def _faded_right(tile: FloatArray, share: float) -> FloatArray:
    """The tile's ink right of its middle kept at `share` of its darkness against the face."""
    face = float(numpy.percentile(tile, 75))
    faded = tile.copy()
    half = tile.shape[1] // 2
    faded[:, half:] = face - (face - tile[:, half:]) * share
    return faded


def _shifted(tile: FloatArray, mm: float) -> FloatArray:
    """The tile moved `mm` to the right (the face's lightness fills in from the left)."""
    step = round(mm * PLANE_PX_PER_MM)
    moved = numpy.full_like(tile, float(numpy.percentile(tile, 75)))
    moved[:, step:] = tile[:, : tile.shape[1] - step]
    return moved


@pytest.mark.parametrize("number", [99, 64, 38])
def test_a_faint_second_digit_lost_to_the_cut_is_found_lower(
    number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    tile = _faded_right(_blurred_tile(number, BLUR), 0.46)
    glyphs = _hornochsen_glyphs.tile_glyphs(tile)
    assert len(glyphs) == 1 and glyphs[0].offset < -_hornochsen_lost.LONE_OFFSET_MM, "one digit, left"
    templates = _templates()
    found = lost_digit(tile, glyphs, templates, 0.65, 0.75)
    assert found is not None and found[0] == number
    monkeypatch.setattr(_hornochsen_lost, "LOST_CUT", 0.5)
    assert lost_digit(tile, glyphs, templates, 0.65, 0.75) is None, "at tile_glyphs' cut: still one"


@pytest.mark.parametrize("number", range(1, 10))
def test_a_lone_digit_stays_one_even_off_the_middle(number: int) -> None:
    templates = _templates()
    for shift in (0.0, 4.0):
        tile = _shifted(_blurred_tile(number, BLUR), shift)
        glyphs = _hornochsen_glyphs.tile_glyphs(tile)
        assert len(glyphs) == 1 and abs(glyphs[0].offset - shift) < 1.0
        assert lost_digit(tile, glyphs, templates, 0.65, 0.75) is None
