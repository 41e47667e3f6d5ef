"""Tanz der Hornochsen: the board's squares fitted to where the tiles lie on a normalised plane.

Marker sheets laid by their paper's cut edge show the board stretched and shifted on the plane; the planes
here are the generator's flat drawings, normalised by the real reference, then stretched and shifted by a
known amount, as such sheets would.
"""

from __future__ import annotations

import dataclasses
import itertools

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Layout, recogniser_for
from companion.vision.generate.hornochsen import render_on
from companion.vision.recognisers import _hornochsen_grid, _hornochsen_loose, _hornochsen_side, hornochsen
from companion.vision.recognisers._hornochsen_layout import board_lines
from companion.vision.recognisers._hornochsen_seen import table_mask
from companion.vision.reference import NEUTRAL_BGR, normalised_plane

TABLE_BGR = (200, 215, 225)
STRETCH = (1.07, 1.1)
SHIFT_MM = (5.0, -4.0)


def _layout() -> Layout:
    return recogniser_for("hornochsen").layout({"players": 4})


def _labels(layout: Layout) -> dict[str, str]:
    labels = dict.fromkeys(layout.items, "empty")
    rows = {
        0: ["7", "23", "58", "91"],
        1: ["12", "40"],
        5: ["3", "35", "66"],
        8: ["18", "29", "50", "77", "85"],
    }
    for row, numbers in rows.items():
        labels |= {f"row:{row}:square:{square}": number for square, number in enumerate(numbers)}
    return labels | {
        "row:3:square:0": "down",
        "played:seat0": "44",
        "played:seat1": "down",
        "played:seat3": "60",
    }


def _plane(layout: Layout, labels: dict[str, str], seed: int) -> numpy.typing.NDArray[numpy.uint8]:
    width, height = layout.plane_size_px()
    table = numpy.empty((height, width, 3), numpy.uint8)
    table[:] = TABLE_BGR
    plane = render_on(labels, layout, numpy.random.default_rng(seed), background=table, edition="default")
    return numpy.asarray(cv2.GaussianBlur(plane, (0, 0), 0.8), numpy.uint8)


