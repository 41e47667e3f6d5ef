"""Pieces lying edge to edge (Asterion's tiles): a pale path of the table's very colour running across
neighbouring tiles and out onto the table is kept in the normalised plane for a game that declares its
pieces touch (`Layout.joined_gap_mm`), and painted neutral for one whose pieces stand apart."""

from __future__ import annotations

import dataclasses

import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.components import JOINED_GAP_MM, with_joined_gaps
from companion.vision.normalising import gaps_joined
from companion.vision.reference import NEUTRAL_BGR, TableReference
from tests.vision.test_reference import layout, table

TILE_MM = 40.0
TILE_BGR = (120, 60, 30)
TILES_X, TILES_Y = (120.0, 280.0), (90.0, 170.0)
PATH_Y = (105.0, 115.0)
"""A path 10 mm wide across the top row of tiles, from the table left of them to the table right of them."""


def px(mm: float) -> int:
    return round(mm * PLANE_PX_PER_MM)


def with_paved_path(empty: Frame) -> Frame:
    """Eight dark tiles edge to edge (2 rows of 4), a path of the table's own pixels across the top row."""
    plane = empty.copy()
    plane[px(TILES_Y[0]) : px(TILES_Y[1]), px(TILES_X[0]) : px(TILES_X[1])] = TILE_BGR
    rows = slice(px(PATH_Y[0]), px(PATH_Y[1]))
    columns = slice(px(TILES_X[0] - 20.0), px(TILES_X[1] + 20.0))
    plane[rows, columns] = empty[rows, columns]
    return plane


def path_kept(joined_gap_mm: float) -> float:
    """Share of the path's pixels within the tiles the normalised plane keeps (not neutral)."""
    empty = table("light-wood", numpy.random.default_rng(5))
    reference = TableReference(dataclasses.replace(layout(), joined_gap_mm=joined_gap_mm))
    reference.learn([empty])
    normalised, replaced = reference.normalise_with_table(with_paved_path(empty))
    rows = slice(px(PATH_Y[0]) + 2, px(PATH_Y[1]) - 2)
    columns = slice(px(TILES_X[0]) + 4, px(TILES_X[1]) - 4)
    neutral = numpy.all(normalised[rows, columns] == NEUTRAL_BGR, axis=2)
    assert numpy.array_equal(neutral, replaced[rows, columns] > 0)
    return 1.0 - float(neutral.mean())


def test_a_pale_path_across_touching_tiles_is_kept_only_where_pieces_touch() -> None:
    assert path_kept(0.0) < 0.2  # pieces apart: the path is taken for the table (the reference alone)
    assert path_kept(JOINED_GAP_MM["asterion"]) == 1.0


def test_only_asterion_joins_gaps_and_the_others_layouts_are_unchanged() -> None:
    plain = layout()
    assert with_joined_gaps("asterion", plain).joined_gap_mm == 18.0
    for game in ("hornochsen", "minoa", "minos", "minotaurus", "toss"):
        assert with_joined_gaps(game, plain) is plain


def test_a_gap_wider_than_the_kernel_stays_table() -> None:
    foreground = numpy.zeros((40, 60), bool)
    foreground[10:30, 5:20] = True
    foreground[10:30, 30:45] = True  # 10 mask pixels apart
    foreground[10:30, 20:24] = False
    assert not gaps_joined(foreground, 9)[20, 25]
    narrow = foreground.copy()
    narrow[10:30, 24:30] = True  # now 4 apart
    assert gaps_joined(narrow, 9)[20, 22]
