"""`smooth_shades` over a printed cloth whose empty table was learned under a deep shadow (levels 4-11)
and is lit evenly now, some 12 times brighter there: one smooth lift showing the cloth's print, though
the near-black reference leaves its hue and its fixed-offset evenness beyond a shadow's
(`SHADE_LIFTED`, `lifted_shades`); a plain arm over the same shadowed cloth stays an arm."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_shade as shade_module
from companion.vision._surround_shade import shade_measures, smooth_shades

HEIGHT, WIDTH, EDGE = 60, 160, 75


def shadowed_cloth() -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.uint8]]:
    """The reference (a print under a soft-edged deep shadow over its right side, bluer there) and the
    same cloth lit evenly now."""
    rng = numpy.random.default_rng(5)
    cloth = cv2.GaussianBlur(rng.uniform(0, 1, (HEIGHT, WIDTH)).astype(numpy.float32), (0, 0), 1.5)
    cloth = (cloth - cloth.min()) / (cloth.max() - cloth.min())
    lit = numpy.array([70.0, 95.0, 120.0], numpy.float32) * (0.15 + 1.7 * cloth[..., None])
    x = numpy.arange(WIDTH, dtype=numpy.float32)
    shadow = 0.08 + 0.92 / (1.0 + numpy.exp((x - 60.0) / 6.0))
    tint = 1.0 + (numpy.array([1.25, 1.0, 0.8], numpy.float32) - 1.0) * (1.0 - shadow[:, None])
    noise = rng.normal(0, 1.2, (HEIGHT, WIDTH, 3)).astype(numpy.float32)
    reference = numpy.clip(lit * shadow[None, :, None] * tint[None] + noise, 0, 255).astype(numpy.float32)
    frame = numpy.clip(lit + rng.normal(0, 3.0, (HEIGHT, WIDTH, 3)), 0, 255).astype(numpy.uint8)
    return reference, frame


def plain_arm(frame: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """A plain arm, shaded across the limb, over the once-shadowed side."""
    rng = numpy.random.default_rng(6)
    y = numpy.arange(HEIGHT, dtype=numpy.float32)
    shading = 0.8 + 0.2 * numpy.sin(numpy.pi * y / HEIGHT)
    arm = numpy.array([120.0, 150.0, 200.0], numpy.float32) * shading[:, None, None]
    out = frame.copy()
    out[:, EDGE:] = numpy.clip(arm + rng.normal(0, 2.0, (HEIGHT, WIDTH - EDGE, 3)), 0, 255).astype(
        numpy.uint8
    )
    return out


def region() -> tuple[numpy.typing.NDArray[numpy.int32], numpy.typing.NDArray[numpy.bool_]]:
    labels = numpy.zeros((HEIGHT, WIDTH), numpy.int32)
    labels[:, EDGE:] = 1
    return labels, numpy.ones((HEIGHT, WIDTH), bool)


def test_the_scene_defeats_the_shadows_hue_and_evenness() -> None:
    """The lift's hue (near-black reference channels) and fixed-offset evenness are beyond a shadow's:
    without the lifted rule the cloth would stay an arm."""
    reference, frame = shadowed_cloth()
    labels, _ = region()
    inner = cv2.erode(labels.astype(numpy.uint8), numpy.ones((13, 13), numpy.uint8)) > 0
    _, uneven, hue, agreement = shade_measures(frame, reference, labels, inner)[:4]
    assert uneven[1] > shade_module.SHADE_EVEN or hue[1] > shade_module.SHADE_HUE
    assert agreement[1] > shade_module.SHADE_PATTERN_Z


def test_a_cloth_lifted_out_of_a_learned_deep_shadow_is_one_smooth_shade() -> None:
    reference, frame = shadowed_cloth()
    labels, in_band = region()
    assert smooth_shades(frame, reference, labels, 2, in_band, 30.0)[1]


def test_without_the_lifted_rule_it_is_no_shade(monkeypatch: pytest.MonkeyPatch) -> None:
    reference, frame = shadowed_cloth()
    labels, in_band = region()
    monkeypatch.setattr(shade_module, "SHADE_LIFTED", 50.0)
    # (nor the near-black reference's noise allowed for: that alone takes the lift for a shade too)
    monkeypatch.setattr(shade_module, "SHADE_NOISE", 0.0)
    assert not smooth_shades(frame, reference, labels, 2, in_band, 30.0)[1]


def test_a_plain_arm_over_the_shadowed_cloth_is_no_shade() -> None:
    reference, frame = shadowed_cloth()
    labels, in_band = region()
    assert not smooth_shades(plain_arm(frame), reference, labels, 2, in_band, 30.0)[1]
