"""Minotaurus: a face-up piece's glyphs, the horn (which finds the piece and its side) and the value.

Templates are cut from upright faces (the built-in ones shipped in minotaurus_faces.json, or a user's
taught piece), turned a few ways, and matched by normalised cross-correlation on the grey plane at
GLYPH_PX_PER_MM.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.reference import NEUTRAL_BGR

GreyImage = numpy.typing.NDArray[numpy.uint8]

HORN_BOX_MM = (-12.0, -14.5, 12.0, 1.5)
"""Where the horn lies on an upright face: (x0, y0, x1, y1) in mm about the piece's centre."""
VALUE_BOX_MM = (-14.0, 3.0, 14.0, 11.0)
"""Where the value (a row of pips) lies on an upright face."""
TURNS_DEG = (-7.0, 0.0, 7.0)
"""Each template is also tried turned this much (degrees): hands leave pieces a little askew."""
GLYPH_PX_PER_MM = 1.5
"""Glyphs are matched at this resolution: pips 6 px across, and few enough pixels to match fast."""
GLYPH_SLACK_PX = 2
VALUE_SLACK_PX = (2, 3)
"""How far (x, y glyph pixels) the row of pips is looked for about where the horn put the piece. Across
the row only as far as GLYPH_SLACK_PX: a row shifted by half its pips' pitch fits a row one pip shorter
(a five read as a four). Along the piece's height a little farther: another edition's thicker or thinner
horn, blurred, best matches a few pixels up or down (a thick-horned print's pips lay 3 px below where
its horn put them, and their count was guessed), while the row's length is what tells the value."""
FILL_MM = 3.4
"""Width of the grey opening that makes a row of pips, whatever their shape, one dark bar as long as the
row: it fills whatever light lies within the row narrower than this, a ring pip's hollow (3.2 mm) and the
gaps between pips, yet not the face between the horn and the row (3.5 mm). Blurred, a row of five ring
pips shows four dark blobs where neighbouring rings' walls meet, and fitted a row of four round ones
better than its own (a travel edition's fives read as fours); as bars, rows differ by their length."""
FILL_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(FILL_MM * GLYPH_PX_PER_MM),) * 2)
BLUR_SIGMA_PX = 0.5
"""Blur (glyph pixels) of the filled rows before they are compared: a pixel's shift or noise aside. Not
more: a travel edition's ring pips on its blue face stand a few grey levels above the noise, and a wider
blur spreads a row's ends into the face, rows one pip longer or shorter fitting nearly as well (1.0 read
blue 1s as 4s, 2s and 3s one pip long: generated hard sets dev 2 5 8 13 21 34 40 44 55 60 66 77 88 99
and burnt 20261140, 8 rows righted, 2 lost). Not a face's own channel instead: the camera's JPEG keeps
colour at half resolution, coarse, and grey (its luma) shows these pips best (blue channel: dev 5 and
burnt 20261140's travel blue rows 30/44 right, grey 35/44)."""
HORN_SLACK_PX = 8
"""The horn is looked for this far about where the piece seemed to lie (pieces touching merge)."""


