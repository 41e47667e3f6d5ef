"""Asterion: a cell the looks' mean lines up at the edge of the search, like no look there, is lined up by
each look (`_asterion_window.lined_by_looks`, asked in `Templates.match`)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate import asterion as drawing
from companion.vision.generate._sprites import paste
from companion.vision.recognisers import _asterion_match
from companion.vision.recognisers._asterion_grid import cell_windows
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers._asterion_window import SHIFT_PX, Window, _Shifts, lined_by_looks
from companion.vision.recognisers.asterion import AsterionRecogniser
from companion.vision.reference import NEUTRAL_BGR

from .test_asterion_match import LAYOUT, REGION

BEND = "red:treasure bend@0"


def _templates() -> _asterion_match.Templates:
    recogniser = AsterionRecogniser()
    return recogniser._prepared_for(recogniser._profile(None)).templates


def _travel_bend(templates: _asterion_match.Templates) -> numpy.typing.NDArray[numpy.uint8]:
    """A plane with the travel print's red treasure bend in REGION's cell, lying 2 template pixels left of
    its place and 1 down (as on the bench)."""
    looks = templates.by_colour["red"][2]
    design = next(d for d, r in looks if tile_label("red", d, r) == BEND)
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    sprite, alpha = drawing.draw_tile("red", design, None, "travel")
    cx, cy = REGION.centre_px()
    paste(plane, sprite, alpha, (cx / PLANE_PX_PER_MM - 2.2, cy / PLANE_PX_PER_MM + 1.1), 0.0, shadow=0.0)
    return plane


def _mean_off(templates: _asterion_match.Templates, monkeypatch: pytest.MonkeyPatch) -> None:
    """The red looks' mean lining cells up 6 template pixels off, at the search's edge (as a bend's two
    paths beside a neighbour's path running on drew it on the travel print): the mean rolled along x."""
    off = numpy.roll(templates._mean["red"], -2 * SHIFT_PX, axis=1)
    monkeypatch.setitem(templates._shifts, "red", _Shifts(off))


def _read(templates: _asterion_match.Templates, plane: numpy.typing.NDArray[numpy.uint8]) -> str:
    return tile_label("red", *templates.match("red", cell_windows(plane, REGION))[:2])


def test_a_cell_lined_up_off_by_the_mean_is_lined_up_by_its_look(monkeypatch: pytest.MonkeyPatch) -> None:
    templates = _templates()
    plane = _travel_bend(templates)
    _mean_off(templates, monkeypatch)
    assert _read(templates, plane) == BEND


def test_not_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lined up where the mean put it, it correlates 0.38 at best, with a horned junction.
    templates = _templates()
    plane = _travel_bend(templates)
    _mean_off(templates, monkeypatch)
    monkeypatch.setattr(_asterion_match, "EDGE_DOUBT", 0.0)
    assert _read(templates, plane) != BEND


def test_each_look_lines_a_tile_lying_off_centre_up_where_it_lies() -> None:
    templates = _templates()
    pictures, features = templates.by_colour["red"][1], templates.by_colour["red"][0]
    labels = [tile_label("red", *look) for look in templates.by_colour["red"][2]]
    side = pictures[0].shape[0] + 2 * SHIFT_PX
    seen = numpy.full((side, side, 3), NEUTRAL_BGR, numpy.uint8)
    tile = numpy.asarray(pictures[labels.index(BEND)], numpy.float32)
    seen[5 : 5 + tile.shape[0], 1 : 1 + tile.shape[1]] = cv2.cvtColor(
        numpy.clip(tile, 0, 255).astype(numpy.uint8), cv2.COLOR_Lab2BGR
    )
    found = lined_by_looks([Window.of(seen)], pictures, features)
    assert found is not None
    _, shift, scores, _ = found
    assert shift == (1 - SHIFT_PX, 5 - SHIFT_PX)
    assert labels[int(scores.argmax())] == BEND
