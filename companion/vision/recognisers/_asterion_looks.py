"""Asterion: the tiles' looks, as shipped and as taught.

The built-in edition's pictures are shipped in asterion_tiles.json (written by `python -m
companion.vision.training asterion`): per frame colour and design the template (as normalised planes
show the tile, learned from generated sessions) and the drawing (exact, blurred as a camera blurs).
A taught edition's looks are its tiles as shot; the designs not taught are the built-in ones in the
taught print's colours (`_transferred`). Matching a cell against them is in _asterion_match.
"""

from __future__ import annotations

import functools

import numpy

from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN
from companion.vision.base import Frame, decode_template, encode_template
from companion.vision.recognisers._asterion_labels import MINOTAUR
from companion.vision.recognisers._asterion_window import GAME, TEMPLATE_PX, turned
from companion.vision.recognisers._lab import FloatArray
from companion.vision.recognisers._shipped import (
    ShippedDataError,
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)

TILES_FILE = shipped_path("asterion_tiles")
"""The built-in edition: its colours (Lab prototypes) and a template per frame colour and design."""


def built_in_shapes() -> list[str]:
    """Every "<frame colour>:<design number>" of the game: each set's designs, and the Minotaur tile."""
    shapes = [(colour, d) for colour in COLOURS for d in range(len(DESIGNS))] + [(MINOTAUR, MINOTAUR_DESIGN)]
    return [f"{colour}:{d}" for colour, d in shapes]


@functools.cache
def built_in_templates() -> dict[str, Frame]:
    """Template per "<frame colour>:<design number>": the built-in tile, unturned, as normalised planes
    show it (learned from generated sessions), as 8-bit Lab at TEMPLATE_PX (shipped in TILES_FILE)."""
    return _shipped_pictures("templates")


@functools.cache
def built_in_drawings() -> dict[str, Frame]:
    """The built-in tiles as drawn (exact, flat, blurred as a camera blurs), like `built_in_templates`:
    where two designs differ is read from these, which differ there only (learned pictures differ a
    little everywhere, in the light and grain of the frames they were learned from)."""
    return _shipped_pictures("drawings")


def _shipped_pictures(key: str) -> dict[str, Frame]:
    document = load_shipped(TILES_FILE, GAME, (key,), {"template_px": TEMPLATE_PX})
    pictures = decoded_templates(document[key], TILES_FILE, GAME)
    missing = [shape for shape in built_in_shapes() if shape not in pictures]
    if missing:
        raise ShippedDataError(
            f"{TILES_FILE} lacks the {key} {', '.join(missing)}; write it afresh with {rewrite_command(GAME)}"
        )
    return {shape: pictures[shape] for shape in built_in_shapes()}


def looks_of(
    templates: dict[str, str],
) -> tuple[dict[str, tuple[list[FloatArray], list[tuple[int, int]]]], dict[str, list[str]]]:
    """A profile's tile pictures (its templates, and the looks `_transferred` from them) per frame
    colour, every design at every rotation it has, with its look (design, rotation); and per colour what
    each picture was made from ("" drawn, "taught", "transferred")."""
    by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]] = {}
    sources: dict[str, list[str]] = {}
    every = {**templates, **_transferred(templates)}
    names = sorted(name for name in every if name.startswith("tile:"))
    for name in names:
        _, colour, design_text = name.split(":")[:3]
        design = int(design_text)
        picture = decode_template(every[name]).astype(numpy.float32)
        pictures, looks = by_colour.setdefault(colour, ([], []))
        for rotation in range(1 if design == MINOTAUR_DESIGN else 4):
            pictures.append(turned(picture, rotation))
            looks.append((design, rotation))
            sources.setdefault(colour, []).append(":".join(name.split(":")[3:]))
    return by_colour, sources


def _transferred(templates: dict[str, str]) -> dict[str, str]:
    """Looks of a taught edition that were not taught, from the built-in ones: per frame colour, the
    affine map of Lab colours that takes the built-in pictures of the taught designs to the taught
    ones (frame, stone and path of this print), applied to the other designs' built-in pictures.
    Without them a taught blank cell out-scored every built-in design of its colour (a corridor of the
    edition is more like its cell than like the built-in corridor)."""
    pairs: dict[str, list[tuple[FloatArray, FloatArray]]] = {}
    for name in templates:
        parts = name.split(":")
        if len(parts) == 4 and parts[3] == "taught" and f"tile:{parts[1]}:{parts[2]}" in templates:
            built_in = decode_template(templates[f"tile:{parts[1]}:{parts[2]}"]).astype(numpy.float32)
            taught = decode_template(templates[name]).astype(numpy.float32)
            pairs.setdefault(parts[1], []).append((built_in.reshape(-1, 3), taught.reshape(-1, 3)))
    made: dict[str, str] = {}
    for colour, shown in pairs.items():
        source = numpy.concatenate([numpy.c_[b, numpy.ones(len(b), numpy.float32)] for b, _ in shown])
        target = numpy.concatenate([t for _, t in shown])
        mapping = numpy.linalg.lstsq(source, target, rcond=None)[0]
        for name in templates:
            parts = name.split(":")
            if len(parts) != 3 or parts[1] != colour or f"{name}:taught" in templates:
                continue
            built_in = decode_template(templates[name]).astype(numpy.float32)
            flat = numpy.c_[built_in.reshape(-1, 3), numpy.ones(built_in.shape[0] * built_in.shape[1])]
            picture = numpy.clip(numpy.round(flat @ mapping), 0, 255).astype(numpy.uint8)
            made[f"{name}:transferred"] = encode_template(picture.reshape(built_in.shape))
    return made
