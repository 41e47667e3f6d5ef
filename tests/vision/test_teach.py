"""Teach mode: lessons for every game, shots taught into saved per-edition profiles, guided from the phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.asterion.tiles import COLOURS as ASTERION_COLOURS
from companion.games.asterion.tiles import DESIGNS
from companion.games.minoa import BOARD as MINOA_BOARD
from companion.games.minoa import COLOURS as MINOA_COLOURS
from companion.games.minotaurus import COLOURS, HORNS, SETUPS
from companion.vision.base import ItemRegion, Layout, Profile, load_profile
from companion.vision.recording import load_recording
from companion.vision.reference import NEUTRAL_BGR
from companion.vision.teach import EMPTY_PROMPT, TeachError, TeachSession, TeachStep, teach_plan
from companion.web.teach import VisionServices, install_vision

from . import scenes
from .conftest import Camera, decoded

SEQUENCES = Path(__file__).parent / "data" / "sequences"


def _layout(*items: str) -> Layout:
    return Layout((300.0, 200.0), {item: ItemRegion((100.0, 100.0), (30.0, 30.0)) for item in items})


def test_every_game_has_lessons_for_every_kind_of_piece() -> None:
    for players, setup in SETUPS.items():
        steps = teach_plan("minotaurus", _layout("cell:0", "cell:1"), {"players": players})
        labels = [label for step in steps for label in step.labels.values()]
        assert {"empty", "down"} <= set(labels)
        pieces = [label.split("-") for label in labels if label not in ("empty", "down")]
        assert {c for c, _, _ in pieces} == set(COLOURS)
        assert {int(v) for _, v, _ in pieces} == set(setup["values"])
        assert {h for _, _, h in pieces} == set(HORNS)
        assert all(set(step.labels) == {"cell:0"} for step in steps)
    toss = teach_plan("toss", _layout("horn:left", "horn:right"), {})
    assert [step.labels for step in toss] == [
        {"horn:left": "clear", "horn:right": "clear"},
        {"horn:left": "ring", "horn:right": "clear"},
        {"horn:right": "ring", "horn:left": "clear"},
    ]
    minos = teach_plan("minos", _layout("die:0", "die:1"), {})
    assert {step.labels["die:0"] for step in minos} == {
        "Pfeil",
        "Joker",
        "Stern",
        "Gebaeude",
        "Moewe",
        "Waage",
    }
    hornochsen = teach_plan("hornochsen", _layout("row:0:square:0", "played:seat0"), {})
    digits = {d for step in hornochsen for d in step.labels["played:seat0"] if d.isdigit()}
    assert digits == set("0123456789")
    asterion = teach_plan("asterion", _layout("cell:0,0", "cell:1,0"), {})
    assert asterion[1].labels == {"cell:0,0": "minotaur@0"}
    tiles = [step.labels["cell:1,0"] for step in asterion[2:]]
    assert {label.split(":")[0] for label in tiles} == set(ASTERION_COLOURS)
    assert {label.split(":")[1] for label in tiles} == {f"{d.name}@0" for d in DESIGNS}
    interior, edge = f"line:{MINOA_BOARD.interior_lines[0]}", f"line:{MINOA_BOARD.edge_lines[0]}"
    minoa = teach_plan("minoa", _layout(edge, interior), {})
    assert [step.labels for step in minoa[:2]] == [{interior: "empty"}, {interior: "stick"}]
    assert [step.labels for step in minoa[2:]] == [{edge: colour} for colour in MINOA_COLOURS]
    with pytest.raises(TeachError, match="no lessons"):
        teach_plan("chess", _layout("a1"), {})


def test_shots_teach_the_profile_and_save_it_for_the_edition(squares: None, tmp_path: Path) -> None:
    camera = Camera()
    session = TeachSession("squares", {}, "my-set", camera, profiles_root=tmp_path, sleep=lambda s: None)
    assert session.to_json()["prompt"] == "Lay the red square on spot 0."
    # This edition's red is darker than the built-in prototype: taught, it is still read as red.
    dark_red = scenes.frame({"spot:0": "red"}, noise=2)
    dark_red[dark_red[:, :, 2] > 200] = (40, 40, 150)
    camera.image = dark_red
    state = session.shot()
    assert state["step"] == 1 and state["taught"] == 1 and state["last_check"]["right"]
    saved = load_profile("squares", "my-set", tmp_path)
    assert saved is not None and saved.shots == 1 and saved.edition == "my-set" and "red" in saved.colours
    camera.image = scenes.frame({"spot:0": "green"}, noise=2)
    assert session.shot()["done"]
    saved = load_profile("squares", "my-set", tmp_path)
    assert saved is not None and saved.shots == 2 and set(saved.colours) == {"red", "green"}
    with pytest.raises(TeachError, match="every lesson is done"):
        session.shot()
    # A later session of the same edition goes on from the saved profile; another edition starts afresh.
    assert TeachSession("squares", {}, "my-set", camera, profiles_root=tmp_path).profile.shots == 2
    assert TeachSession("squares", {}, "other", camera, profiles_root=tmp_path).profile == Profile(
        "squares", "other"
    )


def test_with_empty_first_the_table_is_learned_before_the_lessons_and_shots_are_taught_without_it(
    squares: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taught_planes: list[numpy.typing.NDArray[numpy.uint8]] = []
    original = scenes.SquaresRecogniser.teach

    def spying_teach(
        self: scenes.SquaresRecogniser, plane: Any, layout: Any, labels: Any, profile: Any
    ) -> Any:
        taught_planes.append(plane.copy())
        return original(self, plane, layout, labels, profile)

    monkeypatch.setattr(scenes.SquaresRecogniser, "teach", spying_teach)
    camera = Camera()
    session = TeachSession(
        "squares", {}, "my-set", camera, profiles_root=tmp_path, sleep=lambda s: None, empty_first=True
    )
    assert session.to_json()["prompt"] == EMPTY_PROMPT and session.to_json()["needs_empty"]
    camera.image = scenes.frame({"spot:0": "empty"}, noise=2)
    state = session.shot()
    # The empty table is learned, no lesson is taken: the first lesson is asked for now.
    assert state["step"] == 0 and state["taught"] == 0 and not state["needs_empty"]
    assert state["prompt"] == "Lay the red square on spot 0."
    assert session.reader.reference is not None and not taught_planes
    camera.image = scenes.frame({"spot:0": "red"}, noise=2)
    assert session.shot()["last_check"]["right"]
    # The shot was taught on the normalised plane: away from the piece, the table is the neutral background.
    (plane,) = taught_planes
    corner = plane[300:340, 280:320].reshape(-1, 3).astype(float)
    assert numpy.abs(corner.mean(axis=0) - numpy.array(NEUTRAL_BGR)).max() < 3


def test_a_shot_without_the_table_in_view_or_with_a_hand_is_refused(squares: None, tmp_path: Path) -> None:
    camera = Camera()
    session = TeachSession("squares", {}, "default", camera, profiles_root=tmp_path, sleep=lambda s: None)
    with pytest.raises(TeachError, match="no picture"):
        session.shot()
    camera.image = numpy.full((720, 1280, 3), 128, numpy.uint8)
    with pytest.raises(TeachError, match="cannot see the table"):
        session.shot()
    camera.image = scenes.frame({"spot:0": "red"})
    session.shot()
    reaching, withdrawn = scenes.frame({"spot:0": "green"}), scenes.frame({"spot:0": "green"})
    cv2.line(reaching, (0, 700), (640, 360), (90, 120, 190), 90)  # an arm reaching in from the table's edge
    cv2.line(withdrawn, (0, 700), (300, 530), (90, 120, 190), 90)  # ...and drawing back
    camera.image, camera.then = reaching, withdrawn
    with pytest.raises(TeachError, match="take your hand away"):
        session.shot()
    assert session.index == 1 and load_profile("squares", "default", tmp_path) is not None
    assert session.back()["step"] == 0 and session.skip()["step"] == 1


def test_the_minotaurus_recogniser_learns_from_a_shot_of_the_table(tmp_path: Path) -> None:
    frames = [image for entry, image in load_recording(SEQUENCES / "reveal").images() if not entry.hand]
    camera = Camera()
    camera.image = frames[-1]  # cell 4 shows the blue 3 (left horn)
    session = TeachSession(
        "minotaurus", {"players": 3}, "default", camera, profiles_root=tmp_path, sleep=lambda s: None
    )
    session.steps = [TeachStep("Lay the blue 3 (left horn) face up on cell 4.", {"cell:4": "blue-3-left"})]
    state = session.shot()
    assert state["done"] and state["last_check"] == {
        "expected": {"cell:4": "blue-3-left"},
        "read": {"cell:4": "blue-3-left"},
        "right": True,
    }
    saved = load_profile("minotaurus", "default", tmp_path)
    assert saved is not None and saved.shots == 1 and saved != Profile("minotaurus")


# ---------------------------------------------------------------- from the phone


def test_teach_mode_from_the_phone_is_for_the_host_only(
    app: Flask, tmp_path: Path, host: FlaskClient
) -> None:
    viewer = app.test_client()
    assert viewer.get("/teach").status_code == 200  # the page itself asks for the PIN, in words
    assert viewer.get("/api/teach").status_code == 403
    assert viewer.post("/api/teach/start", json={"game": "squares"}).status_code == 403
    page = host.get("/teach")
    assert page.status_code == 200 and b"Teach the camera" in page.data
    refused = host.post("/api/teach/start", json={"game": "squares"})
    assert refused.status_code == 409 and "no camera" in refused.json["error"]  # type: ignore[index]


def test_the_phone_walks_through_the_lessons(app: Flask, tmp_path: Path, host: FlaskClient) -> None:
    camera = Camera()
    install_vision(app, VisionServices(grab=camera, profiles_root=tmp_path))
    assert host.post("/api/teach/shot").status_code == 409  # no session yet
    started = host.post("/api/teach/start", json={"game": "squares", "edition": "club-set"})
    assert started.status_code == 200
    # The phone first asks for the empty table: the lessons are then taught against it.
    assert started.json["session"]["prompt"] == EMPTY_PROMPT  # type: ignore[index]
    camera.image = scenes.frame({"spot:0": "empty"})
    learned = host.post("/api/teach/shot").json["session"]  # type: ignore[index]
    assert learned["prompt"] == "Lay the red square on spot 0." and learned["step"] == 0
    camera.image = scenes.frame({"spot:0": "red"})
    preview = host.get("/api/teach/preview.jpg")
    assert preview.status_code == 200 and preview.content_type == "image/jpeg"
    shown = decoded(preview.data)
    assert shown.shape[:2] == (400, 600)  # the top-down plane, 2 px per mm
    x0, y0, _, _ = scenes.layout().items["spot:0"].box_px()
    assert [int(v) for v in shown[y0 + 1, x0 + 20]] == pytest.approx([0, 0, 255], abs=40)  # the spot outlined
    shot = host.post("/api/teach/shot")
    assert shot.status_code == 200 and shot.json["session"]["step"] == 1  # type: ignore[index]
    camera.image = None
    lost = host.post("/api/teach/shot")
    assert lost.status_code == 409 and "no picture" in lost.json["error"]  # type: ignore[index]
    assert host.post("/api/teach/skip").json["session"]["done"]  # type: ignore[index]
    assert host.get("/api/teach").json["session"]["taught"] == 1  # type: ignore[index]
    assert load_profile("squares", "club-set", tmp_path) is not None
    bad = host.post("/api/teach/start", json={"game": "squares", "edition": "../../etc"})
    assert bad.status_code == 400


@pytest.mark.parametrize("game", ["asterion", "hornochsen", "minoa", "minos", "minotaurus", "toss"])
def test_each_games_recogniser_learns_its_first_lessons(game: str, tmp_path: Path) -> None:
    from companion.vision.base import recogniser_for
    from companion.vision.generate import generate_frame, renderer_for

    renderer = renderer_for(game)
    options = dict(renderer.default_options)
    layout = recogniser_for(game).layout(options)
    camera = Camera()
    session = TeachSession(game, options, "default", camera, profiles_root=tmp_path, sleep=lambda s: None)
    rng = numpy.random.default_rng(1)
    for step in session.steps[:2]:
        labels = {**renderer.sample_labels(layout, rng, False), **step.labels}
        camera.image = generate_frame(game, layout, rng, labels=labels, hand=False, motion=False).image
        assert session.shot()["last_check"]["right"], step.prompt
    saved = load_profile(game, "default", tmp_path)
    assert saved is not None and saved.shots == 2


def test_a_taught_profile_is_completed_by_the_built_in_one_only_where_it_has_nothing() -> None:
    built_in = Profile(
        game="asterion",
        colours={"red": [[1.0, 2.0, 3.0]], "blue": [[4.0, 5.0, 6.0]]},
        templates={"tile:a": "A", "tile:b": "B"},
        params={"taught_colours": [], "threshold": 0.5},
    )
    taught = Profile(
        game="asterion",
        edition="2019",
        colours={"red": [[9.0, 9.0, 9.0]]},
        templates={"tile:b": "taught"},
        params={"taught_colours": ["red"]},
        shots=3,
    )
    completed = taught.completed_by(built_in)
    assert completed.colours == {"red": [[9.0, 9.0, 9.0]], "blue": [[4.0, 5.0, 6.0]]}
    assert completed.templates == {"tile:a": "A", "tile:b": "taught"}
    assert completed.params == {"taught_colours": ["red"], "threshold": 0.5}
    assert (completed.edition, completed.shots) == ("2019", 3)
