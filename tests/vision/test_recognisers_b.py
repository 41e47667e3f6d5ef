"""The frame generator's core, and the Minotaurus, toss and Minos recognisers (engineer 5B's part).

The committed recordings under data/<game>/ are hard generated frames (see their README); the whole
pipeline (markers, warp, recogniser) reads them here. The accuracy and speed goals on large hard sets
are measured by `companion bench vision`, not here.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy
import pytest

from companion.vision.base import (
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Profile,
    VisionError,
    recogniser_for,
)
from companion.vision.evaluate import evaluate
from companion.vision.generate import (
    GeneratorError,
    camera,
    effects,
    generate_frame,
    generate_recording,
    render_plane,
    renderer_for,
)
from companion.vision.generate.minos import die_face
from companion.vision.generate.minotaurus import paste, piece_face, wood_table
from companion.vision.generate.toss import render_scene
from companion.vision.pipeline import PlaneReader
from companion.vision.recognisers.minos import SYMBOLS, UNSEEN
from companion.vision.recognisers.minotaurus import matrix_layout, parse_piece
from companion.vision.recording import load_recording

DATA = Path(__file__).parent / "data"
GAMES = ("minotaurus", "toss", "minos")


# ---------------------------------------------------------------- the committed recordings


@pytest.mark.parametrize("game", GAMES)
def test_committed_hard_recording_is_read_right(game: str) -> None:
    recording = load_recording(DATA / game)
    assert recording.game == game
    layout = recogniser_for(game).layout(recording.options)
    for entry in recording.frames:
        assert entry.labels is not None and set(entry.labels) == set(layout.items)
    report = evaluate(recording)
    assert report["frames_read"] >= 4
    assert report["item_accuracy"] >= 0.99, report["errors"]
    assert report["frames_entirely_right"] >= 0.8, report["errors"]


# ---------------------------------------------------------------- the generator core


@pytest.mark.parametrize("game", GAMES)
def test_generated_frame_warps_back_onto_the_rendered_plane(game: str) -> None:
    """The markers the generator prints are where the calibration looks for them: the plane found in an
    unspoilt generated frame is the plane that was drawn (up to resampling and the lens)."""
    rng = numpy.random.default_rng(3)
    renderer = renderer_for(game)
    layout = recogniser_for(game).layout(renderer.default_options)
    plane = render_plane(game, renderer.sample_labels(layout, rng, False), layout, rng)
    table = camera.lay_on_table(plane, layout, rng)
    frame = camera.project(table, camera.random_pose(table, rng, hard=False, frame_size=(1280, 720)))
    _calibration, found = PlaneReader(game, renderer.default_options).plane(frame)
    assert found is not None and found.shape == plane.shape
    inset = round((MARKER_SIDE_MM + 10) * PLANE_PX_PER_MM)
    inside = (slice(inset, -inset), slice(inset, -inset))
    difference = numpy.abs(found[inside].astype(int) - plane[inside].astype(int))
    assert numpy.median(difference) < 12


def test_generate_recording_writes_ground_truth_reproducibly(tmp_path: Path) -> None:
    first = generate_recording("toss", tmp_path / "a", frames=3, hard=True, seed=9)
    second = generate_recording("toss", tmp_path / "b", frames=3, hard=True, seed=9)
    recording = load_recording(first)
    assert (recording.width, recording.height) == (1280, 720)
    assert len(recording.frames) == 3
    assert recording.extra["generator"] == {"seed": 9, "hard": True, "frames": 3}
    for entry, image in recording.images():
        assert image is not None and image.shape == (720, 1280, 3)
        assert entry.labels is not None and set(entry.labels) == {"horn:left", "horn:right"}
        assert set(entry.labels.values()) <= {"ring", "clear"}
    assert json.loads(first.read_text())["frames"] == json.loads(second.read_text())["frames"]
    assert (first.parent / "000002.jpg").read_bytes() == (second.parent / "000002.jpg").read_bytes()


def test_generator_refuses_what_it_cannot_make(tmp_path: Path) -> None:
    with pytest.raises(GeneratorError, match="no scene renderer"):
        renderer_for("chess")
    with pytest.raises(GeneratorError, match="at least one frame"):
        generate_recording("minos", tmp_path / "none", frames=0)
    assert issubclass(GeneratorError, ValueError)


def test_hard_turns_the_spoiling_up() -> None:
    """Over a few seeds, a flat grey table comes out of the hard camera more uneven than the normal one."""
    grey = numpy.full((720, 1280, 3), 128, numpy.uint8)

    def unevenness(hard: bool) -> float:
        spread = []
        for seed in range(4):
            spoilt = effects.decode_jpeg(effects.spoil(grey, numpy.random.default_rng(seed), hard=hard))
            small = cv2.resize(spoilt, (320, 180), interpolation=cv2.INTER_AREA).astype(float)
            fine = numpy.abs(spoilt[:, :, 1].astype(float) - cv2.GaussianBlur(spoilt, (0, 0), 3)[:, :, 1])
            spread.append(small.std() + fine.mean())
        return float(numpy.mean(spread))

    assert unevenness(True) > 1.3 * unevenness(False)


def test_a_hand_covers_part_of_the_table() -> None:
    rng = numpy.random.default_rng(4)
    layout = recogniser_for("minos").layout({})
    frame = generate_frame("minos", layout, rng, hand=True, motion=False)
    assert frame.hand and not frame.motion
    image = numpy.full((720, 1280, 3), 60, numpy.uint8)
    quad = numpy.array([[300.0, 150.0], [980.0, 150.0], [980.0, 570.0], [300.0, 570.0]])
    covered = numpy.any(effects.hand(image, quad, rng) != image, axis=2)
    assert 0.02 < covered.mean() < 0.5
    assert covered[150:570, 300:980].any()


# ---------------------------------------------------------------- layouts


@pytest.mark.parametrize(("players", "cells"), [(3, 30), (4, 40), (5, 50)])
def test_minotaurus_matrix_follows_the_setup_table(players: int, cells: int) -> None:
    layout = recogniser_for("minotaurus").layout({"players": players})
    assert set(layout.items) == {f"cell:{n}" for n in range(cells)}
    width, height = layout.plane_mm
    for region in layout.items.values():
        x, y = region.centre_mm
        half = region.size_mm[0] / 2
        assert half < x < width - half and half < y < height - half
        # Clear of the corner markers.
        assert min(x, width - x) - half > MARKER_SIDE_MM or min(y, height - y) - half > MARKER_SIDE_MM
    with pytest.raises(VisionError, match="players must be one of"):
        matrix_layout({"players": 7})


def test_piece_labels_are_checked() -> None:
    assert parse_piece("blue-3-left") == ("blue", 3, "left")
    for bad in ("blue-3", "blue-x-left", "blue-3-middle", "down"):
        with pytest.raises(VisionError, match="not a face-up piece label"):
            parse_piece(bad)


# ---------------------------------------------------------------- teaching


def _minotaurus_shot(labels: dict[str, str], colours: dict[str, tuple[int, int, int]], seed: int) -> Frame:
    """A user's own edition on their own (always the same) table, under the light of the moment."""
    layout = matrix_layout({"players": 3})
    rng = numpy.random.default_rng(seed)
    width, height = layout.plane_size_px()
    plane = wood_table(width, height, numpy.random.default_rng(99))
    for item, label in labels.items():
        if label == "empty":
            continue
        colour = None if label == "down" else colours.get(parse_piece(label)[0])
        cx, cy = layout.items[item].centre_px()
        paste(
            plane,
            piece_face(label, PLANE_PX_PER_MM, colour),
            (cx + rng.uniform(-4, 4), cy),
            rng.uniform(-6, 6),
        )
    return effects.decode_jpeg(effects.spoil(plane, rng, hard=False))


