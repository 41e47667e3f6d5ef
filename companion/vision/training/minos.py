"""Minos: the built-in dice's faces, as the generator draws them.

Writes recognisers/minos_faces.json: each symbol's die face, grey, upright, at plane scale.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, encode_template
from companion.vision.recognisers import minos as recogniser
from companion.vision.recognisers.minos import FACES_FILE, GAME, SYMBOLS
from companion.vision.training import Writer, write_document


def drawn_faces() -> dict[str, str]:
    """Each symbol's die face drawn by the generator, grey, as base64 PNG."""
    from companion.vision.generate.minos import die_face

    return {
        symbol: encode_template(
            numpy.asarray(cv2.cvtColor(die_face(symbol, PLANE_PX_PER_MM), cv2.COLOR_BGR2GRAY), numpy.uint8)
        )
        for symbol in SYMBOLS
    }


def write_faces(path: Path = FACES_FILE) -> Path:
    """Write the built-in faces (by default beside the recogniser) and make the recogniser read them anew."""
    fields = {"px_per_mm": PLANE_PX_PER_MM, "faces": drawn_faces()}
    written = write_document(path, GAME, "Minos dice faces (grey PNG) drawn by the generator", fields)
    recogniser.default_faces.cache_clear()
    return written


WRITERS: Mapping[str, Writer] = {FACES_FILE.stem: write_faces}
