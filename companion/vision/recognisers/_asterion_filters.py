"""Asterion: the filters two looks of a tile are told apart by, and the light fitted where they differ.

A pair test is one dot product with the cell's pixels (`_difference_test`): how much of the difference
from one look to the other the cell shows where they differ, beyond their mean under some light (a gain
and an offset sloping across, `_sloping`) and, for most pairs, beyond a little more or less blur
(`blur_of`). A close call is asked again with the cell moved by up to a pixel (`LinedTest`,
`lined_share`); teaching compares turns of a taught tile by `in_light_of` and `local_lead`.

These are the numerics alone, given pictures and the pixels to compare; where two looks differ (from
the built-in drawings) is in _asterion_pairs, and the tests per pair of looks are built and kept by
_asterion_pair_tests.
"""

from __future__ import annotations

import math

import cv2
import numpy
import numpy.typing

from companion.vision.recognisers._asterion_window import _WEIGHTS, TEMPLATE_PX, channels
from companion.vision.recognisers._lab import FloatArray

_NO_TEST = numpy.zeros(3 * TEMPLATE_PX * TEMPLATE_PX, numpy.float32)
PAIR_SOFTEN_PX = 0.8
"""Looks are compared blurred this much more (template pixels): hard frames blur a wing further than the
templates do, and a sharp difference under-rates it."""


def _difference_test(
    mine: FloatArray,
    theirs: FloatArray,
    window: numpy.typing.NDArray[numpy.intp],
    sloping: FloatArray | None = None,
    blur: FloatArray | None = None,
) -> FloatArray:
    """The filter giving how much of the difference from `mine` to `theirs` (pictures as `channels`)
    a cell shows in the window, beyond their mean under some light (see `PairTests._pair_test`) and,
    given `blur` (`blur_of` their mean, as `channels`), however much more or less blurred it is; over
    the cell's pixels in its own order, channels interleaved (as `_asterion_window._interleaved`)."""
    if sloping is None:
        sloping = _sloping(window)
    # Taken where the looks are compared first, then subtracted and averaged (the same values): not
    # over the whole cell. By `take`: a quarter of fancy indexing's time (pair tests are built inside
    # timed frames, and a cell's partial ones each time).
    mine_there, theirs_there = mine.take(window, axis=1), theirs.take(window, axis=1)
    # The difference, the mean of both looks and what blur changes there, as rows of one array: the
    # light's offset sloping across is taken out of all at once (one product, not one each).
    parts = [theirs_there - mine_there, (mine_there + theirs_there) / 2]
    if blur is not None:
        parts.append(blur.take(window, axis=1))
    rows = numpy.concatenate(parts)
    # What light explains there: an offset sloping across (a lamp's fall-off, the edge of
    # glare), and a gain on the mean of both looks.
    rows = rows - (rows @ sloping) @ sloping.T
    difference, both = rows[0:3], rows[3:6]
    both_squared = numpy.maximum((both * both).sum(axis=1, keepdims=True), 1e-6)
    explained = (difference * both).sum(axis=1, keepdims=True) / both_squared
    residual = difference - explained * both
    if blur is not None:
        residual = _without_blur(residual, rows[6:9], both, both_squared)
    weighted = residual * (_WEIGHTS * _WEIGHTS)[:, None]
    energy = float((weighted * residual).sum())
    # Spread over the whole cell (zero outside the window): one dense product then costs
    # less than picking the window's pixels out of the cell. Written pixel by pixel, channels
    # interleaved, at once: not channel-wise and then copied into that order.
    spread = numpy.zeros((TEMPLATE_PX * TEMPLATE_PX, 3), numpy.float32)
    spread[window] = (weighted / max(energy, 1e-6)).T
    return spread.ravel()


BLUR_EXTRA_PX = 1.0
"""Two looks are told apart beyond how much more (or less) blurred than the templates the cell is: what
blurring the mean of both looks this much more (template pixels) changes is explained away, as light
is. Lenses, focus and distance blur tiles differently (the travel edition on printed cloth, laminate
and gingham, far blurrier than the templates): blur spreads a hidden chest's dark outline and a
prisoner's ring over where two looks differ, and took more of a chest's difference from a corridor than
of a corridor's from a chest (travel hidden chests read as corridors, treasure bends as bends). Not for
a wing or horns (`_asterion_pair_tests.PairTests._pair_test`), nor a frame colour against another
(`colour_lead`: a green frame beside two yellow corners then read yellow). 0.6 reads as well; 1.5 worse."""


