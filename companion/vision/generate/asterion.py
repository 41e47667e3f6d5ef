"""Asterion scenes: labyrinth tiles on a felt table, grown out from the Minotaur tile.

A tile is dark stone with sandy paths from its sides (straight through the
middle, or bending round a corner), a frame in its set's colour, and what lies
on its paths: prisoners (discs in the set's colour), treasure chests, wings,
horns; the Minotaur tile has a purple frame and Asterion in the middle. The
designs come from seeds/asterion.toml; the real edition looks different, and
teach mode learns it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN, PathSpec, design
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
from companion.vision.vocabulary import (
    EMPTY,
    MINOTAUR,
    asterion_cell,
    asterion_tile_label,
    parse_asterion_label,
)

GAME = "asterion"
TILE_MM = dimension_mm(GAME, "tile")
CELL_MM = dimension_mm(GAME, "cell")
TABLE_BGR = (62, 66, 60)
"""Grey-green felt."""
STONE_BGR = (78, 84, 92)
PATH_BGR = (150, 196, 222)
FRAME_BGR: dict[str, tuple[int, int, int]] = {
    "yellow": (40, 200, 235),
    "blue": (180, 105, 30),
    "red": (45, 45, 195),
    "green": (60, 160, 55),
    MINOTAUR: (140, 60, 125),
}
FRAME_MM = 4.5
PATH_MM = 11.0
COIN_BGR = (30, 170, 225)
WING_BGR = (245, 245, 245)
HORN_BGR = (35, 55, 80)
OUTLINE_BGR = (25, 25, 30)


@dataclasses.dataclass(frozen=True)
class Edition:
    """One print run of the tiles: the sets' frame colours, stone and path, and what lies on them."""

    frame_bgr: Mapping[str, tuple[int, int, int]]
    stone_bgr: tuple[int, int, int]
    path_bgr: tuple[int, int, int]
    coin_bgr: tuple[int, int, int]
    outline_bgr: tuple[int, int, int]
    frame_mm: float
    prisoner: str
    """"disc" or "square" (a meeple's top seen from above)."""


EDITIONS: dict[str, Edition] = {
    "default": Edition(FRAME_BGR, STONE_BGR, PATH_BGR, COIN_BGR, OUTLINE_BGR, FRAME_MM, "disc"),
    "second-print": Edition(
        {
            "yellow": (70, 185, 220),
            "blue": (160, 120, 40),
            "red": (60, 70, 205),
            "green": (90, 170, 100),
            MINOTAUR: (110, 40, 100),
        },
        (60, 70, 85),
        (175, 210, 230),
        (60, 200, 240),
        (40, 30, 20),
        3.5,
        "square",
    ),
    "travel": Edition(
        {
            "yellow": (25, 215, 250),
            "blue": (200, 80, 20),
            "red": (30, 30, 170),
            "green": (40, 140, 40),
            MINOTAUR: (160, 80, 150),
        },
        (100, 105, 110),
        (130, 170, 195),
        (20, 140, 200),
        (15, 15, 15),
        5.5,
        "disc",
    ),
}
"""The built-in tiles (drawn exactly as before) and two other print runs."""

SIDE_VECTORS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))
"""Unit vectors from the tile's centre towards N, E, S, W (y grows downwards)."""


def _sides(path: PathSpec) -> list[int]:
    return [side for side in range(4) if path.sides >> side & 1]


def _through_middle(path: PathSpec) -> bool:
    """Paths joining one side, opposite sides, or three or four sides meet in the middle; bends do not."""
    sides = _sides(path)
    return not (len(sides) == 2 and (sides[1] - sides[0]) % 2 == 1)


def _pt(x_mm: float, y_mm: float, centre: float) -> tuple[int, int]:
    return (round(centre + mm(x_mm)), round(centre + mm(y_mm)))


