"""Minotaurus: two rows of pips that match a face nearly alike, told apart where only the longer has pips.

A travel edition's ring pips on a dark or mottled face stand a few grey levels above the noise: filled and
matched whole (best_match), a row one pip longer or shorter than the face's fits within a hundredth or two,
each row free to slide its own way over the mottle. Laid at one centre, the two rows differ only at the
longer one's ends: how dark those ends are, against the shorter row's core and the face beyond, tells them.

Why such rows are faint: a ring's 0.8 mm wall, blurred by the lens and stripped by the camera's JPEG, keeps
about half a solid pip's darkness, while the face's JPEG blocks (3-4 mm) and noise are as strong. At equal
horn contrast over the face's noise (3-4) travel rows read wrong 24 times in 99, other editions' once in 242
(29 cached sets). Matched with the travel print's own rows instead, unfilled at the plane's resolution (an
oracle: it knows the edition), travel rows read 1832 right of 1894 against 1812 here (fresh dev 19 and 23:
247 of 257 against 238); but the print is not known, and the camera hardly shows it: even a white face's
row fits another print's pips (round, square, ring) best one time in four. Rings alone are told well enough
by a frame's clearest face: _minotaurus_rings reads faint rows by rows of rings there. Nor does
centring the row better help (the thin horn is found 0.7 px off, by its side; corrected, 1799), nor a mix
of channels from the horn's ink and the face (1806-1814), a median or blur before filling (1803, 1806), a
wider fill (1747-1780), a narrower or wider box (1792-1799); without the tie rule (1788), removing the
face's slope (1789) or weighing positions by a prior about the horn (1757-1789).

Where the lost pip is, measured later (the pipeline's planes of 36 dev and burnt sets, dev 2-99 cached to
burnt 20261148, 2703 travel faces): 91 of 94 faces read with a wrong value are travel, 56 of them blue
(its navy rings 14 grey levels under the face), 82 faint (led by under FAINT_LEAD); most one pip off
(1->2 16, 5->4 15, 4->5 10, 4->3 8), a fifth two and more. Read wrong 3.1 % of travel faces with the camera
under 650 mm, 6.5 % over 800. Tried there, item by item against the recogniser before: the red channel
beside grey for red faces (9 righted, 21 broken: single pips read 2, the camera's colour at half its
resolution), the blue channel for blue (11, 28); frames voted rings by other faces than the clearest
(the most, the three clearest's mean, the median, a share of them; RING_LEAD -0.02 to 0.1), all worse by
2-12 items: where the clearest face does not vote rings the rows of rings read 365 of 422 faint faces
right, the filled rows 369; FAINT_LEAD 0.15 and 0.2 (the same), 0.08, ROW_TIE 0.05 and 0.08, END_SHARE
0.5 and 0.7, the rings' ROW_SLACK_PX (2, 3) and (4, 5), ROW_BLUR_PX 0.7 and 1.4, and summing the filled
and the ring rows' likeness per value (at any weight), all worse.

Nor is the lost pip the plane's resampling (its nearest pixel at PLANE_PX_PER_MM, then GLYPH_PX_PER_MM): the
camera gives 1.0-1.75 px/mm over the play area (travel values read wrong 5 % of faces at 1.0-1.25, 2 % at
1.5-1.75), so the plane already holds what it shows. Cut from the frame instead (35 dev and burnt sets' travel
sessions, 838 frames, 41738 items right before), a faint face's rings read worse the finer the cut (2.5 px/mm
41725, 3 px/mm 41706, the lens's blur 0.5-1 mm alike; 1.5 px/mm 41734), and its filled row, cut finer and
averaged down to GLYPH_PX_PER_MM, swaps as many rows right as wrong (3 px/mm 41736, 6 px/mm 41745, 8 px/mm
41741, against 41740 for the plane's own cut of the unnormalised frame); matching every glyph at the plane's
resolution (2 px/mm, slack and blur alike in mm) read 21 fewer travel items of 43750 (G3's 36 sets).
"""

