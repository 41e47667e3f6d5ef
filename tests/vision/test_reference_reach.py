"""An arm of the board's very colour (a skin tone as the toss's collar plate): unseen where it comes in
over the board, seen crossing the table around it and at its hand further in (`Surround.reaching`)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame
from companion.vision.calibration import marker_corners_mm
from companion.vision.reference import TableReference
from tests.vision.test_reference import (
    BORDER_PX,
    IDENTITY_SHIFTED,
    PLANE_MM,
    SKINS_BGR,
    layout,
    table,
)

REACH_PX = round(60.0 * PLANE_PX_PER_MM)
"""How far the arm comes in over the board unseen (the toss's collar plate: 40-55 mm)."""


def board(colour: tuple[int, int, int], rng: numpy.random.Generator) -> tuple[Frame, Frame]:
    """A plain board of `colour` filling the plane but for the markers' paper, on dark wood: the
    camera frame and the plane."""
    plane = table("dark-wood", rng)
    noise = rng.normal(0.0, 2.0, plane.shape)
    paper = numpy.clip(numpy.array(colour, numpy.float32) + noise, 0, 255).astype(numpy.uint8)
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    for corners in marker_corners_mm(PLANE_MM).values():
        x0, y0 = (round(float(v) * PLANE_PX_PER_MM) for v in corners[0])
        box = (slice(max(0, y0 - 8), y0 + side + 8), slice(max(0, x0 - 8), x0 + side + 8))
        paper[box] = plane[box]
    frame = numpy.asarray(cv2.copyMakeBorder(plane, *(BORDER_PX,) * 4, cv2.BORDER_REFLECT), numpy.uint8)
    frame[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX] = paper
    return frame, paper


def unseen_over_the_rim(frame: Frame, shot: Frame, edge: str) -> Frame:
    """`shot` with the board's rim along `edge` (`REACH_PX` deep) as in `frame`: whatever lies there
    is of the board's colour, its shading and shadow lost in the board's."""
    rim = {
        "left": (slice(None), slice(BORDER_PX, BORDER_PX + REACH_PX)),
        "right": (slice(None), slice(-BORDER_PX - REACH_PX, -BORDER_PX)),
        "top": (slice(BORDER_PX, BORDER_PX + REACH_PX), slice(None)),
        "bottom": (slice(-BORDER_PX - REACH_PX, -BORDER_PX), slice(None)),
    }[edge]
    out = shot.copy()
    out[rim] = frame[rim]
    return out


def centred_arm(frame: Frame, edge: str, colour: tuple[int, int, int]) -> Frame:
    """An arm from beyond `edge` to a hand over the plane's middle, as `with_arm` draws one (a rounded
    limb lit from above, its shadow to one side), a palm 90 px (45 mm) wide."""
    height, width = frame.shape[:2]
    start = {"left": (0, height // 2 - 30), "right": (width, height // 2 + 30)}.get(edge)
    start = start or {"top": (width // 2 - 60, 0), "bottom": (width // 2 + 60, height)}[edge]
    limb = numpy.zeros((height, width), numpy.uint8)
    cv2.line(limb, start, (width // 2, height // 2), 255, 90)
    cv2.circle(limb, (width // 2, height // 2), 63, 255, -1)
    inside = cv2.distanceTransform(limb, cv2.DIST_L2, 5)
    shading = 0.6 + 0.4 * numpy.clip(inside / 45.0, 0.0, 1.0) ** 0.5
    offset = numpy.float32([[1, 0, 24], [0, 1, 16]])
    shadow = cv2.GaussianBlur(
        cv2.warpAffine(limb.astype(numpy.float32) / 255, offset, (width, height)), (0, 0), 6
    )
    out = frame.astype(numpy.float32) * (1.0 - 0.45 * shadow)[..., None]
    out = numpy.where(limb[..., None] > 0, numpy.array(colour, numpy.float32) * shading[..., None], out)
    return numpy.asarray(cv2.GaussianBlur(numpy.clip(out, 0, 255), (0, 0), 1.0), numpy.uint8)


def learned(frame: Frame, plane: Frame) -> TableReference:
    reference = TableReference(layout())
    reference.learn([plane], [TableReference.surround_of(layout(), frame, IDENTITY_SHIFTED)])
    return reference


def hand(reference: TableReference, shot: Frame) -> bool:
    inner = shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX]
    return reference.look(inner, TableReference.surround_of(layout(), shot, IDENTITY_SHIFTED)).hand


@pytest.mark.parametrize("skin", range(len(SKINS_BGR)))
def test_an_arm_of_the_boards_colour_is_a_hand(skin: int) -> None:
    frame, plane = board(SKINS_BGR[skin], numpy.random.default_rng(30 + skin))
    reference = learned(frame, plane)
    assert not hand(reference, frame)
    for edge in ("left", "right", "top", "bottom"):
        shot = unseen_over_the_rim(frame, centred_arm(frame, edge, SKINS_BGR[skin]), edge)
        assert hand(reference, shot), edge


def test_rings_by_the_edge_and_across_the_band_are_no_hand() -> None:
    # The toss's rings (66 mm across, a 4 mm cord) at rest: one across the table around the board up to
    # its edge, others on the board within an arm's reach of that edge, even side by side.
    rng = numpy.random.default_rng(40)
    frame, plane = board(SKINS_BGR[1], rng)
    reference = learned(frame, plane)
    height = frame.shape[0]
    near = BORDER_PX + 66 + 20  # a ring's centre 20 mm in from the edge
    for inside in ((near, height // 2), (near + 40, height // 2 + 70), (near, height // 2 - 70)):
        shot = frame.copy()
        cv2.circle(shot, (BORDER_PX - 70, height // 2), 66, (40, 40, 200), 8)
        cv2.circle(shot, inside, 66, (200, 80, 40), 8)
        cv2.circle(shot, (inside[0] + 140, inside[1]), 66, (40, 160, 40), 8)
        assert not hand(reference, shot), inside


def test_no_arm_reaches_a_hand_that_the_planes_changes_do_not_offer() -> None:
    # As `crossing` with `HandCheck.may_come_in`: the band is compared only when the plane's changes may
    # take part in a reach; wherever the reference says they cannot, even a band changed all over reaches
    # nothing.
    frame, plane = board(SKINS_BGR[1], numpy.random.default_rng(50))
    reference = learned(frame, plane)
    surround = reference._surround
    height, width = reference.size[1], reference.size[0]
    m = surround.margin
    everything = numpy.ones((surround.size[1], surround.size[0]), bool)
    everything[m:-m, m:-m] = False
    rng = numpy.random.default_rng(51)
    outcomes = set()
    for trial in range(60):
        joined = numpy.zeros((height, width), numpy.uint8)
        for _ in range(rng.integers(1, 4)):
            x, y = int(rng.integers(2, width - 10)), int(rng.integers(2, height - 10))
            w, h = int(rng.integers(5, 70)), int(rng.integers(5, 70))
            joined[y : y + h, x : x + w] = 1
        joined[:2, :] = joined[-2:, :] = joined[:, :2] = joined[:, -2:] = 0  # nothing comes to the edge
        may = reference._hands.may_come_in(joined)
        reached = surround.reaching(
            everything, joined, reference.settings.hand_min_edge_mm, reference._hands.reachable
        )
        assert may or not reached, trial
        outcomes.add((may, reached))
    assert (True, True) in outcomes and (False, False) in outcomes  # both kinds of changes were drawn
