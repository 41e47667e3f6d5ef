"""The empty play area as a reference: what differs from it is a piece, a die, a ring or a hand.

Learned at setup from planes of the empty area, the way camera dart scorers compare
against the board before the throw, and kept current as the light changes. Each later
plane is compared with it at `MASK_PX_PER_MM` (masks need no detail; small is cheap):

- the light: a per-channel gain between reference and plane, for the whole plane and per
  cell of a coarse grid, from the pixels that agree with it (table_light.py), so a lamp to
  one side or a soft shadow across the table is light, not a piece;
- the table: a pixel that, light corrected, lies within its reference neighbourhood's
  colour range is table; so is a pixel darker than the table by one factor in every
  channel (a shadow) close to something that is no table (the piece casting it), not amid its parts;
- a hand: a foreign region that crosses the table around the plane (surround.py: a band of
  the camera frame just outside it, learned too, where no item ever lies) and goes on into
  the plane, whatever its colour: no skin model, as skin tones and sleeves vary. Without
  that band (a plane alone), a large foreign region coming in over the plane's edge where no
  item lies; an arm of nearly the table's colour shows by its sides, shading, shadow and the
  texture it hides (_reference_texture.py), joined up (hand_check.py).

`normalise` gives the recognisers a plane with the light corrected to canonical white
(the markers' white paper, in every frame at the plane's corners, maps to
`CANONICAL_WHITE`, and so does a hotspot's table that the empty area showed whiter than that, so
nothing clips; nor is anything lifted far past white where the empty table did not show the hotspot so)
and every table pixel replaced by `NEUTRAL_BGR`: normalising.py, with the hotspot's white and the lift's
ceilings. The recognisers and the profiles taught on them never see the tablecloth.

What is learned from the empty area, and made once from it for the comparison (its ranges, tolerances,
white balance, band): _reference_learning.py; the comparison of each plane with it: here.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence

import cv2
import numpy
import numpy.typing

from companion.vision._reference_base import FAINT_MM, ReferenceSettings, at_least_zero, at_most, px, square
from companion.vision._reference_edge import sharp_edged
from companion.vision._reference_learning import LOG_OFFSET, LearnedReference, ReferenceError, hue_of
from companion.vision._reference_texture import TEXTURE_MM, pieces_whole
from companion.vision.base import Frame, Layout
from companion.vision.hand_check import HAND_BLUR_MM, HAND_JOIN_MM, filled, joined_changes
from companion.vision.normalising import gaps_joined, normalised_with_table, unclipped
from companion.vision.table_light import SATURATED, Floats, Mask, floats, max3, min3, none_above, sum3

LOG_LEVELS = numpy.log(numpy.arange(256, dtype=numpy.float32) + numpy.float32(LOG_OFFSET)).astype(
    numpy.float32
)
"""`log_level` of each byte: the plane's levels at the masks' size are bytes, looked up in one pass."""
LIFTED_FROM = 1.5
"""Gains of the light above which `TableReference.look` applies them to levels lifted by `LOG_OFFSET`."""

NEUTRAL_BGR = (128, 128, 128)
"""What every table pixel becomes in a normalised plane: a mid grey, far from the dark backs and the
white faces of pieces, and neutral so that a piece's edge blended with it keeps its hue."""
BRIDGE_MM = 9.0
"""A piece reaches this far (a square's side) beyond what differs where the cloth's texture is gone."""
UPDATE_EVERY = 5
"""The reference takes in the table's present look once every this many accepted frames."""
FAINT_LIGHT = 0.35
"""Under a light this much dimmer than the reference's or more (in its dimmest channel) faint differences
(`ReferenceSettings.faint_level`) are no piece: the light grid follows a deep shadow within some per cent,
and on the table a few levels bright there that error alone (4-9 levels, where the table's range under
it is 2-6 wide) came out faint all over (burnt 20261138, linen under a player's shadow a quarter lit:
Minoa's and Asterion's frames refused as a changed table, 0.22-0.28 of the light)."""
MARK_PX = 5
"""Side (mask pixels, 10 mm; OpenCV's median of floats goes to 5) of the surroundings a deep shadow's mark
stands out of (`TableReference._marked`)."""
MARK_LEVEL = 8.0
"""Levels (summed over B, G and R) a mark under a deep shadow stands out of its surroundings beyond the
table's own texture there. Burnt 20261149 Minotaurus felt session 13 (a shadow at 0.3 of the light): its empty
cells' pixels half under 1.6 levels, at most 13 (the camera's noise, the light's error), beyond their texture
99 % under 5.5, a few lone pixels to 10; over the backs the brightest 1 % (their emblems) from 27-33 up."""
MARK_EDGE = 4.0
"""Levels (as `MARK_LEVEL`) a deep shadow's table pixel beside a mark's core stands out by to be its edge:
burnt 20261149 Minotaurus felt session 13, 541 -> 547 of 550 cells (from 505 without marks); 5 or 3, 542 and
547, and at 4 one empty cell more read a piece in a frame lost anyway (burnt 20261141 linen f14)."""
SHADE_DEPTH = 0.3
"""How much (log) darker than the light measured the table under one deep shadow is at least
(`_one_shade`)."""
SHADE_HUE = 0.1
"""How far (log) a channel of a pixel's ratio may lie from the matched table's colour of light in one deep
shadow's (`_one_shade`)."""
SHADE_SHARE = 0.6
"""Share of the free area's differing pixels that one deep shadow covers (`_one_shade`): a new cloth
or camera differs every which way."""
EMPTY_LABELS = frozenset({"empty", "clear", "unseen"})
"""Labels that mean "nothing there": a plane read as all of these shows the empty play area."""


