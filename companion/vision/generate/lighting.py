"""Light in the room: a lamp of some colour temperature above the table, daylight, shadows, glare.

The lamp is a small sphere at a point above the table: the light it puts on the table falls off
with the cosine of the angle of incidence over the distance squared, so a low lamp lights its
side of the table visibly more than the other. Daylight (ambient) is even and bluer. Solids and
arms between the lamp and the table cast shadows whose edges soften with the height of what casts
them (the lamp's size, seen from the table). A glossy top mirrors the lamp where the angle is right
(Blinn-Phong). Light drifts slowly within a session: a cloud passes, the lamp is switched on.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy
import numpy.typing

from companion.vision.generate.solids import Solid
from companion.vision.generate.world import Camera, FloatImage

Rng = numpy.random.Generator
FloatArray = numpy.typing.NDArray[numpy.float64]

KELVIN_BGR = (
    (2700.0, (0.52, 0.76, 1.0)),
    (4000.0, (0.78, 0.91, 1.0)),
    (5000.0, (0.9, 0.96, 1.0)),
    (6500.0, (1.0, 0.99, 0.96)),
)
"""Colour temperature → the light's relative B, G, R (incandescent and warm LED to daylight)."""
SHADOW_SCALE = 4
"""Shadows are drawn at a quarter of the frame's size: they are soft and need no detail."""


def colour_of(kelvin: float) -> FloatArray:
    """The relative BGR of light of the colour temperature, interpolated in KELVIN_BGR."""
    temperatures = [t for t, _ in KELVIN_BGR]
    return numpy.array(
        [numpy.interp(kelvin, temperatures, [c[channel] for _, c in KELVIN_BGR]) for channel in range(3)]
    )


@dataclasses.dataclass(frozen=True)
class Lighting:
    """A session's light: one lamp and the daylight, at the play area's middle adding up to `level`."""

    lamp_mm: FloatArray
    """The lamp's position: x, y and height above the table."""
    lamp_radius_mm: float
    lamp_bgr: FloatArray
    daylight_bgr: FloatArray
    lamp_share: float
    """How much of the light at the play area's middle comes from the lamp (the rest is daylight)."""
    level: float
    centre_mm: tuple[float, float]

    def lamp_irradiance(
        self, x: FloatArray | FloatImage, y: FloatArray | FloatImage, z: float = 0.0
    ) -> FloatArray:
        """The lamp's light on a level surface at (x, y, z), 1 at the play area's middle on the table."""

        def raw(
            px: FloatArray | FloatImage | float, py: FloatArray | FloatImage | float, pz: float
        ) -> FloatArray:
            dx, dy, dz = self.lamp_mm[0] - px, self.lamp_mm[1] - py, self.lamp_mm[2] - pz
            return numpy.asarray(dz / numpy.power(dx * dx + dy * dy + dz * dz, 1.5), numpy.float64)

        return raw(x, y, z) / raw(self.centre_mm[0], self.centre_mm[1], 0.0)

    def shade_face(self, albedo_bgr: FloatArray, normal: FloatArray, point_mm: FloatArray) -> FloatArray:
        """A face's colour (frame units, before the sensor) lit by daylight from above and the lamp."""
        towards = self.lamp_mm - point_mm
        distance = float(numpy.linalg.norm(towards))
        incidence = max(0.0, float(normal @ towards) / distance)
        level_here = float(
            self.lamp_irradiance(numpy.array(point_mm[0]), numpy.array(point_mm[1]), float(point_mm[2]))
        )
        # lamp_irradiance is for a level surface: divide its cosine out, put the face's in.
        vertical = max((self.lamp_mm[2] - point_mm[2]) / distance, 1e-3)
        lamp = self.lamp_share * level_here / vertical * incidence
        daylight = (1 - self.lamp_share) * (0.6 + 0.4 * max(0.0, float(normal[2])))
        light = self.level * (lamp * self.lamp_bgr + daylight * self.daylight_bgr)
        return numpy.asarray(albedo_bgr * light, numpy.float64)


def choose_lighting(centre_mm: tuple[float, float], span_mm: float, rng: Rng, hard: bool) -> Lighting:
    """A lamp somewhere above and beside the play area (`span_mm` across), warm or cool, and daylight."""
    angle = rng.uniform(0, 2 * math.pi)
    reach = rng.uniform(0.2, 1.2) * span_mm
    height = rng.uniform(500, 1400) if hard else rng.uniform(700, 1500)
    lamp = numpy.array(
        [centre_mm[0] + reach * math.cos(angle), centre_mm[1] + reach * math.sin(angle), height]
    )
    kelvin = rng.uniform(2700, 6500)
    return Lighting(
        lamp_mm=lamp,
        lamp_radius_mm=float(rng.uniform(15, 120)),
        lamp_bgr=colour_of(kelvin),
        daylight_bgr=colour_of(rng.uniform(5500, 6500)),
        lamp_share=float(rng.uniform(0.3, 0.85)),
        level=float(rng.uniform(0.7, 1.15) if hard else rng.uniform(0.8, 1.1)),
        centre_mm=centre_mm,
    )


