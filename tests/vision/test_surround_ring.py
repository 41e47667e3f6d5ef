"""A toss ring lying on the table beyond the collar plate's edge, its arc across half the band, is no arm
reaching the rings on the plate (`BandCrossing._hollow`): the arc is hollow, its legs apart with the table
between them, where an arm across the band is solid. Its cap alone across a third of the band, the legs
merged, is thin (`BandCrossing._solid`): an arm's limb is broad."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_crossing
from tests.vision.test_reference import SKINS_BGR
from tests.vision.test_reference_reach import BORDER_PX, board, hand, learned

RING_PX, CORD_PX = 66, 8
"""A toss ring at the plane's scale: 66 mm across, a 4 mm cord."""
RING_BGR = (40, 120, 220)


def rings_at_rest(
    frame: numpy.typing.NDArray[numpy.uint8], short_px: int
) -> numpy.typing.NDArray[numpy.uint8]:
    """`frame` with a ring beyond the left edge, its arc stopping `short_px` short of the plane, and
    three rings on the board in front of its legs, side by side (their changes joined: a hand's area)."""
    shot = frame.copy()
    middle = frame.shape[0] // 2
    cv2.circle(shot, (BORDER_PX - short_px - RING_PX, middle), RING_PX, RING_BGR, CORD_PX)
    near = BORDER_PX + RING_PX + 10
    for centre in ((near, middle - 35), (near + 140, middle - 35), (near, middle + 105)):
        cv2.circle(shot, centre, RING_PX, RING_BGR, CORD_PX)
    return shot


@pytest.mark.parametrize("short_px", [20, 30, 38, 40])
def test_a_rings_arc_across_half_the_band_reaches_no_hand(short_px: int) -> None:
    # 20 and 30 px short: its legs apart on the band's outer edge (hollow); 38 and 40: its cap alone
    # across a third of the band, the legs merged there (thin).
    frame, plane = board(SKINS_BGR[1], numpy.random.default_rng(60))
    reference = learned(frame, plane)
    assert not hand(reference, rings_at_rest(frame, short_px))


def test_without_the_hollow_test_the_arc_is_an_arm(monkeypatch: pytest.MonkeyPatch) -> None:
    # The scene itself is one the reach finds: only the arc's hollowness keeps it from being an arm.
    frame, plane = board(SKINS_BGR[1], numpy.random.default_rng(60))
    reference = learned(frame, plane)
    monkeypatch.setattr(
        _surround_crossing.BandCrossing, "_hollow", lambda self, labels, wide, insets, gap: wide & False
    )
    monkeypatch.setattr(_surround_crossing.BandCrossing, "_solid", lambda self, labels, wide: wide)
    assert hand(reference, rings_at_rest(frame, 20))


def test_without_the_solid_test_the_cap_is_an_arm(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its legs merged on the band's outer edge, the cap is not hollow there: only its thinness tells it.
    frame, plane = board(SKINS_BGR[1], numpy.random.default_rng(60))
    reference = learned(frame, plane)
    monkeypatch.setattr(_surround_crossing.BandCrossing, "_solid", lambda self, labels, wide: wide)
    assert hand(reference, rings_at_rest(frame, 40))
