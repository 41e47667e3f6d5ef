"""The Minoa board, computed from lattice coordinates: a hexagon cut into unit triangles.

Vertices lie on a triangular lattice in doubled coordinates: `y` counts vertex rows from the top
(0 to 2 * side), and `x` counts half steps from the vertical centre line, so that neighbours in a
row are 2 apart and neighbours in adjacent rows 1 apart. One side of the hexagon lies along the top.

The numbering is the reading order a player uses on the real board (see docs/minoa-board.md):
lines by their midpoints, triangles by their centres, each top to bottom, then left to right.
So the top side's edge lines are 0 to side - 1, left to right, and triangle 0 is the top left one.
"""

from __future__ import annotations

import dataclasses
import functools

Vertex = tuple[int, int]

SIDE_NAMES = ("top", "upper right", "lower right", "bottom", "lower left", "upper left")
"""The hexagon's sides in clockwise order, starting with the top one."""


@dataclasses.dataclass(frozen=True)
class Board:
    side: int
    lines: tuple[tuple[Vertex, Vertex], ...]
    """Each line's two end points, by line number."""
    triangles: tuple[tuple[Vertex, Vertex, Vertex], ...]
    line_triangles: tuple[tuple[int, ...], ...]
    """The triangles a line borders: one for an edge line, two for an interior line."""
    triangle_lines: tuple[tuple[int, int, int], ...]
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    """Per triangle: (interior line, triangle across it)."""
    is_edge: tuple[bool, ...]
    edge_lines: tuple[int, ...]
    interior_lines: tuple[int, ...]
    edges_clockwise: tuple[int, ...]
    """Edge lines walking clockwise round the board from the top left corner."""
    line_of: dict[frozenset[Vertex], int]

    def line_between(self, a: Vertex, b: Vertex) -> int:
        """The number of the line joining two neighbouring lattice points."""
        try:
            return self.line_of[frozenset((a, b))]
        except KeyError:
            raise ValueError(f"no line of the board joins {a} and {b}") from None

    def edge_place(self, line: int) -> str:
        """Where an edge line lies, in words: its side and its place counting clockwise."""
        index = self.edges_clockwise.index(line)
        side, place = divmod(index, self.side)
        return f"{SIDE_NAMES[side]} side, {place + 1} of {self.side} clockwise"

    def line_place(self, line: int) -> str:
        if self.is_edge[line]:
            return f"edge line {line} ({self.edge_place(line)})"
        return f"line {line}"


def _vertex_rows(side: int) -> list[list[Vertex]]:
    rows = []
    for y in range(2 * side + 1):
        length = side + 1 + min(y, 2 * side - y)
        rows.append([(x, y) for x in range(-(length - 1), length, 2)])
    return rows


@functools.cache
def build_board(side: int) -> Board:
    vertices = {v for row in _vertex_rows(side) for v in row}
    segments: set[frozenset[Vertex]] = set()
    for x, y in vertices:
        for other in ((x + 2, y), (x - 1, y + 1), (x + 1, y + 1)):
            if other in vertices:
                segments.add(frozenset(((x, y), other)))
    shapes: set[tuple[Vertex, Vertex, Vertex]] = set()
    for x, y in vertices:
        for corners in (((x, y), (x - 1, y + 1), (x + 1, y + 1)), ((x, y), (x + 2, y), (x + 1, y + 1))):
            if all(c in vertices for c in corners):
                shapes.add(corners)

    def line_key(segment: frozenset[Vertex]) -> tuple[int, int]:
        (x1, y1), (x2, y2) = sorted(segment)
        return (y1 + y2, x1 + x2)

    def triangle_key(corners: tuple[Vertex, Vertex, Vertex]) -> tuple[int, int]:
        return (min(y for _, y in corners), sum(x for x, _ in corners))

    lines = tuple(_ends(s) for s in sorted(segments, key=line_key))
    line_of = {frozenset(ends): number for number, ends in enumerate(lines)}
    triangles = tuple(sorted(shapes, key=triangle_key))
    triangle_lines = tuple(
        _three(sorted(line_of[frozenset((a, b))] for a, b in ((p, q), (q, r), (p, r))))
        for p, q, r in triangles
    )
    bordering: list[list[int]] = [[] for _ in lines]
    for t, sides in enumerate(triangle_lines):
        for line in sides:
            bordering[line].append(t)
    is_edge = tuple(len(b) == 1 for b in bordering)
    neighbours = tuple(
        tuple((line, next(u for u in bordering[line] if u != t)) for line in sides if not is_edge[line])
        for t, sides in enumerate(triangle_lines)
    )
    return Board(
        side=side,
        lines=lines,
        triangles=triangles,
        line_triangles=tuple(tuple(b) for b in bordering),
        triangle_lines=triangle_lines,
        neighbours=neighbours,
        is_edge=is_edge,
        edge_lines=tuple(n for n in range(len(lines)) if is_edge[n]),
        interior_lines=tuple(n for n in range(len(lines)) if not is_edge[n]),
        edges_clockwise=_walk_the_edge(side, lines, is_edge),
        line_of=line_of,
    )


def _ends(segment: frozenset[Vertex]) -> tuple[Vertex, Vertex]:
    a, b = sorted(segment)
    return (a, b)


def _three(numbers: list[int]) -> tuple[int, int, int]:
    a, b, c = numbers
    return (a, b, c)


def _walk_the_edge(
    side: int, lines: tuple[tuple[Vertex, Vertex], ...], is_edge: tuple[bool, ...]
) -> tuple[int, ...]:
    at: dict[Vertex, list[tuple[int, Vertex]]] = {}
    for number, (a, b) in enumerate(lines):
        if is_edge[number]:
            at.setdefault(a, []).append((number, b))
            at.setdefault(b, []).append((number, a))
    start = (-side, 0)
    walk: list[int] = []
    here, previous = start, (-side - 2, 0)  # arriving from the left: first step goes right
    while True:
        number, there = next((n, v) for n, v in at[here] if v != previous)
        walk.append(number)
        previous, here = here, there
        if here == start:
            return tuple(walk)


def line_diagram(board: Board) -> str:
    """The line numbers drawn at their midpoints: horizontal lines on the even text rows."""
    rows: dict[int, dict[int, int]] = {}
    for number, ((x1, y1), (x2, y2)) in enumerate(board.lines):
        rows.setdefault(y1 + y2, {})[(x1 + x2 + 4 * board.side) * 2] = number
    return _draw(rows)


def triangle_diagram(board: Board) -> str:
    """The triangle numbers drawn at their centres, one text row per row of triangles."""
    rows: dict[int, dict[int, int]] = {}
    for number, corners in enumerate(board.triangles):
        row = min(y for _, y in corners)
        # The same scale as line_diagram, so the two pictures can be laid over each other.
        rows.setdefault(row, {})[4 * sum(x for x, _ in corners) // 3 + 8 * board.side] = number
    return _draw(rows)


def _draw(rows: dict[int, dict[int, int]]) -> str:
    texts = []
    for _, labels in sorted(rows.items()):
        text = ""
        for column, number in sorted(labels.items()):
            label = str(number)
            start = max(column - len(label) // 2, len(text) + 1 if text else 0)
            text += " " * (start - len(text)) + label
        texts.append(text.rstrip())
    return "\n".join(texts) + "\n"
