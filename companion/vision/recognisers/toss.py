"""The toss: is there a ring around each horn of the bull figure? ("horn:left" → "ring" | "clear").

The figure stands above the markers (the head is 40-80 mm tall unless the
markers lie on its collar): the layout's `raised_mm` makes the pipeline read
the plane of the collar plate, where rings rest, so each horn's base is at its
true place in the plane whatever the camera's height and tilt, and a ring lying
on the plate is seen there at its true size. A ring around a horn lies on the
plate round the horn's base: its centre within 18 mm of the horn's axis (the
ring's hole is 30 mm in radius, the horn 12). So a horn wears a ring when a
circle of the ring's size, centred somewhere within those 18 mm, meets cord in
nearly every direction (`MIN_CIRCLE`). Rays cast from the base, as this module
did first, cannot tell such a ring from one leaning on the horn (standing up
against it, it is seen from above as a narrow ellipse that may surround the
base), nor from rings lying either side of it; neither fills such a circle.

What stands higher than the plate (a ring tilted against the horn, the horn
itself, leaning outwards) is seen off its place by parallax. On the camera's
own plane the horn stands out from the plate as cord does and fills the stretch
of ring it hides. On a plane the pipeline normalised against the empty figure
learned at setup, the horns are gone, and the cord they hide is missing: there
the circle has to be filled less (`MIN_CIRCLE_NORMALISED`).

A pixel is cord when it stands out from the median colour around the horn (the
plate, under whatever light): the reading does not depend on the ring's, the
figure's or the table's colours. A taught profile adds a colour test (not much
nearer the taught background than the taught ring), and counts plainly
ring-coloured pixels even when they hardly stand out. The built-in prototypes
in toss_colours.json (written offline by companion.vision.training.toss) are
what teaching starts from.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    VisionError,
    register_recogniser,
)
from companion.vision.recognisers._toss_circle import (
    CIRCLE_REACH_MM,
    MIN_CIRCLE_NORMALISED,
    MIN_ROUND_CIRCLE,
    FloatArray,
    _circle_samples,
    one_hue_groups,
    round_circle,
    thin_circle,
)
from companion.vision.reference import NEUTRAL_BGR

GAME = "toss"
HEAD_HALF_MM = (125.0, 70.0)
"""Half the bull's head's top (hardware/figure.json): the collar plate covers it."""
HORN_SPACING_MM = 110.0
"""Between the horns' axes where they leave the head (FACTS)."""
PLANE_MARGIN_MM = {"collar": 50.0, "table": 85.0}
"""The play area's margin around the head, by where the markers lie: on tabs of the collar plate, just
outside the head; or on the table, far enough out that the head (40-80 mm tall) hides none of them from
a camera tilted up to 30 degrees."""
FIGURE_HEIGHT_MM = {"collar": 0.0, "table": 60.0}
"""Default height of the rings' rest plane (the collar plate's top) above the markers: none when they
lie on the collar; the head's height (hardware/figure.json) when they lie on the table."""
FIGURE_HEIGHT_RANGE_MM = {"collar": (-15.0, 15.0), "table": (20.0, 150.0)}
RING_RADIUS_MM = 32.5
"""Radius of the ring's cord's centre line (a ring about 70 mm across with a 5 mm cord)."""
RING_CORD_MM = 5.0
RAYS = 36
RAY_FROM_MM = 13.0
RAY_TO_MM = 50.0
RAY_STEP_MM = 1.0
"""Teaching samples the plate around each horn's base along rays this far out (the ring's cord lies there)."""
MIN_CIRCLE = 0.9
"""A horn wears a ring when some circle of the ring's size, centred where a ring around the horn can
lie, meets cord in this share of its directions. On the camera's own plane the horn stands out as cord
does, so a ring round it fills that circle (97-100% on generated 3-D sessions); a ring leaning on the
horn stands up and is seen as a narrow ellipse, and one beside it is off centre, so with the horn and
shadows they fill 85% at most but for two rings either side of it."""
NEUTRAL_SHARE = 0.3
"""The plane around a horn is taken for a normalised one when this share of its samples is the neutral
colour the reference puts where the empty figure was (a camera picture is never that flat)."""
STAND_OUT = 12.0
"""How far (weighted Lab) a sample must be from its ray's median colour to be anything on top of it."""
RING_NOT_BACKGROUND = 6.0
"""A ring sample may be this much farther (squared) from the ring prototypes than from the background's:
the stand-out test does most of the work; this one keeps the horns' own pixels out."""
RING_PLAINLY = 4.0
"""A sample this many times (squared) nearer the taught ring's colours than the background's is cord even
when it hardly stands out: that is what teaching the user's rope is for."""
LIGHTNESS_WEIGHT = 0.5
PROTOTYPES_PER_CLASS = 24
TEACH_KEEP = 12


