"""What spoils a real camera frame: uneven light, shadows, glare, colour cast, a hand, blur, noise, JPEG.

`spoil` applies them in the order light meets them: the light on the table
(uneven, shadowed, with glare), then the lens (blur, motion), then the sensor
(noise, white balance) and the encoder (JPEG). `hard=True` turns each one up.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame

Rng = numpy.random.Generator
FloatImage = numpy.typing.NDArray[numpy.float32]

SKIN_TONES_BGR = ((120, 150, 205), (95, 125, 180), (70, 95, 140), (50, 70, 105), (140, 170, 225))


def spoil(image: Frame, rng: Rng, *, hard: bool, motion: bool = False) -> bytes:
    """The frame as the camera would deliver it, JPEG-encoded."""
    height, width = image.shape[:2]
    light = _uneven_light(width, height, rng, hard)
    light *= _shadows(width, height, rng, hard)
    out = image.astype(numpy.float32) * light[..., None]
    out += _glare(width, height, rng, hard)[..., None] * (255.0 - numpy.clip(out, 0, 255))
    return sensor(out, rng, hard=hard, motion=motion)


def sensor(light: FloatImage, rng: Rng, *, hard: bool, motion: bool = False) -> bytes:
    """What the camera makes of the light reaching it (float BGR, 0-255 scale): white balance off a
    little, lens blur or motion, sensor noise, JPEG."""
    out = light * (
        rng.uniform(0.9, 1.1, 3).astype(numpy.float32)
        if hard
        else rng.uniform(0.95, 1.05, 3).astype(numpy.float32)
    )
    out = _blur(out, rng, hard, motion)
    sigma = rng.uniform(3.0, 7.0) if hard else rng.uniform(1.0, 3.5)
    out += rng.normal(0.0, sigma, size=out.shape).astype(numpy.float32)
    out += (
        numpy.sqrt(numpy.clip(out, 0, 255))
        * rng.normal(0.0, 0.35, size=out.shape[:2]).astype(numpy.float32)[..., None]
    )
    spoilt = numpy.clip(out, 0, 255).astype(numpy.uint8)
    quality = int(rng.integers(45, 76)) if hard else int(rng.integers(72, 93))
    ok, jpeg = cv2.imencode(".jpg", spoilt, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - encoding a uint8 BGR image does not fail
        raise RuntimeError("JPEG encoding failed")
    return jpeg.tobytes()


def decode_jpeg(data: bytes) -> Frame:
    image = cv2.imdecode(numpy.frombuffer(data, dtype=numpy.uint8), cv2.IMREAD_COLOR)
    return numpy.asarray(image, dtype=numpy.uint8)


def _grid(width: int, height: int) -> tuple[FloatImage, FloatImage]:
    x = numpy.linspace(-1.0, 1.0, width, dtype=numpy.float32)[None, :]
    y = numpy.linspace(-1.0, 1.0, height, dtype=numpy.float32)[:, None]
    return x, y


def _uneven_light(width: int, height: int, rng: Rng, hard: bool) -> FloatImage:
    """A lamp off to one side: a gradient, a vignette and a brighter pool, overall brighter or darker."""
    x, y = _grid(width, height)
    slope = 0.25 if hard else 0.15
    light = 1.0 + rng.uniform(-slope, slope) * x + rng.uniform(-slope, slope) * y
    light = light - rng.uniform(0.05, 0.25 if hard else 0.15) * (x * x + y * y) / 2
    px, py = rng.uniform(-1, 1, 2)
    spread = rng.uniform(0.4, 1.2)
    light = light + rng.uniform(0.0, 0.25) * numpy.exp(-((x - px) ** 2 + (y - py) ** 2) / (2 * spread**2))
    level = rng.uniform(0.7, 1.15) if hard else rng.uniform(0.8, 1.1)
    return numpy.asarray(numpy.clip(light * level, 0.3, 1.5), dtype=numpy.float32)


def _soft_mask(
    width: int, height: int, polygon: numpy.typing.NDArray[numpy.int32], blur: float
) -> FloatImage:
    # Drawn at a quarter of the size: soft shapes need no detail, and this is 16 times less blurring.
    small = numpy.zeros((height // 4 + 1, width // 4 + 1), dtype=numpy.float32)
    cv2.fillPoly(small, [polygon // 4], 1.0)
    soft = cv2.GaussianBlur(small, (0, 0), max(blur / 4, 0.5))
    return numpy.asarray(
        cv2.resize(soft, (width, height), interpolation=cv2.INTER_LINEAR), dtype=numpy.float32
    )


def _shadows(width: int, height: int, rng: Rng, hard: bool) -> FloatImage:
    """Shadows of a head, an arm or a lamp's edge falling across the table."""
    light = numpy.ones((height, width), dtype=numpy.float32)
    for _ in range(int(rng.integers(0, 3 if hard else 2))):
        centre = rng.uniform((0, 0), (width, height))
        radii = rng.uniform(80, 380, 2)
        angles = numpy.sort(rng.uniform(0, 2 * numpy.pi, 7))
        wobble = rng.uniform(0.6, 1.0, 7)[:, None]
        points = centre + wobble * radii * numpy.stack([numpy.cos(angles), numpy.sin(angles)], axis=1)
        depth = rng.uniform(0.25, 0.5) if hard else rng.uniform(0.15, 0.35)
        mask = _soft_mask(width, height, points.astype(numpy.int32), rng.uniform(8, 40))
        light *= 1.0 - depth * mask
    return light


