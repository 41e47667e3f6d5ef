"""Tanz der Hornochsen: reading a tile's number from its digits.

A straightened tile (see _hornochsen_tiles.py, which finds it in its square) has its
ink split into digits (_hornochsen_glyphs.py: tile_glyphs; two blurred into
one shape are cut apart), and each digit is scored by a linear discriminant
learned from generated camera frames (DigitClassifier, _hornochsen_classifier.py) or, for a profile taught
other digits, by correlation with digit templates (DigitTemplates); read_number
takes the number of 1-99 whose digits score best together. The built-in templates and classifier are
shipped beside this module: hornochsen_tiles.json (the built-in tiles' digits,
sharp and blurred) and hornochsen_digits.json (templates and the classifier
learned from a generated hard set), both written by
`python -m companion.vision.training hornochsen`.
"""

from __future__ import annotations

import functools

import cv2
import numpy
import numpy.typing

from companion.games.hornochsen.board import BOARD
from companion.vision.base import Profile, decode_template

# (Re-exported: the training module learns the classifier by these names.)
from companion.vision.recognisers._hornochsen_classifier import SUBCLASSES as SUBCLASSES
from companion.vision.recognisers._hornochsen_classifier import DigitClassifier as DigitClassifier

# (Re-exported as well: the training module reads and learns glyphs by these, and the tile's size is
# checked against the seeds' here.)
from companion.vision.recognisers._hornochsen_glyphs import GLYPH_SIZE as GLYPH_SIZE
from companion.vision.recognisers._hornochsen_glyphs import TILE_MM as TILE_MM
from companion.vision.recognisers._hornochsen_glyphs import Glyph as Glyph
from companion.vision.recognisers._hornochsen_glyphs import normalised as normalised
from companion.vision.recognisers._hornochsen_glyphs import tile_glyphs as tile_glyphs
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers._shipped import (
    ShippedDataError,
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)

GAME = "hornochsen"

MIN_GLYPH_SCORE = 0.7
"""Least correlation of a digit with its best template (sharp digits score above 0.9, blurred ones
above 0.7; a bull's head printed on the board 0.55)."""
JOINED_SCORE = 0.86
"""Least correlation of each half of a shape cut in two (digits blurred together score 0.9 and more; a
cow-pat's print on the board, also cut at a lighter column, 0.85 and less)."""
JUNK_SCORE = 0.45
"""Shapes correlating less than this with every digit are not digits at all and are left out."""