def test_minotaurus_learns_an_edition_whose_colours_differ() -> None:
    recogniser = recogniser_for("minotaurus")
    layout = recogniser.layout({"players": 3})
    edition = {"red": (150, 60, 150), "green": (140, 140, 60)}  # purple "red", teal "green"
    shown = {f"cell:{n}": "down" for n in range(30)}
    shown.update(
        {"cell:0": "red-1-left", "cell:1": "red-3-right", "cell:2": "green-5-left", "cell:3": "empty"}
    )
    later = dict(shown)
    later.update({"cell:0": "down", "cell:7": "red-5-left", "cell:12": "green-1-right", "cell:20": "empty"})
    shot = _minotaurus_shot(later, edition, 2)
    assert recogniser.read(shot, layout, None).items != later  # the built-in colours do not fit
    profile = recogniser.teach(_minotaurus_shot(shown, edition, 1), layout, shown, Profile("minotaurus"))
    assert profile.shots == 1 and {"red", "green", "down", "empty"} <= set(profile.params["cell_prototypes"])
    assert recogniser.read(shot, layout, profile).items == later
    with pytest.raises(VisionError, match="no such cells"):
        recogniser.teach(shot, layout, {"cell:99": "down"}, profile)


def _minos_shot(faces: list[Frame], seed: int) -> Frame:
    layout = recogniser_for("minos").layout({})
    rng = numpy.random.default_rng(seed)
    width, height = layout.plane_size_px()
    plane = numpy.full((height, width, 3), (40, 70, 30), numpy.uint8)
    for n, face in enumerate(faces):
        centre = ((60 + 33 * n) * PLANE_PX_PER_MM, (50 + 60 * (n % 2)) * PLANE_PX_PER_MM)
        paste(plane, face, centre, rng.uniform(-30, 30))
    return effects.decode_jpeg(effects.spoil(plane, rng, hard=False))


