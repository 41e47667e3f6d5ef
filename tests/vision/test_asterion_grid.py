"""Asterion: where the grid puts its cells, worked out for a ring of cells at once, and a cell lined up."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.recognisers._asterion_grid import GridFit, SmallPlane
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX, Window, _Shifts
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


def test_a_cell_is_lined_up_at_the_shift_opencv_finds() -> None:
    # The lightness correlated at every shift by one product, over the spreads looked up in the plane's
    # integral images: the shift OpenCV's matchTemplate (normalised correlation coefficient) finds,
    # for textured cells, tiles drawn a few pixels off, and a window flat at some shifts.
    layout = asterion_layout(3, 3)
    width, height = layout.plane_size_px()
    random = numpy.random.default_rng(11)
    template = numpy.zeros((TEMPLATE_PX, TEMPLATE_PX, 3), numpy.float32)
    template[..., 0] = cv2.GaussianBlur(random.uniform(0, 255, (TEMPLATE_PX, TEMPLATE_PX)), (0, 0), 2.0)
    shifts = _Shifts(template)
    light = numpy.ascontiguousarray(template[..., 0])
    found = []
    for trial in range(30):
        plane = random.integers(0, 256, (height, width, 3)).astype(numpy.uint8)
        plane = numpy.asarray(cv2.GaussianBlur(plane, (0, 0), 1.5), numpy.uint8)
        if trial % 3 == 0:
            plane[: height // 2] = 128  # flat at the cells' upper shifts
        small = SmallPlane.of(plane)
        regions = list(layout.items.values())
        centres = small.centres(regions, numpy.zeros((len(regions), 2), numpy.intp))
        scales = small.scales_at(centres)
        for (x, y), given in zip(centres.tolist(), scales, strict=True):
            window = small.window_at(x, y, given)
            # Given for the ring at once, or worked out for the window alone: the same.
            assert numpy.array_equal(Window(window.bgr, window.grey).scales(), given)
            scores = cv2.matchTemplate(window.grey, light, cv2.TM_CCOEFF_NORMED)
            _, _, _, (dx, dy) = cv2.minMaxLoc(scores)
            _, _, at_y, at_x = shifts.lightness([window])
            shift = (at_x - SHIFT_PX, at_y - SHIFT_PX)
            assert shift == (dx - SHIFT_PX, dy - SHIFT_PX)
            found.append(shift)
    assert len(set(found)) > 10  # the shifts vary: the test is not passed by always answering one
