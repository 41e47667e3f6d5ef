"""Asterion: a treasure path is told from a dead end by its path, whatever shade its chest is printed."""

from __future__ import annotations

import dataclasses

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate import asterion as generated
from companion.vision.generate._sprites import blank_plane, paste
from companion.vision.recognisers._asterion_grid import cell_windows
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers.asterion import AsterionRecogniser, asterion_layout

from .test_asterion_match import on_table

LAYOUT = asterion_layout(1, 1)
REGION = LAYOUT.items["cell:0,0"]
DARK_CHEST = "travel-dark-chest"
"""The travel edition printed with its chests darker still (dark brown-orange, outlined in black)."""


def _dark_chest_cell(colour: str, number: int, rotation: int, light: float) -> Frame:
    """The tile of DARK_CHEST alone on the neutral table, turned, its light scaled, blurred as a camera."""
    cell = blank_plane(
        (round(generated.CELL_MM * 2), round(generated.CELL_MM * 2)),
        generated.TABLE_BGR,
        numpy.random.default_rng(0),
    )
    sprite, alpha = generated.draw_tile(colour, number, None, DARK_CHEST)
    middle = (cell.shape[0] - 1) / 2 / PLANE_PX_PER_MM
    paste(cell, sprite, alpha, (middle, middle), 0.0, shadow=0.0)
    cell = numpy.ascontiguousarray(numpy.rot90(cell, k=-rotation))
    plane = on_table(cell)
    return numpy.clip(cv2.GaussianBlur(plane * light, (0, 0), 1.5), 0, 255).astype(numpy.uint8)


@pytest.mark.parametrize("light", [1.0, 0.7])
def test_a_dark_chest_on_a_path_does_not_make_it_a_dead_end(
    light: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The travel edition's chest, dark and outlined in black, is as dark as the wall: compared with a
    # dead end where their drawings differ, a treasure corridor's chest counted as wall, and yellow
    # treasure corridors read as cells (4 of these 96 tiles at either light). The path against the
    # wall decides now, the chest's outline against its inside, not its shade.
    travel = generated.EDITIONS["travel"]
    monkeypatch.setitem(generated.EDITIONS, DARK_CHEST, dataclasses.replace(travel, coin_bgr=(10, 50, 90)))
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    wrong = []
    for colour in COLOURS:
        for name in (
            "treasure corridor",
            "treasure junction",
            "hidden chest",
            "treasury",
            "treasure bend",
            "chest bends",
        ):
            design = DESIGN_INDEX[name]
            for rotation in range(4):
                windows = cell_windows(_dark_chest_cell(colour, design, rotation, light), REGION)
                read = tile_label(colour, *templates.match(colour, windows)[:2])
                if read != tile_label(colour, design, rotation):
                    wrong.append((tile_label(colour, design, rotation), read))
    assert wrong == []
