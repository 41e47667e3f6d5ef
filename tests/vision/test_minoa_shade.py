"""Minoa's pieces in deep shade: a corner the lamp leaves dim and a player's shadow darken a green or
blue piece to a third of its light, darker than the palette's own shading reaches, where it is still of
its hue; a brown as dark (a stick, the wood) is no piece."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.minoa import BOARD
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout, recogniser_for
from companion.vision.recognisers import minoa
from companion.vision.reference import NEUTRAL_BGR

CARD = (225, 232, 235)
EDGE = [f"line:{n}" for n in range(len(BOARD.lines)) if BOARD.is_edge[n]]
DEEP_GREEN, DEEP_BLUE = (24, 46, 31), (53, 32, 14)
"""Burnt 20261138's laminate, a dim corner: a green and a blue piece's middles (Lab 43/117/140 and
30/129/112, its bluer half: a third of their light, and greyed by the blur)."""


def _piece(layout: Layout, item: str, bgr: tuple[int, int, int]) -> Frame:
    """A normalised plane: the neutral grey, but along an edge line a piece-wide bar of this colour,
    blurred as a camera blurs it, the card kept 1.5 mm either side of it."""
    width, height = layout.plane_size_px()
    drawn = numpy.full((height, width, 3), CARD, numpy.uint8)
    kept = numpy.zeros((height, width), numpy.uint8)
    region = layout.items[item]
    turn = numpy.radians(region.rotation_deg)
    direction = numpy.array([numpy.cos(turn), -numpy.sin(turn)]) * 12.0 * PLANE_PX_PER_MM
    centre = numpy.array(region.centre_px())
    ends = [tuple(int(v) for v in numpy.round(centre + sign * direction)) for sign in (-1, 1)]
    cv2.line(drawn, ends[0], ends[1], bgr, round(minoa.PIECE_WIDTH_MM * PLANE_PX_PER_MM))
    cv2.line(kept, ends[0], ends[1], 255, round((minoa.PIECE_WIDTH_MM + 3) * PLANE_PX_PER_MM))
    drawn = numpy.asarray(cv2.GaussianBlur(drawn, (0, 0), 1.0), numpy.uint8)
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    plane[kept > 0] = drawn[kept > 0]
    return plane


@pytest.mark.parametrize(
    ("bgr", "expected"),
    [
        (DEEP_GREEN, "green"),
        (DEEP_BLUE, "blue"),
        ((18, 30, 48), minoa.EMPTY),  # a brown stick of another edition in a shadow: no piece
        ((20, 38, 42), minoa.EMPTY),  # ... and an olive one
    ],
)
def test_a_piece_in_deep_shade_keeps_its_colour(bgr: tuple[int, int, int], expected: str) -> None:
    layout = recogniser_for("minoa").layout({})
    item = EDGE[7]
    read = recogniser_for("minoa").read(_piece(layout, item, bgr), layout, None).items
    assert read[item] == expected
    assert {read[other] for other in EDGE if other != item} == {minoa.EMPTY}
