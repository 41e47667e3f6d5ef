"""Makes the fixed-camera sequences the watcher, teach and calibration tests read (committed output).

A real table's camera does not move between frames and its light changes
little, so each sequence keeps one camera pose and one light, and varies only
what a real one varies: sensor noise, JPEG, a hand reaching in, the pieces.
Run from the repository root (it rewrites the folders beside this file):

    .venv/bin/python tests/vision/data/sequences/make.py
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy

from companion.vision.base import recogniser_for
from companion.vision.generate import FRAME_SIZE, camera, effects, render_plane
from companion.vision.recording import RecordingWriter

HERE = Path(__file__).parent
SEED = 7
QUALITY = 60
OPTIONS = {"players": 3}
REVEALED = 4
"""The position the reveal sequence turns over."""
PIECE = "blue-3-left"


def _frames(labels_list: list[tuple[dict[str, str], bool]], pose_seed: int, folder: Path) -> None:
    layout = recogniser_for("minotaurus").layout(OPTIONS)
    rng = numpy.random.default_rng(SEED)
    pose_rng = numpy.random.default_rng(pose_seed)
    # One table texture and one pose for the whole sequence: the same rng state draws the same table.
    tables: dict[str, camera.Table] = {}
    pose = None
    light = None
    if folder.exists():
        shutil.rmtree(folder)
    with RecordingWriter(
        folder, game="minotaurus", options=OPTIONS, extra={"sequence": folder.name}
    ) as writer:
        for n, (labels, hand) in enumerate(labels_list):
            key = repr(sorted(labels.items()))
            if key not in tables:
                plane = render_plane("minotaurus", labels, layout, numpy.random.default_rng(SEED))
                tables[key] = camera.lay_on_table(plane, layout, numpy.random.default_rng(SEED))
            table = tables[key]
            if pose is None:
                pose = camera.random_pose(table, pose_rng, hard=False, frame_size=FRAME_SIZE)
            image = camera.project(table, pose)
            if light is None:
                height, width = image.shape[:2]
                light = effects._uneven_light(width, height, numpy.random.default_rng(SEED), False)
            if hand:
                image = effects.hand(image, pose.plane_quad, numpy.random.default_rng(SEED + n))
            lit = image.astype(numpy.float32) * light[..., None]
            lit += rng.normal(0.0, 2.0, size=lit.shape).astype(numpy.float32)
            spoilt = numpy.clip(lit, 0, 255).astype(numpy.uint8)
            ok, jpeg = cv2.imencode(".jpg", spoilt, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
            assert ok
            decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            writer.add(decoded, n * 0.2, labels, hand=hand, encoded=jpeg.tobytes())


def main() -> None:
    layout = recogniser_for("minotaurus").layout(OPTIONS)
    down = {item: "down" for item in layout.items}
    shown: Mapping[str, str] = {**down, f"cell:{REVEALED}": PIECE}
    sequence = [(dict(down), False)] * 4 + [(dict(down), True)] * 2 + [(dict(shown), False)] * 4
    _frames(sequence, 11, HERE / "reveal")
    # The same table seen after the camera was bumped: another pose.
    _frames([(dict(down), False)] * 2, 12, HERE / "bumped")


if __name__ == "__main__":
    main()
