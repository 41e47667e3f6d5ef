"""Minos: the symbol on top of each of the six dice in the tray ("die:0" → "Stern"), numbered left to right.

The dice are found (_minos_dice.py) on a normalised plane as the bright tops of what differs from the
empty tray learned at setup, or without one as bright squares on the tray's felt. Each die's top is cut
out upright by its minimum-area rectangle (which leaves a quarter turn unknown), scaled to a die's size
(tops stand above the plane, so they look larger), and its symbol matched against every symbol's
template in all four quarter turns at small shifts, by normalised cross-correlation over the pixels of
the cut that are no table (a top partly taken for table still reads by the rest): all templates at half
scale, the best few again at plane scale. A top partly seen, or whose symbol matches poorly, was cut
off its middle or turned by an outline that took in a lit side or a scrap: it is looked for again,
turned and moved, by its symbol. A scrap the reference left can be as square and bright as a top: of
more tops than dice, the dice are those whose symbols match best.

Built-in templates are shipped beside this module: minos_normalised.json, the symbols as normalised
planes of generated sessions show them, and minos_faces.json, the built-in dice's faces as drawn, for
planes without a reference (`python -m companion.vision.training minos` writes both); `teach` replaces
a symbol's template by the user's die.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing
from numpy.lib.stride_tricks import sliding_window_view

from companion.seeddata import load_seed
from companion.vision.base import (
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    VisionError,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.recognisers._minos_dice import (
    DICE,
    DIE_MM,
    PLANE_MM,
    TRAY_MM,
    FoundDie,
    GreyImage,
    Mask,
    find_dice,
    find_tops,
    is_normalised,
    neutral_mask,
    shifted,
    upright_cut,
)
from companion.vision.recognisers._ncc import unit_rows
from companion.vision.recognisers._shipped import (
    ShippedDataError,
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)

GAME = "minos"
SYMBOLS: tuple[str, ...] = tuple(load_seed("minos")["dice"]["faces"])
FloatArray = numpy.typing.NDArray[numpy.float32]
__all__ = ["DICE", "DIE_MM", "SYMBOLS", "TRAY_MM", "UNSEEN", "FoundDie", "MinosRecogniser", "find_dice"]
SYMBOL_MM = 14.0
"""Side of the square at a die's centre that is matched (the symbol, without the die's edge)."""
SLACK_PX = 4
"""The symbol is matched this far off the centre found, in every direction."""
UNSEEN = "unseen"
"""The label of a die that is not found (covered, or off the tray)."""
RECENTRE_MM = 6.0
"""A die partly seen, or whose symbol matches poorly, is looked for this far off the centre found (see
SymbolTemplates.posed)..."""
PARTLY_SEEN = 0.95
"""...when less than this share of its cut is seen (a top found in its middle shows nearly all of it;
those found off it on dark-wood dev sessions showed 0.92 and less)..."""
PARTLY_SURE = 0.85
"""...and its best symbol matches worse than this (half the dice partly seen on dev sessions matched
better, and none of those was read otherwise when posed; those that were matched 0.77 at most)..."""
POSE_CHECK_BELOW = 0.75
"""...or, seen whole, when its best symbol matches worse than this (on dev sessions about one die read
right in a hundred matched worse; a star cut 3 mm off its middle by a lit scrap beside it matched 0.68
as an arrow)..."""
POSE_TURN_DEG = 40.0
POSE_STEP_DEG = 15.0
"""...and turned by up to POSE_TURN_DEG (looked at every POSE_STEP_DEG up to it, then half a step either
side of the best: a top whose outline was cut by its lit side lay 40 degrees off on a dark-wood dev
session), and kept where some symbol matches better than where it was found."""
FINALISTS = 3
"""Templates (symbol and quarter turn) matched at plane scale after all were at half scale: on dev
sessions the right symbol was the half scale's best in 1471 dice of 1482."""
NEARLY_SEEN = 0.98
"""A cut seen over this share is matched as if seen whole (see SymbolTemplates.classify)."""
FULL_TOP = 0.97
"""A taught die's symbol square must be seen over this share at least (not partly taken for table)."""


