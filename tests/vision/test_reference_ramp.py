"""The light grid's walk down a soft shadow steeper than its band a cell (see table_light._ramped)."""

from __future__ import annotations

import numpy
import pytest

from companion.vision._reference_base import MASK_PX_PER_MM
from companion.vision.table_light import LightGrid, log_level
from tests.vision.test_reference import PLANE_MM


def _measured(
    depth: float, ramp: float, edge: float, sharp: bool = False
) -> tuple[numpy.ndarray, numpy.ndarray]:
    """A dark wood's reference and a plane under a shadow over its left falling to `depth` of the light
    (a logistic of `ramp` mask pixels about column `edge`; `sharp`: a step), with the camera's noise;
    the grid's light (the mean of its channels) and the light it should find: the noiseless plane's
    log levels less the reference's (log_level's offset makes that shallower than the gain in the dark)."""
    rng = numpy.random.default_rng(5)
    width, height = round(PLANE_MM[0] * MASK_PX_PER_MM), round(PLANE_MM[1] * MASK_PX_PER_MM)
    texture = 1.0 + 0.1 * rng.standard_normal((height, width, 1))
    reference = numpy.asarray(numpy.array([20.0, 30.0, 45.0]) * texture, numpy.float32)
    x = numpy.arange(width, dtype=numpy.float32)
    if sharp:
        log_gain = numpy.where(x < edge, numpy.log(depth), 0.0).astype(numpy.float32)
    else:
        log_gain = numpy.log(depth) / (1.0 + numpy.exp((x - edge) / ramp))
    noiseless = reference * numpy.exp(log_gain)[None, :, None]
    current = numpy.asarray(
        numpy.clip(noiseless + rng.normal(0.0, 1.0, reference.shape), 0, 255), numpy.float32
    )
    target = (log_level(noiseless) - log_level(reference)).mean(axis=(0, 2))
    weight = numpy.full((height, width), 4.0, numpy.float32)
    grid = LightGrid(PLANE_MM, (width, height), weight, 0.25)
    light = grid.measure(log_level(current) - log_level(reference), current, reference)
    return light.mean(axis=2), target


@pytest.mark.parametrize("ramp", (8.0, 10.0))
def test_the_walk_follows_a_soft_shadow_falling_faster_than_its_band_a_cell(ramp: float) -> None:
    # Burnt seed 20261133, Hornochsen dark-wood session 08 frame 13: a soft shadow falling by 0.35-0.4
    # (log) a cell to a quarter lit. The walk's band is 0.25: carried flat from the lit cells, the light
    # of the cells beyond the first steep step lay beyond it, and the shadow stayed at the lit side's
    # light (half the plane foreign: "a hand"). Carried along the slope, the walk follows it down.
    light, target = _measured(0.2, ramp, 70.0)
    error = numpy.abs(light - target[None, :])
    assert error[:, :40].max() < 0.25, error[:, :40].max()


def test_the_walk_still_steps_over_no_sharp_edge() -> None:
    # The lit cells beside a sharp edge are flat: no slope carries the walk over it (an arm's side is one).
    light, target = _measured(0.2, 1.0, 70.0, sharp=True)
    assert numpy.abs(light[:, :40] - target[None, :40]).min() > 0.5