class TossVisionError(VisionError):
    """Labels the toss recogniser cannot use."""


def toss_layout(options: Mapping[str, Any] | None = None) -> Layout:
    """The toss's play area for the setup options: `markers` "collar" (printed on tabs of the collar
    plate, default) or "table" (around the figure), and `figure_height_mm`, the collar plate's height
    above the markers (where rings rest; read as the raised plane)."""
    options = options or {}
    markers = options.get("markers", "collar")
    if markers not in PLANE_MARGIN_MM:
        raise TossVisionError(f"toss option markers is 'collar' or 'table', not {markers!r}")
    try:
        height = float(options.get("figure_height_mm", FIGURE_HEIGHT_MM[markers]))
    except (TypeError, ValueError):
        raise TossVisionError(
            f"toss option figure_height_mm must be a number of mm, not {options['figure_height_mm']!r}"
        ) from None
    low, high = FIGURE_HEIGHT_RANGE_MM[markers]
    if not low <= height <= high:
        raise TossVisionError(
            f"with the markers on the {markers}, figure_height_mm is {low:g} to {high:g} mm, not {height:g}"
        )
    margin = PLANE_MARGIN_MM[markers]
    width, depth = 2 * (HEAD_HALF_MM[0] + margin), 2 * (HEAD_HALF_MM[1] + margin)
    reach = 2 * RAY_TO_MM
    items = {
        f"horn:{side}": ItemRegion((width / 2 + sign * HORN_SPACING_MM / 2, depth / 2), (reach, reach))
        for side, sign in (("left", -1.0), ("right", 1.0))
    }
    return Layout((width, depth), items, raised_mm=height)


@functools.cache
def _ray_offsets() -> tuple[FloatArray, FloatArray]:
    """(dx, dy) in plane pixels of each sample, shape (RAYS, samples)."""
    angles = numpy.linspace(0.0, 2 * numpy.pi, RAYS, endpoint=False)[:, None]
    radii = numpy.arange(RAY_FROM_MM, RAY_TO_MM + 1e-6, RAY_STEP_MM)[None, :] * PLANE_PX_PER_MM
    return (
        numpy.asarray(numpy.cos(angles) * radii, numpy.float32),
        numpy.asarray(numpy.sin(angles) * radii, numpy.float32),
    )


def plane_lab(plane: Frame) -> FloatArray:
    """The plane in 8-bit Lab (float), lightly smoothed against sensor noise."""
    return numpy.asarray(cv2.cvtColor(smooth(plane), cv2.COLOR_BGR2LAB), numpy.float32)


def smooth(plane: Frame) -> Frame:
    """The plane lightly smoothed against sensor noise (as `plane_lab` does before converting)."""
    return numpy.asarray(cv2.blur(plane, (3, 3)), numpy.uint8)


