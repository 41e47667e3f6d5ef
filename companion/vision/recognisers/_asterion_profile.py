"""Asterion: what reading takes from a profile, built once per profile (`_Prepared`).

The labels a cell's corners are classified among (the frame colours, then surfaces a corner may see),
the palettes of those at (0, 0) and elsewhere (`_CellPalettes`), the templates of a profile's pictures
(kept across recognisers), and the built-in edition's profile (its shipped colours and pictures).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

import numpy

from companion.games.asterion.tiles import COLOURS
from companion.vision.base import Profile, encode_template
from companion.vision.recognisers._asterion_labels import MINOTAUR
from companion.vision.recognisers._asterion_looks import TILES_FILE, built_in_templates
from companion.vision.recognisers._asterion_match import Templates
from companion.vision.recognisers._asterion_window import GAME
from companion.vision.recognisers._lab import palette_for
from companion.vision.recognisers._shipped import shipped_colours

TABLE = "table"

FRAME_LABELS = (*COLOURS, MINOTAUR)
"""The colours a tile's frame can have: each set's, and the Minotaur tile's."""
_AT_ORIGIN = numpy.array([label == MINOTAUR for label in FRAME_LABELS])
_ELSEWHERE = ~_AT_ORIGIN
OTHER_LABELS = (TABLE, "stone", "path")
"""Surfaces a corner sample may also see when a tile lies off its cell: table, a wall, a path."""


def default_colours() -> dict[str, list[list[float]]]:
    """The built-in edition's colour prototypes (Lab) per frame colour and surface (shipped in TILES_FILE)."""
    return shipped_colours(TILES_FILE, GAME, (*FRAME_LABELS, *OTHER_LABELS))


YELLOW_FROM_PAPER = 3.5
"""How much less red (CIELAB a) than its paper white a print's yellow is: the shipped print's (path a
129, yellow 125.5); the second print's 1, the travel print's 7. Every print's yellow lies by its paper,
and a taught yellow carries the teaching lamp's tint while the paper (the path) is never taught, so the
shipped print's offset serves for all."""
YELLOW_SPLIT = 0.1
GREEN_SPLIT = 0.2
"""Where a cell's corners, measured less red than its own whites, lean its frame yellow (under
YELLOW_FROM_PAPER + YELLOW_SPLIT of the print's green-to-yellow gap in a) or green (over
YELLOW_FROM_PAPER + GREEN_SPLIT of it), in `_asterion_cell`'s tint rule. The gap is the profile's own
(its yellow's a less its green's, medians of the prototypes; taught ones both under the teaching lamp):
the shipped print's 41, a second print taught 15-38 (its green 90 against yellow 128 as printed, paler
than the shipped 78-91 against 125). Corners are blurred with the outline and the table, so they lie
nearer the whites than the printed colours: measured on dev 2 5 7 9 13 21 34 and burnt 20261140-41
(where colour_lead compared green and yellow), the second print's yellows 5 and under, its greens 8 and
over at the 5th percentile; the shipped print's yellows up to 18 (a linen under glare, whites clipped:
left out), greens 21 and over."""


def tint_splits(colours: Mapping[str, list[list[float]]]) -> tuple[float, float]:
    """Where a cell's corners' a under its whites' leans yellow (below the first) or green (above the
    second): YELLOW_SPLIT and GREEN_SPLIT of the print's own green-to-yellow gap past its yellow."""
    gap = float(numpy.median([proto[1] for proto in colours["yellow"]])) - float(
        numpy.median([proto[1] for proto in colours["green"]])
    )
    gap = max(0.0, gap)
    return YELLOW_FROM_PAPER + YELLOW_SPLIT * gap, YELLOW_FROM_PAPER + GREEN_SPLIT * gap


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
        tint: tuple[float, float],
    ) -> None:
        every = (*FRAME_LABELS, *OTHER_LABELS)
        self.every = palette_for(colours, (*frames, *OTHER_LABELS))
        self.every_map = numpy.array([every.index(label) for label in self.every.labels], numpy.intp)
        self.frames = palette_for(colours, frames)
        self.frames_map = numpy.array([FRAME_LABELS.index(label) for label in self.frames.labels], numpy.intp)
        self.path_like = path_like
        self.tint = tint
        """`tint_splits` of the profile's colours."""


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
        tint = tint_splits(profile.colours)
        palettes = {
            at_origin: _CellPalettes(
                profile.colours,
                tuple(FRAME_LABELS[i] for i in numpy.flatnonzero(here)),
                path_like,
                tint,
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
