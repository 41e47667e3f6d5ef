"""Asterion: teaching, the frame colours, the table and each shown tile's look learned from a plane.

A lesson is a plane with some cells labelled. Each labelled cell's corners teach its frame colour (or
the table's), when the tile shows its walls and paths as far apart as drawn; its inside, lined up with
the design's drawing and turned back to the printed orientation, becomes (or is averaged into) the
design's taught look, unless glare clipped it. The recogniser (asterion.AsterionRecogniser.teach)
balances the plane and finds where the cells lie as reading does; this is the learning from there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    Profile,
    decode_template,
    encode_template,
)
from companion.vision.recognisers._asterion_filters import in_light_of, local_lead
from companion.vision.recognisers._asterion_grid import _SMALL_PER_PX, TEACHING_TURNS_DEG, cell_windows
from companion.vision.recognisers._asterion_labels import parse_label, tile_label
from companion.vision.recognisers._asterion_looks import built_in_drawings
from companion.vision.recognisers._asterion_pairs import differ
from companion.vision.recognisers._asterion_profile import TABLE
from companion.vision.recognisers._asterion_window import GAME, channels, lined_up, turned
from companion.vision.recognisers._lab import FloatArray, learn_colours, to_lab

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


FRAME_PART = 0.3
"""A taught tile's frame colour is learned from this most colourful share of its corners' pixels. The
corners see the frame and, beside it, the table, the outline, a wall or a path: their median is none of
them. A second print taught on dark wood (burnt 20261141) took its yellow as dim ochres (Lab 113-185,
126-142, 156-180; printed 195, 128, 189) and its green as (160, 113, 148) (printed 162, 90, 162); on
light wood and gingham green tiles then read yellow, blue ones green (2,725 of 2,772 cells right, 2,752
untaught). The frame is the most colourful of these surfaces (the table kept by the reference is grey,
walls and outline dark and dull, the path pale): its colourful third gave 180-241, 115-142, 176-195 for
the yellow, 164, 100, 150 for the green."""


def _frame_part(corners: FloatArray) -> FloatArray:
    """The most colourful FRAME_PART of a taught tile's corner pixels (Lab, pixels x 3)."""
    pixels = corners.reshape(-1, 3)
    chroma = numpy.hypot(pixels[:, 1] - 128.0, pixels[:, 2] - 128.0)
    kept: FloatArray = pixels[chroma >= numpy.quantile(chroma, 1.0 - FRAME_PART)]
    return kept


DIM_PAPER = 0.8
"""A taught tile's frame colour is learned only when its paths are lit at least this share of the
profile's paper (path) colour (BGR scale, as the palette shades a prototype): under a dim lamp a frame's
colour is dark and dull, and the corners' most colourful part is as much the table or the sensor's
noise as the frame. The second print taught on burnt 20261144's dark wood, 13 of its 18 lessons dim
(paths 0.53-0.61 of the paper), learned red at Lab (70, 158, 146) (printed ~120, 171, 154) and yellows
as reddish browns, (85-101, 142-148, 152-158): on light wood its red frames read yellow and green, 25
of 693 cells wrong, 3 untaught. Lifted to the paper's light they still read 20 wrong (their hue is off,
not only their light); left to the clear lessons (paths 0.99-1.0) or the built-in colours, 5."""
PAPER_AB = 8.0
"""A drawn pixel is the paper (a path) when its a and b lie within this of the path colour's."""


def _lit_as_paper(view: FloatArray, drawing: FloatArray, paper: list[float]) -> bool:
    """Whether a taught tile's paths (Lab, lined up with its drawing) are lit at least DIM_PAPER of the
    profile's paper colour; True where the drawing shows too little paper to tell."""
    drawn = drawing.reshape(-1, 3)
    on_paper = (
        (drawn[:, 0] >= paper[0] - 30.0)
        & (numpy.abs(drawn[:, 1] - paper[1]) <= PAPER_AB)
        & (numpy.abs(drawn[:, 2] - paper[2]) <= PAPER_AB)
    )
    if int(on_paper.sum()) < 20:
        return True
    seen = numpy.median(view.reshape(-1, 3)[on_paper], axis=0)
    pair = numpy.array([[seen, paper]], numpy.float32).clip(0, 255).astype(numpy.uint8)
    bgr = cv2.cvtColor(pair, cv2.COLOR_LAB2BGR).astype(numpy.float32)[0]
    return float(bgr[0].mean()) >= DIM_PAPER * float(bgr[1].mean())


def _in_clear_light(view: FloatArray, drawing: FloatArray) -> bool:
    """Whether a taught tile (Lab, lined up) shows its walls and paths as far apart as drawn.

    A green frame under glare, taught as green, drew yellow tiles to green on every other table (an
    edition taught on dark wood read 374 of 441 cells right on gingham, 438 untaught): its colour is
    left to a clearer shot, or the built-in one. Judged by the light on the whole tile, not by which
    colour the frame lies nearest: an edition's colours may lie nearer other built-in ones."""
    seen, drawn = view[..., 0], drawing[..., 0]
    return float(seen.std()) >= CLEAR_SPREAD * float(drawn.std())


def learned_profile(
    plane: Frame,
    layout: Layout,
    labels: Mapping[str, str],
    profile: Profile,
    base: Profile,
    cell_corners: tuple[numpy.typing.NDArray[numpy.intp], numpy.typing.NDArray[numpy.intp]],
    offsets: Mapping[str, tuple[int, int]],
) -> Profile:
    """`profile` taught the cells `labels` names on `plane` (balanced): `base` is the profile
    completed by the built-in edition, `cell_corners` every cell's corner pixels (rows, columns:
    `AsterionRecogniser._corner_pixels`), `offsets` where reading put each cell (template pixels)."""
    rows, cols = cell_corners
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
        if _in_clear_light(view, built_in) and _lit_as_paper(view, built_in, base.colours["path"][0]):
            samples.setdefault(colour, []).append(_frame_part(corners))
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
    colours, taught = learn_colours(base, samples)
    return Profile(
        game=GAME,
        edition=profile.edition,
        colours=colours,
        templates=templates,
        params={**base.params, "taught_colours": taught, "taught_tiles": counts},
        shots=profile.shots + 1,
    )
