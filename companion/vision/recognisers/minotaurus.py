"""Minotaurus: which cells of the matrix hold a piece face down, none, or which piece face up.

Each cell is read in two steps. First what lies there: the median colour of the cell's middle, seen
relative to the table around it, how patterned the middle is, how well it matches a piece's back and
how much of it is lighter marks (a back's emblem) go to the nearest learned prototype of "empty",
"down" or one of the colours; which way the middle's marks lie from it (ink_polarity: a back's emblem
lighter, a face's ink darker, in every edition) overrules that where it is clear, and a face's colour is
its hue. Then, for a face-up piece, its glyph: the horn template, turned a little either way, finds the
piece and its side (a horn looks like itself only where it is; a cell with no horn is no face), and the
row of pips below it, matched there blurred (round, square or ring pips alike), gives the value.

Most planes come normalised against the empty play area (companion.vision.reference): the table one neutral
grey, the light canonical. There the recogniser reads the pieces by themselves: the matrix is found where
its pieces lie (_minotaurus_grid: sheets laid by their cut edge stretch it), a cell is empty when its middle
is mostly the neutral table (unless it shows a clear horn and a row of pips: a white face the reference took
mostly for a light table; TAKEN_VARIATION, PIPS_CLEAR), or shows no mark at all (the table a normalisation
left behind: a shadow, a lamp's hotspot; FLAT_VARIATION) or, showing no back's emblem, goes on in the same
colour across the gap about its place (a grained shadow the reference left; GAP_LIKE), and the prototypes
are those learned on normalised planes (minotaurus_normalised.json). A cell the prototypes call a back whose
marks tell neither way is a face if it shows a horn as clearly as only a face does (HORN_CLEAR). No face is
white that is darker than a white face under the canonical light (WHITE_LEAST_L: a dim dark blue face keeps
its hue) or shows hardly a pixel lighter than the table (DARK_WHITE_LIT: a dark back whose body the
reference took for a dark table, its dim emblem left) unless it shows a clear horn and pips. A plane without
a reference is read as before, with prototypes learned on planes as the camera sees them
(minotaurus_prototypes.json).

The built-in edition is data shipped beside this module, learned offline from the generator
(`python -m companion.vision.training minotaurus` writes it): the prototypes above and the pieces'
faces and back (minotaurus_faces.json). `teach` learns a user's shot: each label's prototypes (from the
shot seen under a few made-up lights as well), read beside the built-in ones; a face-down cell's back;
and a face-up piece's glyph, laid straight and centred by its horn, as the template of its value and
horn (so numerals do as well as pips). A taught look reads values when it shows every value clearly;
the look that fits a piece best gives its value. Taught on a normalised plane, an edition carries to
other tables.

The cells' features are read in _minotaurus_cells; the rules that look again at the prototypes' reading,
and the reading of face-up pieces' glyphs, are in _minotaurus_checks (a cell whose polarity told a back but
that shows no emblem's thin light line: _minotaurus_emblem; a cell read empty whose foreign pixels lie as
the emblem of the frame's plain backs, a back whose body the reference took for the table:
_minotaurus_bodiless).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    Profile,
    Reading,
    decode_template,
    encode_template,
    register_recogniser,
)
from companion.vision.recognisers._minotaurus_bodiless import bodiless_backs
from companion.vision.recognisers._minotaurus_cells import (
    BACK_MM,
    BACK_POLARITY,
    COARSE_PX_PER_MM,
    EMPTY_COVER,
    FACE_POLARITY,
    FEATURE_WEIGHTS,
    Cells,
    FloatArray,
    GreyImage,
    cell_colours,
    is_normalised,
    locate_piece,
    small_plane,
)
from companion.vision.recognisers._minotaurus_cells import COLOURS as COLOURS
from companion.vision.recognisers._minotaurus_cells import FLAT_VARIATION as FLAT_VARIATION
from companion.vision.recognisers._minotaurus_cells import GAME as GAME
from companion.vision.recognisers._minotaurus_cells import HORNS as HORNS
from companion.vision.recognisers._minotaurus_cells import PITCH_MM as PITCH_MM
from companion.vision.recognisers._minotaurus_cells import SETUPS as SETUPS
from companion.vision.recognisers._minotaurus_cells import TILE_MM as TILE_MM
from companion.vision.recognisers._minotaurus_cells import cell_centres as cell_centres
from companion.vision.recognisers._minotaurus_checks import DARK_WHITE_LIT as DARK_WHITE_LIT
from companion.vision.recognisers._minotaurus_checks import TAKEN_VARIATION as TAKEN_VARIATION
from companion.vision.recognisers._minotaurus_checks import (
    clear_horns,
    dark_faces_not_white,
    faces_taken_for_table,
    flat_cells_empty,
    pale_faces_not_white,
    read_glyphs,
    table_left_empty,
)
from companion.vision.recognisers._minotaurus_emblem import emblemless_downs
from companion.vision.recognisers._minotaurus_glyphs import (
    HORN_BOX_MM,
    glyph_crop,
    glyphs_of,
    upright_face,
)
from companion.vision.recognisers._minotaurus_glyphs import Glyphs as Glyphs
from companion.vision.recognisers._minotaurus_layout import MARGIN_MM as MARGIN_MM
from companion.vision.recognisers._minotaurus_layout import MinotaurusVisionError as MinotaurusVisionError
from companion.vision.recognisers._minotaurus_layout import matrix_layout as matrix_layout
from companion.vision.recognisers._minotaurus_layout import parse_piece as parse_piece
from companion.vision.recognisers._minotaurus_layout import piece_label as piece_label
from companion.vision.recognisers._minotaurus_layout import setup_for as setup_for
from companion.vision.recognisers._minotaurus_light import neutral_pixels, under_made_up_light
from companion.vision.recognisers._minotaurus_prototypes import (
    COLOUR_FEATURES,
    Prototypes,
    cluster_prototypes,
    default_prototypes,
    normalised_prototypes,
)
from companion.vision.recognisers._shipped import (
    decoded_templates,
    load_shipped,
    rewrite_command,
    shipped_path,
)

BACK_CLEAR = 0.45
"""Likeness to the piece's back (the built-in one or a taught one) that only a back shows: a cell read down
that shows it stays down whatever its marks' polarity says. (Generated hard sessions, dev seeds 2 5 13 21
34 40 and burnt 20261131-33: 2065 faces at most 0.27; default backs dim on linen, their emblem's ring wide
and faint, polarity -0.10 to -0.16, 0.55-0.68, and read as faces where their ring showed a horn.)"""
BACK_TEMPLATE = "back"
"""Name of the taught back in Profile.templates (the others are "<value>-<horn>" faces)."""
TEACH_KEEP = 24
"""Taught prototypes kept per label (the most recent)."""
TEACH_LIGHTS = 8
"""Made-up lights each taught shot is also seen under."""
TEACH_PROTOTYPES = 6
"""Prototypes one taught shot adds per label."""


# ---------------------------------------------------------------- colour of each cell (_minotaurus_cells)


def cell_features(
    plane: Frame, layout: Layout, back: GreyImage | None = None
) -> tuple[list[str], numpy.typing.NDArray[numpy.float32]]:
    """Per cell: the middle's Lab and its difference from the table's, both scaled to the table's brightness,
    how much the middle's brightness varies (its pattern), and how well it matches a piece's back."""
    cells = _cell_colours(plane, layout, back)
    return cells.ids, cells.features


def _cell_colours(
    plane: Frame,
    layout: Layout,
    back: GreyImage | None = None,
    small: Frame | None = None,
    normalised: bool | None = None,
) -> Cells:
    """The cells' features (_minotaurus_cells.cell_colours), matched with the built-in back unless `back`."""
    return cell_colours(plane, layout, default_back() if back is None else back, small, normalised)


