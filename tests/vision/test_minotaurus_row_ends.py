"""Two rows of pips matching alike, told apart by the longer one's ends (_minotaurus_pips)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.recognisers import _minotaurus_pips as pips
from companion.vision.recognisers._minotaurus_glyphs import GLYPH_PX_PER_MM, GreyImage
from companion.vision.recognisers.minotaurus import _templates

SUPER = 4
SIDE = 90
CENTRE = (45.0, 45.0)


def faint_rings(value: int, face: int = 60, ink: int = 46, noise: float = 2.0, seed: int = 1) -> GreyImage:
    """A face at glyph resolution with a travel edition's row of `value` ring pips a few levels darker."""
    big = numpy.full((SIDE * SUPER, SIDE * SUPER), face, numpy.uint8)
    scale = GLYPH_PX_PER_MM * SUPER
    for n in range(value):
        x = CENTRE[0] + (n - (value - 1) / 2) * pips.PIP_PITCH_MM * GLYPH_PX_PER_MM
        y = CENTRE[1] + pips.PIP_ROW_MM * GLYPH_PX_PER_MM
        point = (round(x * SUPER), round(y * SUPER))
        cv2.circle(big, point, round(pips.PIP_RADIUS_MM * scale), ink, round(0.8 * scale), cv2.LINE_AA)
    small = cv2.resize(big, (SIDE, SIDE), interpolation=cv2.INTER_AREA).astype(numpy.float32)
    small += numpy.random.default_rng(seed).normal(0.0, noise, small.shape).astype(numpy.float32)
    return numpy.clip(small, 0, 255).astype(numpy.uint8)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_a_faint_row_is_told_from_one_pip_longer_or_shorter_by_its_ends(
    value: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pips, "ROW_TIE", 1.0)  # every pair compared, however far one leads
    blurred = _templates(None).blurred_values[0]
    for other in (value - 1, value + 1):
        if 1 <= other <= 5:
            classes = [str(value), str(other)]
            told = pips.row_ends(faint_rings(value), CENTRE, blurred, classes, (2, 3))
            assert told == str(value), (value, other)


def test_a_row_that_leads_is_left_to_the_match() -> None:
    blurred = _templates(None).blurred_values[0]
    assert pips.row_ends(faint_rings(3, ink=20), CENTRE, blurred, ["2", "3", "4"], (2, 3)) is None


def test_rows_two_pips_apart_are_left_to_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pips, "ROW_TIE", 1.0)
    blurred = _templates(None).blurred_values[0]
    assert pips.row_ends(faint_rings(3), CENTRE, blurred, ["1", "3"], (2, 3)) is None


def test_a_flat_face_tells_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pips, "ROW_TIE", 1.0)
    blurred = _templates(None).blurred_values[0]
    flat = numpy.full((SIDE, SIDE), 60, numpy.uint8)
    assert pips.row_ends(flat, CENTRE, blurred, ["2", "3"], (2, 3)) is None
