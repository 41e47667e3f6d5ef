"""The face's grey a glyph window fills the reference's table with (_minotaurus_glyphs.face_level) is
numpy.percentile's, taken by a partition (_percentile): to the last bit, whatever the count."""

from __future__ import annotations

import numpy

from companion.vision.recognisers._minotaurus_glyphs import _percentile, face_level


def test_the_partition_gives_numpy_percentile_to_the_last_bit() -> None:
    rng = numpy.random.default_rng(3)
    for count in [*range(1, 40), 399, 400, 3136]:
        values = rng.integers(0, 256, count).astype(numpy.uint8)
        for percent in (50.0, 80.0, 95.0):
            assert _percentile(values, percent) == numpy.percentile(values, percent)


def test_the_face_level_is_taken_from_the_face_about_the_centre_only() -> None:
    grey = numpy.full((60, 60), 200, numpy.uint8)
    grey[20:40, 20:40] = numpy.arange(400, dtype=numpy.uint8).reshape(20, 20) % 100
    neutral = numpy.zeros((60, 60), numpy.bool_)
    neutral[20:30, 20:40] = True
    kept = grey[30:40, 20:40]
    assert face_level(grey, neutral, (30, 30), False) == numpy.uint8(numpy.percentile(kept, 80.0))
    assert face_level(grey, numpy.ones((60, 60), numpy.bool_), (30, 30), False) is None
