"""Minotaurus cell prototypes: labelled feature vectors a cell is classified against (nearest per label),
the ones shipped for raw and for normalised planes, and how training shrinks samples to them.

Apart from minotaurus.py, which had grown past a few screens; the cell features themselves stay there.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.vision.recognisers._shipped import load_shipped, shipped_path

GAME = "minotaurus"
COLOUR_FEATURES = [1, 2, 4, 5]
"""The features that are the cell's hue (a, b and their differences from the table's): a face's lightness
is the light's and the edition's as much as its colour's (a glare washes a pale green towards white)."""


@dataclasses.dataclass(frozen=True)
class Prototypes:
    labels: tuple[str, ...]
    owner: numpy.typing.NDArray[numpy.intp]
    vectors: numpy.typing.NDArray[numpy.float32]

    @functools.cached_property
    def colours(self) -> Prototypes:
        """The face-up labels' prototypes, their hue features only (COLOUR_FEATURES)."""
        faces = numpy.isin(
            self.owner, [n for n, label in enumerate(self.labels) if label not in ("empty", "down")]
        )
        return _colour_prototypes(self.labels, self.owner[faces], self.vectors[faces][:, COLOUR_FEATURES])

    @staticmethod
    def of(table: Mapping[str, list[list[float]]]) -> Prototypes:
        labels = tuple(sorted(table))
        owner = [labels.index(label) for label in labels for _ in table[label]]
        vectors = [vector for label in labels for vector in table[label]]
        return Prototypes(labels, numpy.array(owner, numpy.intp), numpy.array(vectors, numpy.float32))

    def classify(
        self, features: numpy.typing.NDArray[numpy.float32], barred: tuple[str, ...] | str = ()
    ) -> tuple[list[str], list[float]]:
        """Nearest prototype's label per row (never `barred`), with a confidence from how much nearer it is
        than the next."""
        distances = numpy.sqrt(((features[:, None, :] - self.vectors[None, :, :]) ** 2).sum(axis=2))
        # Nearest prototype of each label (prototypes are grouped by label, in label order).
        starts = numpy.flatnonzero(numpy.r_[True, self.owner[1:] != self.owner[:-1]])
        per_label = numpy.minimum.reduceat(distances, starts, axis=1)
        for label in (barred,) if isinstance(barred, str) else barred:
            if label in self.labels:
                per_label[:, self.labels.index(label)] = numpy.inf
        if per_label.shape[1] == 1:
            return [self.labels[int(self.owner[0])]] * len(features), [1.0] * len(features)
        nearest_two = numpy.partition(per_label, 1, axis=1)[:, :2]
        best = per_label.argmin(axis=1)
        confidence = nearest_two[:, 1] / (nearest_two.sum(axis=1) + 1e-6)
        return [self.labels[int(self.owner[starts[b]])] for b in best.tolist()], confidence.tolist()


def _colour_prototypes(
    labels: tuple[str, ...],
    owner: numpy.typing.NDArray[numpy.intp],
    vectors: numpy.typing.NDArray[numpy.float32],
) -> Prototypes:
    kept = sorted(set(owner.tolist()))
    renumber = {old: new for new, old in enumerate(kept)}
    owned = numpy.array([renumber[o] for o in owner.tolist()], numpy.intp)
    return Prototypes(tuple(labels[o] for o in kept), owned, vectors)


def cluster_prototypes(
    samples: Mapping[str, list[numpy.typing.NDArray[numpy.float32]]], per_label: int
) -> dict[str, list[list[float]]]:
    """Each label's feature rows shrunk to at most `per_label` prototypes (k-means centres, fixed seed)."""
    table: dict[str, list[list[float]]] = {}
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
    for label, rows in samples.items():
        data = numpy.array(rows, numpy.float32)
        if len(data) > per_label:
            cv2.setRNGSeed(1)
            _, _, centres = cv2.kmeans(data, per_label, None, criteria, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
            data = numpy.asarray(centres, numpy.float32)
        table[label] = [[round(float(v), 2) for v in row] for row in data]
    return table


PROTOTYPES_FILE = shipped_path("minotaurus_prototypes")
"""The built-in cell prototypes, learned offline from generated planes (companion.vision.training.minotaurus):
learning them takes seconds of CPU (more on a Pi), too long to do when a game starts."""


@functools.cache
def default_prototypes() -> dict[str, list[list[float]]]:
    """The built-in cell prototypes for planes as the camera sees them (no reference), as shipped."""
    shipped: dict[str, list[list[float]]] = load_shipped(PROTOTYPES_FILE, GAME, ("prototypes",))["prototypes"]
    return shipped


NORMALISED_FILE = shipped_path("minotaurus_normalised")
"""The built-in cell prototypes for normalised planes (table pixels neutral, light canonical), learned
offline from generated sessions on every table kind, each normalised against its empty area."""


@functools.cache
def normalised_prototypes() -> dict[str, list[list[float]]]:
    """The built-in cell prototypes for normalised planes, as shipped."""
    shipped: dict[str, list[list[float]]] = load_shipped(NORMALISED_FILE, GAME, ("prototypes",))["prototypes"]
    return shipped
