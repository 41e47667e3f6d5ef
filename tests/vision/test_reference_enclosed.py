"""A tile's digit is no shadow the tile casts (dev 11 Hornochsen laminate: played 54 read 14 and 62 read 2,
their first digits painted the neutral grey). Ink blurred into a cream face a little off the cloth's colour
darkens it alike in every channel, as a shadow does, right beside the face: where the face's edge matched
the cloth, that "shadow" opened to the table and was no hole to fill. Drawn here with numpy/cv2, not by the
generator."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame
from tests.vision.test_reference import PLANE_MM, learned, mask_box
from tests.vision.test_reference_tear import with_markers

CLOTH = (200.0, 188.0, 214.0)
"""A pinkish laminate, plain (no texture to tell a piece by)."""
FACE = (168.0, 206.0, 220.0)
"""A cream face, off the cloth's colour by its hue (and a little in level)."""
INK_SHARE = 0.62
"""A digit's stroke blurred into a mask pixel: the cloth's colour this much darker in every channel."""


def laminate(rng: numpy.random.Generator) -> Frame:
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    image = numpy.empty((height, width, 3), numpy.float32)
    image[:] = CLOTH
    return with_markers(numpy.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(numpy.uint8))


def mm(value: float) -> int:
    return round(value * PLANE_PX_PER_MM)


def with_tiles(plane: Frame, rng: numpy.random.Generator) -> Frame:
    """Two 30 mm tiles at (100, 130) and (250, 130) mm. The first's left edge (4 mm) is the cloth's own colour
    and a stroke 8 mm tall runs from it 12 mm into the face, the cloth's colour darkened alike; the second,
    plain, casts a soft shadow 6 mm wide to its right."""
    out = plane.astype(numpy.float32)
    shadow = numpy.zeros(plane.shape[:2], numpy.float32)
    shadow[mm(115) : mm(145), mm(265) : mm(271)] = 1.0
    out *= (1.0 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 1.5))[..., None]
    for left in (85.0, 235.0):
        out[mm(115) : mm(145), mm(left) : mm(left + 30)] = FACE
    out[mm(115) : mm(145), mm(85) : mm(89)] = CLOTH
    out[mm(126) : mm(134), mm(89) : mm(101)] = tuple(INK_SHARE * c for c in CLOTH)
    return numpy.clip(out + rng.normal(0, 2.0, out.shape), 0, 255).astype(numpy.uint8)


def test_a_stroke_open_to_the_cloth_through_the_faces_edge_is_piece_a_cast_shadow_is_table() -> None:
    rng = numpy.random.default_rng(11)
    reference = learned(laminate(rng))
    view = reference.look(with_tiles(laminate(rng), rng))
    assert not view.refused, view.reason
    stroke = view.foreground[mask_box(91, 128, 100, 132)]
    assert stroke.all(), stroke.astype(int)
    # The shadow beside the plain tile, but for the mask pixel its blurred edge shares with the tile.
    cast = view.foreground[mask_box(268, 118, 274, 142)]
    assert not cast.any(), cast.astype(int)
    # Nothing of the cloth away from the tiles.
    away = view.foreground.copy()
    away[mask_box(75, 105, 115, 155)] = False
    away[mask_box(225, 105, 280, 155)] = False
    assert not away.any()
