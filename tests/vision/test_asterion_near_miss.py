"""Asterion: a doubtful cell whose nearest colours' designs nearly hold a tile (`_asterion_cell.NEAR_MISS`
up to TILE_LIKENESS) is asked every colour it can show, even one no corner lies nearest: a blurred second
print's blue on dark wood, its middle left grey, its corners nearest the wood's red and yellow (burnt
20261154 session 01 frame 13, read empty)."""

from __future__ import annotations

import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import NEAR_MISS, TILE_LIKENESS

from .test_asterion_unseen_partner import _Designs, _read


def test_a_near_miss_is_read_in_a_colour_nearest_no_corner() -> None:
    # The cell: its corners' colours' designs 0.49 (green there) and under, blue's 0.72.
    designs = _Designs({"yellow": 0.46, "green": 0.40, "red": 0.18, "blue": 0.72})
    assert _read(designs).startswith("blue:")


def test_a_cell_far_from_any_design_is_not_asked_every_colour() -> None:
    designs = _Designs({"yellow": NEAR_MISS - 0.05, "green": 0.2, "red": 0.2, "blue": 0.72})
    assert _read(designs) == "empty"
    assert "blue" not in designs.asked


def test_without_the_near_miss_the_blue_tile_is_read_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_asterion_cell, "NEAR_MISS", TILE_LIKENESS)
    designs = _Designs({"yellow": 0.46, "green": 0.40, "red": 0.18, "blue": 0.72})
    assert _read(designs) == "empty"
    assert "blue" not in designs.asked