def _draw_path(
    sprite: Frame, path: PathSpec, crowded: bool, path_bgr: tuple[int, int, int] = PATH_BGR
) -> list[tuple[float, float]]:
    """Draw one path; returns anchor points (mm from the centre) for what lies on it, best first."""
    half = TILE_MM / 2
    centre = (sprite.shape[0] - 1) / 2
    width = round(mm(PATH_MM))
    sides = _sides(path)
    if not _through_middle(path):  # a bend: a quarter circle round the corner between its sides
        v1, v2 = SIDE_VECTORS[sides[0]], SIDE_VECTORS[sides[1]]
        cx, cy = (v1[0] + v2[0]) * half, (v1[1] + v2[1]) * half
        a1 = math.atan2(v1[1] * half - cy, v1[0] * half - cx)
        a2 = math.atan2(v2[1] * half - cy, v2[0] * half - cx)
        delta = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi
        arc = [
            (cx + half * math.cos(a1 + t * delta), cy + half * math.sin(a1 + t * delta))
            for t in numpy.linspace(0, 1, 24)
        ]
        points = numpy.array([_pt(x, y, centre) for x, y in arc], numpy.int32)
        cv2.polylines(sprite, [points], False, path_bgr, width, cv2.LINE_AA)
        return [arc[round(t * 23)] for t in (0.5, 0.22, 0.78)]
    if len(sides) == 1 and crowded:  # a short dead end beside a path through the middle
        vx, vy = SIDE_VECTORS[sides[0]]
        end = half - 8.5
        cv2.line(sprite, _pt(vx * half, vy * half, centre), _pt(vx * end, vy * end, centre), path_bgr, width)
        cv2.circle(sprite, _pt(vx * end, vy * end, centre), round(mm(5.0)), path_bgr, -1, cv2.LINE_AA)
        return [(vx * end, vy * end), (vx * (half - 3), vy * (half - 3))]
    for side in sides:
        vx, vy = SIDE_VECTORS[side]
        cv2.line(sprite, _pt(0, 0, centre), _pt(vx * half, vy * half, centre), path_bgr, width, cv2.LINE_AA)
    cv2.circle(
        sprite,
        _pt(0, 0, centre),
        round(mm(7.0 if len(sides) == 1 else PATH_MM / 2)),
        path_bgr,
        -1,
        cv2.LINE_AA,
    )
    return [(0.0, 0.0)] + [(SIDE_VECTORS[s][0] * 11.5, SIDE_VECTORS[s][1] * 11.5) for s in sides]


def _draw_items(
    sprite: Frame,
    path: PathSpec,
    anchors: list[tuple[float, float]],
    colour: tuple[int, int, int],
    look: Edition = EDITIONS["default"],
) -> None:
    centre = (sprite.shape[0] - 1) / 2
    things = ["prisoner"] * path.prisoners + ["coin"] * path.coins + ["wing"] * path.wings
    things += ["horns"] * path.horns + ["asterion"] * int(path.asterion)
    for thing, (x, y) in zip(things, anchors, strict=False):
        at = _pt(x, y, centre)
        if thing == "prisoner" and look.prisoner == "square":
            corner_a, corner_b = (
                (at[0] - round(mm(3.2)), at[1] - round(mm(3.2))),
                (at[0] + round(mm(3.2)), at[1] + round(mm(3.2))),
            )
            cv2.rectangle(sprite, corner_a, corner_b, colour, -1, cv2.LINE_AA)
            cv2.rectangle(sprite, corner_a, corner_b, look.outline_bgr, round(mm(0.7)), cv2.LINE_AA)
        elif thing == "prisoner":
            cv2.circle(sprite, at, round(mm(3.6)), colour, -1, cv2.LINE_AA)
            cv2.circle(sprite, at, round(mm(3.6)), look.outline_bgr, round(mm(0.7)), cv2.LINE_AA)
        elif thing == "coin":
            w, h = mm(3.6), mm(2.6)
            cv2.rectangle(
                sprite,
                (round(at[0] - w), round(at[1] - h)),
                (round(at[0] + w), round(at[1] + h)),
                look.coin_bgr,
                -1,
            )
            cv2.rectangle(
                sprite,
                (round(at[0] - w), round(at[1] - h)),
                (round(at[0] + w), round(at[1] + h)),
                look.outline_bgr,
                round(mm(0.8)),
            )
            cv2.line(
                sprite, (round(at[0] - w), at[1]), (round(at[0] + w), at[1]), look.outline_bgr, round(mm(0.6))
            )
        elif thing == "wing":
            cv2.ellipse(sprite, at, (round(mm(4.5)), round(mm(2.0))), -30, 0, 360, WING_BGR, -1, cv2.LINE_AA)
            cv2.ellipse(
                sprite,
                at,
                (round(mm(4.5)), round(mm(2.0))),
                -30,
                0,
                360,
                (120, 120, 120),
                round(mm(0.5)),
                cv2.LINE_AA,
            )
        elif thing == "horns":
            cv2.ellipse(
                sprite,
                at,
                (round(mm(4.0)), round(mm(3.0))),
                0,
                180,
                360,
                HORN_BGR,
                round(mm(1.6)),
                cv2.LINE_AA,
            )
        else:  # Asterion himself: a bull's head
            cv2.circle(sprite, at, round(mm(5.0)), (30, 50, 75), -1, cv2.LINE_AA)
            cv2.ellipse(
                sprite,
                (at[0], at[1] - round(mm(3))),
                (round(mm(7.0)), round(mm(4.0))),
                0,
                180,
                360,
                (210, 225, 235),
                round(mm(1.5)),
                cv2.LINE_AA,
            )


