"""A digit's ink is no shadow its tile casts, though the tile's face beside it matches the table (burnt
20261151 Hornochsen laminate: in a lamp's glare the face took the laminate's colour, its digits' ink darkened
it by half alike in every channel, right beside the tile's foreign rest, and 52 read empty). A cast shadow
fades at its penumbra; ink is edged sharply (`STEEP_EDGE`). Drawn here with numpy/cv2, not by the
generator."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _reference_edge as edge
from companion.vision.base import Frame
from tests.vision.test_reference import learned, mask_box, table
from tests.vision.test_reference_enclosed import CLOTH, FACE, laminate, mm

INK = 0.5
"""The ink's level, a share of the face's (the laminate's) in every channel."""
PENUMBRA_MM = 1.5
"""A cast shadow's penumbra (Gaussian sigma)."""


def glared_tile_and_shadow(plane: Frame, rng: numpy.random.Generator) -> Frame:
    """A 30 mm tile at (100, 130) mm whose right 16 mm of face are the laminate's own colour, a stroke
    4 mm wide and 12 mm tall 8 mm into that part, and a plain tile at (250, 130) casting a shadow 6 mm wide as
    deep as the ink to its right, its penumbra `PENUMBRA_MM`."""
    out = plane.astype(numpy.float32)
    shadow = numpy.zeros(plane.shape[:2], numpy.float32)
    shadow[mm(115) : mm(145), mm(265) : mm(271)] = 1.0
    out *= (1.0 - INK * cv2.GaussianBlur(shadow, (0, 0), PENUMBRA_MM * mm(1.0)))[..., None]
    for left in (85.0, 235.0):
        out[mm(115) : mm(145), mm(left) : mm(left + 30)] = FACE
    out[mm(115) : mm(145), mm(99) : mm(115)] = CLOTH
    out[mm(124) : mm(136), mm(105) : mm(109)] = tuple(INK * c for c in CLOTH)
    return numpy.clip(out + rng.normal(0, 2.0, out.shape), 0, 255).astype(numpy.uint8)


def stroke_and_shadow(steep: float) -> tuple[float, float]:
    rng = numpy.random.default_rng(51)
    reference = learned(laminate(rng))
    plane = glared_tile_and_shadow(laminate(rng), rng)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(edge, "STEEP_EDGE", steep)
        view = reference.look(plane)
    assert not view.refused, view.reason
    stroke = float(view.foreground[mask_box(106, 126, 108, 134)].mean())
    # The shadow beyond the mask pixel its blurred edge shares with the tile.
    cast = float(view.foreground[mask_box(268, 120, 272, 140)].mean())
    return stroke, cast


def test_a_sharp_edged_stroke_beside_a_glared_face_is_piece_a_soft_shadow_as_deep_is_table() -> None:
    stroke, cast = stroke_and_shadow(edge.STEEP_EDGE)
    assert stroke == 1.0
    assert cast == 0.0


def test_without_the_edge_rule_the_stroke_is_taken_for_a_cast_shadow() -> None:
    stroke, _ = stroke_and_shadow(10.0)
    assert stroke < 0.5


def test_the_shadow_is_told_by_its_penumbra_a_stricter_edge_takes_it_for_piece() -> None:
    _, cast = stroke_and_shadow(0.1)
    assert cast > 0.5


def test_plain_tables_are_told_by_the_edge_a_gingham_is_not() -> None:
    rng = numpy.random.default_rng(5)
    assert learned(laminate(rng)).table_range < edge.PLAIN_RANGE
    assert learned(table("light-wood", rng)).table_range < edge.PLAIN_RANGE
    assert learned(table("gingham", rng)).table_range > edge.PLAIN_RANGE
