"""`smooth_shades` crops to the box around the regions' part in the band (`CROP_PAD_PX`): over a head's
shadow, an arm of the laminate's hue and a skin's arm, crossing each side of the band, it decides as the
measures over the whole band do."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.vision import _surround_shade as shade_module
from companion.vision._surround_shade import smooth_shades
from companion.vision.hand_check import BAND_SHADOW_MIN
from tests.vision.test_surround import BLUR, LEVEL, edge_pieces
from tests.vision.test_surround_shade import head_shadow, learned, limb
from tests.vision.test_surround_tinted import skin_arm, tinted_shadow


def whole_band(
    frame: numpy.typing.NDArray[numpy.uint8],
    reference: numpy.typing.NDArray[numpy.float32],
    labels: numpy.typing.NDArray[numpy.int32],
    count: int,
    in_band: numpy.typing.NDArray[numpy.bool_],
) -> numpy.typing.NDArray[numpy.bool_]:
    """`smooth_shades` measured over the whole band (a pad wider than it: no crop)."""
    kept = shade_module.CROP_PAD_PX
    shade_module.CROP_PAD_PX = 10**6
    try:
        return smooth_shades(frame, reference, labels, count, in_band, 30.0)
    finally:
        shade_module.CROP_PAD_PX = kept


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
@pytest.mark.parametrize("scene", ["shadow", "tinted", "limb", "skin"])
def test_the_cropped_shades_are_the_whole_bands(scene: str, turn: int) -> None:
    band = learned()
    draw = {
        "shadow": lambda: head_shadow(band, 5),
        "tinted": lambda: tinted_shadow(band, 5),
        "limb": lambda: limb(band, 5, 4),
        "skin": lambda: skin_arm(band, 5),
    }[scene]
    frame = draw()
    if turn:
        # The same scene from another side of the band (the band is wider than tall: flipped, not turned).
        frame = numpy.ascontiguousarray(cv2.flip(frame, {1: 1, 2: 0, 3: -1}[turn]))
    changes = band.changed(frame, BAND_SHADOW_MIN, BLUR, LEVEL)
    m = band.margin
    joined = changes[1].astype(numpy.uint8)
    joined[m:-m, m:-m] = edge_pieces(band)
    count, found = cv2.connectedComponents(joined, connectivity=8)
    labels = numpy.asarray(found, numpy.int32)
    in_band = band._depth < m
    reference = numpy.asarray(band._image, numpy.float32)
    cropped = smooth_shades(frame, reference, labels, count, in_band, 30.0)
    whole = whole_band(frame, reference, labels, count, in_band)
    assert numpy.array_equal(cropped, whole)
    # Both measures alike per region, not only the decision: unrounded, every piece's measures match.
    seen: list[tuple[numpy.typing.NDArray[numpy.float64], ...]] = []
    original = shade_module.shade_measures

    def recorded(
        *args: numpy.typing.NDArray[numpy.float64],
    ) -> tuple[numpy.typing.NDArray[numpy.float64], ...]:
        measures = original(*args)  # type: ignore[arg-type]
        seen.append(measures)
        return measures

    shade_module.shade_measures = recorded  # type: ignore[assignment]
    try:
        smooth_shades(frame, reference, labels, count, in_band, 30.0)
        whole_band(frame, reference, labels, count, in_band)
    finally:
        shade_module.shade_measures = original
    kept = [measures[0] > 0 for measures in seen]
    for first, second in zip(seen[0], seen[1], strict=True):
        assert numpy.allclose(numpy.sort(first[kept[0]]), numpy.sort(second[kept[1]]), rtol=1e-6, atol=1e-9)
