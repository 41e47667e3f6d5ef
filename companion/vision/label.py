"""`companion vision label RECORDING`: label a recorded session on a local web page, no JSON by hand.

The page shows each frame with the game's layout drawn where the companion looks (each item's region
carried from the plane back into the frame through the homography the markers give), a choice per item
from the game's labels, prefilled with what the recogniser reads so the user only corrects, and the
frame's hand / motion / reference marks. Each save rewrites recording.json through `save_recording`: the
loader checks it first and the file is replaced atomically, so a malformed save changes nothing.

    GET  /                          the page
    GET  /api/recording             game, setup, items, labels per item kind, every frame's entry
    GET  /api/frames/<n>            the frame's regions in frame pixels and the recogniser's reading
    GET  /api/frames/<n>/image      the frame as JPEG
    POST /api/frames/<n>            {"labels": {...} | null, "hand", "motion", "reference"}: saved
    POST /api/setup                 {"table", "edition", "camera_height_mm", ...}: saved
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import numpy

from companion.vision.base import Frame, Layout, VisionError
from companion.vision.calibration import Homography
from companion.vision.evaluate import item_kind
from companion.vision.overlay import project_layout
from companion.vision.pipeline import PlaneReader
from companion.vision.recording import (
    RecordedFrame,
    Recording,
    RecordingError,
    check_setup,
    load_recording,
    save_recording,
)
from companion.vision.vocabulary import Vocabulary, vocabulary_for

JPEG_QUALITY = 90
FLAGS = ("hand", "motion", "reference")


class LabelError(VisionError):
    """A label, frame or change the label page cannot take (the message says which and why)."""


def regions_in_frame(layout: Layout, homography: Homography, frame_size: tuple[int, int]) -> dict[str, Any]:
    """Every item's region as four corners in frame pixels, on the plane the recogniser reads (the setup
    page's projection: a raised layout, the toss figure's head, is drawn at its height)."""
    outlines = project_layout(layout, homography, frame_size)
    return {
        item: [[round(float(x), 1), round(float(y), 1)] for x, y in quad] for item, quad in outlines.items()
    }


class LabelSession:
    """One recording being labelled: its entries, the reader that prefills, and the saves."""

    def __init__(self, path: str | Path) -> None:
        self.recording = load_recording(path)
        self.index_path = self._index_path(Path(path))
        if self.recording.game is None:
            raise LabelError(
                f"{path}: the recording names no game, so there is nothing to label: record it with --game"
            )
        self.reader = PlaneReader(self.recording.game, self.recording.options)
        self.layout = self.reader.layout
        self._lock = threading.Lock()
        self._views: dict[int, dict[str, Any]] = {}
        self._read_labels: list[tuple[str, str]] = []
        self._learn_references()
        self.vocabulary = self._vocabulary()

    def _index_path(self, given: Path) -> Path:
        if given.is_dir():
            return given / "recording.json"
        if given.suffix == ".json":
            return given
        # A video: its JSON is the one the loader found beside it.
        for candidate in (given.with_name(given.name + ".json"), given.with_suffix(".json")):
            if candidate.exists():
                return candidate
        return given.parent / "recording.json"

    def _learn_references(self) -> None:
        """Read as the table would: the empty area first, where the reader can learn it."""
        empty = [self.image(n) for n, entry in enumerate(self.recording.frames) if entry.reference]
        if empty:
            self.reader.learn_reference(empty)  # all of them at once: the reader takes their median

    def _vocabulary(self) -> Vocabulary:
        """The game's labels, with every label the recording's frames and the readings so far use."""
        used = [
            (item, label) for entry in self.recording.frames for item, label in (entry.labels or {}).items()
        ]
        return vocabulary_for(self.recording.game, self.layout.items, [*used, *self._read_labels])

    # ------------------------------------------------------------ reading

    def _entry(self, n: int) -> RecordedFrame:
        if not 0 <= n < len(self.recording.frames):
            raise LabelError(f"no frame {n}: the recording has frames 0 to {len(self.recording.frames) - 1}")
        return self.recording.frames[n]

    def image(self, n: int) -> Frame:
        import cv2

        entry = self._entry(n)
        image: Any = None
        if entry.file is not None:
            image = cv2.imread(str(self.recording.root / entry.file), cv2.IMREAD_COLOR)
        elif self.recording.video is not None and entry.index is not None:
            capture = cv2.VideoCapture(str(self.recording.root / self.recording.video))
            try:
                capture.set(cv2.CAP_PROP_POS_FRAMES, entry.index)
                ok, image = capture.read()
                image = image if ok else None
            finally:
                capture.release()
        if image is None:
            raise LabelError(f"frame {n} ({entry.file or entry.index}) cannot be read")
        return numpy.asarray(image, dtype=numpy.uint8)

    def jpeg(self, n: int) -> bytes:
        import cv2

        ok, buffer = cv2.imencode(".jpg", self.image(n), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise LabelError(f"frame {n} cannot be encoded")
        return bytes(buffer.tobytes())

    def frame_view(self, n: int) -> dict[str, Any]:
        """Where the layout lies in frame n and what the recogniser reads there (kept once computed)."""
        with self._lock:
            entry = self._entry(n)
            if n not in self._views:
                self._views[n] = self._look(n)
                # A game without a vocabulary of its own offers what its recogniser reads, too.
                self._read_labels.extend((self._views[n]["reading"] or {}).items())
                self.vocabulary = self._vocabulary()
            view = dict(self._views[n])
            vocabulary = {kind: list(labels) for kind, labels in self.vocabulary.items()}
        read = view["reading"] or {}
        # Prefilled: the saved labels where there are some, else the reading, so the user only corrects.
        labels = entry.labels if entry.labels is not None else read
        return {
            **view,
            "n": n,
            "entry": entry.to_json(),
            "labels": labels,
            "prefilled": entry.labels is None,
            "vocabulary": vocabulary,
        }

    def _look(self, n: int) -> dict[str, Any]:
        image = self.image(n)
        result = self.reader.read(image)
        homography = self.reader.calibrator.homography
        size = (image.shape[1], image.shape[0])
        return {
            "regions": None if homography is None else regions_in_frame(self.layout, homography, size),
            "markers": list(result.calibration.markers),
            "message": result.calibration.message,
            "reading": result.reading.items if result.reading is not None else None,
            "hand_seen": result.hand,
            "refused": result.refused,
        }

    def summary(self) -> dict[str, Any]:
        recording = self.recording
        return {
            "path": str(self.index_path),
            "game": recording.game,
            "options": recording.options,
            "setup": recording.setup,
            "frame_size": {"width": recording.width, "height": recording.height},
            # A list: a JSON object's keys come sorted (cell:10 before cell:2); the layout's order reads.
            "items": [[item, item_kind(item)] for item in self.layout.items],
            "vocabulary": {kind: list(labels) for kind, labels in self.vocabulary.items()},
            "frames": [entry.to_json() for entry in recording.frames],
        }

    # ------------------------------------------------------------ saving

    def save_frame(self, n: int, change: Any) -> dict[str, Any]:
        """Set frame n's labels and marks from the page's JSON and save (if wrong: LabelError, no save)."""
        if not isinstance(change, dict):
            raise LabelError('a frame\'s change must be {"labels": {...}, "hand": ..., ...}')
        with self._lock:
            entry = self._entry(n)
            labels = self._checked_labels(change.get("labels", entry.labels), entry, n)
            flags = {name: change.get(name, getattr(entry, name)) for name in FLAGS}
            for name, value in flags.items():
                if not isinstance(value, bool):
                    raise LabelError(f"frame {n}: {name} must be true or false, not {value!r}")
            changed = dataclasses.replace(entry, labels=labels, **flags)
            frames = (*self.recording.frames[:n], changed, *self.recording.frames[n + 1 :])
            self._save(dataclasses.replace(self.recording, frames=frames))
            if changed.reference != entry.reference:
                # Another view of the empty area: every reading so far was made against the old one.
                self.reader.forget_reference()
                self._learn_references()
                self._views.clear()
        return self.frame_view(n)

    def save_setup(self, change: Any) -> dict[str, Any]:
        """Replace the recording's setup (keys with null or "" are dropped) and save."""
        if not isinstance(change, dict):
            raise LabelError('the setup must be an object such as {"table": "dark-wood"}')
        kept = {key: value for key, value in change.items() if value is not None and value != ""}
        with self._lock:
            setup = check_setup(kept, "the setup")
            self._save(dataclasses.replace(self.recording, setup=setup))
        return self.summary()

    def _checked_labels(self, labels: Any, entry: RecordedFrame, n: int) -> dict[str, str] | None:
        if labels is None:
            return None
        if not isinstance(labels, dict):
            raise LabelError(f"frame {n}: labels must map item ids to labels, or be null")
        for item, label in labels.items():
            kind = item_kind(str(item))
            allowed = self.vocabulary.get(kind, ())
            # An item the frame was labelled with already stays allowed (a recording of other options).
            if item not in self.layout.items and item not in (entry.labels or {}):
                raise LabelError(f"frame {n}: {item!r} is not an item of the {self.recording.game} layout")
            if label not in allowed:
                raise LabelError(
                    f"frame {n}: {label!r} is not a label for {item} (a {kind} is one of "
                    f"{', '.join(allowed[:12])}{', ...' if len(allowed) > 12 else ''})"
                )
        return {str(item): str(label) for item, label in labels.items()}

    def _save(self, recording: Recording) -> None:
        try:
            save_recording(recording, self.index_path)
        except RecordingError as error:
            raise LabelError(str(error)) from error
        self.recording = recording


