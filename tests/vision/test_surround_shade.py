"""A player's head shadow with sharp edges over plain laminate, across the band into the plane: no texture
to keep, an outline as steep as an arm's, yet it only scales the table (one smooth shade, one hue:
`_surround_shade.py`). An arm of the laminate's hue, darker, replaces it: its facets step inside it, and
its hue turns across the limb from the lamp's to the daylight's."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_shade as shade_module
from companion.vision._surround_shade import smooth_shades
from companion.vision.base import Frame
from companion.vision.surround import Surround
from tests.vision.test_surround import ARM_MM, BLUR, LEVEL, SHADOW_MIN, edge_pieces, surround

GREY = numpy.array([200.0, 205.0, 208.0], numpy.float32)
"""A light grey laminate (BGR)."""
DAYLIGHT = numpy.array([0.40, 0.37, 0.35], numpy.float32)
"""What of the light is left in a head's shadow, per channel: the daylight, a little bluer than the lamp."""
BOX = (slice(0, 55), slice(40, 110))
"""The shadow's (and the arms') box: from the band's outer edge across it into the plane."""


def laminate(band: Surround, seed: int) -> Frame:
    """Plain laminate: a faint large pattern, a fainter fine one (2 % each) and the camera's noise."""
    width, height = band.size
    rng = numpy.random.default_rng(seed)
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    pattern = 0.02 * numpy.sin(x / 13.0 + y / 17.0) + 0.02 * numpy.sin(x * 1.3) * numpy.sin(y * 1.1)
    image = GREY * (1.0 + pattern)[..., None] + rng.normal(0.0, 1.5, (height, width, 3))
    return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)


def learned() -> Surround:
    band = surround()
    band.learn([laminate(band, 3), laminate(band, 4)], 14.0, 0.07, 0.05, 0.25)
    return band


def head_shadow(band: Surround, seed: int) -> Frame:
    """The laminate under a head's shadow from a small lamp: the daylight alone inside its box, its edge
    sharp (blurred over a pixel)."""
    light = numpy.ones((band.size[1], band.size[0], 3), numpy.float32)
    light[BOX] = DAYLIGHT
    light = numpy.asarray(cv2.GaussianBlur(light, (0, 0), 0.7), numpy.float32)
    return numpy.asarray(numpy.clip(laminate(band, seed) * light, 0, 255), numpy.uint8)


def limb(band: Surround, seed: int, facets: int) -> Frame:
    """An arm of the laminate's own hue, darker, in the shadow's box along the rows: a tube lit by the warm
    lamp from one side (lit in proportion to its surface's turn towards it) and by the daylight all round,
    drawn in `facets` flat sides across its visible half (0: a smooth round limb)."""
    frame = laminate(band, seed)
    columns = BOX[1]
    width = columns.stop - columns.start
    across = (numpy.arange(width, dtype=numpy.float32) + 0.5) / width * 2.0 - 1.0
    turn = numpy.arcsin(numpy.clip(across, -1.0, 1.0))  # the surface's normal across the limb
    if facets:
        step = numpy.pi / facets
        turn = (numpy.floor((turn + numpy.pi / 2) / step) + 0.5) * step - numpy.pi / 2
    lamp = numpy.maximum(numpy.cos(turn - 0.6), 0.0)[:, None] * numpy.array([0.45, 0.5, 0.55], numpy.float32)
    shading = DAYLIGHT * 0.6 + lamp
    frame[BOX] = numpy.clip(0.8 * GREY * shading[None, :, :], 0, 255).astype(numpy.uint8)
    return frame


def decided(band: Surround, frame: Frame, smooth: bool = True) -> bool:
    """`HandCheck.crossed`'s sharp-outline test: what only differs crossing the band with an arm's outline
    (with the smooth-shade test, or without it as before)."""
    _changed, any_change, outline, texture = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)
    shades = band.shades_of(frame) if smooth else None
    return band.crossing(any_change, edge_pieces(band), ARM_MM, outline, None, texture, shades)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_sharp_head_shadow_over_plain_laminate_is_one_smooth_shade_not_an_arm(seed: int) -> None:
    band = learned()
    shadow = head_shadow(band, seed)
    # Its outline is as steep as an arm's: without the smooth shade it was refused as one.
    assert decided(band, shadow, smooth=False)
    assert not decided(band, shadow)


