"""Asterion: a cell read empty is read again where the grid fitted to every ring puts it."""

from __future__ import annotations

import numpy
import pytest

from companion.games.asterion.tiles import COLOURS, DESIGN_INDEX, MINOTAUR_DESIGN
from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.asterion import draw_cell
from companion.vision.recognisers import asterion
from companion.vision.recognisers._asterion_cell import read_cell
from companion.vision.recognisers._asterion_labels import MINOTAUR, tile_label
from companion.vision.recognisers.asterion import CELL_MM, TILE_MM, AsterionRecogniser, asterion_layout
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = asterion_layout(5, 5)
STRETCH = 0.12
"""The tiles lie 12 % further from the middle than the grid's cells across (a wide lens bends the plane)."""
DESIGNS = (
    "junction",
    "bend",
    "treasury",
    "crossroads",
    "treasure corridor",
    "cell",
    "corridor",
    "chest bends",
)


def _labels() -> dict[str, str]:
    """The Minotaur in the middle, the ring round it empty, a tile on every cell of the ring beyond."""
    labels = {item: "empty" for item in LAYOUT.items}
    labels["cell:0,0"] = tile_label(MINOTAUR, MINOTAUR_DESIGN, 0)
    k = 0
    for item in LAYOUT.items:
        x, y = (int(v) for v in item.split(":")[1].split(","))
        if max(abs(x), abs(y)) == 2:
            labels[item] = tile_label(COLOURS[k % 4], DESIGN_INDEX[DESIGNS[k % len(DESIGNS)]], k % 4)
            k += 1
    return labels


def _plane(labels: dict[str, str]) -> Frame:
    """A normalised plane (the table neutral grey) with each tile laid STRETCH further out across."""
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    middle_x = LAYOUT.items["cell:0,0"].centre_px()[0]
    tile = round(TILE_MM * PLANE_PX_PER_MM)
    for item, label in labels.items():
        if label == "empty":
            continue
        colour, design_rotation = label.split(":") if ":" in label else (MINOTAUR, label)
        design_name, rotation = design_rotation.split("@")
        design = MINOTAUR_DESIGN if colour == MINOTAUR else DESIGN_INDEX[design_name]
        cell = numpy.ascontiguousarray(numpy.rot90(draw_cell(colour, design), k=-int(rotation)))
        cx, cy = LAYOUT.items[item].centre_px()
        cx = middle_x + (cx - middle_x) * (1 + STRETCH)
        inset = (cell.shape[0] - tile) // 2
        y0, x0 = round(cy) - tile // 2, round(cx) - tile // 2
        plane[y0 : y0 + tile, x0 : x0 + tile] = cell[inset : inset + tile, inset : inset + tile]
    return plane


def test_tiles_of_a_ring_stretched_past_the_search_are_read_where_the_whole_grid_puts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two cells out the tiles lie 12 % of 2 cells (11 mm) off the grid: the ring inside them (empty) shows
    # no stretch, and the ring's tiles a cell across found it only after the ring was read.
    assert STRETCH * 2 * CELL_MM > 10
    labels = _labels()
    plane = _plane(labels)
    recogniser = AsterionRecogniser()
    read = recogniser.read(plane, LAYOUT, None).items
    assert {item: read[item] for item in labels if read[item] != labels[item]} == {}
    # Without reading them again there, the tiles two cells across read empty.
    monkeypatch.setattr(asterion, "REREAD_PX", 10**6)
    read = AsterionRecogniser().read(plane, LAYOUT, None).items
    wrong = {item for item in labels if read[item] != labels[item]}
    assert {"cell:2,0", "cell:-2,0"} <= wrong


def test_a_tile_found_at_the_edge_of_the_search_is_read_again_where_the_whole_grid_puts_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two cells out the tile lies 11 mm (10 template pixels) off its window, beyond the two searches of
    # SHIFT_PX (6): matched there 4 pixels short of it, a plain corridor read as its winged twin.
    labels = _labels()
    plane = _plane(labels)
    recogniser = AsterionRecogniser()
    profile = recogniser._profile(None)
    reading, offsets = recogniser._fitted(plane, LAYOUT, profile)
    assert reading.items["cell:2,-1"] == labels["cell:2,-1"] == "red:corridor@0"
    assert offsets["cell:2,-1"][0] >= asterion.REREAD_PX
    # Without reading it again, it is read where its ring put it, at the edge of the search.
    monkeypatch.setattr(asterion, "FAR_SHIFT_PX", 10**6)
    _, offsets = AsterionRecogniser()._fitted(plane, LAYOUT, profile)
    assert offsets["cell:2,-1"] == (0, 0)


def _rigged_read(
    monkeypatch: pytest.MonkeyPatch,
    item: str,
    first: tuple[str, float, tuple[int, int] | None],
    again: tuple[int, int],
) -> str:
    """`item`'s reading when read_cell reads it `first` at its ring's place and, read again, a green bend
    found `again` pixels off its window (every other cell read as it is)."""
    plane = _plane(_labels())
    region = LAYOUT.items[item]
    calls: list[int] = []

    def rigged(*args: object) -> tuple[str, float, tuple[int, int] | None]:
        placed = args[8]  # read_cell's `placed`: the shrunk plane, the cell and its offset
        assert isinstance(placed, tuple)
        if placed[1] != region:
            return read_cell(*args)  # type: ignore[arg-type]
        calls.append(1)
        return first if len(calls) == 1 else ("green:bend@1", 0.9, again)

    monkeypatch.setattr(asterion, "read_cell", rigged)
    read = AsterionRecogniser().read(plane, LAYOUT, None).items
    assert len(calls) == 2
    return read[item]


@pytest.mark.parametrize(("again", "kept"), [((1, 0), "green:bend@1"), ((6, 0), "red:corridor@0")])
def test_a_far_tile_read_again_keeps_its_first_reading_when_found_at_the_edge_again(
    monkeypatch: pytest.MonkeyPatch, again: tuple[int, int], kept: str
) -> None:
    # The cell's readings rigged: at its ring's place its tile at the edge of the search; read again, found
    # within it (that reading taken) or at the edge again (lined up on something else: the first stands).
    assert _rigged_read(monkeypatch, "cell:2,-1", ("red:corridor@0", 0.5, (6, 0)), again) == kept


@pytest.mark.parametrize(("again", "kept"), [((1, 0), "green:bend@1"), ((-6, -2), "empty")])
def test_an_empty_cell_read_again_stays_empty_when_its_tile_is_found_at_the_edge(
    monkeypatch: pytest.MonkeyPatch, again: tuple[int, int], kept: str
) -> None:
    # The cell's readings rigged: at its ring's place empty; read again where the whole grid puts it, a
    # tile found within the search (taken) or at its edge (burnt 20261148 light wood f5: the wood beside
    # two tiles, its corners yellow at 0.84, lined up on a neighbour 6 pixels off, a horned junction at
    # 0.29 by a lead of 0.003: empty stands).
    monkeypatch.setattr(asterion, "REREAD_PX", 0)  # every cell read empty read again
    assert _rigged_read(monkeypatch, "cell:-2,0", ("empty", 0.5, None), again) == kept