# Under the names they had here, for the tests that call them.
_small = small_plane
_clear_horns = clear_horns


FACES_FILE = shipped_path("minotaurus_faces")
"""The built-in edition's faces, straight from above: "back" and "<value>-<horn>" (white), grey PNG."""
FACES_PX_PER_MM = 4.0
"""Resolution of the shipped faces: fine enough to cut every template from."""


@functools.cache
def _shipped_faces() -> dict[str, GreyImage]:
    document = load_shipped(FACES_FILE, GAME, ("faces",), {"px_per_mm": FACES_PX_PER_MM})
    return decoded_templates(document["faces"], FACES_FILE, GAME)


@functools.cache
def default_back() -> GreyImage:
    """The built-in edition's back, grey, at COARSE_PX_PER_MM (shipped in FACES_FILE)."""
    return _back_template(_shipped_faces()[BACK_TEMPLATE], FACES_PX_PER_MM)


def _back_template(face: Frame, px_per_mm: float) -> GreyImage:
    """The middle BACK_MM square of an upright piece's face, grey, at COARSE_PX_PER_MM."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    half = round(BACK_MM * px_per_mm / 2)
    middle = grey.shape[0] // 2
    crop = grey[middle - half : middle + half, middle - half : middle + half]
    side = round(BACK_MM * COARSE_PX_PER_MM)
    return numpy.asarray(cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA), numpy.uint8)


# ---------------------------------------------------------------- glyphs


def face_names() -> list[str]:
    """The built-in faces' names by glyph class: "<value>-<horn>" for every value and horn in play."""
    return [f"{value}-{horn}" for value in SETUPS[max(SETUPS)]["values"] for horn in HORNS]


