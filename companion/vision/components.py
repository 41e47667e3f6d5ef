"""The games' pieces and boards as the seeds measure them: sizes in millimetres, read by both sides.

The generator draws these sizes and the recognisers look for them, and neither takes them from the
other: a size wrong in a recogniser then shows on the bench as pieces it misreads, instead of being
drawn just as wrongly. Each value in seeds/<game>.toml's [dimensions] says where it comes from (the
rule texts give no sizes, so most are documented assumptions to measure on a real edition).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from companion.seeddata import SeedError, load_seed, seeds_dir
from companion.vision.base import Layout
from companion.vision.vocabulary import hornochsen_square

COARSEST_MM_PER_PX: Mapping[str, float] = {
    "asterion": 1.4,
    "hornochsen": 1.0,
    "minoa": 1.2,
    "minos": 1.0,
    "minotaurus": 1.4,
    "toss": 1.0,
}
"""Per game, the table's millimetres per frame pixel (where the picture is coarsest) beyond which the
setup view says the camera is too far: the setup guide's limit (docs/camera.md). The generator sets its
cameras up within it, as a player does whom the setup view has told to lower the camera. Measured per
session of the hard generated sets (dev seeds and 20261134): Hornochsen's tile numbers, the finest print
of the five, read every tile in most sessions up to 0.9, lost a tile in a few hundred at 0.9-1.1 and up
to half the frames above 1.2; Asterion's tiles lost more above 1.4 (a tile in thirty); Minotaurus showed
no loss that grew with it up to 1.46. Minoa, Minos and the toss are given the coarsest their hard sets
were measured at (1.26, 1.04, 1.03)."""

JOINED_GAP_MM: Mapping[str, float] = {"asterion": 18.0}
"""Per game whose pieces lie edge to edge on a grid (no table shows between two of them), the widest gap
in what differs from the table that is still piece (`Layout.joined_gap_mm`): Asterion's tiles. Under a dim
lamp a light wood's grain matches a tile's pale paths, and the reference took them for table and painted
them neutral grey (burnt 20261146, light wood 954 mm up: 53 % of the matched tiles showed grey inside); the
paths join across neighbouring tiles and open onto the table, so they are no enclosed holes, but none is
wider than a path (closed up to 14 mm, half that session's misread cells stayed; up to 18 mm, none).
On dev 9, 60, 61, 83 and burnt 20261142-45 (taught editions too), items right of 86436: 86282 not
closed, 86289 at 14 mm, 86296 at 18, 86292 at 22 (the wider, the more empty cells whose table specks it
joins to their neighbours read as a tile).
The other games' pieces stand apart with the table between them: they close nothing."""


def with_joined_gaps(game: str, layout: Layout) -> Layout:
    """The game's layout with its `JOINED_GAP_MM` (unchanged for a game without one)."""
    gap = JOINED_GAP_MM.get(game, 0.0)
    return dataclasses.replace(layout, joined_gap_mm=gap) if gap > 0 else layout


def _dimension(game: str, name: str) -> object:
    dimensions = load_seed(game).get("dimensions", {})
    entry = dimensions.get(name) if isinstance(dimensions, Mapping) else None
    if not isinstance(entry, Mapping) or "mm" not in entry or "source" not in entry:
        raise SeedError(f"seeds/{game}.toml: [dimensions] needs {name} = {{ mm = ..., source = ... }}")
    return entry["mm"]


def dimension_mm(game: str, name: str) -> float:
    """One size of the game's components, e.g. dimension_mm("asterion", "tile")."""
    value = _dimension(game, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise SeedError(f"seeds/{game}.toml: dimensions.{name}.mm must be a positive number, not {value!r}")
    return float(value)


def dimensions_mm(game: str, name: str) -> tuple[float, ...]:
    """A size with several extents, e.g. dimensions_mm("minos", "tray") → (width, depth)."""
    value = _dimension(game, name)
    if not isinstance(value, list) or not value:
        raise SeedError(f"seeds/{game}.toml: dimensions.{name}.mm must be a list of sizes, not {value!r}")
    if any(isinstance(v, bool) or not isinstance(v, int | float) or v <= 0 for v in value):
        raise SeedError(f"seeds/{game}.toml: dimensions.{name}.mm must hold positive numbers, not {value!r}")
    return tuple(float(v) for v in value)


def piece_height_mm(game: str) -> float:
    """How far the game's pieces stand above the table towards the lens; 0 for a game without seeds."""
    if not (seeds_dir() / f"{game}.toml").exists():
        return 0.0
    return dimension_mm(game, "height")


def minos_tray_mm(plane_mm: tuple[float, float]) -> tuple[float, float, float, float]:
    """The dice tray's inside (x0, y0, x1, y1) in the middle of a Minos plane of this size."""
    width, depth = dimensions_mm("minos", "tray")
    x0, y0 = (plane_mm[0] - width) / 2, (plane_mm[1] - depth) / 2
    return (x0, y0, x0 + width, y0 + depth)


def hornochsen_board_box_mm(layout: Layout) -> tuple[float, float, float, float]:
    """The printed board's outline (x0, y0, x1, y1): the layout's squares and the board's border."""
    squares = [region for item_id, region in layout.items.items() if hornochsen_square(item_id)]
    if not squares:
        raise ValueError("hornochsen: the layout has no board squares (row:R:square:S)")
    xs = [region.centre_mm[0] for region in squares]
    ys = [region.centre_mm[1] for region in squares]
    border = dimension_mm("hornochsen", "square_pitch") / 2 + dimension_mm("hornochsen", "board_border")
    return (min(xs) - border, min(ys) - border, max(xs) + border, max(ys) + border)
