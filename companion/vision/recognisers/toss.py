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
"""Teaching samples the plate around each horn's base along rays this far out (the ring's cord lies there)."""
RING_HOLE_MM = 30.0
"""The ring's inner radius."""
RING_OFF_AXIS_MM = RING_HOLE_MM - HORN_RADIUS_MM
"""How far from the horn's axis the centre of a ring lying round it can be (18 mm: the horn is 12 mm
at its base)."""
CIRCLE_RADII_MM = (30.5, 32.5, 34.5)
"""Where a ring lying on the collar plate shows its cord around its centre: on the plane the pipeline
reads (the plate's own), a ring resting on it is seen at its true size from any camera pose, so its
5 mm cord spans 30-35 mm; an error of the calibration or the lens shifts the ring, which the circles'
centres follow, but hardly scales it. (Sampled out to 29-36 mm, a ring leaning on the horn with its
shadow beside it filled more of a circle, and no ring round a horn did.)"""
HOLE_MM = 22.0
"""Inside a ring lying round a horn, this far from its centre, is its hole: the plate and the horn,
which a normalised plane no longer shows. A rope is a thin line; a ring leaning on the horn seen with
its shadow on a plate of its shade, or the shadow alone, is a broad blob that reaches in there too."""
CIRCLE_STEP_MM = 2.0
CIRCLE_ANGLES = 72
MIN_CIRCLE = 0.9
"""A horn wears a ring when some circle of the ring's size, centred where a ring around the horn can
lie, meets cord in this share of its directions. On the camera's own plane the horn stands out as cord
does, so a ring round it fills that circle (97-100% on generated 3-D sessions); a ring leaning on the
horn stands up and is seen as a narrow ellipse, and one beside it is off centre, so with the horn and
shadows they fill 85% at most but for two rings either side of it."""
MIN_CIRCLE_NORMALISED = 0.8
"""The same on a plane normalised against the empty figure: the horn is gone from it, and so is the
cord it hides, so a ring round it fills 80-100% of the circle (less where a light rope crosses a light
horn, or where a camera tilted 20-25 degrees sees the tall horn hide a quarter of the ring). There the
circle must be filled by rope of one hue that leaves the ring's hole free (`HOLE_MM`): leaners, rings
beside the horn and their shadows then fill 75% at most in generated hard sessions (90% and more
without those tests). A ring held up on a horn's tip or on the other rings can still look like one
lying round it."""
ROUND_ASPECT = 1.095
"""A ring lying round a horn is seen on the plate's plane as a circle: the ellipse fitted to its cord's
middle (`drawn_out`) is at most 1.082 times as long as wide in the 956 rings whose circle test passed in
generated hard sessions (dev 2 31 47 64 77, burnt 20261141 44 50 55 56). A ring standing up against the
horn may pass it all the same, its tilt and the parallax of its raised side drawing it out round the base
(burnt 20261156 light wood session 00 frame 8, 0.86 of the circle; 20261155 felt session 13 frame 13,
0.83), but its ellipse is 1.11-1.16 times as long as wide. Such a circle's share is lowered in
proportion, below `MIN_CIRCLE_NORMALISED`."""
ROPE_BAND_MM = (26.0, 39.0)
"""Around the circle's centre, where a ring's cord is looked for to fit its ellipse: its 30-35 mm and
what a leaner's tilt moves it by."""
BAND_STEP_MM = 0.5
HUE_GROUPS = 3
"""On a normalised plane the cord around a horn is split into this many hues (k-means on Lab's a and b):
the rope, and the shadows on the plate, of a colour or two."""
SAME_HUE = 15.0
"""Cord within this (Lab a-b distance) of a group's hue is that group's: a rope's lit and shaded sides
and JPEG's colour noise stay within it."""
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
BoolArray = numpy.typing.NDArray[numpy.bool_]


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


CIRCLE_REACH_MM = round(RING_OFF_AXIS_MM + max(CIRCLE_RADII_MM) + 6)
"""Half the square read around a horn's base for the circle test (1 px per mm there: the cord is 5 px)."""


@functools.cache
def _circle_samples(
    radii_mm: tuple[float, ...] = CIRCLE_RADII_MM,
) -> tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]]:
    """(x, y) in the square around a horn's base of every circle's samples: (centres, angles, radii)."""
    cx, cy = _circle_centres()
    angles = numpy.linspace(0.0, 2 * numpy.pi, CIRCLE_ANGLES, endpoint=False)[None, :, None]
    radii = numpy.array(radii_mm)[None, None, :]
    xs = cx[:, None, None] + numpy.cos(angles) * radii
    ys = cy[:, None, None] + numpy.sin(angles) * radii
    return numpy.round(xs).astype(numpy.intp), numpy.round(ys).astype(numpy.intp)


@functools.cache
def _circle_centres() -> tuple[FloatArray, FloatArray]:
    """(x, y) in the square around a horn's base of every centre a ring lying round the horn can have."""
    reach = RING_OFF_AXIS_MM
    steps = numpy.arange(-reach, reach + 1e-6, CIRCLE_STEP_MM)
    cx, cy = numpy.meshgrid(steps, steps)
    inside = numpy.hypot(cx, cy) <= reach
    return (
        numpy.asarray(cx[inside] + CIRCLE_REACH_MM, numpy.float32),
        numpy.asarray(cy[inside] + CIRCLE_REACH_MM, numpy.float32),
    )


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