from __future__ import annotations

import numpy

from companion.vision.base import Frame
from companion.vision.recognisers._minotaurus_glyphs import (
    GLYPH_PX_PER_MM,
    VALUE_BOX_MM,
    VALUE_SLACK_PX,
    Glyphs,
    GlyphTemplates,
    GreyImage,
    best_match,
    box_window,
    class_matches,
    filled,
    glyph_window,
)

ROW_TIE = 0.03
"""Lead (likeness) of the best row over the next under which the two are told apart by their ends. Of the
faces on the dev sets (generated hard sets dev 2-99 and burnt 20261139-41, 4906 faces) 134 lead by less,
46 of them read wrong; of the 4772 that lead by more, 39 (at 0.05, 220 and 57: 28 righted, 21 broken,
against 26 and 8 at 0.03)."""
PIP_PITCH_MM = 5.4
PIP_RADIUS_MM = 2.0
PIP_ROW_MM = 7.0
"""A row of pips's geometry on a face (every edition alike): pips PIP_PITCH_MM apart, centred on the face's
middle line, PIP_ROW_MM below its centre."""
END_SHARE = 0.6
"""Share of the shorter row's darkness (against the face beyond both) the longer row's ends must hold to be
read the longer. Over a half: a filled row's blur darkens the face next to its last pip, where the longer
row's next pip would be (of the 134 ties, righted/broken: 16/18 at 0.5, 26/8 at 0.6, 29/11 at 0.7)."""
ROW_HALF_HEIGHT_PX = 3
"""Rows (glyph pixels) either side of the row's line that are averaged: a pip's radius."""
BEYOND_PX = 3.0
"""Width of the face beyond the longer row, each side, that is its face's grey."""
MARGIN_PX = 6
"""How much wider than the matched box the face is cut, for the face beyond a long row."""


VALUE_CHANNEL = {"green": 1}
"""Faces whose value is also matched in one channel (BGR index) beside grey, the likelier match winning: a
green face's blue pips come out nearly its grey, while in green they are dark on a light face (burnt
20261140 laminate, a green 1 lying turned, its single pip faint in grey, read 3). Not instead of grey: in
green alone other green faces' rows read one pip off (dev 2, 34). Not blue's blue channel: as many rows
went wrong as right (dev 5, 8, 40, 77)."""


VALUE_CLEAR = 0.7
"""A value matched in grey at least this well is taken without trying VALUE_CHANNEL: the faint green 1
matched 0.58, and trying every green face's channel cost 0.45 ms a frame (recogniser alone, dev 34) for
one more row right on dev (77, a green 1 read 2 at a grey likeness over this)."""


def read_value(
    plane: Frame,
    grey: GreyImage,
    centre_mm: tuple[float, float],
    taken: bool,
    at: tuple[float, float],
    colour: str,
    glyphs: Glyphs,
    values: list[int],
) -> tuple[str, float, float]:
    """A face's value, its confidence and likeness (value_match on its `grey` glyph window, the plane's about
    `centre_mm`, and on its VALUE_CHANNEL where it has one and grey matched it under VALUE_CLEAR)."""
    value, sure, _, likeness = value_match(grey, at, glyphs, values)
    if colour in VALUE_CHANNEL and likeness < VALUE_CLEAR:
        channel = glyph_window(plane, centre_mm, taken, VALUE_CHANNEL[colour])[0]
        in_channel = value_match(channel, at, glyphs, values)
        if in_channel[3] > likeness:
            value, sure, likeness = in_channel[0], in_channel[1], in_channel[3]
    return value, sure, likeness


