"""Asterion: one cell read from its corners' colours and its inside (`read_cell`).

The recogniser gathers, for a ring of cells at once, what needs no template: the spread of grey inside
each, and how many of its corner pixels show each frame colour and surface. Here a cell is decided: a
tile or the table, the tile's frame colour (its corners' vote, or when they are washed out or split, the
colour whose designs the inside is likelier to be), and its design and rotation (`Templates.match`).
The limits by which a frame colour other than the corners' vote is read live in `_asterion_colour_rules`.
"""

from __future__ import annotations

import numpy
import numpy.typing

from companion.vision.base import Frame, ItemRegion
from companion.vision.recognisers._asterion_colour_rules import (
    _GREEN,
    _RED,
    _YELLOW,
    ASKED_LIKENESS,
    FAR_COLOUR,
    GREENER_DESIGNS,
    ORANGE_FAR,
    ORANGE_YELLOW,
    RIVAL_LEAD,
    RIVAL_SHARE,
    WARM_LEAD,
    WARM_SHARE,
    YELLOW_BESIDE_RED,
    YELLOWER_DESIGNS,
    _partner,
    _warm_green,
)
from companion.vision.recognisers._asterion_grid import SmallPlane
from companion.vision.recognisers._asterion_inside import GREYLESS_ASKED, greyless
from companion.vision.recognisers._asterion_labels import EMPTY, tile_label
from companion.vision.recognisers._asterion_match import MOSTLY_MISSING, SHIFT_PX, Templates
from companion.vision.recognisers._asterion_profile import FRAME_LABELS, OTHER_LABELS, _CellPalettes
from companion.vision.recognisers._asterion_tint import tinted_lead
from companion.vision.recognisers._asterion_window import Window

TILE_CONTRAST = 10.0
"""Least spread of grey inside a cell with a tile (walls against paths); the bare table is flat."""
TILE_VOTE = 0.4
"""A cell holds a tile when this share of its corner pixels shows one tile colour."""

TORN_SHARE = 0.25
"""Whether a cell holds a tile (TILE_LIKENESS and the framed likenesses below) is asked of its likeness
over the pixels the table does not cover when the table's neutral grey covers at least this share of it
lined up (over `MOSTLY_MISSING` what is left is a scrap, like no design: likeness 0, as a close call's
in `Templates.match`; burnt 20261147 gingham travel f7, an empty cell covered 0.565, voted red at 0.03,
matched a blue cell at 0.51 on a neighbour's frame): where the reference took a tile's
dark walls for a dark wood, the flat grey in their place is no wall and no path, and it drew the whole
tile's likeness under the framed ones (burnt 20261145 dark wood, a yellow treasure bend voted yellow at
0.75: 0.33 whole, 0.38 without the grey); an empty cell beside a tile, its window mostly the table's
grey, matched a design on the neighbour's frame (light wood: 0.51 whole, 0.42 without). Tiles torn a
little (0.16-0.18 of the window) lay either side of the framed likenesses by the grey they keep."""
TORN_ASKED = 0.7
"""A framed cell is asked so only when its whole likeness is under this: the grey moved tiles' likeness
by 0.1 or less (drawn tiles with every wall torn, 0.81 -> 0.72), empty cells' by up to 0.35 from 0.52,
short of the framed likenesses (0.45 at most) from here."""

TABLE_SIDE = 0.9
"""A torn cell (`TORN_SHARE`) whose tile, lined up, shows the table's neutral grey along this share of
one side of its frame or more (`Window.table_side`) is empty: a tile's frame shows its colour along all
four sides, and the reference leaves its dark walls grey (a dark wood's), not its frame. Why: burnt
20261149 laminate f9, three empty cells, the lower half of each the table's grey and the upper a lilac
laminate the reference kept with a pale streak of light across it, their corners no frame colour,
correlated 0.58-0.68 with blue corridors (0.65-0.70 without the grey) and read as blue tiles; burnt
20261149 felt second print f12, an empty cell voted blue at 0.65 by the felt, whole likeness 0.35, read
a treasury. Every such empty cell on dev 2-83 and burnt 20261140-49 showed 0.97-1.0 on one side; of 795
torn tiles read right none over 0.8 (a light wood's yellow frames washed towards grey)."""

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

