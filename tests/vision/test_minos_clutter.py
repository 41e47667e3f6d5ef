"""Minos on what else the reference leaves bright: a strip of a die's area beside the dice (a lit edge of
the tray, a scrap of paler cloth), a marker's arm against a die's top, and a die's top whose outline gave
it the wrong turn. The planes are drawn as in test_minos_normalised.py."""

from __future__ import annotations

import dataclasses

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Profile, decode_template, recogniser_for
from companion.vision.recognisers._minos_dice import DIE_MM, find_dice, find_tops, neutral_mask, upright_cut
from companion.vision.recognisers.minos import SLACK_PX, SYMBOL_MM, normalised_faces
from tests.vision.test_minos_normalised import NADIR_MM, SYMBOLS_SHOWN, _hide_far_part, standing_dice

WHITE = (250, 250, 250)


def _read(plane: numpy.typing.NDArray[numpy.uint8]) -> list[str]:
    recogniser = recogniser_for("minos")
    reading = recogniser.read(plane, recogniser.layout({}), None)
    return [reading.items[f"die:{n}"] for n in range(6)]


def test_a_long_bright_strip_of_a_dies_area_is_no_die() -> None:
    """A strip as bright as the tops and of a die's area, but 12 by 32 mm, at the tray's edge:
    it covers half a die's square, so the six dice are the six tops, not five and the strip."""
    plane, _, _ = standing_dice(SYMBOLS_SHOWN, 3)
    x0, y0 = round(262 * PLANE_PX_PER_MM), round(40 * PLANE_PX_PER_MM)
    cv2.rectangle(
        plane, (x0, y0), (x0 + round(12 * PLANE_PX_PER_MM), y0 + round(32 * PLANE_PX_PER_MM)), WHITE, -1
    )
    assert _read(plane) == SYMBOLS_SHOWN


def test_a_top_against_a_markers_arm_is_found_by_itself() -> None:
    """A white arm a little thicker than the trim against a die's top (a corner marker the reference left,
    the die beside it): one bright part, no square; opened again by most of a die's side, the top is
    found where it is."""
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 4)
    x, y = tops[0]
    half = DIE_MM * PLANE_PX_PER_MM / 2
    arm = round(9 * PLANE_PX_PER_MM)
    # An L: one arm from the top's left side outwards, the other down from its end.
    left = round(x - half - 30 * PLANE_PX_PER_MM)
    cv2.rectangle(plane, (left, round(y - arm / 2)), (round(x - half + 2), round(y + arm / 2)), WHITE, -1)
    cv2.rectangle(plane, (left, round(y - arm / 2)), (left + arm, round(y + 30 * PLANE_PX_PER_MM)), WHITE, -1)
    die = find_dice(plane)[0]
    assert numpy.hypot(die.centre_px[0] - x, die.centre_px[1] - y) < 2 * PLANE_PX_PER_MM
    assert _read(plane) == SYMBOLS_SHOWN


@pytest.mark.parametrize("turn", [15.0, -35.0])
def test_a_top_found_turned_and_off_its_middle_is_posed_by_its_symbol(turn: float) -> None:
    """The top's outline turned it (15 or 35 degrees) and put it 3 mm off: no symbol matches it well, and
    looked for turned and moved, the symbol puts the cut back on the top (turned as some quarter turn of
    the symbol matches best: the star's fifth of a turn takes it nearly as well 18 degrees off)."""
    recogniser = recogniser_for("minos")
    templates = recogniser._prepared(None, True)
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 8)
    neutral = neutral_mask(plane)
    grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
    seen = (~neutral).astype(numpy.uint8)
    found = find_dice(plane, neutral)
    assert len(found) == 6 and set(normalised_faces()) >= set(SYMBOLS_SHOWN)
    for n, die in enumerate(found):
        wrong = dataclasses.replace(
            die,
            centre_px=(die.centre_px[0] + 3 * PLANE_PX_PER_MM, die.centre_px[1]),
            angle_deg=die.angle_deg + turn,
        )
        posed = templates.posed(grey, seen, wrong)
        assert (
            numpy.hypot(posed.centre_px[0] - tops[n][0], posed.centre_px[1] - tops[n][1])
            < 1.5 * PLANE_PX_PER_MM
        )
        shown = upright_cut(seen, posed, SYMBOL_MM, SLACK_PX, beyond=0) > 0
        symbol, _, score = templates.matched(upright_cut(grey, posed, SYMBOL_MM, SLACK_PX), shown)
        assert symbol == SYMBOLS_SHOWN[n] and score > 0.8


def test_a_bright_square_scrap_without_a_symbol_is_no_die() -> None:
    """A scrap as square, bright and large as a top (a patch of pale cloth the reference left beyond the
    tray) is a seventh top by its shape: it bears no symbol, so the six that do are the dice."""
    plane, _, _ = standing_dice(SYMBOLS_SHOWN, 5)
    side = round(DIE_MM * PLANE_PX_PER_MM * 1.05)
    x0, y0 = round(10 * PLANE_PX_PER_MM), round(140 * PLANE_PX_PER_MM)
    cv2.rectangle(plane, (x0, y0), (x0 + side, y0 + side), (235, 238, 240), -1)
    assert len(find_tops(plane)) > 6
    assert _read(plane) == SYMBOLS_SHOWN


def test_teaching_takes_the_dice_that_read_finds_beside_a_bright_square_scrap() -> None:
    """Taught on a plane with such a scrap left of the dice, die:0 is the leftmost die, not the scrap:
    the template taught is that die's symbol."""
    recogniser = recogniser_for("minos")
    plane, _, _ = standing_dice(SYMBOLS_SHOWN, 5)
    side = round(DIE_MM * PLANE_PX_PER_MM * 1.05)
    x0, y0 = round(10 * PLANE_PX_PER_MM), round(140 * PLANE_PX_PER_MM)
    cv2.rectangle(plane, (x0, y0), (x0 + side, y0 + side), (235, 238, 240), -1)
    profile = recogniser.teach(plane, recogniser.layout({}), {"die:0": SYMBOLS_SHOWN[0]}, Profile("minos"))
    taught = decode_template(profile.templates[SYMBOLS_SHOWN[0]]).astype(numpy.float32)
    face = normalised_faces()[SYMBOLS_SHOWN[0]].astype(numpy.float32)
    assert float(numpy.corrcoef(taught.ravel(), face.ravel())[0, 1]) > 0.8


def test_a_top_partly_taken_for_table_with_a_thin_arm_against_it_is_read() -> None:
    """A die over a cloth of its colour, half its top taken for table, and a marker's thin arm the
    reference left against what is left of it (across the way the top was cut): the arm is no part of
    the top, which is still placed whole and read."""
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 5)
    plane = _hide_far_part(plane, tops[2], 0.5)
    top = numpy.array(tops[2])
    half = DIE_MM * PLANE_PX_PER_MM / 2
    towards = top - numpy.array(NADIR_MM) * PLANE_PX_PER_MM
    towards /= numpy.linalg.norm(towards)
    across = numpy.array([-towards[1], towards[0]])
    start = top - towards * half / 2 + across * half
    end = start + across * 2.5 * half
    cv2.line(
        plane,
        tuple(start.round().astype(int)),
        tuple(end.round().astype(int)),
        WHITE,
        round(2.5 * PLANE_PX_PER_MM),
    )
    die = find_dice(plane)[2]
    assert numpy.hypot(die.centre_px[0] - top[0], die.centre_px[1] - top[1]) < 2 * PLANE_PX_PER_MM
    assert _read(plane) == SYMBOLS_SHOWN
