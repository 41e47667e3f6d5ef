"""A lamp turned far down since the empty table was learned (Minotaurus dev seed 14, printed session 12
frame 12: the band at 7 levels of its reference's 35): the camera's noise, a couple of grey levels of the
frame's own, moves the darkening five times as far as it would at the reference's light, and speckled the
band with steps steep enough for an arm's outline; chained across the band into the plane's changes, they
were refused as a hand at rest. An outline steps beyond the noise at the light now (`Differs.step_floor`);
a dark sleeve's side in the same dim light still does."""

from __future__ import annotations

import numpy
import pytest

from companion.vision import _surround_compare as compare
from companion.vision._surround_compare import side_differs, side_rest
from companion.vision.hand_check import BAND_SHADOW_MIN
from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, surround

DIM = 0.2
"""The light now against the reference's."""
NOISE = 3.0
"""The camera's noise now (grey levels, one sigma)."""
SLEEVE = 0.1
"""A black sleeve's level against the table's."""


def cloth(band: Surround, seed: int) -> numpy.typing.NDArray[numpy.uint8]:
    """A dark, plain cloth (35 levels, a faint weave), with the camera's noise."""
    width, height = band.size
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    weave = (numpy.sin(x / 1.5) * numpy.sin(y / 1.5))[..., None]
    image = numpy.array([38, 35, 31], numpy.float32) * (1.0 + 0.08 * weave)
    noise = numpy.random.default_rng(seed).normal(0, 1.0, image.shape)
    return numpy.asarray(numpy.clip(numpy.round(image + noise), 0, 255), numpy.uint8)


def learned() -> Surround:
    band = surround()
    band.learn([cloth(band, 1), cloth(band, 2)], 14.0, 0.07, 0.05, 0.25)
    return band


def outlines(band: Surround, sleeve: bool) -> tuple[int, int]:
    """The first side's outline pixels in the band at `DIM` of the reference's light, with the camera's
    noise (`NOISE`; with `sleeve`, a black sleeve (`SLEEVE`) over the side's far half): over
    the side's near half and over its middle, where the sleeve's side lies."""
    reference = numpy.asarray(band._image, numpy.float32)
    frame = reference * DIM
    side = band._sides[0]
    now = band._gather(numpy.asarray(frame, numpy.float32))[0]
    rows = now.shape[1]
    if sleeve:
        now[:, rows // 2 :] *= numpy.float32(SLEEVE)
    noise = numpy.random.default_rng(7).normal(0, NOISE, now.shape)
    now = numpy.clip(numpy.round(now + noise), 0, 255).astype(numpy.uint8)
    gain = numpy.full(now.shape, DIM, numpy.float32)
    overall = numpy.full(3, DIM, numpy.float32)
    state = side_differs(side, now, gain, BLUR, LEVEL, overall, band._noise, band.margin)
    _changed, outline, _texture = side_rest(side, state, BAND_SHADOW_MIN, BLUR, LEVEL)
    outline &= side.in_band
    middle = slice(rows // 2 - 3, rows // 2 + 3)
    return int(numpy.count_nonzero(outline[:, : rows // 2 - 8])), int(numpy.count_nonzero(outline[:, middle]))


def test_the_cameras_noise_in_a_dim_frame_is_no_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    band = learned()
    near, _ = outlines(band, sleeve=False)
    assert near <= 2
    # With the reference's noise alone (`Side.steep_step`) the speckle was outline.
    monkeypatch.setattr(compare, "STEP_NOISE", 0.0)
    near, _ = outlines(band, sleeve=False)
    assert near >= 20


def test_a_dark_sleeves_side_in_that_light_is_an_outline() -> None:
    band = learned()
    near, middle = outlines(band, sleeve=True)
    assert near <= 2
    assert middle >= band.margin
