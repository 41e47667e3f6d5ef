"""The Hornochsen, Asterion and Minoa scene renderers and recognisers (engineer 5C's part).

The committed recordings under data/<game>/ are hard generated frames (see their README); the whole
pipeline (markers, warp, recogniser) reads them here. Clean planes drawn by the renderers check that
every number, every tile design at every rotation and every line is read; teaching checks that an
edition that looks different (other colours, another typeface) is read right after one shot. The
accuracy and speed goals on large hard sets are measured by `companion bench vision`, not here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy
import pytest

from companion.games.asterion.tiles import COLOURS as ASTERION_COLOURS
from companion.games.asterion.tiles import DESIGNS, MINOTAUR_DESIGN
from companion.games.hornochsen.board import BOARD as HORNOCHSEN_BOARD
from companion.games.minoa import BOARD as MINOA_BOARD
from companion.games.minoa import COLOURS as MINOA_COLOURS
from companion.vision.base import MARKER_SIDE_MM, Layout, Profile, recogniser_for
from companion.vision.evaluate import evaluate
from companion.vision.generate import asterion as asterion_scene
from companion.vision.generate import hornochsen as hornochsen_scene
from companion.vision.generate import minoa as minoa_scene
from companion.vision.generate import render_plane, renderer_for
from companion.vision.recognisers._asterion_labels import (
    canonical_rotation,
    parse_cell,
    parse_label,
    tile_label,
)
from companion.vision.recording import load_recording

DATA = Path(__file__).parent / "data"
GAMES = ("hornochsen", "asterion", "minoa")

# What the recognisers read of these five frames each today; a regression falls below.
FLOORS = {"hornochsen": (0.99, 0.6), "asterion": (0.98, 0.4), "minoa": (0.995, 0.8)}


# ---------------------------------------------------------------- the committed recordings


@pytest.mark.parametrize("game", GAMES)
def test_committed_hard_recording_is_read_right(game: str) -> None:
    recording = load_recording(DATA / game)
    assert recording.game == game
    layout = recogniser_for(game).layout(recording.options)
    for entry in recording.frames:
        assert entry.labels is not None and set(entry.labels) == set(layout.items)
    report = evaluate(recording)
    items, frames = FLOORS[game]
    assert report["frames_read"] == 5
    assert report["item_accuracy"] >= items, report["errors"]
    assert report["frames_entirely_right"] >= frames, report["errors"]


# ---------------------------------------------------------------- layouts


@pytest.mark.parametrize("game", GAMES)
def test_items_lie_inside_the_plane_and_clear_of_the_corner_markers(game: str) -> None:
    layout = recogniser_for(game).layout(renderer_for(game).default_options)
    width, height = layout.plane_mm
    for item_id, region in layout.items.items():
        (cx, cy), (w, h) = region.centre_mm, region.size_mm
        reach = max(w, h) / 2
        assert reach <= cx <= width - reach and reach <= cy <= height - reach, item_id
        near_x = min(cx, width - cx) - reach < MARKER_SIDE_MM
        near_y = min(cy, height - cy) - reach < MARKER_SIDE_MM
        assert not (near_x and near_y), f"{item_id} overlaps a corner marker"


def test_hornochsen_layout_has_every_square_of_the_seed_and_a_slot_per_seat() -> None:
    layout = recogniser_for("hornochsen").layout({"players": 5})
    squares = {f"row:{row.index}:square:{s}" for row in HORNOCHSEN_BOARD.rows for s in range(row.length)}
    slots = {f"played:seat{seat}{second}" for seat in range(5) for second in ("", ":2")}
    assert set(layout.items) == squares | slots
    with pytest.raises(ValueError, match="players"):
        recogniser_for("hornochsen").layout({"players": 9})


def test_minoa_layout_has_every_line_turned_along_it() -> None:
    layout = recogniser_for("minoa").layout({})
    assert len(layout.items) == len(MINOA_BOARD.lines) == 156
    horizontal = layout.items["line:0"]  # the top side's first edge line
    slanted = next(r for i, r in layout.items.items() if abs(r.rotation_deg) > 1)
    assert horizontal.rotation_deg == pytest.approx(0.0)
    assert abs(abs(slanted.rotation_deg) - 60.0) < 1e-6


def test_asterion_layout_centres_the_minotaur_cell() -> None:
    layout = recogniser_for("asterion").layout({"columns": 5, "rows": 3})
    cells = sorted(parse_cell(item) for item in layout.items)
    assert cells[0] == (-2, -1) and cells[-1] == (2, 1) and len(cells) == 15
    middle = layout.items["cell:0,0"].centre_mm
    assert middle == pytest.approx((layout.plane_mm[0] / 2, layout.plane_mm[1] / 2))


# ---------------------------------------------------------------- Asterion's labels


def test_asterion_labels_name_the_rotation_the_game_counts() -> None:
    corridor, crossroads, bend = (
        next(i for i, d in enumerate(DESIGNS) if d.name == name)
        for name in ("corridor", "crossroads", "bend")
    )
    assert tile_label("red", corridor, 2) == "red:corridor@0"
    assert tile_label("red", corridor, 3) == "red:corridor@1"
    assert {tile_label("blue", crossroads, r) for r in range(4)} == {"blue:crossroads@0"}
    assert [canonical_rotation(bend, r) for r in range(4)] == [0, 1, 2, 3]
    assert tile_label(None, MINOTAUR_DESIGN, 3) == "minotaur@0"
    assert parse_label("green:bend@3") == ("green", bend, 3)
    assert parse_label("empty") is None
    with pytest.raises(ValueError, match="not a tile label"):
        parse_label("purple:bend@1")


# ---------------------------------------------------------------- clean planes: everything is read


def _read_clean(game: str, layout: Layout, labels: dict[str, str], seed: int) -> dict[str, tuple[str, str]]:
    """The items read wrong on a plane drawn by the renderer (no camera): item → (truth, read)."""
    plane = render_plane(game, labels, layout, numpy.random.default_rng(seed))
    reading = recogniser_for(game).read(plane, layout, None)
    return {
        item: (truth, reading.items[item]) for item, truth in labels.items() if reading.items[item] != truth
    }


def _in_chunks(items: list[str], labels: list[str]) -> Iterator[dict[str, str]]:
    for start in range(0, len(labels), len(items)):
        chunk = labels[start : start + len(items)]
        yield {item: chunk[i] if i < len(chunk) else "empty" for i, item in enumerate(items)}


def test_hornochsen_reads_every_number_face_down_and_empty() -> None:
    layout = recogniser_for("hornochsen").layout({"players": 8})
    numbers = [str(n) for n in range(1, HORNOCHSEN_BOARD.tiles + 1)] + ["down", "empty"] * 4
    for seed, labels in enumerate(_in_chunks(list(layout.items), numbers)):
        assert _read_clean("hornochsen", layout, labels, seed) == {}


def test_asterion_reads_every_design_colour_and_rotation() -> None:
    layout = recogniser_for("asterion").layout({})
    tiles = [
        tile_label(colour, number, rotation)
        for colour in ASTERION_COLOURS
        for number in range(len(DESIGNS))
        for rotation in range(4)
    ] + ["empty"]
    # The Minotaur tile lies at (0, 0), the game's origin, and nowhere else; the players' tiles around it.
    around = [item for item in layout.items if item != "cell:0,0"]
    for seed, labels in enumerate(_in_chunks(around, tiles)):
        assert _read_clean("asterion", layout, {"cell:0,0": "minotaur@0", **labels}, seed) == {}


def test_minoa_reads_sticks_inside_and_every_colour_on_the_edge() -> None:
    layout = recogniser_for("minoa").layout({})
    for seed in range(3):
        labels = {
            f"line:{n}": (MINOA_COLOURS[(n + seed) % len(MINOA_COLOURS)] if (n + seed) % 5 else "empty")
            if MINOA_BOARD.is_edge[n]
            else ("stick" if (n + seed) % 3 else "empty")
            for n in range(len(MINOA_BOARD.lines))
        }
        assert _read_clean("minoa", layout, labels, seed) == {}


# ---------------------------------------------------------------- teaching another edition


@pytest.fixture
def built_in_profiles() -> None:
    """Build each recogniser's built-in profile (the renderer's own edition) before a test draws another."""
    for game in GAMES:
        recogniser = recogniser_for(game)
        layout = recogniser.layout(renderer_for(game).default_options)
        width, height = layout.plane_size_px()
        recogniser.read(numpy.zeros((height, width, 3), numpy.uint8), layout, None)


def _teach_then_read(
    game: str, layout: Layout, shot: dict[str, str], check: dict[str, str]
) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]], Profile]:
    """Items read wrong on `check` before teaching, and after teaching from one plane showing `shot`."""
    recogniser = recogniser_for(game)
    wrong_before = _read_clean(game, layout, check, 11)
    taught = recogniser.teach(
        render_plane(game, shot, layout, numpy.random.default_rng(12)), layout, shot, Profile(game, "other")
    )
    plane = render_plane(game, check, layout, numpy.random.default_rng(11))
    reading = recogniser.read(plane, layout, taught)
    wrong_after = {
        item: (truth, reading.items[item]) for item, truth in check.items() if reading.items[item] != truth
    }
    return wrong_before, wrong_after, taught


def test_minoa_teach_learns_an_edition_with_other_colours(
    monkeypatch: pytest.MonkeyPatch, built_in_profiles: None
) -> None:
    other = {
        "red": (20, 110, 235),
        "blue": (140, 40, 130),
        "yellow": (120, 230, 200),
        "green": (110, 110, 20),
    }
    # The built-in look's data swapped for another print run's (the generator keeps editions as data).
    built_in = minoa_scene.EDITIONS["default"]
    monkeypatch.setitem(minoa_scene.EDITIONS, "default", dataclasses.replace(built_in, piece_bgr=other))
    layout = recogniser_for("minoa").layout({})
    edges = [f"line:{n}" for n in MINOA_BOARD.edge_lines]
    shot = {item: MINOA_COLOURS[i % 4] for i, item in enumerate(edges)} | {
        "line:20": "stick",
        "line:30": "empty",
    }
    check = {item: MINOA_COLOURS[(i * 3 + 1) % 4] for i, item in enumerate(edges)}
    before, after, taught = _teach_then_read("minoa", layout, shot, check)
    assert before, "the built-in colours should not fit this edition"
    assert after == {}
    assert taught.shots == 1 and set(taught.params["taught_colours"]) >= set(MINOA_COLOURS)


def test_hornochsen_teach_learns_another_typeface_and_tile_colour(
    monkeypatch: pytest.MonkeyPatch, built_in_profiles: None
) -> None:
    other = dataclasses.replace(
        hornochsen_scene.EDITIONS["default"], font=cv2.FONT_HERSHEY_TRIPLEX, face_bgr=(225, 215, 200)
    )
    monkeypatch.setitem(hornochsen_scene.EDITIONS, "default", other)
    layout = recogniser_for("hornochsen").layout({"players": 4})
    items = list(layout.items)
    shot = dict(zip(items, [str(n) for n in (10, 23, 45, 67, 89, 91, 36, 58, 72, 14, 50, 6)], strict=False))
    shot |= {item: "empty" for item in items[12:20]}
    check = dict(zip(items, [str(n) for n in (19, 28, 37, 46, 55, 64, 73, 82, 90, 1, 99, 40)], strict=False))
    before, after, taught = _teach_then_read("hornochsen", layout, shot, check)
    assert after == {}, after
    assert before != after or before == {}  # either unread before, or the taught profile keeps reading right
    assert sum(taught.params["taught_digits"]) == sum(
        len(label) for label in shot.values() if label.isdigit()
    )


def test_asterion_teach_learns_other_frame_colours(
    monkeypatch: pytest.MonkeyPatch, built_in_profiles: None
) -> None:
    frames = dict(asterion_scene.FRAME_BGR)
    frames |= {
        "yellow": (180, 120, 240),
        "blue": (200, 200, 40),
        "red": (40, 70, 120),
        "green": (150, 100, 110),
    }
    other = dataclasses.replace(asterion_scene.EDITIONS["default"], frame_bgr=frames)
    monkeypatch.setitem(asterion_scene.EDITIONS, "default", other)
    asterion_scene.draw_tile.cache_clear()
    try:
        layout = recogniser_for("asterion").layout({})
        items = [i for i in layout.items if i != "cell:0,0"]
        looks = [tile_label(c, d, 0) for c in ASTERION_COLOURS for d in range(len(DESIGNS))]
        shot = {"cell:0,0": "minotaur@0"} | dict(zip(items, looks, strict=False))
        check = {"cell:0,0": "minotaur@0"} | {
            item: tile_label(ASTERION_COLOURS[i % 4], (i * 5) % len(DESIGNS), i % 4)
            for i, item in enumerate(items)
        }
        before, after, _ = _teach_then_read("asterion", layout, shot, check)
    finally:
        asterion_scene.draw_tile.cache_clear()
    assert before, "the built-in colours should not fit this edition"
    # One shot of each tile teaches this edition well, not perfectly: a chest or a wing taught from
    # a single picture is sometimes out-voted (about one tile in thirty here; more shots help).
    assert len(after) <= 2, after
    assert all(truth.split(":")[0] == read.split(":")[0] for truth, read in after.values()), after


@pytest.mark.parametrize("game", GAMES)
def test_a_taught_profile_survives_json_and_reads_the_same(game: str) -> None:
    recogniser = recogniser_for(game)
    renderer = renderer_for(game)
    layout = recogniser.layout(renderer.default_options)
    rng = numpy.random.default_rng(5)
    labels = renderer.sample_labels(layout, rng, False)
    plane = render_plane(game, labels, layout, rng)
    taught = recogniser.teach(plane, layout, labels, Profile(game, "json"))
    again = Profile.from_json(json.loads(json.dumps(taught.to_json())))
    read = recogniser.read(plane, layout, again).items
    assert read == recogniser.read(plane, layout, taught).items
    assert sum(read[item] == label for item, label in labels.items()) >= 0.95 * len(labels)


@pytest.mark.parametrize(
    ("game", "labels"),
    [
        ("hornochsen", {"row:0:square:0": "100"}),
        ("hornochsen", {"nowhere": "5"}),
        ("asterion", {"cell:1,0": "red:maze@0"}),
        ("minoa", {"line:3": "purple"}),
    ],
)
def test_teach_refuses_labels_that_do_not_fit(game: str, labels: dict[str, str]) -> None:
    recogniser = recogniser_for(game)
    layout = recogniser.layout(renderer_for(game).default_options)
    width, height = layout.plane_size_px()
    with pytest.raises(ValueError):
        recogniser.teach(numpy.zeros((height, width, 3), numpy.uint8), layout, labels, Profile(game))
