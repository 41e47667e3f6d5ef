"""`companion vision label`: the label page's server, through Flask's test client: load a recording, see the
layout where the frame shows it, label, save, reload; a wrong label or mark is refused and the file stays."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy
import pytest

from companion.cli import main
from companion.games.asterion.tiles import COLOURS, DESIGNS
from companion.vision import base
from companion.vision.label import create_label_app
from companion.vision.pipeline import PlaneReader
from companion.vision.recognisers._asterion_labels import parse_label, tile_label
from companion.vision.recording import RecordingWriter, load_recording
from companion.vision.vocabulary import game_vocabulary, vocabulary_for

from . import scenes

RED_GREEN = {"spot:0": "red", "spot:1": "green"}
SEQUENCES = Path(__file__).parent / "data" / "sequences"


@pytest.fixture
def squares(monkeypatch: pytest.MonkeyPatch) -> scenes.SquaresRecogniser:
    recogniser = scenes.SquaresRecogniser()
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", lambda: recogniser)
    return recogniser


def _recording(folder: Path) -> Path:
    """A recorded session as `companion vision record` leaves it: unlabelled but for one frame."""
    with RecordingWriter(folder, game="squares", setup={"table": "linen"}) as writer:
        writer.add(scenes.frame({}, seed=1), 0.0, None, reference=True)
        writer.add(scenes.frame(RED_GREEN, noise=2, seed=2), 0.2, None)
        writer.add(
            scenes.frame({"spot:0": "green"}, noise=2, seed=3), 0.4, {"spot:0": "green", "spot:1": "empty"}
        )
    return folder


def _client(folder: Path) -> Any:
    app = create_label_app(folder)
    app.testing = True
    return app.test_client()


def _where_the_camera_sees(x_mm: float, y_mm: float) -> numpy.typing.NDArray[numpy.float32]:
    """Frame pixel of a plane point, by the scene's own camera (not the markers)."""
    width, height = scenes.layout().plane_size_px()
    corners = numpy.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(corners, scenes.CAMERA_QUAD)
    point = numpy.float32([[[x_mm * base.PLANE_PX_PER_MM, y_mm * base.PLANE_PX_PER_MM]]])
    return numpy.asarray(cv2.perspectiveTransform(point, homography)[0, 0], dtype=numpy.float32)


def test_a_frame_is_shown_with_the_layout_prefilled_labelled_saved_and_reloaded(
    squares: scenes.SquaresRecogniser, tmp_path: Path
) -> None:
    folder = _recording(tmp_path / "rec")
    client = _client(folder)
    summary = client.get("/api/recording").get_json()
    assert summary["game"] == "squares" and summary["setup"] == {"table": "linen"}
    assert summary["items"] == [["spot:0", "spot"], ["spot:1", "spot"]] and len(summary["frames"]) == 3
    assert set(summary["vocabulary"]["spot"]) >= {"green", "empty"}
    view = client.get("/api/frames/1").get_json()
    # The layout drawn where the camera shows each spot: the region's corners around the spot's centre.
    for item, centre_mm in scenes.SPOTS.items():
        quad = numpy.array(view["regions"][item])
        assert numpy.linalg.norm(quad.mean(axis=0) - _where_the_camera_sees(*centre_mm)) < 3
        corner = _where_the_camera_sees(centre_mm[0] - 20, centre_mm[1] - 20)
        assert numpy.linalg.norm(quad[0] - corner) < 3
    # Unlabelled: prefilled with the recogniser's reading, so the user only corrects.
    assert view["prefilled"] and view["labels"] == view["reading"] == RED_GREEN
    assert client.get("/api/frames/1/image").data[:2] == b"\xff\xd8"
    corrected = {"spot:0": "red", "spot:1": "empty"}
    saved = client.post("/api/frames/1", json={"labels": corrected, "hand": False})
    assert saved.status_code == 200 and saved.get_json()["labels"] == corrected
    assert not saved.get_json()["prefilled"]
    client.post("/api/frames/2", json={"labels": None, "hand": True})
    reloaded = load_recording(folder)
    assert reloaded.frames[1].labels == corrected
    assert (reloaded.frames[2].labels, reloaded.frames[2].hand) == (None, True)
    assert reloaded.frames[0].reference and reloaded.setup == {"table": "linen"}
    # A new page on the saved file shows what was saved.
    assert _client(folder).get("/api/frames/1").get_json()["labels"] == corrected


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"labels": {"spot:0": "purple"}}, "'purple' is not a label for spot:0"),
        ({"labels": {"spot:9": "red"}}, "'spot:9' is not an item of the squares layout"),
        ({"labels": ["red"]}, "labels must map item ids to labels"),
        ({"hand": "yes"}, "hand must be true or false"),
        ({"hand": True, "reference": True}, "a reference frame shows the empty play area"),
        (["red"], "must be"),
    ],
)
def test_a_wrong_change_is_refused_with_its_reason_and_the_file_is_unchanged(
    squares: scenes.SquaresRecogniser, tmp_path: Path, change: Any, message: str
) -> None:
    folder = _recording(tmp_path / "rec")
    before = (folder / "recording.json").read_bytes()
    client = _client(folder)
    refused = client.post("/api/frames/2", json=change)
    assert refused.status_code == 400 and message in refused.get_json()["error"]
    assert (folder / "recording.json").read_bytes() == before
    # The page's session was not changed either: the frame still shows what the file holds.
    assert client.get("/api/frames/2").get_json()["entry"]["labels"] == {"spot:0": "green", "spot:1": "empty"}