def ray_pixels(smoothed: Frame, centre_mm: tuple[float, float]) -> Frame:
    """The plane's pixels along every ray from a horn's base, shape (RAYS, samples, 3)."""
    dx, dy = _ray_offsets()
    height, width = smoothed.shape[:2]
    xs = numpy.clip(numpy.round(centre_mm[0] * PLANE_PX_PER_MM + dx).astype(numpy.intp), 0, width - 1)
    ys = numpy.clip(numpy.round(centre_mm[1] * PLANE_PX_PER_MM + dy).astype(numpy.intp), 0, height - 1)
    return numpy.ascontiguousarray(smoothed[ys, xs])


def _lab(pixels: Frame) -> FloatArray:
    # Only the sampled pixels are converted to Lab: a few thousand instead of the whole plane.
    lab = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).astype(numpy.float32)
    return numpy.asarray(lab.reshape(pixels.shape), numpy.float32)


def ray_samples(smoothed: Frame, centre_mm: tuple[float, float]) -> FloatArray:
    """The Lab pixels along every ray from a horn's base, shape (RAYS, samples, 3)."""
    return _lab(ray_pixels(smoothed, centre_mm))


def _nearest_squared(points: FloatArray, prototypes: FloatArray) -> FloatArray:
    """Squared distance from each point to its nearest prototype (|x|^2 - 2 x.p + |p|^2, as one product)."""
    cross = numpy.einsum("ij,kj->ik", points, prototypes)
    squared = (points**2).sum(axis=1)[:, None] - 2 * cross + (prototypes**2).sum(axis=1)[None, :]
    return numpy.asarray(numpy.maximum(squared.min(axis=1), 0.0), numpy.float32)


def _weighted(pixels: FloatArray) -> FloatArray:
    return numpy.asarray(
        pixels.reshape(-1, 3) * numpy.array([LIGHTNESS_WEIGHT, 1.0, 1.0], numpy.float32), numpy.float32
    )


@dataclasses.dataclass(frozen=True)
class RingPalette:
    ring: FloatArray
    background: FloatArray

    @staticmethod
    def of(colours: Mapping[str, list[list[float]]]) -> RingPalette:
        ring, background = colours.get("ring", []), colours.get("background", [])
        if not ring or not background:
            raise TossVisionError("the toss needs colour prototypes of both 'ring' and 'background'")
        return RingPalette(
            _weighted(numpy.array(ring, numpy.float32)), _weighted(numpy.array(background, numpy.float32))
        )

    def is_ring(self, rays: FloatArray) -> numpy.typing.NDArray[numpy.bool_]:
        """Which samples (rays, samples, 3) are ring: unlike their ray's median and not background-
        coloured, or plainly the taught ring's colour (a rope little unlike the collar still is)."""
        flat = _weighted(rays)
        to_ring = _nearest_squared(flat, self.ring).reshape(rays.shape[:-1])
        to_background = _nearest_squared(flat, self.background).reshape(rays.shape[:-1])
        plainly_ring = to_ring * RING_PLAINLY < to_background
        return numpy.asarray(
            (stands_out(rays) & (to_ring < to_background * RING_NOT_BACKGROUND)) | plainly_ring
        )


def stands_out(rays: FloatArray) -> numpy.typing.NDArray[numpy.bool_]:
    """Which samples (rays, samples, 3) are unlike their ray's median: something on the collar plate."""
    flat = _weighted(rays).reshape(rays.shape)
    medians = _weighted(numpy.median(rays, axis=1))
    return numpy.asarray(((flat - medians[:, None, :]) ** 2).sum(axis=2) > STAND_OUT**2)


def around_base(smoothed: Frame, centre_mm: tuple[float, float]) -> Frame:
    """The square of the plane around a horn's base at 1 px per mm (edges repeated beyond the plane)."""
    size = round(2 * CIRCLE_REACH_MM * PLANE_PX_PER_MM)
    x0 = round((centre_mm[0] - CIRCLE_REACH_MM) * PLANE_PX_PER_MM)
    y0 = round((centre_mm[1] - CIRCLE_REACH_MM) * PLANE_PX_PER_MM)
    height, width = smoothed.shape[:2]
    left, top = max(0, x0), max(0, y0)
    right, bottom = min(width, x0 + size), min(height, y0 + size)
    if right <= left or bottom <= top:
        raise TossVisionError(f"the horn at {centre_mm} mm lies outside the plane")
    square = cv2.copyMakeBorder(
        smoothed[top:bottom, left:right],
        top - y0,
        y0 + size - bottom,
        left - x0,
        x0 + size - right,
        cv2.BORDER_REPLICATE,
    )
    side = 2 * CIRCLE_REACH_MM
    return numpy.asarray(cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA), numpy.uint8)


