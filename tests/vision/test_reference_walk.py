"""The light grid's walk (table_light.py) stops once its cells swing back and forth instead of settling."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.table_light import WALK_PASSES, WALK_STALLED, Floats, LightGrid, Mask


def test_a_walk_whose_cells_swing_back_and_forth_stops_after_the_stalled_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grid = LightGrid((350.0, 350.0), (175, 175), numpy.ones((175, 175), numpy.float32), 0.1)
    calls: list[int] = []
    lacking = numpy.ones((10, 10, 3), bool)
    lacking[4:6, 4:6] = False  # cells under pieces: never any light of their own

    def swinging(
        self: LightGrid,
        log_ratio: Floats,
        usable: Floats,
        centre: Floats,
        band: float,
        overall: Floats,
        fallback: Floats,
    ) -> tuple[Floats, Mask]:
        # Each pass moves every cell by 0.6 (log) the other way: far above WALK_SETTLED, never less.
        calls.append(0)
        light = 0.3 if len(calls) % 2 else -0.3
        return numpy.full((10, 10, 3), light, numpy.float32), lacking

    monkeypatch.setattr(LightGrid, "_cells", swinging)
    levels = numpy.full((175, 175, 3), 100.0, numpy.float32)
    grid.measure(numpy.zeros((175, 175, 3), numpy.float32), levels, levels)
    # The first grid, the walk's passes, the two narrower bands.
    walked = len(calls) - 3
    assert walked == WALK_STALLED + 1 < WALK_PASSES