def circle_coverage(palette: RingPalette | None, square: Frame, one_colour: bool = False) -> float:
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
    if not one_colour or filled < MIN_CIRCLE_NORMALISED:
        return filled
    return round_circle([(*thin_circle(group), group) for group in one_hue_groups(lab, cord)])


def thin_circle(cord: BoolArray) -> tuple[float, int]:
    """The largest share of directions in which a circle of the ring's size meets this cord while the
    ring's hole does not (`HOLE_MM`, same centre, same direction): a rope, not a blob; and which centre
    (of `_circle_centres`) gives it."""
    xs, ys = _circle_samples()
    hole_xs, hole_ys = _circle_samples((HOLE_MM,))
    line = cord[ys, xs].any(axis=2) & ~cord[hole_ys, hole_xs][:, :, 0]
    shares = line.mean(axis=1)
    best = int(shares.argmax())
    return float(shares[best]), best


def round_circle(circles: list[tuple[float, int, BoolArray]]) -> float:
    """The largest of `thin_circle`'s shares (share, centre, cord), lowered where the cord that fills it
    is drawn out (`ROUND_ASPECT`): a ring standing up against the horn, not one lying round it. The
    ellipses are fitted from the fullest circle down, and only until one is round."""
    best = max(share for share, _, _ in circles)
    if best < MIN_CIRCLE_NORMALISED:
        return best
    lowered = 0.0
    for share, centre, cord in sorted(circles, key=lambda circle: -circle[0]):
        if share < max(lowered, MIN_CIRCLE_NORMALISED):
            break
        aspect = drawn_out(cord, centre)
        if aspect <= ROUND_ASPECT:
            return max(share, lowered)
        lowered = max(lowered, MIN_CIRCLE_NORMALISED * ROUND_ASPECT / aspect)
    return lowered


def drawn_out(cord: BoolArray, centre: int) -> float:
    """Long over short axis of the ellipse fitted to the cord's middle (its median distance) along each
    of `CIRCLE_ANGLES` rays from a circle's centre, within `ROPE_BAND_MM`: each direction counts once,
    however broad the cord or a blob beside it is there."""
    dx, dy, radii = _band_rays()
    cx, cy = (float(c[centre]) for c in _circle_centres())
    hits = cord[numpy.round(cy + dy).astype(numpy.intp), numpy.round(cx + dx).astype(numpy.intp)]
    counts = hits.sum(axis=1)
    seen = counts > 0
    if seen.sum() < 5:
        return 1.0
    middle = radii[(numpy.cumsum(hits, axis=1) * 2 >= counts[:, None]).argmax(axis=1)][seen]
    points = numpy.column_stack([dx[seen, 0], dy[seen, 0]]) / radii[0] * middle[:, None]
    _, axes, _ = cv2.fitEllipse(points.astype(numpy.float32))
    return max(axes) / max(min(axes), 1e-6)


@functools.cache
def _band_rays() -> tuple[FloatArray, FloatArray, FloatArray]:
    """(dx, dy) of `BAND_STEP_MM` steps along each direction's ray through `ROPE_BAND_MM`, and how far."""
    radii = numpy.arange(ROPE_BAND_MM[0], ROPE_BAND_MM[1] + 1e-6, BAND_STEP_MM)
    angles = numpy.linspace(0.0, 2 * numpy.pi, CIRCLE_ANGLES, endpoint=False)[:, None]
    return (
        numpy.asarray(numpy.cos(angles) * radii, numpy.float32),
        numpy.asarray(numpy.sin(angles) * radii, numpy.float32),
        numpy.asarray(radii, numpy.float32),
    )


def one_hue_groups(lab: FloatArray, cord: numpy.typing.NDArray[numpy.bool_]) -> list[BoolArray]:
    """The cord split by hue: one rope is one colour, lit or shaded, while the shadows a ring and the
    horn throw on the plate are the plate's colour darkened; so a ring's shadow, or a ring leaning on
    the horn with its shadow beside it, cannot fill a circle that one rope does not."""
    hues = lab[cord][:, 1:]
    if len(hues) < HUE_GROUPS * 4:
        return [cord]
    cv2.setRNGSeed(1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    _, _, centres = cv2.kmeans(  # type: ignore[call-overload]
        numpy.asarray(hues, numpy.float32), HUE_GROUPS, None, criteria, 1, cv2.KMEANS_PP_CENTERS
    )
    return [cord & (((lab[:, :, 1:] - centre) ** 2).sum(axis=2) <= SAME_HUE**2) for centre in centres]


@dataclasses.dataclass(frozen=True)
class HornLook:
    """What the circle test saw around one horn's base."""

    circle: float
    """The largest share of directions in which a circle of the ring's size around the base meets cord."""
    normalised: bool
    """The plane around the horn is the pipeline's normalised one: the empty figure learned at setup
    (horns included) replaced by one neutral colour, so only what was not there then remains."""
    taught: bool = False
    """Read with a taught palette, whose background colours keep the horn's own pixels out of the cord."""

    @property
    def threshold(self) -> float:
        # Where the horn counts as cord it fills the stretch of ring it hides; where it does not (gone
        # from a normalised plane, or taken for background by a taught palette) that stretch is missing.
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
    return HornLook(circle_coverage(palette, square, normalised), normalised, palette is not None)


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
