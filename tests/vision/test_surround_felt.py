"""A player's shadow over the band while the empty felt was learned, gone since (dev seed 2, Minotaurus
session 06, felt; tests/vision/data/surround/README.md): the lifted felt keeps its texture, a shadow's
change, not an arm. Here and there its excess over the felt came out alike in every channel, as a lamp's
glare's: those specks, taken for glare (_surround_side.py `glare`), left the region differing around them
yet dropped out of its texture test, and the frames at rest were refused as "a hand is over the table".
Only a region mostly glare in the band is light (`GLARE_SHARE`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.surround import Surround
from tests.vision.test_surround import BLUR, LEVEL, SHADOW_MIN

DATA = Path(__file__).parent / "data" / "surround"
ARM_MM = 18.0
"""The reference's least arm width (ReferenceSettings.hand_min_edge_mm)."""


def read(name: str, flags: int = cv2.IMREAD_COLOR) -> numpy.typing.NDArray[numpy.uint8]:
    image = cv2.imread(str(DATA / name), flags)
    assert image is not None, name
    return numpy.asarray(image, numpy.uint8)


def learned() -> Surround:
    band = Surround((472.0, 272.0), (236, 136), 0.5)
    band.learn([read("felt-ref.png")], 14.0, 0.07, 0.05, 0.25)
    return band


@pytest.mark.parametrize("frame", [4, 7])
def test_a_shadow_learned_over_felt_and_gone_is_no_arm(frame: int) -> None:
    band = learned()
    markers = read("felt-markers.png", cv2.IMREAD_GRAYSCALE) > 0
    inside = (read(f"felt-{frame}-changes.png", cv2.IMREAD_GRAYSCALE) > 0).astype(numpy.uint8)
    changed, any_change, outline, texture = band.changed(read(f"felt-{frame}.png"), SHADOW_MIN, BLUR, LEVEL)
    # The lifted felt does differ and runs across the band into the pieces' changes: only its texture,
    # kept, tells it from an arm (hand_check.py `HandCheck.crossed`'s two tests).
    assert band.crossing(changed, inside, ARM_MM, None, markers)
    assert not band.crossing(changed, inside, ARM_MM, None, markers, texture)
    assert not band.crossing(any_change, inside, ARM_MM, outline, markers, texture)