class MinosVisionError(VisionError):
    """Labels the Minos recogniser cannot use."""


def dice_layout(_options: Mapping[str, Any] | None = None) -> Layout:
    x0, y0, x1, y1 = TRAY_MM
    tray = ItemRegion(((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0))
    return Layout(PLANE_MM, {f"die:{n}": tray for n in range(DICE)})


FACES_FILE = shipped_path("minos_faces")
"""The built-in dice's faces by symbol, grey, upright, at plane scale (PNG)."""


@functools.cache
def default_faces() -> dict[str, GreyImage]:
    """Each symbol's middle SYMBOL_MM square of the built-in die face, grey, upright, at plane scale."""
    faces = decoded_templates(
        load_shipped(FACES_FILE, GAME, ("faces",), {"px_per_mm": PLANE_PX_PER_MM})["faces"], FACES_FILE, GAME
    )
    side = round(SYMBOL_MM * PLANE_PX_PER_MM)
    unfit = [symbol for symbol in SYMBOLS if symbol not in faces or min(faces[symbol].shape[:2]) < side]
    if unfit:
        raise ShippedDataError(
            f"{FACES_FILE} lacks faces of at least {side} px for {', '.join(unfit)}; "
            f"write it afresh with {rewrite_command(GAME)}"
        )
    return {symbol: _symbol_square(faces[symbol]) for symbol in SYMBOLS}


def _symbol_square(face: GreyImage) -> GreyImage:
    """The middle SYMBOL_MM square of an upright die face at plane scale."""
    side = round(SYMBOL_MM * PLANE_PX_PER_MM)
    top = (face.shape[0] - side) // 2
    left = (face.shape[1] - side) // 2
    return numpy.asarray(face[top : top + side, left : left + side], numpy.uint8)


NORMALISED_FILE = shipped_path("minos_normalised")
"""The built-in dice's symbols as a normalised plane shows them (light canonical, the die's top scaled to
DIE_MM at plane scale), learned offline from generated sessions on every table kind."""


@functools.cache
def normalised_faces() -> dict[str, GreyImage]:
    """Each symbol's SYMBOL_MM square as read from normalised planes, grey, upright, at plane scale."""
    faces = decoded_templates(
        load_shipped(NORMALISED_FILE, GAME, ("symbols",), {"px_per_mm": PLANE_PX_PER_MM})["symbols"],
        NORMALISED_FILE,
        GAME,
    )
    side = round(SYMBOL_MM * PLANE_PX_PER_MM)
    unfit = [symbol for symbol in SYMBOLS if symbol not in faces or faces[symbol].shape[:2] != (side, side)]
    if unfit:
        raise ShippedDataError(
            f"{NORMALISED_FILE} lacks {side} px squares for {', '.join(unfit)}; "
            f"write it afresh with {rewrite_command(GAME)}"
        )
    return {symbol: faces[symbol] for symbol in SYMBOLS}


@dataclasses.dataclass(frozen=True)
class _Rows:
    """Templates flattened for correlation at every small shift."""

    rows: FloatArray
    """Each template flattened (float32)."""
    squares: FloatArray
    """The rows squared (for the masked correlation's variances)."""
    units: FloatArray
    """The rows less their means, of unit length (for the plain correlation)."""
    shape: tuple[int, int]

    @staticmethod
    def of(images: list[FloatArray]) -> _Rows:
        shape = images[0].shape[:2]
        rows = numpy.array(images, numpy.float32).reshape(len(images), -1)
        return _Rows(rows, rows * rows, unit_rows(rows), (shape[0], shape[1]))

    def each_best(self, cut: FloatArray, seen: FloatArray, which: list[int]) -> FloatArray:
        """As `best`, for a few templates: one OpenCV correlation each costs less than the product over
        every shift's patch (which `best` must first cut out and normalise)."""
        shape = self.shape
        found = numpy.full(len(which), -1.0, numpy.float32)
        if bool(seen.min() >= 1.0):
            for n, row in enumerate(which):
                template = self.rows[row].reshape(shape)
                found[n] = float(cv2.matchTemplate(cut, template, cv2.TM_CCOEFF_NORMED).max())
            return found
        ones = numpy.ones(shape, numpy.float32)
        kept = cut * seen
        counts = cv2.matchTemplate(seen, ones, cv2.TM_CCORR)
        usable = counts >= 0.5 * shape[0] * shape[1]
        if not bool(usable.any()):
            return found
        counts = numpy.maximum(counts, 1.0)
        sum_x = cv2.matchTemplate(kept, ones, cv2.TM_CCORR)
        spread_x = cv2.matchTemplate(kept * cut, ones, cv2.TM_CCORR) - sum_x * sum_x / counts
        for n, row in enumerate(which):
            template = self.rows[row].reshape(shape)
            sum_t = cv2.matchTemplate(seen, template, cv2.TM_CCORR)
            sum_tt = cv2.matchTemplate(seen, self.squares[row].reshape(shape), cv2.TM_CCORR)
            covariance = cv2.matchTemplate(kept, template, cv2.TM_CCORR) - sum_x * sum_t / counts
            variance = spread_x * (sum_tt - sum_t * sum_t / counts)
            found[n] = float((covariance / numpy.sqrt(numpy.maximum(variance, 1e-6)))[usable].max())
        return found

    def best(self, cut: FloatArray, seen: FloatArray, which: slice | list[int] = slice(None)) -> FloatArray:
        """Each template's (of those `which`) best correlation with the cut at any shift, over the pixels
        `seen` only, weighted by how much each is seen (None of the cut's pixels: -1)."""
        shape = self.shape
        if bool(seen.min() >= 1.0):
            # The whole top in view (nearly always): plain correlation, one product.
            return numpy.asarray(_plain_scores(cut, self.units[which], shape).max(axis=0), numpy.float32)
        patches = sliding_window_view(cut, shape).reshape(-1, shape[0] * shape[1])
        masks = sliding_window_view(seen, shape).reshape(-1, shape[0] * shape[1])
        counts = masks.sum(axis=1, keepdims=True)
        usable = counts[:, 0] >= 0.5 * shape[0] * shape[1]
        if not numpy.any(usable):
            return numpy.full(len(self.rows[which]), -1.0, numpy.float32)
        patches, masks, counts = patches[usable], masks[usable], counts[usable]
        kept = patches * masks
        # Sums over the seen pixels only, for every shift (rows) and template (columns): einsum, not @, as
        # BLAS would spread these small products over threads, slower than one core alone.
        sum_x = kept.sum(axis=1, keepdims=True)
        sum_xx = (kept * patches).sum(axis=1, keepdims=True)
        sum_t = numpy.einsum("ij,kj->ik", masks, self.rows[which])
        sum_tt = numpy.einsum("ij,kj->ik", masks, self.squares[which])
        sum_xt = numpy.einsum("ij,kj->ik", kept, self.rows[which])
        covariance = sum_xt - sum_x * sum_t / counts
        variance = (sum_xx - sum_x * sum_x / counts) * (sum_tt - sum_t * sum_t / counts)
        return numpy.asarray(
            (covariance / numpy.sqrt(numpy.maximum(variance, 1e-6))).max(axis=0), numpy.float32
        )


@dataclasses.dataclass(frozen=True)
class SymbolTemplates:
    names: tuple[str, ...]
    """The symbol of each row."""
    fine: _Rows
    """Each symbol in each quarter turn, at plane scale."""
    coarse: _Rows
    """The same at half scale (see classify)."""

    @property
    def rows(self) -> FloatArray:
        return self.fine.rows

    @property
    def shape(self) -> tuple[int, int]:
        return self.fine.shape

    @staticmethod
    def of(faces: Mapping[str, GreyImage]) -> SymbolTemplates:
        names: list[str] = []
        images: list[FloatArray] = []
        for symbol, face in faces.items():
            for quarter in range(4):
                names.append(symbol)
                images.append(numpy.ascontiguousarray(numpy.rot90(face, quarter), numpy.float32))
        return SymbolTemplates(tuple(names), _Rows.of(images), _Rows.of([_halved(image) for image in images]))

    def classify(self, cut: GreyImage, seen: Mask) -> tuple[str, float]:
        symbol, confidence, _ = self.matched(cut, seen)
        return symbol, confidence

    def matched(self, cut: GreyImage, seen: Mask) -> tuple[str, float, float]:
        """The symbol whose template best matches the cut at some small shift, correlated over the pixels
        `seen` only (a die's top partly taken for table shows the neutral background there), and a
        confidence from its lead over the next symbol.

        Every template is matched first at half scale (a sixth of the work, and the symbols differ in
        their large shapes), and the few best of those again at plane scale, which decides."""
        picture, shown = cut.astype(numpy.float32), seen.astype(numpy.float32)
        if NEARLY_SEEN <= float(shown.mean()) < 1.0:
            # A few pixels at the cut's corners past the top's edge: set to the mean of those seen, they
            # add nothing to any correlation's covariance, and the templates' spread over them is
            # negligible, so the plain correlation (half the cost) gives nearly the masked one's scores.
            picture[~seen] = float(picture[seen].mean())
            shown = numpy.ones_like(shown)
        rough = self.coarse.best(_halved(picture), _halved(shown))
        if float(rough.max()) <= -1.0:
            return UNSEEN, 0.0, -1.0
        finalists = sorted(numpy.argsort(-rough)[:FINALISTS].tolist())
        fine = self.fine.each_best(picture, shown, finalists)
        symbol, confidence = self._ranked(fine.tolist(), [self.names[n] for n in finalists], rough.tolist())
        return symbol, confidence, float(fine.max())

    def posed(self, grey: GreyImage, seen: GreyImage, die: FoundDie) -> FoundDie:
        """The die turned by up to POSE_TURN_DEG and moved up to RECENTRE_MM to where some symbol's
        template matches best, at half scale (the pixels not seen set to the seen ones' mean): every
        POSE_STEP_DEG, then half a step either side of the best."""
        best = self._pose_at(grey, seen, die, 0.0)
        for turn in numpy.arange(POSE_STEP_DEG, POSE_TURN_DEG + 1e-6, POSE_STEP_DEG).tolist():
            best = max(best, self._pose_at(grey, seen, die, turn), self._pose_at(grey, seen, die, -turn))
        turn = best[1]
        best = max(
            best,
            self._pose_at(grey, seen, die, turn - POSE_STEP_DEG / 2),
            self._pose_at(grey, seen, die, turn + POSE_STEP_DEG / 2),
        )
        return best[2]

    def _pose_at(
        self, grey: GreyImage, seen: GreyImage, die: FoundDie, turn: float
    ) -> tuple[float, float, FoundDie]:
        """How well some symbol matches the die turned by `turn` at its best shift, the turn, and the die
        so turned and moved."""
        margin = round(RECENTRE_MM * PLANE_PX_PER_MM / 2)
        shape = self.coarse.shape
        turned = dataclasses.replace(die, angle_deg=die.angle_deg + turn)
        small = upright_cut(grey, turned, SYMBOL_MM, margin, zoom=0.5).astype(numpy.float32)
        shown = upright_cut(seen, turned, SYMBOL_MM, margin, beyond=0, zoom=0.5) > 0
        if not bool(shown.any()):
            return -2.0, turn, die
        small[~shown] = float(small[shown].mean())
        found = _plain_scores(small, self.coarse.units, shape)
        at = int(numpy.argmax(found))
        y, x = divmod(at // found.shape[1], small.shape[1] - shape[1] + 1)
        reach = (small.shape[1] - shape[1]) / 2
        return float(found.flat[at]), turn, shifted(turned, 2 * (x - reach), 2 * (y - reach))

    def _ranked(self, scores: list[float], names: list[str], rough: list[float]) -> tuple[str, float]:
        """The best of the finalists' symbols (`scores`, `names`), and a confidence from its lead over the
        next symbol: the next finalist's, else the best half scale score of a symbol not among them."""
        per_symbol: dict[str, float] = {}
        for name, score in zip(names, scores, strict=True):
            per_symbol[name] = max(per_symbol.get(name, -1.0), score)
        ranked = sorted(per_symbol, key=per_symbol.__getitem__, reverse=True)
        others = [score for name, score in zip(self.names, rough, strict=True) if name not in per_symbol]
        runner_up = per_symbol[ranked[1]] if len(ranked) > 1 else max(others, default=-1.0)
        margin = per_symbol[ranked[0]] - runner_up
        return ranked[0], float(min(1.0, max(0.0, 0.5 + margin)))


class MinosRecogniser:
    game = GAME

    def __init__(self) -> None:
        self._templates_for: tuple[Profile | None, bool] | None = None
        self._templates: SymbolTemplates | None = None

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return dice_layout(options)

    def _prepared(self, profile: Profile | None, normalised: bool) -> SymbolTemplates:
        if self._templates is None or self._templates_for != (profile, normalised):
            faces = dict(normalised_faces() if normalised else default_faces())
            if profile is not None:
                faces.update({k: decode_template(v) for k, v in profile.templates.items() if k in SYMBOLS})
            self._templates, self._templates_for = SymbolTemplates.of(faces), (profile, normalised)
        return self._templates

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        neutral = neutral_mask(plane)
        templates = self._prepared(profile, is_normalised(neutral))
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        seen = (~neutral).astype(numpy.uint8)
        read = _dice_read(templates, grey, seen, find_tops(plane, neutral, grey))
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        ids = sorted(layout.items, key=lambda item: int(item.split(":")[1]))
        for n, item in enumerate(ids):
            items[item], confidence[item] = (read[n][1], read[n][2]) if n < len(read) else (UNSEEN, 0.0)
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Take each labelled die's symbol as its template (at the quarter turn nearest upright: a user
        lays the die with its symbol upright, and every quarter turn is matched anyway)."""
        bad = {
            item: label for item, label in labels.items() if item not in layout.items or label not in SYMBOLS
        }
        if bad:
            raise MinosVisionError(f"Minos labels are die:0..5 → one of {', '.join(SYMBOLS)}, not {bad}")
        neutral = neutral_mask(plane)
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        seen = (~neutral).astype(numpy.uint8)
        # The dice as `read` finds them (of more tops than dice, those that bear symbols).
        known = self._prepared(profile, is_normalised(neutral))
        dice = [found[0] for found in _dice_read(known, grey, seen, find_tops(plane, neutral, grey))]
        templates = dict(profile.templates)
        current = dict(normalised_faces() if is_normalised(neutral) else default_faces())
        current.update({k: decode_template(v) for k, v in templates.items() if k in SYMBOLS})
        for item, symbol in labels.items():
            n = int(item.split(":")[1])
            if n >= len(dice):
                raise MinosVisionError(f"only {len(dice)} dice are in view, so there is no {item}")
            upright = dataclasses.replace(dice[n], angle_deg=_nearest_upright(dice[n].angle_deg))
            if numpy.mean(upright_cut(seen, upright, SYMBOL_MM, 0, beyond=0) > 0) < FULL_TOP:
                raise MinosVisionError(
                    f"the top of {item} is not all in view (part of it looks like the empty table): "
                    "lay the die nearer the middle of the tray"
                )
            # Centred and turned on the symbol as the template it replaces shows it: a cut a pixel or two
            # off takes in the die's edge, which then matches the edges of other symbols' dice.
            cut = upright_cut(grey, upright, SYMBOL_MM, SLACK_PX).astype(numpy.float32)
            window, _ = aligned_symbol(cut, current[symbol].astype(numpy.float32))
            templates[symbol] = encode_template(numpy.clip(window + 0.5, 0, 255).astype(numpy.uint8))
        return dataclasses.replace(profile, templates=templates, shots=profile.shots + 1)


def _dice_read(
    templates: SymbolTemplates, grey: GreyImage, seen: GreyImage, tops: list[FoundDie]
) -> list[tuple[FoundDie, str, float, float]]:
    """The dice among the tops, left to right, each with its symbol, the confidence in it and how well
    it matched. More tops than dice: a scrap as square and bright as a top bears no symbol, so the dice
    are the tops whose symbols match best."""
    read = [(die, *_read_die(templates, grey, seen, die)) for die in tops]
    if len(read) > DICE:
        read = sorted(read, key=lambda found: -found[3])[:DICE]
    return sorted(read, key=lambda found: found[0].centre_px[0])


def _read_die(
    templates: SymbolTemplates, grey: GreyImage, seen: GreyImage, die: FoundDie
) -> tuple[str, float, float]:
    """The die's symbol, the confidence in it and how well it matched."""
    visible = upright_cut(seen, die, SYMBOL_MM, SLACK_PX, beyond=0) > 0
    found = templates.matched(upright_cut(grey, die, SYMBOL_MM, SLACK_PX), visible)
    partial = float(visible.mean()) < PARTLY_SEEN
    if found[2] < (PARTLY_SURE if partial else POSE_CHECK_BELOW):
        # No symbol matches well, or the top is partly taken for table (or cut by the plane's edge) or
        # grown by a lit side or a scrap beside it: its outline, and so the cut, is off its middle or
        # turned. The symbol itself tells the top's pose.
        posed = templates.posed(grey, seen, die)
        shown = upright_cut(seen, posed, SYMBOL_MM, SLACK_PX, beyond=0) > 0
        again = templates.matched(upright_cut(grey, posed, SYMBOL_MM, SLACK_PX), shown)
        if again[2] > found[2]:
            found = again
    return found


def _plain_scores(image: FloatArray, units: FloatArray, shape: tuple[int, int]) -> FloatArray:
    """The correlation of every template (`units`: less their means, of unit length) with the image at
    every shift: (shifts, templates), shift p at (p // (image width - template width + 1), p % ...).
    The templates' means are zero, so the patches need not lose theirs for the product: each product
    is divided by its patch's spread instead (cheaper than normalising every patch)."""
    size = shape[0] * shape[1]
    patches = sliding_window_view(image, shape).reshape(-1, size)
    # einsum, not @: BLAS would spread these small products over threads, slower than one core alone.
    products = numpy.einsum("ij,kj->ik", patches, units)
    sums = patches.sum(axis=1)
    spread = numpy.einsum("ij,ij->i", patches, patches) - sums * sums / size
    return numpy.asarray(products / numpy.sqrt(numpy.maximum(spread, 1e-6))[:, None], numpy.float32)


def _halved(image: FloatArray) -> FloatArray:
    """The image at half scale (each pixel the mean of four)."""
    return numpy.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), numpy.float32)


