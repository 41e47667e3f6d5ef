"""The empty-table reference under a player's shadow: deep, soft, over the plane, the band around it or both.

The tables, pieces and arms are test_reference's (drawn with numpy/cv2, not by the generator); the
shadows here are deeper than its head shadow: a player between a low lamp and the table leaves the
table a quarter lit, and a shadow may lie over the plane while sparing the band around it.
"""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision._reference_base import MASK_PX_PER_MM
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.normalising import CANONICAL_WHITE
from companion.vision.reference import TableReference
from companion.vision.table_light import LightGrid, log_level
from tests.vision.test_reference import (
    BORDER_PX,
    IDENTITY_SHIFTED,
    PIECES,
    PLANE_MM,
    SKINS_BGR,
    edge_to_edge_layout,
    foreground_share,
    in_frame,
    learned,
    lit,
    mask_box,
    table,
    with_arm,
    with_pieces,
)


def shaded(
    image: Frame, depth: float, rows: tuple[float, float], columns: tuple[float, float], soft_mm: float = 15.0
) -> Frame:
    """The image with a soft shadow over a box (fractions of its height and width) leaving `depth` of the
    light, a little bluer than the lamp (daylight still reaches there), fading over twice `soft_mm`."""
    height, width = image.shape[:2]
    shade = numpy.zeros((height, width), numpy.float32)
    top, bottom = round(rows[0] * height), round(rows[1] * height)
    left, right = round(columns[0] * width), round(columns[1] * width)
    shade[top:bottom, left:right] = 1.0
    shade = cv2.GaussianBlur(shade, (0, 0), soft_mm * PLANE_PX_PER_MM)[..., None]
    light = 1.0 - shade * (1.0 - depth * numpy.array([1.1, 1.0, 0.9], numpy.float32))
    return numpy.clip(image.astype(numpy.float32) * light, 0, 255).astype(numpy.uint8)


def falling(image: Frame, far: float) -> Frame:
    """The image under a lamp low beside its left edge: the light falls to `far` of it at the right edge
    (evenly in log, a little bluer where dimmer), over several cells of the light grid."""
    width = image.shape[1]
    steps = numpy.linspace(0.0, 1.0, width, dtype=numpy.float32)[None, :, None]
    light = numpy.exp(steps * numpy.log(far) * numpy.array([0.9, 1.0, 1.1], numpy.float32))
    return numpy.clip(image.astype(numpy.float32) * light, 0, 255).astype(numpy.uint8)


@pytest.mark.parametrize("kind", ("light-wood", "dark-wood", "gingham", "noise"))
def test_light_falling_to_a_third_across_the_empty_table_is_light(kind: str) -> None:
    # The light grid follows the fall-off from cell to cell, deeper than twice its band from the plane's
    # light: no table is left in the plane.
    rng = numpy.random.default_rng(21)
    empty = table(kind, rng)
    reference = learned(empty)
    view = reference.look(falling(empty, 0.35))
    assert not view.refused, (kind, view.reason)
    assert foreground_share(view) < 0.02, (kind, foreground_share(view))


def test_pieces_in_falling_light_still_differ() -> None:
    rng = numpy.random.default_rng(22)
    empty = table("light-wood", rng)
    reference = learned(empty)
    view = reference.look(falling(with_pieces(empty, PIECES), 0.35))
    assert not view.refused, view.reason
    for cx, cy in PIECES:
        assert view.foreground[mask_box(cx - 8, cy - 8, cx + 8, cy + 8)].all(), (cx, cy)


def test_the_cameras_noise_does_not_dim_with_the_light() -> None:
    # A dark felt's red and blue are near black: dimmed to a third, the camera's noise is as large as in
    # the lamp's full light, not a third as large.
    rng = numpy.random.default_rng(23)
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    felt = numpy.full((height, width, 3), (30.0, 80.0, 32.0), numpy.float32)
    reference = learned(numpy.clip(felt + rng.normal(0.0, 10.0, felt.shape), 0, 255).astype(numpy.uint8))
    dim = numpy.clip(felt * 0.3 + rng.normal(0.0, 10.0, felt.shape), 0, 255).astype(numpy.uint8)
    view = reference.look(dim)
    assert not view.refused, view.reason
    assert foreground_share(view) < 0.03, foreground_share(view)


