"""Tanz der Hornochsen: reading a tile's number from its digits.

A straightened tile (see hornochsen.py, which finds it in its square) has its
ink split into digits (tile_glyphs; two blurred into one shape are cut apart),
and each digit is scored by a linear discriminant learned from generated camera
frames (DigitClassifier) or, for a profile taught other digits, by correlation
with digit templates (DigitTemplates); read_number takes the number of 1-99
whose digits score best together. The built-in templates are learned from the
renderer's own tiles (built_in_templates) and, with the classifier, from a
generated hard set (camera_glyphs, write_camera_digits: hornochsen_digits.json).
"""

from __future__ import annotations

import base64
import functools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy
import numpy.typing

from companion.games.hornochsen.board import BOARD
from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Profile,
    decode_template,
    encode_template,
)
from companion.vision.recognisers._lab import (
    FloatArray,
    balanced,
    neutral_gains,
    palette_for,
)

TILE_MM = 26.0
"""A tile's side: where its number lies on a straightened tile."""
GLYPH_SIZE = (16, 24)
"""(width, height) a digit is scaled to before it is compared with the templates."""
MIN_GLYPH_SCORE = 0.7
"""Least correlation of a digit with its best template (sharp digits score above 0.9, blurred ones
above 0.7; a bull's head printed on the board 0.55)."""
JOINED_SCORE = 0.86
"""Least correlation of each half of a shape cut in two (digits blurred together score 0.9 and more; a
cow-pat's print on the board, also cut at a lighter column, 0.85 and less)."""
JUNK_SCORE = 0.45
"""Shapes correlating less than this with every digit are not digits at all and are left out."""


