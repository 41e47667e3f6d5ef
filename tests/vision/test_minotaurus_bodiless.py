"""A back whose body the reference took for the table, its emblem left (_minotaurus_bodiless), is read
down, not empty: a cell read empty that is still partly foreign is compared with the backs the same frame
shows plainly, and where its foreign pixels lie as their emblem's lines do it is a back. A broad patch as
foreign lies as no emblem does and stays empty.

The recorded plane is the pipeline's of the burnt 20261141 hard set (felt, second print, session 13, the
fifth of its labelled frames): navy backs in a frame far darker than the empty area, four of them left
with little but their emblem.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers import _minotaurus_bodiless
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser
from tests.vision.test_minotaurus_emblem import ANCHORS
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

RECORDED = Path(__file__).parent / "data" / "minotaurus_bodiless_burnt20261141_felt_13_4.png"
BODILESS = ["cell:31", "cell:32", "cell:33", "cell:40"]


def _read_recorded() -> dict[str, str]:
    plane = numpy.asarray(cv2.imread(str(RECORDED), cv2.IMREAD_COLOR), numpy.uint8)
    recogniser = MinotaurusRecogniser()
    layout = recogniser.layout({"players": 5})
    return recogniser.read(plane, layout, None).items


def test_backs_left_with_their_emblem_are_down(monkeypatch: pytest.MonkeyPatch) -> None:
    read = _read_recorded()
    assert [read[item] for item in BODILESS] == ["down"] * len(BODILESS)
    monkeypatch.setattr(_minotaurus_bodiless, "EMBLEM_LIKE", 2.0)
    read = _read_recorded()
    assert [read[item] for item in BODILESS] == ["empty"] * len(BODILESS)


def test_a_broad_patch_is_no_emblem(monkeypatch: pytest.MonkeyPatch) -> None:
    back = cv2.GaussianBlur(piece_face("down", PLANE_PX_PER_MM, edition="second-print"), (0, 0), 1.5)
    plane = neutral_plane(dict.fromkeys(ANCHORS, back))
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    # Four tenths of the cell's middle, off its centre: a patch the reference left, a neighbour's corner.
    cv2.rectangle(plane, (x - 20, y - 20), (x + 4, y + 4), (70, 60, 55), -1)
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"] == "empty"
    monkeypatch.setattr(_minotaurus_bodiless, "EMBLEM_LIKE", -1.0)
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"] == "down"