@functools.cache
def default_faces() -> dict[str, Frame]:
    """The built-in edition's faces by glyph class ("3-left"), grey, at FACES_PX_PER_MM (shipped)."""
    faces = _shipped_faces()
    missing = [name for name in face_names() if name not in faces]
    if missing:
        raise MinotaurusVisionError(
            f"{FACES_FILE} lacks the faces {', '.join(missing)}; write it afresh with {rewrite_command(GAME)}"
        )
    return {name: faces[name] for name in face_names()}


def profile_back(profile: Profile | None) -> GreyImage:
    """The back template: the user's (taught) or the built-in one."""
    if profile is None or BACK_TEMPLATE not in profile.templates:
        return default_back()
    return _back_template(decode_template(profile.templates[BACK_TEMPLATE]), PLANE_PX_PER_MM)


def _templates(profile: Profile | None) -> Glyphs:
    """Each value's and each horn's templates: the built-in face's, and the user's taught one beside it (a
    taught shot is one look, maybe askew or crowded; the built-in glyphs still fit many editions)."""
    sources: list[dict[str, tuple[Frame, float]]] = [
        {name: (face, FACES_PX_PER_MM) for name, face in default_faces().items()}
    ]
    if profile is not None:
        taught = {
            name: (decode_template(text), PLANE_PX_PER_MM)
            for name, text in profile.templates.items()
            if name != BACK_TEMPLATE
        }
        sources.append(taught)
    return glyphs_of(sources, HORNS, {str(value) for value in SETUPS[max(SETUPS)]["values"]})


def colour_class(label: str) -> str:
    """What a cell's colour tells of its label: "empty", "down", or a face-up piece's colour."""
    return label if label in ("empty", "down") else parse_piece(label)[0]


# ---------------------------------------------------------------- the recogniser


