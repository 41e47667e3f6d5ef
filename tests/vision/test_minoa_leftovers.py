"""Minoa on what the reference leaves: a marker left in view on a normalised plane (its light is canonical
already: no colour cast to take off it), and sticks washed pale by glare, most shown without the card
beside them."""

from __future__ import annotations

import cv2
import numpy

from companion.games.minoa import BOARD
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout, recogniser_for
from companion.vision.reference import NEUTRAL_BGR, normalised_plane
from tests.vision.test_minoa_normalised import _card_around, _labels, _on_table, _wrong


def test_a_marker_left_in_view_on_a_normalised_plane_changes_nothing() -> None:
    """A marker the reference did not take for table (a shadow over it at setup) is black and white
    paper of a slightly warm tint: balanced by it, the neutral grey would no longer be the table's."""
    layout = recogniser_for("minoa").layout({})
    labels = _labels(2)
    empty = _on_table("dark-wood", "second-print", dict.fromkeys(labels, "empty"), layout, 3)
    plane = normalised_plane([empty], _on_table("dark-wood", "second-print", labels, layout, 3), layout)
    side = round(40 * PLANE_PX_PER_MM)
    height = plane.shape[0]
    for y, x in ((0, 0), (height - side, 0)):
        plane[y : y + side, x : x + side] = (236, 244, 252)
        inner = side // 4
        plane[y + inner : y + side - inner, x + inner : x + side - inner] = (20, 20, 22)
    assert _wrong(recogniser_for("minoa").read(plane, layout, None).items, labels) == {}


def _strip(
    canvas: Frame, shown: Frame, layout: Layout, line: str, bgr: tuple[int, int, int], card_mm: float
) -> None:
    """A stick 4 mm wide along `line`'s middle on the card, shown with `card_mm` of card on each side."""
    region = layout.items[line]
    centre = region.centre_px()
    length = 28 * PLANE_PX_PER_MM
    box = cv2.boxPoints((centre, (length, (4 + 2 * card_mm) * PLANE_PX_PER_MM), -region.rotation_deg))
    cv2.fillPoly(shown, [numpy.round(box).astype(numpy.int32)], 255)
    box = cv2.boxPoints((centre, (length, 4 * PLANE_PX_PER_MM), -region.rotation_deg))
    cv2.fillPoly(canvas, [numpy.round(box).astype(numpy.int32)], bgr)


def test_a_pale_stick_is_told_against_its_own_card_where_the_plane_shows_mostly_sticks() -> None:
    """Under glare a stick is washed pale and the reference leaves little card: the frame's bright level
    is the sticks', and the card kept beside one of them is what its darkness is measured against."""
    layout = recogniser_for("minoa").layout({})
    canvas = numpy.full((*layout.plane_size_px()[::-1], 3), (242, 244, 245), numpy.uint8)
    shown = numpy.zeros(canvas.shape[:2], numpy.uint8)
    interior = [f"line:{n}" for n in BOARD.interior_lines]
    pale = (150, 155, 158)
    for line in interior[::3]:
        _strip(canvas, shown, layout, line, pale, 0.0)
    tested = interior[len(interior) // 2 + 1]
    _strip(canvas, shown, layout, tested, pale, 1.5)
    plane = numpy.full_like(canvas, NEUTRAL_BGR)
    plane[shown > 0] = cv2.GaussianBlur(canvas, (0, 0), 1.0)[shown > 0]
    assert recogniser_for("minoa").read(plane, layout, None).items[tested] == "stick"


def test_a_stick_washed_pale_by_glare_is_still_a_stick() -> None:
    """Under the lamp's glare a stick is hardly darker than the card beside it (its dip under 1.2 mm of
    black), yet four millimetres wide: no print is."""
    layout = recogniser_for("minoa").layout({})
    line = f"line:{BOARD.interior_lines[len(BOARD.interior_lines) // 2]}"
    plane = _card_around(line, (150, 155, 158), 4.0, layout)
    assert recogniser_for("minoa").read(plane, layout, None).items[line] == "stick"
