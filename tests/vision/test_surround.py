"""The band around the plane (surround.py) on its own: drawn tables, arms and lights, no generator."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision.base import Frame
from companion.vision.surround import STRIP_PAD, Surround

PLANE_MM = (300.0, 200.0)
PX_PER_MM = 0.5
BLUR, LEVEL, SHADOW_MIN = 5, 0.5, 0.2
"""The reference's settings for the band (reference.py: HAND_BLUR_MM, BAND_LEVEL, BAND_SHADOW_MIN)."""


def surround() -> Surround:
    return Surround(PLANE_MM, (round(PLANE_MM[0] * PX_PER_MM), round(PLANE_MM[1] * PX_PER_MM)), PX_PER_MM)


def wood(band: Surround, seed: int = 3, grain_depth: float = 0.12) -> Frame:
    """A grained mid-brown table at the surround's size, with a little noise."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    grain = numpy.sin(y / 2.0 + numpy.sin(x / 20.0))[..., None]
    image = numpy.array([70, 100, 140], numpy.float32) * (1.0 + grain_depth * grain)
    noise = numpy.random.default_rng(seed).normal(0, 1.5, image.shape)
    return numpy.asarray(numpy.clip(image + noise, 0, 255), numpy.uint8)


def learned(band: Surround) -> tuple[Surround, Frame]:
    empty = wood(band)
    band.learn([empty, wood(band, 4)], 14.0, 0.07, 0.05, 0.25)
    return band, empty


ARMS = {
    "top": (slice(0, 40), slice(60, 80)),
    "bottom": (slice(90, 130), slice(100, 120)),
    "left": (slice(50, 65), slice(0, 40)),
    "right": (slice(60, 75), slice(140, 180)),
}
"""An arm's box in the surround's pixels (180 x 130) from each edge across the 15 px band into the plane."""


@pytest.mark.parametrize("edge", sorted(ARMS))
def test_an_arm_is_found_in_the_band_where_it_lies_and_the_plane_is_left_out(edge: str) -> None:
    band, empty = learned(surround())
    frame = empty.copy()
    box = ARMS[edge]
    frame[box] = (95, 125, 180)  # a skin
    changed, any_change, outline, _texture = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)
    m = band.margin
    drawn = numpy.zeros(changed.shape, bool)
    drawn[box] = True
    in_band = drawn.copy()
    in_band[m:-m, m:-m] = False
    # The arm's part in the band differs (much of it beyond light and shadow: a skin this near the wood's
    # hue is partly like its lit side), nothing far from it does, and nothing in the plane.
    assert numpy.count_nonzero(any_change & in_band) >= 0.9 * numpy.count_nonzero(in_band), edge
    assert numpy.count_nonzero(changed & in_band) >= 0.3 * numpy.count_nonzero(in_band), edge
    far = cv2.dilate(drawn.astype(numpy.uint8), numpy.ones((9, 9), numpy.uint8)) == 0
    assert not numpy.any(any_change & far), edge
    for mask in (changed, any_change, outline):
        assert not numpy.any(mask[m:-m, m:-m]), edge
    # Under the plane's light carried outward (no change of light), the arm differs there too.
    light = numpy.zeros((changed.shape[0] - 2 * m, changed.shape[1] - 2 * m, 3), numpy.float32)
    carried = band.changed(frame, SHADOW_MIN, BLUR, LEVEL, light)[1]
    assert numpy.count_nonzero(carried & in_band) >= 0.9 * numpy.count_nonzero(in_band), edge
    assert not numpy.any(carried & far), edge


def test_the_plane_beyond_the_strips_windows_changes_nothing_in_the_band() -> None:
    band, empty = learned(surround())
    frame = empty.copy()
    frame[ARMS["top"]] = (95, 125, 180)
    reach = band.margin + STRIP_PAD
    other = frame.copy()
    # Pieces all over the plane's middle, up to the strips' inner side.
    other[reach:-reach, reach:-reach] = numpy.random.default_rng(5).integers(
        0, 255, other[reach:-reach, reach:-reach].shape, numpy.uint8
    )
    light = numpy.zeros((band.size[1] - 2 * band.margin, band.size[0] - 2 * band.margin, 3), numpy.float32)
    first = band.changed(frame, SHADOW_MIN, BLUR, LEVEL, light)
    second = band.changed(other, SHADOW_MIN, BLUR, LEVEL, light)
    for a, b in zip(first, second, strict=True):
        assert numpy.array_equal(a, b)


ARM_MM = 18.0
"""An arm's least width where it crosses the band (reference.py: ReferenceSettings.hand_min_edge_mm)."""


