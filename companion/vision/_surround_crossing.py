"""The band around one plane, its geometry (its margin, each pixel's depth in from its outer edge, its
pixels), and whether a region of its changes crosses it into the plane (`crossing`) or comes up to a board's
rim where a hand lies beyond (`reaching`). Separate from surround.py, which learns the band and finds its
changes: these are the decisions on those changes' regions, given the masks."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy
import numpy.typing

from companion.vision._surround_sleeve import Grain
from companion.vision._surround_texture import KEPT_TEXTURE_MIN_PX, KEPT_TEXTURE_Z, shaded
from companion.vision.table_light import Floats, Mask

OUTLINE_DEPTHS = 1 / 3
"""An outline crosses the band: its pixels lie at this share of the band's depths at least (an arm's side
runs from the outer edge to the plane; pieces standing at the plane's edge step sharply just beside it)."""
BRIDGED_ARM_MM2 = 2500.0
"""An arm that crosses the plane's edge only over a marker covers at least this much of the plane beyond."""

RIM_MM = 6.0
"""The band's innermost this many millimetres may be the plane's board reaching out past the plane (the
toss's collar plate): an arm of its hue there is only darker than it (`BandCrossing.through_rim`)."""

REACH_MM = 70.0
"""How far into the plane an arm of its very colour may come unseen before its hand shows (a forearm
over the toss's collar plate, 40-55 mm)."""
ARM_CORE_MM = 28.0
"""A region `reaching` finds, carried straight on beyond the band's outer edge, holds a disc this wide: an
arm's limb does (the thinnest, a wrist, some 50 mm), a ring's arc does not (the toss's, a 5 mm cord 65 mm
round, blurred by the hand check's window to 7-10 mask pixels, 14-20 mm: its cap alone across a third of
the band, its legs merged on the outer edge, holds the table on neither side for `_hollow` to see)."""
REACHED_HAND_MM2 = 6000.0
"""The changed region a hand unseen up to it makes at least (a palm and fingers, 8000 mm² and more); a
ring lying there, some 2800 mm², is none."""
REACHED_GRAIN = 0.9
"""A region `reaching` finds whose texture in the band agrees with the reference's this well (over every
textured pixel, differing or not: `Surround.grain_of`), as surely as `KEPT_TEXTURE_Z` asks, shows the table's
grain nearly all over: an arm hides it where it crosses, and hiding it over a fifth of a region that keeps
it at 0.99 elsewhere leaves some 0.89. The band's own light may take a lamp's pool for a pale arm
(`WarmLight.warm`) and the pool's rest differ beyond light and shadow, of no shadow's hue: bench seed
20261149 (now burnt) Minos linen session 03 frame 10, at rest, a warm lamp's pool beside a deep shadow and
the dice joined as large as a hand within reach of the board's rim, was refused; its pool's regions kept
the weave at 0.99 over 35 textured pixels and 0.98 over 2607. Over every frame at rest and hand frame of
the dev sets and burnt sets of seeds 20261136-49 (8523), regions came this far in 9 frames, all at rest,
at 0.89-0.99."""


Shades = Callable[[numpy.typing.NDArray[numpy.int32], int], Mask]
"""Per region of the band's changes (their labels, how many), whether it is the table under one smooth
shade (`Surround.shades_of`)."""


