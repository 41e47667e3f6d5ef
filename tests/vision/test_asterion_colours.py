"""Asterion: a tile's frame colour when its corners are split between two (another print, a lamp)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers._asterion_grid import CORNER_INSET_MM
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers.asterion import TILE_MM, AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = asterion_layout(3, 1)
CELL = "cell:1,0"


def _plane(
    colour: str, design: int, rotation: int, corners: str, washed: int, *others: tuple[float, float, float]
) -> numpy.typing.NDArray[numpy.uint8]:
    """A normalised plane with a tile of `colour` at CELL whose first `washed` corners (where the
    recogniser samples them) show the frame of `corners` instead, and the next ones the colours
    `others` (BGR)."""
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.float32)
    cell = numpy.rot90(draw_cell(colour, design), k=-rotation).astype(numpy.float32)
    cx, cy = (round(v) for v in LAYOUT.items[CELL].centre_px())
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    inset = (cell.shape[0] - tile) // 2
    y0, x0 = cy - cell.shape[0] // 2 + inset, cx - cell.shape[1] // 2 + inset
    plane[y0 : y0 + tile, x0 : x0 + tile] = cell[inset : inset + tile, inset : inset + tile]
    # The other frame's colour where its drawing shows frame: a corner of the tile.
    other = draw_cell(corners, design).astype(numpy.float32)[inset + 2, inset + 2]
    reach = round((TILE_MM / 2 - CORNER_INSET_MM) * PLANE_PX_PER_MM)
    half = round(1.5 * PLANE_PX_PER_MM)
    painted = [other] * washed + [numpy.array(bgr, numpy.float32) for bgr in others]
    for (sx, sy), shown in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), painted, strict=False):
        y, x = cy + sy * reach, cx + sx * reach
        plane[y - half : y + half + 1, x - half : x + half + 1] = shown
    return numpy.asarray(numpy.clip(cv2.GaussianBlur(plane, (0, 0), 1.5), 0, 255), numpy.uint8)


@pytest.mark.parametrize("name", ["corridor", "junction", "treasure junction"])
def test_a_frame_whose_corners_show_another_colour_is_read_by_its_sides_and_prisoner(name: str) -> None:
    # Two corners yellow, the frame's sides and the prisoner green: the corners' vote is split, and
    # yellow, first of the colours, wins it (a second print's green washed towards olive under a lamp
    # read yellow on burnt 20261133, dev 13); the frame and prisoner, fitted to the light there, are
    # green's.
    recogniser = AsterionRecogniser()
    design = DESIGN_INDEX[name]
    for rotation in range(4):
        read = recogniser.read(_plane("green", design, rotation, "yellow", 2), LAYOUT, None).items[CELL]
        assert read == tile_label("green", design, rotation)


@pytest.mark.parametrize("name", ["corridor", "treasure junction"])
def test_a_frame_with_one_corner_of_another_colour_keeps_its_own(name: str) -> None:
    recogniser = AsterionRecogniser()
    design = DESIGN_INDEX[name]
    for colour, other in (("yellow", "green"), ("green", "yellow"), ("blue", "green"), ("red", "yellow")):
        read = recogniser.read(_plane(colour, design, 1, other, 1), LAYOUT, None).items[CELL]
        assert read == tile_label(colour, design, 1)


def test_the_frame_colour_filters_are_built_with_the_templates_not_when_a_cell_asks() -> None:
    from companion.vision.recognisers._asterion_grid import cell_windows
    from companion.vision.recognisers._asterion_match import Templates

    templates = Templates.from_profile(AsterionRecogniser().default_profile())
    built = dict(templates._colour_tests)
    # Every drawn look of each set's colour against its twin in each other set's colour.
    assert len(built) == 4 * 3 * 56
    windows = cell_windows(_plane("green", DESIGN_INDEX["junction"], 2, "yellow", 2), LAYOUT.items[CELL])
    for colour, other in (("yellow", "green"), ("green", "blue"), ("red", "yellow")):
        templates.colour_lead(colour, other, windows)
    assert templates._colour_tests.keys() == built.keys()


def _frame_bgr(colour: str) -> tuple[float, float, float]:
    b, g, r = draw_cell(colour, DESIGN_INDEX["corridor"])[4, 4].tolist()
    return float(b), float(g), float(r)


@pytest.mark.parametrize("name", ["corridor", "treasure junction", "wing bends"])
def test_a_tile_whose_corners_show_its_colour_least_is_read_in_the_colour_its_designs_show(name: str) -> None:
    # A blue frame whose corners show blue at one, yellow, green and the path's sand at the others (a
    # second print's blue beside a light wood on burnt 20261133: green and the path's yellow nearer
    # more corners than blue): its designs correlate far better in blue, the third nearest colour.
    recogniser = AsterionRecogniser()
    design = DESIGN_INDEX[name]
    path = draw_cell("blue", DESIGN_INDEX["corridor"])  # its path runs down the middle
    sand = path[path.shape[0] // 5, path.shape[1] // 2].tolist()
    sand_bgr = (float(sand[0]), float(sand[1]), float(sand[2]))
    for rotation in range(4):
        plane = _plane("blue", design, rotation, "green", 1, _frame_bgr("yellow"), sand_bgr)
        assert recogniser.read(plane, LAYOUT, None).items[CELL] == tile_label("blue", design, rotation)


def test_the_corners_palettes_lookup_tables_are_built_with_the_templates_not_in_a_frame() -> None:
    from companion.vision.recognisers import _lab
    from companion.vision.recognisers._asterion_profile import _Prepared

    _lab._cached_palette.cache_clear()
    prepared = _Prepared.of(AsterionRecogniser().default_profile())
    for palettes in prepared.palettes.values():
        assert palettes.every._lut is not None
        assert palettes.frames._lut is not None


def test_a_taught_colours_vote_is_second_guessed_by_the_tiles_frame_as_a_built_in_ones() -> None:
    # A second print taught on dark wood voted its green tiles on light wood its taught yellow: left to
    # that vote, they read yellow (burnt 20261141, 22 of its 47 misread cells).
    import dataclasses

    recogniser = AsterionRecogniser()
    base = recogniser.default_profile()
    taught = dataclasses.replace(base, params={**base.params, "taught_colours": ["yellow", "green"]})
    design = DESIGN_INDEX["junction"]
    plane = _plane("green", design, 1, "yellow", 2)
    assert recogniser.read(plane, LAYOUT, None).items[CELL] == tile_label("green", design, 1)
    assert recogniser.read(plane, LAYOUT, taught).items[CELL] == tile_label("green", design, 1)
