"""An arm whose foreign part stops short of the plane, where a pale board of its hue reaches out past the
plane under the band's inner edge (burnt seed 20261141 Toss printed session 12 frame 6: the collar
plate), still crosses into the plane's changes (`BandCrossing.through_rim`)."""

from __future__ import annotations

import numpy

from companion.vision._reference_base import ReferenceSettings
from companion.vision.hand_check import HandCheck
from companion.vision.surround import TEXTURE_PLANES
from tests.vision.test_surround import surround


def crossed_over_rim(short_px: int, rim: bool = True, shade_along: bool = False) -> bool:
    """`HandCheck.crossed` of an arm coming in from the band's right edge: foreign over the table, only
    darker in the band's innermost `short_px` (a pale board of its hue there), into the plane's changes;
    with `shade_along`, the arm lies beside those changes and a shade runs along the rim from it to them."""
    band = surround()
    if not rim:
        band._rim_px = 0
    m, height, width = band.margin, band.size[1], band.size[0]
    shape = (height - 2 * m, width - 2 * m)
    check = HandCheck(ReferenceSettings(), band, numpy.zeros(shape, bool), numpy.ones(shape, numpy.float32))
    rows = slice(50, 80)  # 60 mm wide
    arm = slice(20, 45) if shade_along else rows
    foreign = numpy.zeros((height, width), bool)
    foreign[arm, width - m + short_px :] = True
    darker = foreign.copy()
    darker[arm, width - m : width - m + short_px] = True
    if shade_along:
        darker[20:80, width - m : width - m + short_px] = True
    inside = numpy.zeros(shape, numpy.uint8)
    inside[rows, -40:] = 1
    nothing = numpy.zeros_like(foreign)
    texture = numpy.zeros((TEXTURE_PLANES, height, width), numpy.float32)
    return check.crossed((foreign, darker, nothing, texture), inside)


def test_an_arm_only_darker_over_a_board_reaching_under_the_bands_inner_edge_crosses() -> None:
    assert crossed_over_rim(3)  # 6 mm: the toss's collar plate in burnt 20261141 Toss session 12
    assert not crossed_over_rim(3, rim=False)  # as before: foreign only up to 6 mm short of the plane
    assert crossed_over_rim(0)
    # Short of the plane by more than the rim, with no outline: a shadow's darker part is no arm.
    assert not crossed_over_rim(6)


def test_a_shade_along_the_rim_joins_no_foreign_region_to_the_planes_changes_beside_it() -> None:
    # Carried along the rim, a shade there joined a foreign patch in a shadow over the band to the plane's
    # changes 10 mm beside it (dev minotaurus 7 light wood frame 4, refused at rest): straight on only.
    assert not crossed_over_rim(3, shade_along=True)
