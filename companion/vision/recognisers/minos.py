"""Minos: the symbol on top of each of the six dice in the tray ("die:0" → "Stern"), numbered left to right.

The dice are found as bright squares on the dark tray: a top-hat filter (the
image less its opening by a square larger than a die) keeps what is small
and bright whatever the light across the tray, Otsu's threshold splits it,
and blobs of a die's size and squareness are the dice. Each die is cut out
upright by its minimum-area rectangle (which leaves a quarter turn unknown)
and its symbol matched against every symbol's template in all four quarter
turns, by normalised cross-correlation.

Built-in templates are the built-in dice's faces, shipped as minos_faces.json
(`python -m companion.vision.training minos` writes it); `teach` replaces a
symbol's template by the user's die (shown with the symbol upright).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

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
from companion.vision.recognisers._ncc import GreyImage, scores, template_rows
from companion.vision.recognisers._shipped import (
    ShippedDataError,
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)

GAME = "minos"
SYMBOLS: tuple[str, ...] = tuple(load_seed("minos")["dice"]["faces"])
DICE = 6
PLANE_MM = (280.0, 180.0)
TRAY_MM = (40.0, 20.0, 240.0, 160.0)
"""The tray's inside (x0, y0, x1, y1), clear of the corner markers: the dice lie in it."""
DIE_MM = 18.0
SYMBOL_MM = 14.0
"""Side of the square at a die's centre that is matched (the symbol, without the die's edge)."""
COARSE_PX_PER_MM = 1.0
SEARCH_BEYOND_TRAY_MM = 8.0
"""Dice are looked for this far beyond the tray's inside too (the lens bends the edges a little)."""
SLACK_PX = 2
UNSEEN = "unseen"
"""The label of a die that is not found (covered, or off the tray)."""


class MinosVisionError(VisionError):
    """Labels the Minos recogniser cannot use."""


