"""Asterion: a doubtful cell nearest yellow first is read green when green's designs are far likelier
(`_asterion_cell.FAR_LIKELIER`), though none of its corners lies nearest green (`_PARTNERS`): a second
print's green under a warm lamp on a light wood the reference left orange (burnt 20261146)."""

from __future__ import annotations

from typing import Any, cast

import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import FAR_LIKELIER, read_cell
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

from .test_asterion_partner import nearest_as_voted

YELLOW, RED, GREEN = (FRAME_LABELS.index(colour) for colour in ("yellow", "red", "green"))


class _Designs:
    """Templates as read_cell asks them: each colour's designs correlate as given (0.3 when not);
    no colour's frame and prisoner leads another's."""

    def __init__(self, likeness: dict[str, float]) -> None:
        self.likenesses = likeness
        self.asked: list[str] = []

    def likeness(self, colour: str, windows: list[Any]) -> float:
        self.asked.append(colour)
        return self.likenesses.get(colour, 0.3)

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        return 0.0

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), self.likeness(colour, windows)


@pytest.fixture(autouse=True)
def templates_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # The corners' tint needs a window's pixels; here the choice of colour alone is tested.
    monkeypatch.setattr(
        _asterion_cell,
        "tinted_lead",
        lambda templates, colour, other, *_: templates.colour_lead(colour, other, []),
    )


def doubtful_read(
    designs: Any, counts: dict[int, int], nearest_yellow: int, voted: tuple[int, float, int, float]
) -> str:
    """The label read of a doubtful cell whose corners show `counts` (by label index, negative from the
    end: -1 the path), `nearest_yellow` per cent of them nearest yellow (the path's pixels count for
    yellow too, the path's nearest) and the rest red, none green; `voted` as `read_cell` takes it."""
    shown = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    for index, count in counts.items():
        shown[index] = count
    palettes = cast(Any, type("P", (), {})())
    nearest_as_voted(palettes, {YELLOW: nearest_yellow}, RED)
    label, _, _ = read_cell(
        cast(Any, None),
        50.0,
        numpy.zeros((100, 3), numpy.uint8),
        shown,
        voted,
        palettes,
        cast(Any, designs),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
    )
    return label


def _read(designs: _Designs) -> str:
    """The label read where the corners (burnt 20261146 light wood f2) are nearest yellow (the path's
    glare with the frame) and red (the wood), none nearest green, and none at TILE_VOTE."""
    # The rest the stone's.
    return doubtful_read(designs, {YELLOW: 2, RED: 20, -1: 49}, 44, (RED, 0.20, YELLOW, 0.02))


def test_green_nearest_no_corner_is_read_when_its_designs_are_far_likelier() -> None:
    # f2: yellow's designs 0.58, green's 0.75, red's 0.33.
    designs = _Designs({"yellow": 0.58, "green": 0.58 + FAR_LIKELIER + 0.07, "red": 0.33})
    assert _read(designs).startswith("green:")


def test_green_only_a_little_likelier_stays_yellow() -> None:
    # Yellow tiles so placed were at most 0.054 likelier green.
    designs = _Designs({"yellow": 0.6, "green": 0.6 + FAR_LIKELIER - 0.04, "red": 0.33})
    assert _read(designs).startswith("yellow:")
    assert "green" in designs.asked
