"""A shadow over a cloth whose reference the camera clipped (the white checks' green and red at 254, burnt
seed 20261141 Hornochsen gingham) is no foreign hue; a skin arm in it is."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_compare as surround_module
from companion.vision._surround_side import clipped_ratio
from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN, surround

TRUE_CHECKS = numpy.array([[190.0, 290.0, 300.0], [60.0, 170.0, 280.0]], numpy.float32)
"""A yellow gingham under a warm lamp (BGR): its white check brighter than the camera's white in green and
red, its orange check in red."""


def gingham(band: Surround, seed: int, light: numpy.typing.NDArray[numpy.float32] | None = None) -> Frame:
    """The gingham's true levels (4-pixel checks, the camera's noise) under `light`, then clipped."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width]
    image = TRUE_CHECKS[((x // 4) + (y // 4)) % 2]
    if light is not None:
        image = image * light[..., None]
    image = image + numpy.random.default_rng(seed).normal(0.0, 1.5, image.shape)
    return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)


SHADOW = slice(60, 100)


def player_shadow(band: Surround) -> numpy.typing.NDArray[numpy.float32]:
    """A player's shadow, 0.6 of the light, 80 mm wide across the band (`SHADOW`)."""
    width, height = band.size
    light = numpy.ones((height, width), numpy.float32)
    light[:, SHADOW] = 0.6
    return numpy.asarray(cv2.GaussianBlur(light, (0, 0), 2.0), numpy.float32)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_shadow_over_a_cloth_clipped_in_its_reference_is_no_foreign_hue(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    band = surround()
    band.learn([gingham(band, 3), gingham(band, 4)], 14.0, 0.07, 0.05, 0.25)
    shot = gingham(band, seed, player_shadow(band))
    changed = band.changed(shot, SHADOW_MIN, BLUR, LEVEL)[0][:, SHADOW]
    assert not numpy.any(changed), numpy.count_nonzero(changed)
    # Measured against the clipped reference as it is, its green and red seem to darken less than its
    # blue: a hue no shadow has.
    monkeypatch.setattr(surround_module, "clipped_ratio", lambda ratio, clipped: ratio)
    changed = band.changed(shot, SHADOW_MIN, BLUR, LEVEL)[0][:, SHADOW]
    band_px = 2 * band.margin * 40
    assert numpy.count_nonzero(changed) > 0.5 * band_px


def test_a_skin_arm_in_that_shadow_is_still_foreign() -> None:
    band = surround()
    band.learn([gingham(band, 3), gingham(band, 4)], 14.0, 0.07, 0.05, 0.25)
    arm = gingham(band, 5, player_shadow(band))
    arm[:40, 70:90] = (95, 125, 180)
    changed = band.changed(arm, SHADOW_MIN, BLUR, LEVEL)[0]
    assert numpy.count_nonzero(changed[:15, 70:90]) >= 0.5 * 15 * 20


def test_a_clipped_channel_is_brought_down_to_the_unclipped_channels_highest_no_further() -> None:
    ratio = numpy.array([[[0.6, 0.74, 0.83], [0.6, 0.5, 0.83], [0.9, 0.8, 0.7]]], numpy.float32)
    clipped = numpy.array([[[0, 1, 1], [0, 1, 1], [1, 1, 1]]], numpy.float32)
    scaled = clipped_ratio(ratio, clipped)
    assert numpy.allclose(scaled, [[[0.6, 0.6, 0.6], [0.6, 0.5, 0.6], [0.9, 0.8, 0.7]]])
    assert clipped_ratio(ratio, numpy.zeros_like(clipped)) is ratio
