"""A pale arm on a pale table, wider than the band's light cells: the band's own light takes it for a pink
light, and the arm matches as table under it, unless a light redder and brighter than a smooth light over
the band is no light (`WARM_BUMP`; burnt seed 20261136, Minotaurus on laminate)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_warm as warm_module
from companion.vision.base import Frame
from companion.vision.surround import Surround
from companion.vision.table_light import Floats
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN, surround

ARM = (slice(45, 85), slice(120, None))
"""A forearm's box from the right edge over the band (15 px) into the plane: 80 mm wide."""


def laminate(band: Surround, rng: numpy.random.Generator) -> Frame:
    """A plain pale grey-beige laminate (B, G, R), the camera's noise on it."""
    shape = (band.size[1], band.size[0], 3)
    level = numpy.array([150.0, 156.0, 160.0])
    return numpy.asarray(numpy.clip(level + rng.normal(0, 1.5, shape), 0, 255), numpy.uint8)


def taken_for_light(monkeypatch: pytest.MonkeyPatch, band: Surround, frame: Frame, empty: Frame) -> None:
    """The band's own light made what the light grid measures when it takes the frame's change from the
    empty table for light, smoothed over its cells."""
    ratio = numpy.log((frame.astype(numpy.float32) + 4.0) / (empty.astype(numpy.float32) + 4.0))
    light = numpy.asarray(cv2.GaussianBlur(ratio, (0, 0), 4.0), numpy.float32)
    grid = band._light  # the measurement whose mistake is drawn here
    assert grid is not None

    def measure(*_args: object, **_kwargs: object) -> Floats:
        return light

    monkeypatch.setattr(grid, "measure", measure)


def learned(rng: numpy.random.Generator) -> tuple[Surround, Frame]:
    band = surround()
    empty = laminate(band, rng)
    band.learn([empty, laminate(band, rng), laminate(band, rng)], 14.0, 0.07, 0.05, 0.25)
    return band, empty


def in_band(band: Surround, box: tuple[slice, slice]) -> numpy.typing.NDArray[numpy.bool_]:
    drawn = numpy.zeros((band.size[1], band.size[0]), bool)
    drawn[box] = True
    m = band.margin
    drawn[m:-m, m:-m] = False
    return drawn


def changed_share(band: Surround, frame: Frame, where: numpy.typing.NDArray[numpy.bool_]) -> float:
    """The share of `where` that the band's changes beyond light and shadow cover in `frame`."""
    changed = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)[0]
    return numpy.count_nonzero(changed & where) / numpy.count_nonzero(where)


def test_a_pale_arm_taken_for_a_pink_light_differs_in_the_band(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = numpy.random.default_rng(21)
    band, empty = learned(rng)
    frame = empty.copy()
    frame[ARM] = (178, 196, 236)  # a pale skin, lit: 1.2 times the laminate in blue, 1.5 in red
    taken_for_light(monkeypatch, band, frame, empty)
    where = in_band(band, ARM)
    assert changed_share(band, frame, where) >= 0.5
    # Without the test the arm matches as table under that light.
    monkeypatch.setattr(warm_module, "WARM_BUMP", 1e9)
    assert changed_share(band, frame, where) < 0.1


@pytest.mark.parametrize("corner", [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)])
def test_a_warm_lamps_pool_switched_on_is_light(
    monkeypatch: pytest.MonkeyPatch, corner: tuple[float, float]
) -> None:
    """A warm lamp switched on beside the table: its pool 0.5 brighter and 0.3 redder (logs) at one
    corner of the band than at the other, smoothly."""
    rng = numpy.random.default_rng(22)
    band, empty = learned(rng)
    height, width = band.size[1], band.size[0]
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    near = 1.0 - numpy.hypot(x / width - corner[0], y / height - corner[1]) / numpy.sqrt(2.0)
    pool = near * near
    light = numpy.stack([0.35 * pool, 0.5 * pool, 0.65 * pool], axis=-1)
    frame = numpy.asarray(numpy.clip(empty * numpy.exp(light), 0, 255), numpy.uint8)
    taken_for_light(monkeypatch, band, frame, empty)
    changed = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)[0]
    assert not numpy.any(changed & in_band(band, (slice(None), slice(None))))