def glyph_crop(
    face: Frame, px_per_mm: float, angle_deg: float, box_mm: tuple[float, float, float, float]
) -> GreyImage:
    """A box of a face (grey, the piece centred in it), turned, at GLYPH_PX_PER_MM."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    size = grey.shape[0]
    turned = cv2.warpAffine(
        grey,
        cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), angle_deg, 1.0),
        (size, size),
        borderMode=cv2.BORDER_REPLICATE,
    )
    x0, y0, x1, y1 = (round(size / 2 + v * px_per_mm) for v in box_mm)
    crop = turned[max(0, y0) : y1, max(0, x0) : x1]
    width_mm, height_mm = box_mm[2] - box_mm[0], box_mm[3] - box_mm[1]
    small = cv2.resize(
        crop,
        (round(width_mm * GLYPH_PX_PER_MM), round(height_mm * GLYPH_PX_PER_MM)),
        interpolation=cv2.INTER_AREA,
    )
    return numpy.asarray(small, dtype=numpy.uint8)


@dataclasses.dataclass(frozen=True)
class GlyphTemplates:
    """Templates of some classes, each turned a few ways."""

    names: tuple[str, ...]
    owner: tuple[int, ...]
    images: tuple[GreyImage, ...]
    shape: tuple[int, int]

    @staticmethod
    def of(templates: Mapping[str, list[GreyImage]]) -> GlyphTemplates:
        names = tuple(sorted(templates))
        shape = templates[names[0]][0].shape[:2]
        owner = tuple(n for n, name in enumerate(names) for _ in templates[name])
        images = tuple(numpy.ascontiguousarray(t) for name in names for t in templates[name])
        return GlyphTemplates(names, owner, images, (shape[0], shape[1]))

    def blurred(self) -> GlyphTemplates:
        """The same templates as rows of pips are compared: filled (FILL_MM) and blurred (BLUR_SIGMA_PX)."""
        return dataclasses.replace(self, images=tuple(filled(image) for image in self.images))


def filled(image: GreyImage) -> GreyImage:
    """A row of pips (dark on a lighter face) as one dark bar: opened by FILL_KERNEL, blurred."""
    opened = cv2.morphologyEx(image, cv2.MORPH_OPEN, FILL_KERNEL)
    return numpy.ascontiguousarray(cv2.GaussianBlur(opened, (0, 0), BLUR_SIGMA_PX), numpy.uint8)


@dataclasses.dataclass(frozen=True)
class Glyphs:
    """Templates of the horn's side (upper part of a face) and of the value (its lower part)."""

    horns: GlyphTemplates
    values: tuple[GlyphTemplates, ...]
    """One set per look (the built-in one, a taught one that shows every value): a value is read by
    the look that fits the piece best, so that one look's style (ring pips) does not draw a piece to
    whichever values it has over the other look's."""
    blurred_values: tuple[GlyphTemplates, ...]


GLYPH_SEEN = 9.0
"""Least standard deviation (grey levels) of a taught face's glyph box for the glyph to be learned from it:
a glyph the camera shows scores 11 and more (a single pip), a flat face about 5 (its noise)."""


def _add_clearest(
    templates: dict[str, list[GreyImage]],
    name: str,
    faces: list[tuple[Frame, float]],
    box_mm: tuple[float, float, float, float],
) -> None:
    """The box of whichever face shows it clearest, turned each of TURNS_DEG, if it shows at all."""
    crops = [glyph_crop(face, scale, 0.0, box_mm) for face, scale in faces]
    if not crops:
        return
    best = max(range(len(crops)), key=lambda n: float(crops[n].std()))
    if float(crops[best].std()) < GLYPH_SEEN:
        return
    face, scale = faces[best]
    templates.setdefault(name, []).extend(glyph_crop(face, scale, turn, box_mm) for turn in TURNS_DEG)


def glyphs_of(
    sources: list[dict[str, tuple[Frame, float]]], horns_in_play: tuple[str, ...], needed: set[str]
) -> Glyphs:
    """Each value's and each horn's templates from upright faces ("<value>-<horn>": (face, its px per mm))
    of each source (the built-in faces, a user's taught ones): a source's values make a look if it shows
    every value `needed`."""
    horns: dict[str, list[GreyImage]] = {}
    looks: list[GlyphTemplates] = []
    # Each value from one face of each source and each horn likewise: the lower part is the same whatever
    # the horn, the upper part whatever the value (and fewer templates match faster). A taught glyph the
    # shot hardly shows (dark ink on a dark face, beyond what the camera resolves) is a flat patch that
    # would match any such face best: the clearest face of each is taken, and none that is too faint.
    for faces in sources:
        values: dict[str, list[GreyImage]] = {}
        for value in sorted({name.partition("-")[0] for name in faces}):
            named = [faces[n] for n in sorted(faces) if n.startswith(f"{value}-")]
            _add_clearest(values, value, named, VALUE_BOX_MM)
        if needed <= set(values):
            looks.append(GlyphTemplates.of(values))
        for horn in horns_in_play:
            _add_clearest(
                horns, horn, [faces[n] for n in sorted(faces) if n.endswith(f"-{horn}")], HORN_BOX_MM
            )
    return Glyphs(GlyphTemplates.of(horns), tuple(looks), tuple(look.blurred() for look in looks))


