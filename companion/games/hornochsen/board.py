"""The board of Tanz der Hornochsen as data, and the rules that only read it.

The board is only in the rule text's missing illustrations, so its layout is
data (seeds/hornochsen.toml) with a documented default that a table can edit
to match its own board. Everything here is pure: rows as lists of tile
numbers, pieces as squares on the scorekeeping course.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from companion.seeddata import SeedError, load_seed

# Section names of the rule text: every refusal names one of them.
CONTENTS = "Contents"
PREPARATION = "Preparation"
HOW_PLAYED = "How are tiles played?"
WHICH_ROW = "Which row is a tile added to?"
RULE_1 = "Rule No. 1: Ascending Order"
RULE_2 = "Rule No. 2: Smallest Difference"
RULE_3 = "Rule No. 3: Lowest Number"
BULLHEAD = "What do you get minus points for?"
BUYING = "Buy additional tiles"
DOUBLE = "The Double Squares"
END = "End of the Game"


@dataclasses.dataclass(frozen=True)
class Row:
    """One row of squares; its last square is the bullhead square."""

    index: int
    side: str
    length: int
    bullhead: int
    cow_pats: Mapping[int, int]
    double_squares: frozenset[int]
    happy_cows: frozenset[int]

    @property
    def bullhead_square(self) -> int:
        return self.length - 1

    def points_at(self, square: int) -> int:
        """Minus points (or plus points in happy-cow time) for a tile put on `square`."""
        return self.bullhead if square == self.bullhead_square else self.cow_pats.get(square, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.index,
            "side": self.side,
            "length": self.length,
            "bullhead": self.bullhead,
            "cow_pats": {str(k): v for k, v in sorted(self.cow_pats.items())},
            "double_squares": sorted(self.double_squares),
            "happy_cows": sorted(self.happy_cows),
        }


@dataclasses.dataclass(frozen=True)
class Board:
    rows: tuple[Row, ...]
    tiles: int
    per_player: int
    free_refill: int
    max_behind_screen: int
    max_bought: int
    active_rows: int
    dunghill: int
    bulls_eyes: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [r.to_json() for r in self.rows],
            "dunghill": self.dunghill,
            "bulls_eyes": list(self.bulls_eyes),
        }


def _row_from_seed(index: int, data: Mapping[str, Any]) -> Row:
    length, bullhead = int(data["length"]), int(data["bullhead"])
    row = Row(
        index=index,
        side=str(data["side"]),
        length=length,
        bullhead=bullhead,
        cow_pats={int(k): int(v) for k, v in data.get("cow_pats", {}).items()},
        double_squares=frozenset(int(s) for s in data.get("double_squares", ())),
        happy_cows=frozenset(int(s) for s in data.get("happy_cows", ())),
    )
    inner = range(1, length - 1)  # square 0 takes a row's first tile, the last is the bullhead
    special = [*row.cow_pats, *row.double_squares, *row.happy_cows]
    if length < 2 or bullhead < 1 or any(s not in inner for s in special):
        raise SeedError(
            f"hornochsen row {index}: needs a length of at least 2, a bullhead value of at least 1, "
            f"and special squares only between the first square and the bullhead square (1 to {length - 2})"
        )
    if any(v < 1 for v in row.cow_pats.values()):
        raise SeedError(f"hornochsen row {index}: cow-pats score at least 1")
    return row


def load_board(seed: Mapping[str, Any]) -> Board:
    tiles, course = seed["tiles"], seed["course"]
    board = Board(
        rows=tuple(_row_from_seed(i, r) for i, r in enumerate(seed["rows"])),
        tiles=int(tiles["count"]),
        per_player=int(tiles["per_player"]),
        free_refill=int(tiles["free_refill"]),
        max_behind_screen=int(tiles["max_behind_screen"]),
        max_bought=int(tiles["max_bought_per_round"]),
        active_rows=int(tiles["active_rows"]),
        dunghill=int(course["dunghill"]),
        bulls_eyes=tuple(sorted(int(b) for b in course["bulls_eyes"])),
    )
    if len(board.rows) <= board.active_rows:
        raise SeedError("hornochsen: the board needs more rows than active rows, so a free row always exists")
    if sum(1 for r in board.rows if r.double_squares) > 1:
        raise SeedError("hornochsen: the rule text has one row with double squares")
    if not all(0 < b < board.dunghill for b in board.bulls_eyes):
        raise SeedError("hornochsen: Bull's Eye squares lie between the start and the dunghill")
    return board


BOARD = load_board(load_seed("hornochsen"))


# ---------------------------------------------------------------- rows


def required_row(tile: int, last_numbers: Mapping[int, int]) -> tuple[int, str]:
    """The active row `tile` must join by rules 1-3, and the rule that decides it.

    `last_numbers` maps each active row to the number of its last tile.
    """
    lower = {row: last for row, last in last_numbers.items() if last < tile}
    if lower:
        return min(lower, key=lambda row: tile - lower[row]), RULE_2
    return max(last_numbers, key=lambda row: last_numbers[row]), RULE_3


def wrong_row_reason(tile: int, row: int, last_numbers: Mapping[int, int]) -> tuple[str, str] | None:
    """Why `tile` may not join `row` (rule, words), or None when it is the required row."""
    if row not in last_numbers:
        active = ", ".join(str(r) for r in sorted(last_numbers))
        return WHICH_ROW, f"row {row} is not active; the active rows are {active}"
    target, rule = required_row(tile, last_numbers)
    if row == target:
        return None
    if rule == RULE_3:
        return RULE_3, (
            f"{tile} is lower than the last tile of every active row: it goes to row {target}, "
            f"the row with the highest last number ({last_numbers[target]})"
        )
    if last_numbers[row] > tile:
        return RULE_1, f"{tile} is lower than {last_numbers[row]}, the last tile of row {row}"
    return RULE_2, (
        f"{tile} goes to row {target}: {tile} - {last_numbers[target]} is the smallest difference, "
        f"not {tile} - {last_numbers[row]}"
    )


def next_free_row(completed: int, active: Sequence[int], row_count: int) -> int:
    """The first free row below the completed one, round from the bottom right to the top left."""
    for step in range(1, row_count):
        row = (completed + step) % row_count
        if row not in active:
            return row
    raise AssertionError("the board always has a free row (checked when the seed is loaded)")


# ---------------------------------------------------------------- the course


def move_piece(positions: Sequence[int], seat: int, points: int, *, forward: bool) -> int:
    """Where `seat`'s piece lands after `points` minus (forward) or plus points.

    Only the start square holds several pieces; a piece that would land on
    an occupied square goes on towards the dunghill to the next free one, in
    both directions. Plus points past the start are lost.
    """
    here = positions[seat]
    target = here + points if forward else max(0, here - points)
    occupied = {p for s, p in enumerate(positions) if s != seat}
    while target != 0 and target in occupied:
        target += 1
    return target
