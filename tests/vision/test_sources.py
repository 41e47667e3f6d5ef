"""Frame sources and the recording format: write, read back, play, and refuse what is malformed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy
import pytest

from companion.cli import main
from companion.vision.recording import RecordingError, RecordingWriter, load_recording
from companion.vision.sources import (
    CaptureSource,
    ListSource,
    PiCameraSource,
    RecordingSource,
    SourceError,
    frames,
    open_source,
)

from . import scenes

SEQUENCES = Path(__file__).parent / "data" / "sequences"


def _images(count: int) -> list[numpy.typing.NDArray[numpy.uint8]]:
    return [scenes.frame({"spot:0": "red"}, noise=3, seed=n) for n in range(count)]


def test_a_written_recording_reads_back_with_its_truth(tmp_path: Path) -> None:
    images = _images(3)
    with RecordingWriter(tmp_path / "rec", game="squares", options={"n": 1}, suffix=".png") as writer:
        writer.add(images[0], 0.0, {"spot:0": "red"})
        writer.add(images[1], 0.2, None, hand=True)
        writer.add(images[2], 0.4, {"spot:0": "red"}, motion=True)
    recording = load_recording(tmp_path / "rec")
    assert (recording.game, recording.options, recording.width, recording.height) == (
        "squares",
        {"n": 1},
        1280,
        720,
    )
    assert [(f.file, f.t, f.labels, f.hand, f.motion) for f in recording.frames] == [
        ("000001.png", 0.0, {"spot:0": "red"}, False, False),
        ("000002.png", 0.2, None, True, False),
        ("000003.png", 0.4, {"spot:0": "red"}, False, True),
    ]
    played = list(frames(RecordingSource(recording)))
    assert [f.t for f in played] == [0.0, 0.2, 0.4]
    assert all(numpy.array_equal(f.image, image) for f, image in zip(played, images, strict=True))  # PNG
    assert played[1].truth is not None and played[1].truth.hand


def test_the_committed_sequences_follow_the_format() -> None:
    recording = load_recording(SEQUENCES / "reveal" / "recording.json")
    assert recording.game == "minotaurus"
    assert sum(f.hand for f in recording.frames) == 2
    images = [image for _, image in recording.images()]
    assert len(images) == 10 and all(i is not None and i.shape == (720, 1280, 3) for i in images)


def test_an_unreadable_frame_is_an_error_for_that_frame_only(tmp_path: Path) -> None:
    with RecordingWriter(tmp_path, game="squares") as writer:
        for n, image in enumerate(_images(3)):
            writer.add(image, n * 0.1)
    (tmp_path / "000002.jpg").write_bytes(b"not a jpeg")
    source = RecordingSource(tmp_path)
    source.open()
    first = source.read()
    assert first is not None and first.t == 0.0
    with pytest.raises(SourceError, match=r"000002\.jpg"):
        source.read()
    third = source.read()
    assert third is not None and third.t == pytest.approx(0.2)
    assert source.read() is None


def test_a_video_recording_reads_frames_by_index(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (1280, 720))
    assert writer.isOpened()
    colours = [(0, 0, 255), (0, 255, 0), (255, 0, 0), (255, 255, 255)]
    for colour in colours:
        writer.write(numpy.full((720, 1280, 3), colour, numpy.uint8))
    writer.release()
    index = {
        "version": 1,
        "game": None,
        "camera": {"width": 1280, "height": 720},
        "video": "table.avi",
        "frames": [
            {"index": 1, "t": 0.2, "labels": None, "hand": False, "motion": False},
            {"index": 3, "t": 0.6, "labels": None, "hand": False, "motion": False},
        ],
    }
    (tmp_path / "table.avi.json").write_text(json.dumps(index))
    played = list(frames(open_source(str(video))))
    assert [f.t for f in played] == [0.2, 0.6]
    # Frames 1 and 3: green and white (MJPG is lossy: compare the mean colour).
    assert numpy.allclose(played[0].image.reshape(-1, 3).mean(axis=0), (0, 255, 0), atol=8)
    assert numpy.allclose(played[1].image.reshape(-1, 3).mean(axis=0), (255, 255, 255), atol=8)
    # The same video without its JSON is just a video: every frame, at its own frame rate.
    (tmp_path / "table.avi.json").unlink()
    source = open_source(str(video))
    assert isinstance(source, CaptureSource)
    assert [round(f.t, 3) for f in frames(source)] == [0.0, 0.2, 0.4, 0.6]


def test_malformed_recordings_are_refused_with_the_reason(tmp_path: Path) -> None:
    good = {"version": 1, "game": "x", "camera": {"width": 4, "height": 4}, "frames": []}
    cases = [
        ({**good, "version": 2}, "version 2"),
        ({**good, "camera": {"width": 0, "height": 4}}, "width and height"),
        ({**good, "frames": [{"file": "../x.jpg", "t": 0}]}, "inside the recording"),
        ({**good, "frames": [{"file": "a.jpg", "t": "soon"}]}, "time in seconds"),
        ({**good, "frames": [{"file": "a.jpg", "t": 0, "labels": {"a": 1}}]}, "labels"),
        ({**good, "video": "v.mp4", "frames": [{"t": 0}]}, "index"),
    ]
    for n, (data, message) in enumerate(cases):
        folder = tmp_path / str(n)
        folder.mkdir()
        (folder / "recording.json").write_text(json.dumps(data))
        with pytest.raises(RecordingError, match=message):
            load_recording(folder)
    with pytest.raises(RecordingError, match="no such recording"):
        load_recording(tmp_path / "missing")


def test_a_writer_will_not_overwrite_a_recording(tmp_path: Path) -> None:
    with RecordingWriter(tmp_path, game=None) as writer:
        writer.add(_images(1)[0], 0.0)
    with pytest.raises(RecordingError, match="holds a recording already"):
        RecordingWriter(tmp_path, game=None)


def test_sources_are_chosen_from_their_names(tmp_path: Path) -> None:
    assert isinstance(open_source("0"), CaptureSource)
    assert isinstance(open_source("/dev/video2"), CaptureSource)
    assert isinstance(open_source("picamera"), PiCameraSource)
    assert isinstance(open_source(str(SEQUENCES / "reveal")), RecordingSource)
    with pytest.raises(SourceError, match="no frame source"):
        open_source(str(tmp_path / "nothing-here"))


def test_the_pi_camera_is_imported_only_when_opened() -> None:
    # A fresh interpreter: importing every camera module must not import picamera2.
    code = (
        "import sys, companion.vision.sources, companion.vision.watcher, companion.vision.cli;"
        "print('picamera2' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
    try:
        import picamera2  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="picamera2 is not installed"):
            PiCameraSource().open()


def test_a_list_source_reports_a_missing_frame() -> None:
    source = ListSource([_images(1)[0], None])
    source.open()
    assert source.read() is not None
    with pytest.raises(SourceError, match="frame 1"):
        source.read()
    assert source.read() is None


def test_vision_record_saves_a_session_from_a_video(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = tmp_path / "session.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (320, 240))
    for n in range(10):
        writer.write(numpy.full((240, 320, 3), n * 20, numpy.uint8))
    writer.release()
    out = tmp_path / "recorded"
    code = main(["vision", "record", str(out), "--source", str(video), "--fps", "5", "--game", "minos"])
    assert code == 0
    recording = load_recording(out)
    assert recording.game == "minos" and (recording.width, recording.height) == (320, 240)
    # A 10 fps video saved at 5 frames a second: every other frame, labels left for a person to add.
    assert [round(f.t, 2) for f in recording.frames] == [0.0, 0.2, 0.4, 0.6, 0.8]
    assert all(f.labels is None for f in recording.frames)
    assert "Recorded 5 frames" in capsys.readouterr().out