def _glare(width: int, height: int, rng: Rng, hard: bool) -> FloatImage:
    """Reflections of a lamp: bright soft blobs that wash colours towards white."""
    x, y = _grid(width, height)
    glare = numpy.zeros((height, width), dtype=numpy.float32)
    for _ in range(int(rng.integers(0, 3 if hard else 2))):
        px, py = rng.uniform(-0.9, 0.9, 2)
        sx, sy = rng.uniform(0.1, 0.3, 2)
        strength = rng.uniform(0.3, 0.6) if hard else rng.uniform(0.15, 0.4)
        glare += strength * numpy.exp(-(((x - px) / sx) ** 2 + ((y - py) / sy) ** 2) / 2)
    return numpy.asarray(numpy.clip(glare, 0.0, 0.45 if hard else 0.3), dtype=numpy.float32)


def _blur(image: FloatImage, rng: Rng, hard: bool, motion: bool) -> FloatImage:
    if motion:
        length = int(rng.integers(9, 25))
        kernel = numpy.zeros((length, length), dtype=numpy.float32)
        kernel[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        turned = numpy.asarray(cv2.warpAffine(kernel, turn, (length, length)), dtype=numpy.float32)
        turned /= max(float(turned.sum()), 1e-6)
        return numpy.asarray(cv2.filter2D(image, -1, turned), dtype=numpy.float32)
    sigma = rng.uniform(0.4, 1.6) if hard else rng.uniform(0.0, 1.0)
    if sigma < 0.3:
        return image
    return numpy.asarray(cv2.GaussianBlur(image, (0, 0), sigma), dtype=numpy.float32)


def hand(image: Frame, plane_quad: numpy.typing.NDArray[numpy.float64], rng: Rng) -> Frame:
    """A hand and forearm reaching from a frame edge to somewhere over the plane."""
    height, width = image.shape[:2]
    out = image.copy()
    target = plane_quad.mean(axis=0) + rng.uniform(-0.35, 0.35, 2) * (
        plane_quad.max(axis=0) - plane_quad.min(axis=0)
    )
    side = int(rng.integers(4))
    start = [
        (rng.uniform(0, width), -60.0),
        (width + 60.0, rng.uniform(0, height)),
        (rng.uniform(0, width), height + 60.0),
        (-60.0, rng.uniform(0, height)),
    ][side]
    skin = numpy.array(SKIN_TONES_BGR[int(rng.integers(len(SKIN_TONES_BGR)))], dtype=numpy.float64)
    skin = skin * rng.uniform(0.85, 1.1)
    direction = numpy.subtract(target, start)
    direction /= max(float(numpy.linalg.norm(direction)), 1e-6)
    palm_width = rng.uniform(70, 110)
    arm_colour = tuple(float(c) for c in (skin * 0.9))
    cv2.line(
        out, _point(start), _point(target - direction * palm_width * 0.5), arm_colour, int(palm_width * 0.9)
    )
    angle = float(numpy.degrees(numpy.arctan2(direction[1], direction[0])))
    cv2.ellipse(
        out,
        _point(target),
        (int(palm_width * 0.65), int(palm_width * 0.5)),
        angle,
        0,
        360,
        tuple(float(c) for c in skin),
        -1,
    )
    normal = numpy.array([-direction[1], direction[0]])
    for finger in range(int(rng.integers(2, 6))):
        offset = (finger - 1.5) * palm_width * 0.22
        base = target + direction * palm_width * 0.45 + normal * offset
        tip = base + direction * rng.uniform(40, 75) + normal * offset * 0.3
        cv2.line(out, _point(base), _point(tip), tuple(float(c) for c in skin * 0.97), int(palm_width * 0.17))
    shade = cv2.GaussianBlur(out, (0, 0), 1.2)
    return numpy.asarray(shade, dtype=numpy.uint8)


def _point(xy: numpy.typing.ArrayLike) -> tuple[int, int]:
    x, y = numpy.asarray(xy, dtype=numpy.float64)
    return (round(float(x)), round(float(y)))