MOSTLY_FRAMED = 0.8
MOSTLY_FRAMED_LIKENESS = 0.35
"""Nor does a cell whose corners show its frame colour under MOSTLY_FRAMED (three of four) unless its
inside correlates at least MOSTLY_FRAMED_LIKENESS with a design: the table at the corners of a light
wood or a felt, taken for yellow or green beside a tile's frame, voted 0.60-0.75 and correlated
0.24-0.34 (dev 2, 5, 7 planes); of 2,406 tiles voting under 0.8 (dev 2, 5, 7, 9, 13, 21, 34, burnt
20261140), 2 correlated under 0.35, one of them read wrong anyway, and none 0.34-0.37."""

FLAT_FRAMED = 16.0
"""Nor does a cell whose spread of grey inside (`TILE_CONTRAST`) is under FLAT_FRAMED, however many of its
corners show its frame colour: a light wood the reference left orange beside the tiles (burnt 20261146,
its grain at 12) showed red at 0.93 of a cell's corners and correlated 0.30 with a red design. Of the 90
tiles so flat on dev 2-83 and burnt 20261140-46 (taught editions too), none correlated under 0.386."""

NEAR_MISS = 0.4
"""A doubtful cell whose nearest colours' designs correlate this well, short of TILE_LIKENESS, is asked every
colour it can show, even one nearest no corner: a blurred second print's blue on dark wood, its middle left
grey, voted green 0.09, correlated 0.49 with green's designs and 0.72 with blue's (burnt 20261154)."""

FAR_TORN_SURE = 0.5
"""A torn cell whose tile is found 2 * SHIFT_PX off (at the edge of the search in a window moved to the edge)
with a confidence under this is empty: an empty dark wood cell, a ring of the wood voting red 0.62, read the
red tile below as a treasure bend at 0.33, an empty printed cloth's one below a treasury at 0 (burnt 20261154,
20261151). The 10 torn tiles so far read right on dev 2-83 and burnt 20261140-55 were sure at 0.64 or more."""

TORN_GREYLESS_ASKED = 0.45
"""A torn cell (`torn`) is asked whether its inside is greyless (`greyless`) up to this likeness (others up to
GREYLESS_ASKED): an empty gingham cell the reference matched but for its orange and pink checks, voted red at
0.97, correlated 0.42 with a red cell (burnt 20261156 gingham travel f8, untaught and taught)."""

FAR_LIKELIER = 0.1
"""How much better a cell must correlate with the designs of its corners' second nearest frame colour
to be read in it (red in shadow against the Minotaur's purple: 0.70 against 0.47). Short of that, a
doubtful cell is read in the second when its frame and prisoner lead (`Templates.colour_lead`), but not
yellow as red: a second print's yellow under a red lamp or on dark wood led red by -0.15..0 while its
designs were no less yellow's. Of the doubtful cells on dev 2-83 and burnt 20261140-43 whose red designs
lay within 0.1 of yellow's (and at 0.5 or more), all 11 were yellow, 6 of them read red."""


def _kept_likeness(templates: Templates, colour: str, windows: list[Window]) -> float | None:
    """The colour's likeness (`Templates.likeness`) over the pixels of the cell lined up that the table
    does not cover, when it covers TORN_SHARE to MOSTLY_MISSING of them; 0 over MOSTLY_MISSING; else None
    (the whole's stands)."""
    view, _, _, (window, dy, dx) = templates.lined_scored(colour, windows)
    missing = window.missing(dy, dx)
    if missing is None or float(missing.mean()) < TORN_SHARE:
        return None
    if float(missing.mean()) > MOSTLY_MISSING:
        return 0.0
    return float(templates.partial_scores(colour, view, ~missing).max())


def _table_side(templates: Templates, colour: str, windows: list[Window]) -> float:
    """`Window.table_side` of the cell lined up in the colour (as `Templates.match` lined it up)."""
    window, dy, dx = templates.lined_scored(colour, windows)[3]
    return window.table_side(dy, dx)