def _stretched(plane: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """The plane stretched about its middle and shifted (STRETCH, SHIFT_MM)."""
    height, width = plane.shape[:2]
    sx, sy = STRETCH
    tx = width / 2 * (1 - sx) + SHIFT_MM[0] * PLANE_PX_PER_MM
    ty = height / 2 * (1 - sy) + SHIFT_MM[1] * PLANE_PX_PER_MM
    warp = numpy.array([[sx, 0, tx], [0, sy, ty]], numpy.float32)
    return numpy.asarray(
        cv2.warpAffine(plane, warp, (width, height), borderValue=tuple(float(v) for v in NEUTRAL_BGR)),
        numpy.uint8,
    )


@pytest.fixture(scope="module")
def planes() -> tuple[numpy.typing.NDArray[numpy.uint8], numpy.typing.NDArray[numpy.uint8]]:
    layout = _layout()
    empty = _plane(layout, dict.fromkeys(layout.items, "empty"), 1)
    plane = normalised_plane([empty], _plane(layout, _labels(layout), 2), layout)
    return plane, _stretched(plane)


def _fitted(plane: numpy.typing.NDArray[numpy.uint8], layout: Layout) -> Layout:
    table = table_mask(plane)
    assert table is not None, "the plane should be taken for a normalised one"
    return _hornochsen_grid.fitted_layout(plane, table, layout, hornochsen.board_lines(layout))


def test_the_squares_are_fitted_to_a_stretched_and_shifted_board(
    planes: tuple[numpy.typing.NDArray[numpy.uint8], ...],
) -> None:
    layout = _layout()
    errors = _fit_errors_mm(_fitted(planes[1], layout), layout)
    assert max(errors) < 2.5, dict(zip(layout.items, errors, strict=True))


def test_a_board_where_the_layout_puts_it_keeps_its_squares(
    planes: tuple[numpy.typing.NDArray[numpy.uint8], ...],
) -> None:
    layout = _layout()
    fitted = _fitted(planes[0], layout)
    for item_id, region in layout.items.items():
        found = fitted.items[item_id].centre_mm
        assert abs(found[0] - region.centre_mm[0]) < 1.5 and abs(found[1] - region.centre_mm[1]) < 1.5, (
            item_id
        )


def test_tiles_on_a_stretched_board_are_read_at_their_own_squares(
    planes: tuple[numpy.typing.NDArray[numpy.uint8], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read with the fit, every square is right; at the layout's nominal places, the tiles at the board's
    sides are a square off or lost."""
    layout = _layout()
    labels = _labels(layout)
    _, stretched = planes
    reading = recogniser_for("hornochsen").read(stretched, layout, None)
    assert {item: reading.items[item] for item in labels if reading.items[item] != labels[item]} == {}
    monkeypatch.setattr(hornochsen, "fitted_layout", lambda plane, table, layout, lines, loose=(): layout)
    reading = recogniser_for("hornochsen").read(stretched, layout, None)
    assert {item: reading.items[item] for item in labels if reading.items[item] != labels[item]} != {}


def _with_seams(
    plane: numpy.typing.NDArray[numpy.uint8], layout: Layout
) -> numpy.typing.NDArray[numpy.uint8]:
    """The plane with a dark seam between each two neighbouring tiles of a row, as a camera's blur leaves the
    board's green between them (too mixed with the faces for the reference to take it for the board)."""
    seamed = plane.copy()
    table = table_mask(plane)
    assert table is not None
    for line in hornochsen.board_lines(layout)[:-3]:
        for left, right in itertools.pairwise(line):
            (x0, y0), (x1, _) = layout.items[left].centre_mm, layout.items[right].centre_mm
            x, y = round((x0 + x1) / 2 * PLANE_PX_PER_MM), round(y0 * PLANE_PX_PER_MM)
            half = round(13 * PLANE_PX_PER_MM)
            if table[y, x - half // 2] == 0 and table[y, x + half // 2] == 0:  # tiles either side
                seamed[y - half : y + half, x - 5 : x + 5] = (200, 228, 240)  # the faces meet...
                seamed[y - half : y + half, x - 3 : x + 3] = (40, 80, 50)  # ...at a seam
    return seamed


def test_seams_between_tiles_are_no_ink(
    planes: tuple[numpy.typing.NDArray[numpy.uint8], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seams between a row's touching tiles run their whole height: the fit does not take them for a
    number's ink (where a faint edition's digits weigh less than the seams, they pull the fit sideways and
    the played slots below the board then read a neighbour's tile), but it still takes the digits."""
    layout = _layout()
    seamed = _with_seams(planes[0], layout)
    table = table_mask(seamed)
    assert table is not None
    seams = numpy.asarray(cv2.resize(table, None, fx=1 / PLANE_PX_PER_MM, fy=1 / PLANE_PX_PER_MM) < 128)
    seams &= numpy.asarray(
        cv2.resize(
            cv2.inRange(seamed, (40, 80, 50), (40, 80, 50)), seams.shape[::-1], interpolation=cv2.INTER_AREA
        )
        > 0
    )

    def ink() -> numpy.typing.NDArray[numpy.float64]:
        return numpy.asarray(_hornochsen_grid._ink(seamed, table), numpy.float64)

    found = ink()
    assert seams.sum() > 100 and found[seams].sum() < 0.02 * seams.sum()
    x0, y0, x1, y1 = (round(v / PLANE_PX_PER_MM) for v in layout.items["row:8:square:1"].box_px())
    assert found[y0:y1, x0:x1].sum() > 30  # the digits of 29
    monkeypatch.setattr(_hornochsen_grid, "_SEAM", cv2.getStructuringElement(cv2.MORPH_RECT, (1, 999)))
    assert ink()[seams].sum() > 0.3 * seams.sum()


def test_a_played_tile_laid_off_its_slot_is_read_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """The played slots lie on the table below the board, where the board's fit, extrapolated, may put them
    10 mm off (a plane stretched unevenly): each slot is moved onto the tile laid about it, and an empty
    slot beside a tile stays empty; kept where the board's fit puts them, the tiles are lost."""
    layout = _layout()
    labels = dict.fromkeys(layout.items, "empty") | {"row:0:square:0": "7", "row:0:square:1": "23"}
    labels |= {"played:seat0": "44", "played:seat1": "down", "played:seat2": "60"}
    off = {"played:seat0": (9.0, 8.0), "played:seat1": (-9.0, 8.0), "played:seat2": (9.0, -8.0)}
    moved = Layout(
        layout.plane_mm,
        {
            item_id: dataclasses.replace(
                region, centre_mm=tuple(numpy.add(region.centre_mm, off.get(item_id, (0.0, 0.0))))
            )
            for item_id, region in layout.items.items()
        },
        layout.raised_mm,
    )
    width, height = layout.plane_size_px()
    table = numpy.empty((height, width, 3), numpy.uint8)
    table[:] = TABLE_BGR
    shots = [
        numpy.asarray(
            cv2.GaussianBlur(
                render_on(shown, moved, numpy.random.default_rng(seed), background=table, edition="default"),
                (0, 0),
                0.8,
            ),
            numpy.uint8,
        )
        for shown, seed in ((dict.fromkeys(layout.items, "empty"), 1), (labels, 2))
    ]
    plane = normalised_plane([shots[0]], shots[1], layout)
    reading = recogniser_for("hornochsen").read(plane, layout, None)
    assert {item: reading.items[item] for item in labels if reading.items[item] != labels[item]} == {}
    monkeypatch.setattr(_hornochsen_loose, "LOOSE_MM", 0)
    reading = recogniser_for("hornochsen").read(plane, layout, None)
    assert {item: reading.items[item] for item in labels if reading.items[item] != labels[item]} != {}


@pytest.mark.parametrize("empty_share", [0.2, 0.4, 0.6])
def test_the_slots_shrunk_empty_area_taken_from_the_fits_is_the_same(empty_share: float) -> None:
    """The played slots' fit takes the tiles' cover from the empty area the board's fit shrank (a plane of
    even sides, halved): the same shifts as from the plane's own empty area thresholded and shrunk."""
    rng = numpy.random.default_rng(7)
    blocks = rng.random((60, 105)) < empty_share  # patches of a few millimetres, and noise at their edges
    table = numpy.asarray(
        cv2.resize(blocks.astype(numpy.uint8) * 255, (1048, 600), interpolation=cv2.INTER_NEAREST),
        numpy.uint8,
    )
    table[rng.random(table.shape) < 0.05] ^= 255
    xs = rng.uniform(20, 500, 12)
    ys = rng.uniform(20, 280, 12)
    alone = _hornochsen_loose.loose_shifts(table, xs.copy(), ys.copy())
    shared = _hornochsen_loose.loose_shifts(table, xs.copy(), ys.copy(), _hornochsen_grid._small_empty(table))
    assert numpy.array_equal(alone[0], shared[0]) and numpy.array_equal(alone[1], shared[1])
    assert numpy.any(alone[0] != 0) or numpy.any(alone[1] != 0), "some slot moves"


def _fit_errors_mm(fitted: Layout, layout: Layout) -> list[float]:
    """How far each item of the fit lies from where the stretched plane (STRETCH, SHIFT_MM) shows it."""
    middle = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    errors = []
    for item_id, region in layout.items.items():
        x, y = region.centre_mm
        truth = (
            middle[0] + (x - middle[0]) * STRETCH[0] + SHIFT_MM[0],
            middle[1] + (y - middle[1]) * STRETCH[1] + SHIFT_MM[1],
        )
        found = fitted.items[item_id].centre_mm
        errors.append(max(abs(found[0] - truth[0]), abs(found[1] - truth[1])))
    return errors


def test_a_dim_frames_board_is_fitted_by_its_tiles_numbers(
    planes: tuple[numpy.typing.NDArray[numpy.uint8], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a dim lamp every face of the frame is darker than FACE_LEVEL (felt, dev seed 34: 95-125): their
    numbers' ink is still found against the frame's own faces, and the board fitted by it; with faces
    lighter than FACE_LEVEL only, hardly any ink is found and the fit goes astray."""
    layout = _layout()
    stretched = planes[1]
    table = table_mask(stretched)
    assert table is not None
    dim = stretched.copy()
    shown = table == 0
    dim[shown] = (dim[shown].astype(numpy.float32) * 0.5).astype(numpy.uint8)  # faces at about 115
    assert max(_fit_errors_mm(_fitted(dim, layout), layout)) < 2.5
    monkeypatch.setattr(_hornochsen_grid, "DIM_FACE_SHARE", 99.0)
    assert max(_fit_errors_mm(_fitted(dim, layout), layout)) > 2.5


def test_the_slots_shifts_are_the_plain_box_counts_best() -> None:
    """loose_shifts (box sums over the band of rows the boxes reach, in whole numbers) picks for each slot
    what counting the tile under each shifted box of the whole plane picks, slots at the plane's bottom
    edge (boxes cut there) included."""
    rng = numpy.random.default_rng(8)
    blocks = rng.random((60, 105)) < 0.5
    table = numpy.asarray(
        cv2.resize(blocks.astype(numpy.uint8) * 255, (1048, 600), interpolation=cv2.INTER_NEAREST),
        numpy.uint8,
    )
    occupied = cv2.resize((table < 128).astype(numpy.uint8), (524, 300), interpolation=cv2.INTER_AREA)
    xs = rng.uniform(20, 500, 10)
    ys = numpy.concatenate([rng.uniform(200, 280, 7), [295.0, 299.0, 305.0]])
    got = _hornochsen_loose.loose_shifts(table, xs.copy(), ys.copy())
    steps = numpy.arange(-_hornochsen_loose.LOOSE_MM, _hornochsen_loose.LOOSE_MM + 1, dtype=numpy.float64)
    half = _hornochsen_loose.LOOSE_BOX_MM / 2
    for item, (x, y) in enumerate(zip(xs, ys, strict=True)):
        best, shift = -numpy.inf, (0.0, 0.0)
        for dy in steps:  # meshgrid's order: y shift slowest
            for dx in steps:
                x0, x1 = (int(numpy.clip(numpy.rint(x + dx + side), 0, 524)) for side in (-half, half))
                y0, y1 = (int(numpy.clip(numpy.rint(y + dy + side), 0, 300)) for side in (-half, half))
                count = int(occupied[y0:y1, x0:x1].sum())
                score = count - 1e-3 * numpy.hypot(dx, dy)
                if score > best:
                    best, shift = (
                        score,
                        ((dx, dy) if count >= _hornochsen_loose.LOOSE_COVER * 26.0**2 else (0, 0)),
                    )
        assert (got[0][item], got[1][item]) == shift


def test_a_short_row_a_square_early_scores_below_its_squares_in_the_coarse_search() -> None:
    # A row's tiles start at its first square: a row of four tiles in five squares, fitted one square
    # early, puts squares 1-4 on the four tiles and the empty fifth square's step beyond on nothing, as
    # well as the right fit does, unless the first square (empty there) counts for more.
    layout = _layout()
    width, height = round(layout.plane_mm[0]), round(layout.plane_mm[1])
    ink = numpy.zeros((height, width), numpy.uint8)
    row = [item for item in layout.items if item.startswith("row:5:square:")]
    for item in row[:-1]:
        x, y = layout.items[item].centre_mm
        ink[round(y) - 4 : round(y) + 4, round(x) - 5 : round(x) + 5] = 1
    pitch = layout.items[row[1]].centre_mm[0] - layout.items[row[0]].centre_mm[0]
    boxed = _hornochsen_grid._BoxedInk.of(ink)
    points = _hornochsen_grid._points_of(layout, hornochsen.board_lines(layout))[1]
    early = _hornochsen_grid.NOMINAL + numpy.array([-pitch, 0, 0, 0, 0, 0])
    assert points.scores(boxed, _hornochsen_grid.NOMINAL) > points.scores(boxed, early)


def test_the_tile_cover_counts_the_tile_in_each_box_about_a_point() -> None:
    # Looked up in a summed area, clipped at the plane's sides: the same count as the box's own pixels.
    rng = numpy.random.default_rng(3)
    empty = numpy.where(rng.random((60, 90)) < 0.4, 255, 0).astype(numpy.uint8)
    cover = _hornochsen_grid._TileCover.of(empty)
    half = _hornochsen_grid.START_BOX_MM / 2
    xs = numpy.array([[3.0, 45.0, 88.0, 20.4, -5.0]])
    ys = numpy.array([[2.0, 30.0, 59.0, 10.6, 70.0]])
    tile = empty < 128
    for place in range(xs.shape[1]):
        weights = numpy.zeros(xs.shape[1])
        weights[place] = 1.0
        x, y = xs[0, place], ys[0, place]
        x0, x1 = (int(numpy.clip(numpy.rint(v), 0, 90)) for v in (x - half, x + half))
        y0, y1 = (int(numpy.clip(numpy.rint(v), 0, 60)) for v in (y - half, y + half))
        assert cover.sums_at(xs.copy(), ys.copy(), weights)[0] == tile[y0:y1, x0:x1].sum()


def test_a_short_row_whose_first_square_is_not_all_tile_scores_below_its_squares_along_x() -> None:
    # Burnt 20261143 laminate: a short row of the right block fitted a square early (its tiles' numbers
    # under squares 1-4, a digit of the first under square 0) scored as well by the ink as the right fit.
    # Its first square is then a third tile, its step before none; a square late, the step before is
    # tile. Along x the coarse search counts both; a few millimetres off the row's tiles, nothing changes
    # (the ink places the squares).
    layout = _layout()
    width, height = round(layout.plane_mm[0]), round(layout.plane_mm[1])
    empty = numpy.full((height, width), 255, numpy.uint8)
    row = [item for item in layout.items if item.startswith("row:5:square:")]
    for item in row[:4]:  # four touching tiles from the first square
        x, y = layout.items[item].centre_mm
        empty[round(y) - 14 : round(y) + 14, round(x) - 15 : round(x) + 15] = 0
    pitch = layout.items[row[1]].centre_mm[0] - layout.items[row[0]].centre_mm[0]
    ink = numpy.zeros((height, width), numpy.uint8)
    coarse = _hornochsen_grid._Coarse(
        _hornochsen_grid._BoxedInk.of(ink),
        _hornochsen_grid._points_of(layout, hornochsen.board_lines(layout))[1],
        _hornochsen_grid._TileCover.of(empty),
        _hornochsen_grid._points_of(layout, hornochsen.board_lines(layout))[2],
    )

    def shifted(dx: float) -> numpy.typing.NDArray[numpy.float64]:
        return numpy.asarray(_hornochsen_grid.NOMINAL + numpy.array([dx, 0, 0, 0, 0, 0]), numpy.float64)

    right = coarse.scores(shifted(0.0)[None, :], 0)[0]
    assert right == pytest.approx(_hornochsen_grid.START_WEIGHT)
    assert coarse.scores(shifted(-0.6 * pitch)[None, :], 0)[0] < right - 0.4 * _hornochsen_grid.START_WEIGHT
    assert coarse.scores(shifted(pitch)[None, :], 0)[0] == pytest.approx(
        right - _hornochsen_grid.START_WEIGHT
    )
    assert coarse.scores(numpy.stack([shifted(-4.0), shifted(4.0)]), 0).tolist() == [right, right]
    # Along y the tile does not count (the column of first squares places the rows).
    assert coarse.scores(shifted(0.0)[None, :], 1)[0] == 0.0


Bytes = numpy.typing.NDArray[numpy.uint8]


def _strip_scene(layout: Layout) -> tuple[Bytes, Bytes]:
    """The empty area and the ink of burnt 20261146 linen session 03's frame: two tiles in the left block's
    third row, eight in the right block's, and a shadow's edge the reference left in view up the plane's
    left side (230 mm long, 20 mm wide)."""
    width, height = round(layout.plane_mm[0]), round(layout.plane_mm[1])
    empty = numpy.full((height, width), 255, numpy.uint8)
    ink = numpy.zeros((height, width), numpy.uint8)
    held = ["row:2:square:0", "row:2:square:1", "row:5:square:0", "row:5:square:1", "row:7:square:0"]
    for item in held + ["row:7:square:1"] + [f"row:8:square:{square}" for square in range(4)]:
        x, y = (round(v) for v in layout.items[item].centre_mm)
        empty[y - 13 : y + 13, x - 13 : x + 13] = 0
        ink[y - 4 : y + 5, x - 6 : x + 6] = 1
    empty[35:265, 0:20] = 0
    return empty, ink


def test_a_strip_up_the_planes_side_is_no_tile() -> None:
    # The shadow's edge runs longer than any column of tiles: the tile cover leaves it out, and keeps a
    # whole column of first squares' tiles (the board's print between them).
    layout = _layout()
    empty, _ = _strip_scene(layout)
    column = [layout.items[f"row:{row}:square:0"].centre_mm for row in range(5)]
    for x, y in column:
        empty[round(y) - 13 : round(y) + 13, round(x) - 13 : round(x) + 13] = 0
    cover = _hornochsen_grid._TileCover.of(empty)
    xs = numpy.array([[10.0, 10.0] + [x for x, _ in column]])
    ys = numpy.array([[100.0, 200.0] + [y for _, y in column]])
    found = [cover.sums_at(xs.copy(), ys.copy(), weights)[0] for weights in numpy.eye(xs.shape[1])]
    assert found == [0.0, 0.0] + [_hornochsen_grid.START_BOX_MM**2] * len(column)


@pytest.mark.parametrize("counted", [False, True])
def test_the_coarse_search_keeps_the_first_squares_off_a_strip_up_the_side(
    counted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counted as tile, the strip drew the left block's first squares onto it (stretched 1.17, a square
    # early: the ink scores that as well, its rows holding two tiles); left out, the row's first square
    # stays on its tile.
    if counted:  # (the strip touches the plane's side: without_side_runs would leave it out too)
        monkeypatch.setattr(_hornochsen_grid, "STRIP_MM", 10_000)
        monkeypatch.setattr(_hornochsen_side, "SIDE_TALL_MM", 10_000)
    layout = _layout()
    empty, ink = _strip_scene(layout)
    lines = board_lines(layout)
    points = _hornochsen_grid._points_of(layout, lines)
    coarse = _hornochsen_grid._Coarse(
        _hornochsen_grid._BoxedInk.of(ink), points[1], _hornochsen_grid._TileCover.of(empty), points[2]
    )
    fit = _hornochsen_grid._coarse_axis(coarse, _hornochsen_grid.NOMINAL, 0)
    x = layout.items["row:2:square:0"].centre_mm[0]
    middle = layout.plane_mm[0] / 2
    moved = middle + fit[0] + fit[2] * (x - middle)
    assert bool(abs(moved - x) > 20.0) is counted


def test_the_boxed_ink_at_a_point_is_the_ink_in_its_box() -> None:
    # One look-up a point (the flat index worked out in floats, cast once): the ink in the BOX_MM box
    # about the point rounded to whole millimetres, nothing beyond the plane's sides.
    rng = numpy.random.default_rng(5)
    ink = (rng.random((50, 80)) < 0.3).astype(numpy.uint8)
    boxed = _hornochsen_grid._BoxedInk.of(ink)
    xs = numpy.array([[0.4, 12.6, 79.0, 40.5, -7.2, 130.0, 41.5]])
    ys = numpy.array([[0.0, 25.4, 49.6, 20.5, 3.0, 10.0, -60.0]])
    width, height = round(_hornochsen_grid.BOX_MM[0]), round(_hornochsen_grid.BOX_MM[1])
    for place in range(xs.shape[1]):
        weights = numpy.zeros(xs.shape[1])
        weights[place] = 1.0
        x, y = (int(numpy.rint(v)) for v in (xs[0, place], ys[0, place]))
        x = min(max(x, -_hornochsen_grid._PAD), 80 + _hornochsen_grid._PAD - 1)
        y = min(max(y, -_hornochsen_grid._PAD), 50 + _hornochsen_grid._PAD - 1)
        x0, y0 = x - width // 2, y - height // 2
        expected = ink[max(y0, 0) : max(y0 + height, 0), max(x0, 0) : max(x0 + width, 0)].sum()
        assert boxed.sums_at(xs.copy(), ys.copy(), weights)[0] == expected
