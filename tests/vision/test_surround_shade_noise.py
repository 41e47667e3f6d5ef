"""`smooth_shades` under a deep shadow: a grained wood whose lamp was blocked, its band left at 7-17
levels of 24-41, shows its grain through as surely as any shadow, yet the camera's noise at those levels
turns its log darkening and hue beyond `SHADE_EVEN` and `SHADE_HUE` (bench seed 20261150, Minotaurus and
Minoa dark wood session 01, refused at rest). The limits grow by what the noise makes of them
(`SHADE_NOISE`); a plain dark arm at the same levels shows no grain and stays an arm."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision import _surround_shade as shade_module
from companion.vision._surround_shade import smooth_shades

HEIGHT, WIDTH = 60, 200
WOOD = numpy.array([24.0, 34.0, 41.0], numpy.float32)  # B, G, R of the dark wood as learned


def grain() -> numpy.typing.NDArray[numpy.float32]:
    rng = numpy.random.default_rng(11)
    streaks = cv2.GaussianBlur(
        rng.normal(0, 1, (HEIGHT, WIDTH)).astype(numpy.float32), (0, 0), 6.0, sigmaY=0.8
    )
    return numpy.asarray(1.0 + 0.35 * streaks / streaks.std(), numpy.float32)


def shot(levels: numpy.typing.NDArray[numpy.float32], seed: int) -> numpy.typing.NDArray[numpy.float32]:
    """One camera shot of `levels`: noise of 1.5 levels a channel, rounded to whole levels."""
    noise = numpy.random.default_rng(seed).normal(0, 1.5, levels.shape).astype(numpy.float32)
    return numpy.asarray(numpy.clip(numpy.round(levels + noise), 0, 255), numpy.float32)


def scene(arm: bool = False) -> tuple[numpy.typing.NDArray[numpy.uint8], numpy.typing.NDArray[numpy.float32]]:
    table = grain()[..., None] * WOOD
    reference = shot(table, 1)
    # The lamp blocked: the room's light alone, a third of it and a little bluer.
    now = table * numpy.array([0.32, 0.3, 0.4], numpy.float32)
    if arm:
        # A plain dark sleeve at the shadow's levels, shaded across the limb.
        y = numpy.arange(HEIGHT, dtype=numpy.float32)[:, None, None]
        now = numpy.broadcast_to(
            numpy.array([8.0, 10.0, 15.0], numpy.float32) * (0.85 + 0.3 * numpy.sin(numpy.pi * y / HEIGHT)),
            now.shape,
        )
    return shot(now, 2).astype(numpy.uint8), reference


def measured(arm: bool = False) -> bool:
    frame, reference = scene(arm)
    labels = numpy.ones((HEIGHT, WIDTH), numpy.int32)
    return bool(smooth_shades(frame, reference, labels, 2, numpy.ones((HEIGHT, WIDTH), bool), 30.0)[1])


def test_a_deep_shadow_over_grained_wood_is_one_smooth_shade() -> None:
    assert measured()


def test_without_the_noise_allowed_for_it_is_no_shade(monkeypatch: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(shade_module, "SHADE_NOISE", 0.0)
    assert not measured()


def test_a_plain_dark_arm_at_the_shadows_levels_is_no_shade() -> None:
    assert not measured(arm=True)