NATS_AS_SCORE = 0.02
"""A digit's score per nat of the classifier's log-likelihood: 0.1 of margin is 5 nats (150 to 1)."""


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
        # The templates and the classifier's pixel weights in one matrix: one product for both.
        rows = [self.glyphs] if classifier is None else [self.glyphs, classifier._pixel_weights]
        self._rows = numpy.ascontiguousarray(numpy.concatenate(rows), numpy.float32)

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

    def all_scores(
        self, glyphs: list[Glyph], raw: bool = False, fits: list[float] | None = None
    ) -> list[tuple[FloatArray, FloatArray]]:
        """scores() of each glyph, in one product for them all (a tile's two digits, or every tile's of a
        frame: numpy's calls cost more than the sums). `raw`: the glyphs' pixels are not normalised yet
        (tile_glyphs' normalise=False), and are normalised here at once. `fits`: extended by each glyph's
        best correlation (see number_of), taken at once."""
        if not glyphs:
            return []
        # (A glyph a row, turned: a column each. numpy.stack's and a column view's per-glyph cost was most
        # of this call's: 0.4 of its 0.9 ms a frame of 70 glyphs.)
        pixels = numpy.ascontiguousarray(numpy.array([glyph.pixels for glyph in glyphs]).T)
        if raw:
            pixels = pixels - pixels.sum(axis=0) / pixels.shape[0]
            norms = numpy.sqrt(numpy.einsum("ij,ij->j", pixels, pixels))
            pixels = numpy.asarray(pixels / numpy.where(norms > 0, norms, 1), numpy.float32)
        # OpenCV's product, not numpy's: numpy's went through BLAS's threads, whose waiting cost this
        # thread 1-4 ms a frame on a loaded machine (cv2.gemm: 0.1 ms, on this thread alone).
        products = numpy.asarray(cv2.gemm(self._rows, pixels, 1.0, None, 0.0), numpy.float32)  # type: ignore[call-overload]
        templates = len(self.glyphs)
        best = numpy.maximum.reduceat(products[:templates], self.starts, axis=0)
        if fits is not None:
            fits.extend(best.max(axis=0).tolist())
        aspects = numpy.array([glyph.aspect for glyph in glyphs], numpy.float32)
        if self.classifier is not None:
            scores = NATS_AS_SCORE * self.classifier.of_products(products[templates:], aspects)
        else:
            scores = best - 0.6 * numpy.abs(numpy.log(aspects[None, :] / self.aspects[:, None]))
        return list(zip(best.T, scores.T, strict=True))

    @classmethod
    def from_profile(cls, profile: Profile, keep_classifier: bool = False) -> DigitTemplates:
        """The profile's templates; the camera classifier too unless the profile was taught other digits
        (`keep_classifier`: even then, see HornochsenRecogniser.read)."""
        names = sorted(name for name in profile.templates if name.startswith("digit:"))
        glyphs = numpy.stack([normalised(from_png(decode_template(profile.templates[n]))) for n in names])
        owners = numpy.array([int(n.split(":")[1]) for n in names], numpy.intp)
        if set(owners.tolist()) != set(range(10)):
            raise ValueError("hornochsen profile: templates for every digit 0-9 are needed")
        aspects = numpy.array([profile.params["digit_aspect"][d] for d in range(10)], numpy.float32)
        # The camera classifier knows the built-in tiles: a profile taught other digits has it moved to them
        # (see DigitClassifier.taught), or reads by its templates (unless `keep_classifier`).
        counts = [int(n) for n in profile.params.get("taught_digits", [])]
        if not any(counts):
            return cls(glyphs, owners, aspects, _camera_classifier())
        if not keep_classifier:
            return cls(glyphs, owners, aspects, None)
        shown = profile.params.get("taught_aspect", profile.params["digit_aspect"])
        taught = {
            d: (from_png(decode_template(profile.templates[f"digit:{d}:taught"])), float(shown[d]), counts[d])
            for d in range(10)
            if counts[d] and f"digit:{d}:taught" in profile.templates and float(shown[d]) > 0
        }
        return cls(glyphs, owners, aspects, _camera_classifier().taught(taught))


TILES_FILE = shipped_path("hornochsen_tiles")
"""The built-in edition's tiles: the colours of their faces, backs, ink and the board's print (Lab), and
each digit's mean glyph at a few blurs ("digit:D:bN", PNG) with its mean width/height."""
CAMERA_DIGITS = shipped_path("hornochsen_digits")
"""What is learned of the built-in tiles as a camera shows them (perspective, lens, blur, noise, JPEG,
warped back to the plane): digit templates ("digit:D:camN": blurred digits look like these more than like
a tile blurred by a plain Gaussian) and the digit classifier."""


@functools.cache
def built_in_templates() -> tuple[dict[str, str], tuple[float, ...]]:
    """The built-in digit templates by name (base64 PNG, see to_png): the drawn tiles' and the camera's;
    and each digit's mean width/height."""
    tiles = load_shipped(TILES_FILE, GAME, ("templates", "digit_aspect"), {"glyph_size": list(GLYPH_SIZE)})
    camera = load_shipped(CAMERA_DIGITS, GAME, ("templates",))
    templates = {**tiles["templates"], **camera["templates"]}
    decoded = decoded_templates(templates, TILES_FILE, GAME)
    owners = {int(name.split(":")[1]) for name in decoded if name.startswith("digit:")}
    unfit = [name for name, image in decoded.items() if image.shape != (GLYPH_SIZE[1], GLYPH_SIZE[0])]
    aspects = tuple(float(a) for a in tiles["digit_aspect"])
    if owners != set(range(10)) or unfit or len(aspects) != 10:
        raise ShippedDataError(
            f"{TILES_FILE} and {CAMERA_DIGITS} need templates of every digit 0-9 at {GLYPH_SIZE} and ten "
            f"aspects; write them afresh with {rewrite_command(GAME)}"
        )
    return templates, aspects


