"""Asterion's items and labels under the names the recogniser uses: a cell's id, a tile's label, and which
rotations the game counts as one.

Items are "cell:X,Y"; labels "<colour>:<design>@<rotation>", "minotaur@0" or "empty". The spelling is
the recording format's, kept in companion.vision.vocabulary so the generator can write it without
importing the recogniser.
"""

from __future__ import annotations

import functools

from companion.vision.vocabulary import EMPTY, MINOTAUR, asterion_tile_label
from companion.vision.vocabulary import asterion_canonical_rotation as canonical_rotation
from companion.vision.vocabulary import asterion_cell as parse_cell
from companion.vision.vocabulary import parse_asterion_label as parse_label

__all__ = ["EMPTY", "MINOTAUR", "canonical_rotation", "parse_cell", "parse_label", "tile_label"]


@functools.cache
def tile_label(colour: str | None, design: int, rotation: int) -> str:
    """`asterion_tile_label`, kept per look: a few hundred looks, and every tile read spelt its label
    afresh (an f-string and the canonical turn's cache, ~3 us; 0.1 ms a frame)."""
    return asterion_tile_label(colour, design, rotation)
