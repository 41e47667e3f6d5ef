"""A sleeve of the lit table's colour crossing the band, seen only by its two sides and the grain gone
between them (`_surround_sleeve.sleeve_crossing`, `Surround.grain_of`): drawn pictures, no generator."""

from __future__ import annotations

import numpy

from companion.vision._reference_base import ReferenceSettings
from companion.vision._surround_sleeve import Level, lit_and_shaded, sides_apart, sleeve_crossing
from companion.vision.base import Frame
from companion.vision.hand_check import HandCheck
from companion.vision.surround import TEXTURE_PLANES
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


def two_regions(
    rows: tuple[int, int], width: int, height: int, margin: int, reach: int | None = None
) -> Mask:
    """Two changed regions, 6 pixels wide, across the right band centred on `rows`, the second `reach`
    pixels in from the outer edge."""
    changed = numpy.zeros((height, width), bool)
    changed[rows[0] - 3 : rows[0] + 3, width - margin :] = True
    changed[rows[1] - 3 : rows[1] + 3, width - (reach or margin) :] = True
    return changed


def levels(width: int, height: int, steps: tuple[float, float, float, float]) -> Level:
    """The band's log level over its reference's: the table before the first region, the first region, the
    second, and the table from it on (along the right band), each at its step."""
    image = numpy.zeros((height, width), numpy.float32)
    before, first, second, after = steps
    image[: ROWS[0] - 3] = before
    image[ROWS[0] - 3 : ROWS[0] + 3] = first
    image[ROWS[0] + 3 : ROWS[1] - 3] = (before + after) / 2
    image[ROWS[1] - 3 : ROWS[1] + 3] = second
    image[ROWS[1] + 3 :] = after
    return lambda: image


def test_a_lit_and_a_shaded_region_side_by_side_are_an_arm() -> None:
    # Asterion light wood in a dim room, a motion-blurred skin arm (burnt seed 20261143, session 00 frame
    # 8): the band's own light took most of it in; its lit flank crossed the band 0.13 brighter than the
    # table beside it, 52 mm from a region 0.11 darker.
    band = surround()
    (width, height), m = band.size, band.margin
    inside = plane_changes(width, height, m)
    changed = two_regions(ROWS, width, height, m)
    assert lit_and_shaded(changed, inside, m, PX_PER_MM, levels(width, height, (0.0, -0.12, 0.14, 0.02)))
    assert lit_and_shaded(changed, inside, m, PX_PER_MM, levels(width, height, (0.0, 0.14, -0.12, 0.02)))


def test_a_shadows_edge_in_two_parts_or_a_faint_relief_is_no_arm() -> None:
    band = surround()
    (width, height), m = band.size, band.margin
    inside = plane_changes(width, height, m)
    changed = two_regions(ROWS, width, height, m)
    # A soft shadow's edge, its middle followed by the band's light: darker step by step.
    assert not lit_and_shaded(changed, inside, m, PX_PER_MM, levels(width, height, (0.0, -0.1, -0.55, -0.6)))
    # Felt's blotchy light at rest: 0.06 either way, more than any pair at rest showed (0.025).
    assert not lit_and_shaded(changed, inside, m, PX_PER_MM, levels(width, height, (0.0, -0.06, 0.06, 0.0)))


def test_regions_too_close_short_or_apart_from_the_planes_changes_are_no_arm() -> None:
    band = surround()
    (width, height), m = band.size, band.margin
    inside = plane_changes(width, height, m)
    relief = levels(width, height, (0.0, -0.15, 0.15, 0.0))
    # 20 mm apart: narrower than a wrist.
    assert not lit_and_shaded(two_regions((50, 60), width, height, m), inside, m, PX_PER_MM, relief)
    assert not lit_and_shaded(two_regions(ROWS, width, height, m, m // 2), inside, m, PX_PER_MM, relief)
    nothing = numpy.zeros_like(inside)
    assert not lit_and_shaded(two_regions(ROWS, width, height, m), nothing, m, PX_PER_MM, relief)


def test_a_lit_flank_beside_a_shade_run_on_into_the_corner_is_an_arm() -> None:
    # Minoa light wood, cut edge second print (burnt seed 20261154, session 07 frame 5): a skin arm of the
    # wood's colour, its lit flank brighter than the table, its shaded flank one with its shadow running
    # on into the band's corner: no table on that side of the pair, only on the other.
    band = surround()
    (width, height), m = band.size, band.margin
    inside = plane_changes(width, height, m)
    changed = two_regions(ROWS, width, height, m)
    changed[m : ROWS[0], width - m :] = True
    image = numpy.zeros((height, width), numpy.float32)
    image[: ROWS[0] + 3] = -0.5
    image[ROWS[1] - 3 : ROWS[1] + 3] = 0.15
    assert lit_and_shaded(changed, inside, m, PX_PER_MM, lambda: image)
    # Its flank no brighter than the table beside it: a shadow's edge.
    image[ROWS[1] - 3 : ROWS[1] + 3] = 0.05
    assert not lit_and_shaded(changed, inside, m, PX_PER_MM, lambda: image)
    # Both regions run on to the band's ends: no table beside them to weigh them against.
    changed[ROWS[1] :, width - m :] = True
    image[ROWS[1] - 3 :] = 0.15
    assert not lit_and_shaded(changed, inside, m, PX_PER_MM, lambda: image)


def no_grain(mask: Mask) -> tuple[float, int]:
    """A band without grain to judge (`Grain`): no textured pixel."""
    return 0.0, 0


def test_the_hand_check_weighs_a_lit_and_a_shaded_region_given_the_bands_level() -> None:
    band = surround()
    (width, height), m = band.size, band.margin
    shape = (height - 2 * m, width - 2 * m)
    check = HandCheck(ReferenceSettings(), band, numpy.zeros(shape, bool), numpy.ones(shape, numpy.float32))
    inside = plane_changes(width, height, m)
    nothing = numpy.zeros((height, width), bool)
    texture = numpy.zeros((TEXTURE_PLANES, height, width), numpy.float32)
    changes = (nothing, two_regions(ROWS, width, height, m), nothing, texture)
    relief = levels(width, height, (0.0, -0.15, 0.15, 0.0))
    assert check.sleeve(changes, inside, no_grain, relief)
    assert not check.sleeve(changes, inside, no_grain)


def test_the_bands_level_is_its_log_level_over_the_references() -> None:
    band, empty = learned(surround())
    frame = empty.copy()
    frame[:, :20] = (empty[:, :20] * 0.5).astype(numpy.uint8)
    level = band.level_of(frame)()
    assert abs(float(numpy.median(level[:, 40:]))) < 0.01
    assert -0.75 < float(numpy.median(level[:, :20])) < -0.6
