"""A tile lined up at the edge of the search by lightness is lined up again in Lab (`_Shifts.aligned_in`)."""

from __future__ import annotations

import numpy

from companion.vision.recognisers._asterion_window import (
    LAB_LINING_BELOW,
    SHIFT_PX,
    TEMPLATE_PX,
    Window,
    _Shifts,
)
from companion.vision.recognisers._lab import to_lab

_GREEN = (60, 160, 60)
"""A frame about as light as the walls (grey ~119 against 128): lightness hardly shows it."""


def _tile(side: int, at: int) -> numpy.typing.NDArray[numpy.uint8]:
    """A grey picture `side` square with a green frame 3 pixels wide around TEMPLATE_PX from `at`."""
    picture = numpy.full((side, side, 3), 128, numpy.uint8)
    picture[at : at + TEMPLATE_PX, at : at + TEMPLATE_PX] = _GREEN
    picture[at + 3 : at + TEMPLATE_PX - 3, at + 3 : at + TEMPLATE_PX - 3] = 128
    return picture


def test_a_frame_shown_by_colour_alone_lines_the_tile_up_not_a_neighbours_path() -> None:
    template = _tile(TEMPLATE_PX, 0)
    template[33:, 14:26] = 230  # the looks' paths, pale, out through the frame
    side = TEMPLATE_PX + 2 * SHIFT_PX
    seen = _tile(side, SHIFT_PX).astype(numpy.float32)  # the tile as it lies, its paths elsewhere
    seen[40:, 15:31] = 230  # a neighbour's pale path below it
    grain = numpy.random.default_rng(3).normal(0.0, 50.0, (side, side, 1)).astype(numpy.float32)
    window = Window.of(numpy.clip(seen + grain, 0, 255).astype(numpy.uint8))
    shifts = _Shifts(to_lab(template))
    best, _, dy, _ = shifts.lightness([window])
    # Lightness alone lines it up at the edge of the search, little like it.
    assert dy == 2 * SHIFT_PX
    assert best < LAB_LINING_BELOW

    _, shift, _ = shifts.aligned_in([window])

    assert shift == (0, 0)
