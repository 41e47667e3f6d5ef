"""A back whose body the reference took for the table, half of its middle left with its light emblem, that
the prototypes read as a white face, is a back (_minotaurus_checks.dark_faces_not_white, HALF_WHITE_COVER
and HALF_WHITE_LIT); a patch as foreign that shows no mark like a horn is left to the glyphs (read empty).

The recorded planes are the pipeline's: bench seed 20261142 (burnt) felt, second print, session 13, the
sixth labelled frame: blue backs on blue felt, their crosses left; dev seed 73 gingham, travel, session 11,
the fifth labelled frame: an empty cell half covered by the cloth's checks the reference left.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.recognisers import _minotaurus_checks
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser

DATA = Path(__file__).parent / "data"


def _read(name: str) -> dict[str, str]:
    plane = numpy.asarray(cv2.imread(str(DATA / name), cv2.IMREAD_COLOR), numpy.uint8)
    recogniser = MinotaurusRecogniser()
    return recogniser.read(plane, recogniser.layout({"players": 5}), None).items


def test_half_covered_backs_read_white_are_down(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "minotaurus_half_white_bench20261142_felt_13_5.png"
    assert [_read(name)[item] for item in ("cell:2", "cell:16")] == ["down", "down"]
    monkeypatch.setattr(_minotaurus_checks, "HALF_WHITE_LIT", 0.0)
    assert [_read(name)[item] for item in ("cell:2", "cell:16")] == ["white-2-right", "white-5-right"]


def test_a_half_covered_patch_without_a_mark_stays_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "minotaurus_half_white_dev73_gingham_11_4.png"
    assert _read(name)["cell:31"] == "empty"
    monkeypatch.setattr(_minotaurus_checks, "HORN_SEEN", -1.0)
    assert _read(name)["cell:31"] == "down"
