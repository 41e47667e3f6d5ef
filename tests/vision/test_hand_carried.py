"""The hand check's first gate (`HandCheck.may_cross`) under the plane's light carried outward: an arm's
region there may come out narrower than an arm, the plane's light at its rim having taken in the arm's
middle; the band's own light is measured from `CARRIED_SHARE` of an arm's width on."""

from __future__ import annotations

import numpy
import pytest

from companion.vision._reference_base import ReferenceSettings
from companion.vision.hand_check import CARRIED_SHARE, HandCheck
from tests.vision.test_surround import learned, surround


def gate(width_mm: float, share: float, monkeypatch: pytest.MonkeyPatch) -> bool:
    """`may_cross` of a region from the band's top outer edge across it, `width_mm` wide, going on into the
    plane's changes (a hand), with `CARRIED_SHARE` at `share`."""
    monkeypatch.setattr("companion.vision.hand_check.CARRIED_SHARE", share)
    band, _ = learned(surround())
    m = band.margin
    plane = (band.size[1] - 2 * m, band.size[0] - 2 * m)
    check = HandCheck(ReferenceSettings(), band, numpy.zeros(plane, bool), numpy.ones(plane, numpy.float32))
    columns = slice(60, 60 + round(width_mm * band.px_per_mm))
    carried = numpy.zeros((band.size[1], band.size[0]), bool)
    carried[:m, columns] = True
    joined = numpy.zeros(plane, numpy.uint8)
    joined[:40, 40:100] = 1  # the arm's hand, wider in the plane
    return check.may_cross(carried, joined)


def test_an_arm_narrowed_by_the_plane_light_still_opens_the_band_own_light(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 16 mm under the plane's light carried outward (the linen arm of burnt 20261151, 30 mm under the
    # band's own): short of an arm's 18 mm, within CARRIED_SHARE of it.
    assert gate(16.0, CARRIED_SHARE, monkeypatch)
    assert not gate(16.0, 1.0, monkeypatch)


def test_a_region_far_narrower_than_an_arm_keeps_the_gate_shut(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not gate(10.0, CARRIED_SHARE, monkeypatch)
    assert gate(20.0, CARRIED_SHARE, monkeypatch)
