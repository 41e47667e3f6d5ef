"""Minotaurus: the built-in pieces' faces and back, and the cell prototypes learned from generated planes.

Writes recognisers/minotaurus_faces.json (the generator's drawing of each face, grey, straight from
above), recognisers/minotaurus_prototypes.json (cell features of generated, spoilt planes as the camera
sees them, with a fixed seed: what a reader without a reference of the empty area reads) and
recognisers/minotaurus_normalised.json (cell features of the play frames of generated hard sessions of
the built-in edition on every table kind, each plane normalised against the session's empty area as
the reader normalises it: table pixels neutral, light canonical). Both are shrunk to prototypes per
label by k-means.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame, encode_template
from companion.vision.recognisers import minotaurus as recogniser
from companion.vision.recognisers._minotaurus_prototypes import (
    NORMALISED_FILE,
    PROTOTYPES_FILE,
    cluster_prototypes,
    default_prototypes,
    normalised_prototypes,
)
from companion.vision.recognisers.minotaurus import (
    BACK_TEMPLATE,
    COLOURS,
    FACES_FILE,
    FACES_PX_PER_MM,
    GAME,
    HORNS,
    SETUPS,
    cell_features,
    colour_class,
    face_names,
    matrix_layout,
    piece_label,
)
from companion.vision.training import Writer, write_document
from companion.vision.training.sessions import normalised_shots as sessions_of
from companion.vision.training.sessions import table_round_sittings

TRAINING_PLANES = 60
"""Generated shots the built-in prototypes for planes without a reference are learned from."""
PROTOTYPES_PER_LABEL = 24
PROTOTYPES_SEED = 20261121
"""Seed of the generated planes the built-in prototypes are learned from (no evaluation set uses it)."""
TRAINING_SESSIONS = 14
"""Generated sessions the prototypes for normalised planes are learned from: every table kind twice,
the marker sheets laid either way."""
TRAINING_FRAMES = 10
"""Play frames per session (frames with a hand or motion are left out, as the reader refuses them)."""
FIRST_SEED = 1
"""Session n is generated with seed FIRST_SEED + n: seeds below 1000, which the benchmarks never use."""
Shot = tuple[Frame, Mapping[str, str]]


def _grey(face: Frame) -> numpy.typing.NDArray[numpy.uint8]:
    return numpy.asarray(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), numpy.uint8)


def drawn_faces() -> dict[str, str]:
    """The generator's faces of the built-in edition as base64 PNG: the back, and each value and horn on
    a white piece (the recogniser matches glyphs in grey, whatever the piece's colour)."""
    from companion.vision.generate.minotaurus import piece_face

    faces = {BACK_TEMPLATE: encode_template(_grey(piece_face("down", FACES_PX_PER_MM)))}
    for name in face_names():
        value, _, horn = name.partition("-")
        face = piece_face(piece_label("white", int(value), horn), FACES_PX_PER_MM)
        faces[name] = encode_template(_grey(face))
    return faces


def learn_prototypes(
    planes: int = TRAINING_PLANES, seed: int = PROTOTYPES_SEED
) -> dict[str, list[list[float]]]:
    """Cell prototypes learned from generated, spoilt planes of the built-in edition (fixed seed)."""
    from companion.vision.generate import effects
    from companion.vision.generate.minotaurus import render_plane

    rng = numpy.random.default_rng(seed)
    layout = matrix_layout({"players": max(SETUPS)})
    values = SETUPS[max(SETUPS)]["values"]
    samples: dict[str, list[numpy.typing.NDArray[numpy.float32]]] = {}
    for _ in range(planes):
        # Far more pieces face up than in play: every colour needs many looks under every light.
        labels = {item: str(rng.choice(["empty", "down", "up"], p=[0.3, 0.3, 0.4])) for item in layout.items}
        for item, label in labels.items():
            if label == "up":
                colour, value = COLOURS[int(rng.integers(len(COLOURS)))], int(rng.choice(values))
                labels[item] = piece_label(colour, value, HORNS[int(rng.integers(2))])
        plane = effects.decode_jpeg(effects.spoil(render_plane(labels, layout, rng), rng, hard=True))
        ids, features = cell_features(plane, layout)
        for item, row in zip(ids, features, strict=True):
            samples.setdefault(colour_class(labels[item]), []).append(row)
    return cluster_prototypes(samples, PROTOTYPES_PER_LABEL)


def normalised_shots(
    sessions: int = TRAINING_SESSIONS, frames: int = TRAINING_FRAMES, first_seed: int = FIRST_SEED
) -> Iterator[Shot]:
    """The labelled play frames of generated hard sessions of the built-in edition, each as the plane the
    recogniser reads: normalised against the session's empty area, learned from its first frames."""
    return sessions_of(GAME, table_round_sittings(first_seed, sessions), frames)


def prototypes_from(shots: Iterable[Shot]) -> dict[str, list[list[float]]]:
    """Each label's cell features over the shots, shrunk to prototypes."""
    samples: dict[str, list[numpy.typing.NDArray[numpy.float32]]] = {}
    for plane, labels in shots:
        layout = matrix_layout({"players": _players(len(labels))})
        ids, features = cell_features(plane, layout)
        for item, row in zip(ids, features, strict=True):
            samples.setdefault(colour_class(labels[item]), []).append(row)
    return cluster_prototypes(samples, PROTOTYPES_PER_LABEL)


def _players(cells: int) -> int:
    return next(p for p, setup in recogniser.SETUPS.items() if setup["rows"] * setup["columns"] == cells)


def learn_normalised_prototypes() -> dict[str, list[list[float]]]:
    """Cell prototypes for normalised planes, learned from generated sessions of the built-in edition."""
    return prototypes_from(normalised_shots())


def write_faces(path: Path = FACES_FILE) -> Path:
    """Write the built-in faces (by default beside the recogniser) and make the recogniser read them anew."""
    fields = {"px_per_mm": FACES_PX_PER_MM, "faces": drawn_faces()}
    written = write_document(path, GAME, "Minotaurus faces (grey PNG) drawn by the generator", fields)
    for cached in (recogniser._shipped_faces, recogniser.default_back, recogniser.default_faces):
        cached.cache_clear()
    return written


def write_prototypes(path: Path = PROTOTYPES_FILE) -> Path:
    """Learn the built-in cell prototypes afresh and write them (by default beside the recogniser).

    The cell features compare each middle with the back, so the faces are written first."""
    fields = {"planes": TRAINING_PLANES, "seed": PROTOTYPES_SEED, "prototypes": learn_prototypes()}
    what = "Minotaurus cell prototypes learned from generated hard planes"
    written = write_document(path, GAME, what, fields)
    default_prototypes.cache_clear()
    return written


def write_normalised(path: Path = NORMALISED_FILE) -> Path:
    """Learn the cell prototypes for normalised planes afresh and write them (minutes of CPU: each
    session's frames are drawn by the generator's world, camera and lamp)."""
    fields = {
        "sessions": TRAINING_SESSIONS,
        "frames_per_session": TRAINING_FRAMES,
        "first_seed": FIRST_SEED,
        "prototypes": learn_normalised_prototypes(),
    }
    what = "Minotaurus cell prototypes learned from normalised planes of generated hard sessions"
    written = write_document(path, GAME, what, fields)
    normalised_prototypes.cache_clear()
    return written


WRITERS: Mapping[str, Writer] = {
    FACES_FILE.stem: write_faces,
    PROTOTYPES_FILE.stem: write_prototypes,
    NORMALISED_FILE.stem: write_normalised,
}