def surround_setup(kind: str, seed: int) -> tuple[TableReference, Frame, Frame]:
    """A reference of a plane whose items reach its edge, learned with the table around it; the empty
    frame and the frame with pieces in it."""
    rng = numpy.random.default_rng(seed)
    tray = edge_to_edge_layout()
    plane = table(kind, rng)
    frame = cv2.copyMakeBorder(plane, BORDER_PX, BORDER_PX, BORDER_PX, BORDER_PX, cv2.BORDER_REFLECT)
    reference = TableReference(tray)
    reference.learn([plane], [TableReference.surround_of(tray, frame, IDENTITY_SHIFTED)])
    return reference, frame, in_frame(frame, with_pieces(plane, PIECES))


def looked(reference: TableReference, shot: Frame) -> tuple[bool, str]:
    view = reference.look(
        shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX],
        reference.surround_of(reference.layout, shot, IDENTITY_SHIFTED),
    )
    return view.hand, view.reason


@pytest.mark.parametrize("kind", ("light-wood", "dark-wood", "gingham"))
def test_a_player_shadow_a_quarter_lit_across_the_edge_is_no_hand(kind: str) -> None:
    # Band shadows count from a fifth of the light (BAND_SHADOW_MIN): a head over a low lamp leaves the
    # table beside the player a quarter lit, deepest in the band nearest them.
    reference, _, with_row = surround_setup(kind, 24)
    for rows, columns in (((-1.0, 0.2), (0.2, 0.8)), ((0.7, 2.0), (-1.0, 0.5)), ((0.1, 0.9), (-1.0, 0.15))):
        hand, reason = looked(reference, shaded(with_row, 0.25, rows, columns))
        assert not hand and not reason, (kind, rows, columns, reason)


@pytest.mark.parametrize("kind", ("light-wood", "dark-wood", "gingham"))
def test_a_shadow_over_the_plane_that_spares_the_band_is_no_hand(kind: str) -> None:
    # The plane shaded right to its edge, where a row of pieces lies, and the band beside it in the lamp's
    # full light: the band, lit brighter than the plane's light there, is no arm reaching the pieces.
    reference, frame, _ = surround_setup(kind, 25)
    plane = frame[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX]
    row = {(60.0 + 31.0 * n, PLANE_MM[1] - 17.0): (60, 150, 45) for n in range(9)}
    height, width = frame.shape[:2]
    shot = in_frame(frame, with_pieces(plane, row))
    rows, columns = (0.5, 1.0 - BORDER_PX / height), (BORDER_PX / width, 1.0 - BORDER_PX / width)
    hand, reason = looked(reference, shaded(shot, 0.5, rows, columns, 3.0))
    assert not hand and not reason, (kind, reason)


@pytest.mark.parametrize("kind", ("light-wood", "dark-wood"))
def test_an_arm_in_falling_light_is_still_a_hand(kind: str) -> None:
    reference, _, with_row = surround_setup(kind, 26)
    rng = numpy.random.default_rng(27)
    missed = []
    for edge in ("top", "right"):
        for colour in (SKINS_BGR[0], SKINS_BGR[3], (60, 60, 60)):
            hand, _ = looked(reference, falling(with_arm(with_row, edge, colour, rng), 0.35))
            if not hand:
                missed.append((edge, colour))
    assert not missed, (kind, missed)


@pytest.mark.parametrize("kind", ("gingham", "stripes", "noise"))
def test_a_sharp_shadow_deeper_than_a_fifth_that_keeps_the_texture_is_no_hand(kind: str) -> None:
    # A player's sharp-edged shadow under a low lamp, deeper than any depth test would take for a
    # shadow, crosses the band and goes on over the plane: the table's texture is still there under it.
    # (These woods' grain is too smooth for 2 mm pixels to see: their shadows stay refused.)
    reference, _, with_row = surround_setup(kind, 28)
    for rows, columns in (((-1.0, 0.3), (0.05, 0.45)), ((0.6, 2.0), (0.5, 0.9)), ((0.2, 0.7), (-1.0, 0.2))):
        hand, reason = looked(reference, shaded(with_row, 0.15, rows, columns, 0.5))
        assert not hand and not reason, (kind, rows, columns, reason)


