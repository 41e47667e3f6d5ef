"""Every label an item of a game's layout can have: the choices the label page offers, and what it accepts.

The labels are those of the vision contract (companion/vision/base.py, `Reading`), built from the games'
own data (the seeds and the rules' tiles), so a new colour or tile in a game's data shows up here too.
A game without a vocabulary here (a toy recogniser in a test, a game added later) offers the labels its
recording and its recogniser already use, so nothing the page shows can be a label it refuses.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from companion.vision.evaluate import item_kind

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
    from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN
    from companion.vision.recognisers._asterion_labels import tile_label

    tiles: list[str] = []
    for colour in COLOURS:
        for design in range(len(DESIGNS)):
            if design != MINOTAUR_DESIGN:
                # tile_label gives each look its one rotation: a tile that looks the same turned has fewer.
                tiles.extend(dict.fromkeys(tile_label(colour, design, turn) for turn in range(4)))
    return {"cell": ("empty", "minotaur@0", *tiles)}


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
    known = game_vocabulary(game) if game is not None else None
    vocabulary: dict[str, dict[str, None]] = {}
    for item in items:
        vocabulary.setdefault(item_kind(item), dict.fromkeys((known or {}).get(item_kind(item), ())))
    for item, label in used:
        vocabulary.setdefault(item_kind(item), {})[label] = None
    return {kind: tuple(labels) for kind, labels in vocabulary.items()}
