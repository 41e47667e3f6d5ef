"""Minos: the built-in dice's faces as drawn, and their symbols as normalised planes show them.

Writes recognisers/minos_faces.json (each symbol's die face drawn by the generator, grey, upright, at
plane scale: what a reader without a reference of the empty tray matches) and
recognisers/minos_normalised.json (each symbol's middle square as the recogniser cuts it from the play
frames of generated hard sessions of the built-in edition on every table kind, each plane normalised
against the session's empty tray as the reader normalises it: the cuts are aligned on the drawn symbol
and averaged, so the template carries the camera's blur, the light and the tops' height as seen).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame, encode_template
from companion.vision.recognisers import minos as recogniser
from companion.vision.recognisers._minos_dice import find_dice, neutral_mask, upright_cut
from companion.vision.recognisers.minos import (
    FACES_FILE,
    GAME,
    NORMALISED_FILE,
    SLACK_PX,
    SYMBOL_MM,
    SYMBOLS,
    aligned_symbol,
)
from companion.vision.training import TrainingError, Writer, write_document
from companion.vision.training.sessions import normalised_shots as sessions_of
from companion.vision.training.sessions import table_round_sittings

TRAINING_SESSIONS = 14
"""Generated sessions the normalised symbols are learned from: every table kind twice, the marker sheets
laid either way."""
TRAINING_FRAMES = 10
"""Play frames per session (frames with a hand or motion are left out, as the reader refuses them)."""
FIRST_SEED = 1
"""Session n is generated with seed FIRST_SEED + n: seeds below 1000, which the benchmarks never use."""
LEAST_MATCH = 0.6
"""A cut that matches its own symbol's drawing less than this is a die found wrongly: left out."""
Shot = tuple[Frame, Mapping[str, str]]
FloatImage = numpy.typing.NDArray[numpy.float32]


def _drawn_grey(symbol: str) -> numpy.typing.NDArray[numpy.uint8]:
    from companion.vision.generate.minos import die_face

    return numpy.asarray(cv2.cvtColor(die_face(symbol, PLANE_PX_PER_MM), cv2.COLOR_BGR2GRAY), numpy.uint8)


def drawn_faces() -> dict[str, str]:
    """Each symbol's die face drawn by the generator, grey, as base64 PNG."""
    return {symbol: encode_template(_drawn_grey(symbol)) for symbol in SYMBOLS}


def normalised_shots(
    sessions: int = TRAINING_SESSIONS, frames: int = TRAINING_FRAMES, first_seed: int = FIRST_SEED
) -> Iterator[Shot]:
    """The labelled play frames of generated hard sessions of the built-in edition, each as the plane the
    recogniser reads: normalised against the session's empty area, learned from its first frames."""
    return sessions_of(GAME, table_round_sittings(first_seed, sessions), frames)


def symbols_from(shots: Iterable[Shot]) -> dict[str, numpy.typing.NDArray[numpy.uint8]]:
    """Each symbol's mean cut over the shots, aligned on its drawing (dice not all found, or partly taken
    for table, are left out: they would blur the mean)."""
    side = round(SYMBOL_MM * PLANE_PX_PER_MM)
    drawn = {
        symbol: recogniser._symbol_square(_drawn_grey(symbol)).astype(numpy.float32) for symbol in SYMBOLS
    }
    sums = {symbol: numpy.zeros((side, side), numpy.float64) for symbol in SYMBOLS}
    counts = dict.fromkeys(SYMBOLS, 0)
    for plane, labels in shots:
        neutral = neutral_mask(plane)
        dice = find_dice(plane, neutral)
        if len(dice) != len(labels):
            continue
        grey = numpy.asarray(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY), numpy.uint8)
        seen = (~neutral).astype(numpy.uint8)
        for n, die in enumerate(dice):
            symbol = labels[f"die:{n}"]
            if numpy.mean(upright_cut(seen, die, SYMBOL_MM, SLACK_PX, beyond=0) > 0) < 1.0:
                continue
            cut = upright_cut(grey, die, SYMBOL_MM, SLACK_PX).astype(numpy.float32)
            window, score = aligned_symbol(cut, drawn[symbol])
            if score >= LEAST_MATCH:
                sums[symbol] += window
                counts[symbol] += 1
    missing = [symbol for symbol, count in counts.items() if count == 0]
    if missing:
        raise TrainingError(f"no generated die showed {', '.join(missing)} whole: generate more sessions")
    return {
        symbol: numpy.clip(sums[symbol] / counts[symbol] + 0.5, 0, 255).astype(numpy.uint8)
        for symbol in SYMBOLS
    }


def write_faces(path: Path = FACES_FILE) -> Path:
    """Write the built-in faces (by default beside the recogniser) and make the recogniser read them anew."""
    fields = {"px_per_mm": PLANE_PX_PER_MM, "faces": drawn_faces()}
    written = write_document(path, GAME, "Minos dice faces (grey PNG) drawn by the generator", fields)
    recogniser.default_faces.cache_clear()
    return written


def write_normalised(path: Path = NORMALISED_FILE) -> Path:
    """Learn the symbols as normalised planes show them afresh and write them (minutes of CPU: each
    session's frames are drawn by the generator's world, camera and lamp)."""
    symbols = symbols_from(normalised_shots())
    fields = {
        "px_per_mm": PLANE_PX_PER_MM,
        "sessions": TRAINING_SESSIONS,
        "frames_per_session": TRAINING_FRAMES,
        "first_seed": FIRST_SEED,
        "symbols": {symbol: encode_template(image) for symbol, image in symbols.items()},
    }
    what = "Minos symbols (grey PNG) learned from normalised planes of generated hard sessions"
    written = write_document(path, GAME, what, fields)
    recogniser.normalised_faces.cache_clear()
    return written


WRITERS: Mapping[str, Writer] = {FACES_FILE.stem: write_faces, NORMALISED_FILE.stem: write_normalised}
