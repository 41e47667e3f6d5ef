"""Asterion: the labyrinth tiles on the grid, their design, colour and rotation.

Items: "cell:X,Y" for every cell of a grid of `columns` x `rows` cells (options,
default 9 x 7) around the Minotaur tile at (0, 0), x growing eastwards and y
southwards as in the game. Labels: "<colour>:<design>@<rotation>" (a player's
tile: its set's colour, the design's name from seeds/asterion.toml, quarter turns
clockwise 0-3), "minotaur@0", or "empty". A tile that looks the same turned (a
crossroads, a corridor) gets the smallest rotation that shows the same paths, as
the game counts them (`distinct_rotations`).

How: the plane is normalised when the empty table is known (table pixels neutral grey, light
brought to the markers' white), and the built-in data is learned from such planes. The cells are
read from the middle outwards, each ring where the tiles already read put the grid (a sheet laid by
its paper's cut edge stretches the plane 5 %). The four corners of a tile show its set's colour
(paths never reach a corner), so each cell's corners, labelled by the nearest colour prototype in
CIELAB, tell an empty cell from a tile and give its colour (the Minotaur's only at (0, 0)). The tile
is then matched by normalised correlation against templates of every design and rotation in that
colour, close calls told apart on the exact drawings where they differ; the built-in colours,
templates and drawings are shipped in asterion_tiles.json, written by `python -m
companion.vision.training asterion`, and teaching adds the user's own tiles (seen at every rotation;
designs not taught are the built-in ones in the taught colours).

This module holds the layout and the recogniser: the grid walked ring by ring, and what a ring's
cells need that no template does (their spread of grey, their corners' colours). One cell is decided in
_asterion_cell, matched against the templates in _asterion_match; what reading takes from a profile is
in _asterion_profile, teaching in _asterion_teach, items and labels in _asterion_labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy
import numpy.typing

from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    register_recogniser,
)
from companion.vision.recognisers._asterion_cell import read_cell
from companion.vision.recognisers._asterion_grid import (
    _SMALL_PER_PX,
    ROUGH_INSET_PX,
    GridFit,
    PlaneBuffers,
    SmallPlane,
    corner_pixels,
)
from companion.vision.recognisers._asterion_grid import (
    CELL_MM as CELL_MM,
)
from companion.vision.recognisers._asterion_grid import (
    MARGIN_MM as MARGIN_MM,
)
from companion.vision.recognisers._asterion_grid import (
    TILE_MM as TILE_MM,
)
from companion.vision.recognisers._asterion_labels import EMPTY
from companion.vision.recognisers._asterion_profile import (
    _AT_ORIGIN,
    _ELSEWHERE,
    FRAME_LABELS,
    OTHER_LABELS,
    _Prepared,
)

# Named here for training/asterion.py: TABLE, and the caches it clears when it writes new drawings.
from companion.vision.recognisers._asterion_profile import TABLE as TABLE
from companion.vision.recognisers._asterion_profile import _default_profile as _default_profile
from companion.vision.recognisers._asterion_profile import _templates_of as _templates_of
from companion.vision.recognisers._asterion_teach import learned_profile
from companion.vision.recognisers._asterion_window import GAME, SHIFT_PX
from companion.vision.recognisers._lab import balanced, is_neutral, neutral_gains

REREAD_PX = 3
"""A cell read empty is read again where the grid fitted to every ring puts it when that is this many
template pixels (1.1 mm each) or more from where it was read: nearer, its tile lay within the shift
searched there (SHIFT_PX). 2 read one tile more of 16,000 on dev and burnt planes, and cost 0.3 ms a
frame instead of 0.12."""
FAR_SHIFT_PX = 2 * SHIFT_PX
"""A tile found this far from its cell's window (template pixels: at the edge of both searches, the window's
and the one moved to where the first found it) may lie further off, and was matched short of it; it is read
again where the grid fitted to every ring puts it, as an empty cell is (a tile 10 pixels off the window,
matched 4 short of it with a path's edge where a wing would be, read as winged)."""
ROUGH_CONTRAST = 8.0
"""A cell whose corners show no tile colour clearly (under TILE_VOTE) is empty when the spread of grey
inside it, read roughly from the plane, stays under this (tiles show 12+). Not when its corners show
the table: a green frame in shadow showed it at 0.96 of them (hard generated frames, seed 11)."""
TABLE_MIDDLE = 0.8
"""A cell is empty when this share of the middle of its window (MIDDLE_PX square) shows the table's
neutral grey, whatever its rim and corners show. Noise and blur put the grid off by a few pixels, an empty
cell's window took in its neighbours' frames and the whole matched a design (17 empty cells read as tiles
on the pipeline's planes of dev 21, 34, 77 and burnt 20261137/38, felt and light wood). Of 14,000 tiles,
even those the reference tore where their inside matches the cloth (laminate, burnt 20261138), none
showed more than 0.71 of their middle so; empty cells showed 0.82 and more but 2 %."""
MIDDLE_PX = 28
"""The middle of a cell's window where TABLE_MIDDLE is measured: 70 % of a tile's side."""
TORN_MIDDLE = 0.1
"""A cell whose middle shows the table's grey at this share or more is asked whether the reference tore
its tile (`_asterion_cell.TORN_SHARE`); most cells show none, and are not."""
ORIGIN = "cell:0,0"


def asterion_layout(columns: int, rows: int) -> Layout:
    if not (1 <= columns <= 25 and 1 <= rows <= 25):
        raise ValueError(f"asterion layout: columns and rows must be 1 to 25, not {columns} x {rows}")
    x_min, y_min = -(columns // 2), -(rows // 2)
    items = {
        f"cell:{x},{y}": ItemRegion(
            (MARGIN_MM + (x - x_min + 0.5) * CELL_MM, MARGIN_MM + (y - y_min + 0.5) * CELL_MM),
            (CELL_MM, CELL_MM),
        )
        for y in range(y_min, y_min + rows)
        for x in range(x_min, x_min + columns)
    }
    return Layout((2 * MARGIN_MM + columns * CELL_MM, 2 * MARGIN_MM + rows * CELL_MM), items)


# ---------------------------------------------------------------- a cell's window


CONTRAST_INSET_PX = 8
"""The spread of grey inside a cell (`_asterion_cell.TILE_CONTRAST`) is measured this far inside its
window."""


# ---------------------------------------------------------------- the recogniser


class AsterionRecogniser:
    game = GAME

    def __init__(self) -> None:
        self._default: Profile | None = None
        # The shrunk plane written into the same arrays each frame (`PlaneBuffers`).
        self._buffers = PlaneBuffers()
        self._completed: tuple[Profile, Profile] | None = None
        self._prepared: tuple[Profile, _Prepared] | None = None
        self._corners: (
            tuple[Layout, tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]]] | None
        ) = None

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return asterion_layout(int(options.get("columns", 9)), int(options.get("rows", 7)))

    def default_profile(self) -> Profile:
        """The built-in edition: its colours and tiles, as shipped."""
        return _default_profile()

    def _profile(self, profile: Profile | None) -> Profile:
        if self._default is None:
            self._default = self.default_profile()
        if profile is None:
            return self._default
        # Completed once per taught profile, not per frame: a new profile each frame rebuilt the
        # templates and palettes each frame.
        if self._completed is None or self._completed[0] is not profile:
            self._completed = (profile, profile.completed_by(self._default))
        return self._completed[1]

    def _prepared_for(self, profile: Profile) -> _Prepared:
        if self._prepared is None or self._prepared[0] is not profile:
            self._prepared = (profile, _Prepared.of(profile))
        return self._prepared[1]

    def _corner_pixels(
        self, layout: Layout
    ) -> tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]]:
        """Row and column indices of every cell's four corner patches: (cells, pixels) each. Kept for the
        last layout (a session reads one layout frame after frame): the cache's key, every cell's centre,
        cost more to build than a frame's use of them."""
        if self._corners is None or self._corners[0] is not layout:
            centres = tuple(region.centre_px() for region in layout.items.values())
            self._corners = (layout, corner_pixels(centres, layout.plane_size_px()))
        return self._corners[1]

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        return self._fitted(plane, layout, self._profile(profile))[0]

    def _fitted(
        self, plane: Frame, layout: Layout, profile: Profile
    ) -> tuple[Reading, dict[str, tuple[int, int]]]:
        """The reading, and where the fitted grid put each cell (offset from its place, template pixels)."""
        gains = neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM))
        if not is_neutral(gains):  # a normalised plane is white-balanced already
            plane = balanced(plane, gains)
        plane = numpy.ascontiguousarray(plane)  # as it mostly is: `_read_ring` takes its pixels flat
        small = SmallPlane.of(plane, self._buffers)
        rows, cols = self._corner_pixels(layout)
        prepared = self._prepared_for(profile)
        grid = GridFit(layout)
        items: dict[str, str] = {}
        confidence: dict[str, float] = {}
        offsets: dict[str, tuple[int, int]] = {}
        far: set[str] = set()
        # From the middle outwards, each ring of cells where the tiles of the rings inside it put the
        # grid: markers laid by their paper's cut edge stretch the plane by 5 %, 8 mm at the rim.
        for ring in grid.rings():
            cells = [(index, item_id, layout.items[item_id]) for index, item_id in ring]
            placed = grid.offsets([index for index, _, _ in cells])
            read = self._read_ring(plane, small, cells, placed, (rows, cols), prepared)
            at = [(x, y) for x, y in placed.tolist()]
            for (index, item_id, _), offset, (label, sure, shift) in zip(cells, at, read, strict=True):
                offsets[item_id] = offset
                items[item_id], confidence[item_id] = label, sure
                if shift is not None:
                    grid.found(index, offset, shift)
                    if max(abs(shift[0]), abs(shift[1])) >= FAR_SHIFT_PX:
                        far.add(item_id)
            grid.refit()
        # A cell read empty (or its tile found at the edge of the search, FAR_SHIFT_PX) where the grid,
        # fitted to every ring, now puts it elsewhere is read again there:
        # a ring's tiles too doubtful to place the grid by (corners washed out) left the next ring's
        # cells placed by too little stretch, 8 mm off the tiles' rim beyond the shift searched (burnt
        # 20261135: a wide lens 35 cm above a light wood read a column of tiles empty).
        moved = [
            (index, item_id, layout.items[item_id])
            for ring in grid.rings()
            for index, item_id in ring
            if items[item_id] == EMPTY or item_id in far
        ]
        if moved:
            placed = grid.offsets([index for index, _, _ in moved])
            again = [
                k
                for k, ((x, y), (_, item_id, _)) in enumerate(zip(placed.tolist(), moved, strict=True))
                if max(abs(x - offsets[item_id][0]), abs(y - offsets[item_id][1])) >= REREAD_PX
            ]
            if again:
                cells = [moved[k] for k in again]
                read = self._read_ring(plane, small, cells, placed[again], (rows, cols), prepared)
                for k, (_, item_id, _), (label, sure, shift) in zip(again, cells, read, strict=True):
                    # A first reading stands when the tile is found at the edge of the search again:
                    # lined up on something else (dev 83 printed travel: a far treasure bend, sure, then a
                    # treasure corridor 6 pixels on, unsure; burnt 20261148 light wood f5: an empty cell,
                    # the wood yellow at 0.84 of its corners, a horned junction 6 pixels on by a lead of
                    # 0.003). A far tile's stands too when the new one is doubtful (no shift).
                    at_edge = shift is not None and max(map(abs, shift)) >= FAR_SHIFT_PX
                    if label != EMPTY and not at_edge and (item_id not in far or shift is not None):
                        offsets[item_id] = (int(placed[k][0]), int(placed[k][1]))
                        items[item_id], confidence[item_id] = label, sure
        return Reading(items, confidence), offsets

    def _read_ring(
        self,
        plane: Frame,
        small: SmallPlane,
        cells: list[tuple[int, str, ItemRegion]],
        placed: numpy.typing.NDArray[numpy.intp] | list[tuple[int, int]],
        corner_pixels: tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]],
        prepared: _Prepared,
    ) -> list[tuple[str, float, tuple[int, int] | None]]:
        """Each cell's label, confidence and where its tile lay (as `read_cell`), for cells (index in the
        layout, id, region) placed `placed` template pixels off their places. What needs no template is
        done for all of them at once (a numpy call per cell cost more than its work): the spread of grey
        inside them, and their corners' colours. `corner_pixels`: `_corner_pixels` of the layout."""
        height, width = plane.shape[:2]
        indices = numpy.array([index for index, _, _ in cells], numpy.intp)
        offsets = numpy.array(placed, numpy.intp).reshape(-1, 2)
        centres = small.centres([region for _, _, region in cells], offsets)
        # Flat (tiles show 12 and more): the bare table, however its corners look (a shadow, glare).
        busy = numpy.flatnonzero(small.spreads(centres, ROUGH_INSET_PX) >= ROUGH_CONTRAST)
        middles = small.table_shares(centres[busy], MIDDLE_PX)
        busy = busy[middles < TABLE_MIDDLE]
        torn = (middles[middles < TABLE_MIDDLE] >= TORN_MIDDLE).tolist()
        contrasts = small.spreads(centres[busy], CONTRAST_INSET_PX).tolist()
        # Rounded halves to even, as Python's round.
        moved = numpy.rint(offsets[busy] / _SMALL_PER_PX).astype(numpy.intp)
        rows, cols = corner_pixels
        at_rows = numpy.minimum(numpy.maximum(rows[indices[busy]] + moved[:, 1:2], 0), height - 1)
        at_cols = numpy.minimum(numpy.maximum(cols[indices[busy]] + moved[:, 0:1], 0), width - 1)
        # Gathered from the flattened plane by numpy.take: three times faster than by rows and columns.
        pixels = numpy.ascontiguousarray(plane).reshape(-1, 3)
        corners = numpy.take(pixels, at_rows * width + at_cols, axis=0)
        # The Minotaur tile is (0, 0) by the game's own coordinates, and no other cell's tile.
        origin = numpy.array([cells[k][1] == ORIGIN for k in busy.tolist()], bool)
        owners = numpy.empty(at_rows.shape, numpy.intp)
        for at_origin, palettes in prepared.palettes.items():
            here = origin == at_origin
            if here.any():
                owners[here] = palettes.every_map[palettes.every.classify_bgr(corners[here])]
        # Each cell's count of corner pixels per label, for all cells at once (a bincount per cell cost
        # more than its work).
        labels = len(FRAME_LABELS) + len(OTHER_LABELS)
        counts = numpy.bincount(
            (owners + numpy.arange(len(busy))[:, None] * labels).ravel(), minlength=len(busy) * labels
        ).reshape(len(busy), labels)
        # Each cell's share of corner pixels per frame colour it can show, the largest and its colour.
        shown = numpy.where(origin[:, None], _AT_ORIGIN, _ELSEWHERE)
        votes = counts[:, : len(FRAME_LABELS)] / corners.shape[1] * shown
        best = votes.argmax(axis=1)
        every = numpy.arange(len(busy))
        shares = votes[every, best].tolist()
        # And the runner-up: a frame colour whose corners are split between two may be the other's.
        others = votes.copy()
        others[every, best] = -1.0
        rivals = others.argmax(axis=1)
        rival_shares = others[every, rivals].tolist()
        # Which corner pixels show a frame colour (`_asterion_cell.frame_pixels`), for all cells at once.
        on_frame = owners < len(FRAME_LABELS)
        read: list[tuple[str, float, tuple[int, int] | None]] = [(EMPTY, 1.0, None)] * len(cells)
        placed_at = offsets.tolist()
        scales = small.scales_at(centres[busy])
        for j, (k, (x, y)) in enumerate(zip(busy.tolist(), centres[busy].tolist(), strict=True)):
            _, item_id, region = cells[k]
            read[k] = read_cell(
                small.window_at(x, y, scales[j]),
                contrasts[j],
                corners[j],
                counts[j],
                (int(best[j]), shares[j], int(rivals[j]), rival_shares[j]),
                prepared.palettes[item_id == ORIGIN],
                prepared.templates,
                _AT_ORIGIN if item_id == ORIGIN else _ELSEWHERE,
                (small, region, (placed_at[k][0], placed_at[k][1])),
                torn[j],
                on_frame[j],
            )
        return read

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the frame colours, the table, and each shown tile's look (at every rotation)."""
        base = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        corners = self._corner_pixels(layout)
        # Where the cells lie (a sheet laid by its cut edge stretches the plane): as reading finds them.
        offsets = self._fitted(plane, layout, base)[1]
        return learned_profile(plane, layout, labels, profile, base, corners, offsets)


register_recogniser(GAME, AsterionRecogniser)
