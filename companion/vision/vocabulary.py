"""Every label an item of a game's layout can have: the choices the label page offers, and what it accepts.

The labels are those of the vision contract (companion/vision/base.py, `Reading`), built from the games'
own data (the seeds and the rules' tiles), so a new colour or tile in a game's data shows up here too.
A game without a vocabulary here (a toy recogniser in a test, a game added later) offers the labels its
recording and its recogniser already use, so nothing the page shows can be a label it refuses.

How an item id or a label is spelled is the recordings' contract, shared by whatever writes them (the
generator, the label page) and whatever reads them (the recognisers): it lives here, not in either side.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from companion.games.asterion.tiles import COLOURS as ASTERION_COLOURS
from companion.games.asterion.tiles import DESIGN_INDEX, DESIGNS, MINOTAUR_DESIGN, turned_paths

EMPTY = "empty"
DOWN = "down"
"""A tile or piece lying face down."""
STICK = "stick"
"""Minoa's black stick on a line."""
MINOTAUR = "minotaur"
"""Asterion's Minotaur tile, in place of a set's colour."""

_ASTERION_CELL = re.compile(r"^cell:(-?\d+),(-?\d+)$")
_HORNOCHSEN_SQUARE = re.compile(r"^row:(\d+):square:(\d+)$")


def asterion_cell(item_id: str) -> tuple[int, int]:
    """(x, y) of an Asterion cell's item id "cell:X,Y"."""
    match = _ASTERION_CELL.match(item_id)
    if not match:
        raise ValueError(f"asterion: {item_id!r} is not a cell item (cell:X,Y)")
    return int(match.group(1)), int(match.group(2))


@functools.cache
def asterion_canonical_rotation(design: int, rotation: int) -> int:
    """The smallest rotation showing the same paths as `rotation` (the game's notion of the same)."""
    look = frozenset(turned_paths(design, rotation % 4))
    return next(r for r in range(4) if frozenset(turned_paths(design, r)) == look)


def asterion_tile_label(colour: str | None, design: int, rotation: int) -> str:
    """The label of a placed tile, "<colour>:<design>@<rotation>"; colour None (and design
    MINOTAUR_DESIGN) for the Minotaur tile, "minotaur@0"."""
    if design == MINOTAUR_DESIGN:
        return f"{MINOTAUR}@0"
    return f"{colour}:{DESIGNS[design].name}@{asterion_canonical_rotation(design, rotation)}"


def parse_asterion_label(label: str) -> tuple[str, int, int] | None:
    """(frame colour, design number, rotation) of a tile label; None for "empty"."""
    if label == EMPTY:
        return None
    if label == f"{MINOTAUR}@0":
        return MINOTAUR, MINOTAUR_DESIGN, 0
    head, _, turn = label.rpartition("@")
    colour, _, name = head.partition(":")
    if colour not in ASTERION_COLOURS or name not in DESIGN_INDEX or turn not in ("0", "1", "2", "3"):
        raise ValueError(
            f"asterion: {label!r} is not a tile label: use '<colour>:<design>@<0-3>', 'minotaur@0' or 'empty'"
        )
    return colour, DESIGN_INDEX[name], int(turn)


def hornochsen_square(item_id: str) -> tuple[int, int] | None:
    """(row, square) of a board square's item id "row:R:square:S"; None for a played slot."""
    match = _HORNOCHSEN_SQUARE.match(item_id)
    return (int(match.group(1)), int(match.group(2))) if match else None


def hornochsen_played_slot(seat: int, second: bool = False) -> str:
    """The item id of a seat's played-tile slot; `second` for its second tile in a double round."""
    return f"played:seat{seat}:2" if second else f"played:seat{seat}"


def minotaurus_piece_label(colour: str, value: int, horn: str) -> str:
    """A face-up piece's label, "blue-3-left"."""
    return f"{colour}-{value}-{horn}"


def parse_minotaurus_piece(label: str, horns: Iterable[str]) -> tuple[str, int, str]:
    """("blue", 3, "left") from "blue-3-left", given the game's horns."""
    colour, _, rest = label.partition("-")
    value, _, horn = rest.partition("-")
    if not colour or not value.isdigit() or horn not in tuple(horns):
        raise ValueError(f"{label!r} is not a face-up piece label like 'blue-3-left'")
    return colour, int(value), horn


Vocabulary = dict[str, tuple[str, ...]]
"""Item kind ("cell", "row/square", ...) → the labels an item of that kind may have."""


def _minotaurus() -> Vocabulary:
    from companion.seeddata import load_seed

    seed = load_seed("minotaurus")
    values = sorted({value for setup in seed["setup"] for value in setup["values"]})
    pieces = [
        f"{colour['name']}-{value}-{horn}"
        for colour in seed["colours"]
        for value in values
        for horn in seed["horns"]["names"]
    ]
    return {"cell": ("empty", "down", *pieces)}


def _minos() -> Vocabulary:
    from companion.seeddata import load_seed

    return {"die": (*load_seed("minos")["dice"]["faces"], "unseen")}


def _hornochsen() -> Vocabulary:
    tile = ("empty", "down", *(str(n) for n in range(1, 100)))
    # "played:seat1" is a seat's tile, "played:seat1:2" its second tile in a double round.
    return {"row/square": tile, "played": tile, "played/2": tile}


def _asterion() -> Vocabulary:
    tiles: list[str] = []
    for colour in ASTERION_COLOURS:
        for design in range(len(DESIGNS)):
            if design != MINOTAUR_DESIGN:
                # A tile label names each look by one rotation: a tile that looks the same turned has fewer.
                tiles.extend(dict.fromkeys(asterion_tile_label(colour, design, turn) for turn in range(4)))
    return {"cell": (EMPTY, f"{MINOTAUR}@0", *tiles)}


def _minoa() -> Vocabulary:
    from companion.games.minoa import COLOURS

    return {"line": ("empty", "stick", *COLOURS)}


def _toss() -> Vocabulary:
    return {"horn": ("clear", "ring")}


_GAMES = {
    "minotaurus": _minotaurus,
    "toss": _toss,
    "minos": _minos,
    "hornochsen": _hornochsen,
    "asterion": _asterion,
    "minoa": _minoa,
}


@functools.cache
def game_vocabulary(game: str) -> Vocabulary | None:
    """The game's labels by item kind; None for a game this module does not know."""
    build = _GAMES.get(game)
    return build() if build is not None else None


def vocabulary_for(game: str | None, items: Iterable[str], used: Iterable[tuple[str, str]]) -> Vocabulary:
    """The labels per kind of the given items: the game's own, with every label already `used`
    (item, label) for an item of that kind added (an older recording's or the recogniser's own)."""
    # Imported here: evaluate pulls in the whole pipeline, and the recognisers and the generator read
    # this module only for how labels are spelled.
    from companion.vision.evaluate import item_kind

    known = game_vocabulary(game) if game is not None else None
    vocabulary: dict[str, dict[str, None]] = {}
    for item in items:
        vocabulary.setdefault(item_kind(item), dict.fromkeys((known or {}).get(item_kind(item), ())))
    for item, label in used:
        vocabulary.setdefault(item_kind(item), {})[label] = None
    return {kind: tuple(labels) for kind, labels in vocabulary.items()}
