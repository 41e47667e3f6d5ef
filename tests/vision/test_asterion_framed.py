"""Asterion: a cell whose corners show a frame colour at only three of four corners, or whose inside is
flat (`_asterion_cell.FLAT_FRAMED`), and whose inside is like no design is the table
(`_asterion_cell.MOSTLY_FRAMED`)."""

from __future__ import annotations

from typing import Any, cast

import numpy

from companion.vision.recognisers._asterion_cell import FLAT_FRAMED, read_cell
from companion.vision.recognisers._asterion_labels import EMPTY
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

from .test_asterion_greyless import grey_window


class _Designs:
    """Templates as read_cell asks them: the cell lined up where it lies, its best design in every colour
    at `likeness`."""

    def __init__(self, likeness: float) -> None:
        self.best = likeness

    def likeness(self, colour: str, windows: list[Any]) -> float:
        return self.best

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), self.best


def _read(share: float, likeness: float, contrast: float = 20.0) -> str:
    counts = numpy.zeros(8, numpy.intp)
    counts[0] = round(share * 100)
    # Corners of a lit yellow frame (L 206, b 208): not a green under a warm light (`WARM_B`).
    palettes = cast(Any, type("P", (), {})())
    palettes.every = type(
        "E", (), {"classify_bgr": staticmethod(lambda pixels: numpy.zeros(len(pixels), int))}
    )()
    palettes.every_map = numpy.array([0])
    label, _, _ = read_cell(
        grey_window(),
        contrast,
        numpy.full((100, 3), (20, 200, 230), numpy.uint8),
        counts,
        (0, share, 1, 0.0),
        palettes,
        cast(Any, _Designs(likeness)),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
    )
    return label


def test_the_table_at_three_corners_like_no_design_is_empty() -> None:
    # A light wood taken for yellow beside a tile's frame: 0.60-0.75 of the corners, correlating 0.21-0.34.
    assert _read(0.65, 0.3) == EMPTY
    assert _read(0.75, 0.24) == EMPTY


def test_a_tile_framed_at_three_corners_or_like_a_design_is_read() -> None:
    assert _read(0.65, 0.4) != EMPTY
    assert _read(0.85, 0.3) != EMPTY


def test_a_cell_framed_at_two_corners_must_look_more_like_a_design() -> None:
    assert _read(0.5, 0.4) == EMPTY
    assert _read(0.5, 0.5) != EMPTY


def test_a_flat_cell_framed_at_every_corner_like_no_design_is_empty() -> None:
    # Burnt 20261146 light wood: the wood left orange, red at 0.93 of the corners, its grain 12, 0.30.
    assert _read(0.93, 0.3, contrast=FLAT_FRAMED - 4) == EMPTY
    assert _read(0.93, 0.3, contrast=FLAT_FRAMED + 4) != EMPTY
    # The flattest tiles measured correlated 0.386 and more.
    assert _read(0.93, 0.39, contrast=FLAT_FRAMED - 4) != EMPTY