@functools.cache
def _camera_classifier() -> DigitClassifier:
    learned = load_shipped(CAMERA_DIGITS, GAME, ("classifier",))["classifier"]
    try:
        classifier = DigitClassifier.from_json(learned)
    except (KeyError, TypeError, ValueError) as error:
        raise ShippedDataError(
            f"{CAMERA_DIGITS}: the classifier is unreadable ({error!r}); write it afresh with "
            f"{rewrite_command(GAME)}"
        ) from None
    clusters = len(classifier.owners)
    if classifier.weights.shape != (clusters, GLYPH_SIZE[0] * GLYPH_SIZE[1] + 1) or classifier.bias.shape != (
        clusters,
    ):
        raise ShippedDataError(
            f"{CAMERA_DIGITS}: the classifier does not fit glyphs of {GLYPH_SIZE}; write it afresh with "
            f"{rewrite_command(GAME)}"
        )
    return classifier


def read_number(
    tile: FloatArray,
    templates: DigitTemplates,
    least: float = MIN_GLYPH_SCORE,
    joined_least: float | None = None,
    lone_zero_is_print: bool = True,
    whole_levels: bool = False,
) -> tuple[int | None, float, list[tuple[int, float]]]:
    """The tile's number and how sure (its score's margin over the next number); None when it shows none.

    `least`: the least correlation of each of its digits with its templates (see MIN_GLYPH_SCORE);
    `joined_least`: of each half of a shape cut in two (by default JOINED_SCORE). `lone_zero_is_print`: a
    lone digit most like a 0 is a ring of the board's print, no number (else its likeliest of 1-9 is read).
    The digits are read together: the number is the one of 1-99 whose digits score best in all (a
    blurred 8 that looks a little more like a 0 is still read as the 8 of "80", not as "00").
    `whole_levels`: the tile holds whole levels 0-255 only (see tile_glyphs).
    """
    glyphs = tile_glyphs(tile, whole_levels=whole_levels)
    return number_of(glyphs, templates.all_scores(glyphs), least, joined_least, lone_zero_is_print)


