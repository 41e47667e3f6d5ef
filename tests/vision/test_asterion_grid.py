"""Asterion: where the grid puts its cells, worked out for a ring of cells at once."""

from __future__ import annotations

import numpy

from companion.vision.recognisers._asterion_grid import GridFit, SmallPlane
from companion.vision.recognisers.asterion import asterion_layout


def test_a_ring_of_windows_is_centred_as_each_cell_alone() -> None:
    # The windows of a ring are placed at once (numpy's rounding, halves to even, and bounds): the
    # same pixels as placing each cell alone, offsets up to the plane's edges and past them.
    layout = asterion_layout(9, 7)
    width, height = layout.plane_size_px()
    small = SmallPlane.of(numpy.zeros((height, width, 3), numpy.uint8))
    regions = list(layout.items.values())
    random = numpy.random.default_rng(7)
    for _ in range(20):
        offsets = random.integers(-60, 61, (len(regions), 2))
        alone = [
            small.centre(region, (int(x), int(y))) for region, (x, y) in zip(regions, offsets, strict=True)
        ]
        assert small.centres(regions, offsets).tolist() == [list(c) for c in alone]


def test_the_grid_puts_cells_where_its_line_rounds_them_as_python_does() -> None:
    # Halves round to even (numpy's rint, Python's round): a stretch that puts a cell half a pixel off.
    layout = asterion_layout(9, 7)
    grid = GridFit(layout)
    indices = list(range(len(layout.items)))
    random = numpy.random.default_rng(3)
    models = [((0.5, 0.0), (-1.5, 0.0)), ((2.5, 0.0), (0.5, 0.0))]
    models += [
        ((float(a), float(b)), (float(c), float(d)))
        for a, b, c, d in random.uniform(-4, 4, (20, 4)) / [1, 50, 1, 50]
    ]
    for model in models:
        grid.model = model
        (ax, bx), (ay, by) = model
        expected = [
            [round(ax + bx * float(x)), round(ay + by * float(y))]
            for x, y in grid.shape.from_middle[indices].tolist()
        ]
        assert grid.offsets(indices).tolist() == expected
