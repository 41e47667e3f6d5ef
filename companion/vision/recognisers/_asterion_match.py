"""Asterion: matching a cell against the templates of every design and rotation in its frame colour.

The templates (`Templates`) are Lab pictures of every look (design and rotation) of each frame
colour: the built-in ones shipped in asterion_tiles.json (the seed's designs as drawn and blurred
as a camera blurs, written by companion.vision.training.asterion), and the user's taught ones. A
cell is matched by normalised correlation over the whole tile, lined up by the best shift; looks
scoring close to the best are then told apart pairwise, only around the pixels where their
drawings differ (a wing, a chest, a path's end), with the light there fitted (a gain and an offset
sloping across) so that glare or shadow on one tile does not decide. A close call is read again
without the pixels the reference took for the table (its neutral grey inside the tile).

The looks, as shipped and taught, are in _asterion_looks, a cell's window and lining up in
_asterion_window, the pair tests built and kept per pair of looks in _asterion_pair_tests (where two
looks differ in _asterion_pairs, the filters' numerics in _asterion_filters), a wing's shape in
lightness in _asterion_shape, how taught looks join the candidates in _asterion_taught, a cell's
correlation over the pixels the table leaves in _asterion_partial (names used elsewhere are re-exported
here).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy
import numpy.typing

from companion.vision.base import Profile
from companion.vision.recognisers import _asterion_shape
from companion.vision.recognisers._asterion_filters import LINED_CLOSE, lined_share, padded_cell
from companion.vision.recognisers._asterion_labels import tile_label
from companion.vision.recognisers._asterion_looks import TILES_FILE as TILES_FILE
from companion.vision.recognisers._asterion_looks import built_in_drawings as built_in_drawings
from companion.vision.recognisers._asterion_looks import built_in_shapes as built_in_shapes
from companion.vision.recognisers._asterion_looks import built_in_templates as built_in_templates
from companion.vision.recognisers._asterion_looks import looks_of
from companion.vision.recognisers._asterion_noise import NOISE_CLOSE
from companion.vision.recognisers._asterion_pair_tests import PairTests
from companion.vision.recognisers._asterion_pairs import differ, plain_twin, same_paths
from companion.vision.recognisers._asterion_partial import channel_wise, partial_scores
from companion.vision.recognisers._asterion_taught import TAUGHT_CALL as TAUGHT_CALL
from companion.vision.recognisers._asterion_taught import capped, taught_candidates
from companion.vision.recognisers._asterion_window import (
    EDGE_DOUBT,
    Missing,
    Window,
    _scores,
    _Shifts,
    lined_by_looks,
)
from companion.vision.recognisers._asterion_window import GAME as GAME
from companion.vision.recognisers._asterion_window import SHIFT_PX as SHIFT_PX
from companion.vision.recognisers._asterion_window import TEMPLATE_PX as TEMPLATE_PX
from companion.vision.recognisers._asterion_window import lined_up as lined_up
from companion.vision.recognisers._lab import FloatArray

CLOSE_CALL = 0.08
"""Templates scoring within this of the best are told apart by the pixels where they differ."""
CANDIDATES = 9
"""At most this many labels scoring within CLOSE_CALL of the best are told apart pairwise (each design's
best label first: on dev planes, seeds 5-34, 25 of 126 cells read wrong had their label cut at 6; 12
read 5 more cells right of 16,000 than 9, and cost 0.9 ms a frame more). Each design's best label is told
apart however many designs score so close; the cap is on their other turns. Where the whole tile
correlates flatly with every design (the travel print's pale stone, a dark wood's dim light), ten or more
designs lie within CLOSE_CALL and the cap cut the right one unasked: the unseen bench on 20261154 (now
burnt) read the travel print's blue treasury on dark wood as a cell twice, the treasury the tenth design
at 0.07 under the best of 0.35, and a laminate's yellow crossroads as a horned junction."""

TWIN_CALL = 0.12
"""A candidate's twin (its paths with another thing on them, or none: a wing, horns, a chest) is told apart
from it when scoring within this of the best, though beyond CLOSE_CALL."""
UNSURE = 0.2
"""A cell read by a lead under this (less than fully sure, as the recogniser counts) is looked at for
pixels the table covers, and read again without them (most cells are not: 20 us each)."""
PARTIAL_SHARE = 10
"""Two looks are told apart without the pixels the table covers when those are at least a
PARTIAL_SHARE-th of where they are compared (on what is left: `PairTests._partial_test`)."""
MOSTLY_MISSING = 0.55
"""A close call whose window shows the table's neutral grey over more than this share is like no design
(its likeness 0): what is left is a scrap of table the reference kept (a light wood's streak, a
gingham's check) beside a neighbour's frame, and matched on it alone it read as a cell (burnt 20261140
gingham, 20261141 light wood: 0.61 and 0.63 of the window). Of the tiles read so on dev 2, 5, 7, 9, 13,
21, 34 and burnt 20261140-41 none showed over 0.45 (a linen crossroads, read right), empty cells up to
0.74."""


