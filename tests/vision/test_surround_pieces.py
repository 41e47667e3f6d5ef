"""A region of the band's changes may be pieces of the band joined through the plane's changes: an arm's
crossing and a player's shadow elsewhere along the band. Where the shadow's texture, kept surely, is what
lets the region's depth spread (`KEPT_TEXTURE_SURE_Z`), it speaks only for its own piece: the arm's, over a
stretch of the table with no texture to keep and at another depth, is judged by itself (bench seed
20261148, Asterion light wood session 00 frame 8, read with a hand)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy
import pytest

from companion.vision import _surround_crossing as crossing_module
from companion.vision.base import Frame
from companion.vision.surround import Surround
from companion.vision.table_light import Mask
from tests.vision.test_surround import crosses, edge_pieces, surround

WOOD = numpy.array([90.0, 130.0, 180.0], numpy.float32)
"""A light wood (BGR)."""
SLEEVE = (slice(60, 75), slice(140, 180))
"""Across the band's right side (its plain stretch) into the plane."""


def table(band: Surround, seed: int) -> Frame:
    """The wood, grained deeply along the band's top only, plain elsewhere (under the texture test's
    notice), with the camera's noise."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    grain = numpy.sin(y / 2.0 + numpy.sin(x / 20.0)) * (y < 30)
    noise = numpy.random.default_rng(seed).normal(0, 1.5, (height, width, 3))
    return numpy.asarray(numpy.clip(WOOD * (1.0 + 0.3 * grain)[..., None] + noise, 0, 255), numpy.uint8)


def learned() -> Surround:
    band = surround()
    band.learn([table(band, 3), table(band, 4)], 14.0, 0.07, 0.05, 0.25)
    return band


def shadowed(
    band: Surround, depth: float, box: tuple[slice, slice] = (slice(0, 40), slice(20, 160))
) -> Frame:
    """A player's soft shadow `depth` of the light over `box` (along the band's grained top and into the
    plane)."""
    sharp = numpy.ones((band.size[1], band.size[0]), numpy.float32)
    sharp[box] = depth
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 4), numpy.float32)[..., None]
    return numpy.asarray(numpy.clip(table(band, 5) * shade, 0, 255), numpy.uint8)


def with_sleeve(frame: Frame, level: float) -> Frame:
    """A flat sleeve of the wood's hue at `level` of its light across the band's plain right side."""
    out = frame.copy()
    noise = numpy.random.default_rng(9).normal(0.0, 1.5, out[SLEEVE].shape)
    out[SLEEVE] = numpy.clip(WOOD * level + noise, 0, 255).astype(numpy.uint8)
    return out


@pytest.mark.parametrize(("shadow", "sleeve"), [(0.5, 0.2), (0.5, 1.3), (0.3, 1.3)])
def test_an_arms_piece_joined_to_a_shadow_through_the_plane_is_an_arm(shadow: float, sleeve: float) -> None:
    band = learned()
    inside = edge_pieces(band)  # pieces all along the plane's edges join the band's pieces
    assert not crosses(band, shadowed(band, shadow), inside)
    assert crosses(band, with_sleeve(table(band, 5), sleeve), inside)
    assert crosses(band, with_sleeve(shadowed(band, shadow), sleeve), inside)
    # Judged as one region, the shadow's texture spoke for the sleeve.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(crossing_module.BandCrossing, "_pieces", lambda self, regions, width: [])
        assert not crosses(band, with_sleeve(shadowed(band, shadow), sleeve), inside)


def test_a_shadow_over_the_grain_and_the_plain_stretch_is_no_arm() -> None:
    # Its piece over the plain stretch keeps no texture and shows no pattern by itself, but it lies at the
    # depth of the piece that keeps the grain: one shadow (judged by pieces, it was an arm).
    band = learned()
    frame = shadowed(band, 0.4)
    frame[SLEEVE] = shadowed(band, 0.4, SLEEVE)[SLEEVE]
    assert not crosses(band, frame, edge_pieces(band))
    judged = crossing_module.shaded

    def every_shade_spared(*args: Any) -> tuple[Mask, Mask]:
        kept, _ = judged(*args)
        return kept, kept

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(crossing_module, "shaded", every_shade_spared)
        assert crosses(band, frame, edge_pieces(band))


def test_a_shadow_in_two_grained_pieces_joined_through_the_plane_is_no_arm() -> None:
    # Each piece keeps the grain by itself.
    band = learned()
    frame = shadowed(band, 0.3)
    frame[:40, 85:95] = table(band, 5)[:40, 85:95]  # the shadow's two halves, apart in the band
    assert not crosses(band, frame, edge_pieces(band))