def test_a_wide_warm_arm_bending_the_smooth_light_differs_in_the_band(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An arm over a third of one side, of a skin 0.3 redder and 0.13 brighter (logs) than the table: the
    smooth light, fitted over the whole band, bends towards it by half its bump (burnt 20261139, Minos on
    light wood); fitted again without it, the arm differs."""
    rng = numpy.random.default_rng(23)
    band, empty = learned(rng)
    box = (slice(band.size[1] - 40, None), slice(50, 110))
    frame = empty.copy()
    skin = numpy.exp(numpy.array([0.0, 0.1, 0.3], numpy.float32))
    frame[box] = numpy.clip(empty[box] * skin, 0, 255).astype(numpy.uint8)
    taken_for_light(monkeypatch, band, frame, empty)
    where = in_band(band, box)
    changed = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)[0]
    assert numpy.count_nonzero(changed & where) >= 0.5 * numpy.count_nonzero(where)
    # Fitted once, over the arm too, the light bent towards it is the arm's: it matches as table.
    monkeypatch.setattr(warm_module, "WARM_BUMP_REFIT", False)
    changed = band.changed(frame, SHADOW_MIN, BLUR, LEVEL)[0]
    assert numpy.count_nonzero(changed & where) < 0.1 * numpy.count_nonzero(where)


def test_a_white_sleeve_taken_for_a_bluer_light_differs_in_the_band(monkeypatch: pytest.MonkeyPatch) -> None:
    """A white sleeve over a table whose green and red the lamp's pool saturates: only its blue rises, which
    the light grid takes for a bluer light (burnt seed 20261155, Minotaurus light wood session 00 frame 6:
    0.51 bluer than the smooth light, its level even with it); a shadow, bluer too, is darker."""
    rng = numpy.random.default_rng(24)
    band, empty = learned(rng)
    box = (slice(band.size[1] - 40, None), slice(70, 110))
    frame = empty.copy()
    frame[box] = numpy.clip(empty[box] * numpy.array([1.7, 0.82, 0.8]), 0, 255).astype(numpy.uint8)
    taken_for_light(monkeypatch, band, frame, empty)
    where = in_band(band, box)
    assert changed_share(band, frame, where) >= 0.5
    # Without the test the sleeve matches as table under that light.
    monkeypatch.setattr(warm_module, "COOL_BUMP", 1e9)
    assert changed_share(band, frame, where) < 0.1
    # A shadow there, nearly as much bluer but half as bright, is no such light.
    monkeypatch.setattr(warm_module, "COOL_BUMP", 0.35)
    frame[box] = numpy.clip(empty[box] * numpy.array([0.95, 0.5, 0.5]), 0, 255).astype(numpy.uint8)
    taken_for_light(monkeypatch, band, frame, empty)
    assert changed_share(band, frame, where) < 0.1


def lit_linen(band: Surround, rng: numpy.random.Generator) -> Frame:
    """A pale linen in a lamp's pool, its green and red clipped (B, G, R), the camera's noise on it."""
    shape = (band.size[1], band.size[0], 3)
    level = numpy.array([225.0, 254.0, 256.0])
    return numpy.asarray(numpy.clip(level + rng.normal(0, 1.5, shape), 0, 255), numpy.uint8)


@pytest.mark.parametrize("saturated", [True, False])
def test_a_cream_sleeve_taken_for_a_warmer_light_differs_where_the_table_is_saturated(
    monkeypatch: pytest.MonkeyPatch, saturated: bool
) -> None:
    """A cream sleeve over a linen whose green and red the lamp's pool clips: only its blue falls, which
    the light grid takes for a warmer light no brighter (burnt 20261143 Hornochsen linen session 10 frame
    10); over a table not clipped, a light warmer only is light."""
    rng = numpy.random.default_rng(25)
    band = surround()
    table = lit_linen if saturated else laminate
    empty = table(band, rng)
    band.learn([empty, table(band, rng), table(band, rng)], 14.0, 0.07, 0.05, 0.25)
    box = (slice(band.size[1] - 40, None), slice(70, 110))
    frame = empty.copy()
    frame[box] = numpy.clip(empty[box] * numpy.array([0.84, 1.0, 1.0]), 0, 255).astype(numpy.uint8)
    taken_for_light(monkeypatch, band, frame, empty)
    where = in_band(band, box)
    if not saturated:
        assert changed_share(band, frame, where) < 0.1
        return
    assert changed_share(band, frame, where) >= 0.5
    # The light grid leaning so over a band whose own pixels are the table's (its cells led by pieces on
    # the plane) is no sleeve; unless the band's own pixels need not be redder.
    ratio = numpy.log((frame.astype(numpy.float32) + 4.0) / (empty.astype(numpy.float32) + 4.0))
    light = numpy.asarray(cv2.GaussianBlur(ratio, (0, 0), 4.0), numpy.float32)
    lights = band._warm_light  # the test the leaning light is put to
    assert numpy.count_nonzero(lights.warm(light, ratio) & where) >= 0.5 * numpy.count_nonzero(where)
    unchanged = numpy.zeros_like(ratio)
    assert not numpy.any(lights.warm(light, unchanged) & where)
    monkeypatch.setattr(warm_module, "CREAM_SHARE", 0.0)
    assert numpy.count_nonzero(lights.warm(light, unchanged) & where) >= 0.5 * numpy.count_nonzero(where)
    # Not taken for clipped, the table's blue falling alone is a warmer light there.
    monkeypatch.setattr(warm_module, "SATURATED", 256.0)
    band.learn([empty], 14.0, 0.07, 0.05, 0.25)
    taken_for_light(monkeypatch, band, frame, empty)
    assert changed_share(band, frame, where) < 0.1
