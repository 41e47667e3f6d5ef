"""A back whose body the reference took for the table, its emblem left (_minotaurus_bodiless), is read
down, not empty: a cell read empty that is still partly foreign is compared with the backs the same frame
shows plainly, and where its foreign pixels lie as their emblem's lines do it is a back. A broad patch as
foreign lies as no emblem does and stays empty.

The recorded plane is the pipeline's of the burnt 20261141 hard set (felt, second print, session 13, the
fifth of its labelled frames): navy backs in a frame far darker than the empty area, four of them left
with little but their emblem. The second is the bench seed 20261142's (felt, second print, session 13, the
fifth labelled frame): blue backs on blue felt in a frame brighter than the empty area, every back but two
left with its emblem alone, the plainest 0.81 and 0.91 foreign.
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
WHOLE_FRAME = ["cell:23"]
"""One more back there, half its body left beside the emblem (0.52 alike): read down only as one of a frame
whose backs lost their bodies together (FRAME_BACKS)."""
RECORDED_BENCH = Path(__file__).parent / "data" / "minotaurus_bodiless_bench20261142_felt_13_4.png"
BENCH_BACKS = [1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29]
BENCH_BACKS += [30, 31, 32, 33, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 46, 48, 49]
"""Its cells holding a back (cells 0, 5, 9 and 34 hold backs too, read otherwise: 0 at the corner anchor)."""
BENCH_LOOSE = [
    "cell:2",
    "cell:10",
    "cell:13",
    "cell:22",
    "cell:24",
    "cell:32",
    "cell:35",
    "cell:39",
    "cell:42",
]
"""Its backs matched under EMBLEM_LIKE or less than BODILESS_COVER foreign (cell:10 0.22, cell:2 0.51)."""

RECORDED_DIM = Path(__file__).parent / "data" / "minotaurus_bodiless_bench20261148_felt_13_7.png"
DIM_BODILESS = ["cell:22", "cell:32", "cell:41", "cell:44", "cell:47"]
"""The bench seed 20261148's (felt, second print, a very dim room, session 13, the eighth labelled frame):
navy backs on navy felt whose emblems show little lighter than them (polarity -0.05 to 0.36); these five
lost their bodies to the reference."""
RECORDED_FEW = Path(__file__).parent / "data" / "minotaurus_bodiless_bench20261148_felt_13_2.png"
FEW_BODILESS = [f"cell:{n}" for n in (6, 7, 10, 23, 32, 39, 41, 42, 43, 45, 46)]
"""The bench seed 20261148's (felt, second print, a very dim room, session 13, its third labelled frame):
one back plain at SURE_COVER, speckled; these eleven lost their bodies to the reference."""


def _read_recorded(recorded: Path = RECORDED) -> dict[str, str]:
    plane = numpy.asarray(cv2.imread(str(recorded), cv2.IMREAD_COLOR), numpy.uint8)
    recogniser = MinotaurusRecogniser()
    layout = recogniser.layout({"players": 5})
    return recogniser.read(plane, layout, None).items


@pytest.mark.parametrize(
    ("items", "setting", "off"),
    [(BODILESS, "EMBLEM_LIKE", 2.0), (WHOLE_FRAME, "FRAME_BACKS", 100)],
    ids=["backs left with their emblem", "a frame of bodiless backs, its fainter ones"],
)
def test_bodiless_backs_are_down(
    monkeypatch: pytest.MonkeyPatch, items: list[str], setting: str, off: float
) -> None:
    read = _read_recorded()
    assert [read[item] for item in items] == ["down"] * len(items)
    monkeypatch.setattr(_minotaurus_bodiless, setting, off)
    read = _read_recorded()
    assert [read[item] for item in items] == ["empty"] * len(items)


def test_backs_the_bench_read_empty_are_down(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [f"cell:{n}" for n in BENCH_BACKS]
    read = _read_recorded(RECORDED_BENCH)
    assert [item for item in items if read[item] != "down"] == []
    monkeypatch.setattr(_minotaurus_bodiless, "FRAME_BACKS", 100)
    read = _read_recorded(RECORDED_BENCH)
    # Without the frame's fainter likeness its bodiless backs still lend their plus to the loose ones.
    assert [item for item in items if read[item] != "down"] == ["cell:10", "cell:39"]
    monkeypatch.setattr(_minotaurus_bodiless, "PEER_LIKE", 2.0)
    read = _read_recorded(RECORDED_BENCH)
    assert [item for item in items if read[item] != "down"] == BENCH_LOOSE
    # Its plainest backs are under 0.95 foreign: with them alone lending the emblem, no emblem is matched and
    # only the backs at least half foreign (EMPTY_COVER) stay down.
    monkeypatch.setattr(_minotaurus_bodiless, "SURE_COVER", 0.95)
    monkeypatch.setattr(_minotaurus_bodiless, "FEW_COVER", 0.95)
    read = _read_recorded(RECORDED_BENCH)
    assert sum(read[item] == "down" for item in items) == 8


@pytest.mark.parametrize(
    ("recorded", "items", "setting", "off"),
    [(RECORDED_DIM, DIM_BODILESS, "SURE_POLARITY", 0.5), (RECORDED_FEW, FEW_BODILESS, "FEW_LENDERS", 0)],
    # The first frame's backs show their emblem lighter than them by under SURE_POLARITY's former 0.5; the
    # second's one plain back is speckled.
    ids=["a frame of dim backs lends its emblem", "a lone plain back has others lend too"],
)
def test_dim_frames_backs_lend_their_emblem(
    monkeypatch: pytest.MonkeyPatch, recorded: Path, items: list[str], setting: str, off: float
) -> None:
    read = _read_recorded(recorded)
    assert [read[item] for item in items] == ["down"] * len(items)
    monkeypatch.setattr(_minotaurus_bodiless, setting, off)
    read = _read_recorded(recorded)
    assert [read[item] for item in items] == ["empty"] * len(items)


def test_a_broad_patch_is_no_emblem(monkeypatch: pytest.MonkeyPatch) -> None:
    back = cv2.GaussianBlur(piece_face("down", PLANE_PX_PER_MM, edition="second-print"), (0, 0), 1.5)
    plane = neutral_plane(dict.fromkeys(ANCHORS, back))
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:24"].centre_mm)
    # Four tenths of the cell's middle, off its centre: a patch the reference left, a neighbour's corner.
    cv2.rectangle(plane, (x - 20, y - 20), (x + 4, y + 4), (70, 60, 55), -1)
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"] == "empty"
    monkeypatch.setattr(_minotaurus_bodiless, "EMBLEM_LIKE", -1.0)
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:24"] == "down"


RECORDED_PEERS = Path(__file__).parent / "data" / "minotaurus_bodiless_bench20261142_felt_13_7.png"
PEER_BODILESS = [f"cell:{n}" for n in (1, 10, 11, 21, 22, 23, 30, 41, 42)]
"""The bench seed 20261142's (felt, second print, session 13, its eighth labelled frame): one back plain at
SURE_COVER, in the matrix's corner; these nine lost their bodies to the reference, their plus left, and lie
as its emblem under FRAME_LIKE (0.07-0.40), as the plus of the frame's other bodiless backs from 0.82."""


def test_bodiless_backs_lend_their_remnant(monkeypatch: pytest.MonkeyPatch) -> None:
    read = _read_recorded(RECORDED_PEERS)
    assert [read[item] for item in PEER_BODILESS] == ["down"] * len(PEER_BODILESS)
    monkeypatch.setattr(_minotaurus_bodiless, "PEER_LIKE", 2.0)
    read = _read_recorded(RECORDED_PEERS)
    assert [read[item] for item in PEER_BODILESS] == ["empty"] * len(PEER_BODILESS)
