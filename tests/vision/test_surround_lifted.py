"""A player's shadow over the band while the empty area was learned, gone since, on a plain cloth: the
darkening steps sharply at its edge, the band as it is now does not (surround.py, `changed`'s outline)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import Frame
from tests.vision.test_surround import crosses, edge_pieces, surround


def plain_cloth(shape: tuple[int, int], seed: int) -> Frame:
    """A pale grey-green linen at the masks' 2 mm: its weave averaged away, the camera's noise left."""
    noise = numpy.random.default_rng(seed).normal(0, 1.5, (*shape, 3))
    return numpy.asarray(numpy.clip(numpy.array([150.0, 172.0, 160.0]) + noise, 0, 255), numpy.uint8)


@pytest.mark.parametrize("depth", [0.6, 0.7])
def test_a_shadow_learned_over_a_plain_cloth_that_has_lifted_is_no_arm_an_arm_there_is(depth: float) -> None:
    band = surround()
    height, width = band.size[1], band.size[0]
    sharp = numpy.ones((height, width), numpy.float32)
    # A player's head shaded the band's bottom right and the plane's edge there while it was learned.
    sharp[-40:, 90:] = depth
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 1.5), numpy.float32)[..., None]

    def shaded(seed: int) -> Frame:
        return numpy.asarray(numpy.clip(plain_cloth((height, width), seed) * shade, 0, 255), numpy.uint8)

    band.learn([shaded(1), shaded(2), shaded(3)], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    lit = plain_cloth((height, width), 4)
    # Too plain for the texture to tell a shadow (no grain to keep), the darkening's sharp step at the
    # shadow's old edge ran across the band like an arm's side.
    assert not crosses(band, lit, inside)
    # A sleeve of the cloth's own hue, darker by as much as one found over the same cloth with no shadow ever
    # learned, crossing there is an arm by its sharp sides; a skin too.
    for colour in ((105, 120, 112), (95, 125, 180)):
        arm = lit.copy()
        arm[-40:, 120:140] = colour
        assert crosses(band, arm, inside), colour
