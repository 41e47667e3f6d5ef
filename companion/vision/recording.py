"""Recordings: camera frames with timestamps and, for tests, ground-truth labels.

The format (docs/vision-recordings.md describes it for anyone making one):
a folder with `recording.json` and the frame images, or a video file with
the same JSON naming it under "video" and each frame by its index:

    {"version": 1, "game": "minos", "options": {...},
     "camera": {"width": 1280, "height": 720},
     "frames": [{"file": "000001.jpg", "t": 0.0, "labels": {"die:0": "Stern"} | null,
                 "hand": false, "motion": false}, ...]}

`RecordingWriter` writes one (the generator and `companion vision record`
use it); `load_recording` reads and checks one.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy

from companion.vision.base import Frame, VisionError

FORMAT_VERSION = 1
INDEX_NAME = "recording.json"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class RecordingError(VisionError):
    """A recording that is missing, malformed, or whose frames cannot be read."""


@dataclasses.dataclass(frozen=True)
class RecordedFrame:
    """One frame's entry: its image (a file in the folder, or an index into the video) and what it shows."""

    t: float
    file: str | None = None
    index: int | None = None
    labels: dict[str, str] | None = None
    """Ground truth: item id → label; None when nobody labelled the frame."""
    hand: bool = False
    """A hand (or anything else) covers part of the table: the watcher must skip the frame."""
    motion: bool = False
    """Something moves: the watcher must skip the frame."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": round(self.t, 6)}
        if self.file is not None:
            data["file"] = self.file
        if self.index is not None:
            data["index"] = self.index
        data.update(labels=self.labels, hand=self.hand, motion=self.motion)
        return data


@dataclasses.dataclass(frozen=True)
class Recording:
    root: Path
    """The folder the frame files (or the video) are relative to."""
    game: str | None
    options: dict[str, Any]
    width: int
    height: int
    frames: tuple[RecordedFrame, ...]
    video: str | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Other top-level keys (e.g. the generator's settings), kept as they were."""

    def images(self) -> Iterator[tuple[RecordedFrame, Frame | None]]:
        """Each entry with its image; None for an image that cannot be read (the caller decides)."""
        if self.video is None:
            import cv2

            for entry in self.frames:
                assert entry.file is not None
                image = cv2.imread(str(self.root / entry.file), cv2.IMREAD_COLOR)
                yield entry, (None if image is None else numpy.asarray(image, dtype=numpy.uint8))
            return
        yield from self._video_images()

    def _video_images(self) -> Iterator[tuple[RecordedFrame, Frame | None]]:
        import cv2

        assert self.video is not None
        capture = cv2.VideoCapture(str(self.root / self.video))
        if not capture.isOpened():
            raise RecordingError(f"cannot open the recording's video {self.root / self.video}")
        try:
            position = 0
            for entry in self.frames:
                assert entry.index is not None
                image = None
                while position <= entry.index:
                    ok, image = capture.read()
                    position += 1
                    if not ok:
                        image = None
                        break
                yield entry, (None if image is None else numpy.asarray(image, dtype=numpy.uint8))
        finally:
            capture.release()


def _index_path(path: Path) -> Path:
    if path.is_dir():
        return path / INDEX_NAME
    if path.suffix == ".json":
        return path
    # A video: its JSON sits beside it as <video>.json, <stem>.json or recording.json.
    candidates = (path.with_name(path.name + ".json"), path.with_suffix(".json"), path.parent / INDEX_NAME)
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise RecordingError(f"{path}: no recording JSON beside the video (expected {path.name}.json)")


def load_recording(path: str | Path) -> Recording:
    """Read a recording: its folder, its recording.json, or its video file (with the JSON beside it)."""
    path = Path(path)
    if not path.exists():
        raise RecordingError(f"{path}: no such recording")
    index = _index_path(path)
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise RecordingError(f"{index}: cannot read the recording: {error}") from error
    return recording_from_json(data, index.parent, where=str(index))