@functools.cache
def draw_tile(
    colour: str, number: int, grain: int | None = None, edition: str = "default"
) -> tuple[Frame, numpy.typing.NDArray[numpy.float32]]:
    """A tile as printed (unturned) as a sprite: BGR and alpha.

    `grain` seeds the stone's texture (None: flat, as the recogniser's templates are drawn).
    """
    look = EDITIONS[edition]
    sprite, alpha = new_sprite(TILE_MM, TILE_MM)
    rounded_rect_mask(alpha, 1.5)
    side = sprite.shape[0]
    frame = round(mm(look.frame_mm))
    sprite[:] = look.frame_bgr[colour]
    stone = numpy.full((side - 2 * frame, side - 2 * frame, 3), look.stone_bgr, numpy.float32)
    if grain is not None:
        stone += texture(stone.shape[:2], numpy.random.default_rng(grain), 7.0)[..., None]
    sprite[frame:-frame, frame:-frame] = numpy.clip(stone, 0, 255).astype(numpy.uint8)
    paths = design(number).paths
    crowded = any(_through_middle(p) and len(_sides(p)) > 1 for p in paths)
    anchors = [_draw_path(sprite, path, crowded and len(_sides(path)) == 1, look.path_bgr) for path in paths]
    prisoner = look.frame_bgr[colour] if colour != MINOTAUR else (200, 200, 200)
    for path, points in zip(paths, anchors, strict=True):
        _draw_items(sprite, path, points, prisoner, look)
    return sprite, alpha


def draw_cell(colour: str, number: int) -> Frame:
    """One cell at plane resolution: the unturned tile centred on the table (the recogniser's template)."""
    rng = numpy.random.default_rng(0)
    cell = blank_plane((round(CELL_MM * 2), round(CELL_MM * 2)), TABLE_BGR, rng)
    sprite, alpha = draw_tile(colour, number)
    middle = (cell.shape[0] - 1) / 2 / PLANE_PX_PER_MM  # the middle pixel, so that the cell is symmetric
    paste(cell, sprite, alpha, (middle, middle), 0.0, shadow=0.0)
    return cell


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    plane = blank_plane(layout.plane_size_px(), shade(TABLE_BGR, rng, 5), rng)
    _lay_tiles(plane, labels, layout, rng, "default")
    return plane


def render_on(
    labels: Mapping[str, str], layout: Layout, rng: Rng, *, background: Frame, edition: str
) -> Frame:
    """The edition's tiles laid on the given table."""
    plane = background.copy()
    _lay_tiles(plane, labels, layout, rng, edition)
    return plane


def _lay_tiles(plane: Frame, labels: Mapping[str, str], layout: Layout, rng: Rng, edition: str) -> None:
    for item_id, label in labels.items():
        shown = parse_asterion_label(label)
        if shown is None:
            continue
        colour, number, rotation = shown
        if number != MINOTAUR_DESIGN and rng.random() < 0.5:
            # A look-alike turn: the same paths, so the same label (a corridor turned half round).
            rotation = int(
                rng.choice([r for r in range(4) if asterion_tile_label(colour, number, r) == label])
            )
        sprite, alpha = draw_tile(colour, number, int(rng.integers(8)), edition)
        sprite = numpy.ascontiguousarray(numpy.rot90(sprite, k=-rotation))
        alpha = numpy.ascontiguousarray(numpy.rot90(alpha, k=-rotation))
        lit = numpy.clip(sprite.astype(numpy.float32) * rng.uniform(0.92, 1.05), 0, 255).astype(numpy.uint8)
        dx, dy, turn = jitter(rng, 1.5, 3.0)
        x, y = layout.items[item_id].centre_mm
        paste(plane, lit, alpha, (x + dx, y + dy), turn, shadow=0.3)


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    """The Minotaur tile at (0, 0) and tiles grown out from it into neighbouring cells."""
    labels = dict.fromkeys(layout.items, EMPTY)
    cells = {asterion_cell(item_id): item_id for item_id in layout.items}
    labels[cells[(0, 0)]] = f"{MINOTAUR}@0"
    placed = [(0, 0)]
    count = int(rng.integers(15 if hard else 4, min(len(cells), 45 if hard else 30)))
    for _ in range(count):
        frontier = sorted(
            {(x + dx, y + dy) for x, y in placed for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            & cells.keys() - set(placed)
        )
        if not frontier:
            break
        cell = frontier[int(rng.integers(len(frontier)))]
        colour = COLOURS[int(rng.integers(len(COLOURS)))]
        number = int(rng.integers(len(DESIGNS)))
        labels[cells[cell]] = asterion_tile_label(colour, number, int(rng.integers(4)))
        placed.append(cell)
    return labels


register_renderer(
    SceneRenderer(GAME, render_plane, sample_labels, {"columns": 9, "rows": 7}, render_on, tuple(EDITIONS))
)
