"""The labyrinth on the table: placed tiles and what their paths join.

A node is one path of one placed tile. Two nodes are joined when their tiles
are neighbours and both paths reach the shared side. A path end facing an empty
cell leads to the outside (the playing surface); a path end facing a tile side
without a path is a wall.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from companion.games.asterion.tiles import (
    MINOTAUR_DESIGN,
    STEPS,
    Cell,
    PathSpec,
    neighbours,
    path_at_side,
    turned_paths,
)

ASTERION_CELL: Cell = (0, 0)


class Tile(NamedTuple):
    """A placed tile; a tuple so that copying a board is copying a dict."""

    seat: int
    """The seat whose colour the tile's prisoners have; -1 for the Minotaur tile."""
    design: int
    rotation: int
    dead: int = 0
    """A bit per path whose prisoners Asterion has impaled."""

    def paths(self) -> tuple[PathSpec, ...]:
        return turned_paths(self.design, self.rotation)

    def has_living_prisoner(self) -> bool:
        return any(p.prisoners and not self.dead >> i & 1 for i, p in enumerate(self.paths()))


Board = Mapping[Cell, Tile]
Node = tuple[Cell, int]


def minotaur_tile() -> Tile:
    return Tile(-1, MINOTAUR_DESIGN, 0)


def _asterion_nodes(board: Board) -> list[Node]:
    tile = board[ASTERION_CELL]
    return [(ASTERION_CELL, i) for i, p in enumerate(tile.paths()) if p.asterion]


def _walk(board: Board, start: Iterable[Node], stop_at_way_out: bool) -> tuple[set[Node], set[Cell]]:
    """The nodes joined to `start`, and the empty cells their open ends face."""
    seen = set(start)
    stack = list(seen)
    ways_out: set[Cell] = set()
    while stack:
        cell, index = stack.pop()
        tile = board[cell]
        sides = tile.paths()[index].sides
        x, y = cell
        for side in range(4):
            if not sides >> side & 1:
                continue
            dx, dy = STEPS[side]
            across = (x + dx, y + dy)
            other = board.get(across)
            if other is None:
                ways_out.add(across)
                if stop_at_way_out:
                    return seen, ways_out
                continue
            joined = path_at_side(other.design, other.rotation)[(side + 2) % 4]
            if joined >= 0 and (across, joined) not in seen:
                seen.add((across, joined))
                stack.append((across, joined))
    return seen, ways_out


def asterion_network(board: Board) -> tuple[set[Node], set[Cell]]:
    """Every path joined to Asterion, and the empty cells where it leads outside."""
    return _walk(board, _asterion_nodes(board), stop_at_way_out=False)


def asterion_escapes(board: Board) -> bool:
    """Whether some path still joins Asterion to the outside (he is not trapped)."""
    return bool(_walk(board, _asterion_nodes(board), stop_at_way_out=True)[1])


def empty_neighbours(board: Board) -> set[Cell]:
    """The empty cells orthogonally adjacent to a placed tile: where a tile may go."""
    return {n for cell in board for n in neighbours(cell) if n not in board}


def free_sides(board: Board, cell: Cell) -> int:
    return sum(n not in board for n in neighbours(cell))


@dataclasses.dataclass
class Network:
    """One set of joined paths with everything on it."""

    nodes: set[Node]
    outside: bool
    asterion: bool
    coins: int = 0
    wings: int = 0
    living: dict[int, int] = dataclasses.field(default_factory=dict)
    """Living prisoners per seat."""

    def escapes(self) -> bool:
        """Its prisoners get out: to the outside, or flying with two wings."""
        return self.outside or self.wings >= 2


def networks(board: Board) -> list[Network]:
    found: list[Network] = []
    labelled: set[Node] = set()
    for cell, tile in board.items():
        for index in range(len(tile.paths())):
            if (cell, index) in labelled:
                continue
            nodes, ways_out = _walk(board, [(cell, index)], stop_at_way_out=False)
            labelled |= nodes
            network = Network(nodes, bool(ways_out), False)
            for node_cell, node_index in nodes:
                node_tile = board[node_cell]
                path = node_tile.paths()[node_index]
                network.coins += path.coins
                network.wings += path.wings
                network.asterion |= path.asterion
                if path.prisoners and not node_tile.dead >> node_index & 1:
                    network.living[node_tile.seat] = network.living.get(node_tile.seat, 0) + path.prisoners
            found.append(network)
    return found
