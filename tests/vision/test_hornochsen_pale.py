"""Tanz der Hornochsen: a face whose digits correlate less with the built-in ones than a light face's must
(a pale digit of another edition, a frame under a dim lamp) still reads its number.

The crops are of the pipeline's normalised planes of burnt seed 20261138 (laminate table, travel edition):
each square's plane and the reference's table, 120 px (60 mm) about the square's fitted centre.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_faces, _hornochsen_seen, hornochsen

DATA = Path(__file__).parent / "data" / "hornochsen_pale"


def _face(
    name: str, size_mm: float, centre_mm: tuple[float, float] = (30.6, 30.5)
) -> tuple[_hornochsen_seen.Seen, _hornochsen_faces.Face]:
    plane = numpy.asarray(cv2.imread(str(DATA / f"{name}_plane.png"), cv2.IMREAD_COLOR), numpy.uint8)
    table = numpy.asarray(cv2.imread(str(DATA / f"{name}_table.png"), cv2.IMREAD_GRAYSCALE), numpy.uint8)
    seen = _hornochsen_seen.Seen.of(plane, table)
    face = _hornochsen_faces.look_normalised(seen, ItemRegion(centre_mm, (size_mm, size_mm)))
    assert isinstance(face, _hornochsen_faces.Face)
    return seen, face


def _read(seen: _hornochsen_seen.Seen, face: _hornochsen_faces.Face, face_least: float) -> str:
    recogniser = hornochsen.HornochsenRecogniser()
    templates = recogniser._templates(recogniser._profile(None), True)
    scored = templates.all_scores(face.glyphs, raw=True)
    return _hornochsen_faces.read_face(seen, face, scored, templates, face_least)[0]


def test_a_whole_light_face_reads_its_two_digits_though_one_is_pale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A played 30 whose 0 correlates 0.57 with the built-in digits (under FACE_GLYPH_SCORE): a whole light
    face shows a number, and read empty it would be wrong for sure."""
    seen, face = _face("pale_30", 36.0)
    assert not face.dim and face.tile >= _hornochsen_faces.WHOLE_FACE
    assert _read(seen, face, _hornochsen_faces.FACE_LEAST) == "30"
    monkeypatch.setattr(_hornochsen_faces, "PALE_GLYPH_SCORE", _hornochsen_faces.FACE_GLYPH_SCORE)
    assert _read(seen, face, _hornochsen_faces.FACE_LEAST) == "empty"
    monkeypatch.undo()
    partly = face._replace(tile=0.9)  # a face partly in view
    assert _read(seen, partly, _hornochsen_faces.FACE_LEAST) == "empty"


def test_a_dim_face_as_light_as_the_frames_faces_reads_as_a_light_face() -> None:
    """Under a dim lamp (the frame's faces at 110 median: _face_least 88) a 98 at 124 whose digits run
    together (0.8-0.89, under JOINED_SCORE) is one of the frame's faces and reads; among light faces
    (FACE_LEAST) as dark a face is dim, where the board's print left in view must not read."""
    seen, face = _face("dim_98", 30.0)
    assert face.dim
    assert _read(seen, face, 88.4) == "98"
    assert _read(seen, face, _hornochsen_faces.FACE_LEAST) == "empty"
    assert _read(seen, face._replace(median=80.0), 88.4) == "empty"  # darker than the frame's faces


def test_a_dim_patch_covering_little_of_the_square_shows_no_lone_digit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A printed cloth's blot the reference left in view (burnt 20261138: 0.28 of a board square's middle,
    139 median among light faces) has a stroke like a 6; a tile shows its two digits there, not one."""
    seen, face = _face("print_6", 30.0, (30.555, 30.182))
    assert face.dim and face.tile < _hornochsen_faces.DIM_PART
    assert _read(seen, face, _hornochsen_faces.FACE_LEAST) == "empty"
    monkeypatch.setattr(_hornochsen_faces, "DIM_PART", 0.0)
    assert _read(seen, face, _hornochsen_faces.FACE_LEAST) == "6"
