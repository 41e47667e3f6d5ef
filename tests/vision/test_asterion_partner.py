"""Asterion: yellow against green is compared where the corners' runner-up is another colour (a light
wood's red), as the runner-up would be (`_asterion_colour_rules._PARTNERS`); and where green is nowhere
among them, under a warm light patch (`_asterion_colour_rules.WARM_LEAD`, tried where the corners are no
yellower than WARM_B), or green's designs far likelier (`GREENER_DESIGNS`); and red against a yellow
runner-up by their designs (`YELLOWER_DESIGNS`)."""

from __future__ import annotations

from typing import Any, cast

import numpy
import pytest

from companion.vision.recognisers import _asterion_cell
from companion.vision.recognisers._asterion_cell import HALF_FRAMED, read_cell
from companion.vision.recognisers._asterion_colour_rules import (
    GREENER_DESIGNS,
    RIVAL_LEAD,
    RIVAL_SHARE,
    WARM_B,
    WARM_L,
    WARM_LEAD,
    YELLOW_BESIDE_RED,
    YELLOWER_DESIGNS,
)
from companion.vision.recognisers._asterion_profile import FRAME_LABELS
from companion.vision.recognisers._lab import bgr_to_lab

YELLOW, GREEN, RED, BLUE = (FRAME_LABELS.index(colour) for colour in ("yellow", "green", "red", "blue"))
WARM_GREEN = (80, 130, 150)
"""A second print's green frame under a warm light on dark wood: olive-orange, CIELAB L 141, b 158."""
BRIGHT_YELLOW = (20, 200, 230)
"""A yellow frame: L 206, b 208."""


class _Designs:
    """Templates as read_cell asks them: every colour's designs alike (yellow's `yellow_likeness`),
    green's frame and prisoner leading yellow's by `green_lead`."""

    def __init__(self, green_lead: float, yellow_likeness: float) -> None:
        self.green_lead = green_lead
        self.yellow_likeness = yellow_likeness

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        if {colour, other} != {"green", "yellow"}:
            return 0.0
        return self.green_lead if colour == "green" else -self.green_lead

    def likeness(self, colour: str, windows: list[Any]) -> float:
        return self.yellow_likeness if colour == "yellow" else 0.7

    def lined_up(self, colour: str, windows: list[Any]) -> tuple[None, tuple[int, int]]:
        return None, (0, 0)

    def match(self, colour: str, windows: list[Any]) -> tuple[int, int, float, tuple[int, int], float]:
        return 0, 0, 0.2, (0, 0), 0.7


@pytest.fixture(autouse=True)
def _templates_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # The corners' tint needs a window's pixels; here the vote's handling alone is tested.
    monkeypatch.setattr(
        _asterion_cell,
        "tinted_lead",
        lambda templates, colour, other, windows, corners, palettes: templates.colour_lead(
            colour, other, windows
        ),
    )


def nearest_as_voted(palettes: Any, votes: dict[int, int], rest: int) -> None:
    """Give `palettes` the frame colours' palette of a doubtful cell whose corners are nearest each frame
    colour as voted (per cent by index), the rest nearest `rest`; the path's nearest is yellow."""
    labels = numpy.concatenate([numpy.full(count, index) for index, count in votes.items()])
    labels = numpy.concatenate([labels, numpy.full(100 - labels.size, rest)])
    palettes.frames = type("F", (), {"classify_bgr": staticmethod(lambda pixels: labels)})()
    palettes.frames_map = numpy.arange(len(FRAME_LABELS))
    palettes.path_like = YELLOW


def _read(
    votes: dict[int, int],
    green_lead: float,
    doubtful_path: int = 0,
    yellow_likeness: float = 0.7,
    corner_bgr: tuple[int, int, int] = (0, 0, 0),
) -> str:
    """The colour read where the corners show `votes` (per cent, by frame colour index), their pixels
    `corner_bgr`."""
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    for index, count in votes.items():
        counts[index] = count
    counts[-1] = doubtful_path
    first, second = sorted(votes, key=lambda index: -votes[index])[:2]
    corners = numpy.full((100, 3), corner_bgr, numpy.uint8)
    # Every corner pixel of a frame colour (yellow's prototype), for the warm-green gate (`WARM_B`).
    palettes = cast(Any, type("P", (), {})())
    palettes.every = type(
        "E", (), {"classify_bgr": staticmethod(lambda pixels: numpy.zeros(len(pixels), int))}
    )()
    palettes.every_map = numpy.array([YELLOW])
    if doubtful_path:
        # Path pixels counted for yellow (the path's nearest).
        nearest_as_voted(palettes, votes, YELLOW)
    label, _, _ = read_cell(
        cast(Any, None),
        50.0,
        corners,
        counts,
        (first, votes[first] / 100, second, votes[second] / 100),
        cast(Any, palettes),
        cast(Any, _Designs(green_lead, yellow_likeness)),
        numpy.array([label != "minotaur" for label in FRAME_LABELS]),
        cast(Any, None),
    )
    return label.split(":")[0]


def test_green_beyond_a_red_runner_up_is_compared() -> None:
    # Burnt 20261141 light wood: yellow 0.55, red 0.12, green 0.10 of the corners; green led by 0.45.
    assert _read({YELLOW: 55, RED: 12, GREEN: 10}, green_lead=RIVAL_LEAD + 0.15) == "green"
    assert _read({YELLOW: 55, RED: 12, GREEN: 10}, green_lead=0.1) == "yellow"


def test_green_at_too_few_corners_is_not() -> None:
    assert _read({YELLOW: 55, RED: 12, GREEN: 4}, green_lead=RIVAL_LEAD + 0.15) == "yellow"