def recording_from_json(data: Any, root: Path, *, where: str = "recording") -> Recording:
    if not isinstance(data, dict):
        raise RecordingError(f"{where}: the recording must be a JSON object")
    if data.get("version") != FORMAT_VERSION:
        raise RecordingError(f"{where}: version {data.get('version')!r} is not {FORMAT_VERSION}")
    video = data.get("video")
    if video is not None and not isinstance(video, str):
        raise RecordingError(f"{where}: video must be a file name")
    camera = data.get("camera")
    if not isinstance(camera, dict):
        raise RecordingError(f"{where}: camera must be {{'width': ..., 'height': ...}}")
    width, height = camera.get("width"), camera.get("height")
    if not isinstance(width, int) or not isinstance(height, int) or width < 1 or height < 1:
        raise RecordingError(f"{where}: camera width and height must be positive whole numbers")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordingError(f"{where}: options must be an object")
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise RecordingError(f"{where}: game must be a game's name")
    raw_frames = data.get("frames")
    if not isinstance(raw_frames, list):
        raise RecordingError(f"{where}: frames must be a list")
    frames = tuple(_frame(raw, n, video is not None, where) for n, raw in enumerate(raw_frames))
    known = {"version", "game", "options", "camera", "frames", "video"}
    extra = {k: v for k, v in data.items() if k not in known}
    return Recording(root, game, options, width, height, frames, video, extra)


def _frame(raw: Any, n: int, video: bool, where: str) -> RecordedFrame:
    what = f"{where}: frame {n}"
    if not isinstance(raw, dict):
        raise RecordingError(f"{what} must be an object")
    t = raw.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise RecordingError(f"{what}: t must be a time in seconds")
    file, index = raw.get("file"), raw.get("index")
    if video:
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise RecordingError(f"{what}: a video recording's frame needs its index (0, 1, ...)")
    elif not isinstance(file, str) or not file or Path(file).is_absolute() or ".." in Path(file).parts:
        raise RecordingError(f"{what}: file must name an image inside the recording's folder")
    labels = raw.get("labels")
    if labels is not None and (
        not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values())
    ):
        raise RecordingError(f"{what}: labels must map item ids to label texts, or be null")
    flags = {name: raw.get(name, False) for name in ("hand", "motion")}
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise RecordingError(f"{what}: {name} must be true or false")
    return RecordedFrame(
        float(t),
        file if not video else None,
        index if video else None,
        dict(labels) if labels is not None else None,
        flags["hand"],
        flags["motion"],
    )


class RecordingWriter:
    """Writes a folder recording frame by frame; `close` writes recording.json (use as a context)."""

    def __init__(
        self,
        folder: str | Path,
        *,
        game: str | None,
        options: Mapping[str, Any] | None = None,
        suffix: str = ".jpg",
        jpeg_quality: int = 90,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        if suffix not in IMAGE_SUFFIXES:
            raise RecordingError(f"frames are saved as one of {', '.join(IMAGE_SUFFIXES)}, not {suffix!r}")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        if (self.folder / INDEX_NAME).exists():
            raise RecordingError(f"{self.folder} holds a recording already: choose an empty folder")
        self.game = game
        self.options = dict(options or {})
        self.suffix = suffix
        self.jpeg_quality = jpeg_quality
        self.extra = dict(extra or {})
        self.frames: list[RecordedFrame] = []
        self.size: tuple[int, int] | None = None

    def add(
        self,
        image: Frame,
        t: float,
        labels: Mapping[str, str] | None = None,
        *,
        hand: bool = False,
        motion: bool = False,
        encoded: bytes | None = None,
    ) -> RecordedFrame:
        """Save one frame (or its already encoded bytes, e.g. the generator's JPEG) with what it shows."""
        import cv2

        height, width = image.shape[:2]
        if self.size is None:
            self.size = (width, height)
        elif self.size != (width, height):
            raise RecordingError(f"frame of {width}x{height} in a recording of {self.size[0]}x{self.size[1]}")
        name = f"{len(self.frames) + 1:06d}{self.suffix}"
        if encoded is None:
            params = [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality] if self.suffix in (".jpg", ".jpeg") else []
            ok, buffer = cv2.imencode(self.suffix, image, params)
            if not ok:
                raise RecordingError(f"cannot encode frame {name}")
            encoded = buffer.tobytes()
        (self.folder / name).write_bytes(encoded)
        entry = RecordedFrame(t, name, None, dict(labels) if labels is not None else None, hand, motion)
        self.frames.append(entry)
        return entry

    def to_json(self) -> dict[str, Any]:
        width, height = self.size or (0, 0)
        return {
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": self.options,
            "camera": {"width": width, "height": height},
            **self.extra,
            "frames": [f.to_json() for f in self.frames],
        }

    def close(self) -> Path:
        if self.size is None:
            raise RecordingError(f"{self.folder}: no frame was recorded")
        path = self.folder / INDEX_NAME
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if error is None or self.frames:
            self.close()
