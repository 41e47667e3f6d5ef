"""Tanz der Hornochsen: where the board's squares and the played slots lie on the plane, and how they line up.

The layout is the game's geometry (seeds/hornochsen.toml's rows and lengths, the printed board's pitches);
the recogniser, the grid fit (_hornochsen_grid.py, which follows board_lines) and the rules' mending
(_hornochsen_mend.py, which reads squares' ids back with parse_square) all share it.
"""

from __future__ import annotations

import functools
import re

from companion.games.hornochsen.board import BOARD
from companion.vision.base import ItemRegion, Layout
from companion.vision.components import dimension_mm

SQUARE_PITCH_MM = dimension_mm("hornochsen", "square_pitch")
ROW_PITCH_MM = dimension_mm("hornochsen", "row_pitch")
SLOT_PITCH_MM = 36.0
MARGIN_MM = 40.0
"""Clear of the 30 mm corner markers."""
BLOCK_GAP_MM = dimension_mm("hornochsen", "block_gap")
SLOTS_GAP_MM = 14.0
SLOTS_SIDE_MM = 10.0
"""Least room between the slots' row and the plane's sides: the row lies above the bottom corner markers."""

_SQUARE = re.compile(r"^row:(\d+):square:(\d+)$")


@functools.lru_cache(maxsize=1024)
def parse_square(item_id: str) -> tuple[int, int] | None:
    """(row, square) of a board square's item id; None for a played slot. (Kept: the game's rules look at
    every item of every frame, and a camera reads the same items frame after frame.)"""
    match = _SQUARE.match(item_id)
    return (int(match.group(1)), int(match.group(2))) if match else None


def played_slot(seat: int, second: bool = False) -> str:
    """The item id of a seat's played-tile slot; `second` for its second tile in a double round."""
    return f"played:seat{seat}:2" if second else f"played:seat{seat}"


def hornochsen_layout(players: int) -> Layout:
    """Two blocks of rows (the seed's left and right sides) and a row of played-tile slots below: each
    seat a pair side by side, its first tile on the left, its second (in a double round) on the right.

    The plane widens for the slots only when they do not fit below the board (eight seats).
    """
    if not 1 <= players <= 8:
        raise ValueError(f"hornochsen layout: players must be 1 to 8, not {players}")
    longest = max(row.length for row in BOARD.rows)
    block_width = longest * SQUARE_PITCH_MM
    sides = [[row for row in BOARD.rows if row.side == side] for side in ("left", "right")]
    items: dict[str, ItemRegion] = {}
    for column, rows in enumerate(sides):
        x0 = MARGIN_MM + column * (block_width + BLOCK_GAP_MM)
        for place, row in enumerate(rows):
            y = MARGIN_MM + (place + 0.5) * ROW_PITCH_MM
            for square in range(row.length):
                centre = (x0 + (square + 0.5) * SQUARE_PITCH_MM, y)
                items[f"row:{row.index}:square:{square}"] = ItemRegion(
                    centre, (SQUARE_PITCH_MM, SQUARE_PITCH_MM)
                )
    slots = 2 * players
    board_width = 2 * MARGIN_MM + 2 * block_width + BLOCK_GAP_MM
    width = max(board_width, slots * SLOT_PITCH_MM + 2 * SLOTS_SIDE_MM)
    shift = (width - board_width) / 2  # the board stays centred over the slots
    items = {
        item_id: ItemRegion((region.centre_mm[0] + shift, region.centre_mm[1]), region.size_mm)
        for item_id, region in items.items()
    }
    slots_y = MARGIN_MM + max(len(rows) for rows in sides) * ROW_PITCH_MM + SLOTS_GAP_MM + SLOT_PITCH_MM / 2
    for slot in range(slots):
        x = width / 2 + (slot - (slots - 1) / 2) * SLOT_PITCH_MM
        item_id = played_slot(slot // 2, second=slot % 2 == 1)
        items[item_id] = ItemRegion((x, slots_y), (SLOT_PITCH_MM, SLOT_PITCH_MM))
    return Layout((width, slots_y + SLOT_PITCH_MM / 2 + MARGIN_MM), items)


def board_lines(layout: Layout) -> list[list[str]]:
    """The layout's items in lines, in order: each row's squares, each block's rows' first squares (top
    to bottom) and the played slots (left to right); nothing lies a step beyond a line's ends."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for item_id in layout.items:
        square = parse_square(item_id)
        if square is not None:
            rows.setdefault(square[0], []).append((square[1], item_id))
    lines = [[item_id for _, item_id in sorted(squares)] for squares in rows.values()]
    for side in ("left", "right"):
        firsts = [f"row:{row.index}:square:0" for row in BOARD.rows if row.side == side]
        lines.append([item_id for item_id in firsts if item_id in layout.items])
    slots = [item_id for item_id in layout.items if parse_square(item_id) is None]
    lines.append(sorted(slots, key=lambda item_id: layout.items[item_id].centre_mm[0]))
    return lines


def played_slots(layout: Layout) -> list[str]:
    """The layout's played slots: laid on the table below the board, not on its squares."""
    return [item_id for item_id in layout.items if parse_square(item_id) is None]


def board_box_mm(layout: Layout) -> tuple[float, float, float, float]:
    """The printed board's outline (x0, y0, x1, y1): the squares with a small border."""
    squares = [r for item_id, r in layout.items.items() if parse_square(item_id)]
    xs = [r.centre_mm[0] for r in squares]
    ys = [r.centre_mm[1] for r in squares]
    border = SQUARE_PITCH_MM / 2 + 4
    return (min(xs) - border, min(ys) - border, max(xs) + border, max(ys) + border)
