"""Asterion's tiles as data: designs read from seeds/asterion.toml, turned by quarter turns.

Sides are numbered N=0, E=1, S=2, W=3; a tile turned `r` quarter turns
clockwise shows its printed side `d` at side `(d + r) % 4`.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from companion.seeddata import SeedError, load_seed

SIDE_LETTERS = "NESW"
STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The neighbouring cell across each side; y grows southwards, as on a screen."""

Cell = tuple[int, int]


class PathSpec(NamedTuple):
    """One path of a design: a bit per side it joins, and what lies on it."""

    sides: int
    prisoners: int = 0
    coins: int = 0
    wings: int = 0
    horns: int = 0
    asterion: bool = False

    def turned(self, rotation: int) -> PathSpec:
        mask = 0
        for side in range(4):
            if self.sides >> side & 1:
                mask |= 1 << ((side + rotation) % 4)
        return self._replace(sides=mask)


class Design(NamedTuple):
    name: str
    copies: int
    paths: tuple[PathSpec, ...]

    @property
    def prisoners(self) -> int:
        return sum(p.prisoners for p in self.paths)


def _parse_sides(text: str, where: str) -> int:
    mask = 0
    for letter in text:
        if letter not in SIDE_LETTERS or mask >> SIDE_LETTERS.index(letter) & 1:
            raise SeedError(f"asterion seed: {where} has sides {text!r}; use each of N, E, S, W at most once")
        mask |= 1 << SIDE_LETTERS.index(letter)
    if not mask:
        raise SeedError(f"asterion seed: {where} has a path joining no side")
    return mask


def _parse_design(data: dict[str, Any], count: int) -> Design:
    name = str(data["name"])
    paths = []
    used = 0
    for index, path in enumerate(data["paths"]):
        sides = _parse_sides(str(path["sides"]), f"design {name!r} path {index}")
        if sides & used:
            raise SeedError(f"asterion seed: design {name!r} has two paths at one side")
        used |= sides
        paths.append(
            PathSpec(
                sides,
                int(path.get("prisoners", 0)),
                int(path.get("coins", 0)),
                int(path.get("wings", 0)),
                int(path.get("horns", 0)),
                bool(path.get("asterion", False)),
            )
        )
    return Design(name, count, tuple(paths))


_SEED = load_seed("asterion")
TILES_PER_COLOUR: int = _SEED["components"]["tiles_per_colour"]
COLOURS: tuple[str, ...] = tuple(str(c["name"]) for c in _SEED["colours"])
MINOTAUR: Design = _parse_design(_SEED["minotaur"], 1)
DESIGNS: tuple[Design, ...] = tuple(_parse_design(d, int(d["count"])) for d in _SEED["designs"])
DESIGN_INDEX: dict[str, int] = {d.name: i for i, d in enumerate(DESIGNS)}
MINOTAUR_DESIGN = -1
"""The design number of the Minotaur tile on the board."""

if sum(d.copies for d in DESIGNS) != TILES_PER_COLOUR:
    raise SeedError(
        f"asterion seed: the designs count {sum(d.copies for d in DESIGNS)} tiles, "
        f"but each colour has {TILES_PER_COLOUR}"
    )
if not any(p.asterion for p in MINOTAUR.paths):
    raise SeedError("asterion seed: no path of the Minotaur tile holds Asterion")


def design(number: int) -> Design:
    return MINOTAUR if number == MINOTAUR_DESIGN else DESIGNS[number]


@functools.cache
def turned_paths(number: int, rotation: int) -> tuple[PathSpec, ...]:
    return tuple(p.turned(rotation) for p in design(number).paths)


@functools.cache
def path_at_side(number: int, rotation: int) -> tuple[int, ...]:
    """For each board side, the index of the path of the turned tile that reaches it, or -1."""
    found = [-1, -1, -1, -1]
    for index, path in enumerate(turned_paths(number, rotation)):
        for side in range(4):
            if path.sides >> side & 1:
                found[side] = index
    return tuple(found)


@functools.cache
def distinct_rotations(number: int) -> tuple[int, ...]:
    """Rotations that look different: a crossroads has one, a corridor two."""
    seen: set[frozenset[PathSpec]] = set()
    rotations = []
    for rotation in range(4):
        look = frozenset(turned_paths(number, rotation))
        if look not in seen:
            seen.add(look)
            rotations.append(rotation)
    return tuple(rotations)


def neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in STEPS]
