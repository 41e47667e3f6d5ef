"""The Minotaurus recogniser tells a back from a face by which way its marks lie, and reads a light face
whose patches the reference took for the table.

The planes are drawn as the reference would leave them: the generator's pieces on NEUTRAL_BGR.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame, Profile, decode_template, encode_template
from companion.vision.generate.minotaurus import EDITIONS, paste, piece_face
from companion.vision.recognisers.minotaurus import (
    BACK_CLEAR,
    BACK_POLARITY,
    FACE_POLARITY,
    FEATURE_WEIGHTS,
    MinotaurusRecogniser,
    _cell_colours,
    _templates,
    matrix_layout,
)
from companion.vision.reference import NEUTRAL_BGR

LAYOUT = matrix_layout({"players": 5})


def neutral_plane(pieces: dict[str, Frame]) -> Frame:
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    for item, face in pieces.items():
        x, y = LAYOUT.items[item].centre_mm
        paste(plane, face, (x * PLANE_PX_PER_MM, y * PLANE_PX_PER_MM), 0.0, shadow=False)
    return plane


def test_a_face_the_colour_of_the_back_is_told_from_the_back_by_its_darker_ink() -> None:
    back = EDITIONS["travel"].back_bgr  # a dark red back, near the red of a face
    pieces = {
        "cell:0": piece_face("down", PLANE_PX_PER_MM, edition="travel"),
        "cell:2": piece_face("red-3-left", PLANE_PX_PER_MM, colour_bgr=back, edition="travel"),
    }
    plane = neutral_plane(pieces)
    cells = _cell_colours(plane, LAYOUT)
    assert cells.polarity[cells.ids.index("cell:0")] >= BACK_POLARITY
    assert cells.polarity[cells.ids.index("cell:2")] <= FACE_POLARITY
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:0"] == "down"
    assert reading.items["cell:2"] not in ("down", "empty")


def test_a_white_face_partly_taken_for_the_table_still_shows_its_value() -> None:
    label = "white-4-right"
    plane = neutral_plane({"cell:12": piece_face(label, PLANE_PX_PER_MM)})
    x, y = (v * PLANE_PX_PER_MM for v in LAYOUT.items["cell:12"].centre_mm)
    # The reference took the face beside either end of its row of pips for the (light) table.
    for x0, x1 in ((-15.0, -10.3), (10.3, 15.0)):
        box = plane[round(y + 4 * PLANE_PX_PER_MM) : round(y + 10 * PLANE_PX_PER_MM)]
        box = box[:, round(x + x0 * PLANE_PX_PER_MM) : round(x + x1 * PLANE_PX_PER_MM)]
        box[numpy.all(box > 200, axis=2)] = NEUTRAL_BGR
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:12"] == label


def test_a_face_taught_askew_and_off_its_place_is_learned_upright_and_centred() -> None:
    label = "yellow-3-left"
    width, height = LAYOUT.plane_size_px()
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    x, y = LAYOUT.items["cell:12"].centre_mm
    face = piece_face(label, PLANE_PX_PER_MM)
    paste(plane, face, ((x + 3.0) * PLANE_PX_PER_MM, (y - 2.5) * PLANE_PX_PER_MM), 7.0, shadow=False)
    profile = MinotaurusRecogniser().teach(plane, LAYOUT, {"cell:12": label}, Profile("minotaurus", "test"))
    taught = decode_template(profile.templates["3-left"]).astype(numpy.float32)
    upright = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    assert taught.shape == upright.shape
    likeness = float(cv2.matchTemplate(taught, upright, cv2.TM_CCOEFF_NORMED).max())
    assert likeness > 0.85


def test_a_colour_taught_in_a_deep_shadow_still_reads_in_full_light() -> None:
    """One shot is one light: the built-in look stays beside the taught one."""
    recogniser = MinotaurusRecogniser()
    face = piece_face("yellow-2-left", PLANE_PX_PER_MM)
    shaded = numpy.clip(face.astype(numpy.float32) * 0.5, 0, 255).astype(numpy.uint8)
    profile = recogniser.teach(
        neutral_plane({"cell:12": shaded}),
        LAYOUT,
        {"cell:12": "yellow-2-left"},
        Profile("minotaurus", "test"),
    )
    reading = recogniser.read(
        neutral_plane({"cell:3": piece_face("yellow-3-right", PLANE_PX_PER_MM)}), LAYOUT, profile
    )
    assert reading.items["cell:3"] == "yellow-3-right"


def test_a_table_the_reference_left_unnormalised_is_no_face_for_want_of_a_horn() -> None:
    """A glare the reference did not correct leaves the table's own light wood in a cell: yellowish,
    grainy, but without a horn where a face shows one."""
    rng = numpy.random.default_rng(3)
    pieces = {
        "cell:0": piece_face("down", PLANE_PX_PER_MM),
        "cell:2": piece_face("yellow-3-left", PLANE_PX_PER_MM),
    }
    plane = neutral_plane(pieces)
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items["cell:12"].centre_mm)
    reach = round(20 * PLANE_PX_PER_MM)
    wood = rng.normal((70.0, 175.0, 215.0), 4.0, (2 * reach, 2 * reach, 3))
    wood[numpy.arange(2 * reach) % 9 < 3] *= 0.55  # its grain, dark streaks across
    plane[y - reach : y + reach, x - reach : x + reach] = numpy.clip(wood, 0, 255).astype(numpy.uint8)
    reading = MinotaurusRecogniser().read(plane, LAYOUT, None)
    assert reading.items["cell:2"] == "yellow-3-left"
    assert reading.items["cell:12"] in ("empty", "down")


def test_a_pale_face_washed_by_a_glare_reads_its_hue_not_white() -> None:
    """Its colour is its hue: a glare lightens a face and its ink alike, towards the white face's look."""
    face = piece_face("green-3-right", PLANE_PX_PER_MM, edition="second-print").astype(numpy.float32)
    washed = numpy.clip(face + 0.45 * (255.0 - face), 0, 255).astype(numpy.uint8)
    reading = MinotaurusRecogniser().read(neutral_plane({"cell:7": washed}), LAYOUT, None)
    assert reading.items["cell:7"] == "green-3-right"


