"""A player's sharp shadow whose depth runs across it (0.2 to 0.6 of the light: the band's light, measured
over cells wider than its edge, bends part of the way towards it) spreads beyond `KEPT_DEPTH_SPREAD`, but
keeps the wood's grain beyond doubt (`KEPT_TEXTURE_SURE_Z`): no arm. A sleeve laid in it, grey or of its
very hue and darkness, hides the grain under it and stays an arm."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_texture as texture_module
from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import crosses, edge_pieces, learned, surround, wood


def shadowed(band: Surround, seed: int) -> Frame:
    """The grained wood under a shadow 120 mm wide from the band's outer edge into the plane, its depth
    running from 0.2 to 0.6 of the light across it; sharp."""
    shade = numpy.ones((band.size[1], band.size[0]), numpy.float32)
    shade[:45, 20:80] = numpy.linspace(0.2, 0.6, 60, dtype=numpy.float32)[None, :]
    blurred = numpy.asarray(cv2.GaussianBlur(shade, (0, 0), 1.0), numpy.float32)[..., None]
    return numpy.asarray(numpy.clip(wood(band, seed) * blurred, 0, 255), numpy.uint8)


@pytest.mark.parametrize("seed", [5, 6])
def test_a_shadow_of_spreading_depth_that_keeps_the_grain_is_light_a_sleeve_in_it_is_not(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    band, _ = learned(surround())
    inside = edge_pieces(band)
    shadow = shadowed(band, seed)
    assert not crosses(band, shadow, inside)
    level = numpy.asarray(shadow[:40, 40:60], numpy.float32).mean(axis=(0, 1))
    for colour in (numpy.full(3, 0.6 * level.mean()), level):
        sleeve = shadow.copy()
        sleeve[:45, 44:60] = colour.round().astype(numpy.uint8)
        assert crosses(band, sleeve, inside)
    # Told by the texture's sure agreement: without it, the depth's spread makes the shadow an arm.
    monkeypatch.setattr(texture_module, "KEPT_TEXTURE_SURE_Z", 1e9)
    assert crosses(band, shadow, inside)
