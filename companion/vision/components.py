"""The games' pieces and boards as the seeds measure them: sizes in millimetres, read by both sides.

The generator draws these sizes and the recognisers look for them, and neither takes them from the
other: a size wrong in a recogniser then shows on the bench as pieces it misreads, instead of being
drawn just as wrongly. Each value in seeds/<game>.toml's [dimensions] says where it comes from (the
rule texts give no sizes, so most are documented assumptions to measure on a real edition).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.seeddata import SeedError, load_seed, seeds_dir
from companion.vision.base import Layout
from companion.vision.vocabulary import hornochsen_square


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
