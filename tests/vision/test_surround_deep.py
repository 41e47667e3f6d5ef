"""A player's shadow deeper than a fifth of the light over the band (burnt seed 20261141 Minotaurus linen
session 03, frames 10 and 14: 0.17 of it) is a shadow to the hand check (`BAND_SHADOW_MIN`), not a foreign
region; a sleeve of another hue in it is foreign still."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import Frame
from companion.vision.hand_check import BAND_SHADOW_MIN
from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, surround, wood

SHADE = slice(60, 110)
"""The shadow's columns: 100 mm across the top and bottom of the band."""


def learned() -> tuple[Surround, Frame]:
    band = surround()
    empty = wood(band, grain_depth=0.3)
    band.learn([empty, wood(band, 4, 0.3)], 14.0, 0.07, 0.05, 0.25)
    return band, empty


def shadowed(band: Surround, depth: float) -> Frame:
    sharp = numpy.ones((band.size[1], band.size[0]), numpy.float32)
    sharp[:, SHADE] = depth
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 2.0), numpy.float32)[..., None]
    return numpy.asarray(numpy.clip(wood(band, 5, 0.3) * shade, 0, 255), numpy.uint8)


def test_a_player_shadow_at_015_of_the_light_is_no_foreign_region() -> None:
    band, _ = learned()
    frame = shadowed(band, 0.15)
    inner = slice(SHADE.start + 6, SHADE.stop - 6)
    assert not numpy.any(band.changed(frame, BAND_SHADOW_MIN, BLUR, LEVEL)[0][:, inner])
    # At the former fifth of the light it was foreign across the band.
    assert numpy.count_nonzero(band.changed(frame, 0.2, BLUR, LEVEL)[0][: band.margin, inner]) > 100


def test_a_grey_sleeve_in_that_shadow_is_foreign() -> None:
    band, _ = learned()
    sleeve = shadowed(band, 0.15)
    sleeve[:45, 75:95] = (40, 40, 40)
    changed = band.changed(sleeve, BAND_SHADOW_MIN, BLUR, LEVEL)[0]
    assert numpy.count_nonzero(changed[: band.margin, 75:95]) >= 0.5 * band.margin * 20