def dice_layout(_options: Mapping[str, Any] | None = None) -> Layout:
    x0, y0, x1, y1 = TRAY_MM
    tray = ItemRegion(((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0))
    return Layout(PLANE_MM, {f"die:{n}": tray for n in range(DICE)})


@dataclasses.dataclass(frozen=True)
class FoundDie:
    centre_px: tuple[float, float]
    """In plane pixels."""
    angle_deg: float


def find_dice(plane: Frame) -> list[FoundDie]:
    """The dice on the tray, left to right."""
    grey = cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY)
    factor = COARSE_PX_PER_MM / PLANE_PX_PER_MM
    small = cv2.resize(grey, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    x0, y0, x1, y1 = (round(v * COARSE_PX_PER_MM) for v in TRAY_MM)
    reach = round(SEARCH_BEYOND_TRAY_MM * COARSE_PX_PER_MM)
    x0, y0 = max(0, x0 - reach), max(0, y0 - reach)
    tray = small[y0 : y1 + reach, x0 : x1 + reach]
    side = round(DIE_MM * 1.6 * COARSE_PX_PER_MM) | 1
    bright = cv2.morphologyEx(tray, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    level, _ = cv2.threshold(bright, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Half Otsu's level: a die under glare stands out less than the others, but far more than the felt.
    found = _die_blobs(numpy.asarray(bright, numpy.uint8), max(0.5 * level, 15.0), split=True)
    best = sorted(found, key=lambda pair: -pair[0])[:DICE]
    offset = ((1 / factor - 1) / 2, (1 / factor - 1) / 2)
    dice = [
        FoundDie(((x + x0) / factor + offset[0], (y + y0) / factor + offset[1]), angle)
        for _, ((x, y), angle) in best
    ]
    return sorted(dice, key=lambda die: die.centre_px[0])


def _die_blobs(
    bright: GreyImage, level: float, *, split: bool
) -> list[tuple[float, tuple[tuple[float, float], float]]]:
    """Blobs brighter than `level` of a die's size and squareness: (squareness, ((x, y), angle)).

    A blob too big for a die is often a die under glare merged with the glare's bright streak; the die
    is brighter still, so the blob is split at its own Otsu level (once).
    """
    mask = (bright > level).astype(numpy.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    die_area = (DIE_MM * COARSE_PX_PER_MM) ** 2
    found: list[tuple[float, tuple[tuple[float, float], float]]] = []
    for contour in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if split and w * h >= 1.8 * die_area:
            x, y, width, height = cv2.boundingRect(contour)
            part = numpy.where(
                mask[y : y + height, x : x + width] > 0, bright[y : y + height, x : x + width], 0
            )
            own, _ = cv2.threshold(part.astype(numpy.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            for square, ((px, py), turn) in _die_blobs(
                part.astype(numpy.uint8), max(own, level), split=False
            ):
                found.append((square, ((px + x, py + y), turn)))
            continue
        if not (0.45 * die_area < w * h < 1.8 * die_area) or max(w, h) > 1.5 * min(w, h):
            continue
        square = abs(cv2.contourArea(contour)) / max(w * h, 1e-6)
        if square >= 0.6:
            found.append((square, ((cx, cy), float(angle))))
    return found


def upright_die(grey: GreyImage, die: FoundDie, margin_px: int) -> GreyImage:
    """The square about the die's symbol, turned square to the plane (up to a quarter turn), plane scale."""
    side = round(SYMBOL_MM * PLANE_PX_PER_MM) + 2 * margin_px
    turn = cv2.getRotationMatrix2D(die.centre_px, die.angle_deg, 1.0)
    turn[:, 2] += numpy.array([side / 2 - die.centre_px[0] - 0.5, side / 2 - die.centre_px[1] - 0.5])
    cut = cv2.warpAffine(grey, turn, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return numpy.asarray(cut, numpy.uint8)


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


@dataclasses.dataclass(frozen=True)
class SymbolTemplates:
    names: tuple[str, ...]
    """The symbol of each row."""
    rows: numpy.typing.NDArray[numpy.float32]
    shape: tuple[int, int]

    @staticmethod
    def of(faces: Mapping[str, GreyImage]) -> SymbolTemplates:
        names: list[str] = []
        images: list[GreyImage] = []
        for symbol, face in faces.items():
            for quarter in range(4):
                names.append(symbol)
                images.append(numpy.ascontiguousarray(numpy.rot90(face, quarter)))
        shape = images[0].shape[:2]
        return SymbolTemplates(tuple(names), template_rows(images), (shape[0], shape[1]))

    def classify(self, cut: GreyImage) -> tuple[str, float]:
        best = scores(cut, self.rows, self.shape).max(axis=0)
        per_symbol: dict[str, float] = {}
        for name, score in zip(self.names, best.tolist(), strict=True):
            per_symbol[name] = max(per_symbol.get(name, -1.0), score)
        ranked = sorted(per_symbol, key=per_symbol.__getitem__, reverse=True)
        margin = per_symbol[ranked[0]] - per_symbol[ranked[1]]
        return ranked[0], float(min(1.0, max(0.0, 0.5 + margin)))


class MinosRecogniser:
    game = GAME

    def __init__(self) -> None:
        self._templates_for: Profile | None = None
        self._templates: SymbolTemplates | None = None

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return dice_layout(options)

    def _prepared(self, profile: Profile | None) -> SymbolTemplates:
        if self._templates is None or self._templates_for is not profile:
            faces = dict(default_faces())
            if profile is not None:
                faces.update({k: decode_template(v) for k, v in profile.templates.items() if k in SYMBOLS})
            self._templates, self._templates_for = SymbolTemplates.of(faces), profile
        return self._templates

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        templates = self._prepared(profile)
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        dice = find_dice(plane)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        ids = sorted(layout.items, key=lambda item: int(item.split(":")[1]))
        for n, item in enumerate(ids):
            if n >= len(dice):
                items[item], confidence[item] = UNSEEN, 0.0
                continue
            items[item], confidence[item] = templates.classify(upright_die(grey, dice[n], SLACK_PX))
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Take each labelled die's face as its symbol's template (the user lays the dice symbol upright)."""
        bad = {
            item: label for item, label in labels.items() if item not in layout.items or label not in SYMBOLS
        }
        if bad:
            raise MinosVisionError(f"Minos labels are die:0..5 → one of {', '.join(SYMBOLS)}, not {bad}")
        dice = find_dice(plane)
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        templates = dict(profile.templates)
        for item, symbol in labels.items():
            n = int(item.split(":")[1])
            if n >= len(dice):
                raise MinosVisionError(f"only {len(dice)} dice are in view, so there is no {item}")
            upright = FoundDie(dice[n].centre_px, _nearest_upright(dice[n].angle_deg))
            templates[symbol] = encode_template(upright_die(grey, upright, 0))
        return dataclasses.replace(profile, templates=templates, shots=profile.shots + 1)


def _nearest_upright(angle_deg: float) -> float:
    """minAreaRect's angle turned by quarter turns to the one nearest zero (the die is laid upright)."""
    return ((angle_deg + 45.0) % 90.0) - 45.0


register_recogniser(GAME, MinosRecogniser)