def drift(frames: int, rng: Rng, hard: bool) -> FloatArray:
    """Per frame (frames, 2): the lamp's and the daylight's gain. Mostly steady; sometimes a cloud
    dims the daylight for a while, or the lamp is switched on part way through."""
    gains = numpy.ones((frames, 2))
    t = numpy.arange(frames, dtype=numpy.float64)
    event = rng.random()
    if event < (0.35 if hard else 0.2):
        middle, width, depth = (
            rng.uniform(0, frames),
            rng.uniform(3, max(4.0, frames / 3)),
            rng.uniform(0.2, 0.5),
        )
        gains[:, 1] *= 1 - depth * numpy.exp(-(((t - middle) / width) ** 2))
    elif event < (0.55 if hard else 0.3):
        switched = rng.uniform(frames * 0.2, frames * 0.8)
        off = rng.uniform(0.0, 0.3)
        gains[:, 0] = off + (1 - off) / (1 + numpy.exp(-(t - switched) * 3.0))
    gains *= 1 + rng.normal(0, 0.01, (frames, 1))  # mains flicker and the sensor's exposure steps
    return gains


def ground_light(
    lighting: Lighting, camera: Camera, ground_x: FloatImage, ground_y: FloatImage
) -> tuple[FloatImage, FloatImage, FloatImage]:
    """For the frame's pixels on the table: the lamp's light, the daylight (both BGR, lens vignetting
    included) and the lamp's mirror image's strength for a fully glossy top (Blinn-Phong)."""
    x = numpy.nan_to_num(ground_x, nan=lighting.centre_mm[0])
    y = numpy.nan_to_num(ground_y, nan=lighting.centre_mm[1])
    lamp = lighting.lamp_irradiance(x, y).astype(numpy.float32)
    # A lens darkens its corners as the cosine to the fourth of the ray's angle.
    width, height = camera.frame_size
    u, v = numpy.meshgrid(numpy.arange(width, dtype=numpy.float32), numpy.arange(height, dtype=numpy.float32))
    focal = float(camera.matrix[0, 0])
    cos_ray = focal / numpy.sqrt(focal * focal + (u - width / 2) ** 2 + (v - height / 2) ** 2)
    vignette = (cos_ray**4) ** 0.5  # real modules correct about half of it
    scale = lighting.level * vignette
    lamp_bgr = (lamp * lighting.lamp_share * scale)[..., None] * lighting.lamp_bgr.astype(numpy.float32)
    day_bgr = ((1 - lighting.lamp_share) * scale)[..., None] * lighting.daylight_bgr.astype(numpy.float32)
    eye = camera.position_mm
    to_eye = numpy.stack([eye[0] - x, eye[1] - y, numpy.full_like(x, eye[2])], axis=-1)
    to_lamp = numpy.stack(
        [lighting.lamp_mm[0] - x, lighting.lamp_mm[1] - y, numpy.full_like(x, lighting.lamp_mm[2])], axis=-1
    )
    half = to_eye / numpy.linalg.norm(to_eye, axis=-1, keepdims=True) + to_lamp / numpy.linalg.norm(
        to_lamp, axis=-1, keepdims=True
    )
    cos_half = half[..., 2] / numpy.linalg.norm(half, axis=-1)
    shininess = 400.0 * 30.0 / max(lighting.lamp_radius_mm, 1.0)  # a big lamp shade: a wide, soft highlight
    glare = (numpy.power(cos_half, shininess) * lighting.lamp_share * lighting.level).astype(numpy.float32)
    return lamp_bgr.astype(numpy.float32), day_bgr.astype(numpy.float32), glare


def shadow_mask(lighting: Lighting, camera: Camera, solids: list[Solid]) -> FloatImage:
    """How much of the lamp reaches each frame pixel's patch of table (1: all, 0: in full shadow)."""
    width, height = camera.frame_size
    small = (height // SHADOW_SCALE + 1, width // SHADOW_SCALE + 1)
    lit = numpy.ones(small, numpy.float32)
    lamp = lighting.lamp_mm
    px_per_mm = _frame_px_per_mm(camera, lighting.centre_mm)
    for solid in solids:
        vertices = solid.vertices_mm
        above = numpy.clip(vertices[:, 2], 0.0, lamp[2] - 1.0)
        reach = lamp[2] / (lamp[2] - above)
        on_table = lamp[:2] + (vertices[:, :2] - lamp[:2]) * reach[:, None]
        pixels = camera.project(numpy.concatenate([on_table, numpy.zeros((len(vertices), 1))], axis=1))
        mask = numpy.zeros(small, numpy.float32)
        for face in solid.faces:
            corners = pixels[list(face)]
            if numpy.isnan(corners).any():
                continue
            cv2.fillPoly(
                mask,
                [numpy.round(corners * 16 / SHADOW_SCALE).astype(numpy.int32)],
                1.0,
                cv2.LINE_AA,
                shift=4,
            )
        # Penumbra: the lamp's width as seen past the solid, at the solid's typical height.
        height_mm = float(numpy.median(above))
        penumbra_mm = lighting.lamp_radius_mm * height_mm / max(lamp[2] - height_mm, 1.0)
        sigma = max(0.5, penumbra_mm * px_per_mm / SHADOW_SCALE)
        lit = numpy.minimum(lit, 1.0 - numpy.asarray(cv2.GaussianBlur(mask, (0, 0), sigma), numpy.float32))
    full = cv2.resize(lit, (width, height), interpolation=cv2.INTER_LINEAR)
    return numpy.asarray(numpy.clip(full, 0.0, 1.0), numpy.float32)


def _frame_px_per_mm(camera: Camera, at_mm: tuple[float, float]) -> float:
    """How many frame pixels a millimetre of table at `at_mm` spans."""
    points = numpy.array([[at_mm[0], at_mm[1], 0.0], [at_mm[0] + 10.0, at_mm[1], 0.0]])
    pixels = camera.project(points)
    return float(numpy.linalg.norm(pixels[1] - pixels[0])) / 10.0