def create_label_app(path: str | Path) -> Any:
    """The label page's Flask app for one recording (templates and script beside this module)."""
    from flask import Flask, Response, jsonify, render_template, request

    session = LabelSession(path)
    app = Flask(
        __name__, template_folder="label_templates", static_folder="label_static", static_url_path="/static"
    )
    app.extensions["companion.label"] = session

    @app.errorhandler(VisionError)
    def refused(error: VisionError) -> Any:
        return jsonify(error=str(error)), 400

    @app.get("/")
    def page() -> Any:
        return render_template("label.html", game=session.recording.game, path=str(session.index_path))

    @app.get("/api/recording")
    def recording() -> Any:
        return jsonify(session.summary())

    @app.get("/api/frames/<int:n>")
    def frame(n: int) -> Any:
        return jsonify(session.frame_view(n))

    @app.get("/api/frames/<int:n>/image")
    def image(n: int) -> Any:
        return Response(session.jpeg(n), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/api/frames/<int:n>")
    def save(n: int) -> Any:
        return jsonify(session.save_frame(n, request.get_json(silent=True)))

    @app.post("/api/setup")
    def setup() -> Any:
        return jsonify(session.save_setup(request.get_json(silent=True)))

    return app


def serve_label(path: str | Path, host: str, port: int) -> None:
    """Serve the label page under the project's production WSGI server until interrupted."""
    from companion.web.server import bound_port, make_server

    app = create_label_app(path)
    server = make_server(app, host, port)
    print(f"Label {path} at http://{host}:{bound_port(server, port)}/ (Ctrl+C to stop)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
