"""Minotaurus: which faces are too coloured to be white, on a normalised plane.

There the light is canonical: a white face is the canonical white, its chroma near none, or it shares the
cast the normalisation left on the frame's other white faces (a lamp's clipped glare, a shadow's tint).
A pale face (a second print's pastel green or blue, a face washed by a glare) keeps its hue. The nearest
prototype alone cannot tell them: the white prototypes learned on the built-in edition spread out to the
casts of its whites (one at chroma 36, yellowish: a clipped white on a warm table), nearer a pale green
than that edition's saturated greens are. A face is white only if its colour lies within WHITE_CHROMA of
the canonical white, of another near-white face of the same frame, or of a taught white (an edition's
cream or ivory white), and, when paler than that, within WHITE_SATURATION of its lightness: a cast is a
tint of the light, as strong as the light, where a pastel pigment is as coloured in the shade (a second
print's pale blue, chroma 19 at lightness 115, where a cast white of that chroma is lit to 246).
"""

from __future__ import annotations

import numpy
import numpy.typing

WHITE_CHROMA = 20.0
"""Farthest (in Lab a, b at the table's brightness) a white face lies from the canonical white or from
the frame's other whites. The built-in edition's white prototypes reach chroma 17 but for the one outlier,
dev frames' whites 19 (a clipped white beside a cast); pale faces of other editions from 19 (blue) and 27
(green) up, the built-in colours from 30."""

WHITE_SATURATION = 0.14
"""Most chroma per lightness (OpenCV's 0-255 L) a white face shows: dev frames' cast whites up to 0.093,
every face of a colour (lit at all) from 0.108; the built-in white prototypes up to 0.09 but for the
outlier."""
COOL_SATURATION = 0.095
"""WHITE_SATURATION for a face whose cast leans blue (Lab b under the table's): the whites' blue casts are
faint (a travel white's cool print; dev and burnt sets' 450 such whites up to 0.081, chroma 18 at most),
their strong casts a warm lamp's (yellow, up to 0.14). A second print's pale blue lit bright is as faint
as those warm casts: bench seed 20261149 (burnt) dark wood session 01 frame 000011, a pale blue face at
chroma 17.5, lightness 167 (0.105) read white; pale blues on dev and burnt sets from 0.105."""
PALE_CHROMA = 12.0
"""Least chroma that makes a face too saturated for white: below it, a dim face's noise and the paper
white's own tint (a cream edition's 8)."""

Casts = numpy.typing.NDArray[numpy.float32]


def too_coloured_for_white(
    casts: Casts, lightness: Casts, taught_whites: Casts | None = None
) -> numpy.typing.NDArray[numpy.bool_]:
    """Per face-up cell, whether it is too coloured to be white. `casts`: each face's (a, b) less the
    neutral table's; `lightness`: each face's L (0-255); `taught_whites`: the (a, b) casts of taught white
    prototypes, if any."""
    chroma = numpy.hypot(casts[:, 0], casts[:, 1])
    most = numpy.where(casts[:, 1] < 0, COOL_SATURATION, WHITE_SATURATION).astype(numpy.float32)
    far = _too_coloured(chroma, lightness, most)
    if not far.any():
        return far
    near = casts[~far]
    if taught_whites is not None and len(taught_whites):
        near = numpy.concatenate([near, taught_whites.astype(numpy.float32)])
    if len(near):
        # Faces themselves near-white are never "far"; a far one is measured from its nearest white.
        apart = numpy.hypot(*(casts[far][:, None, :] - near[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        far[far] = _too_coloured(apart, lightness[far], most[far])
    return far


def _too_coloured(chroma: Casts, lightness: Casts, most: Casts) -> numpy.typing.NDArray[numpy.bool_]:
    saturated = (chroma >= PALE_CHROMA) & (chroma >= most * lightness)
    return numpy.asarray((chroma >= WHITE_CHROMA) | saturated, numpy.bool_)
