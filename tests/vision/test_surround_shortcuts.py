"""The band's shortcuts (cheaper ways to the same numbers) against the plain computations they replace:
the warm light compared at the band's pixels alone, the band's texture written into one kept buffer, and
the hand check's dark tolerance computed into kept buffers."""

from __future__ import annotations

import numpy
import pytest

from companion.vision._reference_base import ReferenceSettings
from companion.vision._surround_warm import WARM_BENT_SHARE, WARM_BUMP, WarmLight
from companion.vision.base import Frame
from companion.vision.hand_check import HandCheck
from companion.vision.surround import DARK_NOISE
from companion.vision.table_light import Floats, Mask, sum3
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN, learned, surround, wood


def plain_warm(warm: WarmLight, light: Floats) -> Mask:
    """`WarmLight.warm` over the whole surround, as it was before it kept to the band's pixels."""

    def smooth(values: Floats, kept: Mask | None = None) -> Floats:
        sampled = values.ravel()[warm._sample]
        if kept is None:
            coefficients = warm._fit @ sampled
        else:
            terms = warm._terms[warm._sample][kept]
            coefficients = numpy.linalg.lstsq(terms, sampled[kept], rcond=None)[0].astype(numpy.float32)
        return numpy.asarray((warm._terms @ coefficients).reshape(values.shape), numpy.float32)

    red_blue = numpy.asarray(light[..., 2] - light[..., 0], numpy.float32)
    level = sum3(light) * numpy.float32(1.0 / 3.0)
    red_fit, level_fit = smooth(red_blue), smooth(level)
    half = numpy.float32(WARM_BUMP / 2)
    bent = ((red_blue - red_fit > half) & (level - level_fit > half)).ravel()[warm._sample]
    if 0 < numpy.count_nonzero(bent) <= WARM_BENT_SHARE * bent.size:
        red_fit, level_fit = smooth(red_blue, ~bent), smooth(level, ~bent)
    return numpy.asarray(
        (red_blue - red_fit > WARM_BUMP) & (level - level_fit > WARM_BUMP) & warm._in_band, bool
    )


@pytest.mark.parametrize("seed", range(6))
def test_the_warm_light_at_the_band_alone_is_the_plain_one(seed: int) -> None:
    band = surround()
    warm = band._warm_light
    rng = numpy.random.default_rng(seed)
    height, width = band.size[1], band.size[0]
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    # A lamp's smooth pool, the grid's cell noise, and a warm bump (an arm) over part of a side.
    light = (0.1 * numpy.sin(x / 40.0 + seed) * numpy.cos(y / 30.0))[..., None] * numpy.float32(1.0)
    light = light + rng.normal(0.0, 0.02, (height, width, 3))
    bump = numpy.exp(-(((x - rng.uniform(30, width - 30)) / 15.0) ** 2 + ((y - 5.0) / 10.0) ** 2))
    light = light + rng.uniform(0.5, 0.7) * bump[..., None] * numpy.array([-0.2, 0.3, 0.8])
    light = numpy.ascontiguousarray(light, numpy.float32)
    # The band's own pixels unchanged (no cream sleeve): only the light's bumps count.
    found = warm.warm(light, numpy.zeros_like(light))
    assert numpy.array_equal(found, plain_warm(warm, light))
    assert numpy.any(found)  # the arm's bump shows


def shaded(frame: Frame) -> Frame:
    """The frame with a shadow and a grey sleeve over its top side."""
    out = frame.astype(numpy.float32)
    out[:40, 40:90] *= 0.5
    out[:35, 100:115] = (90, 90, 90)
    return numpy.asarray(out, numpy.uint8)


def test_the_band_texture_kept_in_one_buffer_is_each_frame_own() -> None:
    band, empty = learned(surround())
    fresh, _ = learned(surround())
    first, second = shaded(empty), wood(band, 9)
    texture = band.changed(first, SHADOW_MIN, BLUR, LEVEL)[3]
    assert numpy.array_equal(texture, fresh.changed(first, SHADOW_MIN, BLUR, LEVEL)[3])
    assert numpy.any(texture)  # the shadow and the sleeve leave values a later frame must not keep
    m = band.margin
    assert not numpy.any(texture[:, m:-m, m:-m])  # the plane's pixels are zero
    quiet = numpy.array(band.changed(second, SHADOW_MIN, BLUR, LEVEL)[3])
    alone = fresh.changed(second, SHADOW_MIN, BLUR, LEVEL)[3]
    assert numpy.array_equal(quiet, alone)  # nothing of the first frame's is left in it


def plain_tolerance(check: HandCheck, image: Floats, tolerance: Floats, gain: Floats) -> Floats:
    level = image * gain
    floor = numpy.maximum(level - numpy.float32(DARK_NOISE), numpy.float32(DARK_NOISE))
    relative = numpy.float32(check.settings.relative_tolerance)
    return numpy.asarray(numpy.minimum(tolerance, level * relative + floor), numpy.float32)


def test_the_hand_checks_dark_tolerance_in_kept_buffers_is_the_plain_one() -> None:
    band = surround()
    shape = (band.size[1] - 2 * band.margin, band.size[0] - 2 * band.margin)
    markers = numpy.zeros(shape, bool)
    markers[:10, :10] = True
    check = HandCheck(ReferenceSettings(), band, markers, numpy.ones(shape, numpy.float32))
    rng = numpy.random.default_rng(5)
    results = []
    for low in (3.0, 20.0, 8.0):
        image = rng.uniform(low, 200.0, (*shape, 3)).astype(numpy.float32)
        gain = rng.uniform(0.3, 1.5, (*shape, 3)).astype(numpy.float32)
        tolerance = rng.uniform(5.0, 40.0, (*shape, 3)).astype(numpy.float32)
        found = check.tolerance(image, tolerance, gain)
        assert numpy.array_equal(found, plain_tolerance(check, image, tolerance, gain))
        assert numpy.any(found < tolerance)  # the dark floor did lower it somewhere
        results.append((found, found.copy()))
    for found, copied in results:  # no later call wrote into an earlier result
        assert numpy.array_equal(found, copied)


@pytest.mark.parametrize("what", ["arm", "shadow and sleeve", "nothing"])
def test_the_band_changes_told_only_where_they_may_cross_are_the_plain_ones(what: str) -> None:
    band, empty = learned(surround())
    frame = {"arm": arm_over(empty), "shadow and sleeve": shaded(empty), "nothing": empty}[what]
    plain = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)
    asked: list[Mask] = []

    def crosses(differs: Mask) -> bool:
        asked.append(differs.copy())
        return True

    told = band.changed_if_crossed(frame, SHADOW_MIN, BLUR, LEVEL, crosses)
    assert told is not None
    for a, b in zip(told, plain, strict=True):
        assert numpy.array_equal(a, b)
    # What the test is asked of holds both masks a crossing is looked for in: no crossing of them can be
    # found where none of it crosses.
    (differs,) = asked
    assert not numpy.any((plain[0] | plain[1]) & ~differs)
    assert band.changed_if_crossed(frame, SHADOW_MIN, BLUR, LEVEL, lambda _: False) is None


def arm_over(frame: Frame) -> Frame:
    """The frame with a skin-toned arm from the top edge across the band."""
    out = frame.copy()
    out[:40, 60:80] = (120, 150, 200)
    return out
