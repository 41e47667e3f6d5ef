"""Minoa scenes: the hexagonal board on a felt table, black sticks inside, coloured pieces on the edge.

The board's lattice is the game's (companion/games/minoa/board.py) at the seeds'
sizes, in the middle of the layout's plane: a light card with the lines printed
thin. Sticks and pieces lie a little off their item's line and a little turned,
with soft shadows.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

import cv2
import numpy

from companion.games.minoa import BOARD, COLOURS
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout
from companion.vision.components import dimension_mm
from companion.vision.generate import Rng, SceneRenderer, register_renderer
from companion.vision.generate._sprites import (
    blank_plane,
    jitter,
    mm,
    new_sprite,
    paste,
    rounded_rect_mask,
    shade,
    texture,
)
from companion.vision.vocabulary import EMPTY, STICK

GAME = "minoa"
UNIT_MM = dimension_mm(GAME, "unit")
"""Length of one line of the board's lattice."""
ROW_MM = UNIT_MM * math.sqrt(3) / 2
STICK_LENGTH_MM = dimension_mm(GAME, "stick_length")
STICK_WIDTH_MM = dimension_mm(GAME, "stick_width")
PIECE_LENGTH_MM = dimension_mm(GAME, "piece_length")
PIECE_WIDTH_MM = dimension_mm(GAME, "piece_width")

TABLE_BGR = (60, 64, 58)
BOARD_BGR = (185, 212, 228)
PRINT_BGR = (95, 105, 115)
STICK_BGR = (32, 32, 34)
PIECE_BGR: dict[str, tuple[int, int, int]] = {
    "red": (45, 45, 200),
    "blue": (180, 100, 30),
    "yellow": (40, 205, 235),
    "green": (60, 160, 55),
}


@dataclasses.dataclass(frozen=True)
class Edition:
    """One print run: the board's card and print, the sticks, and the pieces' colours and shine."""

    board_bgr: tuple[int, int, int]
    print_bgr: tuple[int, int, int]
    stick_bgr: tuple[int, int, int]
    stick_line_bgr: tuple[int, int, int]
    """The sheen along a stick's length."""
    piece_bgr: Mapping[str, tuple[int, int, int]]
    highlight: bool
    """Whether a piece's top shows a lighter bevel along one side."""


EDITIONS: dict[str, Edition] = {
    "default": Edition(BOARD_BGR, PRINT_BGR, STICK_BGR, (70, 70, 74), PIECE_BGR, True),
    "second-print": Edition(
        (225, 232, 235),
        (60, 60, 60),
        (30, 50, 80),
        (60, 85, 120),
        {"red": (40, 80, 220), "blue": (200, 140, 60), "yellow": (80, 220, 240), "green": (90, 190, 90)},
        False,
    ),
    "travel": Edition(
        (150, 185, 205),
        (60, 75, 95),
        (45, 45, 45),
        (95, 95, 95),
        {"red": (30, 30, 150), "blue": (120, 60, 20), "yellow": (20, 170, 210), "green": (40, 110, 40)},
        True,
    ),
}
"""The built-in board and pieces (drawn exactly as before) and two other print runs."""


def _px(point: tuple[float, float]) -> tuple[int, int]:
    return (round(point[0] * PLANE_PX_PER_MM * 16), round(point[1] * PLANE_PX_PER_MM * 16))


def _vertex_mm(vertex: tuple[int, int], layout: Layout) -> tuple[float, float]:
    """A lattice vertex (board.py's doubled coordinates) on the plane: the board, of the seeds' size,
    lies in the middle of the layout's plane, as far from its top as from its sides."""
    margin = (layout.plane_mm[0] - 2 * BOARD.side * UNIT_MM) / 2
    x, y = vertex
    return (margin + (x + 2 * BOARD.side) * UNIT_MM / 2, margin + y * ROW_MM)


