"""Tanz der Hornochsen: two shapes too far apart on a face are no one number's two digits (burnt 20261152:
a felt's fuzz against a 1's face read 71, a cloth's print against a 5's read 65)."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.recognisers import _hornochsen_digits
from companion.vision.recognisers._hornochsen_glyphs import Glyph


def _scored(best: int, fit: float, score: float) -> tuple[numpy.ndarray, numpy.ndarray]:
    correlations = numpy.full(10, 0.3, numpy.float32)
    scores = numpy.zeros(10, numpy.float32)
    correlations[best], scores[best] = fit, score
    return correlations, scores


def _read(speck_offset: float) -> int | None:
    # The speck at the face's left side correlates 0.66 best with a 7; the 1 right of the middle 0.97.
    glyphs = [
        Glyph(numpy.zeros(4, numpy.float32), 0.44, False, speck_offset),
        Glyph(numpy.zeros(4, numpy.float32), 0.72, False, 5.5),
    ]
    scored = [_scored(7, 0.66, 1.8), _scored(1, 0.97, 3.9)]
    return _hornochsen_digits.number_of(glyphs, scored, 0.6)[0]


def test_a_speck_too_far_from_the_digit_is_left_out() -> None:
    assert _read(-8.0) == 1  # 13.5 mm apart
    assert _read(-3.0) == 71  # 8.5 mm apart: a number's two digits


def test_without_the_rule_the_speck_reads_as_a_digit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_hornochsen_digits, "PAIR_APART_MM", 99.0)
    assert _read(-8.0) == 71
