"""Asterion: a doubtful cell (its corners not clearly of a frame colour) nearest yellow, then red, is not
read red on its frame and prisoner's lead alone, nor, voted yellow first, on red's designs
(`_asterion_cell.ORANGE_YELLOW`; without it when far likelier, `FAR_LIKELIER`); red nearest, then
yellow, is read yellow on the lead."""

from __future__ import annotations

from typing import Any, cast

import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import FAR_LIKELIER, read_cell
from companion.vision.recognisers._asterion_colour_rules import ORANGE_FAR
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

from .test_asterion_partner import nearest_as_voted

YELLOW, RED = FRAME_LABELS.index("yellow"), FRAME_LABELS.index("red")


class _Designs:
    """Templates as read_cell asks them: yellow's designs (and every other but red's) correlate
    `likeness`, red's `red`; red's frame and prisoner lead yellow's by `red_lead`."""

    def __init__(self, likeness: float, red: float, red_lead: float) -> None:
        self.yellow, self.red, self.red_lead = likeness, red, red_lead

    def likeness(self, colour: str, windows: list[Any]) -> float:
        return self.red if colour == "red" else self.yellow

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        leads = {("red", "yellow"): self.red_lead, ("yellow", "red"): -self.red_lead}
        return leads.get((colour, other), 0.0)

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), self.likeness(colour, windows)


def _frame_lead(templates: Any, colour: str, other: str, *_: Any) -> float:
    # The corners' tint needs a window's pixels; here the choice of colour alone is tested.
    return float(templates.colour_lead(colour, other, []))


@pytest.fixture(autouse=True)
def _templates_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_asterion_cell, "tinted_lead", _frame_lead)


def _read(designs: _Designs, votes: dict[int, int]) -> str:
    """The label read where the corners show `votes` (per cent by frame colour, nearest as voted, the
    rest the table's, nearest the Minotaur's colour, which the cell cannot show), none at TILE_VOTE."""
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    for index, count in votes.items():
        counts[index] = count
    counts[len(FRAME_LABELS)] = 100 - sum(votes.values())
    first, second = sorted(votes, key=lambda index: -votes[index])[:2]
    palettes = cast(Any, type("P", (), {})())
    nearest_as_voted(palettes, votes, FRAME_LABELS.index("minotaur"))
    label, _, _ = read_cell(
        cast(Any, None),
        50.0,
        numpy.zeros((100, 3), numpy.uint8),
        counts,
        (first, votes[first] / 100, second, votes[second] / 100),
        palettes,
        cast(Any, designs),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
    )
    return label


def test_a_doubtful_yellow_is_not_read_red_on_its_frame_alone() -> None:
    # Burnt 20261143 felt f13: yellow 0.33, red 0.23 of the corners; the designs 0.567 and 0.570,
    # red's frame and prisoner leading by 0.05.
    designs = _Designs(0.567, 0.570, 0.05)
    assert _read(designs, {YELLOW: 33, RED: 23}).startswith("yellow:")


def test_a_doubtful_yellow_whose_designs_are_far_likelier_red_is_yellow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its corners vote yellow first: an orange yellow (`_asterion_cell.ORANGE_YELLOW`), none red.
    designs = _Designs(0.55, 0.55 + FAR_LIKELIER + 0.02, 0.0)
    assert _read(designs, {YELLOW: 33, RED: 23}).startswith("yellow:")
    # Without that rule red's far likelier designs decide.
    monkeypatch.setattr(_asterion_cell, "ORANGE_YELLOW", False)
    assert _read(designs, {YELLOW: 33, RED: 23}).startswith("red:")


def test_a_doubtful_red_whose_red_designs_are_far_likelier_still_is_red() -> None:
    # Burnt 20261156 light wood second print f10 (taught on dark wood): yellow 0.38, red 0.38 of the
    # corners, red's designs 0.87 and yellow's 0.44: no orange yellow.
    assert _read(_Designs(0.44, 0.44 + ORANGE_FAR + 0.02, 0.0), {YELLOW: 38, RED: 37}).startswith("red:")
    assert _read(_Designs(0.44, 0.44 + ORANGE_FAR - 0.02, 0.0), {YELLOW: 38, RED: 37}).startswith("yellow:")


def test_a_doubtful_red_is_read_yellow_on_its_frame_and_prisoner() -> None:
    # The lead still decides the other way: red first among the nearest, yellow's frame leading.
    designs = _Designs(0.6, 0.58, -0.05)
    assert _read(designs, {RED: 33, YELLOW: 20}).startswith("yellow:")
