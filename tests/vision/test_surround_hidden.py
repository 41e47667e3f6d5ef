"""An arm the band's own light takes in whole (_surround_hidden.py): between two sides an arm's width apart
its grain's profile is gone, where a shadow keeps it; drawn bands, no generator."""

from __future__ import annotations

import numpy
import numpy.typing
import pytest

from companion.vision._reference_base import ReferenceSettings
from companion.vision._surround_hidden import grain_hidden
from companion.vision.hand_check import HandCheck
from tests.vision.test_surround import learned, surround

MARGIN, PX_PER_MM = 15, 0.5
HEIGHT, WIDTH = 166, 266
SIDES = ((134, 143), (184, 196))
"""The sleeve's two sides along the band's top edge (burnt 20261151 Minotaurus dark wood session 08 frame 8's
columns): 100 mm apart."""


def dark_wood(seed: int) -> numpy.typing.NDArray[numpy.float32]:
    """Dark red-brown wood in a dim room (16/26/46 levels), grain lines across the top band every 4 px,
    summed over the channels, with the camera's noise."""
    x = numpy.arange(WIDTH, dtype=numpy.float32)
    grain = 88.0 + 4.0 * numpy.sin(x * numpy.pi / 2.0) + 2.0 * numpy.sin(x / 7.0)
    noise = numpy.random.default_rng(seed).normal(0.0, 2.6, (HEIGHT, WIDTH))
    return numpy.asarray(numpy.tile(grain, (HEIGHT, 1)) + noise, numpy.float32)


def masks(meets: bool = True) -> tuple[numpy.typing.NDArray[numpy.bool_], numpy.typing.NDArray[numpy.uint8]]:
    """What differs under the plane's light (the two sides across the band) and the plane's changes (the
    hand going on under the left side, or away from both)."""
    carried = numpy.zeros((HEIGHT, WIDTH), bool)
    for start, end in SIDES:
        carried[:MARGIN, start:end] = True
    inside = numpy.zeros((HEIGHT - 2 * MARGIN, WIDTH - 2 * MARGIN), numpy.uint8)
    column = SIDES[0][0] - MARGIN if meets else 10
    inside[:40, column : column + 9] = 1
    return carried, inside


def covered(
    reference: numpy.typing.NDArray[numpy.float32], seed: int, how: str, depth: float
) -> numpy.typing.NDArray[numpy.float32]:
    """The band with the region between the sides darkened to `depth`: by a shadow (the grain scaled) or a
    sleeve (its own even level, the grain hidden)."""
    frame = dark_wood(seed)
    middle = (slice(0, MARGIN + 40), slice(SIDES[0][1], SIDES[1][0]))
    if how == "shadow":
        frame[middle] *= depth
    else:
        frame[middle] = float(reference[middle].mean()) * depth
        frame[middle] += numpy.random.default_rng(seed + 1).normal(0.0, 2.6, frame[middle].shape)
    return frame


def test_a_sleeve_hiding_the_grain_between_its_sides_is_an_arm() -> None:
    reference = dark_wood(1)
    carried, inside = masks()
    assert grain_hidden(carried, inside, covered(reference, 2, "sleeve", 0.78), reference, MARGIN, PX_PER_MM)


def test_a_shadow_between_the_sides_keeps_the_grain() -> None:
    reference = dark_wood(1)
    carried, inside = masks()
    assert not grain_hidden(
        carried, inside, covered(reference, 2, "shadow", 0.78), reference, MARGIN, PX_PER_MM
    )


def test_under_a_deep_shadow_or_on_a_plain_table_the_grain_tells_nothing() -> None:
    # At 0.15 of its level the grain kept is as faint as the noise: no evidence either way.
    reference = dark_wood(1)
    carried, inside = masks()
    assert not grain_hidden(
        carried, inside, covered(reference, 2, "sleeve", 0.15), reference, MARGIN, PX_PER_MM
    )
    plain = numpy.asarray(
        numpy.full((HEIGHT, WIDTH), 88.0) + numpy.random.default_rng(5).normal(0, 2.6, (HEIGHT, WIDTH)),
        numpy.float32,
    )
    frame = plain.copy()
    frame[:MARGIN, SIDES[0][1] : SIDES[1][0]] = 70.0
    assert not grain_hidden(carried, inside, frame, plain, MARGIN, PX_PER_MM)


def test_sides_away_from_the_planes_changes_or_too_close_are_no_arm() -> None:
    reference = dark_wood(1)
    frame = covered(reference, 2, "sleeve", 0.78)
    carried, away = masks(meets=False)
    assert not grain_hidden(carried, away, frame, reference, MARGIN, PX_PER_MM)
    carried, inside = masks()
    carried[:MARGIN, SIDES[1][0] :] = False
    carried[:MARGIN, SIDES[0][1] + 12 : SIDES[0][1] + 16] = True  # 30 mm apart: no arm's sides
    assert not grain_hidden(carried, inside, frame, reference, MARGIN, PX_PER_MM)


def test_a_region_brighter_than_its_reference_is_left_to_the_other_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A lamp's pool beside a print left a frame at rest whose profile disagreed there, lit (1.08).
    reference = dark_wood(1)
    carried, inside = masks()
    frame = covered(reference, 2, "sleeve", 1.1)
    assert not grain_hidden(carried, inside, frame, reference, MARGIN, PX_PER_MM)
    monkeypatch.setattr("companion.vision._surround_hidden.HIDDEN_DARKER", 1.2)
    assert grain_hidden(carried, inside, frame, reference, MARGIN, PX_PER_MM)


@pytest.mark.parametrize("hidden", [True, False])
def test_the_hand_check_asks_for_hidden_grain_where_no_crossing_is_found(
    hidden: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The band's comparisons stubbed: under the plane's light a region crossing the band into the plane's
    # changes opens the gate, under its own light nothing crosses; the hidden grain then decides.
    band, empty = learned(surround())
    m = band.margin
    plane = (band.size[1] - 2 * m, band.size[0] - 2 * m)
    check = HandCheck(ReferenceSettings(), band, numpy.zeros(plane, bool), numpy.ones(plane, numpy.float32))
    carried = numpy.zeros((band.size[1], band.size[0]), bool)
    carried[:m, 60:70] = True
    asked: list[numpy.typing.NDArray[numpy.bool_]] = []

    def grain_hidden(_frame: object, differs: numpy.typing.NDArray[numpy.bool_], _inside: object) -> bool:
        asked.append(differs)
        return hidden

    monkeypatch.setattr(band, "changed", lambda *_args: (carried, carried, carried, carried))
    monkeypatch.setattr(band, "changed_if_crossed", lambda *_args: None)
    monkeypatch.setattr(band, "grain_hidden", grain_hidden)
    joined = numpy.zeros(plane, numpy.uint8)
    joined[:40, 40:100] = 1
    small = numpy.zeros((*plane, 3), numpy.uint8)
    assert check.over_band(joined, empty, small, numpy.zeros(plane, numpy.float32)) is hidden
    assert len(asked) == 1 and numpy.array_equal(asked[0], carried)