def read_cell(
    window: Window,
    contrast: float,
    corner_pixels: Frame,
    counts: numpy.typing.NDArray[numpy.intp],
    voted: tuple[int, float, int, float],
    palettes: _CellPalettes,
    templates: Templates,
    frames_here: numpy.typing.NDArray[numpy.bool_],
    placed: tuple[SmallPlane, ItemRegion, tuple[int, int]],
    torn: bool = False,
    on_frame: numpy.typing.NDArray[numpy.bool_] | None = None,
) -> tuple[str, float, tuple[int, int] | None]:
    """A cell's label and confidence, and where its tile lay (shift from its window's centre,
    template pixels; None: no tile, or one too doubtful to place the grid by), from its window, the
    spread of grey inside it, its corners' pixels (BGR), how many of them show each label (by
    index in FRAME_LABELS then OTHER_LABELS), and the frame colour (index) most of them show among
    those the cell can, with its share, then the runner-up's and its share. `palettes`: of every
    surface, of the frame colours, and the frame colour nearest to the path's; `placed`: the shrunk
    plane, the cell and its offset (to move its window); `torn`: whether the table's grey shows inside it
    enough to ask its likeness without it (`TORN_SHARE`); `on_frame`: which corner pixels show a frame
    colour, as the ring classified them (classified here when None)."""
    labels = (*FRAME_LABELS, *OTHER_LABELS)
    colour_index, share, rival, rival_share = voted
    doubtful = share < TILE_VOTE
    windows = [window]

    def lead(colour: int, other: int) -> float:
        """How much likelier `colour`'s frame and prisoner than `other`'s (`tinted_lead`, these windows)."""
        return tinted_lead(
            templates, FRAME_LABELS[colour], FRAME_LABELS[other], windows, corner_pixels, palettes
        )

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
            # A yellow turned orange is likelier red's designs (`ORANGE_YELLOW`): yellow, a tile by them.
            orange = (
                ORANGE_YELLOW
                and (voted[0], rival) == (first, second) == (_YELLOW, _RED)
                and likeness < other <= likeness + ORANGE_FAR
            )
            if not orange and (
                other > likeness + FAR_LIKELIER
                or (other >= TILE_LIKENESS and (first, second) != (_YELLOW, _RED) and lead(first, second) < 0)
            ):
                colour_index, likeness = second, other
            elif (partner := _partner(first, second, frames_here)) is not None:
                # Yellow against green beyond the runner-up (`_PARTNERS`): a second print's green on light
                # wood, its corners nearest yellow (the path's glare) and red (the wood). Its designs
                # no less like: a dark wood's yellow (dev 7) led green by 0.44, its designs yellow's.
                partners = templates.likeness(FRAME_LABELS[partner], windows)
                if partners >= max(TILE_LIKENESS, likeness) and lead(first, partner) < -RIVAL_LEAD:
                    colour_index, likeness = partner, partners
            if orange and colour_index == _YELLOW:
                likeness = max(likeness, other)
            # A frame colour nearest fewer corners still, when its designs are far likelier: a second
            # print's blue beside a light wood showed the table at most corners and green and the
            # path's yellow at more than blue (burnt 20261133). The first's partner even when nearest
            # none (`_PARTNERS`).
            first_partner = _partner(first, second, frames_here)
            near_miss = NEAR_MISS <= likeness < TILE_LIKENESS
            for third in rest:
                if (nearest[third] or third == first_partner or (near_miss and frames_here[third])) and (
                    other := templates.likeness(FRAME_LABELS[third], windows)
                ) > likeness + FAR_LIKELIER:
                    colour_index, likeness = third, other
            if torn and likeness >= TILE_LIKENESS:
                kept = _kept_likeness(templates, FRAME_LABELS[colour_index], windows)
                likeness = likeness if kept is None else kept
        if contrast < TILE_CONTRAST or likeness < TILE_LIKENESS:
            return EMPTY, 1.0 - share / TILE_VOTE * 0.7, None
        share = TILE_VOTE
    elif (
        rival_share >= RIVAL_SHARE * share
        and contrast >= TILE_CONTRAST
        and lead(colour_index, rival) < -RIVAL_LEAD
    ):
        # Corners split between two frame colours, and the tile's frame and prisoner (fitted to the
        # light there) far likelier the runner-up's: a green frame of another print, its corners
        # washed towards olive or yellow by a lamp or a light wood beside it, voted yellow.
        colour_index = rival
    elif (
        contrast >= TILE_CONTRAST
        and colour_index == _RED
        and rival == _YELLOW
        and rival_share >= YELLOW_BESIDE_RED * share
        and templates.likeness("yellow", windows) > templates.likeness("red", windows) + YELLOWER_DESIGNS
    ):
        # A yellow frame turned orange by a red lamp (`YELLOWER_DESIGNS`).
        colour_index = _YELLOW
    elif (
        contrast >= TILE_CONTRAST
        and (partner := _partner(colour_index, rival, frames_here)) is not None
        and counts[partner] >= RIVAL_SHARE * share * len(corner_pixels)
        and lead(colour_index, partner) < -RIVAL_LEAD
    ):
        colour_index = partner
    elif (
        contrast >= TILE_CONTRAST
        and colour_index == _YELLOW
        and frames_here[_GREEN]
        and ((warm := _warm_green(corner_pixels, palettes, on_frame)) or share < HALF_FRAMED)
        and (
            (warm and share >= WARM_SHARE and lead(_YELLOW, _GREEN) < -WARM_LEAD)
            or (
                templates.likeness("green", windows) > templates.likeness("yellow", windows) + GREENER_DESIGNS
                and lead(_YELLOW, _GREEN) < -RIVAL_LEAD
            )
        )
    ):
        # A green frame under a warm light patch voted yellow (`WARM_LEAD`, `GREENER_DESIGNS`).
        colour_index = _GREEN
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
    if not doubtful and share < HALF_FRAMED and likeness < ASKED_LIKENESS:
        # Few corners of the voted colour and its designs unlike the cell: another colour's far likelier.
        likeliest = max(
            (
                (templates.likeness(other, windows), other)
                for index, other in enumerate(FRAME_LABELS)
                if frames_here[index] and other != colour
            ),
            default=(0.0, colour),
        )
        least = max(TILE_LIKENESS, likeness + FAR_COLOUR)
        if likeliest[0] >= least:
            # Yellow's and green's designs are alike: of the two, the one more corners show when its
            # frame and prisoner lead too (`FAR_COLOUR`).
            chosen = FRAME_LABELS.index(likeliest[1])
            partner = _partner(chosen, colour_index, frames_here)
            if (
                partner is not None
                and counts[partner] > counts[chosen]
                and templates.likeness(FRAME_LABELS[partner], windows) >= least
                and lead(chosen, partner) < 0.0
            ):
                chosen = partner
            colour = FRAME_LABELS[chosen]
            design, rotation, margin, shift, likeness = templates.match(colour, windows)
    if (
        torn
        and 0.0 < likeness < TORN_ASKED
        and (kept := _kept_likeness(templates, colour, windows)) is not None
    ):
        likeness = kept
    framed_likeness = likeness
    if (
        not doubtful
        and share < HALF_FRAMED
        and likeness < HALF_FRAMED_LIKENESS
        and ORANGE_YELLOW
        and colour == "yellow"
        and rival == _RED
        and rival_share >= RIVAL_SHARE * share
    ):
        # A yellow turned orange, likelier red's designs (`ORANGE_YELLOW`): a tile by them.
        framed_likeness = max(likeness, templates.likeness("red", windows))
    if likeness < LEAST_LIKENESS or (
        not doubtful
        and (
            (share < HALF_FRAMED and framed_likeness < HALF_FRAMED_LIKENESS)
            or ((share < MOSTLY_FRAMED or contrast < FLAT_FRAMED) and likeness < MOSTLY_FRAMED_LIKENESS)
        )
    ):
        # Corners of a tile's colour and walls and paths, but like no design: the table itself
        # where the reference kept it (a felt as green as a frame, a checked cloth).
        return EMPTY, 0.5, None
    if (likeness < GREYLESS_ASKED or (torn and likeness < TORN_GREYLESS_ASKED)) and greyless(window):
        # No wall's or path's grey inside: the table kept in a frame's colour (a wood under a shadow).
        return EMPTY, 0.5, None
    if torn and _table_side(templates, colour, windows) >= TABLE_SIDE:
        # A side of the table's grey where the frame would be: the table with a scrap of it kept.
        return EMPTY, 0.5, None
    shift = (found[0] + shift[0], found[1] + shift[1])
    sure = float(min(1.0, max(0.0, margin * 5)) * min(1.0, share / 0.8))
    if torn and max(map(abs, shift)) >= 2 * SHIFT_PX and sure < FAR_TORN_SURE:
        return EMPTY, 0.5, None
    return tile_label(colour, design, rotation), sure, None if doubtful else shift
