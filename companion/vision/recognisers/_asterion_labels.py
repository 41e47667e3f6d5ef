"""Asterion's items and labels: a cell's id, a tile's label, and which rotations the game counts as one.

Items are "cell:X,Y"; labels "<colour>:<design>@<rotation>", "minotaur@0" or "empty" (see
companion.vision.recognisers.asterion, which reads them, and the generator, which renders them).
"""

from __future__ import annotations

import functools
import re

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX, DESIGNS, MINOTAUR_DESIGN, turned_paths

EMPTY = "empty"
MINOTAUR = "minotaur"

_CELL = re.compile(r"^cell:(-?\d+),(-?\d+)$")


def parse_cell(item_id: str) -> tuple[int, int]:
    match = _CELL.match(item_id)
    if not match:
        raise ValueError(f"asterion: {item_id!r} is not a cell item (cell:X,Y)")
    return int(match.group(1)), int(match.group(2))


@functools.cache
def canonical_rotation(design: int, rotation: int) -> int:
    """The smallest rotation showing the same paths as `rotation` (the game's notion of the same)."""
    look = frozenset(turned_paths(design, rotation % 4))
    return next(r for r in range(4) if frozenset(turned_paths(design, r)) == look)


def tile_label(colour: str | None, design: int, rotation: int) -> str:
    """The label of a placed tile; colour None (and design MINOTAUR_DESIGN) for the Minotaur tile."""
    if design == MINOTAUR_DESIGN:
        return f"{MINOTAUR}@0"
    return f"{colour}:{DESIGNS[design].name}@{canonical_rotation(design, rotation)}"


def parse_label(label: str) -> tuple[str, int, int] | None:
    """(frame colour, design number, rotation) of a tile label; None for "empty"."""
    if label == EMPTY:
        return None
    if label == f"{MINOTAUR}@0":
        return MINOTAUR, MINOTAUR_DESIGN, 0
    head, _, turn = label.rpartition("@")
    colour, _, name = head.partition(":")
    if colour not in COLOURS or name not in DESIGN_INDEX or turn not in ("0", "1", "2", "3"):
        raise ValueError(
            f"asterion: {label!r} is not a tile label: use '<colour>:<design>@<0-3>', 'minotaur@0' or 'empty'"
        )
    return colour, DESIGN_INDEX[name], int(turn)
