"""Toss scenes: the bull figure's head from above, its two horns, and rope rings around or beside them.

A ring around a horn sits off centre and tilted (it rests against the leaning
horn, FACTS); rings that missed lie flat beside a horn or between the horns.
The horns lean outwards, so from above each shows its base and, offset, its tip.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout
from companion.vision.generate import Rng, SceneRenderer, register_renderer
from companion.vision.generate.minotaurus import wood_table
from companion.vision.recognisers.toss import HORN_CENTRES_MM, HORN_RADIUS_MM, RING_CORD_MM, RING_RADIUS_MM

GAME = "toss"
RING_COLOURS_BGR = ((40, 40, 200), (30, 130, 235), (190, 110, 30), (70, 160, 40), (140, 50, 130))
"""Red, orange, blue, green and purple rope."""
SUPERSAMPLE = 2


def _px(xy_mm: numpy.typing.ArrayLike) -> tuple[int, int]:
    x, y = numpy.asarray(xy_mm, numpy.float64) * PLANE_PX_PER_MM * SUPERSAMPLE
    return (round(float(x)), round(float(y)))


def _ring(
    image: Frame,
    mask: Frame,
    centre: numpy.typing.NDArray[numpy.float64],
    tilt: float,
    turn: float,
    colour: tuple[int, int, int],
) -> None:
    scale = PLANE_PX_PER_MM * SUPERSAMPLE
    axes = (round(RING_RADIUS_MM * scale), round(RING_RADIUS_MM * numpy.cos(numpy.radians(tilt)) * scale))
    cord = round(RING_CORD_MM * scale)
    shadow = image.copy()
    cv2.ellipse(
        shadow, _px(centre + numpy.array([1.5, 2.5])), axes, turn, 0, 360, (0, 0, 0), cord + 4, cv2.LINE_AA
    )
    image[:] = cv2.addWeighted(image, 0.6, shadow, 0.4, 0)
    cv2.ellipse(image, _px(centre), axes, turn, 0, 360, colour, cord, cv2.LINE_AA)
    darker = tuple(int(c * 0.7) for c in colour)
    for start in range(0, 360, 30):  # the rope's twist
        cv2.ellipse(image, _px(centre), axes, turn, start, start + 6, darker, cord, cv2.LINE_AA)
    cv2.ellipse(mask, _px(centre), axes, turn, 0, 360, 255, cord)


def _horn(image: Frame, base: tuple[float, float], side: str, rng: Rng) -> None:
    outward = -1.0 if side == "left" else 1.0
    tip = numpy.array(base) + numpy.array([outward * rng.uniform(14, 24), -rng.uniform(0, 8)])
    ivory = numpy.array([rng.uniform(185, 210), rng.uniform(215, 232), rng.uniform(228, 245)])
    steps = 12
    for n in range(steps + 1):  # from the base up: discs shrinking towards the tip, lighter higher up
        t = n / steps
        centre = (1 - t) * numpy.array(base) + t * tip
        radius = (1 - t) * HORN_RADIUS_MM + t * 4.0
        shade = tuple(float(c) for c in numpy.clip(ivory * (0.78 + 0.22 * t), 0, 255))
        cv2.circle(image, _px(centre), round(radius * PLANE_PX_PER_MM * SUPERSAMPLE), shade, -1, cv2.LINE_AA)


def render_scene(labels: Mapping[str, str], layout: Layout, rng: Rng) -> tuple[Frame, Frame]:
    """The plane, and a mask of the rings' cords in it (for learning the built-in colours)."""
    width, height = layout.plane_size_px()
    big = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    image = numpy.asarray(
        cv2.resize(wood_table(width, height, rng), big, interpolation=cv2.INTER_LINEAR), numpy.uint8
    )
    mask = numpy.zeros((big[1], big[0]), numpy.uint8)
    # A dark brown or black bull, never the colour of a rope ring.
    head = tuple(
        float(c) for c in numpy.array([32.0, 45.0, 68.0]) * rng.uniform(0.55, 1.35) + rng.uniform(-4, 4, 3)
    )
    cv2.ellipse(image, _px((150, 100)), _px((140, 78)), 0, 0, 360, head, -1, cv2.LINE_AA)
    colour = RING_COLOURS_BGR[int(rng.integers(len(RING_COLOURS_BGR)))]
    horns = {side: numpy.array(centre) for side, centre in HORN_CENTRES_MM.items()}
    rings: list[numpy.typing.NDArray[numpy.float64]] = []
    for side, centre in horns.items():
        if labels.get(f"horn:{side}") == "ring":
            offset = rng.uniform(-9, 9, 2)
            rings.append(centre + offset)
            _ring(image, mask, centre + offset, rng.uniform(0, 25), rng.uniform(0, 180), colour)
    for _ in range(int(rng.integers(0, 3))):  # rings that missed: flat, beside a horn or between them
        for _attempt in range(40):
            where = rng.uniform((60, 40), (240, 150))
            far_from_horns = all(
                numpy.linalg.norm(where - h) > RING_RADIUS_MM + HORN_RADIUS_MM + 5 for h in horns.values()
            )
            if far_from_horns:
                _ring(image, mask, where, rng.uniform(0, 8), rng.uniform(0, 180), colour)
                break
    for side, centre in horns.items():
        _horn(image, (float(centre[0]), float(centre[1])), side, rng)
    plane = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    small_mask = cv2.resize(mask, (width, height), interpolation=cv2.INTER_NEAREST)
    return numpy.asarray(plane, numpy.uint8), numpy.asarray(small_mask, numpy.uint8)


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    return render_scene(labels, layout, rng)[0]


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    return {item: ("ring" if rng.random() < 0.45 else "clear") for item in layout.items}


register_renderer(SceneRenderer(GAME, render_plane, sample_labels, {}))
