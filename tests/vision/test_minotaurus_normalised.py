"""The Minotaurus recogniser on normalised planes (the table neutral grey, the light canonical): the matrix
found where its pieces lie, the prototypes shipped for such planes, and an edition taught on one plane
read on another.

The planes are drawn here as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Frame, Profile, VisionError, recogniser_for
from companion.vision.generate.minotaurus import paste, piece_face
from companion.vision.recognisers import _minotaurus_prototypes, minotaurus
from companion.vision.recognisers.minotaurus import (
    COLOURS,
    HORNS,
    cell_centres,
    is_normalised,
    matrix_layout,
    piece_label,
    setup_for,
)
from companion.vision.reference import NEUTRAL_BGR
from companion.vision.training import minotaurus as training

LAYOUT = matrix_layout({"players": 5})
CUT_EDGE_MM = 10.0
"""Marker sheets laid by their cut edge: the markers' squares sit this much further in on every side."""


def _labels(rng: numpy.random.Generator) -> dict[str, str]:
    values = setup_for(len(LAYOUT.items))["values"]
    labels = {}
    for item in LAYOUT.items:
        kind = rng.choice(["empty", "down", "up"], p=[0.3, 0.4, 0.3])
        if kind == "up":
            colour, horn = COLOURS[int(rng.integers(len(COLOURS)))], HORNS[int(rng.integers(len(HORNS)))]
            labels[item] = piece_label(colour, int(rng.choice(values)), horn)
        else:
            labels[item] = str(kind)
    return labels


def _where(item: str, inset_mm: float) -> tuple[float, float]:
    """Where a cell's piece shows in the plane when the markers sit `inset_mm` in from the area's edges
    (the plane then spans the area less the insets, so the matrix shows stretched)."""
    width, height = LAYOUT.plane_mm
    x, y = LAYOUT.items[item].centre_mm
    return (
        (x - inset_mm) * width / (width - 2 * inset_mm),
        (y - inset_mm) * height / (height - 2 * inset_mm),
    )


def _normalised_plane(
    labels: dict[str, str], rng: numpy.random.Generator, *, inset_mm: float = 0.0, edition: str = "default"
) -> Frame:
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    for item, label in labels.items():
        if label == "empty":
            continue
        x, y = _where(item, inset_mm)
        centre = ((x + rng.uniform(-2, 2)) * PLANE_PX_PER_MM, (y + rng.uniform(-2, 2)) * PLANE_PX_PER_MM)
        face = piece_face(label, PLANE_PX_PER_MM, edition=edition)
        # What the light correction leaves: a piece a little lighter or darker than canonical.
        lit = numpy.clip(face.astype(numpy.float32) * rng.uniform(0.9, 1.08), 0, 255).astype(numpy.uint8)
        paste(plane, lit, centre, rng.uniform(-6, 6), shadow=False)
    return plane


def test_the_matrix_is_found_where_its_pieces_lie_when_the_sheets_lie_by_their_cut_edge() -> None:
    rng = numpy.random.default_rng(4)
    labels = _labels(rng)
    plane = _normalised_plane(labels, rng, inset_mm=CUT_EDGE_MM)
    small = minotaurus._small(plane)
    assert is_normalised(small)
    ids = list(LAYOUT.items)
    found = cell_centres(small, LAYOUT, ids, normalised=True)
    truth = numpy.array([_where(item, CUT_EDGE_MM) for item in ids])
    nominal = numpy.array([LAYOUT.items[item].centre_mm for item in ids])
    assert numpy.abs(nominal - truth).max() > 7.0  # read where the layout says, the edge cells miss
    assert numpy.abs(found - truth).max() < 2.5
    reading = recogniser_for("minotaurus").read(plane, LAYOUT, None)
    assert reading.items == labels


def test_a_plane_as_the_camera_sees_it_is_not_taken_for_a_normalised_one() -> None:
    rng = numpy.random.default_rng(5)
    plane = _normalised_plane(_labels(rng), rng)
    assert is_normalised(minotaurus._small(plane))
    table = plane.copy()
    neutral = numpy.all(plane == NEUTRAL_BGR, axis=2)
    table[neutral] = (60, 95, 140)  # a wooden table where the reference would put its grey
    assert not is_normalised(minotaurus._small(table))


def test_an_edition_taught_on_one_plane_reads_on_another() -> None:
    """Teaching on a normalised plane learns the pieces, not the cloth: a later plane (other pieces, other
    places, light a little off) of the same edition reads right."""
    recogniser = recogniser_for("minotaurus")
    rng = numpy.random.default_rng(6)
    profile = Profile("minotaurus", "travel")
    values = setup_for(len(LAYOUT.items))["values"]
    shown = {"cell:0": "empty", "cell:1": "down"}
    for n, colour in enumerate(COLOURS):
        shown[f"cell:{2 + n}"] = piece_label(colour, values[n % len(values)], HORNS[n % 2])
    for n, value in enumerate(values):
        shown[f"cell:{12 + n}"] = piece_label(COLOURS[n], value, HORNS[(n + 1) % 2])
    lesson = {item: shown.get(item, "empty") for item in LAYOUT.items}
    profile = recogniser.teach(_normalised_plane(lesson, rng, edition="travel"), LAYOUT, shown, profile)
    for seed in (7, 8):
        later_rng = numpy.random.default_rng(seed)
        labels = _labels(later_rng)
        plane = _normalised_plane(labels, later_rng, inset_mm=5.0, edition="travel")
        reading = recogniser.read(plane, LAYOUT, profile)
        right = sum(reading.items[item] == label for item, label in labels.items())
        assert right == len(labels), {
            item: (label, reading.items[item])
            for item, label in labels.items()
            if reading.items[item] != label
        }


