"""A printed cloth learned from a soft frame and seen in a sharper one: its thin lines and edges show their
full colours where the soft frame mixed them with the cloth beside them, and are still the cloth; pieces on
it still differ."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision import _reference_focus as focus_module
from companion.vision.base import PLANE_PX_PER_MM, Frame
from tests.vision.test_reference import PIECE_MM, PIECES, PLANE_MM, learned, mask_box, with_pieces
from tests.vision.test_reference_shade import with_markers

NAVY_BGR = (70.0, 35.0, 30.0)
YELLOW_BGR = (30.0, 200.0, 235.0)
GREEN_BGR = (130.0, 170.0, 50.0)
"""A printed cloth's colours: yellow diamonds outlined by a thin green line on navy."""


def printed() -> numpy.typing.NDArray[numpy.float32]:
    """Diamonds 14 mm across every 24 mm, outlined 1.5 mm wide, at the plane's scale."""
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32) / numpy.float32(PLANE_PX_PER_MM)
    pitch = 24.0
    # Distance (L1, mm) from the nearest diamond's centre.
    distance = numpy.abs((x % pitch) - pitch / 2) + numpy.abs((y % pitch) - pitch / 2)
    out = numpy.empty((height, width, 3), numpy.float32)
    out[:] = NAVY_BGR
    out[distance < 8.5] = GREEN_BGR
    out[distance < 7.0] = YELLOW_BGR
    return out


def soft(plane: numpy.typing.NDArray[numpy.float32], sigma_mm: float) -> numpy.typing.NDArray[numpy.float32]:
    return numpy.asarray(cv2.GaussianBlur(plane, (0, 0), sigma_mm * PLANE_PX_PER_MM), numpy.float32)


def cloth_share(foreground: numpy.typing.NDArray[numpy.bool_]) -> float:
    """Share of the cloth below the pieces (a strip clear of the markers) held foreground."""
    return float(numpy.mean(foreground[mask_box(60.0, 225.0, 340.0, 245.0)]))


def pieces_share(foreground: numpy.typing.NDArray[numpy.bool_]) -> float:
    half = PIECE_MM / 2 - 3.0
    return min(
        float(numpy.mean(foreground[mask_box(cx - half, cy - half, cx + half, cy + half)]))
        for cx, cy in PIECES
    )


def test_a_printed_cloth_learned_soft_stays_table_in_a_sharper_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = numpy.random.default_rng(51)
    cloth = printed()
    reference = learned(with_markers(soft(cloth, 1.5), rng))
    sharp = with_markers(soft(cloth, 0.2), rng)
    view = reference.look(sharp)
    assert not view.refused, view.reason
    assert cloth_share(view.foreground) < 0.02, cloth_share(view.foreground)
    # Pieces on it still differ.
    with_them = reference.look(with_pieces(sharp, PIECES)).foreground
    assert pieces_share(with_them) > 0.9
    assert cloth_share(with_them) < 0.02
    # Without the focus, the green lines' full colour lies beyond what the soft frame showed.
    monkeypatch.setattr(focus_module, "SHARPER_FROM", 1e9)
    assert cloth_share(reference.look(sharp).foreground) > 0.1


def test_a_softer_frame_than_the_reference_changes_nothing() -> None:
    rng = numpy.random.default_rng(52)
    cloth = printed()
    reference = learned(with_markers(soft(cloth, 0.2), rng))
    plane: Frame = with_markers(soft(cloth, 1.5), rng)
    corrected = plane.astype(numpy.float32)
    small = cv2.resize(corrected, reference.size, interpolation=cv2.INTER_AREA)
    assert reference._focus.slope(small) < 1.0
    view = reference.look(plane)
    assert cloth_share(view.foreground) < 0.02
