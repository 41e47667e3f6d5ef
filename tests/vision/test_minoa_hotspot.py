"""Minoa's sticks under a lamp's hotspot are weighed against the sure sticks beside them (SURE_NEAREST):
the hotspot pales every stick under it, so a narrowed one there is of its neighbours' colour, though far
lighter than the sure sticks beyond the hotspot that are most of the frame's (burnt 20261142's laminate)."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.recognisers import _minoa_sticks as sticks
from companion.vision.reference import NEUTRAL_BGR

from .test_minoa_washed import _strip, nearest_of

BLACK, PALED = (45, 45, 45), (135, 135, 135)
"""A sure stick beyond the hotspot, and one under it (Lab L 47 and 144: 97 lighter, past WASHED_L)."""
HOT_CARD = (240, 240, 240)
"""The card under the hotspot (the strips' own card beyond it, test_minoa_washed's)."""


@pytest.mark.parametrize(("nearest", "stick"), [(sticks.SURE_NEAREST, True), (1000, False)])
def test_a_narrowed_stick_under_a_hotspot_is_of_its_neighbours_colour(
    monkeypatch: pytest.MonkeyPatch, nearest: int, stick: bool
) -> None:
    """Seven sure black sticks far off, five paled sure sticks about the tested one, a narrowed paled stick
    (3 rows: no core, a darkening of a stick's by its colour alone). Weighed against all the frame's sure
    sticks (`nearest` beyond their number), it is too light for a stick."""
    strips = numpy.stack(
        [_strip(BLACK, 6)] * 7 + [_strip(PALED, 6, HOT_CARD)] * 5 + [_strip(PALED, 3, HOT_CARD)]
    )
    middles = numpy.array([(500.0 + 40 * n, 0.0) for n in range(7)] + [(40.0 * n, 30.0) for n in range(6)])
    neutral = numpy.all(strips == numpy.array(NEUTRAL_BGR, numpy.uint8), axis=-1)
    monkeypatch.setattr(sticks, "SURE_NEAREST", nearest)
    dips = sticks.stick_dips(strips, neutral, numpy.zeros(len(strips), bool), nearest_of(middles))
    assert numpy.all(dips[:-1] > 0)
    assert (dips[-1] > 0) == stick