def _ring_face() -> Frame:
    """A user's die whose star is a ring (the built-in star looks nothing like it)."""
    face = die_face("Joker", PLANE_PX_PER_MM).copy()
    centre = (face.shape[1] // 2, face.shape[0] // 2)
    cv2.circle(face, centre, round(6 * PLANE_PX_PER_MM), (215, 232, 240), -1)
    cv2.circle(face, centre, round(5 * PLANE_PX_PER_MM), (40, 30, 120), round(2 * PLANE_PX_PER_MM))
    return face


def test_minos_learns_a_die_whose_symbol_differs() -> None:
    recogniser = recogniser_for("minos")
    layout = recogniser.layout({})
    symbols = ["Stern", "Pfeil", "Waage", "Stern", "Moewe", "Gebaeude"]
    faces = [_ring_face() if s == "Stern" else die_face(s, PLANE_PX_PER_MM) for s in symbols]
    truth = {f"die:{n}": symbol for n, symbol in enumerate(symbols)}
    shot = _minos_shot(faces, 1)
    before = recogniser.read(shot, layout, None).items
    assert before["die:0"] != "Stern" and before["die:1"] == "Pfeil"
    # The user lays the dice upright to teach.
    upright = numpy.full_like(shot, (40, 70, 30))
    for n, face in enumerate(faces[:1]):
        paste(upright, face, ((60 + 33 * n) * PLANE_PX_PER_MM, 50 * PLANE_PX_PER_MM), 0.0)
    profile = recogniser.teach(upright, layout, {"die:0": "Stern"}, Profile("minos"))
    assert set(profile.templates) == {"Stern"}
    assert recogniser.read(shot, layout, profile).items == truth
    assert recogniser.read(_minos_shot(faces, 2), layout, profile).items == truth
    with pytest.raises(VisionError, match="Minos labels"):
        recogniser.teach(upright, layout, {"die:0": "Krone"}, profile)


def test_minos_says_which_dice_it_cannot_see() -> None:
    recogniser = recogniser_for("minos")
    layout = recogniser.layout({})
    reading = recogniser.read(
        _minos_shot([die_face(s, PLANE_PX_PER_MM) for s in SYMBOLS[:4]], 3), layout, None
    )
    assert [reading.items[f"die:{n}"] for n in range(4)] == list(SYMBOLS[:4])
    assert reading.items["die:4"] == reading.items["die:5"] == UNSEEN
    assert reading.confidence["die:5"] == 0.0


def test_toss_learns_a_ring_and_tells_a_ring_beside_a_horn_from_one_around_it() -> None:
    recogniser = recogniser_for("toss")
    layout = recogniser.layout({})
    rng = numpy.random.default_rng(12)
    for labels in (
        {"horn:left": "ring", "horn:right": "clear"},
        {"horn:left": "clear", "horn:right": "ring"},
    ):
        plane, ring_mask = render_scene(labels, layout, rng)
        assert ring_mask.any()
        assert recogniser.read(plane, layout, None).items == labels
    shot, _ = render_scene({"horn:left": "ring", "horn:right": "clear"}, layout, rng)
    profile = recogniser.teach(shot, layout, {"horn:left": "ring", "horn:right": "clear"}, Profile("toss"))
    assert profile.colours["ring"] and profile.colours["background"]
    for labels in (
        {"horn:left": "clear", "horn:right": "ring"},
        {"horn:left": "clear", "horn:right": "clear"},
    ):
        plane, _ = render_scene(labels, layout, rng)
        assert recogniser.read(plane, layout, profile).items == labels
    with pytest.raises(VisionError, match=r"ring\|clear"):
        recogniser.teach(shot, layout, {"horn:left": "maybe"}, profile)


@pytest.mark.parametrize("game", GAMES)
def test_a_plane_showing_nothing_of_the_game_still_reads_every_item(game: str) -> None:
    """A covered camera or a blank table must not stop the reader: every item gets a label."""
    recogniser = recogniser_for(game)
    layout = recogniser.layout(renderer_for(game).default_options)
    width, height = layout.plane_size_px()
    noise = numpy.random.default_rng(1).integers(0, 256, (height, width, 3), dtype=numpy.uint8)
    for plane in (numpy.zeros((height, width, 3), numpy.uint8), noise):
        reading = recogniser.read(plane, layout, None)
        assert set(reading.items) == set(layout.items) == set(reading.confidence)
