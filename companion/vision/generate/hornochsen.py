"""Tanz der Hornochsen scenes: the board's rows with number tiles, and the tiles the seats played.

The board is drawn from seeds/hornochsen.toml (cow-pats, bullhead squares, happy
cows, double squares printed on its squares); tiles are cream cards with a dark
number, backs are dark blue. Labels follow the recordings' item ids (vocabulary.py):
"row:R:square:S", "played:seatN" and (a double round's second tile) "played:seatN:2"
→ "1".."99" | "down" | "empty".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import cv2
import numpy

from companion.games.hornochsen.board import BOARD
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout
from companion.vision.components import dimension_mm, hornochsen_board_box_mm
from companion.vision.generate import SceneRenderer, register_renderer
from companion.vision.generate._sprites import (
    blank_plane,
    jitter,
    mm,
    new_sprite,
    paste,
    rounded_rect_mask,
    shade,
)
from companion.vision.vocabulary import DOWN, EMPTY, hornochsen_played_slot, hornochsen_square

GAME = "hornochsen"
TILE_MM = dimension_mm(GAME, "tile")
SQUARE_PITCH_MM = dimension_mm(GAME, "square_pitch")
TABLE_BGR = (70, 105, 140)
"""Wooden table."""
BOARD_BGR = (55, 125, 70)
"""The board's meadow green."""
SQUARE_BGR = (95, 165, 110)
COWPAT_BGR = (35, 60, 95)
BULLHEAD_BGR = (40, 40, 125)
FACE_BGR = (200, 228, 240)
INK_BGR = (35, 30, 30)
BACK_BGR = (110, 62, 40)

FONT = cv2.FONT_HERSHEY_DUPLEX
DIGIT_HEIGHT_MM = 11.0
STROKE_MM = 1.2
DIGIT_GAP_MM = 1.0


@dataclasses.dataclass(frozen=True)
class Edition:
    """One print run: the tiles' card, ink, font and back, and the board's greens."""

    face_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    font: int
    """A cv2 Hershey font: each draws its digits' shapes differently."""
    stroke_mm: float
    digit_height_mm: float
    back_bgr: tuple[int, int, int]
    back_mark_bgr: tuple[int, int, int]
    board_bgr: tuple[int, int, int]
    square_bgr: tuple[int, int, int]


EDITIONS: dict[str, Edition] = {
    "default": Edition(
        FACE_BGR, INK_BGR, FONT, STROKE_MM, DIGIT_HEIGHT_MM, BACK_BGR, (150, 110, 80), BOARD_BGR, SQUARE_BGR
    ),
    "second-print": Edition(
        (245, 245, 245),
        (90, 30, 20),
        cv2.FONT_HERSHEY_COMPLEX,
        1.6,
        12.0,
        (40, 90, 40),
        (190, 220, 190),
        (70, 140, 95),
        (120, 185, 140),
    ),
    "travel": Edition(
        (170, 225, 245),
        (20, 40, 110),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.9,
        10.0,
        (40, 40, 140),
        (200, 200, 230),
        (45, 100, 60),
        (80, 140, 95),
    ),
}
"""The built-in tiles (drawn exactly as before) and two other print runs."""


