"""The built-in editions' appearance, shipped as JSON files beside the recognisers.

What a recogniser knows of the built-in edition of its game (templates of faces and digits, colour
prototypes, classifiers) is data in companion/vision/recognisers/<name>.json, written offline by
companion.vision.training from the generator's drawings and generated frames. Recognisers read the
files only: none imports the generator, so the generator stays an independent world to test them in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy
import numpy.typing

from companion.vision.base import VisionError, decode_template

SHIPPED_DIR = Path(__file__).parent


class ShippedDataError(VisionError):
    """A recogniser's shipped file is missing or lacks what the recogniser needs."""


def shipped_path(name: str) -> Path:
    """Where the shipped file `name` (without ".json") lies."""
    return SHIPPED_DIR / f"{name}.json"


def rewrite_command(game: str) -> str:
    """The command that writes a game's shipped files afresh."""
    return f".venv/bin/python -m companion.vision.training {game}"


def load_shipped(
    path: Path, game: str, keys: tuple[str, ...], expected: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The shipped document at `path`, which must hold every one of `keys`, and the `expected` values
    (the scale its pictures were written at, say: a file written for another one would misread).

    A clear error names the file and the command that writes it: a missing or stale file is a broken
    install or checkout, and guessing the built-in look at run time would hide that.
    """
    try:
        document = _read(path)
    except FileNotFoundError:
        raise ShippedDataError(
            f"{path} is missing: the {game} recogniser needs it; write it with {rewrite_command(game)}"
        ) from None
    except (OSError, ValueError) as error:
        raise ShippedDataError(
            f"{path} is not readable JSON ({error}); write it afresh with {rewrite_command(game)}"
        ) from None
    missing = [key for key in keys if key not in document]
    if not isinstance(document, dict) or missing:
        raise ShippedDataError(
            f"{path} lacks {', '.join(missing) or 'an object'}; write it afresh with {rewrite_command(game)}"
        )
    for key, value in (expected or {}).items():
        if document.get(key) != value:
            raise ShippedDataError(
                f"{path} was written for {key} {document.get(key)!r}, not {value!r}; "
                f"write it afresh with {rewrite_command(game)}"
            )
    return document


def _read(path: Path) -> Any:
    # Not cached here: each recogniser caches what it builds from the file (functools.cache), and
    # training, which rewrites the files, clears those caches.
    return json.loads(path.read_text())


def decoded_templates(
    templates: Mapping[str, str], path: Path, game: str
) -> dict[str, numpy.typing.NDArray[numpy.uint8]]:
    """Images stored by base.encode_template, by name; an unreadable one names its file."""
    try:
        return {name: decode_template(text) for name, text in templates.items()}
    except (VisionError, ValueError) as error:
        raise ShippedDataError(
            f"{path}: a template is unreadable ({error}); write it afresh with {rewrite_command(game)}"
        ) from None


def shipped_colours(path: Path, game: str, labels: tuple[str, ...]) -> dict[str, list[list[float]]]:
    """The colour prototypes (Lab, by label) in the shipped document's "colours": every one of `labels`
    with one prototype or more."""
    colours: dict[str, list[list[float]]] = load_shipped(path, game, ("colours",))["colours"]
    missing = [label for label in labels if not colours.get(label)]
    if missing:
        raise ShippedDataError(
            f"{path} lacks the colours {', '.join(missing)}; write it afresh with {rewrite_command(game)}"
        )
    return {label: [list(prototype) for prototype in prototypes] for label, prototypes in colours.items()}