_NEIGHBOURS = numpy.ones((3, 3), numpy.uint8)
"""A pixel's neighbourhood, as a kernel."""
ENCLOSING_PX = 7
"""Gaps between a piece's solid parts narrower than this (mask pixels: 12 mm) are piece, shadow-like or not
(`look`; a tile's digits are 2-4 wide there)."""


@functools.cache
def _ones(side: int) -> numpy.typing.NDArray[numpy.uint8]:
    """A square kernel `side` mask pixels wide (made once: OpenCV only reads it)."""
    return numpy.ones((side, side), numpy.uint8)


@dataclasses.dataclass(frozen=True)
class TableView:
    """One plane compared with the reference (all arrays at MASK_PX_PER_MM)."""

    foreground: Mask
    """True where the plane is no table: pieces, dice, rings, hands."""
    correction: Floats
    """Per pixel and channel, the factor that brings the plane to canonical light."""
    table: Mask
    """Table matching the reference in colour (shadows excluded): these pixels may update it."""
    table_share: float
    hand: bool
    reason: str
    """Why the plane must not be read ("" when it may)."""
    small: Frame = dataclasses.field(default_factory=lambda: numpy.zeros((0, 0, 3), numpy.uint8), repr=False)
    """The plane averaged down to the masks' size, as compared (`keep_current` takes the table's look from
    it rather than averaging the plane down again); empty when not known."""

    @property
    def refused(self) -> bool:
        return bool(self.reason)


