"""A Minotaurus face is white only when its colour is the canonical white (or the cast of the frame's
other whites): a pale face paler than any built-in colour keeps its hue.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers import _minotaurus_white
from companion.vision.recognisers._minotaurus_white import WHITE_CHROMA, too_coloured_for_white
from companion.vision.recognisers.minotaurus import MinotaurusRecogniser, _cell_colours

from .test_minotaurus_marks import LAYOUT, neutral_plane


def _washed(label: str, share: float, shade: float = 1.0) -> Frame:
    """The second print's face lightened towards white by `share` (a pastel print, a glare), then dimmed
    by `shade`."""
    face = piece_face(label, PLANE_PX_PER_MM, edition="second-print").astype(numpy.float32)
    return numpy.clip((face + share * (255.0 - face)) * shade, 0, 255).astype(numpy.uint8)


def test_a_green_face_paler_than_the_built_in_greens_reads_green_not_white() -> None:
    """Half washed out, the second print's green is nearer the built-in white prototypes' casts than its
    saturated greens, yet still well coloured (chroma ~25): its hue is green."""
    plane = neutral_plane(
        {"cell:7": _washed("green-3-right", 0.5), "cell:20": piece_face("white-2-left", PLANE_PX_PER_MM)}
    )
    cells = _cell_colours(plane, LAYOUT)
    cast = cells.features[cells.ids.index("cell:7"), 4:6] / 2.0
    assert float(numpy.hypot(*cast)) > WHITE_CHROMA
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:7"] == "green-3-right"
    assert reading.items["cell:20"] == "white-2-left"


def test_a_white_face_sharing_the_cast_of_the_frames_near_white_face_stays_white() -> None:
    """A face as coloured as WHITE_CHROMA is still white when another face of the frame, near the canonical
    white, is nearer it than that (the normalisation's cast on both); never so for two far faces alone."""
    casts = numpy.array([[0.0, 8.0], [-2.0, 25.0], [-20.0, 22.0]], numpy.float32)
    bright = numpy.full(len(casts), 240.0, numpy.float32)
    assert too_coloured_for_white(casts, bright).tolist() == [False, False, True]
    assert too_coloured_for_white(casts[1:], bright[1:]).tolist() == [True, True]
    # A taught white (an edition's ivory) stands for the frame's own white.
    taught = numpy.array([[-15.0, 20.0]], numpy.float32)
    assert too_coloured_for_white(casts[1:], bright[1:], taught).tolist() == [False, False]


def test_a_cast_is_as_strong_as_the_light_where_a_pastel_is_as_coloured_in_the_shade() -> None:
    """The same tint short of WHITE_CHROMA: white when brightly lit (a lamp's cast), too saturated for
    white when dim."""
    tint = numpy.array([[-10.0, -14.0]], numpy.float32)
    assert not too_coloured_for_white(tint, numpy.array([240.0], numpy.float32))[0]
    assert too_coloured_for_white(tint, numpy.array([110.0], numpy.float32))[0]
    # A dim white's faint tint is its noise.
    faint = numpy.array([[3.0, 4.0]], numpy.float32)
    assert not too_coloured_for_white(faint, numpy.array([30.0], numpy.float32))[0]


def test_a_blue_face_paler_than_the_built_in_blues_reads_blue_not_white() -> None:
    """Washed out and in a shade, the second print's blue is nearer the canonical white than a cast white
    can be (chroma ~17) but twice as saturated for its lightness."""
    plane = neutral_plane(
        {
            "cell:7": _washed("blue-3-right", 0.3, shade=0.6),
            "cell:20": piece_face("white-2-left", PLANE_PX_PER_MM),
        }
    )
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:7"] == "blue-3-right"
    assert reading.items["cell:20"] == "white-2-left"


def test_a_white_under_a_warm_cast_paler_than_any_yellow_stays_white() -> None:
    """A lamp's warm cast tints a second print's white past WHITE_CHROMA (dev 55 dark wood: chroma 37 at L
    234): nearest the yellows among the colours, yet far paler than a yellow face (CAST_SATURATION)."""
    face = piece_face("white-2-right", PLANE_PX_PER_MM, edition="second-print").astype(numpy.float32)
    face *= numpy.array([0.75, 0.875, 1.0], numpy.float32)  # less blue, a little less green: warm
    yellow = piece_face("yellow-4-left", PLANE_PX_PER_MM, edition="second-print")
    plane = neutral_plane({"cell:7": numpy.clip(face, 0, 255).astype(numpy.uint8), "cell:20": yellow})
    cells = _cell_colours(plane, LAYOUT)
    cast = cells.features[cells.ids.index("cell:7"), 4:6] / 2.0
    assert float(numpy.hypot(*cast)) > WHITE_CHROMA  # too coloured for white: read yellow without the rule
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:7"] == "white-2-right"
    assert reading.items["cell:20"] == "yellow-4-left"


def test_a_bright_pale_blue_is_too_coloured_for_white_where_a_warm_cast_as_faint_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bench seed 20261149 dark wood frame 000011: a second print's pale blue lit to lightness 167, chroma
    17.5 (0.105 of it), under WHITE_SATURATION; a lamp's warm cast on a white as lit (0.111) stays white,
    and a travel white's faint cool print (0.07) too. (Each alone: a frame's near-white face lends its
    cast.)"""
    casts = numpy.array([[-4.0, -17.0], [11.0, 15.0], [4.0, -15.0]], numpy.float32)
    lightness = numpy.array([167.0, 167.0, 219.0], numpy.float32)

    def alone() -> list[bool]:
        return [bool(too_coloured_for_white(casts[n : n + 1], lightness[n : n + 1])[0]) for n in range(3)]

    assert alone() == [True, False, False]
    monkeypatch.setattr(_minotaurus_white, "COOL_SATURATION", _minotaurus_white.WHITE_SATURATION)
    assert alone() == [False, False, False]