def crosses(band: Surround, frame: Frame, inside: numpy.typing.NDArray[numpy.uint8]) -> bool:
    """The reference's decision (hand_check.py `HandCheck.crossed`, no markers): something foreign crossing
    the band into the plane's changes `inside`, or something only differing there with an arm's outline."""
    changed, any_change, outline, texture = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)
    return band.crossing(changed, inside, ARM_MM, None, None, texture) or band.crossing(
        any_change, inside, ARM_MM, outline, None, texture
    )


def edge_pieces(band: Surround) -> numpy.typing.NDArray[numpy.uint8]:
    """The plane's changes: pieces lying all along its edges (as a Minoa board's sticks do)."""
    width, height = band.size[0] - 2 * band.margin, band.size[1] - 2 * band.margin
    inside = numpy.zeros((height, width), numpy.uint8)
    inside[:12], inside[-12:], inside[:, :12], inside[:, -12:] = 1, 1, 1, 1
    return inside


def test_an_outline_must_run_across_the_band_not_along_the_planes_edge() -> None:
    band = surround()
    m, height, width = band.margin, band.size[1], band.size[0]
    region = numpy.zeros((height, width), bool)
    region[:m, 60:90] = True  # differing a little from the outer edge to the plane, an arm's width
    inside = numpy.zeros((height - 2 * m, width - 2 * m), numpy.uint8)
    inside[:20, 45:75] = 1
    along = numpy.zeros_like(region)
    along[m - 2 : m, 55:95] = True  # pieces standing at the plane's edge step sharply just beside it
    assert not band.crossing(region, inside, ARM_MM, along & region)
    across = numpy.zeros_like(region)
    across[:m, 60] = across[:m, 89] = True  # an arm's two sides
    assert band.crossing(region, inside, ARM_MM, across)


