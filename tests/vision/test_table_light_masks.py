"""The light grid's channel tests (`any_above`, `all_within`, `none_above`) are `max3`'s thresholds."""

from __future__ import annotations

import numpy
import pytest

from companion.vision.table_light import _below, all_within, any_above, max3, none_above


def _images() -> list[numpy.typing.NDArray[numpy.float32]]:
    rng = numpy.random.default_rng(7)
    images = [rng.normal(0.0, 0.3, (23, 31, 3)).astype(numpy.float32) for _ in range(4)]
    # Channels at the level itself, just either side of it, at -0.0 and far below (`_cells`' -100).
    edge = numpy.zeros((6, 5, 3), numpy.float32)
    level = numpy.float32(0.25)
    edge[0] = level
    edge[1] = numpy.nextafter(level, numpy.float32(1.0))
    edge[2] = numpy.nextafter(level, numpy.float32(-1.0))
    edge[3, :, 1] = level + 1
    edge[4] = -0.0
    edge[5] = -100.0
    images.append(edge)
    return images


@pytest.mark.parametrize("level", [0.0, 0.25, _below(0.25), -0.1])
def test_channel_tests_are_thresholds_of_the_largest_channel(level: float) -> None:
    for image in _images():
        largest = max3(image)
        above = largest > numpy.float32(level)
        numpy.testing.assert_array_equal(any_above(image, level), above.astype(numpy.float32))
        numpy.testing.assert_array_equal(none_above(image, level), ~above)
        within = all_within(image, level, channels=3)
        assert within.shape == image.shape
        for channel in range(3):
            numpy.testing.assert_array_equal(within[..., channel], (~above).astype(numpy.float32))
        numpy.testing.assert_array_equal(all_within(image, level), (~above).astype(numpy.float32))