def _taught(faces: dict[str, Frame]) -> Profile:
    grey = {name: cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) for name, face in faces.items()}
    return Profile("minotaurus", "test", templates={name: encode_template(g) for name, g in grey.items()})


def test_a_taught_look_reads_values_only_when_it_shows_every_value_clearly() -> None:
    """A look's style (ring pips) fits its own pieces better than the built-in look does, so a taught look
    lacking a value would draw pieces of that value to its others: values are read look by look, and a
    look counts only with every value in it, each clear enough to see (not a flat patch of dark ink on a
    dark face)."""
    clear = {
        f"{value}-left": piece_face(f"white-{value}-left", PLANE_PX_PER_MM, edition="travel")
        for value in range(1, 6)
    }
    assert len(_templates(_taught(clear)).values) == 2
    faint = dict(clear, **{"1-left": piece_face("blue-1-left", PLANE_PX_PER_MM, colour_bgr=(90, 40, 20))})
    assert len(_templates(_taught(faint)).values) == 1
    partial = {name: face for name, face in clear.items() if name != "2-left"}
    assert len(_templates(_taught(partial)).values) == 1


def test_a_back_whose_marks_lie_like_a_face_s_is_told_by_its_pattern() -> None:
    """A dim back seen soft (its ring wide and faint, so that the dark body is the minority tone) whose
    ring's arc darkened by a shade looks like a horn: its polarity says face, its likeness to the back
    says back (BACK_CLEAR), as a face's never does."""
    face = cv2.cvtColor(piece_face("white-1-left", PLANE_PX_PER_MM), cv2.COLOR_BGR2GRAY) / 255.0
    horn = numpy.ones_like(face)
    horn[: face.shape[0] // 2] = face[: face.shape[0] // 2]  # the face's upper half: its horn alone
    back = cv2.GaussianBlur(piece_face("down", PLANE_PX_PER_MM).astype(numpy.float32), (0, 0), 3) * 0.8
    back *= (1 - 0.5 * (1 - horn))[:, :, None]
    back += numpy.random.default_rng(1).normal(0.0, 1.5, back.shape)
    plane = neutral_plane({"cell:12": numpy.clip(back, 0, 255).astype(numpy.uint8)})
    cells = _cell_colours(plane, LAYOUT)
    n = cells.ids.index("cell:12")
    assert cells.polarity[n] <= FACE_POLARITY
    assert cells.features[n, 7] / FEATURE_WEIGHTS[7] >= BACK_CLEAR
    assert MinotaurusRecogniser().read(plane, LAYOUT, None).items["cell:12"] == "down"