def best_match(
    grey: GreyImage,
    piece_px: tuple[float, float],
    box_mm: tuple[float, float, float, float],
    templates: GlyphTemplates,
    classes: list[str],
    slack: int | tuple[int, int] = GLYPH_SLACK_PX,
    blurred: GlyphTemplates | None = None,
) -> tuple[str, float, tuple[float, float], float]:
    """The class whose template best matches the box about piece_px (grey plane at GLYPH_PX_PER_MM),
    its confidence, where the piece's centre is by that match, and that match's likeness.

    Normalised cross-correlation of every template at every shift of up to `slack` pixels (x, y if two);
    the confidence grows with the lead of the best class over the next. With `blurred` (the templates
    `filled`), the box is filled alike and compared with those instead: filled, a row of square or ring
    pips is a bar like a row of round ones, so another edition's count still fits (the sharp likeness of
    a row of rings to a row of round pips favours a row of another length as often as its own).
    """
    slack_x, slack_y = (slack, slack) if isinstance(slack, int) else slack
    window = box_window(grey, piece_px, box_mm, templates.shape, (slack_x, slack_y))
    if blurred is not None:
        templates = blurred
        window = filled(window)
    matches = class_matches(window, templates, classes)
    per_class = {name: score for name, (score, _) in matches.items()}
    ranked = sorted(per_class, key=per_class.__getitem__, reverse=True)
    best_score, best_at = matches[ranked[0]]
    margin = per_class[ranked[0]] - (per_class[ranked[1]] if len(ranked) > 1 else -1.0)
    found = (piece_px[0] + best_at[0] - slack_x, piece_px[1] + best_at[1] - slack_y)
    return ranked[0], float(min(1.0, max(0.0, 0.5 + margin))), found, float(best_score)


def box_window(
    grey: GreyImage,
    piece_px: tuple[float, float],
    box_mm: tuple[float, float, float, float],
    shape: tuple[int, int],
    slack: tuple[int, int],
) -> GreyImage:
    """The box of `shape` (glyph pixels) about piece_px, `slack` (x, y) wider each side; near the plane's
    edge the edge repeated."""
    slack_x, slack_y = slack
    top = round(piece_px[1] + box_mm[1] * GLYPH_PX_PER_MM) - slack_y
    left = round(piece_px[0] + box_mm[0] * GLYPH_PX_PER_MM) - slack_x
    rows, columns = shape[0] + 2 * slack_y, shape[1] + 2 * slack_x
    window = grey[max(0, top) : top + rows, max(0, left) : left + columns]
    if window.shape[:2] != (rows, columns):
        above, before = max(0, -top), max(0, -left)
        below, after = rows - window.shape[0] - above, columns - window.shape[1] - before
        window = numpy.asarray(
            cv2.copyMakeBorder(window, above, below, before, after, cv2.BORDER_REPLICATE), numpy.uint8
        )
    return window


def class_matches(
    window: GreyImage, templates: GlyphTemplates, classes: list[str]
) -> dict[str, tuple[float, tuple[int, int]]]:
    """Each class's best likeness (NCC) over its templates and every shift in `window`, and that shift."""
    matches = dict.fromkeys(classes, (-1.0, (0, 0)))
    for owner, template in zip(templates.owner, templates.images, strict=True):
        name = templates.names[owner]
        if name not in matches:
            continue
        _, score, _, at = cv2.minMaxLoc(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED))
        if score > matches[name][0]:
            matches[name] = (float(score), (int(at[0]), int(at[1])))
    return matches


STRAIGHTEN_TURNS_DEG = tuple(float(a) for a in numpy.arange(-9.0, 9.01, 1.5))
"""Turns tried to lay a taught piece straight (a hand leaves it a few degrees askew)."""


