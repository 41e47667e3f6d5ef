"""Minoa: the built-in edition's colours, as the generator paints them and as normalised planes show them.

Writes recognisers/minoa_colours.json: Lab prototypes of each piece colour and the sticks, each learned
from the play frames of generated hard sessions of the built-in edition on every table kind (each plane
normalised against the session's empty area as the reader normalises it: canonical light, the camera's
blur and the pieces' edges as seen), beside the colour the generator paints (what a plane without an
empty area learned shows); the board and its print as drawn and as a normalised plane keeps them beside
the pieces; and the table: the neutral grey a normalised plane puts there, and the drawn felt.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy

from companion.games.minoa import COLOURS as MINOA_COLOURS
from companion.vision.recognisers._lab import FloatArray, bgr_to_lab, palette_for, to_lab
from companion.vision.recognisers.minoa import (
    ACROSS_MM,
    ALL_LABELS,
    ALONG,
    BOARD_PRINT,
    COLOURS_FILE,
    EMPTY,
    GAME,
    STICK,
    TABLE,
    MinoaRecogniser,
)
from companion.vision.reference import NEUTRAL_BGR
from companion.vision.training import Writer, write_document
from companion.vision.training.sessions import hard_set_sittings, normalised_shots

TRAINING_SEEDS = tuple(range(1, 15))
"""One generated session per seed: the table kinds in turn, each twice, the marker sheets laid either way."""
TRAINING_FRAMES = 8
"""Play frames per session (frames with a hand or motion are left out, as the reader refuses them)."""
MIDDLE_MM = 1.0
"""A piece's or stick's own pixels: this close to the middle of its strip (once the board is fitted)."""


def drawn_colours() -> dict[str, list[list[float]]]:
    """The generator's colours of the built-in edition as Lab prototypes."""
    from companion.vision.generate import minoa as scene

    colours = {name: [bgr_to_lab(bgr)] for name, bgr in scene.PIECE_BGR.items()}
    colours[STICK] = [bgr_to_lab(scene.STICK_BGR)]
    colours[BOARD_PRINT] = [bgr_to_lab(scene.BOARD_BGR), bgr_to_lab(scene.PRINT_BGR)]
    colours[TABLE] = [bgr_to_lab(scene.TABLE_BGR)]
    return colours


def learned_pixels() -> dict[str, FloatArray]:
    """Per piece label, the Lab pixels along the middle of its strips in the training sessions' normalised
    planes, the strips laid where the board's fit (with the drawn colours) puts them."""
    recogniser = MinoaRecogniser()
    palette = palette_for(drawn_colours(), ALL_LABELS)
    middle = numpy.abs(ACROSS_MM) <= MIDDLE_MM
    pixels: dict[str, list[FloatArray]] = {}
    for plane, labels in normalised_shots(GAME, hard_set_sittings(TRAINING_SEEDS), TRAINING_FRAMES):
        layout = recogniser.layout({})
        strips = recogniser._strips(plane, layout, palette)
        lab = to_lab(strips.reshape(-1, len(ALONG), 3)).reshape(*strips.shape)
        for index, item_id in enumerate(layout.items):
            label = labels.get(item_id, EMPTY)
            if label != EMPTY:
                pixels.setdefault(label, []).append(lab[index][middle].reshape(-1, 3))
    missing = [label for label in (STICK, *MINOA_COLOURS) if label not in pixels]
    if missing:
        raise RuntimeError(f"the training sessions showed no {', '.join(missing)}: use more seeds")
    return {label: numpy.concatenate(found) for label, found in pixels.items()}


def learned_colours(pixels: Mapping[str, FloatArray]) -> dict[str, list[list[float]]]:
    """Each piece label's median as normalised planes show it beside its drawn colour, the board as
    drawn, and the table as drawn and as the neutral grey of a normalised plane."""
    colours = drawn_colours()
    for label, found in pixels.items():
        colours[label] = [[round(float(v), 1) for v in numpy.median(found, axis=0)], *colours[label]]
    colours[TABLE] = [bgr_to_lab(NEUTRAL_BGR), *colours[TABLE]]
    return colours


def write_colours(path: Path = COLOURS_FILE) -> Path:
    """Learn the built-in colours from generated sessions and write them (by default beside the
    recogniser)."""
    colours = learned_colours(learned_pixels())
    what = (
        "Minoa colour prototypes (Lab) of the built-in edition: as normalised planes of generated sessions "
        f"(seeds {TRAINING_SEEDS[0]}-{TRAINING_SEEDS[-1]}) show each piece, and as the generator paints it"
    )
    return write_document(path, GAME, what, {"colours": colours})


WRITERS: Mapping[str, Writer] = {COLOURS_FILE.stem: write_colours}
