"""Tanz der Hornochsen: the digit classifier, a mixture discriminant of glyphs.

Each digit is learned as a few Gaussian clusters of its camera glyphs with one covariance for all
(DigitClassifier.learn, by `python -m companion.vision.training hornochsen`), moved towards a profile's
taught digits (taught), and kept as JSON in hornochsen_digits.json. _hornochsen_digits.py scores glyphs with
it beside the digit templates.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.recognisers._hornochsen_glyphs import Glyph
from companion.vision.recognisers._lab import FloatArray

CLASSIFIER_ASPECT = 1.0
"""Weight of the log of a glyph's width/height beside its pixels among the classifier's features."""
CLASSIFIER_SHRINK = 0.3
"""Share of the glyph pixels' covariance replaced by its mean variance: a steadier inverse."""
SUBCLASSES = 3
"""Each digit is learned as this many clusters of its glyphs (k-means), each a Gaussian of the shared
covariance: a sharp digit, one blurred into a blob and one between are not one Gaussian, and one mean of
them all lies where a blurred 0 meets a blurred 8. (Dev glyphs of seeds 5, 8, 13, numbers read wrong, one
mean -> 2 -> 3 -> 5 -> 8 clusters: 77, 71, 68, 71, 65; held out 2, 55, 77: 20, 17, 14, 16, 13.)"""
SUBCLASS_SEED = 12
"""The clusters' k-means starts from this seed (the classifier is learned the same each time)."""