def draw_tile_face(
    number: int, edition: str = "default"
) -> tuple[Frame, numpy.typing.NDArray[numpy.float32]]:
    """A face-up tile as a sprite (BGR, alpha): a cream card, a thin frame, the number in the middle."""
    look = EDITIONS[edition]
    font = look.font
    sprite, alpha = new_sprite(TILE_MM, TILE_MM)
    rounded_rect_mask(alpha, 2.0)
    sprite[:] = look.face_bgr
    inset = round(mm(1.6))
    side = sprite.shape[0]
    cv2.rectangle(sprite, (inset, inset), (side - 1 - inset, side - 1 - inset), (90, 110, 130), 2)
    thickness = round(mm(look.stroke_mm))
    scale = cv2.getFontScaleFromHeight(font, round(mm(look.digit_height_mm)), thickness)
    sizes = [cv2.getTextSize(digit, font, scale, thickness)[0] for digit in str(number)]
    gap = round(mm(DIGIT_GAP_MM))
    x = (side - sum(w for w, _ in sizes) - gap * (len(sizes) - 1)) // 2
    for digit, (width, height) in zip(str(number), sizes, strict=True):
        cv2.putText(
            sprite, digit, (x, (side + height) // 2), font, scale, look.ink_bgr, thickness, cv2.LINE_AA
        )
        x += width + gap
    return sprite, alpha


def draw_tile_back(edition: str = "default") -> tuple[Frame, numpy.typing.NDArray[numpy.float32]]:
    look = EDITIONS[edition]
    sprite, alpha = new_sprite(TILE_MM, TILE_MM)
    rounded_rect_mask(alpha, 2.0)
    sprite[:] = look.back_bgr
    side = sprite.shape[0]
    mark = look.back_mark_bgr
    cv2.circle(sprite, (side // 2, side // 2), round(mm(8)), mark, round(mm(1.5)), cv2.LINE_AA)
    cv2.circle(sprite, (side // 2, side // 2), round(mm(3)), mark, -1, cv2.LINE_AA)
    return sprite, alpha


def _px(point_mm: tuple[float, float]) -> tuple[int, int]:
    return (round(point_mm[0] * PLANE_PX_PER_MM), round(point_mm[1] * PLANE_PX_PER_MM))


def _draw_board(
    plane: Frame, layout: Layout, rng: numpy.random.Generator, look: Edition = EDITIONS["default"]
) -> None:
    x0, y0, x1, y1 = hornochsen_board_box_mm(layout)
    cv2.rectangle(plane, _px((x0, y0)), _px((x1, y1)), shade(look.board_bgr, rng), -1)
    half = (SQUARE_PITCH_MM - 2.5) / 2
    for item_id, region in layout.items.items():
        square = hornochsen_square(item_id)
        if square is None:
            continue
        row = BOARD.rows[square[0]]
        index = square[1]
        cx, cy = region.centre_mm
        colour = look.square_bgr
        if index == row.bullhead_square:
            colour = BULLHEAD_BGR
        cv2.rectangle(plane, _px((cx - half, cy - half)), _px((cx + half, cy + half)), shade(colour, rng), -1)
        centre = _px((cx, cy))
        if index == row.bullhead_square:
            _bull_head(plane, centre)
            _print_value(plane, str(row.bullhead), (cx + 6, cy + 11))
        elif index in row.cow_pats:
            cv2.ellipse(plane, centre, ((2 * 9), (2 * 6)), 0, 0, 360, COWPAT_BGR, -1, cv2.LINE_AA)
            _print_value(plane, str(row.cow_pats[index]), (cx - 3, cy + 4))
        if index in row.happy_cows:
            cv2.ellipse(plane, _px((cx, cy - 5)), (16, 9), 0, 0, 360, (235, 240, 240), -1, cv2.LINE_AA)
            cv2.circle(plane, _px((cx - 2, cy - 6)), 3, (20, 20, 20), -1, cv2.LINE_AA)
        if index in row.double_squares:
            _print_value(plane, "x2", (cx - 7, cy + 10))


def _bull_head(plane: Frame, centre: tuple[int, int]) -> None:
    x, y = centre
    cv2.circle(plane, (x, y - 4), 9, (30, 60, 90), -1, cv2.LINE_AA)
    cv2.ellipse(plane, (x - 14, y - 14), (8, 5), 30, 0, 360, (200, 215, 225), -1, cv2.LINE_AA)
    cv2.ellipse(plane, (x + 14, y - 14), (8, 5), -30, 0, 360, (200, 215, 225), -1, cv2.LINE_AA)


def _print_value(plane: Frame, text: str, origin_mm: tuple[float, float]) -> None:
    cv2.putText(plane, text, _px(origin_mm), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (225, 235, 235), 1, cv2.LINE_AA)


def render_plane(labels: Mapping[str, str], layout: Layout, rng: numpy.random.Generator) -> Frame:
    """The top-down plane showing `labels` (unlabelled items are empty)."""
    plane = blank_plane(layout.plane_size_px(), shade(TABLE_BGR, rng, 10), rng)
    _draw_board(plane, layout, rng)
    _lay_tiles(plane, labels, layout, rng, "default")
    return plane


def render_on(
    labels: Mapping[str, str], layout: Layout, rng: numpy.random.Generator, *, background: Frame, edition: str
) -> Frame:
    """The edition's board on the given table, and its tiles on it."""
    plane = background.copy()
    # The board is the same in every frame of a session: its colours' spread from a fixed seed.
    _draw_board(plane, layout, numpy.random.default_rng(3), EDITIONS[edition])
    _lay_tiles(plane, labels, layout, rng, edition)
    return plane


def _lay_tiles(
    plane: Frame, labels: Mapping[str, str], layout: Layout, rng: numpy.random.Generator, edition: str
) -> None:
    for item_id, label in labels.items():
        if label == EMPTY:
            continue
        region = layout.items[item_id]
        on_board = hornochsen_square(item_id) is not None
        dx, dy, turn = jitter(rng, 1.5, 3.0) if on_board else jitter(rng, 3.0, 8.0)
        sprite, alpha = draw_tile_back(edition) if label == DOWN else draw_tile_face(int(label), edition)
        lit = numpy.clip(sprite.astype(numpy.float32) * rng.uniform(0.93, 1.04), 0, 255).astype(numpy.uint8)
        paste(plane, lit, alpha, (region.centre_mm[0] + dx, region.centre_mm[1] + dy), turn)


def sample_labels(layout: Layout, rng: numpy.random.Generator, hard: bool = False) -> dict[str, str]:
    """A plausible table: four active rows of ascending tiles, some seats' tiles face up or down.

    `hard` fills the rows further (more tiles side by side to tell apart). Some tables show a double
    round: there the seats that played show a second tile (face up or down) beside the first.
    """
    labels = dict.fromkeys(layout.items, EMPTY)
    numbers = iter(rng.permutation(numpy.arange(1, BOARD.tiles + 1)).tolist())
    active = rng.choice(len(BOARD.rows), size=BOARD.active_rows, replace=False)
    for row_index in active.tolist():
        row = BOARD.rows[row_index]
        count = int(rng.integers(row.length // 2 if hard else 1, row.length + 1))
        for square, number in enumerate(sorted(next(numbers) for _ in range(count))):
            labels[f"row:{row_index}:square:{square}"] = str(number)
    seats = [seat for seat in range(len(layout.items)) if hornochsen_played_slot(seat) in layout.items]
    for seat in seats:
        roll = rng.random()
        labels[hornochsen_played_slot(seat)] = (
            str(next(numbers)) if roll < 0.5 else DOWN if roll < 0.7 else EMPTY
        )
    if rng.random() < DOUBLE_ROUND_SHARE:
        for seat in seats:
            if labels[hornochsen_played_slot(seat)] != EMPTY:
                second = hornochsen_played_slot(seat, second=True)
                labels[second] = str(next(numbers)) if rng.random() < 0.7 else DOWN
    return labels


DOUBLE_ROUND_SHARE = 0.3
"""The share of generated tables that show a double round (two tiles played per seat)."""


register_renderer(
    SceneRenderer(GAME, render_plane, sample_labels, {"players": 6}, render_on, tuple(EDITIONS))
)