class MinotaurusRecogniser:
    game = GAME

    def layout(self, options: Mapping[str, Any]) -> Layout:
        return matrix_layout(options)

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        small = _small(plane)
        normalised = is_normalised(small)
        prototypes, glyphs, back = self._prepare(profile, normalised)
        cells = _cell_colours(plane, layout, back, small, normalised)
        ids, features = cells.ids, cells.features
        classes, confidences = prototypes.classify(features)
        empty = None
        taken: list[int] = []
        if cells.covered is not None:
            # On a normalised plane a piece is what differs from the table: a cell whose middle is mostly
            # the neutral grey is empty, one mostly covered holds a piece, whatever prototype lies nearest.
            empty = cells.covered < EMPTY_COVER
            taken = faces_taken_for_table(plane, cells, empty, glyphs)
            empty[taken] = False
            covered = [n for n, label in enumerate(classes) if label == "empty" and not empty[n]]
            if covered:
                pieces, sure = prototypes.classify(features[covered], barred="empty")
                for n, label, certainty in zip(covered, pieces, sure, strict=True):
                    classes[n], confidences[n] = label, certainty
            for n in numpy.flatnonzero(empty).tolist():
                classes[n] = "empty"
                confidences[n] = float(min(1.0, 1.0 - cells.covered[n]))
        # Which way the piece's marks lie from it tells a back from a face better than its colour does
        # (a dark blue back, a dark blue face); only where that is unclear do the prototypes decide. A cell
        # that plainly shows the back's pattern is a back whatever its polarity (BACK_CLEAR). (A face taken
        # mostly for the table keeps its ink and a rim of face: their polarity tells nothing.)
        classes = [
            "down"
            if label not in ("empty", "down") and polarity >= BACK_POLARITY and n not in taken
            else label
            for n, (label, polarity) in enumerate(zip(classes, cells.polarity.tolist(), strict=True))
        ]
        backs = features[:, 7] / FEATURE_WEIGHTS[7]
        faces = [
            n
            for n, label in enumerate(classes)
            if label == "down"
            and cells.polarity[n] <= FACE_POLARITY
            and (empty is None or not empty[n])
            and backs[n] < BACK_CLEAR
        ]
        if empty is not None:
            faces += clear_horns(plane, cells, classes, empty, glyphs)
            faces += [n for n in taken if classes[n] == "down" and n not in faces]
            faces += emblemless_downs(plane, cells, classes, confidences, back, glyphs)
        if faces:
            pieces, sure = prototypes.classify(features[faces], barred=("empty", "down"))
            for n, label, certainty in zip(faces, pieces, sure, strict=True):
                classes[n], confidences[n] = label, certainty
        up = [n for n, label in enumerate(classes) if label not in ("empty", "down")]
        if up:
            # A face's colour is its hue: its pattern (how dark its ink, how much of its middle) and its
            # lightness are the edition's and the light's, and would pull a pale green face to the white.
            hues, sure = prototypes.colours.classify(features[up][:, COLOUR_FEATURES])
            for n, label, certainty in zip(up, hues, sure, strict=True):
                classes[n], confidences[n] = label, min(confidences[n], certainty)
            if cells.covered is not None and "white" in hues:
                pale_faces_not_white(features, up, classes, confidences, prototypes, profile)
                dark_faces_not_white(plane, cells, classes, confidences, prototypes, glyphs, profile, taken)
        if cells.variation is not None:
            flat_cells_empty(cells.variation, classes, confidences)
            table_left_empty(cells, classes, confidences, back)
            bodiless_backs(cells, classes, confidences, taken)
        items = dict(zip(ids, classes, strict=True))
        confidence = dict(zip(ids, confidences, strict=True))
        read_glyphs(plane, cells, items, confidence, prototypes, glyphs, setup_for(len(ids))["values"], taken)
        return Reading(items, confidence)

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn from a shot with known cells: each label's colour prototypes (from the shot under a few
        made-up lights too, so that one shot stands for the table at other hours), and for face-up pieces
        their glyph's template. A taught label's prototypes are read beside the built-in ones."""
        unknown = sorted(set(labels) - set(layout.items))
        if unknown:
            raise MinotaurusVisionError(f"no such cells in this layout: {', '.join(unknown)}")
        for label in labels.values():
            if label not in ("empty", "down"):
                parse_piece(label)
        templates = dict(profile.templates)
        found = _cell_colours(plane, layout)

        normalised = is_normalised(found.small)

        def face(item: str) -> str:
            """The piece's face as a template, cut about the piece's own outline where the table about it is
            neutral (a normalised plane), else about its cell's centre (on a cloth, beside its neighbours,
            its outline merges with theirs)."""
            n = found.ids.index(item)
            x, y = (float(v) for v in found.centres[n])
            if normalised:
                x, y = locate_piece(found.small, found.centres[n], found.tables[n])
            to_plane = PLANE_PX_PER_MM / COARSE_PX_PER_MM
            horn = None if labels[item] == "down" else parse_piece(labels[item])[2]
            return encode_template(_upright_face(plane, (x * to_plane, y * to_plane), horn))

        down = sorted(item for item, label in labels.items() if label == "down")
        if down:  # the user's back, as the pattern every face-down piece is compared with
            templates[BACK_TEMPLATE] = face(down[0])
        back = profile_back(dataclasses.replace(profile, templates=templates))
        rng = numpy.random.default_rng(profile.shots)
        # On a normalised plane the light is already corrected and the table stays neutral whatever the
        # hour: only the pieces vary (what the correction leaves).
        table = neutral_pixels(plane) if normalised else None
        shots = [plane] + [under_made_up_light(plane, rng, table) for _ in range(TEACH_LIGHTS)]
        samples: dict[str, list[FloatArray]] = {}
        for shot in shots:
            ids, features = cell_features(shot, layout, back)
            for item, row in zip(ids, features, strict=True):
                if item in labels:
                    samples.setdefault(colour_class(labels[item]), []).append(row)
        taught: dict[str, list[list[float]]] = {
            k: [list(v) for v in rows] for k, rows in profile.params.get("cell_prototypes", {}).items()
        }
        for label, learned in cluster_prototypes(samples, TEACH_PROTOTYPES).items():
            taught[label] = [*taught.get(label, []), *learned][-TEACH_KEEP:]
        for item, label in labels.items():
            if label not in ("empty", "down"):
                _, value, horn = parse_piece(label)
                templates[f"{value}-{horn}"] = face(item)
        params = {**profile.params, "cell_prototypes": taught}
        return dataclasses.replace(profile, params=params, templates=templates, shots=profile.shots + 1)

    def __init__(self) -> None:
        # A watcher reads frame after frame with the same profile: prepare it once.
        self._prepared_for: tuple[Profile | None, bool] | None = None
        self._prepared: tuple[Prototypes, Glyphs, GreyImage] | None = None

    def _prepare(self, profile: Profile | None, normalised: bool) -> tuple[Prototypes, Glyphs, GreyImage]:
        """Prototypes (built-in ones for this kind of plane, the taught ones beside them), glyph templates
        and the back to compare with."""
        prepared_for = self._prepared_for
        if (
            self._prepared is None
            or prepared_for is None
            or prepared_for[0] is not profile
            or prepared_for[1] != normalised
        ):
            table = dict(normalised_prototypes() if normalised else default_prototypes())
            if profile is not None:
                # Beside the built-in look, not over it: one shot is one light, and the built-in
                # prototypes still stand for the piece under others (the nearest wins either way).
                for label, rows in profile.params.get("cell_prototypes", {}).items():
                    table[label] = [*table.get(label, []), *rows]
            self._prepared = (Prototypes.of(table), _templates(profile), profile_back(profile))
            self._prepared_for = (profile, normalised)
        return self._prepared


def _upright_face(
    plane: Frame, centre_px: tuple[float, float], horn: str | None = None
) -> numpy.typing.NDArray[numpy.uint8]:
    """The square about a taught piece's centre, grey, at plane resolution: a face (`horn` given) turned
    upright and centred by that horn (a lesson's piece lies as a hand left it), a back as it lies (its
    emblem is matched turned anyway)."""
    side = round(TILE_MM * PLANE_PX_PER_MM)
    return upright_face(plane, centre_px, side, None if horn is None else _built_in_horn(horn))


@functools.cache
def _built_in_horn(horn: str) -> GreyImage:
    """The built-in face's horn on that side, upright, at GLYPH_PX_PER_MM."""
    face = default_faces()[next(name for name in face_names() if name.endswith(f"-{horn}"))]
    return glyph_crop(face, FACES_PX_PER_MM, 0.0, HORN_BOX_MM)


register_recogniser(GAME, MinotaurusRecogniser)
