"""A frame whose clearest face shows rows of ring pips reads its faint faces' values by rows of rings
(_minotaurus_rings.reread_ring_rows); a frame of round pips is left to the filled rows' match.

The faces are the generator's (travel edition: navy ring pips; default: black round ones), laid upright on a
plane otherwise NEUTRAL_BGR, the faint one blurred and noisy as a camera leaves a dark face.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers import _minotaurus_rings as rings
from companion.vision.recognisers._minotaurus_glyphs import VALUE_BOX_MM
from companion.vision.recognisers._minotaurus_pips import PIP_ROW_MM
from companion.vision.recognisers._minotaurus_rings import FaceRow, reread_ring_rows
from companion.vision.recognisers.minotaurus import _templates
from companion.vision.reference import NEUTRAL_BGR

CENTRES_MM = ((50.0, 50.0), (110.0, 50.0))
AT = (45.0, 45.0)
"""Where each face's centre lies in its glyph window (glyph pixels): 30 mm in, at 1.5 px per mm."""


def _plane(clear: str, faint: str, edition: str) -> numpy.typing.NDArray[numpy.uint8]:
    plane = numpy.full(
        (round(100 * PLANE_PX_PER_MM), round(160 * PLANE_PX_PER_MM), 3), NEUTRAL_BGR, numpy.uint8
    )
    rng = numpy.random.default_rng(7)
    for label, (x, y), spoilt in ((clear, CENTRES_MM[0], False), (faint, CENTRES_MM[1], True)):
        face = piece_face(label, PLANE_PX_PER_MM, None, edition).astype(numpy.float32)
        if spoilt:
            noise = rng.normal(0.0, 4.0, face.shape).astype(numpy.float32)
            face = cv2.GaussianBlur(face, (0, 0), 1.2) + noise
        side = face.shape[0]
        top, left = round(y * PLANE_PX_PER_MM) - side // 2, round(x * PLANE_PX_PER_MM) - side // 2
        plane[top : top + side, left : left + side] = numpy.clip(face, 0, 255).astype(numpy.uint8)
    return plane


def _faces(read: str) -> list[FaceRow]:
    return [
        FaceRow("cell:0", CENTRES_MM[0], False, AT, "3", 0.9, 0.9),
        FaceRow("cell:1", CENTRES_MM[1], False, AT, read, 0.52, 0.5),
    ]


def test_a_faint_face_in_a_frame_of_rings_is_read_by_rows_of_rings() -> None:
    plane = _plane("white-3-left", "blue-2-left", "travel")
    for read in ("1", "3"):
        assert reread_ring_rows(plane, _faces(read), _templates(None), [1, 2, 3, 4, 5]) == {"cell:1": "2"}


def test_a_frame_of_round_pips_is_not_read_again() -> None:
    plane = _plane("white-3-left", "blue-2-left", "default")
    assert reread_ring_rows(plane, _faces("3"), _templates(None), [1, 2, 3, 4, 5]) == {}


def test_clear_faces_are_not_read_again() -> None:
    plane = _plane("white-3-left", "blue-2-left", "travel")
    faces = [
        FaceRow(face.item, face.centre_mm, False, AT, face.value, 0.9, face.likeness) for face in _faces("3")
    ]
    assert reread_ring_rows(plane, faces, _templates(None), [1, 2, 3, 4, 5]) == {}


def test_the_rows_of_each_style_are_drawn_for_every_value_and_turn() -> None:
    rows = rings.style_rows()
    assert set(rows) == set(rings.STYLES)
    shapes = {row.shape for style in rows.values() for value in style.values() for row in value}
    assert len(shapes) == 1
    # A ring's hollow is lighter than a round pip's middle, drawn alike otherwise.
    ring, round_pip = rows["ring"]["1"][1], rows["round"]["1"][1]
    middle = (round((PIP_ROW_MM - VALUE_BOX_MM[1]) * PLANE_PX_PER_MM), ring.shape[1] // 2)
    assert int(ring[middle]) > int(round_pip[middle]) + 50
