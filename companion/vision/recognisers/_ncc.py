"""Normalised cross-correlation of many small templates at every small shift, as one product.

Shared by the Minotaurus and Minos recognisers: glyphs are matched against a
few dozen templates within a few pixels of where they should be, which as one
einsum costs far less than as dozens of cv2.matchTemplate calls.
"""

from __future__ import annotations

import numpy
import numpy.typing

FloatArray = numpy.typing.NDArray[numpy.float32]
GreyImage = numpy.typing.NDArray[numpy.uint8]


def unit_rows(rows: FloatArray) -> FloatArray:
    """Each row less its mean, scaled to unit length (a flat row stays zero)."""
    centred = rows - rows.mean(axis=1, keepdims=True)
    norms = numpy.maximum(numpy.linalg.norm(centred, axis=1, keepdims=True), 1e-6)
    return numpy.asarray(centred / norms, numpy.float32)


def template_rows(templates: list[GreyImage]) -> FloatArray:
    """Templates of one shape as unit rows, ready for `scores`."""
    stacked = numpy.array(templates, numpy.float32)
    return unit_rows(stacked.reshape(len(templates), -1))


def scores(window: GreyImage, rows: FloatArray, shape: tuple[int, int]) -> FloatArray:
    """NCC of every template (rows) at every placement inside the window: (placements, templates).

    Placement p is at (p // (window width - template width + 1), p % (...)) in the window.
    """
    patches = numpy.lib.stride_tricks.sliding_window_view(window.astype(numpy.float32), shape)
    flat = unit_rows(patches.reshape(-1, shape[0] * shape[1]))
    # einsum, not @: BLAS would spread this small product over threads, slower than one core alone.
    return numpy.asarray(numpy.einsum("ij,kj->ik", flat, rows), numpy.float32)
