"""Minoa's sure sticks are dark across their whole width: a print line of another hue, its card kept round
it by the reference and darkened beside it (burnt 20261138's dark wood and gingham, dev 2: one row dark,
the card beside it a third as dark), darkens a line as much as a sure stick, but in one row of it."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout
from companion.vision.recognisers import _minoa_sticks as sticks
from companion.vision.recognisers import minoa

from .test_minoa_sticks import INNER, _scene

PRINTED = INNER[70]
DIM_CARD = (110, 140, 165)
"""The card kept round a print line, in a dimmer light than the card elsewhere."""
GREY_PRINT = (35, 35, 35)
"""Another edition's print: grey by brown sticks."""


def _print_line(plane: Frame, layout: Layout, item: str) -> Frame:
    """The plane with a print line 1 mm wide along the item's line and 4 mm of dim card round it (as the
    reference keeps it), blurred as a camera blurs it."""
    region = layout.items[item]
    turn = numpy.radians(region.rotation_deg)
    direction = numpy.array([numpy.cos(turn), -numpy.sin(turn)]) * 15.0 * PLANE_PX_PER_MM
    centre = numpy.array(region.centre_px())
    ends = [tuple(int(v) for v in numpy.round(centre + sign * direction)) for sign in (-1, 1)]
    drawn = numpy.full_like(plane, DIM_CARD)
    cv2.line(drawn, ends[0], ends[1], GREY_PRINT, round(1.0 * PLANE_PX_PER_MM))
    drawn = numpy.asarray(cv2.GaussianBlur(drawn, (0, 0), 1.0), numpy.uint8)
    kept = numpy.zeros(plane.shape[:2], numpy.uint8)
    cv2.line(kept, ends[0], ends[1], 255, round(4.0 * PLANE_PX_PER_MM))
    out = plane.copy()
    out[kept > 0] = drawn[kept > 0]
    return out


@pytest.mark.parametrize(("flat", "expected"), [(sticks.SURE_FLAT, minoa.EMPTY), (0.0, minoa.STICK)])
def test_a_print_line_dark_in_one_row_is_no_sure_stick(
    monkeypatch: pytest.MonkeyPatch, flat: float, expected: str
) -> None:
    """Without SURE_FLAT (0) the print line is taken for a sure stick, which no colour overrules."""
    monkeypatch.setattr(sticks, "SURE_FLAT", flat)
    plane, layout, sure = _scene({})
    plane = _print_line(plane, layout, PRINTED)
    read = minoa.MinoaRecogniser().read(plane, layout, None).items
    assert [read[item] for item in sure] == [minoa.STICK] * len(sure)
    assert read[PRINTED] == expected