class TableReference(LearnedReference):
    """The empty play area of one layout, and how each later plane differs from it."""

    def __init__(self, layout: Layout, settings: ReferenceSettings | None = None) -> None:
        super().__init__(layout, settings)
        self._neutral = numpy.empty((self.plane_size[1], self.plane_size[0], 3), numpy.uint8)
        self._neutral[:] = NEUTRAL_BGR
        self._frames_since_update = 0

    # ------------------------------------------------------------ comparing

    def look(self, plane: Frame, surround: Frame | Callable[[], Frame] | None = None) -> TableView:
        """Compare a plane with the reference: where the table is, the light, and whether a hand is in
        (`surround`: the same frame's `surround_of`, when the reference learned one: arms are seen
        crossing the table around the plane; or a function giving it, called only when the plane's
        changes reach its edge, as warping it costs)."""
        return self._look(plane, surround, None)

    def _look(
        self, plane: Frame, surround: Frame | Callable[[], Frame] | None, shade: Mask | None
    ) -> TableView:
        """`look`'s comparison; `shade`: where the table lies under one deep shadow the light grid is to
        take as light where no texture shows it (`_one_shade`), or None."""
        if self._image is None or self._low is None or self._high is None:
            raise ReferenceError("no reference learned: show the empty play area first")
        settings = self.settings
        # OpenCV's per-element operations throughout: numpy's, with their temporaries, cost several times
        # more at this size.
        small = self._small_bytes(plane)
        current = small.astype(numpy.float32)
        log_ratio = floats(cv2.subtract(cv2.LUT(small, LOG_LEVELS), self._log_image))
        log_light = self._light.measure(
            log_ratio,
            current,
            self._image,
            self._ceiling,
            (lambda: self._texture.kept(current))
            if shade is None
            else (lambda: self._texture.kept(current) | shade),
            log_reference=self._log_image,
            fill=shade is not None,
        )
        gain = floats(cv2.exp(log_light))
        # Compared as the camera sees it: where the light drives the table past white, white matches.
        # The gain is measured between levels lifted by LOG_OFFSET (`LOG_LEVELS`): under a lamp brighter
        # than the one the empty area was learned in, it is the gain of levels so lifted, and a dim
        # table's levels come out brighter than that gain times theirs (a felt learned in near darkness
        # was read 2.3 times as bright under a lamp that made it 3 times: its brighter tufts came out no
        # table). Dimmer, the lift is left out (a few tenths of a level on a lit table), and below
        # `LIFTED_FROM` too: at most two levels, within the noise, not worth its passes over the plane.
        brightest_gain = float(gain.max())
        corrected = floats(cv2.divide(current, gain))
        # Ranges of the reference as sharp as the plane, where the camera's focus came sharper since.
        in_focus = self._focus.sharpened(self._image, self._low, self._high, corrected)
        low, high = cv2.multiply(in_focus[0], gain), cv2.multiply(in_focus[1], gain)
        if brightest_gain > 1.0:
            excess = at_least_zero(floats(cv2.subtract(gain, self._one)))
            if brightest_gain > LIFTED_FROM:
                lift = cv2.multiply(excess, self._four)
                low, high = cv2.add(low, lift), cv2.add(high, lift)
        low = at_most(floats(low), SATURATED)
        darker = floats(cv2.subtract(low, current))
        outside = at_least_zero(floats(cv2.max(darker, cv2.subtract(current, high))))
        clipped = int(small.max()) >= SATURATED
        if clipped:
            outside[small >= SATURATED] = 0.0  # a clipped channel could be any table brighter than white
        # The tolerance scales with the light, but the camera's noise does not dim with it: in a deep
        # shadow (on a dark cloth) the tolerance stays at the noise's.
        tolerance = floats(cv2.max(cv2.multiply(self._tolerance, gain), self._noise_floor))
        beyond_tolerance = floats(cv2.subtract(outside, tolerance))
        if brightest_gain > 1.0:
            # Nor does the noise grow with the light: under a lamp brighter than the one the empty area was
            # learned in, a pixel darker than its neighbourhood's range by more than the camera's noise
            # and the range's own share of the light is no table. (Brighter, a dim reference's own
            # noise, multiplied by the gain, is there too.) With the whole tolerance multiplied, a dark
            # piece lying on the print's dark line (a Minoa stick, nearly the line's colour) passed for
            # the line under a warm lamp 2.6 times as bright.
            # Above a gain of one the whole tolerance, (noise + relative) x gain, less the noise's growth.
            noise = floats(cv2.scaleAdd(excess, -settings.tolerance, tolerance))
            # Within both (one reduction over the channels for the two tests).
            beyond_tolerance = floats(cv2.max(beyond_tolerance, cv2.subtract(darker, noise)))
        matches = none_above(beyond_tolerance, 0.0)
        ratio = floats(cv2.divide(cv2.add(corrected, self._two), self._image_2))
        darkening = sum3(ratio) / 3.0
        shadow_like = (
            ~matches
            & (darkening >= settings.shadow_min)
            & (darkening <= 1.0)
            & (cv2.subtract(max3(ratio), min3(ratio)) <= self._shadow_chroma)
        )
        # A piece close to the table's colour (a dark back on dark wood) differs by little in each pixel,
        # but alike over its whole face: averaged over a few millimetres that stands out of the noise.
        # For the hand check only: on a near-black table the camera's noise is a few levels, not the
        # floor's (`DARK_NOISE`), and a dark arm differs from it by less than that floor in every pixel.
        distance = sum3(floats(cv2.divide(outside, self._hands.tolerance(self._image, tolerance, gain))))
        # A print's line thinner than a mask pixel is up to twice as deep in one pixel as split between
        # two: the plane settling half a millimetre off makes it darker than its neighbourhood ever was,
        # alike all along the line. On the line, faintness is counted beyond that (a piece beside it
        # covers the plain paper too).
        unshifted = at_least_zero(floats(cv2.subtract(outside, cv2.multiply(self._spread, gain))))
        beyond = sum3(floats(cv2.divide(unshifted, tolerance)))
        # Zero where no match, in one OpenCV pass (numpy's masked assignment costs several).
        beyond = floats(cv2.bitwise_and(beyond, beyond, mask=matches.view(numpy.uint8)))
        faint = cv2.blur(beyond, (px(FAINT_MM), px(FAINT_MM))) > settings.faint_level
        if float(gain.min()) < FAINT_LIGHT:
            # Under a deep shadow the table's range shrinks with the light, its light's error does not.
            faint &= min3(gain) >= FAINT_LIGHT
            matches &= ~self._marked(current, self._image, gain, floats(cv2.subtract(high, low)))
        matches &= ~faint
        # A piece of another hue than the table's around it is no table, even at its levels.
        # OpenCV's log: a fifth of numpy's cost, and within a unit of the last place of it.
        hue = hue_of(floats(cv2.log(cv2.add(corrected, self._four))))
        off = max3(floats(cv2.max(cv2.subtract(self._hue_low, hue), cv2.subtract(hue, self._hue_high))))
        if clipped:
            off[max3(current) >= SATURATED] = 0.0  # a clipped channel's hue is unknown
        matches &= off <= self._hue_tolerance
        foreign = ~matches & ~shadow_like
        # Only a solid foreign region casts a shadow: not the stray pixels of an arm of the table's hue (its
        # opening by `square(5.0)`, an erosion and a dilation). Nor into a piece: between its solid parts a
        # few millimetres apart (`ENCLOSING_PX`, their closing), what looks like a shadow is a dark print on
        # it, a tile's digit whose ink blurred into its cream face darkens it alike in every channel. On a
        # face of the cloth's very colour, its edge matching the cloth let that "shadow" out to the table,
        # and no hole was filled (dev 11 Hornochsen laminate: played 54 read 14, 62 read 2). The price: a
        # shadow in a gap that narrow between two pieces is piece too, the table's own pixels left there
        # (dev 47 Minotaurus laminate: a blue 4 read 3 beside one). Dilations of squares add up: the
        # opening's dilation, the closing's and the shadow's reach share one.
        opening, reach = px(5.0), px(2 * settings.shadow_reach_mm)
        core = cv2.erode(foreign.view(numpy.uint8), square(5.0))
        spread = cv2.dilate(core, _ones(opening + ENCLOSING_PX - 1))
        beside = cv2.dilate(spread, _ones(max(1, reach - ENCLOSING_PX + 1)))
        near_foreign: Mask = cv2.subtract(beside, cv2.erode(spread, _ones(ENCLOSING_PX))) > 0
        cast_shadow = shadow_like & near_foreign
        cast_shadow &= ~sharp_edged(cast_shadow, darkening, matches, self.table_range)
        raw = (foreign | (shadow_like & ~cast_shadow)).view(numpy.uint8)
        # A piece's few table-coloured pixels are piece. (A mask pixel averages 16 of the plane's, so
        # noise leaves no speckle to open away; opening would cut a piece on a check into pieces.)
        foreground = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, _NEIGHBOURS)
        hidden = self._texture.hidden(corrected)
        lost = hidden.lost
        # A piece of one of the cloth's colours matches it in places, but hides its texture there: beside
        # what differs, where the texture is faded is piece too (between pieces the cloth shows).
        bridged = cv2.dilate(foreground, square(BRIDGE_MM))
        foreground = cv2.bitwise_or(foreground, cv2.bitwise_and(bridged, hidden.faded))
        # Decided per piece, too: a piece-sized cluster of fragments is made whole where the cloth's texture
        # does not clearly show (between pieces it does; `pieces_whole` says why not on a plain cloth).
        foreground = filled(
            pieces_whole(numpy.asarray(foreground, numpy.uint8), hidden.unkept, hidden.unclear)
        )
        # An arm of nearly the table's colour differs from it by little, but over a large area: the
        # difference averaged over a few millimetres shows it where single pixels are within the noise.
        excess = floats(cv2.bitwise_and(distance, distance, mask=(~cast_shadow).view(numpy.uint8)))
        side = px(HAND_BLUR_MM)
        averaged = cv2.blur(excess, (side, side))
        # A lost texture counts only over an arm's width: a piece hides it too, but is no hand by itself.
        lost_widely = cv2.blur(lost.astype(numpy.float32), (px(TEXTURE_MM), px(TEXTURE_MM))) > 0.6
        different = (averaged > settings.hand_level) | lost_widely | (foreground > 0)
        different &= ~self._markers  # black on white, they differ most when the calibration wobbles
        table_share = float(numpy.count_nonzero(matches)) / matches.size
        joined = joined_changes(different, square(HAND_JOIN_MM))
        free = self._weight > 1.0
        free_share = float(numpy.count_nonzero(matches & free)) / max(1, int(numpy.count_nonzero(free)))
        if free_share < settings.min_free_share and shade is None:
            # Most of the free area differs: a changed table, or the table under one deep shadow whose
            # sharp edge the light grid does not step over, on a cloth whose texture it hides.
            deep = self._one_shade(log_ratio, log_light, matches, free)
            if deep is not None:
                return self._look(plane, surround, deep)
        if free_share < settings.min_free_share:
            hand = False  # refused below as a changed table, whatever the band shows
        elif surround is not None and self._surround.learned:
            hand = self._hands.over_band(joined, surround, small, log_light)
        else:
            hand = self._hands.at_edge(joined)
        reason = ""
        if free_share < settings.min_free_share:
            # Most of the area where no item lies differs too: no arm does that, a new cloth does.
            hand = False
            reason = (
                "the table no longer looks like the empty play area learned at setup "
                "(cloth, camera or lamp changed): show the empty area again"
            )
        elif hand:
            reason = "a hand is over the table"
        elif table_share < settings.min_table_share:
            reason = (
                "the table no longer looks like the empty play area learned at setup "
                "(cloth, camera or lamp changed): show the empty area again"
            )
        correction = floats(cv2.exp(cv2.subtract(self._log_white, log_light)))
        return TableView(foreground > 0, correction, matches, table_share, hand, reason, small)

    @staticmethod
    def _marked(current: Floats, image: Floats, gain: Floats, texture: Floats) -> Mask:
        """Where a deep shadow's table (under `FAINT_LIGHT`) shows marks of its own: a shadow darkens the
        table evenly, its light's error too, and a mark on a piece under it (a back's emblem) stands out of
        its surroundings by more than the table's own texture, at that light, ever did there. Within the
        noise floor's tolerance everywhere there (burnt 20261149 Minotaurus felt: a shadow cast over the
        matrix after the reference was taken, navy backs on navy felt at 10-20 levels of 255, painted
        table with their emblem, 15-40 levels brighter than the back). `texture`: the table's neighbourhood
        range at the light (the camera settling a millimetre off moves its texture that far)."""
        residual = floats(cv2.subtract(current, cv2.multiply(image, gain)))
        # Its surroundings' residual by the median: beside a piece's edge (within half the window) the
        # table's own, so no halo is marked round a piece that differs anyway.
        local = floats(cv2.absdiff(residual, cv2.medianBlur(residual, MARK_PX)))
        excess = sum3(at_least_zero(floats(cv2.subtract(local, texture))))
        # A mark's edge, half in a mask pixel, stands out less: beside its core, less is enough.
        core = (excess > MARK_LEVEL).view(numpy.uint8)
        edge = (cv2.dilate(core, _NEIGHBOURS) > 0) & (excess > MARK_EDGE)
        return (core.view(bool) | edge) & (min3(gain) < FAINT_LIGHT)

    def _one_shade(self, log_ratio: Floats, log_light: Floats, matches: Mask, free: Mask) -> Mask | None:
        """Where the free area's pixels that differ are darker than the light measured by `SHADE_DEPTH` at
        least, alike in every channel as the table's matched light is (`SHADE_HUE`: a shadow), when they
        are most of those that differ (`SHADE_SHARE`): a sharp-edged deep shadow (a player standing
        between the lamp and the table) over a cloth whose texture it hides in the camera's noise
        (linen's weave), which the light grid's walk does not step into. Else None."""
        differing = free & ~matches
        count = int(numpy.count_nonzero(differing))
        table = free & matches
        if count == 0 or not numpy.any(table):
            return None
        grey = sum3(log_ratio) * numpy.float32(1.0 / 3.0)
        light = sum3(log_light) * numpy.float32(1.0 / 3.0)
        # The matched table's colour of light: each channel's log gain less their mean.
        colour = numpy.median((log_light - light[..., None])[table], axis=0).astype(numpy.float32)
        hue = max3(floats(numpy.abs(log_ratio - grey[..., None] - colour)))
        under = differing & (hue <= SHADE_HUE) & (grey < light - numpy.float32(SHADE_DEPTH))
        if numpy.count_nonzero(under) < SHADE_SHARE * count:
            return None
        return numpy.asarray(under, bool)

    def normalise(self, plane: Frame, view: TableView | None = None) -> Frame:
        """The plane in canonical light with every table pixel replaced by NEUTRAL_BGR."""
        return self.normalise_with_table(plane, view)[0]

    def normalise_with_table(
        self, plane: Frame, view: TableView | None = None
    ) -> tuple[Frame, numpy.typing.NDArray[numpy.uint8]]:
        """`normalise`'s plane, and where it replaced the table by NEUTRAL_BGR (255; else 0): a recogniser
        that needs the empty area would otherwise find it again by comparing every pixel with the neutral
        colour (half a millisecond a frame for Hornochsen's plane)."""
        view = view if view is not None else self.look(plane)
        small = view.small if view.small.shape[:2] == view.correction.shape[:2] else self._small_bytes(plane)
        correction = unclipped(small, view.correction, self._lift_ceiling)
        foreground = view.foreground
        if self.layout.joined_gap_mm > 0:
            foreground = gaps_joined(foreground, px(self.layout.joined_gap_mm))
        return normalised_with_table(plane, foreground, correction, self._neutral)

    def keep_current(self, plane: Frame, view: TableView) -> None:
        """Let the reference follow the table where it shows clearly (never from under or beside a
        piece, nor from a refused plane): dust, a cloth that settled, light the grid cannot model."""
        if self._image is None or view.refused or self.settings.update_rate <= 0:
            return
        # Light and dust change over seconds, not frames: every UPDATE_EVERY-th frame is enough, and
        # spares the cost of renewing the reference's ranges and texture each frame.
        self._frames_since_update += 1
        if self._frames_since_update < UPDATE_EVERY:
            return
        self._frames_since_update = 0
        near = cv2.dilate(view.foreground.astype(numpy.uint8), square(10.0)) > 0
        clear = view.table & ~near
        if not numpy.any(clear):
            return
        # In the reference's own light: the correction less the white balance is the light's inverse gain
        # (and under a brighter lamp, `look`'s lift taken off). OpenCV's per-element operations, the
        # update over all pixels kept where clear: numpy's indexing by a mask cost more than the
        # reference's renewal itself.
        known = view.small.shape == (self.size[1], self.size[0], 3)
        small = view.small.astype(numpy.float32) if known else self._small(plane)
        inverse = cv2.multiply(view.correction, self._unwhite)
        in_reference_light = cv2.multiply(small, inverse)
        if float(inverse.min()) < 1.0 / LIFTED_FROM:
            lift = cv2.multiply(at_least_zero(floats(cv2.subtract(self._one, inverse))), self._four)
            in_reference_light = cv2.subtract(in_reference_light, lift)
        rate = min(1.0, self.settings.update_rate * UPDATE_EVERY)
        updated = cv2.scaleAdd(cv2.subtract(in_reference_light, self._image), rate, self._image)
        image = self._image.copy()
        cv2.copyTo(updated, clear.view(numpy.uint8), image)
        self._set_image(image)