class BandCrossing:
    """The band around one plane: its geometry, and whether its changes' regions cross it (surround.py's
    `Surround` learns the band and finds those changes)."""

    def __init__(self, margin: int, size: tuple[int, int], px_per_mm: float) -> None:
        """`margin`: the band's width, `size`: the (width, height) of the plane with the band around it,
        in mask pixels; `px_per_mm`: their resolution."""
        self.margin = margin
        self.size = size
        self.px_per_mm = px_per_mm
        height, width = self.size[1], self.size[0]
        y, x = numpy.mgrid[0:height, 0:width]
        self._depth = numpy.minimum(numpy.minimum(y, x), numpy.minimum(height - 1 - y, width - 1 - x))
        """Per pixel, how far in from the band's outer edge (mask pixels)."""
        self._band_pixels = numpy.flatnonzero(self._depth < self.margin)
        """The band's pixels' indices in an image of its size, raveled."""
        self._rim_px = max(1, round(RIM_MM * px_per_mm))

    def crossing(
        self,
        band: Mask,
        inside: numpy.typing.NDArray[numpy.uint8],
        min_width_mm: float,
        outline: Mask | None = None,
        bridges: Mask | None = None,
        texture: Floats | None = None,
        shades: Shades | None = None,
    ) -> bool:
        """Whether a changed region runs from the band's outer edge across it and on into the plane
        (`band`: the band's changes; `inside`: the plane's, at the masks' size), at least
        `min_width_mm` wide at the band's outer edge and at the plane's edge (and with `outline`, with
        at least as many of its pixels as the band is wide). `bridges` (the plane's) join what lies on
        either side of them but do not count as the plane's changes. With `texture` (`Surround.changed`'s),
        a region whose texture in the band agrees with the reference's is a shadow; with `shades`, so is one
        that is the table under one smooth shade (`_surround_shade.py`: over plain laminate there is no
        texture to keep, and a sharp shadow's outline is as steep as an arm's). A region taken for a
        shadow only as its texture is kept so surely that its depth may spread may be pieces of the band
        joined through the plane's changes, at other depths: each of its pieces that crosses the band is
        judged by itself too (`_pieces`)."""
        found, shadowed = self._crossed(band, inside, min_width_mm, outline, bridges, texture, shades)
        if found or shadowed is None:
            return found
        return any(
            self._crossed(piece, inside, min_width_mm, outline, bridges, texture, shades)[0]
            for piece in self._pieces(shadowed, min_width_mm)
        )

    def _crossed(
        self,
        band: Mask,
        inside: numpy.typing.NDArray[numpy.uint8],
        min_width_mm: float,
        outline: Mask | None,
        bridges: Mask | None,
        texture: Floats | None,
        shades: Shades | None,
    ) -> tuple[bool, Mask | None]:
        """`crossing` of the band's changes as they are joined; where it finds none, the band's pixels of
        the regions that crossed it but were taken for a shadow only as their texture is kept so surely
        that their depth may spread (`shaded`'s second), if any."""
        m = self.margin
        joined = band.astype(numpy.uint8)
        joined[m:-m, m:-m] = inside
        if bridges is not None:
            joined[m:-m, m:-m][bridges] = 1
        count, found = cv2.connectedComponents(joined, connectivity=8)
        if count <= 1:
            return False, None
        labels = numpy.asarray(found, numpy.int32)
        width = min_width_mm * self.px_per_mm
        outer = ring(labels, 1)
        at_edge = ring(labels, m)
        further_in = ring(labels, m + 3)
        outer_count = numpy.bincount(outer, minlength=count)
        edge_count = numpy.bincount(at_edge, minlength=count)
        in_count = numpy.bincount(further_in, minlength=count)
        wide = (outer_count >= width) & (edge_count >= width) & (in_count >= width / 2)
        wide[0] = False
        if not numpy.any(wide):
            return False, None  # what follows only narrows `wide` further: no need to count it
        if bridges is not None:
            # Come in by a bridge (over a marker), an arm goes on over the plane, a hand's area of it; a
            # ring or a shadow lying beside the marker does not.
            unbridged = labels.copy()
            unbridged[m:-m, m:-m][bridges] = 0
            by_itself = numpy.bincount(ring(unbridged, m), minlength=count) >= width
            area = numpy.bincount(unbridged[m:-m, m:-m].ravel(), minlength=count)
            far_in = area >= BRIDGED_ARM_MM2 * self.px_per_mm**2
            wide &= by_itself | far_in
        if outline is not None:
            wide &= self._outlined(labels, count, outline)
        spared = numpy.zeros(count, bool)
        if texture is not None and numpy.any(wide):
            kept, spared = shaded(labels, count, texture, width, self.margin, self._band_pixels)
            spared &= wide
            wide &= ~kept
        if shades is not None and numpy.any(wide):
            wide &= ~shades(labels, count)
        if numpy.any(wide) or not numpy.any(spared):
            return bool(numpy.any(wide)), None
        return False, band & spared[labels]

    def _pieces(self, regions: Mask, min_width_mm: float) -> list[Mask]:
        """The pieces of the band's changes in `regions` (of the band alone) that cross it from its outer
        edge as wide as an arm (`min_width_mm`), each alone; none where the regions are one piece (judged
        so already). An arm's pieces joined through the plane's changes to a shadow's, at other depths: the
        shadow's texture, summed with them, let their depth spread (bench seed 20261148, now burnt,
        Asterion light wood session 00 frame 8, read with a hand: a warm lamp switched on since the empty
        table was learned changed the whole plane; the arm's four outlined pieces over the wood's plain
        stretches, none of its texture there to keep, joined a shadow along the band's top whose grain
        agreed at 13.8 (`KEPT_TEXTURE_SURE_Z` 8), which spared the region's depth spread, 0.36, that the arm
        made). Only there: where a region's depth is one (`KEPT_DEPTH_SPREAD`), its pieces over a plain
        stretch are the shadow that keeps the texture elsewhere (judged by pieces wherever a region was
        taken for a shadow, 8 frames at rest of 7278 were refused: a shade over felt, a printed cloth's)."""
        m = self.margin
        part = regions.astype(numpy.uint8)
        part[m:-m, m:-m] = 0
        count, found = cv2.connectedComponents(part, connectivity=8)
        if count <= 2:
            return []
        labels = numpy.asarray(found, numpy.int32)
        across = numpy.bincount(ring(labels, 1), minlength=count) >= min_width_mm * self.px_per_mm
        across[0] = False
        return [labels == n for n in numpy.flatnonzero(across)]

    def through_rim(self, foreign: Mask, darker: Mask) -> Mask:
        """`foreign` (the band's changes beyond light and shadow) carried straight on across the band's
        innermost `RIM_MM` to the plane's edge where it is only `darker` there: a board reaching out past
        the plane under the arm, of its hue. Straight on from where it stops, not along the rim: a strip
        of shade along the plane's edge would join it to any change of the plane's."""
        m, k = self.margin, self._rim_px
        out = foreign.copy()
        a, b = m - k, m  # the rim's depths
        out[a:b, m:-m] |= darker[a:b, m:-m] & foreign[a - 1, m:-m][None, :]
        out[-b:-a, m:-m] |= darker[-b:-a, m:-m] & foreign[-a, m:-m][None, :]
        out[m:-m, a:b] |= darker[m:-m, a:b] & foreign[m:-m, a - 1][:, None]
        out[m:-m, -b:-a] |= darker[m:-m, -b:-a] & foreign[m:-m, -a][:, None]
        return out

    def _outlined(self, labels: numpy.typing.NDArray[numpy.int32], count: int, outline: Mask) -> Mask:
        """Per region, whether an outline crosses the band along it (`outline`: `Surround.changed`'s):
        one side of an arm."""
        m = self.margin
        # An outline across the band at least: one side of the arm.
        sharp = numpy.bincount(labels[outline], minlength=count) >= m
        # Across the band: at a third of its depths at least.
        depth = numpy.minimum(self._depth[outline], m - 1)
        seen = numpy.bincount(labels[outline] * m + depth, minlength=count * m).reshape(count, m) > 0
        return numpy.asarray(sharp & (numpy.count_nonzero(seen, axis=1) >= m * OUTLINE_DEPTHS), bool)

    def reaching(
        self,
        band: Mask,
        inside: numpy.typing.NDArray[numpy.uint8],
        min_width_mm: float,
        reachable: Mask,
        outline: Mask | None = None,
        texture: Floats | None = None,
        grain: Grain | None = None,
    ) -> bool:
        """Whether a region crossing the band (`band`: its changes, as `crossing`'s, with `outline` and
        `texture` as there; with `grain`, one showing the table's grain all over is none: `REACHED_GRAIN`)
        as wide as an arm (`min_width_mm`) at its outer edge and halfway to the plane's, faces, straight
        on into the plane within `REACH_MM` of its edge where that is a board's rim (`reachable`), a
        changed region of the plane (`inside`) as large as a hand (`REACHED_HAND_MM2`): an arm of the
        board's very colour (a skin tone as the toss's collar plate) is unseen over it where it comes in,
        but its hand, shaded and with fingers, is not."""
        if not numpy.any(reachable):
            return False  # no board's rim: the plane's own changes show an arm where it comes in
        m = self.margin
        ring_band = band.astype(numpy.uint8)
        ring_band[m:-m, m:-m] = 0
        count, found = cv2.connectedComponents(ring_band, connectivity=8)
        if count <= 1:
            return False
        labels = numpy.asarray(found, numpy.int32)
        width = min_width_mm * self.px_per_mm
        outer_count = numpy.bincount(ring(labels, 1), minlength=count)
        # Half across the band at least: the board may reach out past the plane under the arm too.
        half = m // 2
        edge_count = numpy.bincount(ring(labels, half), minlength=count)
        wide = (outer_count >= width) & (edge_count >= width)
        wide[0] = False
        if numpy.any(wide):
            wide &= ~self._hollow(labels, wide, (1, half), width)
        if numpy.any(wide):
            wide &= self._solid(labels, wide)
        if outline is not None and numpy.any(wide):
            wide &= self._outlined(labels, count, outline)
        if texture is not None and numpy.any(wide):
            wide &= ~shaded(labels, count, texture, width, self.margin, self._band_pixels)[0]
        if grain is not None:
            for label in numpy.flatnonzero(wide):
                agreement, textured = grain(labels == label)
                wide[label] = not (
                    textured >= KEPT_TEXTURE_MIN_PX
                    and agreement >= REACHED_GRAIN
                    and agreement * textured**0.5 >= KEPT_TEXTURE_Z
                )
        if not numpy.any(wide):
            return False
        # Straight on into the plane from where the crossing regions meet its edge.
        entering = wide[labels]
        reach = min(round(REACH_MM * self.px_per_mm), (inside.shape[0] - 1) // 2, (inside.shape[1] - 1) // 2)
        facing = numpy.zeros(inside.shape, bool)
        facing[:reach, :] |= entering[half, m:-m][None, :]
        facing[-reach:, :] |= entering[-1 - half, m:-m][None, :]
        facing[:, :reach] |= entering[m:-m, half][:, None]
        facing[:, -reach:] |= entering[m:-m, -1 - half][:, None]
        facing &= reachable
        _, plane_labels, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=8)
        large = stats[:, cv2.CC_STAT_AREA] >= REACHED_HAND_MM2 * self.px_per_mm**2
        large[0] = False
        return bool(numpy.any(large[numpy.asarray(plane_labels, numpy.int32)[facing]]))

    def _hollow(
        self, labels: numpy.typing.NDArray[numpy.int32], wide: Mask, insets: tuple[int, ...], gap: float
    ) -> Mask:
        """Per region, whether along the band's outer edge or halfway across (`insets` from the band's
        outer edge) it holds the table over `gap` pixels or more between its own pixels on one side: a
        ring's arc over the band (an annulus: its legs apart, the table inside between them), where an
        arm across it is solid (burnt 20261141 Toss linen session 03 frame 11: a ring lying beyond the
        collar plate's edge, its arc across half the band, reached the rings on the plate)."""
        out = numpy.zeros(wide.shape, bool)
        for inset in insets:
            top, left = inset, inset
            bottom, right = labels.shape[0] - 1 - inset, labels.shape[1] - 1 - inset
            lines = (
                labels[top, left : right + 1],
                labels[bottom, left : right + 1],
                labels[top : bottom + 1, left],
                labels[top : bottom + 1, right],
            )
            for line in lines:
                for label in numpy.unique(line[wide[line]]):
                    at = numpy.flatnonzero(line == label)
                    out[label] |= at.size > 1 and int(numpy.diff(at).max()) - 1 >= gap
        return out

    def _solid(self, labels: numpy.typing.NDArray[numpy.int32], wide: Mask) -> Mask:
        """Per region, whether its pixels in the band, carried straight on beyond the band's outer edge
        (as an arm runs on), hold a disc `ARM_CORE_MM` across: a limb, where a ring's arc is thin."""
        pad = self.margin
        regions = numpy.ascontiguousarray(wide[labels], numpy.uint8)
        carried = cv2.copyMakeBorder(regions, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        depth = cv2.distanceTransform(carried, cv2.DIST_L2, 5)[pad:-pad, pad:-pad]
        out = numpy.zeros(wide.shape, bool)
        out[labels[depth >= ARM_CORE_MM * self.px_per_mm / 2]] = True
        return out & wide


def ring(labels: numpy.typing.NDArray[numpy.int32], inset: int) -> numpy.typing.NDArray[numpy.int32]:
    """The labels along the rectangle `inset` pixels in from the image's edges."""
    top, bottom, left, right = inset, labels.shape[0] - 1 - inset, inset, labels.shape[1] - 1 - inset
    return numpy.concatenate(
        [
            labels[top, left : right + 1],
            labels[bottom, left : right + 1],
            labels[top:bottom, left],
            labels[top:bottom, right],
        ]
    )
