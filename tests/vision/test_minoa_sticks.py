"""Minoa's sticks told from the board's print by their colour: a frame's sure sticks (dark across a
stick's whole width) show what its sticks look like, so a stick the reference narrowed (its blurred sides
taken for the table) is still a stick, and a print line of another hue left in view is not, though both
darken a line alike."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.minoa import BOARD
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout, recogniser_for
from companion.vision.recognisers import minoa
from companion.vision.reference import NEUTRAL_BGR

CARD = (225, 232, 235)
BROWN = (30, 50, 80)
"""A stick of another edition: brown."""
GREY_PRINT = (60, 60, 60)
"""That edition's print: as dark, but grey."""


def _bars(layout: Layout, bars: dict[str, tuple[tuple[int, int, int], float, float]]) -> Frame:
    """A normalised plane: the neutral grey, but along each named line a bar (colour, width in mm) 30 mm
    long, blurred as a camera blurs it, with the card kept this many mm either side of it (less than 0:
    the bar's blurred sides taken for the table too)."""
    width, height = layout.plane_size_px()
    drawn = numpy.full((height, width, 3), CARD, numpy.uint8)
    kept = numpy.zeros((height, width), numpy.uint8)
    for item, (bgr, bar_mm, card_mm) in bars.items():
        region = layout.items[item]
        turn = numpy.radians(region.rotation_deg)
        direction = numpy.array([numpy.cos(turn), -numpy.sin(turn)]) * 15.0 * PLANE_PX_PER_MM
        centre = numpy.array(region.centre_px())
        ends = [tuple(int(v) for v in numpy.round(centre + sign * direction)) for sign in (-1, 1)]
        cv2.line(drawn, ends[0], ends[1], bgr, max(1, round(bar_mm * PLANE_PX_PER_MM)))
        cv2.line(kept, ends[0], ends[1], 255, round((bar_mm + 2 * card_mm) * PLANE_PX_PER_MM))
    drawn = numpy.asarray(cv2.GaussianBlur(drawn, (0, 0), 1.0), numpy.uint8)
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    plane[kept > 0] = drawn[kept > 0]
    return plane


def _scene(bars: dict[str, tuple[tuple[int, int, int], float, float]]) -> tuple[Frame, Layout, list[str]]:
    """The given bars among eight sure sticks (brown, 4 mm, the card kept beside them)."""
    layout = recogniser_for("minoa").layout({})
    inner = [f"line:{n}" for n in BOARD.interior_lines]
    sure = [item for item in inner[::9] if item not in bars][:8]
    return _bars(layout, {**dict.fromkeys(sure, (BROWN, 4.0, 1.5)), **bars}), layout, sure


INNER = [f"line:{n}" for n in BOARD.interior_lines]
NARROWED, PRINTED = INNER[40], INNER[70]
THIN = (3.0, -0.5)
"""A stick whose blurred sides the reference took for the table: 2 mm of its 3 shown, no card."""


@pytest.mark.parametrize(("colour", "expected"), [(BROWN, minoa.STICK), (GREY_PRINT, minoa.EMPTY)])
def test_a_narrowed_bar_is_a_stick_when_of_the_sure_sticks_colour(
    colour: tuple[int, int, int], expected: str
) -> None:
    """Beside it the print (0.9 mm, blurred to about 2 by the lens) shows with the card kept round it."""
    plane, layout, sure = _scene({NARROWED: (colour, *THIN), PRINTED: (GREY_PRINT, 2.0, 1.0)})
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert (read[NARROWED], read[PRINTED]) == (expected, minoa.EMPTY)
    assert {item for item in INNER if read[item] == minoa.STICK} == {*sure} | (
        {NARROWED} if expected == minoa.STICK else set()
    )


def test_without_sure_sticks_a_narrowed_bar_is_not_taken_for_one() -> None:
    """A frame with fewer than SURE_STICKS sure sticks shows no colour of sticks: a narrowed bar is
    judged by its darkness alone, too narrow for a stick's."""
    layout = recogniser_for("minoa").layout({})
    plane = _bars(layout, {INNER[3]: (BROWN, 4.0, 1.5), NARROWED: (BROWN, *THIN)})
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert (read[INNER[3]], read[NARROWED]) == (minoa.STICK, minoa.EMPTY)


BLACK = (32, 32, 34)
"""The built-in edition's sticks."""


@pytest.mark.parametrize(
    ("colour", "expected"),
    [
        ((100, 100, 102), minoa.STICK),  # a black stick washed pale by a lamp's hotspot: as grey, lighter
        ((94, 101, 110), minoa.STICK),  # ... tinted by the lamp and the card's light round it: 3.4 off
        ((95, 105, 115), minoa.EMPTY),  # the built-in edition's print: as light, but a little warm
    ],
)
def test_a_pale_narrowed_bar_is_a_stick_only_of_the_sure_sticks_very_hue(
    colour: tuple[int, int, int], expected: str
) -> None:
    layout = recogniser_for("minoa").layout({})
    sure = INNER[::9][:8]
    plane = _bars(layout, {**dict.fromkeys(sure, (BLACK, 4.0, 1.5)), NARROWED: (colour, *THIN)})
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[NARROWED] == expected


def test_a_bar_far_lighter_than_the_sure_sticks_is_not_a_stick_however_wide() -> None:
    """The built-in print where the reference kept the card round it, blurred wide by the lens: darker
    than the card across a stick's width, but far lighter than any stick of the frame."""
    layout = recogniser_for("minoa").layout({})
    sure = INNER[::9][:8]
    plane = _bars(layout, {**dict.fromkeys(sure, (BLACK, 4.0, 1.5)), PRINTED: ((140, 150, 160), 3.5, 1.5)})
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[PRINTED] == minoa.EMPTY


@pytest.mark.parametrize(
    ("colour", "expected"),
    [
        ((10, 20, 45), minoa.STICK),  # 17 lighter than the sure sticks, 9.8 off their hue
        ((60, 70, 90), minoa.EMPTY),  # as narrow, 12 off, darkening 1.8, but 57 lighter: print
    ],
)
def test_a_narrowed_stick_as_dark_as_the_sure_ones_is_a_stick_though_off_their_hue(
    colour: tuple[int, int, int], expected: str
) -> None:
    """Dark in two rows, the card kept beside it: its core (0.09) is short of a stick's (STICK_CORE), its
    hue of the sure sticks' (LIKE_AB), yet it darkens the line as a sure stick does (DARK_NARROW_L)."""
    layout = recogniser_for("minoa").layout({})
    sure = INNER[::9][:8]
    plane = _bars(layout, {**dict.fromkeys(sure, (BROWN, 4.0, 1.5)), NARROWED: (colour, 2.0, 1.25)})
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[NARROWED] == expected
