"""Asterion: yellow against green is told by the frame and prisoner (with the corners' tint) wherever the
two colours' designs are about as likely: a doubtful cell whose corners lie nearest neither's partner
(`_asterion_colour_rules._PARTNERS`), and a cell read in a far likelier colour than its vote
(`FAR_COLOUR`)."""

from __future__ import annotations

from typing import Any, cast

import numpy

from companion.vision.recognisers._asterion_cell import FAR_LIKELIER, read_cell
from companion.vision.recognisers._asterion_colour_rules import RIVAL_LEAD
from companion.vision.recognisers._asterion_profile import FRAME_LABELS

from .test_asterion_unseen_partner import _Designs as _Likenesses

# The corners' tint set aside, as there (an autouse fixture: imported, it serves this module too).
from .test_asterion_unseen_partner import (
    doubtful_read,
    templates_alone,  # noqa: F401
)

YELLOW, BLUE, RED, GREEN = (FRAME_LABELS.index(colour) for colour in ("yellow", "blue", "red", "green"))
FRAMES_HERE = numpy.array([label != "minotaur" for label in FRAME_LABELS])


class _Designs(_Likenesses):
    """Templates as read_cell asks them (`test_asterion_unseen_partner._Designs`), yellow's frame and
    prisoner leading green's by `yellow_lead` (green's leading yellow's by its negation)."""

    def __init__(self, likeness: dict[str, float], yellow_lead: float) -> None:
        super().__init__(likeness)
        self.yellow_lead = yellow_lead

    def colour_lead(self, colour: str, other: str, windows: list[Any]) -> float:
        if {colour, other} == {"yellow", "green"}:
            return self.yellow_lead if colour == "yellow" else -self.yellow_lead
        return 0.0


def _doubtful(designs: _Designs) -> str:
    """The label read where the corners (burnt 20261148 light wood second print f13: yellow at 0.25, the
    rest the wood and the path) lie nearest yellow and red, none nearest green."""
    return doubtful_read(designs, {YELLOW: 25, -1: 71}, 60, (YELLOW, 0.25, BLUE, 0.0))


def test_a_doubtful_green_nearest_no_corner_is_read_green_by_its_frame() -> None:
    # f13: green's designs 0.82, yellow's 0.75 (short of FAR_LIKELIER), green's frame by 0.8.
    likeness = {"yellow": 0.75, "green": 0.75 + FAR_LIKELIER - 0.025, "red": 0.27}
    assert _doubtful(_Designs(likeness, -0.8)).startswith("green:")
    # As likely, but its frame and prisoner no green's: yellow.
    assert _doubtful(_Designs(likeness, -RIVAL_LEAD + 0.05)).startswith("yellow:")


def test_a_doubtful_yellow_stays_yellow_when_green_is_less_like() -> None:
    assert _doubtful(_Designs({"yellow": 0.75, "green": 0.7, "red": 0.27}, -0.8)).startswith("yellow:")


def _far(designs: _Designs, yellow: int = 13, green: int = 0) -> str:
    """The label read where the corners (burnt 20261148 felt second print f12) voted blue at 0.42 and
    yellow at 0.13 (or as given), blue's designs unlike the cell (0.2)."""
    counts = numpy.zeros(len(FRAME_LABELS) + 3, numpy.intp)
    counts[BLUE], counts[YELLOW], counts[GREEN] = 42, yellow, green
    counts[-1] = 100 - counts.sum()
    runner_up = YELLOW if yellow >= green else GREEN
    label, _, _ = read_cell(
        cast(Any, None),
        53.0,
        numpy.zeros((100, 3), numpy.uint8),
        counts,
        (BLUE, 0.42, runner_up, max(yellow, green) / 100),
        cast(Any, None),
        cast(Any, designs),
        FRAMES_HERE,
        cast(Any, None),
    )
    return label


def test_far_colour_between_yellow_and_green_goes_by_the_corners_and_the_frame() -> None:
    # f12: green's designs 0.61, yellow's 0.58; yellow at 0.13 of the corners, green at none; its frame
    # and prisoner with the tint yellow's by 0.13.
    likeness = {"blue": 0.2, "green": 0.61, "yellow": 0.58, "red": 0.35}
    assert _far(_Designs(likeness, 0.13)).startswith("yellow:")
    # The frame green's: the likeliest stands.
    assert _far(_Designs(likeness, -0.13)).startswith("green:")


def test_far_colour_keeps_the_likeliest_when_fewer_corners_show_its_partner() -> None:
    # Burnt 20261146 light wood f4: a green voted red, green at 0.12 of its corners and yellow at 0.06,
    # green's designs 0.81, yellow's 0.76, the wood's orange leaning the tint yellow.
    likeness = {"blue": 0.2, "green": 0.81, "yellow": 0.76, "red": 0.3}
    assert _far(_Designs(likeness, 0.5), yellow=6, green=12).startswith("green:")
    likeness = {"blue": 0.2, "green": 0.58, "yellow": 0.61, "red": 0.35}
    assert _far(_Designs(likeness, -0.13)).startswith("yellow:")


def test_far_colour_keeps_the_likeliest_when_its_partner_is_not_like_enough() -> None:
    # Yellow's designs short of what a far colour must show (FAR_COLOUR over blue's): green though
    # its frame leans yellow and more corners show yellow.
    likeness = {"blue": 0.2, "green": 0.61, "yellow": 0.38, "red": 0.35}
    assert _far(_Designs(likeness, 0.5)).startswith("green:")
