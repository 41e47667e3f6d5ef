"""Minotaurus's grid fit: the two axes' stretches agree on the sheets' margin where one axis cannot tell;
the pieces' outlines fit it where the table the reference left fills the gaps between them."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.recognisers import _minotaurus_grid
from companion.vision.reference import NEUTRAL_BGR

COLUMNS = 56.0 + 40.0 * numpy.arange(10)
ROWS = 56.0 + 40.0 * numpy.arange(5)
HALF_BOX = 13.0
WIDTH, HEIGHT = 472, 272


def stretched(centres: numpy.ndarray, stretch: float, length: int) -> numpy.ndarray:
    return length / 2 + (centres - length / 2) * stretch


def crowded_plane() -> tuple[numpy.ndarray, numpy.ndarray]:
    """Sheets laid by their cut edge (columns 1.045, rows 1.085: a 10 mm margin each way); every row's
    pieces in columns 0-7 with the rims the reference leaves filling the gaps between them, and one piece
    far right (column 9, last row). The rows show their gaps; the columns only their ends."""
    mask = numpy.zeros((HEIGHT, WIDTH), numpy.float32)
    xs, ys = stretched(COLUMNS, 1.045, WIDTH), stretched(ROWS, 1.085, HEIGHT)
    for y in ys:
        mask[int(y) - 15 : int(y) + 15, int(xs[0]) - 16 : int(xs[7]) + 16] = 1
    y, x = int(ys[4]), int(xs[9])
    mask[y - 16 : y + 16, x - 16 : x + 16] = 1
    return mask, xs


def test_columns_take_the_margin_the_rows_show() -> None:
    mask, xs = crowded_plane()
    columns, rows = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX)
    assert numpy.abs(rows - stretched(ROWS, 1.085, HEIGHT)).max() < 4
    # The lone piece far right lies under its own column, not between the last two.
    assert numpy.abs(columns - xs).max() < 4


def test_columns_alone_shrink_into_the_crowd(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the margins' agreement the columns cover as much shrunk (the crowd filling every box) and
    # put the lone piece's column 25 px short of it: the case the agreement is for.
    monkeypatch.setattr(_minotaurus_grid, "MARGIN_TIE", 0.0)
    mask, xs = crowded_plane()
    columns, _ = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX)
    assert columns[9] < xs[9] - 20


def test_margins_that_agree_keep_each_axis_best() -> None:
    # Square-edge sheets (no stretch) with gaps showing: each axis's own best comb, the nominal one.
    mask = numpy.zeros((HEIGHT, WIDTH), numpy.float32)
    for y in ROWS:
        for x in COLUMNS[::2]:
            mask[int(y) - 12 : int(y) + 12, int(x) - 12 : int(x) + 12] = 1
    columns, rows = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX)
    assert numpy.allclose(columns, COLUMNS) and numpy.allclose(rows, ROWS)


def wood_plane(filled: bool) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """A small normalised plane of sheets laid by their cut edge (columns 1.045, rows 1.085) with a dark
    back in every cell but a few, and (`filled`) the table the reference left, a grained light wood, over
    the whole matrix and about it: the gaps between the pieces show no neutral grey."""
    rng = numpy.random.default_rng(7)
    small = numpy.full((HEIGHT, WIDTH, 3), NEUTRAL_BGR, numpy.uint8)
    if filled:
        wood = numpy.array([120, 165, 215], numpy.float32) + rng.normal(0, 4, (HEIGHT - 20, WIDTH - 20, 1))
        small[10:-10, 10:-10] = numpy.clip(wood, 0, 255).astype(numpy.uint8)
    xs, ys = stretched(COLUMNS, 1.045, WIDTH), stretched(ROWS, 1.085, HEIGHT)
    for row, y in enumerate(ys):
        for column, x in enumerate(xs):
            if (row * 10 + column) % 7 == 3:
                continue
            small[round(y) - 15 : round(y) + 15, round(x) - 15 : round(x) + 15] = (80, 40, 30)
    return small, xs, ys


def test_outlines_fit_the_pieces_where_the_table_fills_the_gaps() -> None:
    small, xs, ys = wood_plane(filled=True)
    mask = _minotaurus_grid.foreground(small, NEUTRAL_BGR)
    columns, rows = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX, small, 15.0)
    assert numpy.abs(columns - xs).max() < 5 and numpy.abs(rows - ys).max() < 5
    # The mask alone covers as much anywhere over the wood: the nominal comb wins the tie, a margin off.
    columns, rows = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX)
    assert numpy.abs(columns - xs).max() > 6 or numpy.abs(rows - ys).max() > 6


def test_outlines_are_not_asked_where_the_gaps_show_the_neutral_grey() -> None:
    small, xs, ys = wood_plane(filled=False)
    mask = _minotaurus_grid.foreground(small, NEUTRAL_BGR)
    eroded = cv2.erode(mask, numpy.ones((7, 7), numpy.uint8))
    assert _minotaurus_grid.gap_fill(eroded, xs, ys, HALF_BOX) < 0.05
    assert (
        _minotaurus_grid.gap_fill(
            _minotaurus_grid.foreground(wood_plane(True)[0], NEUTRAL_BGR), xs, ys, HALF_BOX
        )
        > 0.9
    )
    columns, rows = _minotaurus_grid.fit_grid(mask, COLUMNS, ROWS, HALF_BOX, small, 15.0)
    assert numpy.abs(columns - xs).max() < 5 and numpy.abs(rows - ys).max() < 5
