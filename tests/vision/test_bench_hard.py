"""`companion bench vision --hard`: the figures over a hard set's sessions, per table kind, and an edition
taught on one table read on the others. The hard set here is a small world of this test's own (a lamp per
table, two editions' colours, arms reaching in) read by the toy squares recogniser, so the bench's
arithmetic is checked against evaluations made independently, recording by recording."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy
import pytest

from companion.cli import main
from companion.vision import base, benchmark, teach
from companion.vision.base import (
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    Frame,
    Layout,
    Profile,
    Reading,
)
from companion.vision.benchmark import HARD_GOALS, bench_vision_hard, hard_summary
from companion.vision.calibration import render_marker
from companion.vision.evaluate import evaluate
from companion.vision.lessons import teach_from_recording
from companion.vision.recording import RecordingWriter, load_recording
from companion.vision.teach import TeachStep

from . import scenes
from .test_recording_setup import with_arm

EDITION_COLOURS = {
    "default": scenes.COLOURS,
    # Paler pieces: the built-in prototypes take them for the empty table until the edition is taught.
    "pastel": {"red": (150, 150, 235), "green": (150, 215, 150), "empty": (200, 200, 200)},
}
LAMP = {"linen": 1.0, "oak": 0.95, "dark-wood": 0.55}
"""Light reaching the play area on each table (a dim lamp over the dark wood)."""
TABLE_COLOUR = {"linen": (190, 200, 205), "oak": (90, 140, 180), "dark-wood": (30, 45, 60)}
SESSIONS = [("linen", "default"), ("dark-wood", "default"), ("linen", "pastel"), ("oak", "pastel")]


def _frame(labels: Mapping[str, str], table: str, edition: str, rng: numpy.random.Generator) -> Any:
    layout = scenes.layout()
    width, height = layout.plane_size_px()
    plane = numpy.full((height, width, 3), EDITION_COLOURS[edition]["empty"], numpy.float32)
    for item, label in labels.items():
        x0, y0, x1, y1 = layout.items[item].box_px()
        cv2.rectangle(plane, (x0 + 10, y0 + 10), (x1 - 10, y1 - 10), EDITION_COLOURS[edition][label], -1)
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    origins = [(0, 0), (width - side, 0), (width - side, height - side), (0, height - side)]
    for marker_id, (x, y) in zip(CORNER_MARKER_IDS, origins, strict=True):
        plane[y : y + side, x : x + side] = render_marker(marker_id, side)[:, :, None]
    plane *= LAMP[table]
    corners = numpy.float32([[0, 0], [width, 0], [width, height], [0, height]])
    homography = cv2.getPerspectiveTransform(corners, scenes.CAMERA_QUAD)
    image = cv2.warpPerspective(plane, homography, scenes.FRAME_SIZE, borderValue=TABLE_COLOUR[table])
    return numpy.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(numpy.uint8)


def fake_session(game: str, folder: Path, table: str, edition: str, frames: int, seed: int) -> Path:
    """An empty-area frame, then play frames, every third with an arm."""
    rng = numpy.random.default_rng(seed)
    setup = {"table": table, "edition": edition, "camera_height_mm": 450.0}
    with RecordingWriter(folder, game=game, setup=setup, suffix=".png") as writer:
        empty = dict.fromkeys(scenes.SPOTS, "empty")
        writer.add(_frame(empty, table, edition, rng), 0.0, empty, reference=True)
        for f in range(1, frames):
            labels = {item: str(rng.choice(["red", "green", "empty"])) for item in scenes.SPOTS}
            image = _frame(labels, table, edition, rng)
            hand = f % 3 == 0
            if hand:
                image = with_arm(image, over_the_area=True)
            writer.add(image, f * 0.2, None if hand else labels, hand=hand)
    return folder


def fake_hard_set(game: str, out_root: Path, sessions: int, frames: int, seed: int) -> list[Path]:
    """One recording per session, the tables and editions of SESSIONS in turn."""
    return [
        fake_session(
            game, out_root / f"session-{n:02d}", *SESSIONS[n % len(SESSIONS)], frames, seed * 1000 + n
        )
        for n in range(sessions)
    ]


class TableSquares(scenes.SquaresRecogniser):
    """The squares recogniser, but a spot is empty when it looks like the table around it (the plane's
    median: mostly table), so it reads raw planes and planes normalised against the empty area alike."""

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        self.reads += 1
        table = [float(c) for c in numpy.median(plane.reshape(-1, 3), axis=0)]
        prototypes: dict[str, list[list[float]]] = {
            "red": [list(map(float, scenes.COLOURS["red"]))],
            "green": [list(map(float, scenes.COLOURS["green"]))],
            "empty": [table],
        }
        for label, taught in (profile.colours if profile is not None else {}).items():
            prototypes[label] = [*prototypes.get(label, []), *taught]
        items = {}
        for item in layout.items:
            mean = layout.crop(plane, item).reshape(-1, 3).mean(axis=0)
            items[item] = min(
                prototypes,
                key=lambda label: min(
                    float(numpy.linalg.norm(mean - numpy.array(p))) for p in prototypes[label]
                ),
            )
        return Reading(items, dict.fromkeys(items, 1.0))


@pytest.fixture
def squares(monkeypatch: pytest.MonkeyPatch) -> scenes.SquaresRecogniser:
    recogniser = TableSquares()
    monkeypatch.setattr(base, "_INSTANCES", {})
    monkeypatch.setitem(base._FACTORIES, "squares", lambda: recogniser)
    return recogniser


def test_the_figures_add_up_the_sessions_by_table(squares: scenes.SquaresRecogniser, tmp_path: Path) -> None:
    report = bench_vision_hard(["squares"], 4, 7, seed=3, make_hard_set=fake_hard_set)
    assert report["goals"] == HARD_GOALS and report["seed"] == 3
    [result] = report["results"]
    # The same sessions again, evaluated one by one: the bench's sums must be theirs.
    reports = [evaluate(folder) for folder in fake_hard_set("squares", tmp_path, 4, 7, 3)]
    by_table: dict[str, list[dict[str, Any]]] = {}
    for one in reports:
        by_table.setdefault(one["table"], []).append(one)
    assert set(result["by_table"]) == {"linen", "dark-wood", "oak"}
    for table, figures in result["by_table"].items():
        items = sum(one["items"]["total"] for one in by_table[table])
        right = sum(one["items"]["right"] for one in by_table[table])
        assert figures["items"] == {"total": items, "right": right}
        assert figures["frames"]["read"] == sum(one["frames_read"] for one in by_table[table])
        assert figures["sessions"] == len(by_table[table])
    # Tables differ (the untaught pale edition on the oak and half the linen), so a breakdown that mixed
    # them up would not match.
    assert len({figures["item_accuracy"] for figures in result["by_table"].values()}) > 1
    assert result["items"]["total"] == sum(one["items"]["total"] for one in reports)
    assert result["item_accuracy"] == round(
        sum(one["items"]["right"] for one in reports) / result["items"]["total"], 6
    )
    # Every third play frame has an arm over the area, and the reference frames are never scored.
    assert result["hand_frames"] == 4 * 2 and result["frames"]["read"] == 4 * 4
    assert result["hand_frames_refused"] == 1.0
    assert result["cpu_ms_per_frame"]["mean"] > 0 and result["cpu_ms_per_frame"]["frame_sizes"] == [
        "1280x720"
    ]


def test_an_edition_taught_on_one_table_is_read_on_the_others(
    squares: scenes.SquaresRecogniser,
) -> None:
    [result] = bench_vision_hard(["squares"], 4, 7, seed=5, make_hard_set=fake_hard_set)["results"]
    [taught] = result["editions_taught_on_one_table"]
    assert (taught["edition"], taught["taught_on"], list(taught["by_table"])) == ("pastel", "linen", ["oak"])
    # The toy game has no teach plan: one lesson per label the linen session shows, every one found.
    assert (taught["lessons"], taught["lessons_missing"]) == (3, [])
    # Untaught, the pale pieces read as empty; taught on the linen, they read on the oak too.
    assert taught["item_accuracy"] == 1.0 and taught["untaught_item_accuracy"] < 0.8
    assert taught["items"]["total"] == 8


def test_without_an_edition_on_two_tables_there_is_no_taught_figure(
    squares: scenes.SquaresRecogniser,
) -> None:
    [result] = bench_vision_hard(["squares"], 2, 4, seed=1, make_hard_set=fake_hard_set)["results"]
    assert result["editions_taught_on_one_table"] == []
    summary = hard_summary({**bench_vision_hard(["squares"], 2, 4, 1, make_hard_set=fake_hard_set)})
    assert "no other edition on two tables" in summary and "linen: items 100.00 %" in summary


def test_bench_vision_hard_on_the_command_line(
    squares: scenes.SquaresRecogniser, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(benchmark, "generated_hard_set", fake_hard_set)
    sittings: list[str] = []

    def sitting(game: str, out_dir: Path, table: str, edition: str, seed: int) -> Path:
        sittings.append(table)
        return fake_session(game, out_dir, table, edition, 7, seed)

    monkeypatch.setattr(benchmark, "generated_teaching_session", sitting)
    arguments = ["bench", "vision", "--hard", "--games", "squares", "--sessions", "4", "--frames", "4"]
    assert main([*arguments, "--json", "--seed", "9"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert (report["seed"], report["sessions"], report["frames_per_session"]) == (9, 4, 4)
    # The progress bar (on stderr, a plain line per tenth here) counted every frame read.
    assert "squares: generating 4 sessions" in captured.err
    done, total = captured.err.strip().splitlines()[-1].split("(")[-1].rstrip(")").split("/")
    assert done == total and int(total) >= 4 * 4, "every frame generated and read moved the bar to its end"
    [result] = report["results"]
    assert result["game"] == "squares" and result["sessions"] == 4
    assert main(arguments) == 0
    printed = capsys.readouterr().out
    assert "hand frames refused 100.00 %" in printed and "goal 99.50 %" in printed
    assert (
        "edition pastel taught on linen, read on the other tables" in printed and "3 of 3 lessons" in printed
    )
    # The generator's hard set comes with the generator's teaching sittings: one per run here.
    assert sittings == ["linen", "linen"]


def test_lessons_follow_the_teach_plan_and_a_lesson_no_frame_shows_is_reported_missing(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = [
        TeachStep("Lay a red square.", {"spot:1": "red"}),
        TeachStep("Lay a purple one.", {"spot:0": "purple"}),
    ]
    monkeypatch.setitem(teach.PLANS, "squares", lambda layout, options: plan)
    [folder] = fake_hard_set("squares", tmp_path, 1, 7, seed=5)
    taught = teach_from_recording(load_recording(folder), "travel")
    assert (taught.lessons, taught.missing) == (2, ("purple",))
    # One shot for the red lesson, taught from the frame's plane with that one item's label only.
    assert taught.profile.shots == 1 and set(taught.profile.colours) == {"red"}
    assert (taught.profile.game, taught.profile.edition) == ("squares", "travel")


def test_a_shot_the_recogniser_refuses_is_taken_from_a_later_frame_or_missing(
    squares: scenes.SquaresRecogniser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    teach_shot = squares.teach
    refused: list[str] = []

    def fussy(plane: Any, layout: Any, labels: Mapping[str, str], profile: Any) -> Any:
        if "green" in labels.values():
            refused.append("green")
            raise base.VisionError("no green today")
        return teach_shot(plane, layout, labels, profile)

    monkeypatch.setattr(squares, "teach", fussy)
    [folder] = fake_hard_set("squares", tmp_path, 1, 7, seed=5)
    taught = teach_from_recording(load_recording(folder), "travel")
    assert taught.missing == ("green",) and len(refused) >= 2  # tried again on each frame showing green
    assert "green" not in taught.profile.colours and {"red", "empty"} <= set(taught.profile.colours)


def test_an_edition_is_taught_from_a_sitting_of_its_own_when_the_world_can_make_one(
    squares: scenes.SquaresRecogniser,
) -> None:
    asked: list[tuple[str, str, int]] = []

    def sitting(game: str, out_dir: Path, table: str, edition: str, seed: int) -> Path:
        asked.append((table, edition, seed))
        return fake_session(game, out_dir, table, edition, 10, seed)

    report = bench_vision_hard(
        ["squares"], 4, 4, 2, make_hard_set=fake_hard_set, make_teaching_session=sitting
    )
    [taught] = report["results"][0]["editions_taught_on_one_table"]
    # Taught at the linen (the first of the edition's tables) from a sitting clear of the set's seeds.
    assert asked == [("linen", "pastel", 2 * 1000 + 901)]
    assert (taught["taught_from"], taught["teaching_frames"]) == ("a teaching sitting", 10)
    assert taught["item_accuracy"] == 1.0 and list(taught["by_table"]) == ["oak"]
