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

This module holds the layout, a cell's window, the colour handling and the recogniser;
matching a cell against the templates is in _asterion_match, items and labels in
_asterion_labels.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.games.asterion.tiles import COLOURS
from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    ItemRegion,
    Layout,
    Profile,
    Reading,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.recognisers._asterion_grid import (
    _SMALL_PER_PX,
    ROUGH_INSET_PX,
    TEACHING_TURNS_DEG,
    GridFit,
    PlaneBuffers,
    SmallPlane,
    cell_windows,
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
from companion.vision.recognisers._asterion_labels import EMPTY, MINOTAUR, parse_label, tile_label
from companion.vision.recognisers._asterion_match import (
    GAME,
    SHIFT_PX,
    TILES_FILE,
    Templates,
    built_in_drawings,
    built_in_templates,
    lined_up,
)
from companion.vision.recognisers._asterion_pairs import differ, in_light_of, local_lead
from companion.vision.recognisers._asterion_window import Window, channels, turned
from companion.vision.recognisers._lab import (
    FloatArray,
    balanced,
    is_neutral,
    learn_colour,
    neutral_gains,
    palette_for,
    to_lab,
)
from companion.vision.recognisers._shipped import shipped_colours

TABLE = "table"

TILE_CONTRAST = 10.0
"""Least spread of grey inside a cell with a tile (walls against paths); the bare table is flat."""
TILE_VOTE = 0.4
"""A cell holds a tile when this share of its corner pixels shows one tile colour."""

REREAD_PX = 3
"""A cell read empty is read again where the grid fitted to every ring puts it when that is this many
template pixels (1.1 mm each) or more from where it was read: nearer, its tile lay within the shift
searched there (SHIFT_PX). 2 read one tile more of 16,000 on dev and burnt planes, and cost 0.3 ms a
frame instead of 0.12."""
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
TILE_LIKENESS = 0.5
"""Otherwise it holds a tile when its inside, lined up, correlates this well with a design: on hard
generated frames of seeds 1, 7 and 11 the bare table under glare or shadow stayed below 0.41 (16,000
cells), tiles scored 0.64 and more."""

LEAST_LIKENESS = 0.2
"""Even with corners clearly of a tile's colour, a cell whose inside correlates less than this with every
design is empty: on hard generated frames of seeds 5-9, 11 of 25 table cells read as tiles (felt, checked
cloth kept by the reference) scored under it, and one tile (read wrong anyway)."""

HALF_FRAMED = 0.6
HALF_FRAMED_LIKENESS = 0.45
"""A cell whose corners show its frame colour at most about half (two of four: under HALF_FRAMED) holds a
tile only when its inside correlates at least HALF_FRAMED_LIKENESS with a design: a tile shows its frame
at all four corners, the table kept by the reference beside a tile (light wood as yellow, a checked
cloth as blue or red) at two. On dev planes (seeds 5, 8, 13, 21, 34; 5 x 8 frames) 16 such table cells
were read as tiles (0.20-0.41) and no tile read right scored under 0.5 with so few corners; 0.42-0.48
all gave the same."""

FAR_LIKELIER = 0.1
"""How much better a cell must correlate with the designs of its corners' second nearest frame colour
to be read in it (red in shadow against the Minotaur's purple: 0.70 against 0.47)."""

RIVAL_SHARE = 0.1
RIVAL_LEAD = 0.3
"""A cell whose corners show a runner-up frame colour at least RIVAL_SHARE as often as the most shown
is read in the runner-up's colour when its frame and prisoner show that colour's by more than
RIVAL_LEAD (`Templates.colour_lead`): a second print's green, its corners washed towards yellow under a
lamp or beside a light wood, read as yellow (burnt 20261133, dev 13). On dev planes (seeds 5, 13, 21,
55; 13's sessions 6-7 alone) tiles' corners voting their own colour first and a runner-up at a tenth
of it or more never showed the runner-up's frame by 0.3 (green against yellow led by 0.32-0.37 only
with a runner-up under 0.08 of the votes); those voting a wrong colour first led the truth's by
0.38-0.96. Not when the colour voted was taught: the corners then show the edition's own colour, and
`colour_lead` compares the built-in drawings' frames (a second print taught on light wood, its yellow
tiles on dark wood showed green's frame by 0.3 and more: 11 of 6,237 taught cells read green)."""

FRAME_LABELS = (*COLOURS, MINOTAUR)
"""The colours a tile's frame can have: each set's, and the Minotaur tile's."""
ORIGIN = "cell:0,0"
_AT_ORIGIN = numpy.array([label == MINOTAUR for label in FRAME_LABELS])
_ELSEWHERE = ~_AT_ORIGIN
OTHER_LABELS = (TABLE, "stone", "path")
"""Surfaces a corner sample may also see when a tile lies off its cell: table, a wall, a path."""


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
"""The spread of grey inside a cell (TILE_CONTRAST) is measured this far inside its window."""


# ---------------------------------------------------------------- the recogniser


def default_colours() -> dict[str, list[list[float]]]:
    """The built-in edition's colour prototypes (Lab) per frame colour and surface (shipped in TILES_FILE)."""
    return shipped_colours(TILES_FILE, GAME, (*FRAME_LABELS, *OTHER_LABELS))


def _path_like(profile: Profile) -> int:
    """The frame colour (index in FRAME_LABELS) nearest to the path's: glare washes it to look like one."""
    path = numpy.array(profile.colours["path"][0], numpy.float32)
    distances = [
        min(
            float(numpy.linalg.norm(numpy.array(proto, numpy.float32) - path))
            for proto in profile.colours[label]
        )
        for label in FRAME_LABELS
    ]
    return int(numpy.argmin(distances))


class _CellPalettes:
    """The palettes a cell's corners are classified with, among the frame colours it can show, and the
    maps from their labels' indices to those in FRAME_LABELS (then OTHER_LABELS)."""

    def __init__(
        self,
        colours: Mapping[str, list[list[float]]],
        frames: tuple[str, ...],
        path_like: int,
        taught: frozenset[str] = frozenset(),
    ) -> None:
        """`taught`: the labels whose colours were taught (the edition's own, not the built-in ones)."""
        every = (*FRAME_LABELS, *OTHER_LABELS)
        self.every = palette_for(colours, (*frames, *OTHER_LABELS))
        self.every_map = numpy.array([every.index(label) for label in self.every.labels], numpy.intp)
        self.frames = palette_for(colours, frames)
        self.frames_map = numpy.array([FRAME_LABELS.index(label) for label in self.frames.labels], numpy.intp)
        self.path_like = path_like
        self.taught = taught


@functools.lru_cache(maxsize=4)
def _templates_of(templates: tuple[tuple[str, str], ...]) -> Templates:
    """The templates of a profile's pictures, kept across recognisers: the pair tests they build as
    cells need them stay built for the next session with the same edition."""
    return Templates.from_profile(Profile(game=GAME, templates=dict(templates)))


@dataclasses.dataclass(frozen=True)
class _Prepared:
    """What reading takes from a profile, built once per profile: its templates, and the palettes of
    a cell's corners at (0, 0) (True) and elsewhere (False)."""

    templates: Templates
    palettes: dict[bool, _CellPalettes]

    @classmethod
    def of(cls, profile: Profile) -> _Prepared:
        # Corners are classified among the frame colours a cell can show: the Minotaur's at (0, 0), the
        # sets' elsewhere (a travel edition's deep blue lies nearer the built-in Minotaur's purple).
        path_like = _path_like(profile)
        palettes = {
            at_origin: _CellPalettes(
                profile.colours,
                tuple(FRAME_LABELS[i] for i in numpy.flatnonzero(here)),
                path_like,
                frozenset(profile.params.get("taught_colours", [])),
            )
            for at_origin, here in ((True, _AT_ORIGIN), (False, _ELSEWHERE))
        }
        # Their lookup tables are built here, with the templates, not in the first frame read (115 ms
        # each for every surface's; the frame colours' serve only cells whose corners show no colour
        # clearly, 35 ms).
        for palette in palettes.values():
            palette.every.classify_bgr(numpy.zeros((1, 3), numpy.uint8))
            palette.frames.classify_bgr(numpy.zeros((1, 3), numpy.uint8))
        return cls(_templates_of(tuple(sorted(profile.templates.items()))), palettes)


CLEAR_SPREAD = 0.6
"""A taught tile's frame colour is learned when the spread of lightness over the tile is at least this
share of its drawing's: glare washes walls and paths together (and the frame towards the path's
colour), deep shadow darkens them together."""
CLIPPED_L = 250.0
CLIPPED_LOOK = 0.025
"""A taught tile's look is learned only when under this share of it is clipped white (Lab lightness
CLIPPED_L or more): a lamp's hot spot on a dark table, the plane lifted for the dim table round it,
washes walls, chests and wings into the paths. The travel edition taught so on dark wood (burnt
20261136, 3-49 % of 9 lessons clipped) read 23 of 2,016 cells on the other tables wrong, 17 untaught;
sittings of dev seeds 5, 13, 21 and 34 clipped at most 2 % of any lesson. (The lightness spread against
the drawing's did not tell them apart: a travel tile on light wood shows 0.58-0.89 of it.)"""


def _in_clear_light(view: FloatArray, drawing: FloatArray) -> bool:
    """Whether a taught tile (Lab, lined up) shows its walls and paths as far apart as drawn.

    A green frame under glare, taught as green, drew yellow tiles to green on every other table (an
    edition taught on dark wood read 374 of 441 cells right on gingham, 438 untaught): its colour is
    left to a clearer shot, or the built-in one. Judged by the light on the whole tile, not by which
    colour the frame lies nearest: an edition's colours may lie nearer other built-in ones."""
    seen, drawn = view[..., 0], drawing[..., 0]
    return float(seen.std()) >= CLEAR_SPREAD * float(drawn.std())


@functools.cache
def _default_profile() -> Profile:
    """Built once: its templates encoded (30 ms) for every session's recogniser. Never changed in
    place (teaching makes a new profile)."""
    return Profile(
        game=GAME,
        colours=default_colours(),
        templates={
            f"tile:{shape}": encode_template(picture) for shape, picture in built_in_templates().items()
        },
        params={"taught_colours": []},
    )


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
            grid.refit()
        # A cell read empty where the grid, fitted to every ring, now puts it elsewhere is read again there:
        # a ring's tiles too doubtful to place the grid by (corners washed out) left the next ring's
        # cells placed by too little stretch, 8 mm off the tiles' rim beyond the shift searched (burnt
        # 20261135: a wide lens 35 cm above a light wood read a column of tiles empty).
        moved = [
            (index, item_id, layout.items[item_id])
            for ring in grid.rings()
            for index, item_id in ring
            if items[item_id] == EMPTY
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
                for k, (_, item_id, _), (label, sure, _) in zip(again, cells, read, strict=True):
                    if label != EMPTY:
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
        """Each cell's label, confidence and where its tile lay (as `_read_cell`), for cells (index in
        the layout, id, region) placed `placed` template pixels off their places. What needs no template
        is done for all of them at once (a numpy call per cell cost more than its work): the spread of
        grey inside them, and their corners' colours. `corner_pixels`: `_corner_pixels` of the layout."""
        height, width = plane.shape[:2]
        indices = numpy.array([index for index, _, _ in cells], numpy.intp)
        offsets = numpy.array(placed, numpy.intp).reshape(-1, 2)
        centres = small.centres([region for _, _, region in cells], offsets)
        # Flat (tiles show 12 and more): the bare table, however its corners look (a shadow, glare).
        busy = numpy.flatnonzero(small.spreads(centres, ROUGH_INSET_PX) >= ROUGH_CONTRAST)
        busy = busy[small.table_shares(centres[busy], MIDDLE_PX) < TABLE_MIDDLE]
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
        read: list[tuple[str, float, tuple[int, int] | None]] = [(EMPTY, 1.0, None)] * len(cells)
        placed_at = offsets.tolist()
        scales = small.scales_at(centres[busy])
        for j, (k, (x, y)) in enumerate(zip(busy.tolist(), centres[busy].tolist(), strict=True)):
            _, item_id, region = cells[k]
            read[k] = self._read_cell(
                small.window_at(x, y, scales[j]),
                contrasts[j],
                corners[j],
                counts[j],
                (int(best[j]), shares[j], int(rivals[j]), rival_shares[j]),
                prepared.palettes[item_id == ORIGIN],
                prepared.templates,
                _AT_ORIGIN if item_id == ORIGIN else _ELSEWHERE,
                (small, region, (placed_at[k][0], placed_at[k][1])),
            )
        return read

    def _read_cell(
        self,
        window: Window,
        contrast: float,
        corner_pixels: Frame,
        counts: numpy.typing.NDArray[numpy.intp],
        voted: tuple[int, float, int, float],
        palettes: _CellPalettes,
        templates: Templates,
        frames_here: numpy.typing.NDArray[numpy.bool_],
        placed: tuple[SmallPlane, ItemRegion, tuple[int, int]],
    ) -> tuple[str, float, tuple[int, int] | None]:
        """A cell's label and confidence, and where its tile lay (shift from its window's centre,
        template pixels; None: no tile, or one too doubtful to place the grid by), from its window, the
        spread of grey inside it, its corners' pixels (BGR), how many of them show each label (by
        index in FRAME_LABELS then OTHER_LABELS), and the frame colour (index) most of them show among
        those the cell can, with its share, then the runner-up's and its share. `palettes`: of every
        surface, of the frame colours, and the frame colour nearest to the path's; `placed`: the shrunk
        plane, the cell and its offset (to move its window)."""
        labels = (*FRAME_LABELS, *OTHER_LABELS)
        colour_index, share, rival, rival_share = voted
        doubtful = share < TILE_VOTE
        windows = [window]
        if doubtful:
            # Corners not clearly of a tile's colour: a yellow frame under glare reads as a
            # path, a red one in shadow as a wall or the table. A tile when its inside is like
            # one of the designs. Its colour: of the two frame colours nearest its corners
            # (corners that look like the path count for the frame colour nearest the path's:
            # glare washes a yellow frame to sand), the one whose designs are far likelier (a
            # red frame in shadow is about as near to the Minotaur's purple), else the one
            # whose frame and prisoner the cell shows (yellow's and green's designs are alike).
            likeness = 0.0
            if contrast >= TILE_CONTRAST:
                nearest = numpy.bincount(
                    palettes.frames_map[palettes.frames.classify_bgr(corner_pixels)],
                    minlength=len(FRAME_LABELS),
                )
                nearest[palettes.path_like] += int(counts[labels.index("path")])
                # A frame colour this cell cannot show ranks below all it can, even unseen ones.
                ranked = numpy.where(frames_here, nearest, -1)
                first, second, *rest = (int(i) for i in numpy.argsort(ranked, kind="stable")[::-1])
                nearest = numpy.maximum(ranked, 0)
                colour_index, likeness = first, templates.likeness(FRAME_LABELS[first], windows)
                other = templates.likeness(FRAME_LABELS[second], windows) if nearest[second] else 0.0
                if other > likeness + FAR_LIKELIER or (
                    other >= TILE_LIKENESS
                    and templates.colour_lead(FRAME_LABELS[first], FRAME_LABELS[second], windows) < 0
                ):
                    colour_index, likeness = second, other
                # A frame colour nearest fewer corners still, when its designs are far likelier: a second
                # print's blue beside a light wood showed the table at most corners and green and the
                # path's yellow at more than blue (burnt 20261133).
                for third in rest:
                    if nearest[third] and (other := templates.likeness(FRAME_LABELS[third], windows)) > (
                        likeness + FAR_LIKELIER
                    ):
                        colour_index, likeness = third, other
            if contrast < TILE_CONTRAST or likeness < TILE_LIKENESS:
                return EMPTY, 1.0 - share / TILE_VOTE * 0.7, None
            share = TILE_VOTE
        elif (
            rival_share >= RIVAL_SHARE * share
            and FRAME_LABELS[colour_index] not in palettes.taught
            and contrast >= TILE_CONTRAST
            and templates.colour_lead(FRAME_LABELS[colour_index], FRAME_LABELS[rival], windows) < -RIVAL_LEAD
        ):
            # Corners split between two frame colours, and the tile's frame and prisoner (fitted to the
            # light there) far likelier the runner-up's: a green frame of another print, its corners
            # washed towards olive or yellow by a lamp or a light wood beside it, voted yellow.
            colour_index = rival
        colour = FRAME_LABELS[colour_index]
        if contrast < TILE_CONTRAST:
            # Corners of a tile's colour but a flat inside: glare or a shadow on the bare table.
            return EMPTY, 0.5, None
        found = templates.lined_up(colour, windows)[1]
        if max(abs(found[0]), abs(found[1])) >= SHIFT_PX:
            # Lined up at the edge of the search: the tile may lie further off (a sixth of the tiles on
            # hard generated frames, seeds 6-8), and matched short of it a chest or a wing falls outside
            # where two looks are compared. Matched in a window where it was found.
            small, region, offset = placed
            windows = [small.window(region, (offset[0] + found[0], offset[1] + found[1]))]
        else:
            found = (0, 0)
        # Lined up and scored once per window and colour (kept in the window): not again here.
        design, rotation, margin, shift, likeness = templates.match(colour, windows)
        if likeness < LEAST_LIKENESS or (
            not doubtful and share < HALF_FRAMED and likeness < HALF_FRAMED_LIKENESS
        ):
            # Corners of a tile's colour and walls and paths, but like no design: the table itself
            # where the reference kept it (a felt as green as a frame, a checked cloth).
            return EMPTY, 0.5, None
        shift = (found[0] + shift[0], found[1] + shift[1])
        sure = float(min(1.0, max(0.0, margin * 5)) * min(1.0, share / 0.8))
        return tile_label(colour, design, rotation), sure, None if doubtful else shift

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn the frame colours, the table, and each shown tile's look (at every rotation)."""
        base = self._profile(profile)
        plane = balanced(plane, neutral_gains(plane, round(MARKER_SIDE_MM * PLANE_PX_PER_MM)))
        rows, cols = self._corner_pixels(layout)
        # Where the cells lie (a sheet laid by its cut edge stretches the plane): as reading finds them.
        offsets = self._fitted(plane, layout, base)[1]
        height, width = plane.shape[:2]
        index_of = {item_id: i for i, item_id in enumerate(layout.items)}
        samples: dict[str, list[FloatArray]] = {}
        templates = dict(base.templates)
        counts: dict[str, int] = dict(base.params.get("taught_tiles", {}))
        for item_id, label in labels.items():
            if item_id not in index_of:
                raise ValueError(f"asterion teach: no item {item_id!r} in the layout")
            shown = parse_label(label)
            dx, dy = (round(v / _SMALL_PER_PX) for v in offsets[item_id])
            at_rows = numpy.clip(rows[index_of[item_id]] + dy, 0, height - 1)
            at_cols = numpy.clip(cols[index_of[item_id]] + dx, 0, width - 1)
            corners = to_lab(plane[at_rows, at_cols][None, ...])[0]
            region = layout.items[item_id]
            region = dataclasses.replace(
                region,
                centre_mm=(
                    region.centre_mm[0] + dx / PLANE_PX_PER_MM,
                    region.centre_mm[1] + dy / PLANE_PX_PER_MM,
                ),
            )
            if shown is None:
                samples.setdefault(TABLE, []).append(corners)
                continue
            colour, design, rotation = shown
            # The cell turned back to the printed orientation: what the unturned tile looks like here.
            windows = cell_windows(plane, region, TEACHING_TURNS_DEG)
            built_in = built_in_drawings()[f"{colour}:{design}"].astype(numpy.float32)
            # The label names one of the turns that look alike to the game (a chest corridor turned
            # half round); the drawing tells which one lies here.
            turns = [r for r in range(4) if tile_label(colour, design, r) == label] or [rotation]
            view = lined_up(windows, turned(built_in, turns[0]))
            if _in_clear_light(view, built_in):
                samples.setdefault(colour, []).append(corners)
            if float((view[..., 0] >= CLIPPED_L).mean()) >= CLIPPED_LOOK:
                # Walls, chests and wings washed into the paths: such a look (and the looks
                # transferred from it) drew other tiles to it on every other table. Left to a
                # clearer shot; the built-in look reads the tile meanwhile.
                continue
            adjusted = in_light_of(view, channels(turned(built_in, turns[0])))
            turn = turns[0]
            for other in turns[1:]:
                where = differ(design, turn, design, other)
                mine, theirs = channels(turned(built_in, turn)), channels(turned(built_in, other))
                if local_lead(adjusted, mine, theirs, where) < 0:
                    turn = other
            look = turned(lined_up(windows, turned(built_in, turn)), -turn % 4)
            # Smoothed a little: the stone's grain and the sensor's noise are not the design.
            look = numpy.asarray(cv2.GaussianBlur(look, (0, 0), 0.8), numpy.float32)
            name = f"tile:{colour}:{design}:taught"
            seen = counts.get(name, 0)
            if seen:
                previous = decode_template(templates[name]).astype(numpy.float32)
                look = (previous * seen + look) / (seen + 1)
            templates[name] = encode_template(numpy.clip(numpy.round(look), 0, 255).astype(numpy.uint8))
            counts[name] = seen + 1
        colours = base.colours
        taught = list(base.params.get("taught_colours", []))
        for label, groups in samples.items():
            colours, taught = learn_colour(colours, taught, label, groups)
        return Profile(
            game=GAME,
            edition=profile.edition,
            colours=colours,
            templates=templates,
            params={**base.params, "taught_colours": taught, "taught_tiles": counts},
            shots=profile.shots + 1,
        )


register_recogniser(GAME, AsterionRecogniser)
