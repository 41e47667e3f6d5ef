"""Minos on normalised planes: dice standing tall (tops displaced, sides in view) on the neutral background
the reference leaves where the empty tray was, a top partly taken for table, and teaching on such planes.

The planes are drawn here from the generator's die faces (the world, not the recogniser's data): sides as
a darker hull from each die's foot to its top, the top scaled and displaced away from the point under the
camera as a pinhole sees a cube's top.
"""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame, Profile, VisionError, recogniser_for
from companion.vision.generate.minos import die_face
from companion.vision.generate.minotaurus import paste
from companion.vision.recognisers._minos_dice import DIE_MM, find_dice
from companion.vision.recognisers.minos import SYMBOLS
from companion.vision.reference import NEUTRAL_BGR

FEET_MM = [(60.0, 50.0), (95.0, 120.0), (130.0, 45.0), (160.0, 130.0), (195.0, 60.0), (225.0, 125.0)]
NADIR_MM = (-60.0, -40.0)
"""The point under the camera, off the plane: a tilted camera's."""
RISE = 18.0 / (300.0 - 18.0)
"""A die's top seen from 300 mm up: displaced and enlarged by this share."""


def _cube_corners(
    centre: tuple[float, float], side: float, angle: float
) -> numpy.typing.NDArray[numpy.float64]:
    return numpy.array(cv2.boxPoints((centre, (side, side), angle)), numpy.float64)


def standing_dice(
    symbols: list[str],
    seed: int,
    *,
    side_bgr: tuple[int, int, int] = (130, 140, 145),
    edition: str = "default",
    symbol_zoom: float = 1.0,
) -> tuple[Frame, list[tuple[float, float]], list[float]]:
    """A normalised plane with the dice standing on it; their tops' centres (px) and turns. `symbol_zoom`:
    the faces' middles drawn this much larger (a symbol reaching nearer the top's edges, as a bold print
    blurred by the lens shows it)."""
    rng = numpy.random.default_rng(seed)
    plane = numpy.full(
        (round(180 * PLANE_PX_PER_MM), round(280 * PLANE_PX_PER_MM), 3), NEUTRAL_BGR, numpy.uint8
    )
    tops, turns = [], []
    for symbol, (x, y) in zip(symbols, FEET_MM, strict=False):
        turn = float(rng.uniform(0, 90))
        foot = numpy.array([x, y]) * PLANE_PX_PER_MM
        top = foot + RISE * (foot - numpy.array(NADIR_MM) * PLANE_PX_PER_MM)
        side = DIE_MM * PLANE_PX_PER_MM
        corners = numpy.vstack(
            [_cube_corners(tuple(foot), side, turn), _cube_corners(tuple(top), side * (1 + RISE), turn)]
        )
        cv2.fillConvexPoly(plane, cv2.convexHull(corners.astype(numpy.float32)).astype(numpy.int32), side_bgr)
        face = die_face(symbol, PLANE_PX_PER_MM * symbol_zoom, edition)
        inset = (face.shape[0] - round(DIE_MM * PLANE_PX_PER_MM)) // 2
        face = face[inset : face.shape[0] - inset, inset : face.shape[1] - inset]
        grown = round(face.shape[0] * (1 + RISE))
        paste(
            plane,
            numpy.asarray(cv2.resize(face, (grown, grown), interpolation=cv2.INTER_AREA), numpy.uint8),
            (top[0], top[1]),
            -turn,
            shadow=False,
        )
        tops.append((float(top[0]), float(top[1])))
        turns.append(turn)
    return plane, tops, turns