def number_of(
    glyphs: list[Glyph],
    scored: list[tuple[FloatArray, FloatArray]],
    least: float = MIN_GLYPH_SCORE,
    joined_least: float | None = None,
    lone_zero_is_print: bool = True,
    fits: list[float] | None = None,
) -> tuple[int | None, float, list[tuple[int, float]]]:
    """read_number of a tile's glyphs, given their scores (DigitTemplates.all_scores: several tiles' glyphs
    may be scored in one product) and, when taken already, each glyph's best correlation (`fits`)."""
    readings = []
    kept: list[tuple[float, float]] = []  # (the kept glyphs' offsets and fits)
    joined_least = JOINED_SCORE if joined_least is None else joined_least
    for place, (glyph, (correlations, scores)) in enumerate(zip(glyphs, scored, strict=True)):
        fit = fits[place] if fits is not None else float(correlations.max())
        if glyph.joined and fit < joined_least:
            return None, 0.0, []  # not two digits after all: a print on the board cut in two
        # Shapes like no digit at all (a corner of the tile's frame line) are not part of the number.
        if fit >= JUNK_SCORE:
            readings.append((correlations, scores))
            kept.append((glyph.offset, fit))
    if len(readings) == 2 and abs(kept[1][0] - kept[0][0]) > PAIR_APART_MM:
        # Too far apart for one number's two digits: the shape fitting a digit worse is a speck beside the
        # face (a felt's fuzz or a cloth's print left in view against its edge: burnt 20261152 read a 1 71
        # and a 5 65).
        del readings[0 if kept[0][1] < kept[1][1] else 1]
    if not 1 <= len(readings) <= 2:
        return None, 0.0, []  # a print on the board or a smudge, not a number
    if len(readings) == 1:
        if lone_zero_is_print and int(numpy.argmax(readings[0][1])) == 0:
            return None, 0.0, []  # a lone ring printed on the board: no tile shows a 0 alone
        totals = readings[0][1][1:]  # 1..9
        first = 1
    else:
        (c1, s1), (c2, s2) = readings
        totals = numpy.asarray((s1[1:, None] + s2[None, :]).ravel(), numpy.float32)  # 10..99
        first = 10
    order = totals.argsort()[::-1]
    best = int(order[0])
    number = first + best
    # The least correlation of the number's digits with their templates (only the best's is looked at).
    fit = float(readings[0][0][number]) if first == 1 else float(min(c1[number // 10], c2[number % 10]))
    if fit < least:
        return None, 0.0, []  # a print on the board or a smudge, not a number
    if not 1 <= number <= BOARD.tiles:
        return None, 0.0, []
    # (The next likeliest numbers' shortfalls in one subtraction, in the scores' float32.)
    next_likeliest = order[1 : ALTERNATIVES + 1]
    shortfalls = (totals[best] - totals[next_likeliest]).tolist()
    alternatives = [
        (first + n, shortfall)
        for n, shortfall in zip(next_likeliest.tolist(), shortfalls, strict=True)
        if first + n <= BOARD.tiles
    ]
    return number, shortfalls[0], alternatives


PAIR_APART_MM = 13.0
"""A number's two digits' middles lie 6-10 mm apart (_hornochsen_lost.PAIR_SPAN_MM; in a window askew or
stretched, up to 12 mm on the dev and burnt sets: at 11, 29 numbers read one digit): two shapes further
apart are no one number's."""
ALTERNATIVES = 3
"""How many next likeliest numbers a reading offers, for mending by the game's rules (hornochsen.py)."""


def to_png(glyph: FloatArray) -> numpy.typing.NDArray[numpy.uint8]:
    """A normalised glyph as an 8-bit image (0.5 grey is zero), for the profile."""
    image = numpy.clip(glyph.reshape(GLYPH_SIZE[1], GLYPH_SIZE[0]) * 255 * 2 + 128, 0, 255)
    return image.astype(numpy.uint8)


def from_png(image: numpy.typing.NDArray[numpy.uint8]) -> FloatArray:
    return numpy.asarray((image.astype(numpy.float32).ravel() - 128) / (255 * 2), dtype=numpy.float32)


def number_fit(scored: list[tuple[FloatArray, FloatArray]], number: int) -> float:
    """How well a number read by number_of from glyphs scored so fits them: the least correlation of its
    digits with their templates (the glyphs number_of left out as no digit left out here too)."""
    readings = [correlations for correlations, _ in scored if float(correlations.max()) >= JUNK_SCORE]
    digits = [int(d) for d in str(number)]
    if len(readings) != len(digits):
        return 0.0
    return float(min(correlations[d] for correlations, d in zip(readings, digits, strict=True)))


def number_score(scored: list[tuple[FloatArray, FloatArray]], number: int) -> float:
    """How much its digits look like those digits to the scoring (the classifier, else the templates): the
    mean score of the number's digits in glyphs scored so, as number_fit picks them (-inf where it finds
    the number's digits not there)."""
    readings = [scores for correlations, scores in scored if float(correlations.max()) >= JUNK_SCORE]
    digits = [int(d) for d in str(number)]
    if len(readings) != len(digits):
        return float("-inf")
    return float(sum(scores[d] for scores, d in zip(readings, digits, strict=True)) / len(digits))