def test_the_setup_is_saved_and_a_wrong_one_refused(
    squares: scenes.SquaresRecogniser, tmp_path: Path
) -> None:
    folder = _recording(tmp_path / "rec")
    client = _client(folder)
    setup = {"table": "gingham", "camera_height_mm": 450, "edition": "", "camera_tilt_deg": None}
    assert client.post("/api/setup", json=setup).get_json()["setup"] == {
        "table": "gingham",
        "camera_height_mm": 450,
    }
    assert load_recording(folder).setup == {"table": "gingham", "camera_height_mm": 450}
    before = (folder / "recording.json").read_bytes()
    refused = client.post("/api/setup", json={"camera_tilt_deg": 200})
    assert refused.status_code == 400 and "between 0 and 90" in refused.get_json()["error"]
    assert (folder / "recording.json").read_bytes() == before
    assert client.get("/api/frames/7").status_code == 400


def test_the_page_and_its_assets_are_local(squares: scenes.SquaresRecogniser, tmp_path: Path) -> None:
    client = _client(_recording(tmp_path / "rec"))
    page = client.get("/").get_data(as_text=True)
    assert "Label the squares recording" in page
    assert "http://" not in page and "https://" not in page  # no CDN: the page works offline
    script = client.get("/static/label.js")
    assert script.status_code == 200 and b"/api/frames/" in script.data
    assert client.get("/static/label.css").status_code == 200


def test_every_game_offers_its_labels_and_what_a_recording_already_uses() -> None:
    minotaurus = game_vocabulary("minotaurus")
    assert minotaurus is not None and {"empty", "down", "blue-3-left"} <= set(minotaurus["cell"])
    hornochsen = game_vocabulary("hornochsen")
    assert hornochsen is not None and {"57", "down", "empty"} <= set(hornochsen["played/2"])
    asterion = game_vocabulary("asterion")
    assert asterion is not None and "minotaur@0" in asterion["cell"]
    # Each tile's look once, at the rotation the recogniser reads (a symmetric tile has fewer than four).
    tiles = [label for label in asterion["cell"] if label not in ("empty", "minotaur@0")]
    for label in tiles:
        parsed = parse_label(label)
        assert parsed is not None and tile_label(*parsed) == label
    assert len(tiles) < len(COLOURS) * len(DESIGNS) * 4
    vocabulary = vocabulary_for("toss", ["horn:left"], [("horn:left", "ring"), ("horn:left", "maybe")])
    assert vocabulary == {"horn": ("clear", "ring", "maybe")}


def test_label_on_the_command_line_refuses_what_it_cannot_serve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "label", str(tmp_path / "missing")]) == 1
    assert "no such recording" in capsys.readouterr().err
    with RecordingWriter(tmp_path / "nameless", game=None) as writer:
        writer.add(scenes.frame({}), 0.0, None)
    assert main(["vision", "label", str(tmp_path / "nameless")]) == 1
    assert "names no game" in capsys.readouterr().err
    assert json.loads((tmp_path / "nameless" / "recording.json").read_text())["game"] is None


