"""A band learned near black (dark wood at 3-10 levels) and lit far above it now: a marker's white plate
clips at a few times its reference while the wood beside it rose fifteen times, so the darkening steps down
to the plate along its rim. A clipped pixel's darkening is only a floor: that step is no arm's outline
(`floor_step`; the unseen bench on 20261157, Hornochsen dark wood travel session 08, frames at rest
refused). A clipped white sleeve over a lit table steps up to its floor, and its sides stand."""

from __future__ import annotations

import numpy
import pytest

from companion.vision import _surround_compare as compare
from companion.vision._surround_compare import side_differs, side_rest
from companion.vision.base import Frame
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN, surround

PLATE = (slice(3, 13), slice(100, 116))
"""A marker's white plate in the band's top strip (rows, columns)."""


def table(
    shape: tuple[int, int], level: numpy.typing.NDArray[numpy.float64], seed: int
) -> numpy.typing.NDArray[numpy.float64]:
    noise = numpy.random.default_rng(seed).normal(0, 1.0, (*shape, 3))
    return numpy.asarray(level + noise * level / level.max(), numpy.float64)


def top_outline(
    wood: tuple[float, float, float], plate: float, lift: float, now_plate: float
) -> numpy.typing.NDArray[numpy.bool_]:
    """The outline `side_rest` finds over the band's top strip: the reference's `wood` and `plate`
    levels, the frame lit `lift` times with the plate at `now_plate` (clipped at 255), the band's light
    measured right."""
    band = surround()
    height, width = band.size[1], band.size[0]
    level = numpy.array(wood, numpy.float64)

    def shot(seed: int, factor: float, white: float) -> Frame:
        image = table((height, width), level * factor, seed)
        image[PLATE] = white
        return numpy.asarray(numpy.clip(numpy.round(image), 0, 255), numpy.uint8)

    band.learn([shot(seed, 1.0, plate) for seed in (1, 2, 3)], 14.0, 0.07, 0.05, 0.25)
    strip = band._gather(shot(4, lift, now_plate))[0]
    side = band._sides[0]
    gain = numpy.full(strip.shape, lift, numpy.float32)
    state = side_differs(
        side, strip, gain, BLUR, LEVEL, numpy.full(3, lift, numpy.float32), numpy.float32(14.0), band.margin
    )
    _, outline, _ = side_rest(side, state, SHADOW_MIN, BLUR, LEVEL)
    return numpy.asarray(outline[: band.margin, 80:136], bool)


def test_a_white_plate_clipped_under_a_light_far_above_a_near_black_reference_is_no_outline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dark wood at (4, 6, 8) lit 15 times; the plate at 48 clipped (255: 5.3 times).
    assert not numpy.any(top_outline((4.0, 6.0, 8.0), 48.0, 15.0, 255.0))
    monkeypatch.setattr(compare, "floor_step", lambda darkening, white: numpy.zeros(darkening.shape, bool))
    assert numpy.any(top_outline((4.0, 6.0, 8.0), 48.0, 15.0, 255.0))


def test_a_clipped_sleeve_over_a_lit_table_keeps_its_sides() -> None:
    # A table at 120 lit as learned; a white sleeve clipped where the table was (the plate's place).
    outline = top_outline((110.0, 120.0, 130.0), 120.0, 1.0, 255.0)
    assert numpy.any(outline)
