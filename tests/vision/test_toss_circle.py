"""The toss recogniser's circle test on normalised planes drawn by hand: a broad blob round the horn (a
leaner seen with its shadow on a plate of its shade) is no ring, for it fills the ring's hole too; a
ring with its shadow beside it and a stretch hidden by the horn still is one."""

from __future__ import annotations

import math

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.recognisers import _toss_circle, toss
from companion.vision.recognisers.toss import TossRecogniser, toss_layout
from companion.vision.reference import NEUTRAL_BGR

ROPE_BGR = (40, 40, 190)
SHADE_BGR = (45, 45, 48)


def _px(point_mm: tuple[float, float]) -> tuple[int, int]:
    return round(point_mm[0] * PLANE_PX_PER_MM), round(point_mm[1] * PLANE_PX_PER_MM)


def _normalised_plane() -> numpy.ndarray:
    """An empty normalised plane: everything the empty figure showed is the reference's neutral grey."""
    width, height = toss_layout().plane_size_px()
    return numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)


def _ring_arc(
    plane: numpy.ndarray, centre_mm: tuple[float, float], gap_deg: float, gap_at_deg: float
) -> None:
    """A ring lying on the plate (70 mm across, a 5 mm cord), with the stretch the horn hides missing."""
    start = gap_at_deg + gap_deg / 2
    cv2.ellipse(
        plane,
        _px(centre_mm),
        (round(32.5 * PLANE_PX_PER_MM), round(32.5 * PLANE_PX_PER_MM)),
        0.0,
        start,
        start + 360.0 - gap_deg,
        ROPE_BGR,
        round(5 * PLANE_PX_PER_MM),
    )


def _read(plane: numpy.ndarray) -> dict[str, str]:
    return TossRecogniser().read(plane, toss_layout(), None).items


def test_a_ring_with_its_shadow_beside_it_and_a_stretch_hidden_is_a_ring() -> None:
    """The hole test must leave a real ring alone: its own shadow lies just beside the rope (a few mm,
    on the plate's shade), and the horn takes a stretch of it away with itself (here 60 degrees)."""
    layout = toss_layout()
    plane = _normalised_plane()
    left = layout.items["horn:left"].centre_mm
    right = layout.items["horn:right"].centre_mm
    ring = (left[0] + 6.0, left[1] - 4.0)
    cv2.circle(plane, _px((ring[0] - 4.0, ring[1] + 3.0)), round(32.5 * PLANE_PX_PER_MM), SHADE_BGR, 10)
    _ring_arc(plane, ring, 60.0, 200.0)
    _ring_arc(plane, (right[0] - 5.0, right[1] + 7.0), 0.0, 0.0)
    assert _read(plane) == {"horn:left": "ring", "horn:right": "ring"}


def test_a_broad_blob_round_the_horn_is_no_ring() -> None:
    """A ring leaning on the horn seen together with its shadow, on a plate of the rope's shade, covers
    the circle where a ring would lie but also the ring's hole: no rope is that broad."""
    layout = toss_layout()
    plane = _normalised_plane()
    left = layout.items["horn:left"].centre_mm
    right = layout.items["horn:right"].centre_mm
    blob = (left[0] + 4.0, left[1] + 3.0)
    cv2.ellipse(
        plane,
        _px(blob),
        (round(38 * PLANE_PX_PER_MM), round(34 * PLANE_PX_PER_MM)),
        20.0,
        0,
        360,
        SHADE_BGR,
        -1,
    )
    # The horn is the reference's (neutral), and so is a patch of plate the shadow leaves lit.
    cv2.circle(plane, _px(left), round(12 * PLANE_PX_PER_MM), NEUTRAL_BGR, -1)
    _ring_arc(plane, (right[0] + 3.0, right[1] - 3.0), 0.0, 0.0)
    assert _read(plane) == {"horn:left": "clear", "horn:right": "ring"}


def test_a_ring_lying_beside_the_horn_is_no_ring() -> None:
    """A whole ring whose hole the horn is not in (lying 45 mm off its axis) fills no circle centred
    where a ring round the horn can lie."""
    layout = toss_layout()
    plane = _normalised_plane()
    left = layout.items["horn:left"].centre_mm
    angle = math.radians(30.0)
    _ring_arc(plane, (left[0] + 45.0 * math.cos(angle), left[1] + 45.0 * math.sin(angle)), 0.0, 0.0)
    assert _read(plane)["horn:left"] == "clear"


def test_a_ring_drawn_out_round_the_horn_is_no_ring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ring standing up against the horn can fill the circle where a ring round it would lie (its
    tilt and the parallax of its raised side make an ellipse round the base, 35 by 31 mm here, a stretch
    hidden), but a ring lying on the plate is a circle: the drawn-out one is no ring, the round one
    beside it is. With `ROUND_ASPECT` out of reach, or the drawn-out one whole (`FULL_CIRCLE`), both
    read ring."""
    layout = toss_layout()
    left = layout.items["horn:left"].centre_mm
    right = layout.items["horn:right"].centre_mm

    def plane(hidden_deg: float) -> numpy.ndarray:
        drawn = _normalised_plane()
        cv2.ellipse(
            drawn,
            _px((left[0] + 3.0, left[1] - 2.0)),
            (round(35.0 * PLANE_PX_PER_MM), round(31.0 * PLANE_PX_PER_MM)),
            25.0,
            hidden_deg,
            360,
            ROPE_BGR,
            round(5 * PLANE_PX_PER_MM),
        )
        _ring_arc(drawn, (right[0] - 4.0, right[1] + 3.0), 40.0, 250.0)
        return drawn

    assert _read(plane(50.0)) == {"horn:left": "clear", "horn:right": "ring"}
    assert _read(plane(0.0)) == {"horn:left": "ring", "horn:right": "ring"}
    monkeypatch.setattr(_toss_circle, "ROUND_ASPECT", 2.0)
    assert _read(plane(50.0)) == {"horn:left": "ring", "horn:right": "ring"}


def test_a_round_ring_a_quarter_hidden_is_a_ring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tall horn tilted towards the camera hides a quarter of the ring round it: a round ring still
    reads ring down to `MIN_ROUND_CIRCLE` (here 95 degrees hidden: 0.78); a drawn-out one as hidden does not,
    and with `MIN_ROUND_CIRCLE` at `MIN_CIRCLE_NORMALISED` neither does the round one."""
    layout = toss_layout()
    plane = _normalised_plane()
    left = layout.items["horn:left"].centre_mm
    right = layout.items["horn:right"].centre_mm
    _ring_arc(plane, (left[0] + 3.0, left[1] - 2.0), 95.0, 90.0)
    cv2.ellipse(
        plane,
        _px((right[0] - 3.0, right[1] + 2.0)),
        (round(35.0 * PLANE_PX_PER_MM), round(31.0 * PLANE_PX_PER_MM)),
        25.0,
        95.0,
        360,
        ROPE_BGR,
        round(5 * PLANE_PX_PER_MM),
    )
    assert _read(plane) == {"horn:left": "ring", "horn:right": "clear"}
    monkeypatch.setattr(_toss_circle, "MIN_ROUND_CIRCLE", _toss_circle.MIN_CIRCLE_NORMALISED)
    monkeypatch.setattr(toss, "MIN_ROUND_CIRCLE", _toss_circle.MIN_CIRCLE_NORMALISED)
    assert _read(plane)["horn:left"] == "clear"