def straightened(
    grey: GreyImage, centre_px: tuple[float, float], px_per_mm: float, side_px: int, horn: GreyImage
) -> GreyImage:
    """The square of `side_px` about the piece near `centre_px` (grey at `px_per_mm`), turned upright and
    centred where its horn says the piece is: `horn` is an upright horn at GLYPH_PX_PER_MM (the built-in
    one fits any edition's well enough to find the piece). A template cut askew or off its piece's centre
    matches its own value worse than the built-in one does, and others' better."""
    reach = side_px
    cx, cy = round(centre_px[0]), round(centre_px[1])
    cut = grey[max(0, cy - reach) : cy + reach, max(0, cx - reach) : cx + reach]
    above, before = max(0, reach - cy), max(0, reach - cx)
    window: GreyImage = numpy.asarray(
        cv2.copyMakeBorder(
            cut,
            above,
            2 * reach - cut.shape[0] - above,
            before,
            2 * reach - cut.shape[1] - before,
            cv2.BORDER_REPLICATE,
        ),
        numpy.uint8,
    )
    to_glyph = GLYPH_PX_PER_MM / px_per_mm
    middle = reach * to_glyph
    slack = HORN_SLACK_PX
    left = round(middle + HORN_BOX_MM[0] * GLYPH_PX_PER_MM) - slack
    top = round(middle + HORN_BOX_MM[1] * GLYPH_PX_PER_MM) - slack
    rows, columns = horn.shape[0] + 2 * slack, horn.shape[1] + 2 * slack
    best = (-2.0, 0.0, 0.0, 0.0)
    for turn in STRAIGHTEN_TURNS_DEG:
        turned = _turned(window, turn)
        small = cv2.resize(turned, None, fx=to_glyph, fy=to_glyph, interpolation=cv2.INTER_AREA)
        box = small[top : top + rows, left : left + columns]
        if box.shape[0] < horn.shape[0] or box.shape[1] < horn.shape[1]:
            continue
        _, score, _, at = cv2.minMaxLoc(cv2.matchTemplate(box, horn, cv2.TM_CCOEFF_NORMED))
        if score > best[0]:
            best = (score, turn, (at[0] - slack) / to_glyph, (at[1] - slack) / to_glyph)
    _, turn, dx, dy = best
    turned = _turned(window, turn)
    x, y = round(reach + dx), round(reach + dy)
    half = side_px // 2
    return numpy.asarray(turned[y - half : y + half, x - half : x + half], numpy.uint8)


def _turned(image: GreyImage, angle_deg: float) -> GreyImage:
    size = (image.shape[1], image.shape[0])
    turn = cv2.getRotationMatrix2D((size[0] / 2 - 0.5, size[1] / 2 - 0.5), angle_deg, 1.0)
    return numpy.asarray(cv2.warpAffine(image, turn, size, borderMode=cv2.BORDER_REPLICATE), numpy.uint8)


GLYPH_WINDOW_MM = 30.0
"""Half the side of the square about a face-up piece that its glyphs are matched in: the piece's half
side, the horn's slack and some."""


FACE_MIDDLE_PX = round(5 * PLANE_PX_PER_MM)
"""Half the side of the square about a piece's centre whose median grey is its face's."""


FACE_FILL_PERCENTILE = 80.0
"""The face's grey, as a percentile of its middle (FACE_MIDDLE_PX): its paper, not its ink. The median
was pulled towards the ink where the middle holds much of it (a horn's tip and a row of square pips), and
a patch taken for the table right of a white 2's pips came out dark enough to read as a third pip (burnt
20261134 gingham second print, 2 frames)."""
TAKEN_FILL_PERCENTILE = 95.0
TAKEN_FILL_PX = round(14 * PLANE_PX_PER_MM)
"""A face the reference took mostly for the table (`taken`, see face_grey) keeps little beside its ink, even
about its centre: its face's grey is this percentile of what it keeps within this of its centre (the light
end of its ink and rim of face; the ink is seldom a twentieth of it)."""


def glyph_window(
    plane: Frame, centre_mm: tuple[float, float], taken: bool = False, channel: int | None = None
) -> tuple[GreyImage, tuple[float, float]]:
    """The plane about a piece, grey at GLYPH_PX_PER_MM, and the piece's centre in it (pixels): only
    the few face-up pieces need the finer plane, so only they are cut out and converted. See face_grey
    for `taken`."""
    height, width = plane.shape[:2]
    step = round(GLYPH_WINDOW_MM * PLANE_PX_PER_MM)
    cx, cy = round(centre_mm[0] * PLANE_PX_PER_MM), round(centre_mm[1] * PLANE_PX_PER_MM)
    x0, y0 = max(0, cx - step), max(0, cy - step)
    crop = plane[y0 : min(height, cy + step), x0 : min(width, cx + step)]
    grey = face_grey(crop, (cx - x0, cy - y0), taken, channel)
    grey = resized(grey, GLYPH_PX_PER_MM)
    to_glyph = GLYPH_PX_PER_MM / PLANE_PX_PER_MM
    return grey, ((cx - x0) * to_glyph, (cy - y0) * to_glyph)


