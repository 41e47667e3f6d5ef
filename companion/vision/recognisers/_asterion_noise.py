"""Asterion: a close pair test asked again with each channel weighed by the cell's own misfit in it.

A pair test (`_asterion_filters._difference_test`) weighs CIELAB's channels the same for every cell
(`_asterion_window.CHANNEL_WEIGHTS`), as if each channel were as noisy in every print and every frame.
They are not: a print drawn otherwise than the built-in drawings misfits one channel (the travel print's
black-outlined chest reads as stone in lightness, its colour plain), a wide lens's blotchy JPEG colour
another. What the model (the light, the mean of both looks, some of their difference) leaves
unexplained in a channel, over the pixels the looks are compared on, measures that channel's misfit in
this cell; `NoiseTest.share` weighs each channel's own estimate of the share by the inverse of it, as
generalised least squares does, on top of the fixed weights (equal misfits: the pair test's share).
"""

from __future__ import annotations

import numpy
import numpy.typing

from companion.vision.recognisers._asterion_window import _WEIGHTS
from companion.vision.recognisers._lab import FloatArray

NOISE_CLOSE = 0.25
"""A pair test deciding by less than this is asked again weighed by the cell's misfits (`NoiseTest`): on the
pipeline's captured planes (dev 2-83 and burnt 20261140-43, 1989 frames) 0.15 read 1809 frames right
against 1811, 0.4 (with a floor of 4) 1803 against 0.25's 1808; ~12 weighed a frame at 0.25."""
MISFIT_FLOOR = 16.0
"""Squared Lab levels added to every channel's misfit per pixel (4 levels of noise): a channel fitting
nearly exactly (a plain colour) does not outweigh the others without end. Frames read right of 1989 as
NOISE_CLOSE: floor 1, 1804; 4, 1808; 16, 1811; 40, 1810; 100, 1809 (fixed weights: 1796)."""


class NoiseTest:
    """A pair test's directions over its window as the columns of one matrix: the light (an offset
    sloping across, shared by the channels), then per channel the mean of both looks and what a little
    more blur changes (less the light; unit), and the test's own residual difference (whose share the
    test gives); all orthogonal within a channel, so that one product gives each's part of the cell."""

    __slots__ = ("columns", "indices", "lights", "squared")

    def __init__(
        self,
        window: numpy.typing.NDArray[numpy.intp],
        sloping: FloatArray,
        test: FloatArray,
        *looks: FloatArray,
    ) -> None:
        """`test` the pair test's filter (pixels interleaved) over its window, `sloping` its light there;
        `looks`: both looks' pictures and what a little more blur changes in their mean (as `channels`)."""
        mine, theirs, blur = looks
        # The cell's pixels there, channel after channel (a cell is flat, pixels interleaved).
        self.indices = 3 * window[None, :] + numpy.arange(3)[:, None]
        # Both looks' sum (its direction is their mean's) and blur's change, less the light.
        rows = numpy.concatenate(
            [mine.take(window, axis=1) + theirs.take(window, axis=1), blur.take(window, axis=1)]
        )
        rows -= (rows @ sloping) @ sloping.T
        both = _unit(rows[0:3])
        softer = _unit(rows[3:6] - (rows[3:6] * both).sum(axis=1, keepdims=True) * both)
        # The filter is the residual difference weighted by its channel's weight squared, over its
        # weighted energy (`_difference_test`): that energy is one over the filter's own, so weighed.
        difference = test.take(self.indices) / _SQUARED[:, None]
        squared = (difference * difference).sum(axis=1)
        energy = max(float(squared @ _SQUARED), 1e-12)
        difference /= energy
        self.squared = [max(float(v) / (energy * energy), 1e-12) for v in squared]
        self.lights = sloping.shape[1]
        # Columns: the light, each channel's mean of both looks, blur's change and difference.
        self.columns = numpy.concatenate([sloping, both.T, softer.T, difference.T], axis=1)

    def share(self, seen: FloatArray) -> float:
        """The share of the difference the cell `seen` (flat, pixels interleaved) shows, as the test's
        `seen @ test` but each channel weighed by its weight squared over its misfit per pixel."""
        there = seen.take(self.indices)  # (3, pixels): Lab's middle left in, explained as light
        total = (there * there).sum(axis=1).tolist()
        parts = (there @ self.columns).tolist()
        lights, count = self.lights, self.indices.shape[1]
        weighed = energy = 0.0
        # Per channel: what the light, the looks' mean and blur explain of its energy there, and its
        # part along the difference (Python's floats: three numbers each, not numpy's overhead).
        for channel, (row, squared, weight) in enumerate(
            zip(parts, self.squared, _SQUARED_WEIGHTS, strict=True)
        ):
            shown = row[lights + 6 + channel]
            explained = sum(v * v for v in row[:lights]) + row[lights + channel] ** 2
            explained += row[lights + 3 + channel] ** 2 + shown * shown / squared
            weight /= max(total[channel] - explained, 0.0) / count + MISFIT_FLOOR
            weighed += weight * shown
            energy += weight * squared
        return weighed / energy


_SQUARED = _WEIGHTS * _WEIGHTS
_SQUARED_WEIGHTS = _SQUARED.tolist()


def _unit(rows: FloatArray) -> FloatArray:
    """Each row over its length (a row of zeros left so)."""
    return numpy.asarray(rows / numpy.sqrt(numpy.maximum((rows * rows).sum(axis=1, keepdims=True), 1e-12)))