def _draw_board(plane: Frame, layout: Layout, rng: Rng, look: Edition = EDITIONS["default"]) -> None:
    corners = [_vertex_mm((x, y), layout) for x, y in _hexagon_corners()]
    polygon = numpy.array([_px(c) for c in corners], numpy.int32)
    mask = numpy.zeros(plane.shape[:2], numpy.uint8)
    cv2.fillPoly(mask, [polygon], 255, cv2.LINE_AA, shift=4)
    card = numpy.empty(plane.shape, numpy.float32)
    card[:] = shade(look.board_bgr, rng, 5)
    card += texture(plane.shape[:2], rng, 4.0)[..., None]
    cover = (mask.astype(numpy.float32) / 255)[..., None]
    plane[:] = numpy.clip(plane * (1 - cover) + card * cover, 0, 255).astype(numpy.uint8)
    for number, (a, b) in enumerate(BOARD.lines):
        thickness = round(2.0 * PLANE_PX_PER_MM) if BOARD.is_edge[number] else round(0.9 * PLANE_PX_PER_MM)
        cv2.line(
            plane,
            _px(_vertex_mm(a, layout)),
            _px(_vertex_mm(b, layout)),
            look.print_bgr,
            thickness,
            cv2.LINE_AA,
            shift=4,
        )


def _hexagon_corners() -> list[tuple[int, int]]:
    side = BOARD.side
    return [(-side, 0), (side, 0), (2 * side, side), (side, 2 * side), (-side, 2 * side), (-2 * side, side)]


def _stick_sprite(look: Edition = EDITIONS["default"]) -> tuple[Frame, numpy.typing.NDArray[numpy.float32]]:
    sprite, alpha = new_sprite(STICK_LENGTH_MM, STICK_WIDTH_MM)
    rounded_rect_mask(alpha, STICK_WIDTH_MM / 2)
    sprite[:] = look.stick_bgr
    height = sprite.shape[0]
    cv2.line(
        sprite,
        (round(mm(1.5)), height // 3),
        (sprite.shape[1] - round(mm(1.5)), height // 3),
        look.stick_line_bgr,
        2,
    )
    return sprite, alpha


def _piece_sprite(
    colour: str, rng: Rng, look: Edition = EDITIONS["default"]
) -> tuple[Frame, numpy.typing.NDArray[numpy.float32]]:
    sprite, alpha = new_sprite(PIECE_LENGTH_MM, PIECE_WIDTH_MM)
    rounded_rect_mask(alpha, 1.5)
    base = shade(look.piece_bgr[colour], rng, 5)
    sprite[:] = base
    if not look.highlight:
        return sprite, alpha
    light = tuple(min(255, round(c * 1.25 + 15)) for c in base)
    cv2.rectangle(
        sprite,
        (round(mm(1.5)), round(mm(1.2))),
        (sprite.shape[1] - round(mm(1.5)), round(mm(2.5))),
        light,
        -1,
    )
    return sprite, alpha


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    plane = blank_plane(layout.plane_size_px(), shade(TABLE_BGR, rng, 5), rng)
    _draw_board(plane, layout, rng)
    _lay_pieces(plane, labels, layout, rng, EDITIONS["default"])
    return plane


def render_on(
    labels: Mapping[str, str], layout: Layout, rng: Rng, *, background: Frame, edition: str
) -> Frame:
    """The edition's board on the given table, its sticks and pieces on it."""
    plane = background.copy()
    # The board's card is the same in every frame of a session: its texture from a fixed seed.
    _draw_board(plane, layout, numpy.random.default_rng(5), EDITIONS[edition])
    _lay_pieces(plane, labels, layout, rng, EDITIONS[edition])
    return plane


def _lay_pieces(plane: Frame, labels: Mapping[str, str], layout: Layout, rng: Rng, look: Edition) -> None:
    stick = _stick_sprite(look)
    for item_id, label in labels.items():
        if label == EMPTY:
            continue
        region = layout.items[item_id]
        sprite, alpha = stick if label == STICK else _piece_sprite(label, rng, look)
        dx, dy, turn = jitter(rng, 1.2, 4.0)
        x, y = region.centre_mm
        paste(plane, sprite, alpha, (x + dx, y + dy), region.rotation_deg + turn, shadow=0.35)


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    """Sticks on some interior lines, pieces of every colour on some edge lines."""
    sticks = rng.uniform(0.25, 0.5) if hard else rng.uniform(0.05, 0.35)
    pieces = rng.uniform(0.4, 0.9) if hard else rng.uniform(0.1, 0.6)
    labels = {}
    for item_id in layout.items:
        number = int(item_id.split(":")[1])
        if BOARD.is_edge[number]:
            labels[item_id] = COLOURS[int(rng.integers(len(COLOURS)))] if rng.random() < pieces else EMPTY
        else:
            labels[item_id] = STICK if rng.random() < sticks else EMPTY
    return labels


register_renderer(
    SceneRenderer(GAME, render_plane, sample_labels, {"players": 4}, render_on, tuple(EDITIONS))
)