class Templates(PairTests):
    """Per frame colour: every design at every rotation, as Lab pictures and as feature vectors, their
    pair tests (`PairTests`), and the matching of a cell against them."""

    def __init__(
        self,
        by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]],
        sources: dict[str, list[str]] | None = None,
    ) -> None:
        """`sources`: per colour, what each picture was made from ("" drawn, "taught" from shots)."""
        super().__init__(by_colour, sources)
        self._labels = {
            colour: [tile_label(colour, *look) for look in looks] for colour, (_, looks) in by_colour.items()
        }
        # Every look of a colour averaged: its frame and the tile's edge, sharp in all of them, line a
        # cell up as well as its own look does, before its look is known (one correlation, not two).
        self._mean = {
            colour: numpy.mean(numpy.stack(pictures), axis=0).astype(numpy.float32)
            for colour, (pictures, _) in by_colour.items()
        }
        self._shifts = {colour: _Shifts(mean) for colour, mean in self._mean.items()}
        self._alikes: dict[tuple[str, int], list[int]] = {}
        self._by_channel: dict[str, tuple[FloatArray, FloatArray]] = {}
        # Per colour and look: the looks with its paths and other things on them (its twins), and those
        # without a thing on a path it shows (a wing, horns) and nothing else (its plain twins).
        self._twins, self._plain_twins = (
            {
                colour: [
                    [j for j, other in enumerate(looks) if j != i and kin(look, other)]
                    for i, look in enumerate(looks)
                ]
                for colour, (_, _, looks) in self.by_colour.items()
            }
            for kin in (same_paths, plain_twin)
        )

        # Per colour: its taught looks (none untaught).
        self._taught = {
            colour: [i for i, source in enumerate(self._sources.get(colour, [])) if source == "taught"]
            for colour in self.by_colour
        }
        # Per colour taught in fewer designs than transferred: its looks not taught (TAUGHT_CEILING).
        self._not_taught = {
            colour: [i for i, source in enumerate(sources) if source != "taught"]
            for colour, sources in self._sources.items()
            if 0 < sources.count("taught") < sources.count("transferred")
        }

    def _channel_wise(self, colour: str) -> tuple[FloatArray, FloatArray]:
        """A colour's looks' features channel after channel (`channel_wise`), kept."""
        if colour not in self._by_channel:
            self._by_channel[colour] = channel_wise(self.by_colour[colour][0])
        return self._by_channel[colour]

    def lined_up(self, colour: str, windows: list[Window]) -> tuple[FloatArray, tuple[int, int]]:
        """The cell lined up with its colour's looks: the Lab view and its shift (`aligned`)."""
        view, shift, _, _ = self._lined(colour, windows)
        return view, shift

    def _lined(
        self, colour: str, windows: list[Window]
    ) -> tuple[FloatArray, tuple[int, int], FloatArray | None, tuple[Window, int, int]]:
        """`lined_up`, the view's scores against the colour's looks when asked for already (None
        before), and the window and place the view was cut from: kept with a single window (a
        doubtful cell's likeness, then its match, line it up in the same colour)."""
        memo = windows[0].lined if len(windows) == 1 else {}
        if colour not in memo:
            view, shift, cut = self._shifts[colour].aligned_in(windows)
            memo[colour] = (view, shift, None, cut)
        return memo[colour]

    def lined_scored(
        self, colour: str, windows: list[Window]
    ) -> tuple[FloatArray, tuple[int, int], FloatArray, tuple[Window, int, int]]:
        """`_lined` with the view's scores against the colour's looks: scored when first asked, not
        when lined up (a tile lined up at the edge of the search is matched in another window, and
        its first window's scores went unused: a sixth of the tiles, ~45 us each)."""
        view, shift, scores, cut = self._lined(colour, windows)
        if scores is None:
            scores = _scores(self.by_colour[colour][0], view)
            if len(windows) == 1:
                windows[0].lined[colour] = (view, shift, scores, cut)
        return view, shift, scores, cut

    def _candidates(self, colour: str, scores: FloatArray, values: list[float] | None = None) -> list[int]:
        """The looks told apart pairwise: within CLOSE_CALL of the best, the best look of each label,
        each design's best label first, then other turns (a hidden chest's and a treasury's four turns
        crowded a crossroads out of a travel edition's cell, whose whole tile correlated 0.04 less than
        theirs, a paler path, and which its pair tests would have found) up to CANDIDATES in all, in
        order of score. The looks of one label (a winged corridor at either end) are one: they crowded
        a plainer design out, whose learned picture correlates a little less."""
        looks = self.by_colour[colour][2]
        labels = self._labels[colour]
        # `values`: the scores as a list, when the caller has it (numpy's max cost a cell 4 us).
        values = scores.tolist() if values is None else values
        if colour in self._not_taught:
            values = capped(values, self._taught[colour], self._not_taught[colour])
        floor = max(values) - CLOSE_CALL
        order: list[int] = []
        later: list[int] = []
        named: set[str] = set()
        designs: set[int] = set()
        for i in sorted(
            (i for i, v in enumerate(values) if v >= floor), key=values.__getitem__, reverse=True
        ):
            if labels[i] in named:
                continue
            named.add(labels[i])
            (later if looks[i][0] in designs else order).append(i)
            designs.add(looks[i][0])
        chosen = order + later[: max(0, CANDIDATES - len(order))]
        # A look's twin, its paths with another thing on them or none (a corridor beside a winged one, a
        # junction beside its treasure junction), scoring up to TWIN_CALL under the best: whole-tile
        # correlation hardly sees a wing or a chest, and the learned pictures differ a little all over, so
        # it was left out while the other won unopposed (a blue treasure junction 0.086 under its
        # junction, read as it on burnt 20261143 dark wood, dev 47, 60 and 83).
        twins_floor = max(values) - TWIN_CALL
        for k, i in enumerate(list(chosen)):
            # The best look's twins on its paths; the others' plain twins alone (each one more pair test:
            # all their twins asked a cell 25 more, 0.2 ms a frame).
            for twin in (self._twins if k == 0 else self._plain_twins)[colour][i]:
                if labels[twin] not in named and values[twin] >= twins_floor:
                    named.add(labels[twin])
                    chosen.append(twin)
        chosen += taught_candidates(values, self._taught[colour], labels, named)
        return sorted(chosen, key=values.__getitem__, reverse=True)

    def partial_scores(
        self, colour: str, view: FloatArray, kept: numpy.typing.NDArray[numpy.bool_]
    ) -> FloatArray:
        """`_asterion_partial.partial_scores` against the colour's looks."""
        return partial_scores(self.by_colour[colour][0], self._channel_wise(colour), view, kept)

    def match(
        self,
        colour: str,
        windows: list[Window],
        lined: tuple[FloatArray, tuple[int, int]] | None = None,
    ) -> tuple[int, int, float, tuple[int, int], float]:
        """(design, rotation, margin over the best other look, where the tile lies: its shift from the
        window's centre in template pixels, the best correlation of any look) of the template the cell
        shows.

        `windows` are the cell at template scale (`_asterion_grid.cell_windows`; the first as it lies).
        The cell as it lies picks the best template; the shift that matches it best lines the
        cell up; the templates scoring close to the best for the lined-up cell are then told
        apart pairwise, around where they differ only (a chest, a wing, a path's end):
        whole-tile correlation hardly moves for a small wing washed out by blur or glare.
        `lined`: the windows' `lined_up`, when known already.
        """
        looks = self.by_colour[colour][2]
        cut: tuple[Window, int, int] | None = None
        if lined is None:
            view, shift, scores, cut = self.lined_scored(colour, windows)
            if max(map(abs, shift)) == SHIFT_PX and float(scores.max()) < EDGE_DOUBT:
                # Lined up at the search's edge by the looks' mean, like no look there: by each look.
                relined = lined_by_looks(windows, self.by_colour[colour][1], self.by_colour[colour][0])
                view, shift, scores, cut = relined or (view, shift, scores, cut)
        else:
            view, shift = lined
            scores = _scores(self.by_colour[colour][0], view)
        # How like a tile the cell is counts the table's grey too (a bare cell is all of it).
        values = scores.tolist()
        top = max(values)
        order = self._candidates(colour, scores, values)
        if len(order) == 1:
            return looks[order[0]][0], looks[order[0]][1], 1.0, shift, top
        seen = numpy.ascontiguousarray(view, dtype=numpy.float32).ravel()
        champion, margin = self._tournament(colour, order, seen, None)
        if cut is not None and margin < UNSURE:
            # Not sure: maybe the reference took some of the tile for the table (a linen as pale as
            # a path shows a crossroads' arm in the table's grey, as dark as a wall, and it read as a
            # junction). Which look it is, then, only from what the table leaves.
            missing = cut[0].missing(cut[1], cut[2])
            if missing is not None and int(missing.sum()) > MOSTLY_MISSING * len(missing):
                return looks[champion][0], looks[champion][1], margin, shift, 0.0
            if missing is not None:
                order = self._candidates(colour, self.partial_scores(colour, view, ~missing))
                champion, margin = order[0], 1.0
                if len(order) > 1:
                    champion, margin = self._tournament(colour, order, seen, missing)
        return looks[champion][0], looks[champion][1], margin, shift, top

    def _tournament(
        self, colour: str, order: list[int], seen: FloatArray, missing: Missing
    ) -> tuple[int, float]:
        """The look (of `order`, the candidates) the cell `seen` (flat) shows, and its least lead over
        another label's; `missing`: the cell's pixels the table covers, not looked at."""
        labels = self._labels[colour]
        champion = order[0]
        label = labels[champion]
        margin = 1.0
        partial: dict[tuple[int, int], FloatArray | None] = {}
        padded: list[FloatArray] = []

        leads: dict[tuple[int, int], float] = {}

        def lead(look: int, other: int) -> float:
            """How much better `look` than `other` explains the cell where they differ (antisymmetric:
            kept, and asked the other way round when a challenger led, given negated)."""
            if (other, look) in leads:
                return -leads[(other, look)]
            if (look, other) not in leads:
                leads[(look, other)] = compared_there(look, other)
            return leads[(look, other)]

        def compared_there(look: int, other: int) -> float:
            window, test, winning_share, sign = self._pair_test(colour, look, other)
            if len(window) < 3:
                return 0.0
            if missing is not None and int(missing[window].sum()) * PARTIAL_SHARE >= len(window):
                # Told apart where the table does not cover the tile, or not at all.
                if (look, other) not in partial:
                    kept = self._partial_test(colour, look, other, window, ~missing[window])
                    partial[(look, other)] = kept
                    partial[(other, look)] = None if kept is None else -kept
                kept_test = partial[(look, other)]
                if kept_test is None:
                    return 0.0
                return winning_share - float(seen @ kept_test)
            share = sign * float(seen @ test)
            value = winning_share - share
            if abs(value) < NOISE_CLOSE:  # asked again, each channel weighed by the cell's misfit in it
                value = winning_share - self._noise_share(colour, look, other, seen, share)
            if abs(value) < LINED_CLOSE and (lined := self._lined_test(colour, look, other)) is not None:
                # Close: asked again with the cell lined up to this pair's window (a pixel off put a path's
                # edge or a prisoner's rim where a wing would be).
                if not padded:
                    padded.append(padded_cell(seen))
                value = winning_share - lined_share(padded[0], lined)
            if abs(value) < _asterion_shape.WING_SHAPE_CLOSE:
                # Close between a wing and its plain path: the wing's shape in lightness moves it (a print's
                # blue blotch imitates a wing's colour, not its bright core and grey rim), and its colour.
                looks = self.by_colour[colour][2]
                if (shape := _asterion_shape.wing_shape(*looks[look], *looks[other])) is not None:
                    value = _asterion_shape.wing_lead(value, seen, shape, colour)
            return value

        # A label against another: each of its turns the game counts as the same (a wing at either
        # end) against all of the other's, each pair compared where they differ only. Turns of one
        # label are never compared with each other: the light at the two ends of a tile differs more
        # than a washed-out wing does.
        def label_lead(mine: list[int], theirs: list[int]) -> tuple[float, int]:
            """One label's best look's least lead over another's looks, and that look."""
            if len(mine) == 1 and len(theirs) == 1:
                # One look each (most labels): the same lead, without the generators' cost.
                return lead(mine[0], theirs[0]), mine[0]
            return max((min(lead(look, o) for o in theirs), look) for look in mine)

        mine = self._alike(colour, champion)
        compared = {label: order[0]}
        beaten: list[int] = []
        for candidate in order[1:]:
            other = labels[candidate]
            if other in compared:
                continue
            compared[other] = candidate
            theirs = self._alike(colour, candidate)
            best_lead, best = label_lead(mine, theirs)
            if best_lead < 0:
                best_lead, best = label_lead(theirs, mine)
                beaten.append(compared[label])
                mine, label = theirs, other
            champion = best
            margin = min(margin, abs(best_lead))
        if beaten:
            # An upset: the champion met only those after it. The labels it did not meet (those before
            # the one it beat) are asked too, and if one beats it, the label whose worst lead over the
            # others is best wins (a plain bend beat its treasure bend by 0.34, lost to its winged bend
            # by 0.03, which the treasure bend beat: read as the treasure bend).
            firsts = list(compared.values())
            unmet = firsts[: firsts.index(compared[label])]
            if any(label_lead(mine, self._alike(colour, o))[0] < 0 for o in unmet if o != beaten[-1]):
                champion, margin = self._maximin(colour, firsts, label_lead)
        return champion, margin

    def _maximin(
        self,
        colour: str,
        firsts: list[int],
        label_lead: Callable[[list[int], list[int]], tuple[float, int]],
    ) -> tuple[int, float]:
        """Of labels (their first looks) beating each other round, the one whose worst lead over another
        is best, its look, and that lead (0 if none beats all)."""
        best, chosen = -math.inf, firsts[0]
        for i, first in enumerate(firsts):
            mine = self._alike(colour, first)
            worst, look = math.inf, first
            for j, other in enumerate(firsts):
                if i != j:
                    value, at = label_lead(mine, self._alike(colour, other))
                    if value < worst:
                        worst, look = value, at
                    if worst <= best:
                        # Its worst lead can only fall: it cannot win, and its other pairs (each a pair
                        # test, some built inside the frame) are not asked.
                        break
            if worst > best:
                best, chosen = worst, look
        return chosen, max(best, 0.0)

    def _alike(self, colour: str, look: int) -> list[int]:
        """The drawn looks of the same label as `look` (a wing corridor and its half turn), one of
        each drawing (a corridor turned half round is drawn the same)."""
        key = (colour, look)
        if key not in self._alikes:
            looks = self.by_colour[colour][2]
            sources = self._sources.get(colour)
            label = tile_label(colour, *looks[look])
            alike: list[int] = []
            for i, (design, rotation) in enumerate(looks):
                if (sources and sources[i]) or tile_label(colour, design, rotation) != label:
                    continue
                if all(len(differ(design, rotation, *looks[kept])) for kept in alike):
                    alike.append(i)
            self._alikes[key] = alike or [look]
        return self._alikes[key]

    def likeness(self, colour: str, windows: list[Window]) -> float:
        """The best correlation of the cell, lined up as in `match`, with any template of the colour."""
        return float(self.lined_scored(colour, windows)[2].max())

    def colour_lead(self, colour: str, other: str, windows: list[Window]) -> float:
        """How much better the cell shows `colour`'s frame and prisoners than `other`'s (negative: worse).

        The cell's best look in `colour` against the same look in `other`, compared where the two
        pictures differ (frame, prisoner) as two looks are in `match`: under glare all frames pale
        alike, but an offset and a gain per channel, fitted there, undo that."""
        looks = self.by_colour[colour][2]
        view, _, scores, _ = self.lined_scored(colour, windows)
        best = self._drawn(colour, int(numpy.argmax(scores)))
        other_looks = self.by_colour[other][2]
        sources = self._sources.get(other)
        twin = next(
            (i for i, look in enumerate(other_looks) if look == looks[best] and not (sources and sources[i])),
            None,
        )
        if twin is None:
            return 0.0
        key = (colour, best, other, twin)
        if key not in self._colour_tests:
            self._colour_tests[key] = self._colour_test(colour, best, other, twin)
        return -float(numpy.ascontiguousarray(view, dtype=numpy.float32).ravel() @ self._colour_tests[key])

    def _build_alikes(self) -> None:
        """Every look's `_alike` and every colour's `_channel_wise`, built with the templates: built as
        cells asked, 10 ms in the first session's frames of a dev run (224 looks, each compared with
        its colour's others where they differ)."""
        for colour, (_, _, looks) in self.by_colour.items():
            self._channel_wise(colour)
            for look in range(len(looks)):
                self._alike(colour, look)

    @classmethod
    def from_profile(cls, profile: Profile) -> Templates:
        made = cls(*looks_of(profile.templates))
        # With the pair tests cells of these templates will most often ask for (not inside timed frames).
        made._build_likely_pair_tests()
        made._build_alikes()
        return made
