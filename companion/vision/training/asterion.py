"""Asterion: the built-in tiles' templates and colours, from the generator's drawing of each design.

Writes recognisers/asterion_tiles.json: per frame colour and design, the generator's tile unturned on
its table, blurred as a camera blurs and shrunk to the recogniser's template scale, as 8-bit Lab PNG;
and the Lab colour prototype of every frame colour, the table, the stone and the paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy

from companion.vision.base import Frame, encode_template
from companion.vision.recognisers import _asterion_match as match
from companion.vision.recognisers._asterion_match import GAME, TEMPLATE_PX, TILES_FILE, built_in_shapes
from companion.vision.recognisers._lab import bgr_to_lab
from companion.vision.recognisers.asterion import TABLE
from companion.vision.training import Writer, write_document

TEMPLATE_BLUR_PX = 1.6
"""Built-in templates are blurred (plane pixels) as a camera blurs: a sharp template under-rates a chest."""


def template_image(cell: Frame) -> Frame:
    """A cell's picture (BGR, one cell at plane scale) as a template: blurred as a camera blurs, then
    8-bit Lab at template scale."""
    seen = cv2.GaussianBlur(cell, (0, 0), TEMPLATE_BLUR_PX)
    # Area averaging all the way: templates are made once, and the smoothest read best (shrunk
    # like a cell's window, seed 1 read one more frame wrong).
    small = numpy.asarray(
        cv2.resize(seen, (TEMPLATE_PX, TEMPLATE_PX), interpolation=cv2.INTER_AREA), numpy.uint8
    )
    return numpy.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), numpy.uint8)


def drawn_templates() -> dict[str, str]:
    """Template per "<frame colour>:<design number>" from the generator's drawing, as base64 PNG."""
    from companion.vision.generate.asterion import draw_cell

    templates = {}
    for shape in built_in_shapes():
        colour, _, design = shape.partition(":")
        templates[shape] = encode_template(template_image(draw_cell(colour, int(design))))
    return templates


def drawn_colours() -> dict[str, list[list[float]]]:
    """The generator's colours of the built-in edition as Lab prototypes: frames, table, stone, paths."""
    from companion.vision.generate import asterion as scene

    colours = {name: [bgr_to_lab(bgr)] for name, bgr in scene.FRAME_BGR.items()}
    colours[TABLE] = [bgr_to_lab(scene.TABLE_BGR)]
    colours["stone"] = [bgr_to_lab(scene.STONE_BGR)]
    colours["path"] = [bgr_to_lab(scene.PATH_BGR)]
    return colours


def write_tiles(path: Path = TILES_FILE) -> Path:
    """Write the built-in templates and colours (by default beside the recogniser); the recogniser reads
    them anew."""
    fields = {"template_px": TEMPLATE_PX, "colours": drawn_colours(), "templates": drawn_templates()}
    what = "Asterion colours (Lab) and tile templates (Lab PNG) drawn by the generator"
    written = write_document(path, GAME, what, fields)
    for cached in (match.built_in_templates, match.differ, match._pair_window, match._winning_share):
        cached.cache_clear()
    return written


WRITERS: Mapping[str, Writer] = {TILES_FILE.stem: write_tiles}
