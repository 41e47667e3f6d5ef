"""A player's deep shadow over faintly grained dark wood keeps the grain over few pixels that differ
enough to tell: those few still tell it from an arm (`KEPT_TEXTURE_PX`)."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import crosses, edge_pieces, surround


def dark_wood(band: Surround, seed: int) -> Frame:
    """Dark wood with a faint grain (17 %), a little noise: most of it too plain to tell a texture by."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    grain = numpy.sin(y / 2.0 + numpy.sin(x / 20.0))[..., None]
    image = numpy.array([30, 40, 55], numpy.float32) * (1.0 + 0.17 * grain)
    noise = numpy.random.default_rng(seed).normal(0, 1.5, image.shape)
    return numpy.asarray(numpy.clip(image + noise, 0, 255), numpy.uint8)


def test_a_deep_narrow_shadow_on_faint_dark_wood_is_no_arm_a_sleeve_in_it_is() -> None:
    # Dev minoa 77, dark wood, frame 2: a player's shadow over the band kept the grain (correlation 0.70)
    # over the 83 pixels that differed enough to count, and was refused as an arm. Here a shadow a third
    # of the light, 80 mm wide, from the band's outer edge into the plane: some 97 such pixels.
    band = surround()
    empty = dark_wood(band, 3)
    band.learn([empty, empty], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    sharp = numpy.ones(empty.shape[:2], numpy.float32)
    sharp[:45, 20:60] = 0.35
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 4), numpy.float32)[..., None]
    shadowed = numpy.asarray(numpy.clip(dark_wood(band, 5) * shade, 0, 255), numpy.uint8)
    assert not crosses(band, shadowed, inside)
    sleeve = shadowed.copy()
    sleeve[:45, 30:50] = (40, 40, 40)
    assert crosses(band, sleeve, inside)
