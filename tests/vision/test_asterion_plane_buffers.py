"""Asterion: the shrunk plane written into kept buffers is the shrunk plane made afresh, frame after frame."""

from __future__ import annotations

import numpy

from companion.vision.recognisers._asterion_grid import PlaneBuffers, SmallPlane
from companion.vision.recognisers.asterion import asterion_layout


def _arrays(small: SmallPlane) -> list[numpy.typing.NDArray[numpy.generic]]:
    return [small.bgr, small.grey, small.sums[0], small.sums[1], small.table_sums]


def test_kept_buffers_give_the_fresh_planes_arrays_each_frame() -> None:
    # Each frame overwrites the last one's arrays: every array of the shrunk plane must be written
    # again (a stale one, e.g. the table's integral left from the frame before, would differ here).
    random = numpy.random.default_rng(11)
    buffers = PlaneBuffers()
    sizes = [asterion_layout(9, 7).plane_size_px()] * 3 + [asterion_layout(5, 5).plane_size_px()]
    for frame, (width, height) in enumerate(sizes):
        plane = random.integers(0, 256, (height, width, 3), dtype=numpy.uint8)
        # The table's neutral grey over part of it, so its integral image is not all zeros.
        plane[: height // (frame + 2)] = 128
        fresh, kept = SmallPlane.of(plane), SmallPlane.of(plane, buffers)
        for mine, theirs in zip(_arrays(kept), _arrays(fresh), strict=True):
            assert mine.dtype == theirs.dtype
            assert numpy.array_equal(mine, theirs)
        assert int(kept.table_sums[-1, -1]) > 0