def face_grey(
    crop: Frame, centre_px: tuple[int, int], taken: bool = False, channel: int | None = None
) -> GreyImage:
    """A cut of the plane about a piece's centre, grey. A light piece on a light table comes out of the
    reference with patches of it taken for the table (neutral): they are the face's own colour, not ink,
    so they get the face's grey (FACE_FILL_PERCENTILE of it about its centre; for a face `taken` mostly for
    the table, TAKEN_FILL_PERCENTILE of what it keeps). With `channel`, that channel (BGR index) of it
    instead of grey."""
    if channel is None:
        grey = numpy.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), numpy.uint8)
    else:
        grey = numpy.ascontiguousarray(crop[..., channel], numpy.uint8)
    neutral = cv2.inRange(crop, NEUTRAL_BGR, NEUTRAL_BGR) > 0
    if neutral.any():
        level = face_level(grey, neutral, centre_px, taken)
        if level is not None:
            grey[neutral] = level
    return grey


def face_level(
    grey: GreyImage, neutral: numpy.typing.NDArray[numpy.bool_], centre_px: tuple[int, int], taken: bool
) -> numpy.uint8 | None:
    """The face's grey about `centre_px` (see face_grey), from what the reference did not take for the
    table (`neutral`); None where it took all of it."""
    x, y = centre_px
    reach = TAKEN_FILL_PX if taken else FACE_MIDDLE_PX
    middle = (slice(max(0, y - reach), y + reach), slice(max(0, x - reach), x + reach))
    face = grey[middle][~neutral[middle]]
    if not face.size:
        return None
    return numpy.uint8(_percentile(face, TAKEN_FILL_PERCENTILE if taken else FACE_FILL_PERCENTILE))


def _percentile(values: GreyImage, percent: float) -> float:
    """numpy.percentile's (linear) of a few hundred values, to the last bit, by a partition: its sort and
    checks cost ten times as much, and every glyph window asks for one (the table about a face)."""
    count = values.size
    at = (count - 1) * (numpy.float64(percent) / 100.0)
    low = int(numpy.floor(at))
    high = min(low + 1, count - 1)
    ordered = numpy.partition(values, (low, high) if high != low else low)
    below, above = float(ordered[low]), float(ordered[high])
    share = float(at) - low
    # numpy.percentile's own interpolation (lerp from the nearer end), for the same rounding.
    return above - (above - below) * (1.0 - share) if share >= 0.5 else below + (above - below) * share


def resized(image: GreyImage, px_per_mm: float) -> GreyImage:
    """A plane-resolution image at another resolution."""
    factor = px_per_mm / PLANE_PX_PER_MM
    size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
    return numpy.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=numpy.uint8)


def upright_face(
    plane: Frame, centre_px: tuple[float, float], side_px: int, horn: GreyImage | None
) -> GreyImage:
    """The square of `side_px` about a taught piece's centre, grey, at plane resolution: with `horn` (an
    upright horn, see straightened) turned upright and centred by it, else as it lies."""
    cx, cy = (round(v) for v in centre_px)
    height, width = plane.shape[:2]
    x0, y0 = max(0, cx - side_px), max(0, cy - side_px)
    grey = face_grey(plane[y0 : min(height, cy + side_px), x0 : min(width, cx + side_px)], (cx - x0, cy - y0))
    if horn is not None:
        return straightened(grey, (float(cx - x0), float(cy - y0)), PLANE_PX_PER_MM, side_px, horn)
    half = side_px // 2
    return numpy.asarray(grey[cy - y0 - half : cy - y0 + half, cx - x0 - half : cx - x0 + half], numpy.uint8)