SYMBOLS_SHOWN = ["Stern", "Pfeil", "Waage", "Joker", "Moewe", "Gebaeude"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standing_dice_are_read_by_their_tops(seed: int) -> None:
    recogniser = recogniser_for("minos")
    layout = recogniser.layout({})
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, seed)
    found = find_dice(plane)
    assert len(found) == 6
    for die, top in zip(found, tops, strict=True):
        # The top, not the middle of top and sides: within the symbol's matching slack.
        assert numpy.hypot(die.centre_px[0] - top[0], die.centre_px[1] - top[1]) < 1.5 * PLANE_PX_PER_MM
    reading = recogniser.read(plane, layout, None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN


def _hide_far_part(plane: Frame, top: tuple[float, float], share: float) -> Frame:
    """The share of the top away from the camera's nadir taken for table (neutral), as over a cloth of the
    die's colour."""
    out = plane.copy()
    towards = numpy.array(top) - numpy.array(NADIR_MM) * PLANE_PX_PER_MM
    towards /= numpy.linalg.norm(towards)
    ys, xs = numpy.mgrid[0 : plane.shape[0], 0 : plane.shape[1]]
    reach = (xs - top[0]) * towards[0] + (ys - top[1]) * towards[1]
    half = DIE_MM * PLANE_PX_PER_MM / 2
    near = numpy.hypot(xs - top[0], ys - top[1]) < 3 * half
    out[near & (reach > half - 2 * half * share)] = NEUTRAL_BGR
    return out


def test_a_top_partly_taken_for_table_is_still_read() -> None:
    recogniser = recogniser_for("minos")
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 5)
    hidden = _hide_far_part(plane, tops[2], 0.4)
    # The top is placed whole, where it stands, not about the part left of it.
    die = find_dice(hidden)[2]
    assert numpy.hypot(die.centre_px[0] - tops[2][0], die.centre_px[1] - tops[2][1]) < 1.5 * PLANE_PX_PER_MM
    reading = recogniser.read(hidden, recogniser.layout({}), None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN


def test_a_top_open_on_one_side_is_found_whole() -> None:
    """A top against a white sheet the reference took for table: a strip of it beside the sheet is neutral,
    and the symbol's ink, reaching near the top's edges, opens its bright part there into a C that bridging
    does not shut. Opened, the C is a few arms, each too narrow for a top: their hull together is the top
    (the widest arm's alone was refused, and every later die's label shifted)."""
    recogniser = recogniser_for("minos")
    plane, tops, turns = standing_dice(SYMBOLS_SHOWN, 5, symbol_zoom=1.2)
    x, y = tops[5]
    turn = numpy.radians(turns[5] + 225)
    ys, xs = numpy.mgrid[0 : plane.shape[0], 0 : plane.shape[1]]
    reach = (xs - x) * numpy.cos(turn) + (ys - y) * numpy.sin(turn)
    half = DIE_MM * PLANE_PX_PER_MM * (1 + RISE) / 2
    plane[(numpy.hypot(xs - x, ys - y) < 3 * half) & (reach > half / 2)] = NEUTRAL_BGR
    found = find_dice(plane)
    assert len(found) == 6
    assert numpy.hypot(found[5].centre_px[0] - x, found[5].centre_px[1] - y) < 1.5 * PLANE_PX_PER_MM
    reading = recogniser.read(plane, recogniser.layout({}), None)
    assert [reading.items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN


def test_teaching_takes_whole_tops_and_refuses_a_top_partly_taken_for_table() -> None:
    recogniser = recogniser_for("minos")
    layout = recogniser.layout({})
    plane, tops, _ = standing_dice(SYMBOLS_SHOWN, 6)
    profile = recogniser.teach(plane, layout, {"die:0": "Stern"}, Profile("minos"))
    assert set(profile.templates) == {"Stern"}
    # Taught on one plane, it reads another throw of the same dice.
    later, _, _ = standing_dice(SYMBOLS_SHOWN, 7)
    assert [recogniser.read(later, layout, profile).items[f"die:{n}"] for n in range(6)] == SYMBOLS_SHOWN
    with pytest.raises(VisionError, match="not all in view"):
        recogniser.teach(_hide_far_part(plane, tops[1], 0.3), layout, {"die:1": "Pfeil"}, profile)


def test_every_symbol_is_read_in_every_quarter_turn() -> None:
    recogniser = recogniser_for("minos")
    for turn in range(4):
        shown = [SYMBOLS[(n + turn) % len(SYMBOLS)] for n in range(6)]
        plane, _, _ = standing_dice(shown, 10 + turn)
        reading = recogniser.read(plane, recogniser.layout({}), None)
        assert [reading.items[f"die:{n}"] for n in range(6)] == shown