def circle_coverage(
    palette: RingPalette | None, square: Frame, one_colour: bool = False
) -> tuple[float, bool]:
    """The largest share of directions in which a circle of the ring's size, centred where a ring
    around the horn can lie, meets cord (what stands out from the square's median colour, the plate's;
    with a palette, what also looks like the taught rope). `one_colour`: the circle must be filled by
    cord of one hue (`one_hue_groups`) that leaves the ring's hole free (`thin_circle`), looked at only
    where cord of any hue would make a ring (those fill less, so below that the answer is clear either
    way, and the k-means is spared)."""
    # Converted as the square it is: OpenCV splits a one-pixel-wide column of 12k rows over threads,
    # which costs more than the conversion on a busy machine.
    lab = numpy.asarray(cv2.cvtColor(square, cv2.COLOR_BGR2LAB), numpy.float32)
    flat = lab.reshape(1, -1, 3)
    cord = (stands_out(flat) if palette is None else palette.is_ring(flat)).reshape(square.shape[:2])
    xs, ys = _circle_samples()
    filled = float(cord[ys, xs].any(axis=2).mean(axis=1).max())
    if not one_colour or filled < MIN_ROUND_CIRCLE:
        return filled, False
    return round_circle([(*thin_circle(group), group) for group in one_hue_groups(lab, cord)])


@dataclasses.dataclass(frozen=True)
class HornLook:
    """What the circle test saw around one horn's base."""

    circle: float
    """The largest share of directions in which a circle of the ring's size around the base meets cord."""
    normalised: bool
    """The plane around the horn is the pipeline's normalised one: the empty figure learned at setup
    (horns included) replaced by one neutral colour, so only what was not there then remains."""
    taught: bool = False
    round: bool = False
    """The cord filling the circle is round: a ring lying on the plate (`round_circle`)."""
    """Read with a taught palette, whose background colours keep the horn's own pixels out of the cord."""

    @property
    def threshold(self) -> float:
        # Where the horn counts as cord it fills the stretch of ring it hides; where it does not (gone
        # from a normalised plane, or taken for background by a taught palette) that stretch is missing.
        if self.round:
            return MIN_ROUND_CIRCLE
        return MIN_CIRCLE_NORMALISED if self.normalised or self.taught else MIN_CIRCLE

    def ring(self) -> bool:
        return self.circle >= self.threshold

    def confidence(self) -> float:
        """Sure when far from the threshold, either way."""
        return round(min(1.0, 0.5 + 2 * abs(self.circle - self.threshold)), 3)


def look_at_horn(palette: RingPalette | None, smoothed: Frame, centre_mm: tuple[float, float]) -> HornLook:
    """The circle test around a horn's base. Without a palette all that stands out counts as cord."""
    square = around_base(smoothed, centre_mm)
    neutral = (numpy.abs(square.astype(numpy.int16) - numpy.array(NEUTRAL_BGR)) <= 1).all(axis=2)
    normalised = bool(neutral.mean() >= NEUTRAL_SHARE)
    # On the camera's own plane the horn, whatever its colour, fills the stretch of ring it hides: only
    # on a normalised one (the horn gone) is the circle asked to be filled by one hue.
    circle, round_cord = circle_coverage(palette, square, normalised)
    return HornLook(circle, normalised, palette is not None, round_cord)