def test_the_page_in_a_browser_prefills_draws_the_layout_and_saves(tmp_path: Path) -> None:
    """`companion vision label` served as a user starts it, driven in Debian's chromium: the Minotaurus
    matrix drawn over a recorded frame, the reading prefilled, a correction saved, a wrong mark refused."""
    from tests.web.browser_fixtures import ARTIFACTS, launch_browser
    from tests.web.test_serve import PATIENCE, free_port, read_line

    copy = tmp_path / "reveal"
    shutil.copytree(SEQUENCES / "reveal", copy)
    data = json.loads((copy / "recording.json").read_text())
    truth = data["frames"][0]["labels"]
    data["frames"][0]["labels"] = None  # as recorded: nobody has labelled it yet
    (copy / "recording.json").write_text(json.dumps(data))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "vision", "label", str(copy), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    playwright, browser = launch_browser()
    try:
        assert f"http://127.0.0.1:{port}/" in read_line(server)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/", timeout=PATIENCE * 1000)
        page.wait_for_function(
            f"document.querySelectorAll('#overlay polygon').length === {len(truth)}", timeout=PATIENCE * 1000
        )
        # The items in the layout's order (cell:2 after cell:1, not after cell:19).
        shown = page.locator("#items label").all_text_contents()
        assert shown == list(truth)
        cell = page.locator('[id="item-cell:5"]')
        assert page.locator("#prefilled").is_visible() and cell.input_value() == truth["cell:5"]
        cell.select_option("blue-1-left")
        page.click("#save")
        page.wait_for_function("document.getElementById('status').textContent === 'frame 0 saved'")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "vision-label.png"))
        saved = load_recording(copy).frames[0].labels
        assert saved == {**truth, "cell:5": "blue-1-left"}
        before = (copy / "recording.json").read_bytes()
        page.check("#reference")
        page.check("#hand")
        page.click("#save")
        page.wait_for_function("document.getElementById('status').className === 'error'")
        assert "cannot also be marked hand" in page.locator("#status").text_content()
        assert (copy / "recording.json").read_bytes() == before
    finally:
        browser.close()
        playwright.stop()
        server.kill()
        server.wait(PATIENCE)


def test_the_prefilled_reading_comes_after_learning_the_empty_area(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    learned: list[int] = []
    monkeypatch.setattr(
        PlaneReader, "learn_reference", lambda reader, frames: learned.append(len(frames)), raising=False
    )
    client = _client(_recording(tmp_path / "rec"))
    assert learned == [1]  # the recording's one reference frame, before any frame is read
    assert client.get("/api/frames/1").get_json()["reading"] == RED_GREEN


def test_a_video_recording_is_labelled_frame_by_frame_and_saved_beside_the_video(
    squares: scenes.SquaresRecogniser, tmp_path: Path
) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (1280, 720))
    shown = [{}, RED_GREEN, {"spot:0": "green"}]
    for labels in shown:
        writer.write(scenes.frame(labels))
    writer.release()
    frames = [{"index": n, "t": n * 0.2, "labels": None, "hand": False, "motion": False} for n in range(3)]
    index = {"version": 1, "game": "squares", "camera": {"width": 1280, "height": 720}, "video": video.name}
    (tmp_path / "table.avi.json").write_text(json.dumps({**index, "frames": frames}))
    client = _client(video)
    # Each index gives its own frame: the reading prefilled is that frame's.
    assert client.get("/api/frames/2").get_json()["reading"] == {"spot:0": "green", "spot:1": "empty"}
    assert client.get("/api/frames/1").get_json()["reading"] == RED_GREEN
    assert client.post("/api/frames/1", json={"labels": RED_GREEN}).status_code == 200
    assert load_recording(video).frames[1].labels == RED_GREEN
    assert json.loads((tmp_path / "table.avi.json").read_text())["video"] == "table.avi"


def test_marking_a_frame_reference_learns_the_empty_area_again(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    learned: list[int] = []
    monkeypatch.setattr(
        PlaneReader, "learn_reference", lambda reader, frames: learned.append(len(frames)), raising=False
    )
    folder = tmp_path / "rec"
    with RecordingWriter(folder, game="squares") as writer:
        writer.add(scenes.frame({}, seed=1), 0.0, None)
        writer.add(scenes.frame({}, seed=2), 0.2, None)
        writer.add(scenes.frame(RED_GREEN, seed=3), 0.4, None)
    client = _client(folder)
    assert learned == [] and client.get("/api/frames/2").status_code == 200
    client.post("/api/frames/0", json={"labels": None, "reference": True})
    client.post("/api/frames/1", json={"labels": None, "reference": True})
    assert learned == [1, 2]
    # Frame 2 is read again against the new reference, not served from before; then kept.
    reads = squares.reads
    client.get("/api/frames/2")
    client.get("/api/frames/2")
    assert squares.reads == reads + 1
