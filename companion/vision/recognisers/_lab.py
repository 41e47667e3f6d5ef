"""Colour prototypes in CIELAB, shared by the Hornochsen, Asterion and Minoa recognisers.

A prototype is an [L, a, b] triple on OpenCV's 8-bit Lab scale. Pixels are
given the label of their nearest prototype, with lightness weighted less than
hue: light varies across a table far more than the colour of a piece does.
Teaching replaces a label's built-in prototypes by the ones seen in the user's
shots (the last few), so one taught edition never drifts back to the defaults.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame, Profile

FloatArray = numpy.typing.NDArray[numpy.float32]
IntArray = numpy.typing.NDArray[numpy.intp]

LIGHTNESS_WEIGHT = 0.35
KEEP_TAUGHT = 12
"""Taught prototypes kept per label (the most recent ones)."""
SAME_COLOUR = 6.0
"""Lab distance under which a taught colour counts as one already kept."""


def to_lab(bgr: Frame) -> FloatArray:
    """An image in 8-bit CIELAB as float32, channels last."""
    return numpy.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB), dtype=numpy.float32)


def bgr_to_lab(bgr: tuple[int, int, int]) -> list[float]:
    pixel = numpy.array([[list(bgr)]], numpy.uint8)
    return [float(v) for v in cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0]]


SHADING = (0.45, 0.6, 0.78, 1.0, 1.2)
"""Each prototype also stands for itself under this much less or more light (shadow, lamp)."""
GLARE = (0.3, 0.5)
"""... and washed this far towards white (a lamp's reflection on a glossy piece)."""


def neutral_gains(plane: Frame, corner_px: int) -> FloatArray:
    """Per-channel gains that make the corner markers' white paper grey again (the camera's colour cast).

    Light level varies across a table, but a colour cast is the same everywhere, so the ratio
    of the channels of known white paper is enough. The median over the four corners ignores
    a corner under glare or a hand.
    """
    height, width = plane.shape[:2]
    side = max(4, min(corner_px, height // 2, width // 2))
    corners = ((0, 0), (0, width - side), (height - side, 0), (height - side, width - side))
    # The four corners at once, their greys summed channel by channel in int32 (exact, as the float32
    # sums were): numpy's calls per corner cost more than their work.
    pixels = numpy.stack([plane[y : y + side : 2, x : x + side : 2].reshape(-1, 3) for y, x in corners])
    greys = pixels[..., 0].astype(numpy.int32) + pixels[..., 1] + pixels[..., 2]
    count = greys.shape[1]
    low, high = count // 10, count * 4 // 5
    ordered = numpy.partition(greys, (low, high), axis=1)
    ratios = []
    for square, grey, dark, light in zip(
        pixels, greys, ordered[:, low].tolist(), ordered[:, high].tolist(), strict=True
    ):
        if dark > 0.5 * light:
            continue  # no black-and-white marker here (covered, or a plane drawn without markers)
        mean = square[grey >= light].astype(numpy.float32).mean(axis=0) + 1.0
        ratios.append(mean.mean() / mean)
    if len(ratios) < 2:
        return numpy.ones(3, numpy.float32)
    gains = numpy.median(numpy.array(ratios), axis=0)
    return numpy.asarray(numpy.clip(gains, 0.7, 1.4), dtype=numpy.float32)


NEUTRAL_TOLERANCE = float(numpy.float32(1e-8 + 1e-5))
"""`numpy.allclose(gains, 1.0)`'s tolerance, as it compares float32 gains (in float32)."""


def is_neutral(gains: FloatArray) -> bool:
    """Whether the gains are all 1 within `numpy.allclose`'s tolerance, exactly as it decides (its
    calls cost 35 us, this 1 us): a gain's difference from 1 is exact in float32 and in float."""
    values: list[float] = gains.tolist()
    return max(abs(gain - 1.0) for gain in values) <= NEUTRAL_TOLERANCE


def balanced(image: Frame, gains: FloatArray) -> Frame:
    """The image with the colour cast removed (see `neutral_gains`)."""
    scaled = cv2.transform(image, numpy.diag(gains).astype(numpy.float32))
    return numpy.asarray(scaled, dtype=numpy.uint8)


def _shaded(proto: Sequence[float], washed: bool) -> list[list[float]]:
    lab = numpy.array([[list(proto)]], numpy.float32).clip(0, 255).astype(numpy.uint8)
    bgr = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR).astype(numpy.float32)
    shaded = [numpy.clip(bgr * k, 0, 255) for k in SHADING]
    if washed:
        shaded += [bgr + g * (255 - bgr) for g in GLARE]
    variants = numpy.concatenate(shaded, axis=1).astype(numpy.uint8)
    return [[float(v) for v in p] for p in to_lab(variants)[0]]


class Palette:
    """Prototypes of several labels, ready to label pixels by the nearest one."""

    def __init__(
        self, colours: Mapping[str, Sequence[Sequence[float]]], labels: Sequence[str], washed: bool = True
    ) -> None:
        """`washed`: prototypes also stand for themselves under glare (not where white itself is a label)."""
        names: list[str] = []
        rows: list[list[float]] = []
        for label in labels:
            for proto in colours.get(label, ()):
                for variant in _shaded(proto, washed):
                    names.append(label)
                    rows.append([variant[0] * LIGHTNESS_WEIGHT, variant[1], variant[2]])
        if not rows:
            raise ValueError(f"no colour prototypes for any of {', '.join(labels)}")
        self.labels = tuple(labels)
        self._owner = numpy.array([self.labels.index(n) for n in names], numpy.intp)
        self._protos = numpy.array(rows, numpy.float32)
        self._lut: IntArray | None = None

    def classify(self, pixels: FloatArray) -> tuple[IntArray, FloatArray]:
        """For each Lab pixel (..., 3): the index into `labels` of its nearest prototype, and the distance."""
        flat = pixels.reshape(-1, 3) * numpy.array([LIGHTNESS_WEIGHT, 1.0, 1.0], numpy.float32)
        dist = ((flat[:, None, :] - self._protos[None, :, :]) ** 2).sum(axis=2)
        best = dist.argmin(axis=1)
        shape = pixels.shape[:-1]
        return self._owner[best].reshape(shape), numpy.sqrt(dist.min(axis=1)).reshape(shape)

    def classify_bgr(self, bgr: Frame) -> IntArray:
        """The label index of each BGR pixel, by a lookup table over 5-bit-per-channel colours."""
        if self._lut is None:
            self._lut = self._build_lut()
        index = (bgr >> 3).astype(numpy.intp)
        return numpy.asarray(self._lut[(index[..., 0] << 10) | (index[..., 1] << 5) | index[..., 2]])

    def _build_lut(self) -> IntArray:
        levels = numpy.arange(32, dtype=numpy.uint8) * 8 + 4
        b, g, r = numpy.meshgrid(levels, levels, levels, indexing="ij")
        cube = numpy.stack([b.ravel(), g.ravel(), r.ravel()], axis=1).reshape(1, -1, 3)
        owners, _ = self.classify(to_lab(numpy.ascontiguousarray(cube)))
        return numpy.asarray(owners.ravel(), dtype=numpy.intp)

    def shares(self, pixels: FloatArray) -> FloatArray:
        """The share of the pixels nearest to each label, in the order of `labels`."""
        owners, _ = self.classify(pixels)
        counts = numpy.bincount(owners.ravel(), minlength=len(self.labels)).astype(numpy.float32)
        return numpy.asarray(counts / max(1, owners.size), dtype=numpy.float32)


@functools.lru_cache(maxsize=16)
def _cached_palette(
    key: tuple[tuple[str, tuple[tuple[float, ...], ...]], ...], labels: tuple[str, ...], washed: bool
) -> Palette:
    return Palette({label: [list(p) for p in protos] for label, protos in key}, labels, washed)


def palette_for(
    colours: Mapping[str, Sequence[Sequence[float]]], labels: Sequence[str], washed: bool = True
) -> Palette:
    """The palette of these colours, built once (its lookup table takes a moment) and then reused."""
    key = tuple(sorted((k, tuple(tuple(float(x) for x in p) for p in v)) for k, v in colours.items()))
    return _cached_palette(key, tuple(labels), washed)


def learn_colour(
    colours: Mapping[str, list[list[float]]],
    taught: Sequence[str],
    label: str,
    groups: Sequence[FloatArray],
) -> tuple[dict[str, list[list[float]]], list[str]]:
    """The colours with the median of each group of Lab pixels (one item each) taught for `label`.

    The first taught prototype of a label replaces its built-in ones; a median close to one
    already kept adds nothing; only the last KEEP_TAUGHT stay. Returns the new colours and
    the new list of taught labels.
    """
    updated = {k: [list(p) for p in v] for k, v in colours.items()}
    kept = updated.get(label, []) if label in taught else []
    for group in groups:
        if group.size == 0:
            continue
        median = [round(float(v), 1) for v in numpy.median(group.reshape(-1, 3), axis=0)]
        if any(sum((a - b) ** 2 for a, b in zip(median, old, strict=True)) < SAME_COLOUR**2 for old in kept):
            continue
        kept = [*kept, median][-KEEP_TAUGHT:]
    if not kept:
        return updated, list(taught)
    updated[label] = kept
    return updated, sorted({*taught, label})


def learn_colours(
    base: Profile, groups: Mapping[str, Sequence[FloatArray]]
) -> tuple[dict[str, list[list[float]]], list[str]]:
    """The base profile's colours with every label's groups of Lab pixels taught (learn_colour), and the
    labels taught so far (the profile's "taught_colours" param)."""
    colours: Mapping[str, list[list[float]]] = base.colours
    taught = list(base.params.get("taught_colours", []))
    for label, group in groups.items():
        colours, taught = learn_colour(colours, taught, label, group)
    return dict(colours), taught
