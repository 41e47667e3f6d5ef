"""Minos on what the reference leaves beside the dice: a bright scrap against a die's top, and a large
patch of the tray under changed light with dice in it (one of them in shade). The planes are drawn as in
test_minos_normalised.py: the generator's die faces standing on the neutral background."""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, recogniser_for
from companion.vision.recognisers._minos_dice import DIE_MM, find_dice
from companion.vision.recognisers.minos import SLACK_PX, aligned_symbol, normalised_faces
from tests.vision.test_minos_normalised import SYMBOLS_SHOWN, _hide_far_part, standing_dice


def test_a_die_partly_taken_for_table_and_grown_by_a_bright_scrap_is_read_by_its_symbol() -> None:
    """A die's far part taken for table, and a white scrap (its lit side, a glint) against its top: the top
    found is off its middle, and the symbol, looked for further off, puts it back."""
    recogniser = recogniser_for("minos")
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 5)
    plane = _hide_far_part(plane, tops[3], 0.3)
    x, y = tops[3]
    half = DIE_MM * PLANE_PX_PER_MM / 2
    cv2.rectangle(
        plane, (round(x - 2 * half), round(y - half)), (round(x - half), round(y + half)), (255, 255, 255), -1
    )
    reading = recogniser.read(plane, recogniser.layout({}), None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN


def test_dice_in_a_patch_of_changed_tray_are_all_found() -> None:
    """A patch of the tray the reference no longer matches (a lamp moved) joins the dice in it into one
    blob: the dice are still its bright parts, the one in shade too."""
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 2)
    patch = numpy.zeros(plane.shape[:2], numpy.uint8)
    cv2.circle(patch, (round(tops[0][0]), round(tops[0][1])), round(45 * PLANE_PX_PER_MM), 255, -1)
    neutral = numpy.all(plane == (128, 128, 128), axis=2)
    plane[(patch > 0) & neutral] = (70, 125, 95)
    # The die in shade: its top darker by a quarter.
    x, y = (round(v) for v in tops[1])
    reach = round(DIE_MM * PLANE_PX_PER_MM)
    box = plane[y - reach : y + reach, x - reach : x + reach]
    lit = ~numpy.all(box == (70, 125, 95), axis=2) & ~numpy.all(box == (128, 128, 128), axis=2)
    box[lit] = (box[lit] * 0.75).astype(numpy.uint8)
    found = find_dice(plane)
    assert len(found) == 6
    for die, top in zip(found, tops, strict=True):
        assert numpy.hypot(die.centre_px[0] - top[0], die.centre_px[1] - top[1]) < 3 * PLANE_PX_PER_MM


def test_a_taught_symbol_is_centred_and_turned_as_the_template_it_replaces() -> None:
    """A die's top found a pixel or two off its middle cuts its symbol off-centre with the die's edge in
    it: taught so, that edge matches other dice's edges (second-print Moewe read as Pfeil)."""
    face = normalised_faces()["Pfeil"].astype(numpy.float32)
    side = face.shape[0]
    cut = numpy.full((side + 2 * SLACK_PX, side + 2 * SLACK_PX), 90.0, numpy.float32)
    cut[SLACK_PX + 3 : SLACK_PX + 3 + side, SLACK_PX - 2 : SLACK_PX - 2 + side] = numpy.rot90(face, 1)
    window, score = aligned_symbol(cut, face)
    assert score > 0.99
    assert numpy.abs(window - face).max() < 1.0


def test_a_dim_die_whose_side_touches_a_brighter_die_is_found() -> None:
    """Two dice whose blobs touch (a die's side against the next die's top) are one blob, cut at its
    brightest top's level: a top dimmer by a third (a large dark symbol, further from the lamp) fell short
    of it, went unseen, and every die left of it was read one place too far left."""
    recogniser = recogniser_for("minos")
    # Sides in the shade of their tops, as a lamp above leaves them (half the top's level).
    side = (80, 88, 92)
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 5, side_bgr=side)
    (x0, y0), (x1, y1) = (tuple(round(v) for v in top) for top in tops[3:5])
    # The dim die first, before the band of side joins it to its neighbour.
    reach = round(DIE_MM * PLANE_PX_PER_MM * 0.7)
    box = plane[y0 - reach : y0 + reach, x0 - reach : x0 + reach]
    lit = ~numpy.all(box == (128, 128, 128), axis=2)
    box[lit] = (box[lit] * 0.68).astype(numpy.uint8)
    # The band of side from beyond one top's corners to beyond the other's.
    gap = numpy.hypot(x1 - x0, y1 - y0)
    clear = 0.55 * DIE_MM * PLANE_PX_PER_MM / gap
    ends = [(round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)) for t in (clear, 1 - clear)]
    cv2.line(plane, ends[0], ends[1], side, round(6 * PLANE_PX_PER_MM))
    neutral = numpy.all(plane == (128, 128, 128), axis=2)
    assert cv2.connectedComponents((~neutral).astype(numpy.uint8))[0] == 6  # five blobs and the background
    reading = recogniser.read(plane, recogniser.layout({}), None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN


def test_a_die_joined_by_a_dark_streak_to_a_white_scrap_is_found() -> None:
    """A white scrap the reference left (wider than a die, with an arm) joined by a dark streak to a
    dimmer die whose top is partly taken for table: the blob is cut at the scrap's level, and what is left
    of the scrap keeps the next cut's level above the die. Nothing taken so far was a top seen whole, so
    the rest is cut as a blob of its own until the die is found (it went unseen, and the dice right of it
    were read one place to the left)."""
    recogniser = recogniser_for("minos")
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 5)
    plane = _hide_far_part(plane, tops[3], 0.2)
    x, y = tops[3]
    # The die dimmer than the scrap by a quarter (a travel edition's beige against white).
    reach = round(DIE_MM * PLANE_PX_PER_MM * 0.75)
    box = plane[round(y) - reach : round(y) + reach, round(x) - reach : round(x) + reach]
    lit = ~numpy.all(box == (128, 128, 128), axis=2)
    box[lit] = (box[lit] * 0.75).astype(numpy.uint8)

    def at(dx_mm: float, dy_mm: float) -> tuple[int, int]:
        return round(x + dx_mm * PLANE_PX_PER_MM), round(y + dy_mm * PLANE_PX_PER_MM)

    white, streak = (250, 250, 250), (40, 35, 110)
    cv2.rectangle(plane, at(-14, -46), at(14, -28), white, -1)
    cv2.rectangle(plane, at(-40, -46), at(-14, -40), white, -1)
    cv2.line(plane, at(-4, -28), at(-4, -15), streak, round(8 * PLANE_PX_PER_MM))
    neutral = numpy.all(plane == (128, 128, 128), axis=2)
    assert cv2.connectedComponents((~neutral).astype(numpy.uint8))[0] == 7  # the die joined to the scrap
    reading = recogniser.read(plane, recogniser.layout({}), None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN
