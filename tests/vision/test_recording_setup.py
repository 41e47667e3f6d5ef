"""The recording format's setup (table, camera, edition) and reference frames: written, read back, checked,
and saved again atomically; older recordings load and rewrite unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy
import pytest

from companion.cli import main
from companion.vision import base
from companion.vision.evaluate import evaluate
from companion.vision.pipeline import PlaneReader
from companion.vision.recording import (
    RecordingError,
    RecordingWriter,
    check_setup,
    load_recording,
    save_recording,
)
from companion.vision.reference import LearnResult

from . import scenes

SEQUENCES = Path(__file__).parent / "data" / "sequences"
SETUP = {
    "table": "gingham",
    "camera_height_mm": 450.0,
    "camera_tilt_deg": 12.5,
    "edition": "travel",
    "figure_height_mm": None,
}


def _image(seed: int) -> numpy.typing.NDArray[numpy.uint8]:
    return scenes.frame({"spot:0": "red"}, noise=3, seed=seed)


def test_setup_and_reference_frames_read_back(tmp_path: Path) -> None:
    empty = {"spot:0": "empty", "spot:1": "empty"}
    with RecordingWriter(tmp_path / "rec", game="squares", setup=SETUP, suffix=".png") as writer:
        writer.add(scenes.frame({}, seed=1), 0.0, empty, reference=True)
        writer.add(_image(2), 0.2, {"spot:0": "red"})
    recording = load_recording(tmp_path / "rec")
    assert recording.setup == SETUP
    assert [f.reference for f in recording.frames] == [True, False]
    assert "setup" not in recording.extra
    written = json.loads((tmp_path / "rec" / "recording.json").read_text())
    # Written only where set, so a recording without reference frames looks as it always did.
    assert written["frames"][0]["reference"] is True and "reference" not in written["frames"][1]


def test_an_older_recording_loads_and_rewrites_byte_for_byte(tmp_path: Path) -> None:
    original = json.loads((SEQUENCES / "reveal" / "recording.json").read_text())
    assert "setup" not in original
    recording = load_recording(SEQUENCES / "reveal")
    assert recording.setup == {} and not any(f.reference for f in recording.frames)
    assert recording.to_json() == original
    copy = tmp_path / "recording.json"
    save_recording(recording, copy)
    assert json.loads(copy.read_text()) == original


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("dark-wood", "setup must be an object"),
        ({"table": 3}, "setup table must be a name"),
        ({"edition": "  "}, "setup edition must be a name"),
        ({"camera_height_mm": "450"}, "camera_height_mm must be a number"),
        ({"camera_height_mm": True}, "camera_height_mm must be a number"),
        ({"camera_tilt_deg": 120}, "camera_tilt_deg must lie between 0 and 90"),
        ({"figure_height_mm": -5}, "figure_height_mm must lie between 0 and 1000"),
    ],
)
def test_a_wrong_setup_is_refused_before_anything_is_written(
    tmp_path: Path, setup: Any, message: str
) -> None:
    with pytest.raises(RecordingError, match=message):
        RecordingWriter(tmp_path / "rec", game="squares", setup=setup)
    assert not (tmp_path / "rec").exists()
    folder = tmp_path / "loaded"
    folder.mkdir()
    data = {"version": 1, "camera": {"width": 4, "height": 3}, "setup": setup, "frames": []}
    (folder / "recording.json").write_text(json.dumps(data))
    with pytest.raises(RecordingError, match=message):
        load_recording(folder)


def test_unknown_setup_keys_are_kept_and_null_means_unknown() -> None:
    assert check_setup({"table": None, "lamp": "warm"}) == {"table": None, "lamp": "warm"}
    assert check_setup(None) == {}


def test_a_reference_frame_cannot_have_a_hand(tmp_path: Path) -> None:
    with RecordingWriter(tmp_path / "rec", game="squares") as writer:
        with pytest.raises(RecordingError, match="cannot also be marked hand"):
            writer.add(_image(1), 0.0, None, hand=True, reference=True)
        writer.add(_image(1), 0.0, None)
    data = json.loads((tmp_path / "rec" / "recording.json").read_text())
    data["frames"][0].update(reference=True, motion=True)
    (tmp_path / "rec" / "recording.json").write_text(json.dumps(data))
    with pytest.raises(RecordingError, match="cannot also be marked motion"):
        load_recording(tmp_path / "rec")
    data["frames"][0].update(reference="yes", motion=False)
    (tmp_path / "rec" / "recording.json").write_text(json.dumps(data))
    with pytest.raises(RecordingError, match="reference must be true or false"):
        load_recording(tmp_path / "rec")


def test_save_refuses_a_malformed_recording_and_leaves_the_file(tmp_path: Path) -> None:
    with RecordingWriter(tmp_path / "rec", game="squares", setup={"table": "linen"}) as writer:
        writer.add(_image(1), 0.0, None)
    index = tmp_path / "rec" / "recording.json"
    before = index.read_bytes()
    data = json.loads(before)
    data["frames"][0]["labels"] = {"spot:0": 7}
    with pytest.raises(RecordingError, match="labels must map item ids"):
        save_recording(data, index)
    assert index.read_bytes() == before
    assert [p.name for p in index.parent.glob(".recording-*")] == []  # no temporary left behind
    data["frames"][0]["labels"] = {"spot:0": "red"}
    save_recording(data, index)
    assert load_recording(index).frames[0].labels == {"spot:0": "red"}


def test_record_keeps_the_setup_and_marks_the_first_seconds_as_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with RecordingWriter(tmp_path / "source", game=None, suffix=".png") as writer:
        for n in range(5):
            writer.add(_image(n), n * 0.25, None)
    out = tmp_path / "out"
    arguments = ["vision", "record", str(out), "--source", str(tmp_path / "source"), "--fps", "100"]
    setup = ["--table", "dark-wood", "--camera-height", "520", "--edition", "travel"]
    assert main([*arguments, "--seconds", "30", "--reference-seconds", "0.5", *setup]) == 0
    recording = load_recording(out)
    assert recording.setup == {"table": "dark-wood", "camera_height_mm": 520.0, "edition": "travel"}
    assert [f.reference for f in recording.frames] == [True, True, False, False, False]
    assert "Keep the play area empty for the first 0.5 s" in capsys.readouterr().err
    # A setup the format refuses stops before the camera opens or any folder is made.
    refused = tmp_path / "refused"
    arguments[2] = str(refused)
    assert main([*arguments, "--camera-tilt", "95"]) == 1
    assert "camera_tilt_deg must lie between 0 and 90" in capsys.readouterr().err
    assert not refused.exists()


# ---------------------------------------------------------------- evaluation of reference and hand frames


@pytest.fixture
def squares(monkeypatch: pytest.MonkeyPatch) -> scenes.SquaresRecogniser:
    recogniser = scenes.SquaresRecogniser()
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", lambda: recogniser)
    return recogniser


def with_arm(image: numpy.typing.NDArray[numpy.uint8], *, over_the_area: bool) -> Any:
    """An arm reaching in from the frame's bottom edge: over the play area's bottom middle, or beside it.

    Shaded as a limb lit from above (its sides darker than its ridge): an arm exactly one flat colour
    of the table around the play area would not show where it crosses the area's edge."""
    arm = image.copy()
    x0 = 600 if over_the_area else 1080
    across = numpy.abs(numpy.linspace(-1.0, 1.0, 150))
    shading = (1.0 - 0.45 * across**2)[None, :, None]
    skin = numpy.array((95, 140, 190), numpy.float64)
    arm[420:720, x0 : x0 + 150] = numpy.clip(skin * shading, 0, 255).astype(numpy.uint8)
    return arm


def _session(folder: Path) -> Path:
    red_green = {"spot:0": "red", "spot:1": "green"}
    with RecordingWriter(folder, game="squares", setup={"table": "linen", "edition": "travel"}) as writer:
        # Labelled wrongly on purpose: a reference frame must never be scored.
        writer.add(scenes.frame({}, seed=1), 0.0, {"spot:0": "red", "spot:1": "red"}, reference=True)
        writer.add(scenes.frame(red_green, noise=2, seed=2), 0.2, red_green)
        writer.add(with_arm(scenes.frame(red_green, seed=3), over_the_area=True), 0.4, None, hand=True)
        writer.add(scenes.frame(red_green, noise=2, seed=4), 0.6, red_green)
        writer.add(with_arm(scenes.frame(red_green, seed=5), over_the_area=False), 0.8, None, hand=True)
    return folder


def test_reference_frames_are_learned_not_scored_and_hands_are_checked(
    squares: scenes.SquaresRecogniser, tmp_path: Path
) -> None:
    report = evaluate(_session(tmp_path / "rec"))
    assert (report["table"], report["edition"]) == ("linen", "travel")
    assert report["reference_frames"] == 1 and report["frames_read"] == 2
    assert report["items"] == {"total": 4, "right": 4, "accuracy": 1.0} and report["frames_right"] == 2
    # The arm over the area is refused; the one beside it leaves the area as it was, so it is not.
    assert report["hand_frames"] == 2 and report["hand_frames_refused"] == 0.5


def test_the_reader_learns_the_empty_area_from_reference_frames_only(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    learned: list[list[float]] = []

    def learn_reference(reader: PlaneReader, frames: list[numpy.typing.NDArray[numpy.uint8]]) -> LearnResult:
        learned.append([float(frame.mean()) for frame in frames])
        return LearnResult(False, "learned nothing: this is a test")

    monkeypatch.setattr(PlaneReader, "learn_reference", learn_reference, raising=False)
    folder = _session(tmp_path / "rec")
    report = evaluate(folder)
    assert report["reference_learned"] == "learned nothing: this is a test"
    reference_image = next(image for entry, image in load_recording(folder).images() if entry.reference)
    assert learned == [[float(reference_image.mean())]]


def test_a_frame_at_rest_the_reader_refuses_is_scored_wrong_and_counted_with_its_reason(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _session(tmp_path / "rec")
    second = next(image for entry, image in load_recording(folder).images() if entry.t == 0.6)
    read = PlaneReader.read

    def refusing(reader: PlaneReader, frame: numpy.typing.NDArray[numpy.uint8]) -> Any:
        result = read(reader, frame)
        if numpy.array_equal(frame, second):  # the second frame at rest: refused, as a reader may
            fields = {**vars(result), "reading": None, "hand": False, "refused": "the light changed too much"}
            return SimpleNamespace(**fields)
        return result

    monkeypatch.setattr(PlaneReader, "read", refusing)
    report = evaluate(folder)
    assert report["frames_at_rest_refused"] == {"the light changed too much": 1}
    assert report["items"] == {"total": 4, "right": 2, "accuracy": 0.5}
    assert {"truth": "red", "read": "(refused)", "count": 1} in report["confusions"]
