"""Minotaurus's grid fit: the two axes' stretches agree on the sheets' margin where one axis cannot tell."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.recognisers import _minotaurus_grid

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
