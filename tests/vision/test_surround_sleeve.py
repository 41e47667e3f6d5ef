"""A sleeve of the lit table's colour crossing the band, seen only by its two sides and the grain gone
between them (`_surround_sleeve.sleeve_crossing`, `Surround.grain_of`): drawn pictures, no generator."""

from __future__ import annotations

import numpy

from companion.vision._surround_sleeve import sides_apart, sleeve_crossing
from companion.vision.base import Frame
from companion.vision.table_light import Mask
from tests.vision.test_surround import PX_PER_MM, learned, surround

ROWS = (50, 80)
"""The sleeve's sides along the right band (mask pixels: 60 mm apart)."""


def sides(rows: tuple[int, int], width: int, height: int, margin: int, reach: int | None = None) -> Mask:
    """Two outlines across the right band at `rows`, the second `reach` pixels in from the outer edge."""
    outline = numpy.zeros((height, width), bool)
    outline[rows[0], width - margin :] = True
    outline[rows[1], width - (reach or margin) :] = True
    return outline


def plane_changes(width: int, height: int, margin: int) -> numpy.typing.NDArray[numpy.uint8]:
    """The plane's changes: the hand, at its right edge level with the sleeve."""
    inside = numpy.zeros((height - 2 * margin, width - 2 * margin), numpy.uint8)
    inside[ROWS[0] - margin : ROWS[1] - margin, -20:] = 1
    return inside


def with_sleeve(empty: Frame, shade: float | None) -> Frame:
    """The band with a flat sleeve of the table's mean colour between `ROWS` across the right band, or
    (`shade`) the table there darkened by that factor (a shadow: its grain kept)."""
    frame = empty.copy()
    part = (slice(ROWS[0] + 1, ROWS[1]), slice(frame.shape[1] - 20, frame.shape[1]))
    if shade is None:
        frame[part] = empty[part].reshape(-1, 3).mean(axis=0).astype(numpy.uint8)
    else:
        frame[part] = (empty[part] * shade).astype(numpy.uint8)
    return frame


def test_a_flat_sleeve_between_two_sides_is_an_arm() -> None:
    band, empty = learned(surround())
    (width, height), m = band.size, band.margin
    grain = band.grain_of(with_sleeve(empty, None))
    inside = plane_changes(width, height, m)
    assert sleeve_crossing(sides(ROWS, width, height, m), inside, m, PX_PER_MM, grain)


def test_a_shadow_between_two_sides_keeps_the_grain() -> None:
    band, empty = learned(surround())
    (width, height), m = band.size, band.margin
    grain = band.grain_of(with_sleeve(empty, 0.5))
    inside = plane_changes(width, height, m)
    assert not sleeve_crossing(sides(ROWS, width, height, m), inside, m, PX_PER_MM, grain)
    agreement, count = grain(numpy.ones((height, width), bool))
    assert agreement > 0.5 and count > 100


def test_sides_too_close_or_not_across_the_band_are_no_arm() -> None:
    band, empty = learned(surround())
    (width, height), m = band.size, band.margin
    grain = band.grain_of(with_sleeve(empty, None))
    inside = plane_changes(width, height, m)
    assert not sleeve_crossing(sides((50, 60), width, height, m), inside, m, PX_PER_MM, grain)
    assert not sleeve_crossing(sides(ROWS, width, height, m, m // 2), inside, m, PX_PER_MM, grain)


def test_sides_away_from_the_planes_changes_are_no_arm() -> None:
    band, empty = learned(surround())
    (width, height), m = band.size, band.margin
    grain = band.grain_of(with_sleeve(empty, None))
    nothing = numpy.zeros((height - 2 * m, width - 2 * m), numpy.uint8)
    assert not sleeve_crossing(sides(ROWS, width, height, m), nothing, m, PX_PER_MM, grain)


def test_changes_along_two_sides_are_worth_the_full_comparison() -> None:
    band = surround()
    (width, height), m = band.size, band.margin
    carried = numpy.zeros((height, width), bool)
    # The sleeve's sides differ under the plane's light from the band's outer edge halfway in, 60 mm apart.
    carried[ROWS[0] - 2 : ROWS[0] + 2, width - m // 2 :] = True
    carried[ROWS[1] - 2 : ROWS[1] + 2, width - m // 2 - 1 :] = True
    assert sides_apart(carried, m, PX_PER_MM)
    # One of them alone, or both only a few pixels into the band, is none.
    one = carried.copy()
    one[ROWS[1] - 2 : ROWS[1] + 2] = False
    assert not sides_apart(one, m, PX_PER_MM)
    shallow = numpy.zeros_like(carried)
    shallow[[ROWS[0], ROWS[1]], width - 3 :] = True
    assert not sides_apart(shallow, m, PX_PER_MM)
