"""Minoa's black sticks under a lamp's hotspot (dev 26's laminate): washed 90-92.5 lighter than the frame's
sure sticks, past WASHED_L, but of their very hue and dark across a stick's width, which no print line
that light and of that hue is."""

from __future__ import annotations

import pytest

from companion.vision.base import recogniser_for
from companion.vision.recognisers import minoa

from .test_minoa_sticks import BLACK, INNER, NARROWED, _bars

WASHED = (105, 105, 107)
"""A black stick washed pale: about 94 lighter than the sure sticks once blurred with its card."""


@pytest.mark.parametrize(
    ("card_mm", "wide_l", "expected"),
    [
        (0.5, minoa.WIDE_WASHED_L, minoa.STICK),  # dark across its width (core 0.27)
        (0.5, 0.0, minoa.EMPTY),  # ... and without WIDE_WASHED_L, too light for a stick
        (1.0, minoa.WIDE_WASHED_L, minoa.EMPTY),  # its blurred sides in view: core 0.17, as a print line's
    ],
)
def test_a_stick_washed_past_washed_l_is_a_stick_when_dark_across_its_width(
    monkeypatch: pytest.MonkeyPatch, card_mm: float, wide_l: float, expected: str
) -> None:
    monkeypatch.setattr(minoa, "WIDE_WASHED_L", wide_l)
    layout = recogniser_for("minoa").layout({})
    sure = INNER[::9][:8]
    plane = _bars(layout, {**dict.fromkeys(sure, (BLACK, 4.0, 1.5)), NARROWED: (WASHED, 2.5, card_mm)})
    read = minoa.MinoaRecogniser().read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[NARROWED] == expected
