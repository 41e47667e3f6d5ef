"""A pale board over a pale printed cloth (the toss's collar plate on the printed cloth): its rim's colour
lies only a little beyond the print's pale colours nearby, yet it is a board's, over which an arm of its
colour comes in unseen (`Surround.reachable`, `RIM_DIFFERS`; burnt 20261144 Toss printed session 12 frame
6)."""

from __future__ import annotations

import numpy
import pytest

from companion.vision import surround as surround_module
from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import surround

PRINT_BGR = numpy.array([142.0, 173.0, 182.0])
"""The print's pale yellow ground (its green flowers left out: a plain ground is its narrowest range)."""


def learned(plate_gain: float, rng: numpy.random.Generator) -> Surround:
    """The band learned around a plate `plate_gain` times the print's ground in every channel."""
    band = surround()
    shape = (band.size[1], band.size[0], 3)

    def shot() -> Frame:
        image = PRINT_BGR + rng.normal(0.0, 1.5, shape)
        m = band.margin
        image[m:-m, m:-m] = PRINT_BGR * plate_gain + rng.normal(0.0, 1.5, image[m:-m, m:-m].shape)
        return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)

    band.learn([shot(), shot(), shot()], 14.0, 0.07, 0.05, 0.25)
    return band


def test_a_pale_plate_on_a_pale_print_is_a_boards_rim(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = numpy.random.default_rng(41)
    plate = learned(float(numpy.exp(0.12)), rng)  # 0.12 brighter: some 0.09 beyond the print's range
    assert numpy.count_nonzero(plate.reachable(10, 30.0)) > 0
    # The print itself reaching the plane's rim is the table's.
    assert numpy.count_nonzero(learned(1.0, rng).reachable(10, 30.0)) == 0
    # Wanting the rim far beyond the table's range, such a plate is taken for the table.
    monkeypatch.setattr(surround_module, "RIM_DIFFERS", 0.25)
    assert numpy.count_nonzero(plate.reachable(10, 30.0)) == 0