def _kmeans(rows: FloatArray, count: int) -> list[list[float]]:
    if len(rows) > count:
        cv2.setRNGSeed(1)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
        _, _, centres = cv2.kmeans(  # type: ignore[call-overload]
            numpy.asarray(rows, numpy.float32), count, None, criteria, 2, cv2.KMEANS_PP_CENTERS
        )
        rows = centres
    return [[round(float(v), 2) for v in row] for row in rows]


COLOURS_FILE = Path(__file__).with_name("toss_colours.json")
"""The built-in ring and background prototypes (CIELAB), learned offline from generated shots of the
figure by companion.vision.training.toss (this module never learns them: it does not import the
generator). Teaching uses the background ones as what a clear horn looks like until it has its own."""
REWRITE = ".venv/bin/python -m companion.vision.training toss"


@functools.cache
def default_colours() -> dict[str, list[list[float]]]:
    """The built-in ring and background prototypes, as shipped."""
    try:
        colours: dict[str, list[list[float]]] = json.loads(COLOURS_FILE.read_text())["colours"]
    except FileNotFoundError:
        raise TossVisionError(
            f"{COLOURS_FILE} is missing: the toss needs it; write it with {REWRITE}"
        ) from None
    except (OSError, ValueError, KeyError) as error:
        raise TossVisionError(
            f"{COLOURS_FILE} is not a colours file ({error!r}); write it with {REWRITE}"
        ) from None
    return colours


class TossRecogniser:
    game = GAME

    def __init__(self) -> None:
        self._palette_for: Profile | None = None
        self._palette: RingPalette | None = None

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return toss_layout(options)

    def _colours(self, profile: Profile | None) -> RingPalette | None:
        """The taught colours, with the built-in background where only the ring was taught; None
        (read by standing out alone) until a ring is taught."""
        if profile is None or not profile.colours.get("ring"):
            return None
        if self._palette is None or self._palette_for is not profile:
            colours = dict(default_colours())
            colours.update({k: v for k, v in profile.colours.items() if k in ("ring", "background") and v})
            self._palette, self._palette_for = RingPalette.of(colours), profile
        return self._palette

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        palette = self._colours(profile)
        smoothed = smooth(plane)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        for item, region in layout.items.items():
            look = look_at_horn(palette, smoothed, region.centre_mm)
            items[item] = "ring" if look.ring() else "clear"
            confidence[item] = look.confidence()
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the ring's and the figure's colours from a shot with known horns ("ring" or "clear").

        Around a clear horn every sampled pixel is background. Around a ringed horn the ring is what
        is unlike the background: those pixels become the ring's prototypes.
        """
        bad = {
            item: label
            for item, label in labels.items()
            if item not in layout.items or label not in ("ring", "clear")
        }
        if bad:
            raise TossVisionError(f"toss labels are horn:left/horn:right → ring|clear, not {bad}")
        smoothed = smooth(plane)
        samples = {
            item: ray_samples(smoothed, layout.items[item].centre_mm).reshape(-1, 3) for item in labels
        }
        clear = [samples[item] for item, label in labels.items() if label == "clear"]
        ringed = [samples[item] for item, label in labels.items() if label == "ring"]
        colours = {k: [list(p) for p in v] for k, v in profile.colours.items()}
        background = list(colours.get("background", []))
        if clear:
            background = (background + _kmeans(numpy.concatenate(clear), 6))[-TEACH_KEEP:]
        if ringed:
            reference = background or default_colours()["background"]
            pixels = numpy.concatenate(ringed)
            nearest = _nearest_squared(_weighted(pixels), _weighted(numpy.array(reference, numpy.float32)))
            unlike = pixels[nearest > numpy.percentile(nearest, 90)]  # the cord is ~13% of the samples
            colours["ring"] = (list(colours.get("ring", [])) + _kmeans(unlike, 4))[-TEACH_KEEP:]
        if background:
            colours["background"] = background
        return dataclasses.replace(profile, colours=colours, shots=profile.shots + 1)


register_recogniser(GAME, TossRecogniser)