def blur_of(picture: FloatArray) -> FloatArray:
    """What blurring a look's picture (as `channels`) BLUR_EXTRA_PX more changes (as `channels`): made
    once per look with the templates; of two looks' mean it is the mean of theirs (blurring is linear)."""
    whole = numpy.ascontiguousarray(picture.T.reshape(TEMPLATE_PX, TEMPLATE_PX, 3), numpy.float32)
    softer = numpy.asarray(cv2.GaussianBlur(whole, (0, 0), BLUR_EXTRA_PX), numpy.float32)
    return channels(softer - whole)


def _without_blur(
    residual: FloatArray, blur: FloatArray, both: FloatArray, both_squared: FloatArray
) -> FloatArray:
    """`residual` (channels, window's pixels) less what `blur` there explains, per channel, once the
    light is taken out of it (its offset sloping across already, then a gain on `both`, the looks' mean
    there without the light, whose squared length per channel is `both_squared`). A first order: what
    a little more blur changes is about proportional to how much more."""
    blur = blur - (blur * both).sum(axis=1, keepdims=True) / both_squared * both
    explained = (residual * blur).sum(axis=1, keepdims=True) / numpy.maximum(
        (blur * blur).sum(axis=1, keepdims=True), 1e-6
    )
    return numpy.asarray(residual - explained * blur, numpy.float32)