class DigitClassifier:
    """Mixture discriminant analysis of glyphs: each digit a few Gaussians (SUBCLASSES), one covariance
    for all; a digit's log-likelihood is its likeliest cluster's.

    Nearest-template correlation takes a blurred 8 for a 0 or a 6 when one of their templates happens to
    lie closer; the discriminant weighs the pixels that tell digits apart (the 8's waist, the 6's open
    top right) over the ones blur makes alike, learned from thousands of camera glyphs.
    """

    def __init__(
        self,
        weights: FloatArray,
        bias: FloatArray,
        means: FloatArray | None = None,
        precision: FloatArray | None = None,
        owners: numpy.typing.NDArray[numpy.intp] | None = None,
    ) -> None:
        self.weights = weights  # (clusters, glyph pixels + 1): the last column weighs the log aspect
        self.bias = bias  # (clusters,)
        self.means = means  # (clusters, glyph pixels + 1): each cluster's mean features
        self.precision = precision  # (glyph pixels + 1,) * 2: the shared covariance's inverse
        # The digit of each cluster, ascending (a digit's clusters side by side); one a digit by default.
        self.owners = owners if owners is not None else numpy.arange(len(weights), dtype=numpy.intp)
        self.starts = numpy.searchsorted(self.owners, numpy.arange(10))
        self._single = len(self.owners) == 10
        self._pixel_weights = numpy.ascontiguousarray(weights[:, :-1])
        self._aspect_weights = numpy.ascontiguousarray(weights[:, -1]) * CLASSIFIER_ASPECT

    @staticmethod
    def features(pixels: FloatArray, aspect: float) -> FloatArray:
        return numpy.append(pixels, numpy.float32(CLASSIFIER_ASPECT * math.log(aspect)))

    def log_likelihoods(self, pixels: FloatArray, aspect: float) -> FloatArray:
        """Each digit's log-likelihood (nats) for the glyph, up to a constant common to all digits: their
        differences are what tells digits (and numbers) apart."""
        clusters = self._pixel_weights @ pixels + self._aspect_weights * math.log(aspect) + self.bias
        if not self._single:
            clusters = numpy.maximum.reduceat(clusters, self.starts)
        return numpy.asarray(clusters, numpy.float32)

    def all_log_likelihoods(self, pixels: FloatArray, aspects: FloatArray) -> FloatArray:
        """log_likelihoods of glyphs side by side (`pixels` a column each), a column each."""
        return self.of_products(self._pixel_weights @ pixels, aspects)

    def of_products(self, products: FloatArray, aspects: FloatArray) -> FloatArray:
        """all_log_likelihoods from the glyphs' products with the pixel weights (a product taken with
        other rows: see DigitTemplates.all_scores)."""
        clusters = products + self._aspect_weights[:, None] * numpy.log(aspects)[None, :] + self.bias[:, None]
        if not self._single:
            clusters = numpy.maximum.reduceat(clusters, self.starts, axis=0)
        return numpy.asarray(clusters, numpy.float32)

    @classmethod
    def learn(cls, glyphs: Mapping[int, list[Glyph]], subclasses: int = SUBCLASSES) -> DigitClassifier:
        """The discriminant of the glyphs of each digit, each digit's split into `subclasses` clusters
        (fewer where it has fewer glyphs than clusters)."""
        cv2.setRNGSeed(SUBCLASS_SEED)
        means_of, centred, owners = [], [], []
        for digit in range(10):
            features = numpy.stack([cls.features(g.pixels, g.aspect) for g in glyphs[digit]]).astype(
                numpy.float32
            )
            clusters = min(subclasses, len(features))
            labels = numpy.zeros(len(features), numpy.intp)
            if clusters > 1:
                criteria = (cv2.TERM_CRITERIA_MAX_ITER, 30, 0.0)
                _, found, _ = cv2.kmeans(features, clusters, None, criteria, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
                labels = numpy.asarray(found, numpy.intp).ravel()
            for cluster in range(clusters):
                members = features[labels == cluster].astype(numpy.float64)
                if len(members):
                    means_of.append(members.mean(axis=0))
                    centred.append(members - means_of[-1])
                    owners.append(digit)
        means = numpy.stack(means_of)
        together = numpy.concatenate(centred)
        covariance = together.T @ together / len(together)
        size = len(covariance)
        covariance = (1 - CLASSIFIER_SHRINK) * covariance + CLASSIFIER_SHRINK * numpy.eye(size) * (
            numpy.trace(covariance) / size
        )
        precision = numpy.linalg.inv(covariance)
        return cls._of(means, precision, numpy.array(owners, numpy.intp))

    @classmethod
    def _of(
        cls,
        means: numpy.typing.NDArray[Any],
        precision: numpy.typing.NDArray[Any],
        owners: numpy.typing.NDArray[numpy.intp] | None = None,
    ) -> DigitClassifier:
        weights = means @ precision
        bias = -0.5 * numpy.sum(weights * means, axis=1)
        return cls(
            weights.astype(numpy.float32),
            bias.astype(numpy.float32),
            means.astype(numpy.float32),
            precision.astype(numpy.float32),
            owners,
        )

    def taught(self, glyphs: Mapping[int, tuple[FloatArray, float, int]]) -> DigitClassifier:
        """The discriminant for an edition taught these digits (digit: its taught glyphs' mean pixels and
        width/height, and how many were taught): the taught digit's cluster nearest what was taught moves
        to it, the covariance (how blur, noise and a tile's turn vary a glyph) stays as learned from
        thousands. A few lessons then teach a typeface, where templates of one sitting's blur read another
        table's badly. (A lesson shows the typeface at one sharpness: the digit's clusters of other
        sharpness stay. Moving them all to it read the renderer's travel tiles blurred by 3.2 pixels
        worse, 0.911 -> 0.889 of digits right, where the nearest alone left 0.911.)"""
        if self.means is None or self.precision is None:
            return self
        means = self.means.astype(numpy.float64)
        for digit, (pixels, aspect, count) in glyphs.items():
            shown = self.features(pixels, aspect).astype(numpy.float64)
            mine = numpy.flatnonzero(self.owners == digit)
            near = int(mine[numpy.argmin(numpy.sum((means[mine] - shown) ** 2, axis=1))])
            means[near] = (count * shown + TAUGHT_PRIOR * means[near]) / (count + TAUGHT_PRIOR)
        return self._of(means, self.precision.astype(numpy.float64), self.owners)

    def to_json(self) -> dict[str, Any]:
        """The weights as little-endian float32 in base64 (exact, and a fifth of the size of a list); each
        cluster's digit; the means and the precision's upper triangle too (for teaching: see taught)."""
        data: dict[str, Any] = {
            "weights_shape": list(self.weights.shape),
            "weights_float32": _b64(self.weights.astype("<f4")),
            "bias": self.bias.tolist(),
            "owners": self.owners.tolist(),
        }
        if self.means is not None and self.precision is not None:
            upper = self.precision[numpy.triu_indices(len(self.precision))]
            data |= {
                "means_float32": _b64(self.means.astype("<f4")),
                "precision_float32": _b64(upper.astype("<f4")),
            }
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DigitClassifier:
        flat = numpy.frombuffer(base64.b64decode(data["weights_float32"]), "<f4")
        weights = flat.reshape(tuple(data["weights_shape"])).astype(numpy.float32)
        means = precision = None
        if "means_float32" in data and "precision_float32" in data:
            means = numpy.frombuffer(base64.b64decode(data["means_float32"]), "<f4").reshape(weights.shape)
            size = weights.shape[1]
            upper = numpy.frombuffer(base64.b64decode(data["precision_float32"]), "<f4").astype(numpy.float32)
            precision = numpy.zeros((size, size), numpy.float32)
            precision[numpy.triu_indices(size)] = upper
            precision = precision + numpy.triu(precision, 1).T
        owners = numpy.asarray(data.get("owners", range(len(weights))), numpy.intp)
        if (
            owners.shape != (len(weights),)
            or set(owners.tolist()) != set(range(10))
            or (numpy.diff(owners) < 0).any()
        ):
            raise ValueError("each cluster needs its digit, every digit 0-9, ascending")
        return cls(weights, numpy.asarray(data["bias"], numpy.float32), means, precision, owners)


TAUGHT_PRIOR = 8.0
"""A taught digit's mean is its taught glyphs' with the built-in mean weighing as this many more glyphs."""


def _b64(array: numpy.typing.NDArray[Any]) -> str:
    return base64.b64encode(array.tobytes()).decode("ascii")