def test_a_shadow_learned_over_the_band_that_has_lifted_is_no_arm_an_arm_there_is() -> None:
    band = surround()
    lit = wood(band, grain_depth=0.3)  # grained enough to show in the shade
    sharp = numpy.ones(lit.shape[:2], numpy.float32)
    sharp[:40, 30:150] = 0.3  # a player's head shaded the band and the plane's edge while it was learned
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 3), numpy.float32)[..., None]
    shaded = numpy.asarray(numpy.clip(lit * shade, 0, 255), numpy.uint8)
    band.learn([shaded, shaded], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    assert not crosses(band, lit, inside)
    arm = lit.copy()
    arm[:40, 80:100] = (95, 125, 180)
    assert crosses(band, arm, inside)


def test_a_lamp_switched_on_over_a_cloth_learned_nearly_black_is_no_arm_an_arm_there_is() -> None:
    band = surround()
    rng = numpy.random.default_rng(8)
    felt = numpy.array([6.0, 7.0, 17.0], numpy.float32)
    shape = (band.size[1], band.size[0], 3)

    def shot(light: float) -> Frame:
        return numpy.asarray(numpy.clip(felt * light + rng.normal(0, 1.2, shape), 0, 255), numpy.uint8)

    band.learn([shot(1.0) for _ in range(3)], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    for _ in range(3):
        assert not crosses(band, shot(3.5), inside)
    arm = shot(3.5)
    arm[:40, 80:100] = (70, 90, 130)
    assert crosses(band, arm, inside)


def checked_cloth(band: Surround, seed: int, dark: float) -> Frame:
    """A yellow check cloth at the surround's size: its darkest check's blue channel at `dark`."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width]
    check = ((x // 3) % 2 + (y // 3) % 2)[..., None]
    image = numpy.where(
        check == 0, [150.0, 225.0, 240.0], numpy.where(check == 1, [80.0, 190.0, 235.0], [dark, 160.0, 225.0])
    )
    image = image + numpy.random.default_rng(seed).normal(0, 1.5, image.shape)
    return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)


@pytest.mark.parametrize("dark", (10.0, 15.0, 25.0))
def test_a_shadow_over_checks_with_a_channel_near_black_is_no_change(dark: float) -> None:
    # A player's sharp shadow over the band, a quarter lit and a little bluer, and the lens's flare
    # lifting every channel by a few levels: the near-black blue of the darkest check is lifted most.
    # Its channels' darkening disagree by as much as that channel's noise and flare allow, not the
    # grey's (a yellow gingham's shadow crossing the band was taken for an arm at rest).
    band = surround()
    empty = checked_cloth(band, 3, dark)
    band.learn([empty, checked_cloth(band, 4, dark)], 14.0, 0.07, 0.05, 0.25)
    sharp = numpy.ones(empty.shape[:2], numpy.float32)
    sharp[:, 100:] = 0.25
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 0.7), numpy.float32)[..., None]
    light = 1.0 - (1.0 - shade) * numpy.array([0.9, 1.0, 1.05], numpy.float32)
    shot = numpy.asarray(numpy.clip(checked_cloth(band, 5, dark) * light + 6.0, 0, 255), numpy.uint8)
    changed, _any_change, _outline, texture = band.changed(shot, SHADOW_MIN, BLUR, LEVEL)
    assert not numpy.any(changed[:, 110:]), numpy.count_nonzero(changed[:, 110:])
    unlike = texture[1]  # kept_texture's plane of differing pixels of no shadow's hue
    assert not numpy.any(unlike[:, 110:]), numpy.count_nonzero(unlike[:, 110:])
    arm = shot.copy()
    arm[:40, 120:140] = (95, 125, 180)  # a skin in the shadow
    changed = band.changed(arm, SHADOW_MIN, BLUR, LEVEL)[0]
    assert numpy.count_nonzero(changed[:15, 120:140]) >= 0.5 * 15 * 20


def test_a_deep_shadow_with_a_ramp_at_its_edge_is_no_arm_a_grey_sleeve_in_it_is() -> None:
    band = surround()
    empty = wood(band, grain_depth=0.3)
    band.learn([empty, empty], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    # A player's shadow over the top band and the plane's edge, a sixth of the light, its edge a ramp
    # of a few millimetres.
    sharp = numpy.ones(empty.shape[:2], numpy.float32)
    sharp[:45, 20:160] = 0.17
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 1.5), numpy.float32)[..., None]
    shadowed = numpy.asarray(numpy.clip(empty * shade, 0, 255), numpy.uint8)
    assert not crosses(band, shadowed, inside)
    sleeve = shadowed.copy()
    sleeve[:45, 80:100] = (40, 40, 40)
    assert crosses(band, sleeve, inside)


@pytest.mark.parametrize("depth", (0.2, 0.3))
def test_a_sleeve_of_a_shadows_tone_in_the_shadow_is_an_arm(depth: float) -> None:
    # A player's soft shadow over the band keeps the wood's grain; a sleeve of the shaded wood's very
    # colour crossing the band in it is of the shadow's hue and depth, and the correlation summed over the
    # whole region is the shadow's: only the grain it hides tells it (the texture test took the region for
    # a shadow, and the arm went unseen).
    band = surround()
    empty = wood(band, grain_depth=0.3)
    band.learn([empty, empty], 14.0, 0.07, 0.05, 0.25)
    inside = edge_pieces(band)
    sharp = numpy.ones(empty.shape[:2], numpy.float32)
    sharp[:45, 20:160] = depth
    shade = numpy.asarray(cv2.GaussianBlur(sharp, (0, 0), 4), numpy.float32)[..., None]
    shadowed = numpy.asarray(numpy.clip(wood(band, 5, 0.3) * shade, 0, 255), numpy.uint8)
    assert not crosses(band, shadowed, inside)
    sleeve = shadowed.copy()
    tone = numpy.array([70.0, 100.0, 140.0]) * depth  # the wood's colour, shaded
    noise = numpy.random.default_rng(9).normal(0.0, 1.5, sleeve[:45, 80:100].shape)
    sleeve[:45, 80:100] = numpy.clip(tone + noise, 0, 255).astype(numpy.uint8)
    assert crosses(band, sleeve, inside)
