"""Minotaurus teaching: one taught shot seen under made-up lights, so that it stands for the table at
other hours (the prototypes learned from it then cover them)."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.reference import NEUTRAL_BGR

TEACH_LIGHT_LEVELS = (0.8, 1.1)
"""A made-up light is this much dimmer to brighter than the shot's..."""
TEACH_LIGHT_SLOPE = 0.15
"""... falls off across the plane by up to this share from its middle to an edge..."""
TEACH_SHADOW = (0.15, 0.35)
"""... may cast a soft shadow this deep (a head, a lamp's edge), or wash a patch towards white this far
(a reflection)..."""
TEACH_COLOUR_CAST = 0.05
"""... tints each channel by up to this share; the lens blurs by up to TEACH_BLUR_PX (plane pixels)..."""
TEACH_BLUR_PX = 1.0
TEACH_NOISE = (1.0, 3.5)
"""... and the sensor adds noise of this standard deviation (8-bit levels)."""


def under_made_up_light(
    plane: Frame, rng: numpy.random.Generator, table: numpy.typing.NDArray[numpy.bool_] | None = None
) -> Frame:
    """The taught shot as the same table could look at another hour: a lamp dimmer or brighter, falling
    off across the table, a shadow or a reflection somewhere, a slight colour cast, a little blur and
    sensor noise (so that one shot stands for many)."""
    height, width = plane.shape[:2]
    across = numpy.linspace(-1.0, 1.0, width, dtype=numpy.float32)[None, :]
    down = numpy.linspace(-1.0, 1.0, height, dtype=numpy.float32)[:, None]
    slope_x, slope_y = rng.uniform(-TEACH_LIGHT_SLOPE, TEACH_LIGHT_SLOPE, 2)
    light = rng.uniform(*TEACH_LIGHT_LEVELS) * (1.0 + slope_x * across + slope_y * down)
    centre_x, centre_y = rng.uniform(-1.0, 1.0, 2)
    spread = rng.uniform(0.15, 0.4)
    patch = numpy.exp(-((across - centre_x) ** 2 + (down - centre_y) ** 2) / (2 * spread**2))
    reflection = rng.random() < 0.5
    if not reflection:
        light = light * (1.0 - rng.uniform(*TEACH_SHADOW) * patch)
    cast = rng.uniform(1.0 - TEACH_COLOUR_CAST, 1.0 + TEACH_COLOUR_CAST, 3).astype(numpy.float32)
    lit = plane.astype(numpy.float32) * light[..., None].astype(numpy.float32) * cast
    if reflection:
        washed = (rng.uniform(*TEACH_SHADOW) * patch)[..., None].astype(numpy.float32)
        lit += washed * (255.0 - numpy.clip(lit, 0, 255))
    sigma = rng.uniform(0.0, TEACH_BLUR_PX)
    if sigma >= 0.3:
        lit = numpy.asarray(cv2.GaussianBlur(lit, (0, 0), sigma), numpy.float32)
    lit += rng.normal(0.0, rng.uniform(*TEACH_NOISE), lit.shape).astype(numpy.float32)
    shot = numpy.asarray(numpy.clip(lit, 0, 255), numpy.uint8)
    if table is not None:  # `table`: pixels that stay as they are (a normalised plane's neutral table)
        shot[table] = plane[table]
    return shot


def neutral_pixels(plane: Frame) -> numpy.typing.NDArray[numpy.bool_]:
    """Where a normalised plane shows the table (replaced by NEUTRAL_BGR)."""
    return numpy.asarray(numpy.all(plane == numpy.array(NEUTRAL_BGR, numpy.uint8), axis=2), numpy.bool_)
