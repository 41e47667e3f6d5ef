"""Minoa: the built-in edition's colours, as the generator paints them.

Writes recognisers/minoa_colours.json: Lab prototypes of each piece colour, the sticks, the board and
its print, and the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from companion.vision.recognisers._lab import bgr_to_lab
from companion.vision.recognisers.minoa import BOARD_PRINT, COLOURS_FILE, GAME, STICK, TABLE
from companion.vision.training import Writer, write_document


def drawn_colours() -> dict[str, list[list[float]]]:
    """The generator's colours of the built-in edition as Lab prototypes."""
    from companion.vision.generate import minoa as scene

    colours = {name: [bgr_to_lab(bgr)] for name, bgr in scene.PIECE_BGR.items()}
    colours[STICK] = [bgr_to_lab(scene.STICK_BGR)]
    colours[BOARD_PRINT] = [bgr_to_lab(scene.BOARD_BGR), bgr_to_lab(scene.PRINT_BGR)]
    colours[TABLE] = [bgr_to_lab(scene.TABLE_BGR)]
    return colours


def write_colours(path: Path = COLOURS_FILE) -> Path:
    """Write the built-in colours (by default beside the recogniser)."""
    what = "Minoa colour prototypes (Lab) of the generator's built-in edition"
    return write_document(path, GAME, what, {"colours": drawn_colours()})


WRITERS: Mapping[str, Writer] = {COLOURS_FILE.stem: write_colours}
