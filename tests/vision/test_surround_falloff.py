"""A band learned dim (a lamp's fall-off) and lit far above it now, where the band's light falls short of
the lift: the darkening rises steeply along a smooth ramp of the band as it is now; measured over the dim
reference's level, the camera's noise on the ramp stepped like an arm's side (`side_rest`'s outline; bench
seed 20261144 Minotaurus laminate session 09 frames 4 and 10, refused at rest)."""

from __future__ import annotations

import numpy

from companion.vision._surround_compare import side_differs, side_rest
from companion.vision.base import Frame
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN, surround

DIM = 0.4
"""The reference's light against the laminate's: levels ~47."""


def laminate(shape: tuple[int, int], seed: int, noise: float) -> numpy.typing.NDArray[numpy.float64]:
    grain = numpy.random.default_rng(seed).normal(0, noise, (*shape, 3))
    return numpy.asarray(numpy.clip(numpy.array([118.0, 122.0, 112.0]) + grain, 0, 255), numpy.float64)


def top_outline(lift: numpy.typing.NDArray[numpy.float32]) -> numpy.typing.NDArray[numpy.bool_]:
    """The outline `side_rest` finds over the band's top strip, the frame lit by `lift` (per column) over
    the dim reference and the band's light left at the reference's (gain 1: it fell short)."""
    band = surround()
    height, width = band.size[1], band.size[0]
    band.learn(
        [numpy.asarray(laminate((height, width), seed, 1.0) * DIM, numpy.uint8) for seed in (1, 2, 3)],
        14.0,
        0.07,
        0.05,
        0.25,
    )
    frame: Frame = numpy.asarray(
        numpy.clip(laminate((height, width), 4, 6.0) * DIM * lift[None, :, None], 0, 255), numpy.uint8
    )
    strip = band._gather(frame)[0]
    side = band._sides[0]
    gain = numpy.ones(strip.shape, numpy.float32)
    state = side_differs(
        side, strip, gain, BLUR, LEVEL, numpy.ones(3, numpy.float32), numpy.float32(14.0), band.margin
    )
    _, outline, _ = side_rest(side, state, SHADOW_MIN, BLUR, LEVEL)
    return numpy.asarray(outline[: band.margin], bool)


def test_a_smooth_lift_over_a_dim_reference_is_no_outline_an_arms_sides_there_are() -> None:
    x = numpy.arange(surround().size[0], dtype=numpy.float32)
    # From the reference's light at x 60 to 2.4 times it at x 90 (60 mm), the laminate's noise 6 levels.
    lift = numpy.asarray(1.0 + 1.4 * numpy.clip((x - 60.0) / 30.0, 0.0, 1.0), numpy.float32)
    assert not numpy.any(top_outline(lift)[:, 50:110])
    # A sleeve of the laminate's hue over the lit part, 40 mm wide: its two sides step as sharply as ever.
    sleeve = numpy.asarray(numpy.where((x > 130) & (x < 150), 1.4, lift), numpy.float32)
    outline = top_outline(sleeve)
    assert numpy.any(outline[:, 128:134]) and numpy.any(outline[:, 147:153])
