"""Minoa's black sticks under a lamp's hotspot (dev 26's laminate): washed 90-92.5 lighter than the frame's
sure sticks, past WASHED_L, but of their very hue and dark across a stick's width, which no print line
that light and of that hue is."""

from __future__ import annotations

import numpy
import numpy.typing
import pytest

from companion.vision.base import recogniser_for
from companion.vision.recognisers import _minoa_sticks as sticks
from companion.vision.recognisers import minoa
from companion.vision.reference import NEUTRAL_BGR

from .test_minoa_sticks import BLACK, INNER, NARROWED, _bars

WASHED = (105, 105, 107)
"""A black stick washed pale: about 94 lighter than the sure sticks once blurred with its card."""


@pytest.mark.parametrize(
    ("card_mm", "wide_l", "expected"),
    [
        (0.5, sticks.WIDE_WASHED_L, minoa.STICK),  # dark across its width (core 0.27)
        (0.5, 0.0, minoa.EMPTY),  # ... and without WIDE_WASHED_L, too light for a stick
        (1.0, sticks.WIDE_WASHED_L, minoa.EMPTY),  # its blurred sides in view: core 0.17, as a print line's
    ],
)
def test_a_stick_washed_past_washed_l_is_a_stick_when_dark_across_its_width(
    monkeypatch: pytest.MonkeyPatch, card_mm: float, wide_l: float, expected: str
) -> None:
    monkeypatch.setattr(sticks, "WIDE_WASHED_L", wide_l)
    layout = recogniser_for("minoa").layout({})
    sure = INNER[::9][:8]
    plane = _bars(layout, {**dict.fromkeys(sure, (BLACK, 4.0, 1.5)), NARROWED: (WASHED, 2.5, card_mm)})
    read = minoa.MinoaRecogniser().read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[NARROWED] == expected


# A warm hotspot (burnt 20261142's laminate): a black stick pales to the lamp's hue, 10-13 off its frame's
# sure sticks' hue, warmer (a and b above theirs) and 53-70 lighter, still dark across its width. Strips as
# the recogniser cuts them: the outer rows the neutral grey (a normalised plane), the card between, the bar
# across the line's middle.
STRIP_CARD, SURE_BLACK = (122, 127, 130), (45, 45, 45)
GLARED = (84, 95, 115)
"""A stick paled by the hotspot: 10.8 off the sure sticks' hue (a 6 and b 9 above), 60 lighter."""
COOL, OFF_HUE = (112, 98, 82), (74, 94, 118)
"""As far off but cooler (a 3 and b 10 below: a grey print by brown sticks); 16.6 off."""


def nearest_of(middles: numpy.typing.NDArray[numpy.float64]) -> numpy.typing.NDArray[numpy.intp]:
    """Per line, every line from the nearest to the furthest by their middles (LatticeLines.nearest)."""
    distance = numpy.linalg.norm(middles[:, None, :] - middles[None, :, :], axis=2)
    return numpy.argsort(distance, axis=1, kind="stable")


def _strip(
    bar: tuple[int, int, int], rows: int, card: tuple[int, int, int] = STRIP_CARD
) -> numpy.typing.NDArray[numpy.uint8]:
    across, along = len(minoa.ACROSS_MM), len(minoa.ALONG)
    strip = numpy.empty((across, along, 3), numpy.uint8)
    strip[:] = card
    start = across // 2 - rows // 2
    strip[start : start + rows] = bar
    strip[:3] = strip[-3:] = NEUTRAL_BGR
    return strip


@pytest.mark.parametrize(
    ("bar", "rows", "glared_ab", "warmer", "stick"),
    [
        (GLARED, 6, sticks.GLARED_AB, sticks.GLARED_WARMER, True),  # dark across its width (core 0.22)
        (GLARED, 6, 0.0, sticks.GLARED_WARMER, False),  # ... and without GLARED_AB, of a print's hue
        (GLARED, 3, sticks.GLARED_AB, sticks.GLARED_WARMER, False),  # as narrow as a print line: no core
        (COOL, 6, sticks.GLARED_AB, sticks.GLARED_WARMER, False),  # cooler than the sticks: print
        (COOL, 6, sticks.GLARED_AB, -100.0, True),  # ... which only GLARED_WARMER tells
        (OFF_HUE, 6, sticks.GLARED_AB, sticks.GLARED_WARMER, False),  # further off than a hotspot takes it
    ],
)
def test_a_stick_paled_to_a_warm_hotspots_hue_is_a_stick_when_dark_across_its_width(
    monkeypatch: pytest.MonkeyPatch,
    bar: tuple[int, int, int],
    rows: int,
    glared_ab: float,
    warmer: float,
    stick: bool,
) -> None:
    monkeypatch.setattr(sticks, "GLARED_AB", glared_ab)
    monkeypatch.setattr(sticks, "GLARED_WARMER", warmer)
    strips = numpy.stack([_strip(SURE_BLACK, 4)] * 6 + [_strip(bar, rows)])
    neutral = numpy.all(strips == numpy.array(NEUTRAL_BGR, numpy.uint8), axis=-1)
    dips = sticks.stick_dips(
        strips, neutral, numpy.zeros(len(strips), bool), nearest_of(numpy.arange(len(strips))[:, None] * 36.0)
    )
    assert numpy.all(dips[:-1] > 0)
    assert (dips[-1] > 0) == stick
