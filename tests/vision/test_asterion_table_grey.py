"""Asterion: a tile part of which the reference took for the table (shown in its neutral grey)."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX
from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers import _asterion_match
from companion.vision.recognisers._asterion_cell import LEAST_LIKENESS
from companion.vision.recognisers._asterion_grid import cell_windows
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers.asterion import AsterionRecogniser
from companion.vision.reference import NEUTRAL_BGR

from .test_asterion_match import REGION, on_table


def test_a_tile_whose_path_the_reference_took_for_the_table_is_read_by_the_rest() -> None:
    # A linen as pale as the path: the reference shows a path's arm (10 x 9 mm south of the
    # prisoner) in the table's neutral grey, darker than a path, and a junction read as horned or
    # holding a chest where its arm or wall was grey (8 of these 48 cells). Close calls are told apart
    # on what the table leaves.
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    cx, cy = (round(v) for v in REGION.centre_px())
    half = round(4.5 * PLANE_PX_PER_MM)
    wrong = []
    for name in ("junction", "crossroads", "treasure junction"):
        for colour in COLOURS:
            for rotation in range(4):
                cell = numpy.ascontiguousarray(
                    numpy.rot90(draw_cell(colour, DESIGN_INDEX[name]), k=-rotation)
                )
                plane = numpy.clip(cv2.GaussianBlur(on_table(cell), (0, 0), 1.5), 0, 255).astype(numpy.uint8)
                plane[
                    cy + round(9 * PLANE_PX_PER_MM) : cy + round(19 * PLANE_PX_PER_MM), cx - half : cx + half
                ] = NEUTRAL_BGR
                read = tile_label(colour, *templates.match(colour, cell_windows(plane, REGION))[:2])
                if read != tile_label(colour, DESIGN_INDEX[name], rotation):
                    wrong.append((tile_label(colour, DESIGN_INDEX[name], rotation), read))
    assert wrong == []


def test_a_scrap_of_table_beside_a_frame_is_like_no_design(monkeypatch: pytest.MonkeyPatch) -> None:
    # The reference kept a streak of the table (here a tile's lower middle, 10 x 14 mm) and a neighbour's
    # frame along the top; the rest of the cell is its neutral grey. Matched on what was left, it
    # correlated with some design over LEAST_LIKENESS and read as a tile (burnt light wood, gingham).
    recogniser = AsterionRecogniser()
    templates = recogniser._prepared_for(recogniser._profile(None)).templates
    cx, cy = (round(v) for v in REGION.centre_px())
    mm = PLANE_PX_PER_MM
    for name in ("cell", "corridor", "treasury"):
        for rotation in range(4):
            cell = numpy.ascontiguousarray(numpy.rot90(draw_cell("blue", DESIGN_INDEX[name]), k=-rotation))
            plane = numpy.clip(cv2.GaussianBlur(on_table(cell), (0, 0), 1.5), 0, 255).astype(numpy.uint8)
            scrap = (
                slice(cy + round(2 * mm), cy + round(12 * mm)),
                slice(cx - round(8 * mm), cx + round(6 * mm)),
            )
            kept = plane[scrap].copy()
            plane[cy - round(14 * mm) : cy + round(23 * mm), cx - round(23 * mm) : cx + round(23 * mm)] = (
                NEUTRAL_BGR
            )
            plane[scrap] = kept
            assert templates.match("blue", cell_windows(plane, REGION))[4] < LEAST_LIKENESS
            with monkeypatch.context() as patched:
                patched.setattr(_asterion_match, "MOSTLY_MISSING", 1.0)
                assert templates.match("blue", cell_windows(plane, REGION))[4] >= LEAST_LIKENESS
