"""Asterion: the built-in tiles' templates and colours, learned from generated sessions as the camera reads.

Writes recognisers/asterion_tiles.json: per frame colour and design, the tile unturned as it shows in
*normalised planes* (PlaneReader with the session's empty area learned: table pixels neutral grey,
light corrected to the markers' white), averaged over many generated hard sessions of the built-in
edition on every table kind, shrunk to the recogniser's template scale, as 8-bit Lab PNG; and the Lab
colour prototypes of every frame colour, the table, the stone and the paths, from the same pictures.

The recogniser reads normalised planes when the empty area is known, and the camera's planes as they
are without one: the drawn colours (the generator's tile on its own felt) stay prototypes beside the
learned ones, so both read. Seeds TRAINING_SEEDS only: seeds from 1000 are kept for measuring.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, encode_template
from companion.vision.recognisers import _asterion_match as match
from companion.vision.recognisers import asterion as recogniser
from companion.vision.recognisers._asterion_labels import parse_label, tile_label
from companion.vision.recognisers._asterion_match import GAME, TEMPLATE_PX, TILES_FILE, built_in_shapes
from companion.vision.recognisers._asterion_pairs import clear_pairs
from companion.vision.recognisers._lab import bgr_to_lab
from companion.vision.recognisers.asterion import TABLE, TILE_MM
from companion.vision.reference import NEUTRAL_BGR
from companion.vision.training import Writer, write_document
from companion.vision.training.sessions import hard_set_sittings, normalised_shots

TRAINING_SEEDS = tuple(range(1, 15))
"""One generated session per seed (the table kinds in turn, both marker placements): 14 sessions of
TRAINING_FRAMES frames show every frame colour and design some 25 times."""
TRAINING_FRAMES = 12
SEARCH_PX = 6
"""How far (plane pixels, 3 mm) a tile may lie off its cell in a training frame: each is lined up with
the drawing before it is averaged in, so that the average stays sharp."""
CORNER_INSET_PX = 7
CORNER_PATCH_PX = 4

FloatPicture = numpy.typing.NDArray[numpy.float32]


TEMPLATE_BLUR_PX = 1.6
"""Drawings are blurred (plane pixels) as a camera blurs before they are shrunk."""


def drawing_image(cell: Frame) -> Frame:
    """The generator's drawing of a cell as an 8-bit Lab picture at template scale, blurred as a camera
    blurs: where two designs differ is read from these."""
    return template_image(numpy.asarray(cv2.GaussianBlur(cell, (0, 0), TEMPLATE_BLUR_PX), numpy.uint8))


def drawn_pictures() -> dict[str, str]:
    """The drawing per "<frame colour>:<design number>", as base64 PNG."""
    from companion.vision.generate.asterion import draw_cell

    pictures = {}
    for shape in built_in_shapes():
        colour, _, design = shape.partition(":")
        pictures[shape] = encode_template(drawing_image(draw_cell(colour, int(design))))
    return pictures


def template_image(cell: Frame) -> Frame:
    """A cell's picture (BGR, one cell at plane scale) as an 8-bit Lab template at template scale (area
    averaging: the camera blurred the training frames already)."""
    small = numpy.asarray(
        cv2.resize(cell, (TEMPLATE_PX, TEMPLATE_PX), interpolation=cv2.INTER_AREA), numpy.uint8
    )
    return numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), numpy.uint8)


def _drawn(colour: str, design: int) -> FloatPicture:
    """The generator's drawing of the tile (a cell at plane scale), its table made neutral: what a tile's
    sample is lined up with and which of two turns that look alike to the game it shows."""
    from companion.vision.generate.asterion import draw_cell

    cell = draw_cell(colour, design).astype(numpy.float32)
    side = cell.shape[0]
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    off = (side - tile) // 2
    out = numpy.empty_like(cell)
    out[:] = NEUTRAL_BGR
    out[off : off + tile, off : off + tile] = cell[off : off + tile, off : off + tile]
    return numpy.asarray(out, numpy.float32)


def _grey(picture: FloatPicture | Frame) -> FloatPicture:
    grey: FloatPicture = numpy.asarray(picture, numpy.float32).mean(axis=2, dtype=numpy.float32)
    return grey


def _sample(plane: Frame, centre: tuple[float, float], label: str) -> tuple[str, FloatPicture] | None:
    """The tile of a labelled cell, turned back to its printed orientation and lined up with its drawing:
    its shape ("<frame colour>:<design>") and picture (float BGR, a cell at plane scale)."""
    shown = parse_label(label)
    if shown is None:
        return None
    colour, design, _ = shown
    drawn = _drawn(colour, design)
    side = drawn.shape[0]
    half = side // 2 + SEARCH_PX
    x, y = round(centre[0]), round(centre[1])
    height, width = plane.shape[:2]
    if x - half < 0 or y - half < 0 or x + half > width or y + half > height:
        return None
    crop = numpy.asarray(plane[y - half : y + half, x - half : x + half], numpy.float32)
    best: tuple[float, FloatPicture] | None = None
    # The label names the smallest of the turns the game counts as one; the drawing tells which lies here.
    for turn in (r for r in range(4) if tile_label(colour, design, r) == label):
        back = numpy.ascontiguousarray(numpy.rot90(crop, k=turn))
        scores = cv2.matchTemplate(_grey(back), _grey(drawn), cv2.TM_CCOEFF_NORMED)
        _, top, _, (dx, dy) = cv2.minMaxLoc(scores)
        if best is None or top > best[0]:
            best = (float(top), back[dy : dy + side, dx : dx + side])
    assert best is not None
    return f"{colour}:{design}", best[1]


def learned_pictures() -> dict[str, FloatPicture]:
    """Per shape, the mean picture of its tiles in normalised planes of the training sessions."""
    from companion.vision.recognisers.asterion import asterion_layout

    sums: dict[str, FloatPicture] = {}
    counts: dict[str, int] = {}
    layout = None
    for plane, labels in normalised_shots(GAME, hard_set_sittings(TRAINING_SEEDS), TRAINING_FRAMES):
        layout = layout or asterion_layout(9, 7)
        for item_id, label in labels.items():
            sample = _sample(plane, layout.items[item_id].centre_px(), label)
            if sample is None:
                continue
            shape, picture = sample
            sums[shape] = sums.get(shape, numpy.zeros_like(picture)) + picture
            counts[shape] = counts.get(shape, 0) + 1
    missing = [shape for shape in built_in_shapes() if shape not in counts]
    if missing:
        raise RuntimeError(f"the training sessions showed no {', '.join(missing)}: use more seeds")
    return {shape: numpy.asarray(sums[shape] / counts[shape], numpy.float32) for shape in built_in_shapes()}


def _lab_median(pixels: FloatPicture) -> list[float]:
    bgr = numpy.clip(numpy.round(pixels.reshape(1, -1, 3)), 0, 255).astype(numpy.uint8)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return [float(v) for v in numpy.median(lab, axis=0)]


def learned_colours(pictures: Mapping[str, FloatPicture]) -> dict[str, list[list[float]]]:
    """Lab prototypes as the normalised planes show them: each frame colour from its tiles' corners, the
    stone and the paths where the drawing shows them, and the neutral table; the drawn colours (a
    plane without an empty area learned) beside them."""
    from companion.vision.generate import asterion as scene

    side = next(iter(pictures.values())).shape[0]
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    off = (side - tile) // 2
    a, b = off + CORNER_INSET_PX, off + tile - CORNER_INSET_PX - CORNER_PATCH_PX
    corners: dict[str, list[FloatPicture]] = {}
    stone: list[FloatPicture] = []
    path: list[FloatPicture] = []
    for shape, picture in pictures.items():
        colour, _, design = shape.partition(":")
        for y in (a, b):
            for x in (a, b):
                corners.setdefault(colour, []).append(
                    picture[y : y + CORNER_PATCH_PX, x : x + CORNER_PATCH_PX]
                )
        drawn = _drawn(colour, int(design))
        stone.append(picture[(numpy.abs(drawn - scene.STONE_BGR).sum(axis=2) < 6)])
        path.append(picture[(numpy.abs(drawn - scene.PATH_BGR).sum(axis=2) < 6)])
    colours = {
        name: [
            _lab_median(numpy.concatenate([c.reshape(-1, 3) for c in patches])),
            bgr_to_lab(scene.FRAME_BGR[name]),
        ]
        for name, patches in corners.items()
    }
    colours[TABLE] = [bgr_to_lab(NEUTRAL_BGR), bgr_to_lab(scene.TABLE_BGR)]
    colours["stone"] = [_lab_median(numpy.concatenate(stone)), bgr_to_lab(scene.STONE_BGR)]
    colours["path"] = [_lab_median(numpy.concatenate(path)), bgr_to_lab(scene.PATH_BGR)]
    return colours


def write_tiles(path: Path = TILES_FILE) -> Path:
    """Learn the built-in templates and colours from generated sessions and write them (by default beside
    the recogniser); the recogniser reads them anew."""
    pictures = learned_pictures()
    templates = {
        shape: encode_template(template_image(numpy.clip(numpy.round(p), 0, 255).astype(numpy.uint8)))
        for shape, p in pictures.items()
    }
    fields = {
        "template_px": TEMPLATE_PX,
        "colours": learned_colours(pictures),
        "templates": templates,
        "drawings": drawn_pictures(),
    }
    what = (
        "Asterion colours (Lab) and tile templates (Lab PNG) learned from normalised planes of "
        f"generated sessions (seeds {TRAINING_SEEDS[0]}-{TRAINING_SEEDS[-1]})"
    )
    written = write_document(path, GAME, what, fields)
    # Everything read from the old file is forgotten: the pictures, every pair of looks' tests built
    # from its drawings, and the recognisers' templates and default profile made of them.
    for cached in (
        match.built_in_templates,
        match.built_in_drawings,
        recogniser._templates_of,
        recogniser._default_profile,
    ):
        cached.cache_clear()
    clear_pairs()
    return written


WRITERS: Mapping[str, Writer] = {TILES_FILE.stem: write_tiles}
