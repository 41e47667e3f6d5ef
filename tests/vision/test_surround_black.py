"""A head's shadow over dark wood under a lamp, the wood near black in it (levels 6-20 of 255): the band's
light, measured over wide cells, follows part of the way, so the shadow differs from the table it predicts,
and a grey level of the camera's noise turns the hue of its darkest channel by a tenth or more. That much
of a hue is noise, not a sleeve (`HUE_NOISE`; bench seed 20261142, Asterion dark wood session 01 frame 8:
refused as a hand at rest)."""

from __future__ import annotations

import numpy
import pytest

from companion.vision import _surround_compare as compare
from companion.vision._surround_compare import side_differs, side_rest
from companion.vision.hand_check import BAND_SHADOW_MIN
from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, surround, wood

DEPTH = 0.1
"""What of the lamp's light is left in the shadow."""
FOLLOWED = 0.16
"""The band's light there: it follows the shadow part of the way (0.6 of the table it predicts)."""


def learned() -> Surround:
    band = surround()
    band.learn([wood(band, 3, 0.3), wood(band, 4, 0.3)], 14.0, 0.07, 0.05, 0.25)
    return band


def foreign(band: Surround, scale: float, offset: tuple[float, float, float]) -> int:
    """The band's pixels beyond light and shadow on its first side when the table is at `scale` of its
    reference plus `offset` levels (B, G, R), its light measured at `FOLLOWED / DEPTH` times that scale."""
    reference = numpy.asarray(band._image, numpy.float32)
    frame = numpy.clip(numpy.round(reference * scale + numpy.asarray(offset, numpy.float32)), 0, 255)
    side = band._sides[0]
    now = band._gather(numpy.asarray(frame, numpy.uint8))[0]
    light = scale * FOLLOWED / DEPTH
    gain = numpy.full(now.shape, light, numpy.float32)
    overall = numpy.full(3, light, numpy.float32)
    state = side_differs(side, now, gain, BLUR, LEVEL, overall, band._noise, band.margin)
    changed, _outline, _texture = side_rest(side, state, BAND_SHADOW_MIN, BLUR, LEVEL)
    return int(numpy.count_nonzero(changed & side.in_band))


@pytest.mark.parametrize("offset", [(0.0, -2.0, 2.0), (-2.0, 0.0, 1.0), (-2.0, -1.0, 1.0)])
def test_two_grey_levels_of_noise_on_near_black_wood_is_a_shadows_hue(
    offset: tuple[float, float, float], monkeypatch: pytest.MonkeyPatch
) -> None:
    band = learned()
    assert foreign(band, DEPTH, offset) == 0
    # Without the noise's slack the shadow's hue was foreign all over the band.
    monkeypatch.setattr(compare, "HUE_NOISE", 0.0)
    assert foreign(band, DEPTH, offset) > 0.5 * numpy.count_nonzero(band._sides[0].in_band)


def test_a_sleeve_of_another_hue_in_that_shadow_is_foreign() -> None:
    band = learned()
    assert foreign(band, DEPTH, (-3.0, 0.0, 4.0)) > 0.5 * numpy.count_nonzero(band._sides[0].in_band)


def test_on_the_lit_table_the_same_turn_of_hue_is_foreign() -> None:
    band = learned()
    # The same share of each channel's level as two grey levels are on the wood in the shadow.
    assert foreign(band, 1.0, (-20.0, 0.0, 20.0)) > 0.5 * numpy.count_nonzero(band._sides[0].in_band)