def test_the_shipped_normalised_prototypes_are_those_the_training_names() -> None:
    """Learning them afresh takes minutes (each session drawn by the generator's world): here, that the
    file is the training's (its sessions, frames and seeds) and holds every label the cells read."""
    document = json.loads(_minotaurus_prototypes.NORMALISED_FILE.read_text())
    assert document["sessions"] == training.TRAINING_SESSIONS
    assert document["frames_per_session"] == training.TRAINING_FRAMES
    assert (
        document["first_seed"] == training.FIRST_SEED
        and training.FIRST_SEED + training.TRAINING_SESSIONS < 1000
    )
    assert set(document["prototypes"]) == {"empty", "down", *COLOURS}
    assert _minotaurus_prototypes.normalised_prototypes.__wrapped__() == document["prototypes"]


@pytest.mark.parametrize("inset_mm", [0.0, CUT_EDGE_MM])
def test_a_normalised_plane_of_the_built_in_edition_reads_right(inset_mm: float) -> None:
    rng = numpy.random.default_rng(int(inset_mm) + 11)
    labels = _labels(rng)
    reading = recogniser_for("minotaurus").read(
        _normalised_plane(labels, rng, inset_mm=inset_mm), LAYOUT, None
    )
    assert reading.items == labels


def test_without_the_normalised_prototypes_the_recogniser_names_the_file_and_its_rewrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_minotaurus_prototypes, "NORMALISED_FILE", tmp_path / "gone.json")
    with pytest.raises(VisionError, match=r"gone\.json is missing.*companion\.vision\.training minotaurus"):
        _minotaurus_prototypes.normalised_prototypes.__wrapped__()


@pytest.mark.parametrize("edition", ["second-print", "travel"])
def test_another_editions_backs_and_empty_cells_read_right_untaught(edition: str) -> None:
    """Its backs are blue or red with a cross or a diamond, nothing like the built-in grey back with a
    ring: a dark piece with a light mark is face down, and a cell of neutral table is empty."""
    rng = numpy.random.default_rng(21)
    labels = _labels(rng)
    plane = _normalised_plane(labels, rng, edition=edition)
    reading = recogniser_for("minotaurus").read(plane, LAYOUT, None)
    for item, label in labels.items():
        if label in ("empty", "down"):
            assert reading.items[item] == label, item
        else:
            assert reading.items[item].split("-")[0] == label.split("-")[0], item  # its colour, at least


SPARSE = (
    ". . . . . . . . . .",
    "U D . . . U . U D D",
    ". . . D . D . . . D",
    "D . . . . . . D U D",
    "U . . . D D . . . .",
)
"""Late in a game (a generated hard session's frame): the top row empty, a few pieces in the others."""


@pytest.mark.parametrize("rim_mm", [0.0, 3.0, 4.0])
def test_the_matrix_is_found_from_a_few_pieces_with_a_row_empty(rim_mm: float) -> None:
    """With the top row empty, and the light rim the reference leaves about each piece making the gaps
    between pieces narrow, combs of rows closer together and shifted down covered the pieces about as
    well as the true one (the rows were fitted 6-14 mm off): the pieces' cores tell the pitch."""
    rng = numpy.random.default_rng(6)
    columns = setup_for(len(LAYOUT.items))["columns"]
    kinds = {"D": "down", "U": "red-2-left", ".": "empty"}
    labels = {
        f"cell:{row * columns + column}": kinds[mark]
        for row, line in enumerate(SPARSE)
        for column, mark in enumerate(line.split())
    }
    plane = _normalised_plane(labels, rng, inset_mm=CUT_EDGE_MM)
    if rim_mm:
        pieces = numpy.any(plane != numpy.array(NEUTRAL_BGR, numpy.uint8), axis=2).astype(numpy.uint8)
        reach = round(rim_mm * PLANE_PX_PER_MM)
        rims = cv2.dilate(pieces, numpy.ones((2 * reach + 1, 2 * reach + 1), numpy.uint8)) > pieces
        plane[rims] = (235, 235, 235)
    ids = list(LAYOUT.items)
    found = cell_centres(minotaurus._small(plane), LAYOUT, ids, normalised=True)
    truth = numpy.array([_where(item, CUT_EDGE_MM) for item in ids])
    occupied = [n for n, item in enumerate(ids) if labels[item] != "empty"]
    assert numpy.abs(found[occupied] - truth[occupied]).max() < 2.5
