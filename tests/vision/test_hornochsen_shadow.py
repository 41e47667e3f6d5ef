"""Tanz der Hornochsen: a light face with a shadow across part of it still reads its number.

The crop is of the pipeline's normalised plane of dev seed 58 (dark wood, travel edition, session 08, a
played slot): the square's plane and the reference's table, 120 px (60 mm) about its fitted centre.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_faces, _hornochsen_seen, hornochsen

DATA = Path(__file__).parent / "data" / "hornochsen_shadow"


def test_a_light_face_whose_digit_a_shadow_joins_to_its_edge_reads_both_digits() -> None:
    """A played 82 whose right side lies in a shadow: scaled from its face's lightness to its ink, the
    shadow is ink and joins the 2 to the tile's edge; its glyphs are the 8 and a sliver (81 at the pale
    score), and the windows on its ink find none. Evened against the face round each pixel, as a dim
    face's, it reads 82."""
    plane = numpy.asarray(cv2.imread(str(DATA / "shadow_82_plane.png"), cv2.IMREAD_COLOR), numpy.uint8)
    table = numpy.asarray(cv2.imread(str(DATA / "shadow_82_table.png"), cv2.IMREAD_GRAYSCALE), numpy.uint8)
    seen = _hornochsen_seen.Seen.of(plane, table)
    face = _hornochsen_faces.look_normalised(seen, ItemRegion((30.0, 30.0), (36.0, 36.0)))
    assert isinstance(face, _hornochsen_faces.Face)
    assert not face.dim and len(face.glyphs) == 2
    recogniser = hornochsen.HornochsenRecogniser()
    templates = recogniser._templates(recogniser._profile(None), True)
    scored = templates.all_scores(face.glyphs, raw=True)
    least = _hornochsen_faces.FACE_GLYPH_SCORE
    # (The glyphs alone: no number at the face's least score, 81 at the pale one.)
    assert (
        _hornochsen_faces.number_of(face.glyphs, scored, least, _hornochsen_faces.FACE_JOINED_SCORE, False)[0]
        is None
    )
    pale = _hornochsen_faces.PALE_GLYPH_SCORE
    assert (
        _hornochsen_faces.number_of(face.glyphs, scored, pale, _hornochsen_faces.FACE_JOINED_SCORE, False)[0]
        == 81
    )
    assert _hornochsen_faces.read_face(seen, face, scored, templates)[0] == "82"