def normalised_plane(empty: Sequence[Frame], plane: Frame, layout: Layout) -> Frame:
    """`plane` normalised against a reference learned from the planes of the empty area `empty`: what a
    recogniser reads and a training script should learn from (table pixels NEUTRAL_BGR, canonical light)."""
    reference = TableReference(layout)
    reference.learn(empty)
    return reference.normalise(plane)


@dataclasses.dataclass(frozen=True)
class LearnResult:
    """What learning the empty play area came to, in words for the setup page."""

    learned: bool
    message: str
    planes: int = 0
    """How many of the frames showed the markers (and so went into the reference)."""


def learn_from_planes(
    layout: Layout, planes: Sequence[Frame], frames: int, surrounds: Sequence[Frame] = ()
) -> tuple[TableReference | None, LearnResult]:
    """A reference from the planes of the empty area seen in `frames` camera frames (those with markers),
    and the table around it (`surrounds`: `TableReference.surround_of` those frames, when known)."""
    if not planes:
        return None, LearnResult(
            False, f"the corner markers were not found in {frames} frame(s): the empty area was not learned"
        )
    reference = TableReference(layout)
    reference.learn(planes, surrounds)
    message = f"learned the empty play area from {len(planes)} of {frames} frame(s)"
    if not reference.white_balanced:
        message += "; the markers' white paper could not be measured, so colours are not white-balanced"
    return reference, LearnResult(True, message, len(planes))