@pytest.mark.parametrize("kind", ("light-wood", "gingham", "stripes", "noise"))
def test_an_arm_beside_its_sharp_deep_shadow_is_a_hand(kind: str) -> None:
    # The shadow keeps the texture, the arm joined to it does not, and lies at another depth (a grey
    # sleeve on a print is of the shadow's hue).
    reference, _, with_row = surround_setup(kind, 29)
    rng = numpy.random.default_rng(30)
    missed = []
    for colour in (SKINS_BGR[0], SKINS_BGR[2], SKINS_BGR[4], (60, 60, 60)):
        dark = shaded(with_row, 0.15, (-1.0, 0.45), (0.3, 0.6), 0.5)
        hand, _ = looked(reference, with_arm(dark, "top", colour, rng))
        if not hand:
            missed.append(colour)
    assert not missed, (kind, missed)


def hotspot(
    image: Frame, peak: tuple[float, float, float], centre: tuple[float, float], radius_mm: float
) -> Frame:
    """The image under a lamp switched on over it: each channel's light rises to `peak` at `centre` (a
    fraction of the width and height), falling off softly over `radius_mm`."""
    height, width = image.shape[:2]
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    cx, cy = centre[0] * width, centre[1] * height
    fall = numpy.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * (radius_mm * PLANE_PX_PER_MM) ** 2))[..., None]
    light = 1.0 + fall * (numpy.array(peak, numpy.float32) - 1.0)
    return numpy.clip(image.astype(numpy.float32) * light, 0, 255).astype(numpy.uint8)


def test_a_warm_hotspot_on_a_navy_board_learned_in_dim_light_is_light() -> None:
    # Learned under a dim lamp, a navy board's green and red lie near black (a dozen grey levels): the
    # light is still measured on them (the reference averages the noise away), so a warm lamp switched
    # on over the board, doubling its red, is light, and a piece in the hotspot still differs.
    rng = numpy.random.default_rng(31)
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    navy = numpy.full((height, width, 3), (32.0, 15.0, 9.0), numpy.float32)
    empty = numpy.clip(navy + rng.normal(0.0, 1.5, navy.shape), 0, 255).astype(numpy.uint8)
    reference = learned(empty)
    lamp = ((1.6, 2.0, 2.4), (0.55, 0.25), 60.0)
    view = reference.look(hotspot(empty, *lamp))
    assert not view.refused, view.reason
    assert foreground_share(view) < 0.03, foreground_share(view)
    cx, cy = 0.55 * PLANE_MM[0], 0.3 * PLANE_MM[1]
    view = reference.look(hotspot(with_pieces(empty, {(cx, cy): (120, 100, 90)}), *lamp))
    assert view.foreground[mask_box(cx - 8, cy - 8, cx + 8, cy + 8)].all()


def test_the_markers_paper_under_a_dim_lamp_still_white_balances() -> None:
    # A dark felt under a dim lamp shows the markers' paper at a seventh of its level (about 34), yet
    # clearly white on its black ink: it is still measured, so the plane is brought to canonical white
    # and not handed to the recogniser a seventh as bright.
    rng = numpy.random.default_rng(4)
    dim = lit(table("light-wood", rng), (0.14, 0.14, 0.14))
    reference = learned(dim)
    assert reference.white_balanced
    view = reference.look(with_pieces(dim, PIECES))
    corrected = dim.astype(numpy.float32) * cv2.resize(view.correction, dim.shape[1::-1])
    paper = corrected[62:66, 20:50]  # the paper border below the top-left marker
    assert numpy.all(numpy.abs(numpy.median(paper.reshape(-1, 3), axis=0) - CANONICAL_WHITE) < 20)


