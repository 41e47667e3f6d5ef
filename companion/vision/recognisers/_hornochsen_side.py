"""Tanz der Hornochsen: what the reference left in view along the plane's left and right sides is no tile.

The grid fit's first-square cover (_hornochsen_grid._TileCover) counts what is no empty area as tile. A
printed cloth's pattern or a shadow's edge at the table's side, left in view by the reference, lies
along the plane's side ragged (no straight run up it STRIP_MM long), under the step
before the left block's rows: there it counts against the right fit, and a short row of the other
block, fitted a square early, is read a square late (burnt 20261152 printed cloth, session 12 frame 14:
the print's triangles 0-22 mm in, joined 52-222 mm down the side, the longest straight run 170 mm, and
more below; row 7 read empty 13 41 50 88).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy
import numpy.typing

Tile = numpy.typing.NDArray[numpy.integer[Any] | numpy.floating[Any]]

SIDE_MM = 40
"""How far in from the plane's left and right sides (mm) cover touching the side is looked at: the step
before the left block's rows (25 mm in, a 20 mm box) and where a fit a square early puts the first
squares."""
SIDE_TALL_MM = 100
"""Cover touching the side and running this far (mm) up and down within SIDE_MM is no tile: a tile there
is some 30 mm tall; a column of tiles does not lie against the plane's side."""


def without_side_runs(tile: Tile) -> Tile:
    """`tile` (0/1, one pixel a millimetre) without what touches its left or right side and runs SIDE_TALL_MM
    or more up and down within SIDE_MM of it (the same array where nothing touches either side)."""
    width = tile.shape[1]
    if width < 2 * SIDE_MM:
        return tile
    kept = tile
    for band, side in ((slice(0, SIDE_MM), 0), (slice(width - SIDE_MM, width), SIDE_MM - 1)):
        within = tile[:, band]
        # (Most frames: nothing at the side, or too few rows holding anything near it for such a run.)
        if not within[:, side].any() or numpy.count_nonzero(within.any(axis=1)) < SIDE_TALL_MM:
            continue
        within = numpy.ascontiguousarray(within)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(within, connectivity=8)
        touching = numpy.unique(labels[:, side])
        tall = [
            label for label in touching.tolist() if label and stats[label, cv2.CC_STAT_HEIGHT] >= SIDE_TALL_MM
        ]
        if tall:
            kept = tile.copy() if kept is tile else kept
            within[numpy.isin(labels, tall)] = 0
            kept[:, band] = within
    return kept
