"""Tanz der Hornochsen: a back as dark as the cloth under it, painted over by the reference but for its mark.

Burnt 20261147, blue felt: the reference took a played back for empty area and painted it neutral grey
but for its light mark (a ring round a disc on a little of its dark ground); read empty three frames.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, ItemRegion
from companion.vision.recognisers import _hornochsen_back, _hornochsen_faces, _hornochsen_seen, hornochsen

SIDE_PX = 120
SQUARE = ItemRegion((30.0, 30.0), (30.0, 30.0))
"""A square in the plane's middle (60, 60 px)."""
NEUTRAL = 128
"""The grey the reference paints the empty area it replaced."""


def _painted(light: numpy.typing.NDArray[numpy.uint8], kept_mm: float) -> _hornochsen_seen.Seen:
    """`light` painted NEUTRAL and marked empty beyond kept_mm of the middle, as the reference leaves it."""
    table = numpy.full(light.shape, 255, numpy.uint8)
    cv2.circle(table, (SIDE_PX // 2, SIDE_PX // 2), round(kept_mm * PLANE_PX_PER_MM), 0, -1)
    grey = numpy.where(table > 0, NEUTRAL, light).astype(numpy.uint8)
    plane = numpy.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), numpy.uint8)
    return _hornochsen_seen.Seen(plane, table, grey)


def _back() -> numpy.typing.NDArray[numpy.uint8]:
    """A dark back whose light mark is still darker than the reference's neutral grey (a blue back)."""
    grey = numpy.full((SIDE_PX, SIDE_PX), 40, numpy.float32)
    middle = (SIDE_PX // 2, SIDE_PX // 2)
    ring, stroke = (round(v * PLANE_PX_PER_MM) for v in _hornochsen_back.BACK_RING_MM)
    cv2.circle(grey, middle, ring, 100, stroke, cv2.LINE_AA)
    cv2.circle(grey, middle, round(_hornochsen_back.BACK_DISC_MM * PLANE_PX_PER_MM), 100, -1, cv2.LINE_AA)
    return numpy.asarray(numpy.clip(cv2.GaussianBlur(grey, (0, 0), 1.5), 0, 255), numpy.uint8)


def test_a_back_painted_grey_but_for_its_mark_is_face_down() -> None:
    seen = _painted(_back(), 10.0)
    # On the painted grey the mark alone scores under BACK_MARK (the table left unmarked: no second look).
    unmarked = _hornochsen_seen.Seen(seen.plane, numpy.zeros_like(seen.table), seen.grey)
    assert (
        _hornochsen_back.back_mark(unmarked, SQUARE, _hornochsen_faces.BACK_MARK)
        < _hornochsen_faces.BACK_MARK
    )
    assert (
        _hornochsen_back.back_mark(seen, SQUARE, _hornochsen_faces.BACK_MARK) >= _hornochsen_faces.BACK_MARK
    )
    assert _hornochsen_faces.look_normalised(seen, SQUARE)[0] == hornochsen.DOWN


def test_a_face_on_painted_grey_shows_no_mark() -> None:
    face = numpy.full((SIDE_PX, SIDE_PX), 60, numpy.uint8)
    face[34:86, 34:86] = 200
    face[46:74, 44:52] = 30
    face[46:74, 64:76] = 30
    seen = _painted(face, 18.0)
    assert _hornochsen_back.back_mark(seen, SQUARE, _hornochsen_faces.BACK_MARK) < _hornochsen_faces.BACK_MARK