@pytest.mark.parametrize("facets", [4, 5, 0])
@pytest.mark.parametrize("seed", [5, 6])
def test_an_arm_of_the_laminates_hue_is_no_smooth_shade(seed: int, facets: int) -> None:
    band = learned()
    arm = limb(band, seed, facets)
    assert decided(band, arm, smooth=False)  # of the shadow's hue, only darker: the outline test's
    assert decided(band, arm)


@pytest.mark.parametrize("seed", [5, 6])
def test_a_flat_sleeve_of_the_shadows_level_and_hue_shows_none_of_the_laminates_pattern(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    band = learned()
    shadow = head_shadow(band, seed)
    sleeve = shadow.copy()
    level = numpy.asarray(shadow[2:13, 50:100], numpy.float32).mean(axis=(0, 1))
    noise = numpy.random.default_rng(seed).normal(0.0, 1.5, sleeve[BOX].shape)
    sleeve[BOX] = numpy.clip(level + noise, 0, 255).astype(numpy.uint8)  # even and of one hue
    assert decided(band, sleeve)
    # Told by the pattern alone: without its agreement the sleeve passes for the shadow.
    monkeypatch.setattr(shade_module, "SHADE_PATTERN_Z", -1e9)
    assert not decided(band, sleeve)


def test_a_sleeve_joined_to_a_shadow_through_the_plane_is_an_arm_though_the_shadow_is_larger() -> None:
    # One region (the plane's changes join them), most of its pixels the shadow's: measured as a whole it
    # is even, of one hue and shows the pattern; its pieces in the band are judged each on its own.
    band = learned()
    frame = head_shadow(band, 5)
    level = numpy.asarray(frame[2:13, 50:100], numpy.float32).mean(axis=(0, 1))
    noise = numpy.random.default_rng(5).normal(0.0, 1.5, frame[0:55, 130:155].shape)
    frame[0:55, 130:155] = numpy.clip(level + noise, 0, 255).astype(numpy.uint8)
    assert decided(band, frame)
    labels = numpy.zeros((band.size[1], band.size[0]), numpy.int32)
    labels[BOX], labels[0:55, 130:155], labels[15:25, 40:155] = 1, 1, 1
    in_band = numpy.asarray(band._depth < band.margin, bool)
    reference = numpy.asarray(band._image, numpy.float32)
    assert not smooth_shades(frame, reference, labels, 2, in_band, 30)[1]
    labels[0:15, 130:155] = 0  # the shadow's piece alone
    assert smooth_shades(frame, reference, labels, 2, in_band, 30)[1]


@pytest.mark.parametrize(
    ("name", "value"), [("SHADE_EVEN", 0.004), ("SHADE_HUE", 0.003), ("SHADE_MIN_PX", 2000)]
)
def test_each_measure_is_asked(name: str, value: float, monkeypatch: pytest.MonkeyPatch) -> None:
    band = learned()
    shadow = head_shadow(band, 5)
    assert not decided(band, shadow)
    monkeypatch.setattr(shade_module, name, value)
    monkeypatch.setattr(shade_module, "SHADE_NOISE", 0.0)  # (else the noise's share alone is the limit)
    assert decided(band, shadow)


def test_smooth_shades_leaves_the_background_and_narrow_regions_out() -> None:
    band = learned()
    frame = head_shadow(band, 5)
    labels = numpy.zeros((band.size[1], band.size[0]), numpy.int32)
    labels[BOX] = 1
    labels[0:55, 130:136] = 2  # a strip too narrow to have pixels away from its outline
    shades = smooth_shades(frame, numpy.asarray(laminate(band, 3), numpy.float32), labels, 3, labels >= 0, 30)
    assert list(shades) == [False, True, False]


def test_a_shade_torn_into_strips_along_the_grain_is_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    # A soft shadow over light wood seen straight down: the grain's pale streaks, darkened by less than the
    # band's level, cut its crossing of the band into strips along the band, each all outline once eroded.
    band = learned()
    frame = head_shadow(band, 5)
    labels = numpy.zeros((band.size[1], band.size[0]), numpy.int32)
    labels[BOX] = 1
    labels[5, 40:110] = labels[10, 40:110] = 0  # one-pixel streaks across the shade, along the band
    in_band = numpy.asarray(band._depth < band.margin, bool)
    reference = numpy.asarray(band._image, numpy.float32)
    assert smooth_shades(frame, reference, labels, 2, in_band, 30)[1]
    # Not closed, the strips (pieces as large as a quarter of a wrist's crossing) are arms.
    monkeypatch.setattr(shade_module, "SHADE_GAP_PX", 1)
    assert not smooth_shades(frame, reference, labels, 2, in_band, 30)[1]
