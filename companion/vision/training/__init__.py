"""Offline training of the recognisers' built-in data from the generator's drawings and generated frames.

Each recogniser reads what it knows of its game's built-in edition from JSON shipped beside it
(companion/vision/recognisers/*.json): templates, colour prototypes, classifiers. This package writes
those files, one module per game, using the generator (companion.vision.generate) as the world the
data is learned from. It runs on a developer's machine, never at run time: no recogniser imports it
(tests/vision/test_separation.py checks), so a Pi needs neither the generator nor this package to read
a table.

    .venv/bin/python -m companion.vision.training minotaurus      # rewrite one game's files
    .venv/bin/python -m companion.vision.training --list          # which files each game writes
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from companion.vision.base import VisionError
from companion.vision.recognisers._shipped import rewrite_command


class Writer(Protocol):
    """Writes one shipped file afresh (by default at its place beside the recogniser); returns its path."""

    def __call__(self, path: Path = ...) -> Path: ...


GAMES = ("asterion", "hornochsen", "minoa", "minos", "minotaurus", "toss")
"""The games whose built-in data this package writes (companion.vision.training.<game>)."""


class TrainingError(VisionError):
    """Training was asked for something it cannot write (an unknown game or file)."""


def writers(game: str) -> Mapping[str, Writer]:
    """The game's writers by the name of the file each writes (without ".json"), in the order they run."""
    if game not in GAMES:
        raise TrainingError(f"no training for {game!r}: the games are {', '.join(GAMES)}")
    module = importlib.import_module(f"{__name__}.{game}")
    found: Mapping[str, Writer] = module.WRITERS
    return found


def rewrite(game: str, only: str | None = None) -> list[Path]:
    """Write the game's shipped files afresh (or only the one named); the paths written."""
    chosen = writers(game)
    if only is not None and only not in chosen:
        raise TrainingError(f"{game} writes {', '.join(chosen)}, not {only!r}")
    return [write() for name, write in chosen.items() if only is None or name == only]


def write_document(path: Path, game: str, what: str, fields: Mapping[str, Any]) -> Path:
    """Write a shipped JSON document: an "about" naming what it holds and the command that rewrites it,
    then the fields (sorted, indented: a rewrite shows as a readable diff)."""
    document = {"about": f"{what}; rewrite with: {rewrite_command(game)}", **fields}
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    return path