def value_match(
    grey: GreyImage, at: tuple[float, float], glyphs: Glyphs, values: list[int]
) -> tuple[str, float, tuple[float, float], float]:
    """The value whose row of pips, of whichever look, best matches below the horn found `at`; where two
    rows of that look match nearly alike, the one whose ends the face shows (row_ends)."""
    classes = [str(v) for v in values]
    looks = list(zip(glyphs.values, glyphs.blurred_values, strict=True))
    matches = [
        best_match(grey, at, VALUE_BOX_MM, look, classes, VALUE_SLACK_PX, blurred) for look, blurred in looks
    ]
    best = max(range(len(matches)), key=lambda n: matches[n][3])
    value, sure, found, likeness = matches[best]
    if sure < 0.5 + ROW_TIE:
        value = row_ends(grey, at, looks[best][1], classes, VALUE_SLACK_PX) or value
    return value, sure, found, likeness


def row_ends(
    grey: GreyImage,
    at: tuple[float, float],
    blurred: GlyphTemplates,
    classes: list[str],
    slack: tuple[int, int],
) -> str | None:
    """The value of the two best-matching rows (`blurred`, filled templates; see best_match) whose ends say
    it is the face's, where they match within ROW_TIE; None where one leads, where they are not one pip
    apart (their ends would be a pip's pitch and more: a blur, not a pip, a row two pips longer reaches) or
    where the ends tell nothing."""
    height, width = blurred.shape
    window = box_window(grey, at, VALUE_BOX_MM, (height, width), (slack[0] + MARGIN_PX, slack[1] + MARGIN_PX))
    wide = filled(window)
    matched = filled(window[MARGIN_PX:-MARGIN_PX, MARGIN_PX:-MARGIN_PX])
    matches = class_matches(matched, blurred, classes)
    first, second = sorted(matches, key=lambda name: matches[name][0], reverse=True)[:2]
    if matches[first][0] - matches[second][0] >= ROW_TIE or abs(int(first) - int(second)) != 1:
        return None
    # One centre for both: halfway between where each fits, so that neither gains by sliding alone.
    middle_x = (VALUE_BOX_MM[2] - VALUE_BOX_MM[0]) / 2 * GLYPH_PX_PER_MM
    row_y = (PIP_ROW_MM - VALUE_BOX_MM[1]) * GLYPH_PX_PER_MM
    (_, (x_a, y_a)), (_, (x_b, y_b)) = matches[first], matches[second]
    centre_x = MARGIN_PX + (x_a + x_b) / 2 + middle_x
    centre_y = round(MARGIN_PX + (y_a + y_b) / 2 + row_y)
    shorter, longer = sorted((first, second), key=int)
    share = _end_share(wide, (centre_x, centre_y), int(shorter), int(longer))
    if share is None:
        return None
    return longer if share > END_SHARE else shorter


def _end_share(wide: GreyImage, centre: tuple[float, float], shorter: int, longer: int) -> float | None:
    """How dark the longer row's ends are (about `centre`), as a share of the shorter row's core's darkness
    against the face beyond the longer row; None where the core is no darker than the face beyond."""
    centre_x, centre_y = centre
    band = wide[max(0, centre_y - ROW_HALF_HEIGHT_PX) : centre_y + ROW_HALF_HEIGHT_PX + 1]
    profile = band.astype(numpy.float32).mean(axis=0)
    off = numpy.abs(numpy.arange(profile.size) - centre_x)
    pitch, radius = PIP_PITCH_MM * GLYPH_PX_PER_MM, PIP_RADIUS_MM * GLYPH_PX_PER_MM
    short_half = (shorter - 1) / 2 * pitch + radius
    long_half = (longer - 1) / 2 * pitch + radius
    # A pixel and a half clear of each edge: the blur smears a row's end over about that.
    core = off < short_half - 1.5
    ends = (off > short_half + 0.5) & (off < long_half - 0.5)
    beyond = (off > long_half + 1.5) & (off < long_half + 1.5 + BEYOND_PX)
    if not core.any() or not ends.any() or not beyond.any():
        return None
    face, ink = float(profile[beyond].mean()), float(profile[core].mean())
    if face - ink <= 1e-3:
        return None
    return (face - float(profile[ends].mean())) / (face - ink)
