"""In a dim room a dark arm over a near-black cloth differs from it by a few levels a channel, less than
the noise floor that holds for lit tables, but alike all over the arm: the band sees it (`DARK_NOISE`)."""

from __future__ import annotations

import numpy

from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import crosses, edge_pieces, surround


def dark_felt(band: Surround, rng: numpy.random.Generator) -> Frame:
    """Grey felt at some 12 levels of 255 (burnt seed 20261134, Minotaurus felt: 12, 12, 12), the camera's
    noise on it."""
    shape = (band.size[1], band.size[0], 3)
    return numpy.asarray(numpy.clip(12.0 + rng.normal(0, 1.0, shape), 0, 255), numpy.uint8)


def test_a_dark_arm_over_a_near_black_cloth_crosses_the_band_the_cloth_alone_does_not() -> None:
    band = surround()
    rng = numpy.random.default_rng(11)
    band.learn([dark_felt(band, rng) for _ in range(3)], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    for _ in range(3):
        assert not crosses(band, dark_felt(band, rng), inside)
    # The arm as seen there (B, G, R 6, 10, 14: 6 levels darker in blue, 2 brighter in red), from the
    # band's outer edge into the plane, a wrist wide.
    arm = dark_felt(band, rng)
    arm[:40, 80:100] = numpy.clip(
        numpy.array([6.0, 10.0, 14.0]) + rng.normal(0, 1.0, arm[:40, 80:100].shape), 0, 255
    ).astype(numpy.uint8)
    assert crosses(band, arm, inside)
