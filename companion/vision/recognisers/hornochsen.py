"""Tanz der Hornochsen: the numbers (1-99) of the tiles on the board's rows and of the tiles played.

Items: "row:R:square:S" for every square of the board (rows and lengths from
seeds/hornochsen.toml; left-side rows top to bottom on the left half, right-side
rows on the right half), "played:seatN" (seats from 0) for the slots below the
board where each seat shows its played tile, and "played:seatN:2" beside it for
the seat's second tile in a double round (empty otherwise). Labels: "1".."99",
"down" (a tile face down) or "empty".

How: each item's pixels are labelled by their nearest colour prototype
(tile face, tile back, or the board's print); a square mostly covered by face
colour holds a face-up tile. The tile is found and straightened (its face's
minimum-area rectangle), its ink split into digits (two blurred into one shape
are cut apart), and each digit scored by a linear discriminant learned from
generated camera frames (DigitClassifier) or, for a profile taught other digits,
by correlation with digit templates. The built-in templates are learned from the
renderer's own tiles; teaching adds the user's tiles' digits and colours. Each
number is on one tile and a row ascends: readings that break either are mended
from their next likeliest numbers.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import re
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
    ItemRegion,
    Layout,
    Profile,
    Reading,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.recognisers._lab import (
    FloatArray,
    Palette,
    balanced,
    bgr_to_lab,
    learn_colour,
    neutral_gains,
    palette_for,
    to_lab,
)

GAME = "hornochsen"
EMPTY = "empty"
DOWN = "down"

TILE_MM = 26.0
SQUARE_PITCH_MM = 30.0
ROW_PITCH_MM = 34.0
SLOT_PITCH_MM = 36.0
MARGIN_MM = 40.0
"""Clear of the 30 mm corner markers."""
BLOCK_GAP_MM = 24.0
SLOTS_GAP_MM = 14.0
SLOTS_SIDE_MM = 10.0
"""Least room between the slots' row and the plane's sides: the row lies above the bottom corner markers."""

GLYPH_SIZE = (16, 24)
"""(width, height) a digit is scaled to before it is compared with the templates."""
STRAIGHT_MARGIN_MM = 3.0
MIN_GLYPH_SCORE = 0.7
"""Least correlation of a digit with its best template (sharp digits score above 0.9, blurred ones
above 0.7; a bull's head printed on the board 0.55)."""
JOINED_SCORE = 0.86
"""Least correlation of each half of a shape cut in two (digits blurred together score 0.9 and more; a
cow-pat's print on the board, also cut at a lighter column, 0.85 and less)."""
JUNK_SCORE = 0.45
"""Shapes correlating less than this with every digit are not digits at all and are left out."""
FACE, BACK, INK, BOARD_PRINT = "face", "back", "ink", "board"
SURFACES = (FACE, BACK, INK, BOARD_PRINT)
TILE_SHARE = 0.4
"""A square holds a tile when this share of its middle shows the tile's face or back."""

_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_SQUARE = re.compile(r"^row:(\d+):square:(\d+)$")


def parse_square(item_id: str) -> tuple[int, int] | None:
    """(row, square) of a board square's item id; None for a played slot."""
    match = _SQUARE.match(item_id)
    return (int(match.group(1)), int(match.group(2))) if match else None


def played_slot(seat: int, second: bool = False) -> str:
    """The item id of a seat's played-tile slot; `second` for its second tile in a double round."""
    return f"played:seat{seat}:2" if second else f"played:seat{seat}"


def hornochsen_layout(players: int) -> Layout:
    """Two blocks of rows (the seed's left and right sides) and a row of played-tile slots below: each
    seat a pair side by side, its first tile on the left, its second (in a double round) on the right.

    The plane widens for the slots only when they do not fit below the board (eight seats).
    """
    if not 1 <= players <= 8:
        raise ValueError(f"hornochsen layout: players must be 1 to 8, not {players}")
    longest = max(row.length for row in BOARD.rows)
    block_width = longest * SQUARE_PITCH_MM
    sides = [[row for row in BOARD.rows if row.side == side] for side in ("left", "right")]
    items: dict[str, ItemRegion] = {}
    for column, rows in enumerate(sides):
        x0 = MARGIN_MM + column * (block_width + BLOCK_GAP_MM)
        for place, row in enumerate(rows):
            y = MARGIN_MM + (place + 0.5) * ROW_PITCH_MM
            for square in range(row.length):
                centre = (x0 + (square + 0.5) * SQUARE_PITCH_MM, y)
                items[f"row:{row.index}:square:{square}"] = ItemRegion(
                    centre, (SQUARE_PITCH_MM, SQUARE_PITCH_MM)
                )
    slots = 2 * players
    board_width = 2 * MARGIN_MM + 2 * block_width + BLOCK_GAP_MM
    width = max(board_width, slots * SLOT_PITCH_MM + 2 * SLOTS_SIDE_MM)
    shift = (width - board_width) / 2  # the board stays centred over the slots
    items = {
        item_id: ItemRegion((region.centre_mm[0] + shift, region.centre_mm[1]), region.size_mm)
        for item_id, region in items.items()
    }
    slots_y = MARGIN_MM + max(len(rows) for rows in sides) * ROW_PITCH_MM + SLOTS_GAP_MM + SLOT_PITCH_MM / 2
    for slot in range(slots):
        x = width / 2 + (slot - (slots - 1) / 2) * SLOT_PITCH_MM
        item_id = played_slot(slot // 2, second=slot % 2 == 1)
        items[item_id] = ItemRegion((x, slots_y), (SLOT_PITCH_MM, SLOT_PITCH_MM))
    return Layout((width, slots_y + SLOT_PITCH_MM / 2 + MARGIN_MM), items)


def board_box_mm(layout: Layout) -> tuple[float, float, float, float]:
    """The printed board's outline (x0, y0, x1, y1): the squares with a small border."""
    squares = [r for item_id, r in layout.items.items() if parse_square(item_id)]
    xs = [r.centre_mm[0] for r in squares]
    ys = [r.centre_mm[1] for r in squares]
    border = SQUARE_PITCH_MM / 2 + 4
    return (min(xs) - border, min(ys) - border, max(xs) + border, max(ys) + border)


# ---------------------------------------------------------------- digits


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


def _glyphs(tile_lightness: FloatArray) -> list[Glyph]:
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
        glyphs.append(Glyph(_normalised(glyph), (x1 - x0) / max(1, y1 - y0), joined))
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


def _normalised(glyph: FloatArray) -> FloatArray:
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
        glyphs = numpy.stack([_normalised(_from_png(decode_template(profile.templates[n]))) for n in names])
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
def _built_in_templates() -> tuple[dict[str, tuple[float, ...]], tuple[float, ...]]:
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
            glyphs = _glyphs(seen)
            if len(glyphs) != len(str(number)):
                continue  # blurred together: nothing to learn from it
            for digit, (glyph, aspect, _) in zip((int(c) for c in str(number)), glyphs, strict=True):
                name = f"digit:{digit}:b{level}"
                sums[name] = sums[name] + glyph if name in sums else glyph
                counts[name] = counts.get(name, 0) + 1
                aspect_sums[digit] += aspect
                aspect_counts[digit] += 1
    means = {
        name: tuple(_normalised((sums[name] / counts[name]).astype(numpy.float32)).tolist()) for name in sums
    }
    if CAMERA_DIGITS.exists():
        learned = json.loads(CAMERA_DIGITS.read_text())["templates"]
        means.update({name: tuple(_from_png(decode_template(png)).tolist()) for name, png in learned.items()})
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
                tile = _find_tile(crop, palette.classify_bgr(crop))
                found = _glyphs(tile) if tile is not None else []
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
            glyph = _normalised(numpy.asarray(centre, numpy.float32))
            templates[f"digit:{digit}:cam{n}"] = encode_template(_to_png(glyph))
    return templates


def write_camera_digits(frames: int = CAMERA_FRAMES, seed: int = CAMERA_SEED) -> Path:
    """Learn the camera digit templates and classifier afresh and write them beside this module."""
    about = (
        "Hornochsen digit templates and classifier learned from a generated hard set; rewrite with: "
        ".venv/bin/python -c "
        "'from companion.vision.recognisers.hornochsen import write_camera_digits; write_camera_digits()'"
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


# ---------------------------------------------------------------- the recogniser


def default_colours() -> dict[str, list[list[float]]]:
    from companion.vision.generate import hornochsen as scene

    return {
        FACE: [bgr_to_lab(scene.FACE_BGR)],
        BACK: [bgr_to_lab(scene.BACK_BGR), bgr_to_lab((150, 110, 80))],
        INK: [bgr_to_lab(scene.INK_BGR)],
        BOARD_PRINT: [
            bgr_to_lab(c)
            for c in (
                scene.BOARD_BGR,
                scene.SQUARE_BGR,
                scene.COWPAT_BGR,
                scene.BULLHEAD_BGR,
                scene.TABLE_BGR,
            )
        ],
    }


class HornochsenRecogniser:
    game = GAME

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return hornochsen_layout(int(options.get("players", 4)))

    # ------------------------------------------------------------ profile

    def default_profile(self) -> Profile:
        """The built-in edition: the renderer's colours and digits."""
        means, aspects = _built_in_templates()
        return Profile(
            game=GAME,
            colours=default_colours(),
            templates={
                name: encode_template(_to_png(numpy.asarray(g, numpy.float32))) for name, g in means.items()
            },
            params={"digit_aspect": list(aspects), "taught_digits": [0] * 10, "taught_colours": []},
        )

    def __init__(self) -> None:
        self._cache: dict[int, tuple[Profile, DigitTemplates]] = {}
        self._default: Profile | None = None

    def _templates(self, profile: Profile) -> DigitTemplates:
        cached = self._cache.get(id(profile))
        if cached is not None and cached[0] is profile:
            return cached[1]
        templates = DigitTemplates.from_profile(profile)
        self._cache = {id(profile): (profile, templates)}
        return templates

    def _profile(self, profile: Profile | None) -> Profile:
        """The profile completed with built-in colours and digits where it has none of its own."""
        if self._default is None:
            self._default = self.default_profile()
        if profile is None:
            return self._default
        if any(name.startswith("digit:") for name in profile.templates) and profile.colours:
            return profile
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours={**self._default.colours, **profile.colours},
            templates={**self._default.templates, **profile.templates},
            params={**self._default.params, **profile.params},
            shots=profile.shots,
        )

    # ------------------------------------------------------------ reading

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        profile = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        palette = palette_for(profile.colours, SURFACES, washed=False)
        templates = self._templates(profile)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        others: dict[str, list[tuple[int, float]]] = {}
        for item_id, region in layout.items.items():
            crop = layout.crop(plane, item_id)
            label, sure, alternatives = self._read_item(crop, region, palette, templates)
            items[item_id] = label
            confidence[item_id] = sure
            others[item_id] = alternatives
        _one_of_each(items, confidence, others)
        _ascending_rows(items, confidence, others)
        return Reading(items, confidence)

    def _read_item(
        self, crop: Frame, region: ItemRegion, palette: Palette, templates: DigitTemplates
    ) -> tuple[str, float, list[tuple[int, float]]]:
        """The item's label, how sure, and for a number the next likeliest numbers (with how much less
        likely: their score's shortfall)."""
        if crop.size == 0:
            return EMPTY, 0.0, []
        reading = _read_square(crop, palette, templates)
        if reading[0] == EMPTY:
            # Deep shadow darkens a face to the colour of ink or print: look again, lit up.
            lifted = _lifted(crop)
            if lifted is not None:
                again = _read_square(lifted, palette, templates)
                if again[0] != EMPTY:
                    return again[0], again[1] * LIFTED_TRUST, again[2]
        return reading

    # ------------------------------------------------------------ teaching

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the tiles' face and back colours, the board's print, and each digit's glyph."""
        base = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        colours = base.colours
        taught = list(base.params.get("taught_colours", []))
        taught_digits = [int(n) for n in base.params.get("taught_digits", [0] * 10)]
        taught_glyphs = {
            d: _from_png(decode_template(base.templates[f"digit:{d}:taught"])) * taught_digits[d]
            for d in range(10)
            if taught_digits[d] and f"digit:{d}:taught" in base.templates
        }
        aspects = numpy.asarray(base.params["digit_aspect"], numpy.float64)
        palette = palette_for(colours, SURFACES, washed=False)
        samples: dict[str, list[FloatArray]] = {FACE: [], BACK: [], BOARD_PRINT: []}
        for item_id, label in labels.items():
            if item_id not in layout.items:
                raise ValueError(f"hornochsen teach: no item {item_id!r} in the layout")
            crop = layout.crop(plane, item_id)
            lab = to_lab(crop)
            middle = _middle_pixels(lab, 0.5)
            if label == EMPTY:
                samples[BOARD_PRINT].append(middle)
                continue
            if label == DOWN:
                samples[BACK].append(middle)
                continue
            if not label.isdigit() or not 1 <= int(label) <= BOARD.tiles:
                raise ValueError(
                    f"hornochsen teach: {item_id} label {label!r} is not 1-{BOARD.tiles}, down or empty"
                )
            owners = palette.classify_bgr(crop)
            light = lab[..., 0]
            face_pixels = lab[(owners == 0) & (light > numpy.percentile(light, 40))]
            samples[FACE].append(face_pixels)
            tile = _find_tile(crop, owners)
            glyphs = _glyphs(tile) if tile is not None else []
            if len(glyphs) != len(label):
                continue  # could not split this tile: learn nothing wrong from it
            for digit, (glyph, aspect, _) in zip((int(c) for c in label), glyphs, strict=True):
                taught_glyphs[digit] = taught_glyphs.get(digit, 0.0) + glyph
                aspects[digit] = (aspects[digit] * 9 + aspect) / 10
                taught_digits[digit] += 1
        for surface, pixels in samples.items():
            if pixels:
                colours, taught = learn_colour(colours, taught, surface, pixels)
        templates = dict(base.templates)
        for digit, total in taught_glyphs.items():
            templates[f"digit:{digit}:taught"] = encode_template(
                _to_png(_normalised(numpy.asarray(total / taught_digits[digit], numpy.float32)))
            )
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours=colours,
            templates=templates,
            params={
                **base.params,
                "digit_aspect": aspects.tolist(),
                "taught_digits": taught_digits,
                "taught_colours": taught,
            },
            shots=profile.shots + 1,
        )


def _read_square(
    crop: Frame, palette: Palette, templates: DigitTemplates
) -> tuple[str, float, list[tuple[int, float]]]:
    """What a square (or slot) shows, as HornochsenRecogniser._read_item says."""
    middle = palette.classify_bgr(_middle(crop, 0.6)[::2, ::2])
    shares = numpy.bincount(middle.ravel(), minlength=len(SURFACES)) / max(1, middle.size)
    face, back = float(shares[0]), float(shares[1])
    if max(face, back) < TILE_SHARE:
        return EMPTY, float(min(1.0, 1.0 - max(face, back) / TILE_SHARE + 0.3)), []
    if back > face:
        return DOWN, float(min(1.0, back)), []
    tile = _find_tile(crop, palette.classify_bgr(crop))
    if tile is None:
        return EMPTY, 0.2, []
    number, margin, alternatives = _read_number(tile, templates)
    if number is None:
        return EMPTY, 0.1, []
    return str(number), float(min(1.0, margin * 4)), alternatives


DARK_LEVEL = 120.0
"""A square whose middle's brightest tenth is darker than this (a tile's face is about 228 grey, the board's
squares 140) lies in deep shadow..."""
LIT_LEVEL = 200.0
"""...and is looked at again scaled so that its brightest tenth is this light,"""
INK_SHARE = 0.5
"""...when its darkest fiftieth is at most this share of its brightest quarter's lightness: ink on a face
(a plain table or square in shadow is more even)."""
LIFTED_TRUST = 0.5
"""How much of its confidence a reading of a lit-up square keeps."""


def _lifted(crop: Frame) -> Frame | None:
    """The square lit up to a face's lightness, when it lies in deep shadow and shows ink; else None."""
    sample = numpy.ascontiguousarray(_middle(crop, 0.6)[::2, ::2])
    blue, green, red, _ = cv2.mean(sample)
    if 0.114 * blue + 0.587 * green + 0.299 * red >= DARK_LEVEL:
        return None  # lit well enough on average: so is its brightest tenth (a quick look for most squares)
    middle = cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY).ravel()
    size = middle.size
    ordered = numpy.partition(middle, (size // 50, size * 3 // 4, size * 9 // 10))
    brightest, face, ink = (
        float(ordered[size * 9 // 10]),
        float(ordered[size * 3 // 4]),
        float(ordered[size // 50]),
    )
    if not 0 < brightest < DARK_LEVEL or ink > INK_SHARE * face:
        return None
    return numpy.asarray(cv2.convertScaleAbs(crop, alpha=LIT_LEVEL / brightest), numpy.uint8)


def _middle(image: numpy.typing.NDArray[Any], share: float) -> numpy.typing.NDArray[Any]:
    height, width = image.shape[:2]
    dy, dx = round(height * (1 - share) / 2), round(width * (1 - share) / 2)
    return image[dy : height - dy, dx : width - dx]


def _middle_pixels(lab: FloatArray, share: float) -> FloatArray:
    return numpy.asarray(_middle(lab, share).reshape(-1, 3), dtype=numpy.float32)


def _find_tile(crop: Frame, owners: numpy.typing.NDArray[numpy.intp]) -> FloatArray | None:
    """The tile in a square, straightened (see _straighten), from its pixels' surfaces (SURFACES' indices)."""
    return _straighten(crop, owners == SURFACES.index(FACE))


BRIGHT_SHARE = 0.65
"""The face is the brightest thing in its square: a table of a similar hue is darker than this share of the
lightness of the crop's brightest tenth."""
TIGHT_BRIGHT_SHARE = 0.85
OVERSIZE = 1.2
"""A face outline this much larger than a tile has taken in some of its surround."""

RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


def _face_rect(
    bright: numpy.typing.NDArray[numpy.bool_], face_mask: numpy.typing.NDArray[numpy.bool_]
) -> RotatedRect | None:
    """The minimum-area rectangle of the bright face pixels' largest shape, when it is of a tile's size."""
    # The ink inside the face is part of the tile: close it; cut thin bridges to look-alike surroundings.
    closed = cv2.morphologyEx((face_mask & bright).astype(numpy.uint8), cv2.MORPH_CLOSE, _DISC)
    mask = numpy.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, _DISC), numpy.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    if not 0.75 * TILE_MM * PLANE_PX_PER_MM < min(w, h) <= max(w, h) < 1.45 * TILE_MM * PLANE_PX_PER_MM:
        return None
    return (cx, cy), (w, h), angle


def _straighten(crop: Frame, face_mask: numpy.typing.NDArray[numpy.bool_]) -> FloatArray | None:
    """The tile's lightness, turned upright and centred, with a margin; None when no tile is found."""
    light = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    brightest = float(numpy.partition(light.ravel(), light.size * 9 // 10)[light.size * 9 // 10])
    rect = _face_rect(light > BRIGHT_SHARE * brightest, face_mask)
    if rect is not None and max(rect[1]) > OVERSIZE * TILE_MM * PLANE_PX_PER_MM:
        # The face ran into a surround of its colour and nearly its lightness (a light table): only the
        # face's own lightness outlines the tile then.
        tighter = _face_rect(light > TIGHT_BRIGHT_SHARE * brightest, face_mask)
        rect = tighter if tighter is not None else rect
    if rect is None:
        return None
    (cx, cy), _, angle = rect
    angle = ((angle + 45) % 90) - 45  # the nearest upright: tiles lie roughly square to the board
    # A margin round the tile: a tile found a little off centre still has its digits clear of the sides.
    side = round((TILE_MM + 2 * STRAIGHT_MARGIN_MM) * PLANE_PX_PER_MM)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    matrix[0, 2] += side / 2 - cx
    matrix[1, 2] += side / 2 - cy
    turned = cv2.warpAffine(
        light, matrix, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return numpy.asarray(turned, dtype=numpy.float32)


def _read_number(
    tile: FloatArray, templates: DigitTemplates
) -> tuple[int | None, float, list[tuple[int, float]]]:
    """The tile's number and how sure (its score's margin over the next number); None when it shows none.

    The digits are read together: the number is the one of 1-99 whose digits score best in all (a
    blurred 8 that looks a little more like a 0 is still read as the 8 of "80", not as "00").
    """
    readings = []
    for glyph in _glyphs(tile):
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
SWAP_SHORTFALL = 0.15
"""A number read twice is kept where it is surest; elsewhere the next likeliest number not read yet is
taken instead when it scores at most this much less (each number is on one tile only)."""


def _one_of_each(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """Each number is on one tile: where one is read twice, the less sure reading takes its next likeliest."""
    readers: dict[str, list[str]] = {}
    for item_id, label in items.items():
        if label.isdigit():
            readers.setdefault(label, []).append(item_id)
    for item_ids in list(readers.values()):
        if len(item_ids) < 2:
            continue
        for item_id in sorted(item_ids, key=lambda i: confidence[i], reverse=True)[1:]:
            for number, shortfall in others[item_id]:
                if shortfall <= SWAP_SHORTFALL and str(number) not in readers:
                    items[item_id] = str(number)
                    readers[str(number)] = [item_id]
                    confidence[item_id] = 0.0
                    break


def _ascending_rows(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """A row's tiles ascend from its first square (the game refuses a tile out of order): where two
    neighbours read out of order, the less sure of them (failing that, the other) takes its next likeliest
    number that fits between its neighbours and is not read elsewhere, when it scores at most
    SWAP_SHORTFALL less."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for item_id, label in items.items():
        square = parse_square(item_id)
        if square is not None and label.isdigit():
            rows.setdefault(square[0], []).append((square[1], item_id))
    read = {label for label in items.values() if label.isdigit()}
    for squares in rows.values():
        row = [item_id for _, item_id in sorted(squares)]
        for place in range(len(row) - 1):
            left, right = row[place], row[place + 1]
            if int(items[left]) < int(items[right]):
                continue
            for item_id in sorted((left, right), key=lambda i: confidence[i]):
                at = row.index(item_id)
                low = int(items[row[at - 1]]) if at > 0 else 0
                high = int(items[row[at + 1]]) if at + 1 < len(row) else BOARD.tiles + 1
                fitting = [
                    number
                    for number, shortfall in others[item_id]
                    if shortfall <= SWAP_SHORTFALL and low < number < high and str(number) not in read
                ]
                if fitting:
                    read.discard(items[item_id])
                    items[item_id] = str(fitting[0])
                    read.add(items[item_id])
                    confidence[item_id] = 0.0
                    break


def _to_png(glyph: FloatArray) -> numpy.typing.NDArray[numpy.uint8]:
    """A normalised glyph as an 8-bit image (0.5 grey is zero), for the profile."""
    image = numpy.clip(glyph.reshape(GLYPH_SIZE[1], GLYPH_SIZE[0]) * 255 * 2 + 128, 0, 255)
    return image.astype(numpy.uint8)


def _from_png(image: numpy.typing.NDArray[numpy.uint8]) -> FloatArray:
    return numpy.asarray((image.astype(numpy.float32).ravel() - 128) / (255 * 2), dtype=numpy.float32)


register_recogniser(GAME, HornochsenRecogniser)
