"""Tanz der Hornochsen: a back lit up to a face's lightness whose ring reads as one digit is face down.

The crop is of the pipeline's normalised plane of burnt seed 20261138 (dark wood, travel edition, session
08 frame 6, played slot of seat 2): the plane and the reference's table, 120 px (60 mm) about the slot's
fitted centre. Its median is 0.72 of its brightest tenth (not dim: BACK_SHARE 0.7), so it is looked at as a
face, and the ink window reads a piece of its ring as a 7.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_faces, _hornochsen_seen, hornochsen

DATA = Path(__file__).parent / "data" / "hornochsen_back"


def _read() -> str:
    plane = numpy.asarray(cv2.imread(str(DATA / "lit_back_plane.png"), cv2.IMREAD_COLOR), numpy.uint8)
    table = numpy.asarray(cv2.imread(str(DATA / "lit_back_table.png"), cv2.IMREAD_GRAYSCALE), numpy.uint8)
    seen = _hornochsen_seen.Seen.of(plane, table)
    face = _hornochsen_faces.look_normalised(seen, ItemRegion((30.15, 30.0), (36.0, 36.0)))
    assert isinstance(face, _hornochsen_faces.Face)
    assert not face.dim
    recogniser = hornochsen.HornochsenRecogniser()
    templates = recogniser._templates(recogniser._profile(None), True)
    scored = templates.all_scores(face.glyphs, raw=True)
    return _hornochsen_faces.read_face(seen, face, scored, templates)[0]


def test_a_lit_back_read_as_one_digit_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read() == "down"
    # Without its mark it reads the one digit the ring gave (so the mark, not the digits, decides).
    monkeypatch.setattr(_hornochsen_faces, "back_mark", lambda *_: 0.0)
    assert _read() == "7"
