"""Asterion: the pair tests of a colour's looks, built and kept per pair (`PairTests`).

Two looks (design and rotation) scoring close for a cell are told apart by a filter over where their
drawings differ (`_pair_test`), asked again with the cell moved by up to a pixel when close
(`_lined_test`), or over what the table leaves of the cell (`_partial_test`); a frame colour is told
from another by its frame and prisoners (`_colour_test`). The filters are built on the looks' drawn
pictures (softened as a camera blurs), mostly with the templates, not inside a timed frame.

`_asterion_match.Templates` is these and the matching of a cell with them; where two looks differ is
in _asterion_pairs, the filters' numerics in _asterion_filters.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

from companion.vision.base import Frame
from companion.vision.recognisers._asterion_filters import (
    _NO_TEST,
    LinedTest,
    _difference_test,
    _sloping,
    _softened,
    blur_of,
)
from companion.vision.recognisers._asterion_looks import built_in_drawings
from companion.vision.recognisers._asterion_noise import NoiseTest
from companion.vision.recognisers._asterion_pairs import (
    DIFFERENT,
    PAIR_GROW_PX,
    _chest_pixels,
    _pair_chests,
    _pair_frames,
    _pair_window,
    _winning_share,
    build_pairs,
    differ,
    things_on_path,
)
from companion.vision.recognisers._asterion_window import _WEIGHTS, TEMPLATE_PX, _features, channels, turned
from companion.vision.recognisers._lab import FloatArray

LIKELY_PAIR = 0.6
"""Two looks of a colour whose pictures correlate this well or more are told apart often enough for
their pair test to be built with the templates (`PairTests._build_likely_pair_tests`). 0.7 built 3,152
(163 MB peak); with the blur explained away (`_asterion_filters.BLUR_EXTRA_PX`) a pair test built inside
a frame costs a third more, and the ~500 a dev run of 28 sessions still built so cost 0.2 ms a frame:
0.6 builds 6,492 (+0.4 s and +31 MB once) and the frames cost what they did before the blur."""

NOISE_LIKELY = 0.7
"""Two looks differing by a chest whose pictures correlate this well or more have their `_noise_share` test
built with the templates."""

PARTIAL_LEAST_PX = 12
"""Two looks are told apart without the pixels the table covers (`_asterion_match.PARTIAL_SHARE`) on
what is left when at least this many are."""


class PairTests:
    """Per frame colour: every look's picture and features, and the tests telling two looks apart."""

    def __init__(
        self,
        by_colour: dict[str, tuple[list[FloatArray], list[tuple[int, int]]]],
        sources: dict[str, list[str]] | None = None,
    ) -> None:
        """`sources`: per colour, what each picture was made from ("" drawn, "taught" from shots)."""
        self.by_colour = {
            colour: (numpy.stack([_features(p) for p in pictures]), pictures, looks)
            for colour, (pictures, looks) in by_colour.items()
        }
        self._sources = sources or {}
        # Two looks are told apart on the drawings where the built-in edition's are known: learned
        # pictures differ a little all over (the light and grain of the frames each was learned from),
        # and that, not a faint wing, decided between a corridor and a winged one.
        drawings = built_in_drawings()
        self._softened = {
            colour: [
                channels(_softened(self._drawing(drawings, colour, i) if self._drawn(colour, i) == i else p))
                for i, p in enumerate(pictures)
            ]
            for colour, (pictures, _) in by_colour.items()
        }
        # What a little more blur changes in each (`_asterion_filters.blur_of`): once per look, not per pair.
        self._blurs = {colour: [blur_of(p) for p in pictures] for colour, pictures in self._softened.items()}
        # Where each two looks differ and the light there, from the drawings: built now, not inside
        # timed frames (once per process: the same looks in every colour and edition).
        for _, looks in by_colour.values():
            build_pairs(looks)
        self._colour_tests: dict[tuple[str, int, str, int], FloatArray] = {}
        self._build_colour_tests()
        self._tests: dict[
            tuple[str, int, int], tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float, float]
        ] = {}
        self._lined_tests: dict[tuple[str, int, int], LinedTest | None] = {}
        self._build_lined_tests()
        self._noise_tests: dict[tuple[str, int, int], tuple[NoiseTest | None, float]] = {}
        self._build_noise_tests()

    def _drawing(self, drawings: dict[str, Frame], colour: str, look: int) -> FloatArray:
        """The built-in drawing of a look (a built-in picture), turned as the look is."""
        pictures = self.by_colour[colour][1]
        sources = self._sources.get(colour)
        design, rotation = self.by_colour[colour][2][look]
        drawing = drawings.get(f"{colour}:{design}")
        if drawing is None or (sources and sources[look]):
            return pictures[look]
        return turned(drawing.astype(numpy.float32), rotation)

    def _drawn(self, colour: str, look: int) -> int:
        """The drawn picture of a look: two looks are told apart on drawings, whose difference is
        the designs' alone (a taught picture of one shot is off by a pixel or a turn somewhere)."""
        sources = self._sources.get(colour)
        if not sources or not sources[look]:
            return look
        looks = self.by_colour[colour][2]
        return next(
            (i for i, other in enumerate(looks) if other == looks[look] and not sources[i]),
            look,
        )

    def _pair_test(
        self, colour: str, champion: int, challenger: int
    ) -> tuple[numpy.typing.NDArray[numpy.intp], FloatArray, float, float]:
        """Where to look, the filter giving the share of the challenger seen there (times the sign
        given last), and the share that wins.

        Around the pixels where two looks differ (`_pair_window`), the cell is modelled per
        channel as the mean of both looks' pictures under some light (a gain and an offset
        sloping across, fitted there, so glare or shadow on this tile alone does not matter;
        without the slope, light falling off across a tile put a chest on the wrong side) plus
        some of the difference from the champion to the challenger, as much for all channels:
        from minus a half (the champion) to a half (the challenger). Least squares gives that
        amount as one dot product with the cell's pixels: with the difference less what the
        light explains (the Frisch-Waugh-Lovell theorem), normalised. The same sum with the
        looks swapped changes sign, so no look is favoured by being the champion: one filter serves
        both ways round, its product negated (exactly: rounding is symmetric), not a negated copy
        (half the memory of the tests built with the templates, 30 MB).
        """
        key = (colour, champion, challenger)
        if key in self._tests:
            return self._tests[key]
        _, _, looks = self.by_colour[colour]
        mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
        window, sloping = _pair_window(*looks[mine], *looks[theirs])
        if len(window) < 3:  # alike (a look taught and drawn): nothing to tell them apart by
            self._tests[key] = self._tests[(colour, challenger, champion)] = (window, _NO_TEST, 0.0, 1.0)
            return self._tests[key]
        softened = self._softened[colour]
        # Told apart beyond the cell's blur (`BLUR_EXTRA_PX`), but a wing or horns from a plain path: a
        # small pale thing is much of what blurring the looks' mean changes there (dev and burnt planes
        # read more wings wrong so, 11 more; blurring the plain look alone, 2).
        blur = None if things_on_path(*looks[mine], *looks[theirs]) else self._blur(colour, mine, theirs)
        test = _difference_test(softened[mine], softened[theirs], window, sloping, blur)
        # The filter gives the share less a half (the mean of both looks is explained already).
        share = _winning_share(*looks[mine], *looks[theirs]) - 0.5
        self._tests[key] = (window, test, share, 1.0)
        self._tests[(colour, challenger, champion)] = (window, test, -share, -1.0)  # turned round
        return self._tests[key]

    def _blur(self, colour: str, look: int, other: int) -> FloatArray:
        """What a little more blur changes in the mean of two looks (`_asterion_filters.blur_of`)."""
        blurs = self._blurs[colour]
        return numpy.asarray((blurs[look] + blurs[other]) / 2, numpy.float32)

    def _lined_test(self, colour: str, champion: int, challenger: int) -> LinedTest | None:
        """`_pair_test` as `lined_share` asks it (built with the templates for drawn looks; a taught look's
        is its drawn look's, as its pair test is); None when the looks differ by more than things on a
        path (`things_on_path`)."""
        key = (colour, champion, challenger)
        if key not in self._lined_tests:
            _, _, looks = self.by_colour[colour]
            mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
            drawn = (colour, mine, theirs)
            if drawn != key and drawn in self._lined_tests:
                self._lined_tests[key] = self._lined_tests[drawn]
                return self._lined_tests[key]
            window, test, _, sign = self._pair_test(colour, champion, challenger)
            test = test if sign > 0 else -test
            if not things_on_path(*looks[mine], *looks[theirs]):
                self._lined_tests[key] = self._lined_tests[(colour, challenger, champion)] = None
                return None
            _, sloping = _pair_window(*looks[mine], *looks[theirs])
            softened = self._softened[colour]
            lined = LinedTest(window, sloping, softened[mine], softened[theirs], test)
            self._lined_tests[key] = lined
            self._lined_tests[(colour, challenger, champion)] = lined.turned_round()
        return self._lined_tests[key]

    def _build_lined_tests(self) -> None:
        """Every pair of drawn looks differing by things on a path (a wing, horns: a dozen a colour)
        as `lined_share` asks it, built with the templates, not inside a timed frame."""
        for colour, (_, _, looks) in self.by_colour.items():
            drawn = [i for i in range(len(looks)) if self._drawn(colour, i) == i]
            for k, look in enumerate(drawn):
                for other in drawn[k + 1 :]:
                    if things_on_path(*looks[look], *looks[other]) and len(
                        differ(*looks[look], *looks[other])
                    ):
                        self._lined_test(colour, look, other)

    def _noise_share(
        self, colour: str, champion: int, challenger: int, seen: FloatArray, share: float
    ) -> float:
        """`_pair_test`'s share for the cell `seen` (times its sign: `sign * seen @ test`, given as `share`)
        with each channel weighed by the cell's misfit in it (`_asterion_noise.NoiseTest`) where the looks
        differ by a chest (more or less, or one for another; with a path's end or not); `share` elsewhere
        (a wing or horns are asked lined up, `_lined_test`)."""
        key = (colour, champion, challenger)
        if key not in self._noise_tests:
            self._noise_test(colour, champion, challenger)
        noise, way = self._noise_tests[key]
        return share if noise is None else way * noise.share(seen)

    def _noise_test(self, colour: str, champion: int, challenger: int) -> None:
        """Build `_noise_share`'s test of two looks (both ways round; None where they differ by no chest).
        Weighed between looks differing otherwise too, cells read as they did (dev and burnt planes)."""
        _, _, looks = self.by_colour[colour]
        mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
        window, test, _, sign = self._pair_test(colour, champion, challenger)
        noise = None
        if len(window) >= 3 and _chests_between(looks[mine], looks[theirs], window):
            _, sloping = _pair_window(*looks[mine], *looks[theirs])
            softened, blur = self._softened[colour], self._blur(colour, mine, theirs)
            # The filter as it gives the challenger's share (the mean of both looks is either way round).
            noise = NoiseTest(window, sloping, sign * test, softened[mine], softened[theirs], blur)
        self._noise_tests[(colour, champion, challenger)] = (noise, 1.0)
        self._noise_tests[(colour, challenger, champion)] = (noise, -1.0)

    def _build_noise_tests(self) -> None:
        """`_noise_share`'s tests of drawn looks differing by a chest whose pictures correlate NOISE_LIKELY
        or more, built with the templates: most close calls weighed are between them."""
        for colour, (features, _, looks) in self.by_colour.items():
            likeness = numpy.triu(features @ features.T, 1)
            drawn = [self._drawn(colour, i) == i for i in range(len(looks))]
            for look, other in numpy.argwhere(likeness >= NOISE_LIKELY).tolist():
                window, _ = _pair_window(*looks[look], *looks[other])  # kept whichever way round
                if drawn[look] and drawn[other] and _chests_between(looks[look], looks[other], window):
                    self._noise_test(colour, look, other)

    def _partial_test(
        self,
        colour: str,
        champion: int,
        challenger: int,
        window: numpy.typing.NDArray[numpy.intp],
        kept: numpy.typing.NDArray[numpy.bool_],
    ) -> FloatArray | None:
        """`_pair_test`'s filter over the kept pixels of its window alone; None when under
        PARTIAL_LEAST_PX are kept or they lie on a line (no slope of light to fit)."""
        _, _, looks = self.by_colour[colour]
        mine, theirs = self._drawn(colour, champion), self._drawn(colour, challenger)
        if int(kept.sum()) < PARTIAL_LEAST_PX:
            return None
        chests = _pair_chests(*looks[mine], *looks[theirs])
        chests = None if chests is None or not chests[kept].any() else chests[kept]
        frames = _pair_frames(*looks[mine], *looks[theirs])
        frames = None if frames is None or not frames[kept].any() else frames[kept]
        try:
            sloping = _sloping(window[kept], chests, frames)
        except numpy.linalg.LinAlgError:
            return None
        softened = self._softened[colour]
        return _difference_test(
            softened[mine], softened[theirs], window[kept], sloping, self._blur(colour, mine, theirs)
        )

    def _colour_test(self, colour: str, look: int, other: str, twin: int) -> FloatArray:
        """`colour_lead`'s filter: where a look in one colour and its twin in another differ (frame,
        prisoner), grown as two looks' windows are."""
        mine, theirs = self._softened[colour][look], self._softened[other][twin]
        picture = numpy.zeros(TEMPLATE_PX * TEMPLATE_PX, numpy.uint8)
        picture[(((mine - theirs) * _WEIGHTS[:, None]) ** 2).sum(axis=0) > DIFFERENT**2] = 1
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PAIR_GROW_PX + 1, 2 * PAIR_GROW_PX + 1))
        window = numpy.flatnonzero(cv2.dilate(picture.reshape(TEMPLATE_PX, TEMPLATE_PX), grow).ravel())
        return _difference_test(mine, theirs, window)

    def _build_colour_tests(self) -> None:
        """Every drawn look's `colour_lead` filter against its twin in each other colour (four colours:
        672, 0.1 s and 13 MB), built with the templates: built as cells asked, 143 of them cost 0.16 ms a
        frame over a 136-frame dev run."""
        for colour, (_, _, looks) in self.by_colour.items():
            for best in range(len(looks)):
                if self._drawn(colour, best) != best:
                    continue
                for other, (_, _, other_looks) in self.by_colour.items():
                    if other == colour:
                        continue
                    sources = self._sources.get(other)
                    twin = next(
                        (
                            i
                            for i, look in enumerate(other_looks)
                            if look == looks[best] and not (sources and sources[i])
                        ),
                        None,
                    )
                    if twin is not None:
                        self._colour_tests[(colour, best, other, twin)] = self._colour_test(
                            colour, best, other, twin
                        )

    def _build_likely_pair_tests(self) -> None:
        """The pair tests (`_pair_test`) of every two looks of a colour whose pictures correlate
        LIKELY_PAIR or more, built with the templates: built as cells asked, those of a dev run of
        five sessions cost 1.4 ms a frame (on seeds 5-34, 5 x 8 frames, 78 % of the pairs asked
        for correlated so; the rest are still built when asked)."""
        for colour, (features, _, _) in self.by_colour.items():
            likeness = numpy.triu(features @ features.T, 1)
            for champion, challenger in numpy.argwhere(likeness >= LIKELY_PAIR).tolist():
                self._pair_test(colour, champion, challenger)


def _chests_between(
    look: tuple[int, int], other: tuple[int, int], window: numpy.typing.NDArray[numpy.intp]
) -> bool:
    """Whether either of two looks (design, rotation) shows a chest where they are compared (`window`)."""
    return bool((_chest_pixels(*look, window) | _chest_pixels(*other, window)).any())
