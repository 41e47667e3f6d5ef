"""Asterion's items and labels under the names the recogniser uses: a cell's id, a tile's label, and which
rotations the game counts as one.

Items are "cell:X,Y"; labels "<colour>:<design>@<rotation>", "minotaur@0" or "empty". The spelling is
the recording format's, kept in companion.vision.vocabulary so the generator can write it without
importing the recogniser.
"""

from __future__ import annotations

from companion.vision.vocabulary import EMPTY, MINOTAUR
from companion.vision.vocabulary import asterion_canonical_rotation as canonical_rotation
from companion.vision.vocabulary import asterion_cell as parse_cell
from companion.vision.vocabulary import asterion_tile_label as tile_label
from companion.vision.vocabulary import parse_asterion_label as parse_label

__all__ = ["EMPTY", "MINOTAUR", "canonical_rotation", "parse_cell", "parse_label", "tile_label"]