def _ink_image(tile_lightness: FloatArray) -> FloatArray | None:
    """0 (face) .. 1 (ink) over a straightened tile, or None when it shows no ink.

    Face and ink levels come from the tile's middle (the number, no edge or board); the
    scale then applies to the whole picture, whatever lies round the tile.
    """
    height, width = tile_lightness.shape
    keep = round((TILE_MM - 4.0) * PLANE_PX_PER_MM) // 2
    middle = tile_lightness[height // 2 - keep : height // 2 + keep, width // 2 - keep : width // 2 + keep]
    ordered = numpy.partition(middle.ravel(), (middle.size // 50, middle.size * 3 // 4))
    face, ink = float(ordered[middle.size * 3 // 4]), float(ordered[middle.size // 50])
    if face - ink < 25:
        return None
    inset = round(1.0 * PLANE_PX_PER_MM)
    inner = tile_lightness[inset:-inset, inset:-inset]
    return numpy.asarray(numpy.clip((face - inner) / (face - ink), 0.0, 1.0), dtype=numpy.float32)


class Glyph(NamedTuple):
    """One digit's shape on a tile."""

    pixels: FloatArray
    """Scaled to GLYPH_SIZE and normalised (mean 0, norm 1)."""
    aspect: float
    """Its box's width/height."""
    joined: bool
    """Cut from a shape of two digits blurred together (see _split_joined)."""


def tile_glyphs(tile_lightness: FloatArray) -> list[Glyph]:
    """The digits on a straightened tile, left to right."""
    inkness = _ink_image(tile_lightness)
    if inkness is None:
        return []
    mask = (inkness > 0.5).astype(numpy.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_height = 0.5 * 11.0 * PLANE_PX_PER_MM
    height, width = mask.shape
    reach = (TILE_MM / 2 - 3.5) * PLANE_PX_PER_MM
    x, y, w, h, area = stats[1:count].T
    # A digit is tall, not a sliver, fills a quarter of its box or more (a tile's frame line, or a wisp of
    # its shadow below a digit, does not), stands in the tile's middle and touches no side (the board or a
    # neighbour round it). (Tested on all the shapes at once: blur and noise leave dozens of specks.)
    digit_like = (
        (min_height <= h)
        & (h < 0.8 * height)
        & (0.2 * h <= w)
        & (w < 0.8 * width)
        & (x > 0)
        & (x + w < width)
        & (y > 0)
        & (y + h < height)
        & (area >= DIGIT_FILL * w * h)
        & (numpy.abs(x + w / 2 - width / 2) < reach)
        & (numpy.abs(y + h / 2 - height / 2) < reach)
    )
    boxes = sorted([[bx, by, bx + bw, by + bh] for bx, by, bw, bh in stats[1:count, :4][digit_like].tolist()])
    merged: list[list[int]] = []
    for box in boxes:  # parts of one digit overlap in x (a broken stroke)
        if merged and box[0] < merged[-1][2] - 2:
            last = merged[-1]
            merged[-1] = [
                min(last[0], box[0]),
                min(last[1], box[1]),
                max(last[2], box[2]),
                max(last[3], box[3]),
            ]
        else:
            merged.append(box)
    split = [
        (part, len(parts) > 1) for box in merged for parts in [_split_joined(inkness, box)] for part in parts
    ]
    glyphs = []
    for (x0, y0, x1, y1), joined in split[:3]:
        patch = inkness[y0:y1, x0:x1]
        glyph = cv2.resize(patch, GLYPH_SIZE, interpolation=cv2.INTER_AREA).astype(numpy.float32)
        glyphs.append(Glyph(normalised(glyph), (x1 - x0) / max(1, y1 - y0), joined))
    return glyphs


DIGIT_FILL = 0.25
"""Least share of its box a digit's shape fills (blurred digits fill half or more; a wisp of shadow or the
tile's frame line below a digit, which would join it, less)."""
JOINED_ASPECT = 1.15
"""A shape this much wider than tall is two digits blurred together (the widest digit, a 0 or 4, is
about 0.75 as wide as tall)."""


VALLEY_SHARE = 0.7
"""The column cut between two joined digits holds at most this share of the ink of each digit's fullest."""


def _split_joined(inkness: FloatArray, box: list[int]) -> list[list[int]]:
    """Two digits blurred into one shape, cut at the column of least ink in its middle; else the box."""
    x0, y0, x1, y1 = box
    if x1 - x0 < JOINED_ASPECT * (y1 - y0):
        return [box]
    columns = inkness[y0:y1, x0:x1].sum(axis=0)
    quarter = (x1 - x0) // 4
    cut = quarter + int(numpy.argmin(columns[quarter:-quarter]))
    # Two digits leave a valley of less ink between them; a blot (a cow-pat) has none.
    if columns[cut] > VALLEY_SHARE * min(float(columns[:cut].max()), float(columns[cut:].max())):
        return [box]
    return [[x0, y0, x0 + cut, y1], [x0 + cut, y0, x1, y1]]


def normalised(glyph: FloatArray) -> FloatArray:
    flat = glyph.ravel() - glyph.mean()
    norm = math.sqrt(float(flat @ flat))
    return numpy.asarray(flat / norm if norm > 0 else flat, dtype=numpy.float32)


CLASSIFIER_ASPECT = 1.0
"""Weight of the log of a glyph's width/height beside its pixels among the classifier's features."""
CLASSIFIER_SHRINK = 0.3
"""Share of the glyph pixels' covariance replaced by its mean variance: a steadier inverse."""
NATS_AS_SCORE = 0.02
"""A digit's score per nat of the classifier's log-likelihood: 0.1 of margin is 5 nats (150 to 1)."""


class DigitClassifier:
    """Linear discriminant analysis of glyphs: each digit a Gaussian, one covariance for all.

    Nearest-template correlation takes a blurred 8 for a 0 or a 6 when one of their templates happens to
    lie closer; the discriminant weighs the pixels that tell digits apart (the 8's waist, the 6's open
    top right) over the ones blur makes alike, learned from thousands of camera glyphs.
    """

    def __init__(self, weights: FloatArray, bias: FloatArray) -> None:
        self.weights = weights  # (10, glyph pixels + 1): the last column weighs the log aspect
        self.bias = bias  # (10,)
        self._pixel_weights = numpy.ascontiguousarray(weights[:, :-1])
        self._aspect_weights = numpy.ascontiguousarray(weights[:, -1]) * CLASSIFIER_ASPECT

    @staticmethod
    def features(pixels: FloatArray, aspect: float) -> FloatArray:
        return numpy.append(pixels, numpy.float32(CLASSIFIER_ASPECT * math.log(aspect)))

    def log_likelihoods(self, pixels: FloatArray, aspect: float) -> FloatArray:
        """Each digit's log-likelihood (nats) for the glyph, up to a constant common to all digits: their
        differences are what tells digits (and numbers) apart."""
        return numpy.asarray(
            self._pixel_weights @ pixels + self._aspect_weights * math.log(aspect) + self.bias, numpy.float32
        )

    @classmethod
    def learn(cls, glyphs: Mapping[int, list[Glyph]]) -> DigitClassifier:
        features = {
            d: numpy.stack([cls.features(g.pixels, g.aspect) for g in found]) for d, found in glyphs.items()
        }
        means = numpy.stack([features[d].mean(axis=0) for d in range(10)]).astype(numpy.float64)
        centred = numpy.concatenate([features[d] - means[d] for d in range(10)]).astype(numpy.float64)
        covariance = centred.T @ centred / len(centred)
        size = len(covariance)
        covariance = (1 - CLASSIFIER_SHRINK) * covariance + CLASSIFIER_SHRINK * numpy.eye(size) * (
            numpy.trace(covariance) / size
        )
        weights = means @ numpy.linalg.inv(covariance)
        bias = -0.5 * numpy.sum(weights * means, axis=1)
        return cls(weights.astype(numpy.float32), bias.astype(numpy.float32))

    def to_json(self) -> dict[str, Any]:
        """The weights as little-endian float32 in base64 (exact, and a fifth of the size of a list)."""
        return {
            "weights_shape": list(self.weights.shape),
            "weights_float32": base64.b64encode(self.weights.astype("<f4").tobytes()).decode("ascii"),
            "bias": self.bias.tolist(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DigitClassifier:
        flat = numpy.frombuffer(base64.b64decode(data["weights_float32"]), "<f4")
        weights = flat.reshape(tuple(data["weights_shape"])).astype(numpy.float32)
        return cls(weights, numpy.asarray(data["bias"], numpy.float32))


class DigitTemplates:
    """Glyph templates (several per digit) and each digit's mean width/height.

    A glyph reads as the digit of the template it correlates best with, less a
    penalty for a width that does not fit the digit (a "1" is narrow).
    """

    def __init__(
        self,
        glyphs: FloatArray,
        owners: numpy.typing.NDArray[numpy.intp],
        aspects: FloatArray,
        classifier: DigitClassifier | None = None,
    ) -> None:
        order = numpy.argsort(owners, kind="stable")
        self.glyphs = numpy.ascontiguousarray(glyphs[order])  # (templates, glyph pixels), rows normalised
        self.owners = owners[order]  # (templates,): the digit of each template, 0 first
        self.starts = numpy.searchsorted(self.owners, numpy.arange(10))
        self.aspects = aspects  # (10,)
        self.classifier = classifier

    def read(self, glyph: FloatArray, aspect: float) -> tuple[int, float, float]:
        """The digit, its correlation with its best template, and the score margin over the next digit."""
        best, scores = self.scores(glyph, aspect)
        order = numpy.argsort(scores)[::-1]
        return int(order[0]), float(best[order[0]]), float(scores[order[0]] - scores[order[1]])

    def scores(self, glyph: FloatArray, aspect: float) -> tuple[FloatArray, FloatArray]:
        """Each digit's correlation with its best template, and its score: the classifier's log-likelihood
        when there is one, else the correlation less a penalty for a width unlike the digit's."""
        best = numpy.maximum.reduceat(self.glyphs @ glyph, self.starts)
        if self.classifier is not None:
            return best, NATS_AS_SCORE * self.classifier.log_likelihoods(glyph, aspect)
        return best, best - 0.6 * numpy.abs(numpy.log(aspect / self.aspects))

    @classmethod
    def from_profile(cls, profile: Profile) -> DigitTemplates:
        names = sorted(name for name in profile.templates if name.startswith("digit:"))
        glyphs = numpy.stack([normalised(from_png(decode_template(profile.templates[n]))) for n in names])
        owners = numpy.array([int(n.split(":")[1]) for n in names], numpy.intp)
        if set(owners.tolist()) != set(range(10)):
            raise ValueError("hornochsen profile: templates for every digit 0-9 are needed")
        aspects = numpy.array([profile.params["digit_aspect"][d] for d in range(10)], numpy.float32)
        # The classifier knows the built-in tiles only: a profile taught other digits reads by its templates.
        taught = any(profile.params.get("taught_digits", []))
        return cls(glyphs, owners, aspects, None if taught else _camera_classifier())


def _shrunk(sprite: Frame, factor: float) -> Frame:
    return numpy.asarray(
        cv2.resize(sprite, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), numpy.uint8
    )


def _tile_lightness(face: Frame) -> FloatArray:
    return numpy.asarray(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), dtype=numpy.float32)


BUILT_IN_BLURS = (0.0, 0.8, 1.3, 1.8, 2.4)
"""The renderer's tiles are learned sharp and blurred by these sigmas (plane pixels), as cameras see them."""


@functools.cache
def built_in_templates() -> tuple[dict[str, tuple[float, ...]], tuple[float, ...]]:
    """Mean glyph per digit and blur ("digit:D:bN"), and mean aspect per digit, from the renderer's tiles."""
    from companion.vision.generate._sprites import SPRITE_PX_PER_MM
    from companion.vision.generate.hornochsen import draw_tile_face

    shrink = PLANE_PX_PER_MM / SPRITE_PX_PER_MM
    sharp = [_tile_lightness(_shrunk(draw_tile_face(n)[0], shrink)) for n in range(1, BOARD.tiles + 1)]
    sums: dict[str, FloatArray] = {}
    counts: dict[str, int] = {}
    aspect_sums, aspect_counts = numpy.zeros(10), numpy.zeros(10)
    for level, sigma in enumerate(BUILT_IN_BLURS):
        for number, tile in enumerate(sharp, start=1):
            seen = numpy.asarray(cv2.GaussianBlur(tile, (0, 0), sigma), numpy.float32) if sigma else tile
            glyphs = tile_glyphs(seen)
            if len(glyphs) != len(str(number)):
                continue  # blurred together: nothing to learn from it
            for digit, (glyph, aspect, _) in zip((int(c) for c in str(number)), glyphs, strict=True):
                name = f"digit:{digit}:b{level}"
                sums[name] = sums[name] + glyph if name in sums else glyph
                counts[name] = counts.get(name, 0) + 1
                aspect_sums[digit] += aspect
                aspect_counts[digit] += 1
    means = {
        name: tuple(normalised((sums[name] / counts[name]).astype(numpy.float32)).tolist()) for name in sums
    }
    if CAMERA_DIGITS.exists():
        learned = json.loads(CAMERA_DIGITS.read_text())["templates"]
        means.update({name: tuple(from_png(decode_template(png)).tolist()) for name, png in learned.items()})
    return means, tuple((aspect_sums / numpy.maximum(aspect_counts, 1)).tolist())


CAMERA_DIGITS = Path(__file__).with_name("hornochsen_digits.json")
"""What is learned of the renderer's tiles as the generator's hard camera shows them (perspective, lens,
blur, noise, JPEG, warped back to the plane): digit templates (blurred digits look like these more than
like a tile blurred by a plain Gaussian) and a digit classifier. Written by write_camera_digits."""
CAMERA_SEED = 3
"""The generated set the camera digits are learned from (not a seed the benchmarks are checked on)."""
CAMERA_CLUSTERS = 12
CAMERA_FRAMES = 600


def camera_glyphs(frames: int = CAMERA_FRAMES, seed: int = CAMERA_SEED) -> dict[int, list[Glyph]]:
    """Generate a hard set and read each face-up tile's digits where they split as the label says."""
    import tempfile

    from companion.vision.generate import generate_recording
    from companion.vision.pipeline import PlaneReader
    from companion.vision.recognisers.hornochsen import GAME, SURFACES, HornochsenRecogniser, find_tile
    from companion.vision.recording import load_recording

    recogniser = HornochsenRecogniser()
    profile = recogniser.default_profile()
    palette = palette_for(profile.colours, SURFACES, washed=False)
    glyphs: dict[int, list[Glyph]] = {d: [] for d in range(10)}
    with tempfile.TemporaryDirectory(prefix="hornochsen-digits-") as scratch:
        folder = Path(scratch) / GAME
        generate_recording(GAME, folder, frames=frames, hard=True, seed=seed)
        recording = load_recording(folder)
        reader = PlaneReader(GAME, recording.options, profile)
        for entry, image in recording.images():
            if image is None or entry.hand or entry.motion or entry.labels is None:
                continue
            _, plane = reader.plane(image)
            if plane is None:
                continue
            plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
            for item_id, label in entry.labels.items():
                if not label.isdigit():
                    continue
                crop = reader.layout.crop(plane, item_id)
                tile = find_tile(crop, palette.classify_bgr(crop))
                found = tile_glyphs(tile) if tile is not None else []
                if len(found) == len(label):
                    for digit, glyph in zip((int(c) for c in label), found, strict=True):
                        glyphs[digit].append(glyph)
    return glyphs


def camera_digit_templates(
    glyphs: Mapping[int, list[Glyph]], seed: int = CAMERA_SEED, clusters: int = CAMERA_CLUSTERS
) -> dict[str, str]:
    """Each digit's glyphs clustered: the cluster means as templates ("digit:D:camN")."""
    cv2.setRNGSeed(seed)
    templates: dict[str, str] = {}
    for digit, found_glyphs in glyphs.items():
        samples = numpy.stack([glyph.pixels for glyph in found_glyphs]).astype(numpy.float32)
        criteria = (cv2.TERM_CRITERIA_MAX_ITER, 30, 0.0)
        _, _, centres = cv2.kmeans(samples, clusters, None, criteria, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
        for n, centre in enumerate(centres):
            glyph = normalised(numpy.asarray(centre, numpy.float32))
            templates[f"digit:{digit}:cam{n}"] = encode_template(to_png(glyph))
    return templates


def write_camera_digits(frames: int = CAMERA_FRAMES, seed: int = CAMERA_SEED) -> Path:
    """Learn the camera digit templates and classifier afresh and write them beside this module."""
    about = (
        "Hornochsen digit templates and classifier learned from a generated hard set; rewrite with: "
        ".venv/bin/python -c "
        "'from companion.vision.recognisers._hornochsen_digits import write_camera_digits; "
        "write_camera_digits()'"
    )
    glyphs = camera_glyphs(frames, seed)
    document = {
        "about": about,
        "frames": frames,
        "seed": seed,
        "templates": camera_digit_templates(glyphs, seed),
        "classifier": DigitClassifier.learn(glyphs).to_json(),
    }
    CAMERA_DIGITS.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    _camera_classifier.cache_clear()
    return CAMERA_DIGITS


@functools.cache
def _camera_classifier() -> DigitClassifier | None:
    if not CAMERA_DIGITS.exists():
        return None
    learned = json.loads(CAMERA_DIGITS.read_text()).get("classifier")
    return DigitClassifier.from_json(learned) if learned else None


def read_number(
    tile: FloatArray, templates: DigitTemplates
) -> tuple[int | None, float, list[tuple[int, float]]]:
    """The tile's number and how sure (its score's margin over the next number); None when it shows none.

    The digits are read together: the number is the one of 1-99 whose digits score best in all (a
    blurred 8 that looks a little more like a 0 is still read as the 8 of "80", not as "00").
    """
    readings = []
    for glyph in tile_glyphs(tile):
        correlations, scores = templates.scores(glyph.pixels, glyph.aspect)
        if glyph.joined and float(correlations.max()) < JOINED_SCORE:
            return None, 0.0, []  # not two digits after all: a print on the board cut in two
        # Shapes like no digit at all (a corner of the tile's frame line) are not part of the number.
        if float(correlations.max()) >= JUNK_SCORE:
            readings.append((correlations, scores))
    if not 1 <= len(readings) <= 2:
        return None, 0.0, []  # a print on the board or a smudge, not a number
    if len(readings) == 1:
        if int(numpy.argmax(readings[0][1])) == 0:
            return None, 0.0, []  # a lone ring printed on the board: no tile shows a 0 alone
        totals = readings[0][1][1:]  # 1..9
        correlations = readings[0][0][1:]
        first = 1
    else:
        (c1, s1), (c2, s2) = readings
        totals = numpy.asarray((s1[1:, None] + s2[None, :]).ravel(), numpy.float32)  # 10..99
        correlations = numpy.minimum(c1[1:, None], c2[None, :]).ravel()
        first = 10
    order = numpy.argsort(totals)[::-1]
    best = int(order[0])
    if correlations[best] < MIN_GLYPH_SCORE:
        return None, 0.0, []  # a print on the board or a smudge, not a number
    number = first + best
    if not 1 <= number <= BOARD.tiles:
        return None, 0.0, []
    alternatives = [
        (first + int(n), float(totals[best] - totals[n]))
        for n in order[1 : ALTERNATIVES + 1]
        if first + int(n) <= BOARD.tiles
    ]
    return number, float(totals[best] - totals[order[1]]), alternatives


ALTERNATIVES = 3
"""How many next likeliest numbers a reading offers, for mending by the game's rules (hornochsen.py)."""


def to_png(glyph: FloatArray) -> numpy.typing.NDArray[numpy.uint8]:
    """A normalised glyph as an 8-bit image (0.5 grey is zero), for the profile."""
    image = numpy.clip(glyph.reshape(GLYPH_SIZE[1], GLYPH_SIZE[0]) * 255 * 2 + 128, 0, 255)
    return image.astype(numpy.uint8)


def from_png(image: numpy.typing.NDArray[numpy.uint8]) -> FloatArray:
    return numpy.asarray((image.astype(numpy.float32).ravel() - 128) / (255 * 2), dtype=numpy.float32)
