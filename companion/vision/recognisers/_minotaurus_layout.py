"""Minotaurus: the matrix's layout on the plane and the cells' labels (see minotaurus.py, which had grown
past a few screens)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.vision.base import ItemRegion, Layout, VisionError
from companion.vision.recognisers._minotaurus_cells import HORNS, PITCH_MM, SETUPS, TILE_MM

MARGIN_MM = 36.0
"""Border of bare table around the matrix: room for the corner markers (30 mm) and then some."""


class MinotaurusVisionError(VisionError):
    """Options or labels the Minotaurus recogniser cannot use."""


def piece_label(colour: str, value: int, horn: str) -> str:
    return f"{colour}-{value}-{horn}"


def parse_piece(label: str) -> tuple[str, int, str]:
    """("blue", 3, "left") from "blue-3-left"."""
    colour, _, rest = label.partition("-")
    value, _, horn = rest.partition("-")
    if not colour or not value.isdigit() or horn not in HORNS:
        raise MinotaurusVisionError(f"{label!r} is not a face-up piece label like 'blue-3-left'")
    return colour, int(value), horn


def setup_for(cells: int) -> dict[str, Any]:
    """The setup (values in play, rows, columns) whose matrix has this many cells."""
    for setup in SETUPS.values():
        if setup["rows"] * setup["columns"] == cells:
            return setup
    raise MinotaurusVisionError(f"no Minotaurus setup has a matrix of {cells} cells")


def matrix_layout(options: Mapping[str, Any]) -> Layout:
    players = options.get("players", max(SETUPS))
    if players not in SETUPS:
        raise MinotaurusVisionError(f"players must be one of {sorted(SETUPS)}, not {players!r}")
    rows, columns = SETUPS[players]["rows"], SETUPS[players]["columns"]
    items = {
        f"cell:{row * columns + column}": ItemRegion(
            (MARGIN_MM + (column + 0.5) * PITCH_MM, MARGIN_MM + (row + 0.5) * PITCH_MM), (TILE_MM, TILE_MM)
        )
        for row in range(rows)
        for column in range(columns)
    }
    return Layout((2 * MARGIN_MM + columns * PITCH_MM, 2 * MARGIN_MM + rows * PITCH_MM), items)
