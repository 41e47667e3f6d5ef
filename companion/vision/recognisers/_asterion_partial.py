"""Asterion: a cell's correlation with each look over some of its pixels only (those the table does not
cover), from the looks' features as `_asterion_window._features` scales them."""

from __future__ import annotations

import math

import numpy
import numpy.typing

from companion.vision.recognisers._asterion_window import _WEIGHTS
from companion.vision.recognisers._lab import FloatArray


def channel_wise(features: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Looks' features (looks, pixels x 3) as (looks x 3, pixels), channel after channel, and their
    squares."""
    looks = numpy.ascontiguousarray(
        features.reshape(len(features), -1, 3).transpose(0, 2, 1).reshape(3 * len(features), -1)
    )
    return looks, looks * looks


def partial_scores(
    features: FloatArray,
    by_channel: tuple[FloatArray, FloatArray],
    view: FloatArray,
    kept: numpy.typing.NDArray[numpy.bool_],
) -> FloatArray:
    """`_scores` over the kept pixels alone: the correlation of the view with each look (`features`,
    `by_channel` their `channel_wise`) there.

    Where the reference took a tile's pixels for the table (a linen as pale as a path), they show
    its neutral grey, as dark as a wall: a crossroads' arm of it read as a junction. Each look's
    channels are as `_features` scaled them; centred over the kept pixels (the view's centring
    there makes the looks' needless in the product, not in their lengths)."""
    count = int(kept.sum())
    picture = numpy.asarray(view, numpy.float32).reshape(-1, 3)
    seen = numpy.zeros_like(picture)
    shown = picture[kept]
    shown = shown - shown.mean(axis=0)
    seen[kept] = shown * (_WEIGHTS / (numpy.sqrt((shown * shown).sum(axis=0)) + 1.0))
    length = math.sqrt(float((seen * seen).sum()))
    if length == 0 or count < 2:
        return numpy.zeros(len(features), numpy.float32)
    products = features @ (seen.ravel() / length)
    # Each look's channels' sums and sums of squares over the kept pixels: two products with the
    # looks channel-wise (numpy's einsum over the looks cost 0.8 ms a cell).
    looks, squared = by_channel
    weights = kept.astype(numpy.float32)
    sums = (looks @ weights).reshape(len(features), 3)
    squares = (squared @ weights).reshape(len(features), 3)
    lengths = numpy.sqrt(numpy.maximum((squares - sums * sums / count).sum(axis=1), 1e-12))
    return numpy.asarray(products / lengths, numpy.float32)
