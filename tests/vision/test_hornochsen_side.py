"""Tanz der Hornochsen: what the reference left in view in pieces along the plane's side is no tile for the
grid fit's first-square cover (burnt 20261152 printed cloth, session 12 frame 14)."""

from __future__ import annotations

import numpy
import numpy.typing
import pytest

from companion.vision.base import Layout, recogniser_for
from companion.vision.recognisers import _hornochsen_grid, _hornochsen_side
from companion.vision.recognisers._hornochsen_layout import board_lines

Bytes = numpy.typing.NDArray[numpy.uint8]
FIT = numpy.array([0.0, 0.0, 1.06, 1.05, 0.0, 0.0])
"""How the frame's right block lay on its plane..."""
LEFT = numpy.array([-16.0, 0.0, 0.96, 1.05, 0.0, 0.0])
"""...and its left block (the blocks further apart than one affine map puts them)."""


def _layout() -> Layout:
    return recogniser_for("hornochsen").layout({"players": 6})


def _pieces(tile: Bytes, side: str) -> None:
    """A cloth's print along a side, 0-22 mm in, 52-222 mm down: pieces 30 mm tall, 4 mm apart, joined
    8 mm in (no straight run up it is STRIP_MM long: 170 mm at most)."""
    columns = slice(0, 22) if side == "left" else slice(tile.shape[1] - 22, tile.shape[1])
    for top in range(52, 222, 34):
        tile[top : min(top + 30, 222), columns] = 1
    tile[52:222, slice(7, 9) if side == "left" else slice(-9, -7)] = 1


@pytest.mark.parametrize("side", ["left", "right"])
def test_pieces_along_a_side_are_no_tile_while_tiles_are(side: str) -> None:
    tile = numpy.zeros((300, 524), numpy.uint8)
    _pieces(tile, side)
    tile[150:180, 30:60] = 1  # a tile beside them, apart from the side
    tile[250:280, 0:28] = 0
    tile[255:283, 0:28] = 1  # a tile against the side, touching no piece
    if side == "right":
        tile[150:180, 30:60], tile[150:180, 464:494] = 0, 1
        tile[255:283, 0:28], tile[255:283, 496:] = 0, 1
    # (No single run of the pieces is STRIP_MM long: the tile cover's strip rule leaves them.)
    assert _hornochsen_side.SIDE_TALL_MM < _hornochsen_grid.STRIP_MM
    kept = _hornochsen_side.without_side_runs(tile)
    columns = slice(0, 24) if side == "left" else slice(500, 524)
    assert kept[52:222, columns].sum() == 0
    assert kept[150:180].sum() == 900
    assert kept[255:283].sum() == 28 * 28
    assert (tile[:, columns].sum() > 0) and (kept[:, 60:464] == tile[:, 60:464]).all()


def test_a_plane_touching_neither_side_is_left_as_it_is() -> None:
    tile = numpy.zeros((300, 524), numpy.uint8)
    tile[40:280, 2:20] = 1  # longer than any column of tiles, but clear of the side
    assert _hornochsen_side.without_side_runs(tile) is tile


def _scene(layout: Layout) -> tuple[Bytes, Bytes]:
    """The frame's empty area and ink: three rows of the left block holding 3, 4 and 5 tiles, the right
    block's one row of four, all where FIT puts them, and the print's pieces along the left side."""
    width, height = round(layout.plane_mm[0]), round(layout.plane_mm[1])
    tile = numpy.zeros((height, width), numpy.uint8)
    ink = numpy.zeros((height, width), numpy.uint8)
    held = [(1, 3), (2, 4), (3, 5), (7, 4)]
    middle = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    for row, count in held:
        for square in range(count):
            cx, cy = layout.items[f"row:{row}:square:{square}"].centre_mm
            moved = FIT if row >= 5 else LEFT
            xs, ys = _hornochsen_grid._moved(
                moved, numpy.array([cx - middle[0]]), numpy.array([cy - middle[1]]), middle
            )
            x, y = round(float(numpy.asarray(xs).ravel()[0])), round(float(numpy.asarray(ys).ravel()[0]))
            tile[y - 14 : y + 14, x - 14 : x + 14] = 1
            ink[y - 4 : y + 5, x - 6 : x + 6] = 1
    _pieces(tile, "left")
    return numpy.where(tile > 0, 0, 255).astype(numpy.uint8), ink


@pytest.mark.parametrize("counted", [False, True])
def test_the_right_blocks_row_keeps_its_first_square_beside_pieces_along_the_side(
    counted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counted as tile, the pieces stood under the step before the left block's rows where the board lay:
    # the coarse search shrank the board instead, the left block's rows fitted as well, the right
    # block's lone row a square early (read a square late: empty 13 41 50 88). Left out, its first square
    # stays on its tile.
    if counted:
        monkeypatch.setattr(_hornochsen_side, "SIDE_TALL_MM", 10_000)
    layout = _layout()
    empty, ink = _scene(layout)
    points = _hornochsen_grid._points_of(layout, board_lines(layout))
    coarse = _hornochsen_grid._Coarse(
        _hornochsen_grid._BoxedInk.of(ink), points[1], _hornochsen_grid._TileCover.of(empty), points[2]
    )
    start = _hornochsen_grid.NOMINAL.copy()
    start[3] = FIT[3]
    fit = _hornochsen_grid._coarse_axis(coarse, start, 0)
    middle = layout.plane_mm[0] / 2
    x = layout.items["row:7:square:0"].centre_mm[0] - middle
    pitch = layout.items["row:7:square:1"].centre_mm[0] - layout.items["row:7:square:0"].centre_mm[0]
    off = (fit[0] + fit[2] * x) - (FIT[0] + FIT[2] * x)
    assert bool(abs(off) > pitch / 2) is counted
