"""A lamp's glare on a dark table: the normalised plane keeps what the camera saw there.

The empty dark wood is learned with its markers' paper dim (the lamp is over the middle, the corners get
0.65 of its light), so the correction lifts the plane by about 1.5 for them. The lamp's mirror image on
the varnish brightens the wood in the middle, but far below the paper's white: nothing there was taken for
a hotspot. A tile under the glare shows its grey walls well below clipping and its paths at clipping: the
correction must not lift the walls into white with the paths (burnt 20261136, Asterion, dark wood).
"""

from __future__ import annotations

import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame
from tests.vision.test_reference import learned, table

TILE_MM = (200.0, 130.0, 44.0)
"""Centre (x, y) and side of the tile under the glare."""
DIM_TILE_MM = (340.0, 210.0, 40.0)
"""Centre and side of a tile away from it."""


def _box(cx: float, cy: float, side: float, inset: float = 0.0) -> tuple[slice, slice]:
    half = side / 2 - inset
    return (
        slice(round((cy - half) * PLANE_PX_PER_MM), round((cy + half) * PLANE_PX_PER_MM)),
        slice(round((cx - half) * PLANE_PX_PER_MM), round((cx + half) * PLANE_PX_PER_MM)),
    )


def _scene(board: Frame, tiles: bool) -> Frame:
    """The board under the lamp (0.65 at the corners, 1 in the middle) with its glare added in the middle,
    with or without the tiles (as the camera saw them: drawn after the light)."""
    height, width = board.shape[:2]
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    spot = numpy.exp(-(((x - 400.0) / 180.0) ** 2 + ((y - 260.0) / 150.0) ** 2))
    light = 0.65 + 0.35 * spot
    out = board.astype(numpy.float32) * light[..., None] + 70.0 * spot[..., None]
    if tiles:
        cx, cy, side = TILE_MM
        out[_box(cx, cy, side)] = 185.0  # grey walls, lit by the lamp and its glare
        path_y, _ = _box(cx, cy, side)
        out[path_y, round((cx - 11) * PLANE_PX_PER_MM) : round((cx + 11) * PLANE_PX_PER_MM)] = 246.0
        cx, cy, side = DIM_TILE_MM
        out[_box(cx, cy, side)] = 70.0  # walls away from the glare
        path_y, _ = _box(cx, cy, side)
        out[path_y, round((cx - 6) * PLANE_PX_PER_MM) : round((cx + 6) * PLANE_PX_PER_MM)] = 140.0
    return numpy.clip(out, 0, 255).astype(numpy.uint8)


def test_a_tile_under_a_lamps_glare_on_dark_wood_keeps_its_walls_below_white() -> None:
    rng = numpy.random.default_rng(7)
    board = table("dark-wood", rng)
    reference = learned(_scene(board, tiles=False))
    assert reference.white_balanced
    plane = _scene(board, tiles=True)
    view = reference.look(plane)
    assert not view.refused, view.reason
    normalised = reference.normalise(plane, view).astype(numpy.int16)
    cx, cy, _ = TILE_MM
    walls = normalised[_box(cx - 17, cy, 6)]
    paths = normalised[_box(cx, cy, 10)]
    # Lifted for the dim corners (about 1.5), the walls were clipped white like the paths.
    # Where the empty table showed the glare, nothing is lifted past white: the walls are about as the
    # camera saw them (185), not lifted to 238 as where only a lift far past white is held back.
    assert numpy.median(walls.max(axis=2)) < 215, numpy.median(walls.max(axis=2))
    assert numpy.median(paths.max(axis=2)) - numpy.median(walls.max(axis=2)) >= 40
    # The tile away from the glare, whose paper the lift does not clip, is lifted as before.
    cx, cy, _ = DIM_TILE_MM
    lifted = normalised[_box(cx - 13, cy, 8)].reshape(-1, 3)
    assert numpy.all(numpy.abs(numpy.median(lifted, axis=0) - 70.0 * 1.5) < 12), numpy.median(lifted, axis=0)