def _bar_on_a_printed_line_is_seen(
    seed: int,
    card: tuple[int, int, int],
    line_colour: tuple[int, int, int],
    bar_colour: tuple[int, int, int],
    lamp: tuple[float, float, float],
) -> None:
    """A board of card with a dark printed line 2 mm wide is learned; then a bar 4 mm wide lies along the
    line under `lamp` (gains per channel): every mask pixel along the bar must differ from the table."""
    rng = numpy.random.default_rng(seed)
    board = table("light-wood", rng).astype(numpy.float32)
    board[120:-120, 100:-100] = card
    height, width = board.shape[:2]
    row = 4 * round(0.125 * height)  # the line fills one row of the mask's pixels
    board[row : row + 4, 60:-60] = line_colour
    with_bar = board.copy()
    left, right = round(0.4 * width), round(0.6 * width)
    with_bar[row - 2 : row + 6, left:right] = bar_colour
    empty = numpy.clip(board + rng.normal(0.0, 1.0, board.shape), 0, 255).astype(numpy.uint8)
    reference = learned(empty)
    gains = numpy.array(lamp, numpy.float32)
    now = numpy.clip(with_bar * gains + rng.normal(0.0, 2.0, board.shape), 0, 255).astype(numpy.uint8)
    view = reference.look(now)
    assert not view.refused, view.reason
    assert foreground_share(view) < 0.05, foreground_share(view)
    scale = MASK_PX_PER_MM / PLANE_PX_PER_MM
    line = view.foreground[row // 4, round(left * scale) + 2 : round(right * scale) - 2]
    assert line.mean() > 0.9, line.mean()


def test_a_dark_piece_on_the_prints_line_under_a_lamp_brighter_than_learned_still_differs() -> None:
    # Learned under a dim lamp; a warm lamp 2.6 times as bright comes on, and a dark stick lies along the
    # line, a little darker than it in red. The camera's noise does not grow with the light: the stick is
    # no table (with the whole tolerance multiplied by the gain it fell within the line's range, and
    # Minoa's sticks under the lamp went unseen).
    _bar_on_a_printed_line_is_seen(7, (44, 56, 62), (24, 35, 41), (27, 30, 30), (2.6, 2.33, 2.55))


def test_a_piece_of_another_hue_between_the_prints_line_and_card_levels_still_differs() -> None:
    # Beside a dark printed line on light card every channel's neighbourhood range runs from the line's
    # level to the card's: a green piece there lies within each channel's range, but not within their
    # hues (a green piece on a gingham board's line was taken for the table).
    _bar_on_a_printed_line_is_seen(8, (180, 190, 200), (60, 60, 60), (80, 170, 90), (1.0, 1.0, 1.0))


@pytest.mark.parametrize("ramp", (12.0, 15.0))
def test_the_light_grid_follows_a_shadow_deepening_to_a_third_over_two_cells(ramp: float) -> None:
    # A player's shadow over the left of a dark wood, its edge a ramp a few cells wide (a logistic of
    # `ramp` mask pixels: the light falls by a third of its log per cell, beyond the walk's band). Each
    # cell's light is the mean of its pixels within the band of the light carried in, so on the ramp it
    # lags and catches up over several passes in which no further cell finds light: the walk stopped
    # at the first such pass and left the shadow at the lit side's light (the table there was foreign).
    rng = numpy.random.default_rng(3)
    width, height = round(PLANE_MM[0] * MASK_PX_PER_MM), round(PLANE_MM[1] * MASK_PX_PER_MM)
    texture = 1.0 + 0.1 * rng.standard_normal((height, width, 1))
    reference = numpy.asarray(numpy.array([30.0, 40.0, 55.0]) * texture, numpy.float32)
    x = numpy.arange(width, dtype=numpy.float32)
    edge = 70.0
    log_gain = numpy.log(0.3) / (1.0 + numpy.exp((x - edge) / ramp))
    current = reference * numpy.exp(log_gain)[None, :, None] + rng.normal(0.0, 1.0, reference.shape)
    current = numpy.asarray(numpy.clip(current, 0, 255), numpy.float32)
    weight = numpy.full((height, width), 4.0, numpy.float32)
    grid = LightGrid(PLANE_MM, (width, height), weight, 0.25)
    light = grid.measure(log_level(current) - log_level(reference), current, reference)
    error = numpy.abs(light.mean(axis=2) - log_gain[None, :])
    shaded_side = error[:, : round(edge) - 20]
    assert shaded_side.max() < 0.35, shaded_side.max()


@pytest.mark.parametrize("kind", ("gingham", "stripes", "noise"))
def test_a_sharp_shadow_over_a_textured_table_is_light_an_arm_in_it_a_hand(kind: str) -> None:
    # A player's sharp shadow over the left of the plane, a quarter lit: the walk steps over no sharp
    # edge, so the cells beyond it found no light of their own and kept the lit side's (the whole shadow
    # was foreign: on Minotaurus' gingham, under pieces, so much that the table was taken for a new
    # cloth). The cloth's checks keep their pattern under any gain: their pixels give those cells their
    # light. An arm hides the pattern: it is still foreign, and a hand.
    rng = numpy.random.default_rng(33)
    empty = table(kind, rng)
    reference = learned(empty)
    shadow = shaded(empty, 0.25, (-1.0, 2.0), (-1.0, 0.45), 0.5)
    view = reference.look(shadow)
    inside = view.foreground[mask_box(30.0, 30.0, 0.45 * PLANE_MM[0] - 40.0, PLANE_MM[1] - 30.0)]
    assert inside.mean() < 0.05, (kind, inside.mean())
    arm_rng = numpy.random.default_rng(34)
    for edge in ("left", "top"):
        for colour in (SKINS_BGR[0], SKINS_BGR[4], (60, 60, 60)):
            assert reference.look(with_arm(shadow, edge, colour, arm_rng)).hand, (kind, edge, colour)


def test_the_planes_light_is_the_lit_tables_under_a_shadow_deeper_than_its_histogram() -> None:
    # A player's shadow over the left half of a light wood leaves it a tenth to a quarter lit: over a third
    # of the plane lies deeper than the range in which the plane's light is looked for. Piled into the
    # histogram's edge bin, those pixels outvoted the lit table's, whose ratios the lamp's fall-off spreads
    # over several bins: the plane's light came out at the edge (-1.5), and the lit side was left there.
    rng = numpy.random.default_rng(35)
    width, height = round(PLANE_MM[0] * MASK_PX_PER_MM), round(PLANE_MM[1] * MASK_PX_PER_MM)
    texture = 1.0 + 0.1 * rng.standard_normal((height, width, 1))
    reference = numpy.asarray(numpy.array([110.0, 140.0, 170.0]) * texture, numpy.float32)
    edge = round(0.5 * width)
    # The lit side's light falls a little away from the lamp (0.95 to 0.8): its ratios spread over ten bins.
    log_light = numpy.linspace(numpy.log(0.8), numpy.log(0.95), width, dtype=numpy.float32)
    log_light[:edge] = numpy.linspace(numpy.log(0.1), numpy.log(0.25), edge, dtype=numpy.float32)
    seen = reference * numpy.exp(log_light)[None, :, None] + rng.normal(0.0, 3.0, reference.shape)
    current = numpy.asarray(numpy.clip(seen, 0, 255), numpy.float32)
    ratio = log_level(current) - log_level(reference)
    assert numpy.mean(ratio.mean(axis=2) < -1.5) > 1 / 3  # deeper than the histogram's range
    weight = numpy.full((height, width), 4.0, numpy.float32)
    grid = LightGrid(PLANE_MM, (width, height), weight, 0.25)
    light = grid.measure(ratio, current, reference)
    error = numpy.abs(light - log_light[None, :, None])
    lit = error[:, edge + 20 :]
    assert lit.max() < 0.1, lit.max()


@pytest.mark.parametrize("size", ((94, 76), (234, 190), (264, 220), (7, 5)))
def test_the_light_grid_spreads_a_lamps_even_fall_off_out_to_the_planes_edges(size: tuple[int, int]) -> None:
    # A light falling evenly across the table (a straight line in log per channel) is the same line at
    # every pixel of the spread, the outermost half cells too: carried on along the slope, not held flat.
    grid = LightGrid((468.0, 380.0), (234, 190), numpy.ones((190, 234), numpy.float32), 0.25)
    columns, rows = grid.grid
    slopes = numpy.array([[0.05, -0.02, 0.11], [-0.03, 0.07, 0.01]], numpy.float32)
    j, i = numpy.meshgrid(numpy.arange(columns), numpy.arange(rows))
    cells = (0.2 + j[..., None] * slopes[0] + i[..., None] * slopes[1]).astype(numpy.float32)
    spread = grid._spread(cells, size)
    # Pixel x lies at cell coordinate (x + 0.5) * cells / pixels - 0.5.
    x = (numpy.arange(size[0]) + 0.5) * columns / size[0] - 0.5
    y = (numpy.arange(size[1]) + 0.5) * rows / size[1] - 0.5
    expected = 0.2 + x[None, :, None] * slopes[0] + y[:, None, None] * slopes[1]
    assert spread.shape == (size[1], size[0], 3) and spread.dtype == numpy.float32
    assert numpy.abs(spread - expected).max() < 1e-5
