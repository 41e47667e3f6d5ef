"""An arm the band sees only by its sides (hand_check.py's last test): a sleeve of the lit table's very
colour (a red sleeve over dark wood under a warm lamp) matches the table under the band's own light, which
takes it in as light; only its two outlines crossing the band side by side, an arm's width apart, and the
table's grain gone between them tell it. A player's shadow cast by an arm beyond the band has such
outlines too, but keeps the grain. An arm lit from one side, the rest of it taken in by that light too,
shows a brighter and a darker region side by side (`lit_and_shaded`), where a shadow's edge steps one way.
Separate from _surround_crossing.py: it pairs sides rather than following a changed region."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy
import numpy.typing

from companion.vision.table_light import Floats, Mask

SLEEVE_MIN_MM = 40.0
"""Two outlines crossing the band this far apart at least along its edge are an arm's sides (a wrist, the
thinnest part of an arm, some 50 mm)."""
SLEEVE_MAX_MM = 160.0
"""... and this far at most (a sleeve at its elbow, seen obliquely)."""
SLEEVE_PARALLEL_MM = 20.0
"""How much further one side than the other may run along the band's edge across it (an arm's sides
are parallel)."""
SLEEVE_TOUCH_PX = 3
"""Mask pixels along the plane's edge within which an outline's inner end meets the plane's changes (the
hand going on into the plane)."""
SLEEVE_GRAIN = 0.2
"""Between its sides, the table's grain agrees no better than this with the reference's (a shadow keeps
it: 0.5 and more, `KEPT_TEXTURE`'s figures)."""
RELIEF = 0.09
"""How much brighter (log) one of two regions crossing the band an arm's width apart is than the table on
both sides of the pair, and the other darker, that they are an arm lit from one side and its shaded flank or
shadow (`lit_and_shaded`; burnt 20261143 Asterion light wood session 00 frame 8, a motion-blurred skin arm
in a dim room: 0.11 either way at once). The 13 dev and burnt frames at rest whose band showed such a pair
(a shadow's soft edge in two parts, felt's blotchy light), 0.025 at most, most below zero (one way only)."""
RELIEF_BESIDE_PX = 10
"""Mask pixels along the edge beside such a pair over which the table's level is taken."""
SLEEVE_GRAIN_PX = 40
"""Textured pixels between the sides that the grain is judged on at least (a plain cloth has none: no
evidence)."""

Grain = Callable[[Mask], tuple[float, int]]
"""Over a mask of the band, how well its texture agrees with the reference's (a correlation) and over how
many textured pixels (`Surround.grain_of`)."""
Level = Callable[[], Floats]
"""The band's log level over its reference's, the channels' mean (`Surround.level_of`)."""


def sleeve_crossing(
    outline: Mask, inside: numpy.typing.NDArray[numpy.uint8], margin: int, px_per_mm: float, grain: Grain
) -> bool:
    """Whether two outlines of the band (`outline`: `Surround.changed`'s) cross it side by side, an arm's
    width apart, one of them meeting the plane's changes (`inside`) at the plane's edge, and the table's
    grain is gone between them (`grain`)."""
    height, width = outline.shape
    grown = numpy.asarray(
        cv2.dilate(outline.astype(numpy.uint8), numpy.ones((3, 3), numpy.uint8)), numpy.uint8
    )
    strips = _strips(grown, inside, margin)
    for strip, plane_edge, where, name in strips:
        sides = _sides(strip, plane_edge, px_per_mm)
        for between in _pairs(sides, strip.shape, px_per_mm):
            mask = numpy.zeros((height, width), bool)
            mask[where] = _placed(between, name)
            agreement, count = grain(mask)
            if count >= SLEEVE_GRAIN_PX and agreement <= SLEEVE_GRAIN:
                return True
    return False


def lit_and_shaded(
    changed: Mask,
    inside: numpy.typing.NDArray[numpy.uint8],
    margin: int,
    px_per_mm: float,
    level: Level,
) -> bool:
    """Whether two regions of the band's changes (`changed`: where it differs at all) cross it side by
    side, an arm's width apart, one meeting the plane's changes (`inside`) at the plane's edge, one
    brighter and the other darker than the table on both sides of the two (on its one side where the pair
    runs on into the band's corner) (`level`: the band's log level over its reference's, a function called
    only for such a pair) by `RELIEF` at least: an arm lit from one side, the band's own light taking in
    the rest of it."""
    least, most = SLEEVE_MIN_MM * px_per_mm, SLEEVE_MAX_MM * px_per_mm
    levels: Floats | None = None
    for strip, plane_edge, where, name in _strips(changed.astype(numpy.uint8), inside, margin):
        count, labels = cv2.connectedComponents(strip, connectivity=8)
        depth = strip.shape[1]
        # Per region across the band: its first and last row along the edge, whether it meets the
        # plane's changes, and its pixels.
        regions = []
        for label in range(1, count):
            mask = labels == label
            rows, cols = numpy.nonzero(mask)
            if cols.min() > 1 or cols.max() < depth - 2:
                continue
            inner = rows[cols <= 1]
            low, high = max(0, int(inner.min()) - SLEEVE_TOUCH_PX), int(inner.max()) + SLEEVE_TOUCH_PX + 1
            regions.append((int(rows.min()), int(rows.max()), bool(plane_edge[low:high].any()), mask))
        regions.sort(key=lambda region: region[0])
        for n, (first_a, last_a, meets_a, mask_a) in enumerate(regions):
            for first_b, last_b, meets_b, mask_b in regions[n + 1 :]:
                apart = (first_b + last_b - first_a - last_a) / 2.0
                if not (meets_a or meets_b) or not least <= apart <= most:
                    continue
                if levels is None:
                    levels = level()
                own = _oriented(levels, where, name)
                along = own.mean(axis=1)
                before = along[max(0, first_a - RELIEF_BESIDE_PX) : max(0, first_a - 2)]
                after = along[last_b + 3 : last_b + RELIEF_BESIDE_PX + 1]
                if before.size == 0 and after.size == 0:
                    continue
                # A pair against the band's corner (its shaded flank and shadow running on into the
                # corner) has the table on its other side alone.
                beside = [float(part.mean()) for part in (before, after) if part.size > 0]
                table = (min(beside), max(beside))
                a, b = float(own[mask_a].mean()), float(own[mask_b].mean())
                lit = max(a, b) - max(table)
                shaded = min(table) - min(a, b)
                if min(lit, shaded) >= RELIEF:
                    return True
    return False


def _oriented(image: Floats, where: tuple[slice, slice], name: str) -> Floats:
    """A side of the band of `image` (the band's size) as `_strips` gives it: rows along the plane's edge,
    columns from it outward."""
    part = image[where]
    return {"top": part.T[:, ::-1], "bottom": part.T, "left": part[:, ::-1], "right": part}[name]


def _strips(
    mask: numpy.typing.NDArray[numpy.uint8], inside: numpy.typing.NDArray[numpy.uint8], margin: int
) -> list[tuple[numpy.typing.NDArray[numpy.uint8], Mask, tuple[slice, slice], str]]:
    """Each side of the band (`margin` wide) of `mask` as rows along the plane's edge, columns from it (0)
    outward; with where the plane's changes (`inside`) meet that edge, where the side lies in the band,
    and its name (`_placed`)."""
    m = margin
    height, width = mask.shape
    touching = numpy.zeros((height, width), bool)
    touching[m:-m, m:-m] = inside > 0
    sides = (
        (mask[:m, m:-m].T[:, ::-1], touching[m, m:-m], (slice(0, m), slice(m, width - m)), "top"),
        (
            mask[-m:, m:-m].T,
            touching[-m - 1, m:-m],
            (slice(height - m, height), slice(m, width - m)),
            "bottom",
        ),
        (mask[m:-m, :m][:, ::-1], touching[m:-m, m], (slice(m, height - m), slice(0, m)), "left"),
        (mask[m:-m, -m:], touching[m:-m, -m - 1], (slice(m, height - m), slice(width - m, width)), "right"),
    )
    return [(numpy.ascontiguousarray(strip), edge, where, name) for strip, edge, where, name in sides]


def _sides(
    strip: numpy.typing.NDArray[numpy.uint8], plane_edge: Mask, px_per_mm: float
) -> list[tuple[float, float, bool]]:
    """The outlines crossing a strip (rows along the edge, columns outward): each one's mean row at its
    inner and outer end, and whether it meets the plane's changes there."""
    depth = strip.shape[1]
    count, labels = cv2.connectedComponents(strip, connectivity=8)
    out = []
    for label in range(1, count):
        rows, cols = numpy.nonzero(labels == label)
        if cols.min() > 1 or cols.max() < depth - 2:
            continue  # not across the band
        inner, outer = rows[cols <= 1], rows[cols >= depth - 2]
        low, high = max(0, int(inner.min()) - SLEEVE_TOUCH_PX), int(inner.max()) + SLEEVE_TOUCH_PX + 1
        out.append((float(inner.mean()), float(outer.mean()), bool(plane_edge[low:high].any())))
    return out


def _pairs(sides: list[tuple[float, float, bool]], shape: tuple[int, ...], px_per_mm: float) -> list[Mask]:
    """Per pair of `sides` an arm's width apart and parallel, one meeting the plane's changes, the strip's
    pixels between them."""
    least, most = SLEEVE_MIN_MM * px_per_mm, SLEEVE_MAX_MM * px_per_mm
    out = []
    rows, cols = numpy.mgrid[0 : shape[0], 0 : shape[1]]
    for n, (in_a, out_a, meets_a) in enumerate(sides):
        for in_b, out_b, meets_b in sides[n + 1 :]:
            (in_a2, out_a2), (in_b2, out_b2) = sorted([(in_a, out_a), (in_b, out_b)])
            apart = in_b2 - in_a2
            if not (meets_a or meets_b) or not least <= apart <= most:
                continue
            if abs((out_b2 - in_b2) - (out_a2 - in_a2)) > SLEEVE_PARALLEL_MM * px_per_mm:
                continue
            share = cols / max(1, shape[1] - 1)
            top = in_a2 + (out_a2 - in_a2) * share
            bottom = in_b2 + (out_b2 - in_b2) * share
            # A few pixels in from each side: the outline's own blur is no grain.
            out.append((rows > top + 3) & (rows < bottom - 3))
    return out


def _placed(between: Mask, name: str) -> Mask:
    """A strip's mask (`_sides`' orientation) back in the band's own."""
    return {
        "top": between[:, ::-1].T,
        "bottom": between.T,
        "left": between[:, ::-1],
        "right": between,
    }[name]


def sides_apart(carried: Mask, margin: int, px_per_mm: float) -> bool:
    """Whether the band's changes under the plane's light (`carried`: where it differs at all) hold two
    regions from its outer edge halfway across it or more, an arm's width apart on one side of it: a sleeve's
    two sides as `sleeve_crossing` wants them, worth the band's full comparison though nothing of them
    crosses it."""
    m = margin
    grown = cv2.dilate(carried.astype(numpy.uint8), numpy.ones((3, 3), numpy.uint8))
    least, most = SLEEVE_MIN_MM * px_per_mm, SLEEVE_MAX_MM * px_per_mm
    for strip in (grown[:m, m:-m].T[:, ::-1], grown[-m:, m:-m].T, grown[m:-m, :m][:, ::-1], grown[m:-m, -m:]):
        count, labels = cv2.connectedComponents(numpy.ascontiguousarray(strip), connectivity=8)
        ends = []
        for label in range(1, count):
            rows, cols = numpy.nonzero(labels == label)
            if cols.max() >= m - 2 and cols.min() <= m // 2:
                ends.append(float(rows[cols >= m - 2].mean()))
        ends.sort()
        if any(least <= b - a <= most for n, a in enumerate(ends) for b in ends[n + 1 :]):
            return True
    return False
