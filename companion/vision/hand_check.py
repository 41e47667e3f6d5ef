"""The hand check: whether the changes of a plane compared with its reference (reference.py) are an arm
coming in over the table, so the plane must not be read.

With the band around the plane learned (surround.py: the table just outside it, where no item ever lies),
a foreign region crossing the band into the plane's changes is an arm, whatever its colour; without it (a
plane alone), a large changed region coming in over the plane's edge where no item lies (`HandCheck.at_edge`).
The band's comparison costs most: `HandCheck.over_band` runs it only where the plane's changes could take
part in a crossing (`HandCheck.may_come_in`), and measures the band's own light only where, under the
plane's, the band could be crossed (`HandCheck.may_cross`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy
import numpy.typing

from companion.vision._reference_band import with_middle
from companion.vision._reference_base import MASK_PX_PER_MM, ReferenceSettings, of_labels, px
from companion.vision._surround_crossing import BRIDGED_ARM_MM2, REACHED_HAND_MM2, Shades, ring
from companion.vision._surround_sleeve import Grain, Level, lit_and_shaded, sides_apart, sleeve_crossing
from companion.vision.base import Frame
from companion.vision.surround import DARK_NOISE, BandChanges, Surround
from companion.vision.table_light import Floats, Mask, floats

HAND_BLUR_MM = 9.0
"""Width of the window over which the difference from the table is averaged for the hand check."""
HAND_JOIN_MM = 21.0
"""Gaps up to this wide between changed regions are closed for the hand check."""
EDGE_RIM_PX = 2
"""Mask pixels along the plane's edge that the hand check takes as the pixels just inside
(`joined_changes`)."""
HAND_DEPTH_MM = 10.0
"""An arm is still wide this far inside the plane's edge."""
BAND_SHADOW_MIN = 0.1
"""Around the plane a shadow may be deeper than the plane's `shadow_min` allows: a head shades the table
nearer the player more, and more steeply than the band's light follows within a cell (a player out of
view under a low lamp leaves dark wood a quarter lit, linen 0.17 lit in burnt 20261141: at 0.2 that
shadow was foreign across the band). Deeper than this a shadow's hue is the camera's noise."""
BAND_LEVEL = 0.5
"""Around the plane no piece lies: a change averaged over `HAND_BLUR_MM` counts there from this share of
`hand_level` on (a pale arm on linen differs from it by little)."""
HOLE_MM2 = 300.0
"""Table-like holes inside a foreign region up to this size are part of it: a piece the colour of one
check of the cloth still shows whole where the check lies inside it."""
CARRIED_SHARE = 0.75
"""Under the plane's light carried outward (`HandCheck.may_cross`), a region crossing the band counts from
this share of an arm's width on: the plane's light at its rim takes in the part of an arm over the rim that
the plane's changes leave out (its middle, of nearly the table's colour), and carried outward takes it in
over the band too, narrowing the arm's region there where the band's own light does not (burnt 20261151
Minotaurus linen session 10 frame 7, a skin arm in a dim room, read as at rest: 16 mm wide under the plane's
light, 30 mm under the band's own, where `crossed` finds it)."""


