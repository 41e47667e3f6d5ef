"""Asterion: whether a cell the reference tore (the table's neutral grey inside it) holds a tile is asked
of its likeness over what the table leaves (`_asterion_cell.TORN_SHARE`)."""

from __future__ import annotations

from typing import Any, cast

import numpy

from companion.vision.recognisers._asterion_cell import read_cell
from companion.vision.recognisers._asterion_labels import EMPTY
from companion.vision.recognisers._asterion_profile import FRAME_LABELS
from companion.vision.recognisers._asterion_window import SHIFT_PX, TEMPLATE_PX

from .test_asterion_partner import nearest_as_voted

PIXELS = 1600


class _Window:
    """A cell of which the table covers `torn` (a share of its pixels), and `side` of one side of its
    frame (`Window.table_side`)."""

    def __init__(self, torn: float, side: float = 0.0) -> None:
        self.mask = numpy.arange(PIXELS) < round(torn * PIXELS)
        self.side = side
        # Its inside shows grey, as a tile's walls and the table's grey do (`_asterion_inside.greyless`).
        self.bgr = numpy.full((TEMPLATE_PX + 2 * SHIFT_PX,) * 2 + (3,), 90, numpy.uint8)

    def table_side(self, dy: int, dx: int) -> float:
        return self.side

    def missing(self, dy: int, dx: int) -> numpy.typing.NDArray[numpy.bool_] | None:
        return self.mask if self.mask.any() else None


class _Designs:
    """Templates as read_cell asks them: the cell's best design correlates `whole` with it, `kept` over
    the pixels the table leaves."""

    def __init__(self, whole: float, kept: float) -> None:
        self.whole, self.kept = whole, kept

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def likeness(self, colour: str, windows: list[Any]) -> float:
        return self.whole

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        return 0.0

    def lined_scored(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int], None, Any]:
        return None, (0, 0), None, (windows[0], 3, 3)

    def partial_scores(self, colour: str, view: Any, kept: Any) -> numpy.typing.NDArray[numpy.float32]:
        return numpy.array([self.kept, self.kept - 0.1], numpy.float32)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), self.whole


def _read(torn: float, whole: float, kept: float, share: float, asked: bool = True, side: float = 0.0) -> str:
    """A cell whose corners show yellow at `share` and the table at the rest: at 0.75, a dark wood's
    second-print yellow (burnt 20261145); at 0.23 (doubtful), an empty cell beside a tile."""
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    counts[0] = round(share * 100)
    counts[len(FRAME_LABELS)] = 100 - counts[0]
    palettes = cast(Any, type("P", (), {})())
    # Framed, its corners' pixels all yellow's (a lit yellow: not a green under a warm light, `WARM_B`).
    palettes.every = type(
        "E", (), {"classify_bgr": staticmethod(lambda pixels: numpy.zeros(len(pixels), int))}
    )()
    palettes.every_map = numpy.array([0])
    nearest_as_voted(palettes, {0: int(counts[0])}, FRAME_LABELS.index("minotaur"))
    label, _, _ = read_cell(
        cast(Any, _Window(torn, side)),
        30.0,
        numpy.full((100, 3), (20, 200, 230), numpy.uint8),
        counts,
        (0, share, 1, 0.0),
        palettes,
        cast(Any, _Designs(whole, kept)),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
        asked,
    )
    return label


def _framed(torn: float, whole: float, kept: float, asked: bool = True, side: float = 0.0) -> str:
    return _read(torn, whole, kept, 0.75, asked, side)


def _doubtful(torn: float, whole: float, kept: float, side: float = 0.0) -> str:
    return _read(torn, whole, kept, 0.23, side=side)


def test_a_torn_tile_whose_rest_is_like_a_design_is_read() -> None:
    # The yellow treasure bend: 0.33 whole (under MOSTLY_FRAMED_LIKENESS), 0.38 without the grey.
    assert _framed(0.29, 0.33, 0.38) != EMPTY
    # Not asked (no grey in its middle): the whole's likeness decides.
    assert _framed(0.29, 0.33, 0.38, asked=False) == EMPTY


def test_a_little_torn_cell_is_judged_whole() -> None:
    assert _framed(0.18, 0.33, 0.38) == EMPTY
    assert _framed(0.18, 0.5, 0.3) != EMPTY
    # A tile like a design clearly (TORN_ASKED) is not asked.
    assert _framed(0.29, 0.75, 0.1) != EMPTY


def test_an_empty_cell_like_a_design_on_a_neighbours_frame_alone_is_empty() -> None:
    # Light wood: the cell's window mostly the table's grey, 0.51 whole, 0.42 without it.
    assert _doubtful(0.36, 0.51, 0.42) == EMPTY
    assert _doubtful(0.36, 0.51, 0.55) != EMPTY
    assert _doubtful(0.1, 0.51, 0.42) != EMPTY


def test_a_scrap_the_table_leaves_is_like_no_design() -> None:
    # Burnt 20261147 gingham travel f7: an empty cell, the table's grey over 0.565 of it, voted red at
    # 0.03 and correlated 0.51 with a blue design (its rest like one too): empty.
    assert _doubtful(0.57, 0.51, 0.6) == EMPTY
    assert _framed(0.6, 0.5, 0.6) == EMPTY
    # Torn less than MOSTLY_MISSING: what is left decides.
    assert _doubtful(0.5, 0.51, 0.6) != EMPTY
    assert _framed(0.5, 0.5, 0.6) != EMPTY


def test_a_torn_cell_with_the_table_along_a_side_of_its_frame_is_empty() -> None:
    # Burnt 20261149 laminate f9: the lower half of an empty cell the table's grey (one side of its frame
    # all grey), the rest a kept laminate like a corridor (0.58 whole, 0.65 without the grey).
    assert _doubtful(0.28, 0.58, 0.65, side=1.0) == EMPTY
    assert _doubtful(0.28, 0.58, 0.65, side=0.8) != EMPTY
    # Felt f12: voted blue at 0.65 by the felt, like a design without the grey.
    assert _framed(0.48, 0.34, 0.6, side=0.97) == EMPTY
    assert _framed(0.48, 0.34, 0.6, side=0.5) != EMPTY
    # Not asked where the table shows in the middle too little (a tile's rim beside the table between
    # tiles).
    assert _framed(0.29, 0.75, 0.1, asked=False, side=1.0) != EMPTY