def aligned_symbol(cut: FloatArray, face: FloatArray) -> tuple[FloatArray, float]:
    """The window of the cut (wider than `face` on every side) that best matches `face` in some quarter
    turn, turned back as `face` stands, and how well it matched (correlation)."""
    side = face.shape[0]
    windows = sliding_window_view(cut, (side, side)).reshape(-1, side * side)
    windows = windows - windows.mean(axis=1, keepdims=True)
    windows /= numpy.maximum(numpy.linalg.norm(windows, axis=1, keepdims=True), 1e-6)
    best: tuple[float, int, int] = (-2.0, 0, 0)
    for quarter in range(4):
        turned = numpy.rot90(face, quarter).ravel()
        turned = turned - turned.mean()
        turned /= max(float(numpy.linalg.norm(turned)), 1e-6)
        found = windows @ turned
        at = int(numpy.argmax(found))
        if found[at] > best[0]:
            best = (float(found[at]), quarter, at)
    score, quarter, at = best
    y, x = divmod(at, cut.shape[1] - side + 1)
    window = cut[y : y + side, x : x + side]
    return numpy.ascontiguousarray(numpy.rot90(window, -quarter), numpy.float32), score


def _nearest_upright(angle_deg: float) -> float:
    """minAreaRect's angle turned by quarter turns to the one nearest zero (the die is laid upright)."""
    return ((angle_deg + 45.0) % 90.0) - 45.0


register_recogniser(GAME, MinosRecogniser)