def joined_changes(
    changed: Mask, kernel: numpy.typing.NDArray[numpy.uint8]
) -> numpy.typing.NDArray[numpy.uint8]:
    """The changes with gaps up to the kernel's size closed, so that the sides, shading and shadow of an
    arm of nearly the table's colour make one region again (its ridge may match the table)."""
    rim, reach = EDGE_RIM_PX, kernel.shape[0]
    image = changed.astype(numpy.uint8)
    # The plane's outermost pixels shift with every wobble of the calibration: they take the look of
    # the pixels just inside, so a strip along the edge there is no change.
    image[:rim], image[-rim:] = image[rim], image[-rim - 1]
    image[:, :rim], image[:, -rim:] = image[:, rim : rim + 1], image[:, -rim - 1 : -rim]
    # Beyond the plane, what crosses its edge goes on (an arm), what does not stays apart from the edge:
    # closed inside a border continuing the edge, a piece near the edge is not glued to it.
    padded = cv2.copyMakeBorder(image, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    closed = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return numpy.ascontiguousarray(closed[reach:-reach, reach:-reach], numpy.uint8)


def filled(foreground: numpy.typing.NDArray[numpy.uint8]) -> numpy.typing.NDArray[numpy.uint8]:
    """The foreground with its small enclosed holes filled (not the table enclosed by a ring of
    pieces: that hole is larger)."""
    # The regions' areas counted from their labels: OpenCV's statistics (boxes, centroids) cost twice
    # the labelling itself.
    count, found = cv2.connectedComponents(1 - foreground, connectivity=4)
    if count <= 1:
        return foreground
    labels = numpy.asarray(found, numpy.int32)
    small = numpy.bincount(labels.ravel(), minlength=count) <= HOLE_MM2 * MASK_PX_PER_MM**2
    # A hole touches no edge of the plane.
    small[ring(labels, 0)] = False
    small[0] = False  # label 0: the foreground itself
    if not numpy.any(small):
        return foreground
    return numpy.asarray(foreground | of_labels(small, labels), numpy.uint8)


class HandCheck:
    """The hand check of one layout's reference: its settings, its band (`surround`), the corner markers'
    squares and the weight of the pixels where no item lies, all at the masks' size."""

    def __init__(
        self, settings: ReferenceSettings, surround: Surround, markers: Mask, weight: Floats
    ) -> None:
        self.settings = settings
        self.surround = surround
        self.markers = markers
        self.weight = weight
        shape = (markers.shape[0], markers.shape[1], 3)
        self.reachable = numpy.zeros(markers.shape, bool)
        """Where an arm of a board's colour may come in unseen up to its hand (`Surround.reachable`)."""
        self._dark_noise = numpy.full(shape, DARK_NOISE, numpy.float32)
        self._relative = numpy.full(shape, settings.relative_tolerance, numpy.float32)
        self._level = numpy.empty(shape, numpy.float32)
        self._floor = numpy.empty(shape, numpy.float32)
        """`tolerance`'s buffers."""

    def tolerance(self, image: Floats, tolerance: Floats, gain: Floats) -> Floats:
        """The tolerance the hand check divides the differences by: `tolerance` (the comparison's), but
        where the table at the light is darker than the noise floor (`ReferenceSettings.tolerance`) plus
        `DARK_NOISE`, its level less `DARK_NOISE` (at least `DARK_NOISE`) in place of that floor. In a
        dim room a dark arm over a near-black cloth (levels 8-16 of 255) differs from it by 4-8 levels a
        channel, alike over the whole arm: under the floor of 14 levels it was unseen around the plane,
        seen only over the lit board (burnt seed 20261134: Minoa printed and felt)."""
        if float(image.min()) * float(gain.min()) >= self.settings.tolerance + DARK_NOISE:
            return tolerance  # a lit table: the floor holds everywhere (two reductions, not five passes)
        # The same operations into buffers kept from frame to frame: fresh temporaries cost five times
        # the arithmetic (0.3 ms a frame; the memory, new each time, is not in the cache).
        level, floor = self._level, self._floor
        cv2.multiply(image, gain, dst=level)
        cv2.max(cv2.subtract(level, self._dark_noise, dst=floor), self._dark_noise, dst=floor)
        # Never above the comparison's own tolerance: at levels from the floor's plus DARK_NOISE on, it.
        cv2.add(cv2.multiply(level, self._relative, dst=level), floor, dst=level)
        return floats(cv2.min(tolerance, level))

    def over_band(
        self,
        joined: numpy.typing.NDArray[numpy.uint8],
        surround: Frame | Callable[[], Frame],
        small: Frame,
        log_light: Floats,
    ) -> bool:
        """Whether an arm crosses the band around the plane into its changes (`joined`); `surround`: the
        frame's `TableReference.surround_of`, or a function giving it, called only when needed (warping it
        costs); `small`: the plane at the masks' size; `log_light`: the plane's light (log gain)."""
        # Nothing of the plane's changes comes in over its edge as wide as an arm (the band's
        # comparison, most of this stage's cost, could find no crossing): no hand.
        if not self.may_come_in(joined):
            return False
        # Under the plane's light carried outward, most frames' band changes nowhere near as
        # much as an arm crossing it would, nor crosses it into the plane's changes as wide as
        # an arm; where it may, the band's own light (a shadow or a hotspot over the band alone
        # is light) decides, as measuring it costs more.
        band = with_middle(self.surround, surround() if callable(surround) else surround, small)
        level, blur = self.settings.hand_level * BAND_LEVEL, px(HAND_BLUR_MM)
        _, carried, _, _ = self.surround.changed(band, BAND_SHADOW_MIN, blur, level, log_light)
        if not self.may_cross(carried, joined):
            # A sleeve of the lit table's colour differs from it only along its sides: where two such
            # lie an arm's width apart, its outlines and the grain between them decide (`sleeve_crossing`).
            if not sides_apart(carried, self.surround.margin, self.surround.px_per_mm):
                return False
            full = self.surround.changed(band, BAND_SHADOW_MIN, blur, level)
            return self.sleeve(full, joined, self.surround.grain_of(band), self.surround.level_of(band))
        # Under the band's own light, where it differs at all (or is a pale arm's light) holds every
        # region `crossed` could find, its outlines and texture only narrowing them: where nothing of
        # that crosses the band, shadows, outlines and texture need not be told (half the cost; Asterion
        # at rest, the band crossed under the plane's light, its own light finds no crossing).
        changes = self.surround.changed_if_crossed(
            band, BAND_SHADOW_MIN, blur, level, lambda differs: self.may_cross(differs, joined, counted=False)
        )
        if changes is not None and self.crossed(
            changes,
            joined,
            self.surround.shades_of(band),
            self.surround.grain_of(band),
            self.surround.level_of(band),
        ):
            return True
        # An arm its light took in whole, only its sides differing: the grain it hides between them.
        return self.surround.grain_hidden(band, carried, joined)

    def may_come_in(self, joined: numpy.typing.NDArray[numpy.uint8]) -> bool:
        """Whether the plane's changes (`joined`) could take part in an arm crossing the band
        (`Surround.crossing` with the markers as bridges): a region crossing it goes on into the plane
        beside the markers along at least an arm's width of the plane's edge, or, come in over a marker
        only, covers `BRIDGED_ARM_MM2` of the plane; or, where the plane's rim is a board's, a hand's
        area of changes lies within an arm's reach of it (`Surround.reaching`). Bounded here over all the
        changes the band can reach (those joined to the plane's edge, over the markers too, and those
        large ones over the reachable rim), so False means no crossing."""
        inside = (joined > 0) & ~self.markers
        width = self.settings.hand_min_edge_mm * MASK_PX_PER_MM
        if numpy.count_nonzero(ring(inside.view(numpy.uint8), 0)) >= width:
            return True
        count, labels = cv2.connectedComponents((inside | self.markers).view(numpy.uint8), connectivity=8)
        reached = numpy.zeros(count, bool)
        reached[ring(numpy.asarray(labels, numpy.int32), 0)] = True
        reached[0] = False
        if (
            int(numpy.count_nonzero(of_labels(reached, labels) & inside))
            >= BRIDGED_ARM_MM2 * MASK_PX_PER_MM**2
        ):
            return True
        # An arm of a board's colour, unseen where it comes in over the board's rim, and its hand
        # further in (`Surround.reaching`): a hand's area of changes within its reach there.
        if not numpy.any(self.reachable):
            return False
        _, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        large = stats[:, cv2.CC_STAT_AREA] >= REACHED_HAND_MM2 * MASK_PX_PER_MM**2
        large[0] = False
        return bool(numpy.any(large) and numpy.any(large[labels[self.reachable]]))

    def may_cross(
        self, carried: Mask, joined: numpy.typing.NDArray[numpy.uint8], counted: bool = True
    ) -> bool:
        """Whether what differs at all in the band under the plane's light carried outward (`carried`:
        `Surround.changed`'s second mask in that mode) could take part in an arm crossing it: as many
        pixels as an arm's crossing, and a region of them as wide as an arm from the band's outer edge
        into the plane's changes (`joined`). An arm differs under that light too: where the band's own
        light is another (a shadow or a hotspot over the band alone), the table there differs under the
        plane's, and the region crossing is wider still, but where the plane's light at its rim took in
        the arm's middle: under that light (`counted`) `CARRIED_SHARE` of an arm's width is enough. Only
        then is the band's own light measured (`crossed`): at rest, a shadow or a hotspot over the band
        alone seldom crosses into the plane."""
        width = self.settings.hand_min_edge_mm
        # (`counted`: with this first test, as under the plane's light; `crossed`'s own tests have none)
        if counted:
            width *= CARRIED_SHARE
            if numpy.count_nonzero(carried) < self.surround.margin * width * MASK_PX_PER_MM:
                return False
        return self.surround.crossing(carried, joined, width, None, self.markers) or self.surround.reaching(
            carried, joined, width, self.reachable
        )

    def crossed(
        self,
        changes: BandChanges,
        joined: numpy.typing.NDArray[numpy.uint8],
        shades: Shades | None = None,
        grain: Grain | None = None,
        level: Level | None = None,
    ) -> bool:
        """Whether an arm crosses the band around the plane into it (`changes`: the band's, as
        `Surround.changed` gives them; `joined`: the plane's changes, their gaps closed; `shades`: the
        band's `Surround.shades_of`; `grain`: its `Surround.grain_of`; `level`: its `Surround.level_of`)."""
        band, darker, outline, texture = changes
        # Something foreign crossing the band is an arm. Something only darker there (a shadow, or an arm
        # of the cloth's hue shaded at its sides) is one when it has an arm's sharp outline: a head's
        # shadow fades softly. Under a small lamp it does not, but it only scales the table: one smooth
        # shade inside its outline (`shades`), where an arm's shading turns across the limb. So is
        # a foreign one: under a warm lamp a sharp shadow's bluer daylight over plain laminate is of no
        # shadow's hue, yet it scales the table smoothly and its pattern shows (bench seed 20261142
        # Minoa laminate session 09 frame 9, refused at rest; its hue 0.074, pattern 19.9).
        # A marker's square tells nothing (see above): an arm crossing the band beside it may go on over
        # it (a hand over a corner), but it has to come into the plane beside it as well: a ring or a
        # player's shadow lying over the band by a marker is joined to its square too.
        markers, width = self.markers, self.settings.hand_min_edge_mm
        # A board reaching out past the plane under the band's inner edge, of a skin's hue (the toss's
        # pale collar plate), is only darker under the arm there: the arm's foreign part stops short of
        # the plane (burnt 20261141 Toss printed session 12 frame 6, 6 mm short, read with a hand).
        foreign = self.surround.through_rim(band, darker)
        crossed = self.surround.crossing(
            foreign, joined, width, None, markers, texture, shades
        ) or self.surround.crossing(darker, joined, width, outline, markers, texture, shades)
        # An arm of the plane's colour over it (a skin tone as the board's): foreign where it crosses
        # the band, unseen over the plane until its hand.
        if crossed:
            return True
        reaching, reachable = self.surround.reaching, self.reachable
        if reaching(band, joined, width, reachable, None, texture, grain) or reaching(
            darker, joined, width, reachable, outline, texture, grain
        ):
            return True
        return grain is not None and self.sleeve(changes, joined, grain, level)

    def sleeve(
        self,
        changes: BandChanges,
        joined: numpy.typing.NDArray[numpy.uint8],
        grain: Grain,
        level: Level | None = None,
    ) -> bool:
        """Whether a sleeve of the lit table's colour, taken in by the band's own light, crosses the band
        into the plane's changes (`joined`): its two sides (`changes`' outlines) and the grain gone between
        them (`grain`; dev asterion 9 dark wood session 01 frame 9, read with a hand); or, with the band's
        level (`level`), an arm lit from one side whose rest its own light takes in: two regions of the
        band's changes side by side, one brighter and one darker than the table beside them
        (`lit_and_shaded`; burnt 20261143 Asterion light wood session 00 frame 8, a motion-blurred skin
        arm in a dim room, no outline nor grain to tell)."""
        margin, px_per_mm = self.surround.margin, self.surround.px_per_mm
        if sleeve_crossing(changes[2], joined, margin, px_per_mm, grain):
            return True
        return level is not None and lit_and_shaded(changes[1], joined, margin, px_per_mm, level)

    def at_edge(self, joined: numpy.typing.NDArray[numpy.uint8]) -> bool:
        """A large changed region (`joined`: the changes with their gaps closed) that comes in across the
        plane's edge: within `HAND_DEPTH_MM` of the edge it runs wide along the edge and still wide at
        that depth (an arm), counted where no item lies."""
        depth = max(1, round(HAND_DEPTH_MM * MASK_PX_PER_MM))
        outer, inner = EDGE_RIM_PX, EDGE_RIM_PX + depth
        band = joined.copy()
        band[inner + 1 : -inner - 1, inner + 1 : -inner - 1] = 0
        count, found = cv2.connectedComponents(band, connectivity=8)
        if count <= 1:
            return False
        entries = numpy.asarray(found, numpy.int32)
        min_edge = self.settings.hand_min_edge_mm * MASK_PX_PER_MM
        # Counted where no item lies: pieces laid near the edge are no arm coming in over it.
        free = numpy.asarray(self.weight > 1.0, numpy.int32)
        along_edge = numpy.bincount(ring(entries * free, outer), minlength=count)
        further_in = numpy.bincount(ring(entries * free, inner), minlength=count)
        wide = [n for n in range(1, count) if along_edge[n] >= min_edge and further_in[n] >= min_edge]
        if not wide:
            return False
        _, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        min_area = self.settings.hand_min_area_mm2 * MASK_PX_PER_MM**2
        for entry in wide:
            region = labels[entries == entry].max()
            if region > 0 and stats[region, cv2.CC_STAT_AREA] >= min_area:
                return True
        return False
