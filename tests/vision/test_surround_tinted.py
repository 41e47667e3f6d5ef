"""A player's sharp shadow over plain laminate under a warm lamp, the daylight in it bluer still: its hue
is another than a shadow's over the band (foreign there), yet it only scales the table, each channel by one
smooth factor, and the laminate's faint pattern shows through. The foreign region's crossing asks the
smooth-shade test too (`HandCheck.crossed`; bench seed 20261142, Minoa laminate session 09 frame 9: refused
as a hand at rest). An arm of a skin's hue over the band is no smooth shade and crosses still."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision._reference_base import ReferenceSettings
from companion.vision.base import Frame
from companion.vision.hand_check import BAND_SHADOW_MIN, HandCheck
from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, edge_pieces
from tests.vision.test_surround_shade import BOX, laminate, learned

TINT = numpy.array([0.55, 0.4, 0.28], numpy.float32)
"""What of the light is left in the shadow, per channel (B, G, R): a bluer daylight than a shadow's."""


def check_of(band: Surround) -> HandCheck:
    m, height, width = band.margin, band.size[1], band.size[0]
    shape = (height - 2 * m, width - 2 * m)
    return HandCheck(ReferenceSettings(), band, numpy.zeros(shape, bool), numpy.ones(shape, numpy.float32))


def tinted_shadow(band: Surround, seed: int) -> Frame:
    light = numpy.ones((band.size[1], band.size[0], 3), numpy.float32)
    light[BOX] = TINT
    light = numpy.asarray(cv2.GaussianBlur(light, (0, 0), 0.7), numpy.float32)
    return numpy.asarray(numpy.clip(laminate(band, seed) * light, 0, 255), numpy.uint8)


def skin_arm(band: Surround, seed: int) -> Frame:
    """A forearm of a skin's hue in the shadow's box, lit from one side: shaded across the limb."""
    frame = laminate(band, seed)
    columns = BOX[1]
    across = numpy.linspace(-1.0, 1.0, columns.stop - columns.start, dtype=numpy.float32)
    shading = 0.55 + 0.45 * numpy.cos(numpy.arcsin(numpy.clip(across, -1.0, 1.0)) - 0.6)
    skin = numpy.array([95.0, 125.0, 180.0], numpy.float32)
    noise = numpy.random.default_rng(seed).normal(0.0, 1.5, frame[BOX].shape)
    frame[BOX] = numpy.clip(skin * shading[None, :, None] + noise, 0, 255).astype(numpy.uint8)
    return frame


def crossed(band: Surround, frame: Frame, smooth: bool = True) -> bool:
    changes = band.changed(frame, BAND_SHADOW_MIN, BLUR, LEVEL)
    return check_of(band).crossed(changes, edge_pieces(band), band.shades_of(frame) if smooth else None)


@pytest.mark.parametrize("seed", [5, 6])
def test_a_tinted_sharp_shadow_is_foreign_over_the_band_yet_one_smooth_shade(seed: int) -> None:
    band = learned()
    shadow = tinted_shadow(band, seed)
    assert numpy.count_nonzero(band.changed(shadow, BAND_SHADOW_MIN, BLUR, LEVEL)[0]) > 500
    assert crossed(band, shadow, smooth=False)
    assert not crossed(band, shadow)


@pytest.mark.parametrize("seed", [5, 6])
def test_an_arm_of_a_skins_hue_there_is_no_smooth_shade(seed: int) -> None:
    band = learned()
    arm = skin_arm(band, seed)
    assert numpy.count_nonzero(band.changed(arm, BAND_SHADOW_MIN, BLUR, LEVEL)[0]) > 500
    assert crossed(band, arm)
