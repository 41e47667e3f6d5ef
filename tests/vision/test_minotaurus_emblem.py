"""The Minotaurus recogniser reads a cell whose lighter marks told a back (its marks' polarity) but that
shows no back's emblem, the thin light line of a ring or a diamond (_minotaurus_emblem), as no back: the
table a normalisation left (shadows' edges on felt, dark wood and laminate, a lamp's pool on linen, a dark
wood's patch) is empty, and a travel blue face washed by a laminate's glare, lit past the table and showing
its horn, is a face. Backs of every edition, dim and blurred, keep their emblem and stay down.

The recorded cells are those of generated hard sets' pipeline planes (dev seeds 2, 44, 60 and the burnt
20261139; session and frame, counted among the session's labelled frames, in the file's name), 60 mm about
the cell's centre, pasted at cell:24 of a plane otherwise NEUTRAL_BGR, with the generator's backs in eight
other cells for the matrix's grid to fit to. Each read down before this rule (asserted with it turned off).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers import _minotaurus_emblem
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

DATA = Path(__file__).parent / "data" / "minotaurus_emblemless"
ANCHORS = [f"cell:{n}" for n in (0, 3, 6, 21, 27, 42, 45, 48)]
"""Cells holding a drawn back, about the recorded one: the grid is fitted to them."""


def read_pasted(patch: Frame, anchors: dict[str, Frame]) -> str:
    plane = neutral_plane(anchors)
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    half = patch.shape[0] // 2
    plane[y - half : y + half, x - half : x + half] = patch
    return MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"]


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.png")))
def test_a_cell_read_down_without_an_emblem_is_no_back(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    patch = numpy.asarray(cv2.imread(str(DATA / name), cv2.IMREAD_COLOR), numpy.uint8)
    truth = name.removesuffix(".png").split("-cell")[1].split("-", 1)[1]
    anchors = {item: piece_face("down", PLANE_PX_PER_MM, edition="default") for item in ANCHORS}
    assert read_pasted(patch, anchors) == truth
    monkeypatch.setattr(_minotaurus_emblem, "LINE_SHARE", 0.0)
    assert read_pasted(patch, anchors) == "down"


@pytest.mark.parametrize("edition", ["default", "second-print", "travel"])
def test_dim_blurred_backs_keep_their_emblem(edition: str) -> None:
    # A third of the canonical light, blurred as a camera's plane is and noisy: the deep shade of the
    # dimmest backs on the hard sets (their grey varying 8-9).
    face = piece_face("down", PLANE_PX_PER_MM, edition=edition).astype(numpy.float32) / 3.0
    face = cv2.GaussianBlur(face, (0, 0), 1.5) + numpy.random.default_rng(5).normal(0.0, 2.0, face.shape)
    dim = numpy.clip(face, 0, 255).astype(numpy.uint8)
    items = ["cell:16", "cell:24", "cell:32", *ANCHORS]
    read = MinotaurusRecogniser().read(neutral_plane(dict.fromkeys(items, dim)), LAYOUT, None).items
    assert [read[item] for item in items] == ["down"] * len(items)