def test_a_doubtful_cell_compares_green_beyond_red() -> None:
    # Frame 3: yellow 0.36 with the path's glare, red before green among the nearest.
    assert _read({YELLOW: 36, RED: 22, GREEN: 18}, green_lead=RIVAL_LEAD + 0.15, doubtful_path=24) == "green"
    assert _read({YELLOW: 36, RED: 22, GREEN: 18}, green_lead=0.1, doubtful_path=24) == "yellow"


def test_a_doubtful_cell_whose_designs_are_yellows_stays_yellow() -> None:
    # Dev 7 dark wood: a yellow led green by 0.44, its designs likelier yellow's (0.69 against 0.65).
    votes = {YELLOW: 36, RED: 22, GREEN: 18}
    assert _read(votes, green_lead=RIVAL_LEAD + 0.15, doubtful_path=24, yellow_likeness=0.72) == "yellow"


def test_the_frames_are_either_side_of_the_warm_gate() -> None:
    assert bgr_to_lab(WARM_GREEN)[2] <= WARM_B < bgr_to_lab(BRIGHT_YELLOW)[2]
    assert bgr_to_lab(WARM_GREEN)[0] <= WARM_L < bgr_to_lab(BRIGHT_YELLOW)[0]


def test_a_warm_green_voted_wholly_yellow_reads_green_when_it_leads_far() -> None:
    # Burnt 20261142 dark wood frame 3: corners all yellow (b 164-168), green leading by 0.95-1.25.
    assert _read({YELLOW: 100, BLUE: 0}, green_lead=WARM_LEAD + 0.1, corner_bgr=WARM_GREEN) == "green"
    assert _read({YELLOW: 98, GREEN: 2}, green_lead=WARM_LEAD + 0.1, corner_bgr=WARM_GREEN) == "green"


def test_a_warm_lead_short_of_warm_lead_stays_yellow() -> None:
    # Dev and burnt yellows under WARM_B led green by 0.67 at most.
    assert _read({YELLOW: 100, BLUE: 0}, green_lead=WARM_LEAD - 0.15, corner_bgr=WARM_GREEN) == "yellow"


def test_a_yellow_frame_is_not_asked() -> None:
    assert _read({YELLOW: 100, BLUE: 0}, green_lead=WARM_LEAD + 0.5, corner_bgr=BRIGHT_YELLOW) == "yellow"


def test_corners_split_with_another_colour_are_not_asked() -> None:
    assert _read({YELLOW: 60, BLUE: 40}, green_lead=WARM_LEAD + 0.5, corner_bgr=WARM_GREEN) == "yellow"


def test_a_warm_green_split_with_the_table_reads_green_when_its_designs_are_likelier() -> None:
    # Burnt 20261143 light wood frame 7: yellow 0.54, the wood's red 0.23, no green; green led by 0.70
    # (short of WARM_LEAD), its designs likelier by 0.16.
    votes = {YELLOW: 54, RED: 23}
    greener = 0.7 - GREENER_DESIGNS - 0.03
    lead = (RIVAL_LEAD + WARM_LEAD) / 2
    assert _read(votes, green_lead=lead, yellow_likeness=greener, corner_bgr=WARM_GREEN) == "green"
    assert _read(votes, green_lead=lead, yellow_likeness=greener + 0.06, corner_bgr=WARM_GREEN) == "yellow"
    assert (
        _read(votes, green_lead=RIVAL_LEAD - 0.1, yellow_likeness=greener, corner_bgr=WARM_GREEN) == "yellow"
    )
    # Bright corners are asked only where they show yellow under HALF_FRAMED: burnt 20261151 light wood
    # frame 9, a green at 0.5 yellow (no green, L 158) whose designs were likelier green by 0.09.
    assert _read(votes, green_lead=lead, yellow_likeness=greener, corner_bgr=BRIGHT_YELLOW) == "green"
    framed = {YELLOW: round(HALF_FRAMED * 100), RED: 23}
    assert _read(framed, green_lead=lead, yellow_likeness=greener, corner_bgr=BRIGHT_YELLOW) == "yellow"
    assert _read(framed, green_lead=lead, yellow_likeness=greener, corner_bgr=WARM_GREEN) == "green"


def test_red_with_a_yellow_runner_up_reads_yellow_when_its_designs_are_likelier() -> None:
    # Burnt 20261143 gingham frame 8: red 0.61, yellow 0.28, yellow's designs likelier by 0.09 (red's
    # designs are 0.7 here).
    votes = {RED: 61, YELLOW: 28}
    assert _read(votes, green_lead=0.0, yellow_likeness=0.7 + YELLOWER_DESIGNS + 0.02) == "yellow"
    assert _read(votes, green_lead=0.0, yellow_likeness=0.7 + YELLOWER_DESIGNS - 0.02) == "red"


def test_yellow_too_seldom_beside_red_is_not_asked() -> None:
    few = int(YELLOW_BESIDE_RED * 95)
    assert few / 100 < YELLOW_BESIDE_RED * 0.95
    assert _read({RED: 95, YELLOW: few}, green_lead=0.0, yellow_likeness=0.8) == "red"


def test_yellow_at_a_twentieth_of_reds_corners_is_asked() -> None:
    # Burnt 20261156 felt second print f10: red 0.95, yellow 0.05 (under RIVAL_SHARE of red's), yellow's
    # designs 0.59 and red's 0.46 (0.7 here).
    assert RIVAL_SHARE * 0.95 > 0.05
    assert _read({RED: 95, YELLOW: 5}, green_lead=0.0, yellow_likeness=0.83) == "yellow"
    assert _read({RED: 95, YELLOW: 5}, green_lead=0.0, yellow_likeness=0.68) == "red"
