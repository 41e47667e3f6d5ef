"""The toss's circle test: where a ring lying round a horn shows its cord on the collar plate's plane,
and which cord makes such a ring (one hue, a thin line, round); `toss` reads the horns with it."""

from __future__ import annotations

import functools

import cv2
import numpy
import numpy.typing

FloatArray = numpy.typing.NDArray[numpy.float32]
BoolArray = numpy.typing.NDArray[numpy.bool_]

HORN_RADIUS_MM = 12.0
"""The horn's radius at its base."""
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
MIN_CIRCLE_NORMALISED = 0.8
"""The share of its directions in which a circle of the ring's size must meet cord (as `toss.MIN_CIRCLE`
asks on the camera's own plane) on a plane normalised against the empty figure: the horn is gone from
it, and so is the cord it hides, so a ring round it fills 80-100% of the circle (less where a light
rope crosses a light horn, or where a camera tilted 20-25 degrees sees the tall horn hide a quarter of
the ring). There the circle must be filled by rope of one hue that leaves the ring's hole free
(`HOLE_MM`): leaners, rings beside the horn and their shadows then fill 75% at most in generated hard
sessions (90% and more without those tests). A ring held up on a horn's tip or on the other rings can
still look like one lying round it."""
ROUND_ASPECT = 1.095
"""A ring lying round a horn is seen on the plate's plane as a circle: the ellipse fitted to its cord's
middle (`drawn_out`) is at most 1.082 times as long as wide in the 956 rings whose circle test passed in
generated hard sessions (dev 2 31 47 64 77, burnt 20261141 44 50 55 56). A ring standing up against the
horn may pass it all the same, its tilt and the parallax of its raised side drawing it out round the base
(burnt 20261156 light wood session 00 frame 8, 0.86 of the circle; 20261155 felt session 13 frame 13,
0.83), but its ellipse is 1.11-1.16 times as long as wide. Such a circle's share is lowered in
proportion, below `MIN_CIRCLE_NORMALISED`."""
FULL_CIRCLE = 0.9
"""A circle filled this far (what `toss.MIN_CIRCLE` asks on the camera's own plane) is taken for round
unmeasured: the leaners drawn out round the base filled 0.83-0.86, and a ring lying round the horn filling
0.93 was drawn out 1.10 (burnt 20261150 laminate session 09 frame 3, its cord's middle pulled by the
horn's parallax)."""
MIN_ROUND_CIRCLE = 0.75
"""Where the cord filling the circle is round (a ring lying on the plate, not standing up), it may fill
this share only: a camera tilted 20-25 degrees sees a tall horn tilted towards it hide a quarter of a
ring round it (burnt 20261156 linen session 10 frame 3, 0.79; 20261150 light wood session 00 frame 10,
0.75, ellipses 1.04 long over wide), while the clear horns filling 0.69-0.76 in the same sessions were
drawn out 1.17-1.25."""
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


def round_circle(circles: list[tuple[float, int, BoolArray]]) -> tuple[float, bool]:
    """The largest of `thin_circle`'s shares (share, centre, cord), and whether its cord is round: a
    drawn-out one (`ROUND_ASPECT`, asked below `FULL_CIRCLE`), a ring standing up against the horn and
    not one lying round it, has its share lowered. The ellipses are fitted from the fullest circle down,
    and only until one is round (one filling `MIN_ROUND_CIRCLE` will do)."""
    best = max(share for share, _, _ in circles)
    if best < MIN_ROUND_CIRCLE:
        return best, False
    lowered = 0.0
    for share, centre, cord in sorted(circles, key=lambda circle: -circle[0]):
        if share < MIN_ROUND_CIRCLE:
            break
        if share >= FULL_CIRCLE:
            return share, True
        aspect = drawn_out(cord, centre)
        if aspect <= ROUND_ASPECT:
            return share, True
        lowered = max(lowered, min(share, MIN_CIRCLE_NORMALISED) * ROUND_ASPECT / aspect)
    return max([lowered, *(share for share, _, _ in circles if share < MIN_ROUND_CIRCLE)]), False


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
