"""The empty-table reference learned in near darkness, read under a lamp switched on since.

A dark felt learned before the lamp came on lies a few levels above black, where the camera's noise,
clipped at black, lifts its levels and no lamp multiplies that lift: the light's gain, measured between
levels lifted as its logs are (`LOG_OFFSET`), applies to levels so lifted.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from tests.vision.test_reference import PIECES, PLANE_MM, foreground_share, learned, mask_box, with_pieces

FELT_BGR = (20.0, 24.0, 70.0)
"""A red felt under the lamp."""


def felt(rng: numpy.random.Generator) -> numpy.typing.NDArray[numpy.float32]:
    """The felt's light under the lamp: mottled over centimetres (its tufts), by a third."""
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    noise = rng.normal(0.0, 1.0, (height, width)).astype(numpy.float32)
    mottle = numpy.asarray(cv2.GaussianBlur(noise, (0, 0), 16.0), numpy.float32)
    mottle = mottle / numpy.float32(mottle.std())
    return numpy.asarray(
        numpy.array(FELT_BGR, numpy.float32) * numpy.exp(0.3 * mottle)[..., None], numpy.float32
    )


def seen(light: numpy.typing.NDArray[numpy.float32], rng: numpy.random.Generator) -> Frame:
    """What the camera makes of it: its noise, clipped at black, and JPEG."""
    noisy = numpy.clip(light + rng.normal(0.0, 5.0, light.shape), 0, 255).astype(numpy.uint8)
    jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 50])[1]
    return numpy.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), numpy.uint8)


@pytest.mark.parametrize(("dim", "seed"), ((0.25, 34), (0.2, 37)))
def test_a_felt_learned_in_near_darkness_is_table_under_the_lamp_switched_on(dim: float, seed: int) -> None:
    # Learned at a quarter or a fifth of the lamp's light, its blue and green a few levels above black.
    # (Its gain applied to the levels themselves, the tufts' brighter mottle left 5 and 13 % of the
    # plane no table, and the latter a hand.)
    rng = numpy.random.default_rng(seed)
    light = felt(rng)
    reference = learned(seen(light * dim, rng))
    view = reference.look(seen(light, rng))
    assert not view.refused, view.reason
    assert foreground_share(view) < 0.02, foreground_share(view)


def test_pieces_on_a_felt_learned_in_near_darkness_still_differ() -> None:
    rng = numpy.random.default_rng(35)
    light = felt(rng)
    reference = learned(seen(light * 0.25, rng))
    lit = with_pieces(numpy.clip(light, 0, 255).astype(numpy.uint8), PIECES)
    view = reference.look(seen(lit.astype(numpy.float32), rng))
    assert not view.refused, view.reason
    for cx, cy in PIECES:
        assert view.foreground[mask_box(cx - 8, cy - 8, cx + 8, cy + 8)].all(), (cx, cy)
