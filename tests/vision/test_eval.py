"""`companion vision eval`: per-item accuracy, frames entirely right and time per frame, against the truth."""

from __future__ import annotations

import json
from pathlib import Path

import numpy
import pytest

from companion.cli import main
from companion.vision import base
from companion.vision.evaluate import evaluate, item_kind
from companion.vision.recording import RecordingWriter, load_recording

from . import scenes

SEQUENCES = Path(__file__).parent / "data" / "sequences"


@pytest.fixture
def squares(monkeypatch: pytest.MonkeyPatch) -> scenes.SquaresRecogniser:
    recogniser = scenes.SquaresRecogniser()
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", lambda: recogniser)
    return recogniser


def _recording(folder: Path) -> Path:
    """Six frames: four read (one with a wrong label in its truth, one without markers), one with a hand,
    one unlabelled."""
    red_green = {"spot:0": "red", "spot:1": "green"}
    with RecordingWriter(folder, game="squares", suffix=".png") as writer:
        writer.add(scenes.frame(red_green, noise=2, seed=1), 0.0, red_green)
        writer.add(scenes.frame(red_green, noise=2, seed=2), 0.2, {"spot:0": "red", "spot:1": "red"})
        writer.add(scenes.frame({}, noise=2, seed=3), 0.4, {"spot:0": "empty", "spot:1": "empty"})
        writer.add(numpy.full((720, 1280, 3), 90, numpy.uint8), 0.6, {"spot:0": "empty"})
        writer.add(scenes.frame(red_green), 0.8, red_green, hand=True)
        writer.add(scenes.frame(red_green), 1.0, None)
    return folder


def test_the_figures_compare_every_item_with_the_truth(
    squares: scenes.SquaresRecogniser, tmp_path: Path
) -> None:
    report = evaluate(_recording(tmp_path / "rec"))
    assert report["frames"] == 6 and report["frames_read"] == 4
    assert report["skipped"] == {"hand": 1, "unlabelled": 1}
    # 7 items: the wrong label and the frame without markers make 2 of them wrong; 2 of 4 frames right.
    # (Without markers the frame is read under the last homography, as a fixed camera would read it.)
    assert report["items"] == {"total": 7, "right": 5, "accuracy": round(5 / 7, 6)}
    assert report["frames_entirely_right"] == 0.5
    assert report["frames_markers_not_found"] == 1
    assert report["by_kind"] == {"spot": {"total": 7, "right": 5, "accuracy": round(5 / 7, 6)}}
    assert {"truth": "red", "read": "green", "count": 1} in report["confusions"]
    assert {"truth": "empty", "read": "green", "count": 1} in report["confusions"]
    assert (
        report["ms_per_frame"]["mean"] > 0 and report["ms_per_frame"]["max"] >= report["ms_per_frame"]["p50"]
    )
    assert report["threads"] == 1 and report["meets_goals"] is False
    # The frame with a hand was not read (a warm-up read of the first frame comes on top of the four).
    assert squares.reads == 4 + 1


def test_eval_prints_json_and_a_summary(
    squares: scenes.SquaresRecogniser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _recording(tmp_path / "rec")
    assert main(["vision", "eval", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["item_accuracy"] == round(5 / 7, 6) and report["frames_entirely_right"] == 0.5
    assert main(["vision", "eval", str(folder)]) == 0
    summary = capsys.readouterr().out
    assert "items right: 5/7 = 71.43 %" in summary and "frames entirely right: 50.00 %" in summary
    assert main(["vision", "eval", str(tmp_path / "missing")]) == 1
    assert "no such recording" in capsys.readouterr().err


def test_the_recorded_reveal_sequence_is_read_entirely_right() -> None:
    report = evaluate(SEQUENCES / "reveal")
    assert (report["frames_read"], report["skipped"]) == (8, {"hand": 2})
    assert report["item_accuracy"] == 1.0 and report["frames_entirely_right"] == 1.0


def test_generate_writes_a_recording_with_ground_truth(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert main(["vision", "generate", "minotaurus", str(out), "--frames", "2", "--seed", "3"]) == 0
    recording = load_recording(out)
    assert recording.game == "minotaurus" and len(recording.frames) == 2
    assert all(f.labels for f in recording.frames)
    assert main(["vision", "generate", "chess", str(tmp_path / "x"), "--frames", "1"]) == 1


def test_item_kinds_group_the_ids() -> None:
    assert [item_kind(i) for i in ("cell:12", "row:2:square:3", "played:seat1", "horn:left", "x")] == [
        "cell",
        "row/square",
        "played",
        "horn",
        "x",
    ]


def test_bench_vision_prints_the_figures_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "vision", "minotaurus", "--frames", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hard"] is True and [r["game"] for r in report["results"]] == ["minotaurus"]
    result = report["results"][0]
    assert result["frames"] == 3 and 0.0 <= result["item_accuracy"] <= 1.0
    assert result["frames_read"] + sum(result["skipped"].values()) == 3
