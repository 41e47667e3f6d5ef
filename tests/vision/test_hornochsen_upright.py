"""A doubted outline's turned and upright windows' numbers told apart (_hornochsen_faces._upright_kept)."""

from __future__ import annotations

import numpy

import companion.vision.recognisers._hornochsen_faces as faces
from companion.vision.recognisers._hornochsen_digits import number_fit, number_score


def _glyph(digit: int, correlation: float, score: float) -> tuple[numpy.ndarray, numpy.ndarray]:
    """A glyph's correlations and scores: `digit` at the given ones, every other digit well below."""
    correlations = numpy.full(10, 0.5, numpy.float32)
    scores = numpy.full(10, 1.0, numpy.float32)
    correlations[digit], scores[digit] = correlation, score
    return correlations, scores


def _pair(number: int, fits: tuple[float, float], scores: tuple[float, float]) -> list:
    return [_glyph(number // 10, fits[0], scores[0]), _glyph(number % 10, fits[1], scores[1])]


def test_the_number_score_is_its_digits_mean_score_leaving_junk_out() -> None:
    junk = (numpy.full(10, 0.3, numpy.float32), numpy.full(10, 9.0, numpy.float32))
    scored = [_glyph(2, 0.9, 3.0), junk, _glyph(4, 0.8, 4.0)]
    assert number_score(scored, 24) == 3.5
    assert number_score(scored, 2) == float("-inf")  # two digits there, not one


def test_an_upright_number_scoring_higher_is_kept_though_it_correlates_a_little_less() -> None:
    # Burnt 20261156 linen: a dim 24 turned 6 degrees read 14 (fit 0.823, scoring 2.83); upright 24 fit
    # 0.816, scoring 3.45.
    turned = _pair(14, (0.823, 0.84), (2.53, 3.13))
    upright = _pair(24, (0.816, 0.89), (3.21, 3.70))
    assert number_fit(upright, 24) < number_fit(turned, 14)  # the least correlation alone kept 14
    assert faces._upright_kept(turned, 14, upright, 24)


def test_an_upright_number_correlating_much_less_or_scoring_less_is_not_kept(monkeypatch) -> None:
    turned = _pair(42, (0.954, 0.96), (2.80, 3.72))
    upright = _pair(43, (0.919, 0.95), (3.36, 3.36))  # scores higher, correlates 0.035 less
    assert not faces._upright_kept(turned, 42, upright, 43)
    monkeypatch.setattr(faces, "UPRIGHT_FIT_SLACK", 0.05)
    assert faces._upright_kept(turned, 42, upright, 43)
    # Correlating better but scoring less: the turned window's number stays.
    turned = _pair(87, (0.910, 0.96), (4.07, 4.07))
    upright = _pair(57, (0.940, 0.95), (3.51, 4.24))
    assert number_fit(upright, 57) > number_fit(turned, 87)
    assert not faces._upright_kept(turned, 87, upright, 57)
