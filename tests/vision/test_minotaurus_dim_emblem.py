"""A back in a deep shade keeps its emblem (_minotaurus_emblem.dim_emblem): its ring stands only 12-16 grey
levels over its surroundings, under EMBLEM_LINE, yet as far over them as the back's own grey, and it is
read down, not empty as the table a normalisation left.

The recorded cell is the pipeline's plane of the burnt 20261141 hard set (linen, session 03, the seventh of
its labelled frames, cell:31), 60 mm about the cell's centre, pasted at cell:24 of a plane otherwise
NEUTRAL_BGR with the generator's backs about it for the matrix's grid to fit to (as test_minotaurus_emblem).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers import _minotaurus_emblem
from tests.vision.test_minotaurus_emblem import ANCHORS, read_pasted

DATA = Path(__file__).parent / "data" / "minotaurus_dim_emblem"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.png")))
def test_a_back_in_a_deep_shade_keeps_its_emblem(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    patch = numpy.asarray(cv2.imread(str(DATA / name), cv2.IMREAD_COLOR), numpy.uint8)
    anchors = {item: piece_face("down", PLANE_PX_PER_MM, edition="default") for item in ANCHORS}
    assert read_pasted(patch, anchors) == "down"
    # Its lines under EMBLEM_LINE over LINE_SHARE: without the shade's measure it is read empty.
    monkeypatch.setattr(_minotaurus_emblem, "DIM_LINE_RATIO", 2.0)
    assert read_pasted(patch, anchors) == "empty"