def _sloping(
    window: numpy.typing.NDArray[numpy.intp], *apart: numpy.typing.NDArray[numpy.generic] | None
) -> FloatArray:
    """An offset sloping across the window's pixels, and one over each of `apart` given (a chest's
    pixels, the frame colour's share of each pixel), as orthonormal columns (pixels, 3 to 5)."""
    if len(window) < 3:
        return numpy.zeros((len(window), 3), numpy.float32)
    across = (window % TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    down = (window // TEMPLATE_PX).astype(numpy.float32) / TEMPLATE_PX - 0.5
    # Orthonormal columns spanning the same as QR's (three columns: by their Gram matrix's Cholesky
    # factor, a tenth of numpy's QR here); the tests use only the projection, whatever the signs.
    parts = [numpy.ones_like(across), across, down]
    parts += [part.astype(numpy.float32) for part in apart if part is not None]
    columns = numpy.stack(parts, axis=1).astype(numpy.float64)
    return numpy.asarray(columns @ _inverse_cholesky(columns.T @ columns).T, numpy.float32)


def _inverse_cholesky(gram: numpy.typing.NDArray[numpy.float64]) -> numpy.typing.NDArray[numpy.float64]:
    """The inverse of the lower Cholesky factor of a small Gram matrix (3 to 5 square), in Python floats:
    numpy.linalg's cholesky and solve cost 130 us a pair of looks in overhead, built inside timed frames.
    Raises numpy.linalg.LinAlgError as numpy's when the matrix is not positive definite (the pixels on a
    line: no slope to fit)."""
    g = gram.tolist()
    size = len(g)
    factor = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            rest = g[i][j] - sum(factor[i][m] * factor[j][m] for m in range(j))
            if i == j:
                if not rest > 0.0:
                    raise numpy.linalg.LinAlgError("not positive definite")
                factor[i][i] = math.sqrt(rest)
            else:
                factor[i][j] = rest / factor[j][j]
    inverse = [[0.0] * size for _ in range(size)]
    for i in range(size):
        inverse[i][i] = 1.0 / factor[i][i]
        for j in range(i):
            inverse[i][j] = -sum(factor[i][m] * inverse[m][j] for m in range(j, i)) / factor[i][i]
    return numpy.array(inverse, numpy.float64)


def _softened(picture: FloatArray) -> FloatArray:
    return numpy.asarray(
        cv2.GaussianBlur(numpy.ascontiguousarray(picture, numpy.float32), (0, 0), PAIR_SOFTEN_PX),
        numpy.float32,
    )


def in_light_of(view: FloatArray, picture: FloatArray) -> FloatArray:
    """The cell's pixels, (3, pixels), with its light matched to a template's (given as `channels`)."""
    seen, reference = channels(view), picture
    count = seen.shape[1]
    seen_mean = seen.sum(axis=1) / count
    reference_mean = reference.sum(axis=1) / count
    spread = (seen * seen).sum(axis=1) / count - seen_mean * seen_mean
    covariance = (seen * reference).sum(axis=1) / count - seen_mean * reference_mean
    gain = covariance / numpy.maximum(spread, 1e-3)
    return numpy.asarray(seen * gain[:, None] + (reference_mean - seen_mean * gain)[:, None], numpy.float32)


def local_lead(
    adjusted: FloatArray, mine: FloatArray, theirs: FloatArray, where: numpy.typing.NDArray[numpy.intp]
) -> float:
    """How much better `mine` than `theirs` (as `channels`) fits the cell (light matched) where they differ.

    Pixel by pixel where they differ only: a small chest or wing decides, not the whole tile.
    """
    if len(where) < 3 or len(where) > adjusted.shape[1] - 16:
        return 0.0
    seen = adjusted[:, where]
    mine_off = seen - mine[:, where]
    theirs_off = seen - theirs[:, where]
    mine_sq = float((mine_off * mine_off).sum())
    theirs_sq = float((theirs_off * theirs_off).sum())
    return (theirs_sq - mine_sq) / (theirs_sq + mine_sq + 1e-9)


LINED_CLOSE = 0.25
"""A pair test deciding by less than this is asked again with the cell lined up to the pair's own window
(`lined_share`): the cell was lined up by its whole tile, and a wing's window is a few pixels of path."""


class LinedTest:
    """What `lined_share` needs of a pair test: where its window's pixels lie in a cell padded by a pixel,
    moved by up to a whole pixel each way (9, pixels); the model's directions there as the columns of
    one matrix over the window's pixels (channels interleaved), each channel's weight in it: the light
    (an offset sloping across, orthonormal), each channel's mean of both looks less that light (unit),
    and last the test's filter scaled so that its square is what the looks' difference explains; and
    the channels' weights, squared, pixel after pixel."""

    __slots__ = ("indices", "model", "scale", "sign", "weights")

    def __init__(
        self,
        window: numpy.typing.NDArray[numpy.intp],
        sloping: FloatArray,
        mine: FloatArray,
        theirs: FloatArray,
        test: FloatArray,
    ) -> None:
        rows, columns = window // TEMPLATE_PX + 1, window % TEMPLATE_PX + 1
        padded = TEMPLATE_PX + 2
        self.indices = numpy.stack(
            [(rows + dy) * padded + columns + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        )
        both = (mine[:, window] + theirs[:, window]) / 2
        both = both - (both @ sloping) @ sloping.T
        both = both / numpy.maximum(numpy.sqrt((both * both).sum(axis=1, keepdims=True)), 1e-6)
        filter_there = test.reshape(-1, 3)[window]
        # The difference's weighted energy: the filter is its residual, weighted twice, over the energy.
        energy = 1.0 / max(float((filter_there * filter_there / (_WEIGHTS * _WEIGHTS)).sum()), 1e-12)
        lights = sloping.shape[1]
        model = numpy.zeros((len(window), 3, 3 * lights + 4), numpy.float32)
        for channel in range(3):
            weight = float(_WEIGHTS[channel])
            model[:, channel, channel * lights : (channel + 1) * lights] = weight * sloping
            model[:, channel, 3 * lights + channel] = weight * both[channel]
        model[:, :, -1] = filter_there * math.sqrt(energy)
        self.model = model.reshape(3 * len(window), -1)
        self.scale = math.sqrt(energy)
        self.sign = 1.0
        self.weights = numpy.tile(_WEIGHTS * _WEIGHTS, len(window)).astype(numpy.float32)

    def turned_round(self) -> LinedTest:
        """The same test with the looks swapped: its share negated (window, light, mean and the matrix the
        same, shared: what is left unexplained does not depend on the filter's sign)."""
        other = object.__new__(LinedTest)
        other.indices, other.model, other.scale, other.weights = (
            self.indices,
            self.model,
            self.scale,
            self.weights,
        )
        other.sign = -self.sign
        return other


def padded_cell(seen: FloatArray) -> FloatArray:
    """A lined-up cell (flat, pixels interleaved) padded by a pixel each side (its edge repeated), as
    (pixels, 3): what `lined_share` gathers moved windows from. Less Lab's middle (128): an offset is
    light to the model, and float32 sums of squares of smaller numbers lose less."""
    picture = seen.reshape(TEMPLATE_PX, TEMPLATE_PX, 3) - numpy.float32(128.0)
    return numpy.asarray(
        cv2.copyMakeBorder(picture, 1, 1, 1, 1, cv2.BORDER_REPLICATE), numpy.float32
    ).reshape(-1, 3)


def lined_share(padded: FloatArray, lined: LinedTest) -> float:
    """The test's share (less a half, as `seen @ test`) with the cell moved by up to a pixel each way to
    where the pair's model (light, the mean of both looks, some of their difference) leaves least
    unexplained: the tile is lined up by its whole picture, and a pixel off puts a path's edge or a
    prisoner's rim in a wing's window (dev planes: wings missed, and seen on plain paths). Whole pixels
    only: a cell moved by halves is a mean of pixels, smoother, and always left less unexplained (a
    saturated path, showing nothing, then read as winged)."""
    cells = padded[lined.indices].reshape(9, -1)  # (9 moves, pixels x 3)
    products = cells @ lined.model
    energy = (cells * cells) @ lined.weights
    unexplained = energy - (products * products).sum(axis=1)
    return lined.sign * float(products[int(numpy.argmin(unexplained)), -1]) / lined.scale
