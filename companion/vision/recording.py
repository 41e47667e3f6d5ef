"""Recordings: camera frames with timestamps and, for tests, ground-truth labels.

The format (docs/vision-recordings.md describes it for anyone making one):
a folder with `recording.json` and the frame images, or a video file with
the same JSON naming it under "video" and each frame by its index:

    {"version": 1, "game": "minos", "options": {...},
     "camera": {"width": 1280, "height": 720},
     "setup": {"table": "dark-wood", "camera_height_mm": 450, "edition": "default", ...},
     "frames": [{"file": "000001.jpg", "t": 0.0, "labels": {"die:0": "Stern"} | null,
                 "hand": false, "motion": false, "reference": true}, ...]}

"setup" (what the session was recorded on, so results can be broken down by
table and edition) and a frame's "reference" (the empty play area, to learn
the table from, never scored) are optional: older recordings load unchanged.
`RecordingWriter` writes one (the generator and `companion vision record`
use it); `load_recording` reads and checks one; `save_recording` writes a
changed one back (the label page), checked first and replaced atomically.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
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


SETUP_TEXTS = ("table", "edition")
"""Setup keys that name something: the table kind ("dark-wood", "gingham", ...) and the pieces' edition."""
SETUP_MEASURES = {
    "camera_height_mm": (1.0, 5000.0),
    "camera_tilt_deg": (0.0, 90.0),
    "figure_height_mm": (0.0, 1000.0),
}
"""Setup keys that are measures, with the range a real table allows (tilt: 0 looks straight down)."""


def check_setup(setup: Any, where: str = "recording") -> dict[str, Any]:
    """The setup checked: each known key null or of its type and in range; other keys kept as they are."""
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise RecordingError(f'{where}: setup must be an object such as {{"table": "dark-wood"}}')
    for key in SETUP_TEXTS:
        value = setup.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise RecordingError(f'{where}: setup {key} must be a name such as "dark-wood", not {value!r}')
    for key, (low, high) in SETUP_MEASURES.items():
        value = setup.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise RecordingError(f"{where}: setup {key} must be a number, not {value!r}")
        if not low <= value <= high:
            raise RecordingError(f"{where}: setup {key} must lie between {low:g} and {high:g}, not {value!r}")
    return {str(key): value for key, value in setup.items()}


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
    reference: bool = False
    """The empty play area: the reader learns the table from it; it is never scored."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": round(self.t, 6)}
        if self.file is not None:
            data["file"] = self.file
        if self.index is not None:
            data["index"] = self.index
        data.update(labels=self.labels, hand=self.hand, motion=self.motion)
        if self.reference:
            data["reference"] = True  # written only when set, so older recordings are rewritten unchanged
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
    setup: dict[str, Any] = dataclasses.field(default_factory=dict)
    """What the session was recorded on: table, camera_height_mm, camera_tilt_deg, edition,
    figure_height_mm (each may be missing); empty for older recordings."""

    def to_json(self) -> dict[str, Any]:
        """The recording.json content (load_recording of it gives this recording back)."""
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": self.options,
            "camera": {"width": self.width, "height": self.height},
        }
        if self.video is not None:
            data["video"] = self.video
        if self.setup:
            data["setup"] = self.setup
        data.update(self.extra)
        data["frames"] = [frame.to_json() for frame in self.frames]
        return data

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
    setup = check_setup(data.get("setup"), where)
    frames = tuple(_frame(raw, n, video is not None, where) for n, raw in enumerate(raw_frames))
    known = {"version", "game", "options", "camera", "frames", "video", "setup"}
    extra = {k: v for k, v in data.items() if k not in known}
    return Recording(root, game, options, width, height, frames, video, extra, setup)


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
    flags = {name: raw.get(name, False) for name in ("hand", "motion", "reference")}
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise RecordingError(f"{what}: {name} must be true or false")
    _check_reference(flags["reference"], flags["hand"], flags["motion"], what)
    return RecordedFrame(
        float(t),
        file if not video else None,
        index if video else None,
        dict(labels) if labels is not None else None,
        flags["hand"],
        flags["motion"],
        flags["reference"],
    )


def _check_reference(reference: bool, hand: bool, motion: bool, what: str) -> None:
    # The reader takes a reference frame as the empty table: one with an arm in it would teach it the arm.
    if reference and (hand or motion):
        raise RecordingError(
            f"{what}: a reference frame shows the empty play area, so it cannot also be marked "
            f"{'hand' if hand else 'motion'}"
        )


def save_recording(recording: Recording | Mapping[str, Any], path: str | Path | None = None) -> Path:
    """Write a recording's JSON (a Recording, or its JSON as a mapping) to `path` (default: the
    recording's own recording.json), checked first by the loader and replaced atomically: a malformed
    recording raises RecordingError and leaves the file as it was."""
    if isinstance(recording, Recording):
        root, data = recording.root, recording.to_json()
        target = Path(path) if path is not None else root / INDEX_NAME
    else:
        if path is None:
            raise RecordingError("save_recording of a JSON mapping needs the path to write it to")
        target, data = Path(path), dict(recording)
        root = target.parent
    recording_from_json(json.loads(json.dumps(data)), root, where=str(target))
    text = json.dumps(data, indent=1) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=".recording-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


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
        setup: Mapping[str, Any] | None = None,
    ) -> None:
        if suffix not in IMAGE_SUFFIXES:
            raise RecordingError(f"frames are saved as one of {', '.join(IMAGE_SUFFIXES)}, not {suffix!r}")
        # Checked before the folder is made: a wrong setup must not leave half a recording behind.
        self.setup = check_setup(setup, "the recording's setup")
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
        reference: bool = False,
    ) -> RecordedFrame:
        """Save one frame (or its already encoded bytes, e.g. the generator's JPEG) with what it shows;
        `reference`: a frame of the empty play area, for the reader to learn the table from."""
        import cv2

        _check_reference(reference, hand, motion, f"frame {len(self.frames)}")
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
        entry = RecordedFrame(
            t, name, None, dict(labels) if labels is not None else None, hand, motion, reference
        )
        self.frames.append(entry)
        return entry

    def to_json(self) -> dict[str, Any]:
        width, height = self.size or (0, 0)
        return {
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": self.options,
            "camera": {"width": width, "height": height},
            **({"setup": self.setup} if self.setup else {}),
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
