"""A player's sharp shadow a third deep over finely grained dark wood, narrower than an arm's reach
along the band: fewer pixels than `KEPT_TEXTURE_PX` differ enough to tell its grain, but they keep it
so well (`KEPT_TEXTURE_Z`, at the grain's own contrast) that it is no arm; a sleeve of its very darkness
and hue laid in it is one."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_texture as texture_module
from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import crosses, edge_pieces, surround


def fine_dark_wood(band: Surround, seed: int) -> Frame:
    """Dark wood with a fine, wavy grain (25 %, some 5 px a period) and a little noise."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    grain = numpy.sin(y * 1.2 + 2.0 * numpy.sin(x / 20.0))[..., None]
    image = numpy.array([30, 40, 55], numpy.float32) * (1.0 + 0.25 * grain)
    noise = numpy.random.default_rng(seed).normal(0, 1.5, image.shape)
    return numpy.asarray(numpy.clip(image + noise, 0, 255), numpy.uint8)


def shadowed(band: Surround, seed: int) -> Frame:
    """The wood under a player's sharp shadow a third of the light, 32 mm wide, from the band's outer
    edge on into the plane: its grain scaled by that one factor, its edge blurred over a few pixels."""
    sharp = numpy.ones((band.size[1], band.size[0]), numpy.float32)
    sharp[:45, 20:36] = 0.33
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 2), numpy.float32)[..., None]
    return numpy.asarray(numpy.clip(fine_dark_wood(band, seed) * shade, 0, 255), numpy.uint8)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_narrow_deep_shadow_keeps_the_grain_over_few_pixels_a_sleeve_of_its_darkness_does_not(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    band = surround()
    band.learn([fine_dark_wood(band, 3), fine_dark_wood(band, 4)], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    shadow = shadowed(band, seed)
    assert not crosses(band, shadow, inside)
    sleeve = shadow.copy()
    level = numpy.asarray(shadow[:40, 24:32], numpy.float32).mean(axis=(0, 1))
    sleeve[:45, 24:32] = level.round().astype(numpy.uint8)  # the shadow's darkness and hue, no grain
    assert crosses(band, sleeve, inside)
    # Told only by the few pixels' correlation: without it, the shadow is taken for an arm.
    monkeypatch.setattr(texture_module, "KEPT_TEXTURE_Z", 1e9)
    assert crosses(band, shadow, inside)


def test_a_flat_dark_sleeve_keeps_no_texture_however_its_level_sits_on_the_grain() -> None:
    # A flat patch's level relative to its neighbourhood's plus 2 is below one all over: over a few rows
    # of a dark reference's grain troughs that offset alone correlated 0.92, at 3.7 times the grain's
    # contrast. Its own level taken out (`centred`), and at the grain's contrast (`KEPT_FEW_CONTRAST`), it
    # keeps nothing, alone on the wood or in a shadow.
    band = surround()
    band.learn([fine_dark_wood(band, 3), fine_dark_wood(band, 4)], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    for colour in ((8, 12, 20), (10, 18, 10), (6, 8, 12), (20, 12, 9)):
        for table in (fine_dark_wood(band, 5), shadowed(band, 5)):
            sleeve = table.copy()
            sleeve[:45, 24:40] = colour
            assert crosses(band, sleeve, inside), colour
