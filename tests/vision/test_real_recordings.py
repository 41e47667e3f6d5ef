"""Recorded real sessions (tests/vision/data/real/*/recording.json, labelled on the label page) read through
the whole pipeline and held to the camera's goals: real tables join the tests as soon as one is recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision.benchmark import HARD_GOALS
from companion.vision.evaluate import evaluate
from companion.vision.recording import load_recording

REAL = Path(__file__).parent / "data" / "real"
SESSIONS = sorted(index.parent for index in REAL.glob("*/recording.json"))


@pytest.mark.parametrize("folder", SESSIONS, ids=[folder.name for folder in SESSIONS])
def test_a_real_session_is_read_as_labelled(folder: Path) -> None:
    recording = load_recording(folder)
    assert recording.game is not None, f"{folder.name}: name the game (companion vision record --game)"
    assert recording.setup.get("table"), f"{folder.name}: say the table's kind (--table, or the label page)"
    report = evaluate(recording)
    assert report["items"]["total"], f"{folder.name}: no frame is labelled (companion vision label)"
    assert report["item_accuracy"] >= HARD_GOALS["item_accuracy"], report["confusions"]
    if report["hand_frames"]:
        assert report["hand_frames_refused"] >= HARD_GOALS["hand_frames_refused"]
