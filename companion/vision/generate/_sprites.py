"""Drawing helpers shared by the Hornochsen, Asterion and Minoa scene renderers.

Pieces are drawn as sprites at a finer scale than the plane (anti-aliased, with
a soft shadow) and pasted turned and shifted, so that no two renders of a piece
are pixel-identical, as on a real table.
"""

from __future__ import annotations

import math

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame

SPRITE_PX_PER_MM = 2 * PLANE_PX_PER_MM
"""Sprites are drawn at twice the plane's resolution and shrunk when pasted (anti-aliasing)."""

FloatImage = numpy.typing.NDArray[numpy.float32]


def mm(value: float) -> float:
    """Millimetres to sprite pixels."""
    return value * SPRITE_PX_PER_MM


def blank_plane(size_px: tuple[int, int], bgr: tuple[int, int, int], rng: numpy.random.Generator) -> Frame:
    """A plane of one colour with a soft, low-frequency texture (felt, wood, printed card)."""
    width, height = size_px
    plane = numpy.empty((height, width, 3), numpy.float32)
    plane[:] = bgr
    plane += texture((height, width), rng, 6.0)[..., None]
    return numpy.clip(plane, 0, 255).astype(numpy.uint8)


def texture(shape: tuple[int, int], rng: numpy.random.Generator, strength: float) -> FloatImage:
    """Smooth random shading of +-`strength` grey levels (a coarse noise grid, upsampled)."""
    height, width = shape
    coarse = rng.normal(0.0, strength, (max(2, height // 24), max(2, width // 24))).astype(numpy.float32)
    fine = rng.normal(0.0, strength / 3, (height, width)).astype(numpy.float32)
    return numpy.asarray(cv2.resize(coarse, (width, height), interpolation=cv2.INTER_CUBIC) + fine)


def new_sprite(width_mm: float, height_mm: float) -> tuple[Frame, FloatImage]:
    """An empty sprite (black BGR) and its alpha mask (all transparent).

    Its sides are odd, so that its middle is a pixel: what is drawn round the middle is symmetric,
    and a sprite turned half round looks the same as one drawn turned.
    """
    width, height = math.ceil(mm(width_mm)) | 1, math.ceil(mm(height_mm)) | 1
    return numpy.zeros((height, width, 3), numpy.uint8), numpy.zeros((height, width), numpy.float32)


def rounded_rect_mask(alpha: FloatImage, radius_mm: float) -> None:
    """Fill the whole sprite's alpha as a rectangle with rounded corners."""
    height, width = alpha.shape
    r = max(1, round(mm(radius_mm)))
    mask = numpy.zeros((height, width), numpy.uint8)
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    alpha[:] = mask.astype(numpy.float32) / 255.0


def paste(
    plane: Frame,
    sprite: Frame,
    alpha: FloatImage,
    centre_mm: tuple[float, float],
    angle_deg: float = 0.0,
    shadow: float = 0.35,
) -> None:
    """Draw the sprite onto the plane, centred at `centre_mm`, turned counter-clockwise by `angle_deg`.

    A soft shadow (darkening by `shadow` at most) falls to the lower right, as under a lamp.
    """
    height, width = sprite.shape[:2]
    scale = PLANE_PX_PER_MM / SPRITE_PX_PER_MM
    cx, cy = centre_mm[0] * PLANE_PX_PER_MM, centre_mm[1] * PLANE_PX_PER_MM
    reach = math.ceil(math.hypot(width, height) * scale / 2) + 4
    x0, y0 = math.floor(cx) - reach, math.floor(cy) - reach
    side = 2 * reach
    middle = ((width - 1) / 2, (height - 1) / 2)  # pixel centres are at whole coordinates
    matrix = cv2.getRotationMatrix2D(middle, angle_deg, scale)
    matrix[0, 2] += cx - middle[0] - x0
    matrix[1, 2] += cy - middle[1] - y0
    patch = cv2.warpAffine(sprite, matrix, (side, side), flags=cv2.INTER_AREA).astype(numpy.float32)
    cover = cv2.warpAffine(alpha, matrix, (side, side), flags=cv2.INTER_LINEAR)
    # Clip the patch to the plane.
    ph, pw = plane.shape[:2]
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(pw, x0 + side), min(ph, y0 + side)
    if sx0 >= sx1 or sy0 >= sy1:
        return
    region = plane[sy0:sy1, sx0:sx1].astype(numpy.float32)
    patch = patch[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0]
    cover = cover[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0]
    if shadow > 0:
        offset = numpy.array([[1, 0, 2.5], [0, 1, 3.0]], numpy.float32)
        dark = cv2.warpAffine(cover, offset, (cover.shape[1], cover.shape[0]))
        dark = cv2.GaussianBlur(dark, (0, 0), 2.5) * shadow
        region *= (1.0 - dark)[..., None]
    region = region * (1.0 - cover[..., None]) + patch * cover[..., None]
    plane[sy0:sy1, sx0:sx1] = numpy.clip(region, 0, 255).astype(numpy.uint8)


def jitter(rng: numpy.random.Generator, shift_mm: float, turn_deg: float) -> tuple[float, float, float]:
    """A random placement error: (dx mm, dy mm, turn degrees), as a hand puts a piece down."""
    return (
        float(rng.uniform(-shift_mm, shift_mm)),
        float(rng.uniform(-shift_mm, shift_mm)),
        float(rng.uniform(-turn_deg, turn_deg)),
    )


def shade(
    bgr: tuple[int, int, int], rng: numpy.random.Generator, spread: float = 6.0
) -> tuple[int, int, int]:
    """The colour with a small random variation, as between two printed or painted pieces."""
    b, g, r = (int(numpy.clip(c + rng.normal(0, spread), 0, 255)) for c in bgr)
    return (b, g, r)
