"""The toss: is there a ring around each horn of the bull figure? ("horn:left" → "ring" | "clear").

Seen from above, a ring around a horn surrounds the horn's base: rays cast
from the base outwards cross the ring's cord in (nearly) every direction,
whatever the ring's tilt or how far it sits off centre. A ring lying beside
a horn, or between the horns, crosses only the rays on its side (at most
about 90 degrees of them), and two such rings leave wide gaps between them.
So a horn wears a ring when no gap between rays that meet a cord is wider
than `MAX_GAP_DEG`.

The figure stands above the markers (the head is 40-80 mm tall unless the
markers lie on its collar): the layout's `raised_mm` makes the pipeline read
the plane of the collar plate, where rings rest, so each horn's base is at its
true place in the plane whatever the camera's height and tilt. What stands
higher (a ring tilted against the horn, the horn itself, leaning outwards)
is seen off its place by parallax, away from the camera; a ring around the
horn still surrounds the horn's base in the picture, and the horn's body
hides a stretch of cord behind it, which `MAX_GAP_DEG` allows for. On a
plane the pipeline normalised against the empty figure learned at setup, the
horns are gone (but not the cord they hide): there the share of the way round
that cord is seen decides (`MIN_CROSSING_NORMALISED`).

A sample is ring when it stands out from its ray's median colour (what lies
under the cord, whatever the collar's colour and the light): the reading does
not depend on the ring's, the figure's or the table's colours. A taught
profile adds a colour test (not much nearer the taught background than the
taught ring), and counts plainly ring-coloured samples even when they hardly
stand out. The built-in prototypes in toss_colours.json (written offline by
companion.vision.training.toss) are what teaching starts from.
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
HORN_RADIUS_MM = 12.0
RING_RADIUS_MM = 32.5
"""Radius of the ring's cord's centre line (a ring about 70 mm across with a 5 mm cord)."""
RING_CORD_MM = 5.0
RAYS = 36
RAY_FROM_MM = 13.0
RAY_TO_MM = 50.0
RAY_STEP_MM = 1.0
HITS_PER_RAY = 3
"""Ring pixels a ray must meet to count as crossing a cord (a cord is about 5 samples; one or two may be
noise)."""
MAX_GAP_DEG = 45.0
"""The widest gap between rays that cross a cord that still makes a ring around the horn (the horn's
body, seen at an angle, hides the cord behind it); a ring beside the horn leaves 250 degrees or more.
On generated 3-D sets (rays 10 degrees apart) rings mostly leave 0-30 degrees, clear horns 50 or more."""
MIN_CROSSING_NORMALISED = 0.75
"""On a normalised plane (the empty figure learned at setup, pipeline reference) a horn wears a ring when
this share of its rays cross cord: a ring around it is seen 80-100% of the way round (the horn hides the
rest), rings beside it 70% at most on generated 3-D sessions."""
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

FloatArray = numpy.typing.NDArray[numpy.float32]


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


@dataclasses.dataclass(frozen=True)
class HornLook:
    """What the rays from one horn's base saw."""

    gap_deg: float
    """The widest run of rays that cross no cord (360: none crosses)."""
    crossing: float
    """The share of rays that cross a cord."""
    normalised: bool
    """The plane around the horn is the pipeline's normalised one: the empty figure learned at setup
    (horns included) replaced by one neutral colour, so only what was not there then remains."""

    def ring(self) -> bool:
        if self.normalised:
            # The horn is gone from a normalised plane, but not the cord it hides: a ring around the
            # horn has a gap there, so what counts is how much of the way round cord is seen.
            return self.crossing >= MIN_CROSSING_NORMALISED
        return self.gap_deg <= MAX_GAP_DEG

    def confidence(self) -> float:
        """Sure when far from the threshold, either way."""
        if self.normalised:
            return round(min(1.0, 0.5 + abs(self.crossing - MIN_CROSSING_NORMALISED)), 3)
        return round(min(1.0, 0.5 + abs(self.gap_deg - MAX_GAP_DEG) / 180.0), 3)


def look_at_horn(palette: RingPalette | None, smoothed: Frame, centre_mm: tuple[float, float]) -> HornLook:
    """Cast the rays from a horn's base. Without a palette every sample that stands out counts as cord."""
    bgr = ray_pixels(smoothed, centre_mm)
    rays = _lab(bgr)
    ring = stands_out(rays) if palette is None else palette.is_ring(rays)
    crossing = ring.sum(axis=1) >= HITS_PER_RAY
    neutral = (numpy.abs(bgr.astype(numpy.int16) - numpy.array(NEUTRAL_BGR)) <= 1).all(axis=2)
    normalised = bool(neutral.mean() >= NEUTRAL_SHARE)
    if not crossing.any():
        return HornLook(360.0, 0.0, normalised)
    # Start just after a crossing ray so that no gap wraps around the end.
    start = int(numpy.flatnonzero(crossing)[0]) + 1
    widest = run = 0
    for hit in numpy.roll(crossing, -start).tolist():
        run = 0 if hit else run + 1
        widest = max(widest, run)
    return HornLook(widest * 360.0 / RAYS, float(crossing.mean()), normalised)


def widest_gap_deg(palette: RingPalette | None, smoothed: Frame, centre_mm: tuple[float, float]) -> float:
    """The widest run of rays from this horn's base that cross no cord, in degrees (360: none crosses)."""
    return look_at_horn(palette, smoothed, centre_mm).gap_deg


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
