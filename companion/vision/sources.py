"""Frame sources behind one interface: the Pi camera, a webcam or video file, a recording.

A source hands out `TimedFrame`s until it ends (a recording or video played
through) and reports trouble as `SourceError`s: the watcher turns those into
a table status and keeps the game going with manual entry. picamera2 is
imported only when a Pi camera is opened, so every module imports anywhere.

`open_source(spec)` picks the source from a text: "picamera" (or "pi"),
a webcam number ("0"), a device path (/dev/video0), a video file, or a
recording (its folder or recording.json).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy

from companion.vision.base import Frame, VisionError
from companion.vision.recording import RecordedFrame, Recording, load_recording

DEFAULT_SIZE = (1280, 720)


class SourceError(VisionError):
    """The camera cannot be opened or has stopped giving frames."""


@dataclasses.dataclass(frozen=True)
class TimedFrame:
    image: Frame
    t: float
    """Seconds: since the source started (live sources) or the recording's own time."""
    truth: RecordedFrame | None = None
    """For a recording: its entry, with the ground-truth labels and hand/motion flags."""


class FrameSource(Protocol):
    """Where frames come from. `read` returns None when the source has ended (a recording played out)."""

    name: str

    def open(self) -> None: ...

    def read(self) -> TimedFrame | None: ...

    def close(self) -> None: ...


def frames(source: FrameSource) -> Iterator[TimedFrame]:
    """Open the source, yield its frames until it ends, and close it."""
    source.open()
    try:
        while (frame := source.read()) is not None:
            yield frame
    finally:
        source.close()


def _as_frame(image: Any, what: str) -> Frame:
    array = numpy.asarray(image)
    if array.ndim == 3 and array.shape[2] == 4:
        array = array[:, :, :3]  # picamera2's XBGR8888 keeps an unused fourth byte
    if array.dtype != numpy.uint8 or array.ndim != 3 or array.shape[2] != 3:
        raise SourceError(f"{what} gave a frame of shape {array.shape} {array.dtype}, not (H, W, 3) uint8")
    return numpy.ascontiguousarray(array)


# ---------------------------------------------------------------- the Pi camera


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (Raspberry Pi OS's python3-picamera2)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, *, camera_num: int = 0) -> None:
        self.size = size
        self.camera_num = camera_num
        self.name = f"picamera{camera_num}"
        self._camera: Any = None
        self._started = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found, unused-ignore]
        except ImportError as error:
            raise SourceError(
                "picamera2 is not installed: on the Pi install python3-picamera2 and make the venv "
                "with --system-site-packages; elsewhere use a webcam (--source 0)"
            ) from error
        try:
            camera = Picamera2(self.camera_num)
            # "RGB888" is B, G, R in memory: what OpenCV calls BGR.
            config = camera.create_video_configuration(main={"size": self.size, "format": "RGB888"})
            camera.configure(config)
            camera.start()
        except Exception as error:  # picamera2 raises RuntimeError, IndexError, OSError...
            raise SourceError(f"cannot start the Pi camera {self.camera_num}: {error}") from error
        self._camera, self._started = camera, time.monotonic()

    def read(self) -> TimedFrame | None:
        if self._camera is None:
            raise SourceError("the Pi camera is not open")
        try:
            image = self._camera.capture_array("main")
        except Exception as error:
            raise SourceError(f"the Pi camera stopped giving frames: {error}") from error
        return TimedFrame(_as_frame(image, "the Pi camera"), time.monotonic() - self._started)

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            try:
                camera.stop()
            finally:
                camera.close()


# ---------------------------------------------------------------- OpenCV capture


class CaptureSource:
    """A USB webcam (device number or path) or a video file, through cv2.VideoCapture."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = DEFAULT_SIZE) -> None:
        self.target = target
        self.live = isinstance(target, int) or str(target).startswith("/dev/")
        self.size = size if self.live else None
        self.name = f"webcam {target}" if self.live else f"video {target}"
        self._capture: Any = None
        self._started = 0.0
        self._fps = 0.0
        self._count = 0

    def open(self) -> None:
        import cv2

        capture = cv2.VideoCapture(self.target)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open the {self.name}")
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture, self._started, self._count = capture, time.monotonic(), 0
        self._fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)

    def read(self) -> TimedFrame | None:
        if self._capture is None:
            raise SourceError(f"the {self.name} is not open")
        ok, image = self._capture.read()
        if not ok or image is None:
            if self.live:
                raise SourceError(f"the {self.name} stopped giving frames (unplugged?)")
            return None  # the video has ended
        self._count += 1
        # A video file's own frame rate gives its time; a live camera's time is the clock's.
        live_time = self.live or self._fps <= 0
        t = time.monotonic() - self._started if live_time else (self._count - 1) / self._fps
        return TimedFrame(_as_frame(image, f"the {self.name}"), t)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


# ---------------------------------------------------------------- recordings


class RecordingSource:
    """A recording played back frame by frame, each with its ground truth.

    `pace` plays it at its recorded speed (for a demo table); by default frames
    come as fast as they are read. An unreadable frame image raises SourceError
    for that frame only; the next read goes on with the next frame.
    """

    def __init__(
        self,
        recording: Recording | str | Path,
        *,
        pace: bool = False,
        loop: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.recording = recording if isinstance(recording, Recording) else load_recording(recording)
        self.name = f"recording {self.recording.root}"
        self.pace = pace
        self.loop = loop
        self.sleep = sleep
        self._images: Iterator[tuple[RecordedFrame, Frame | None]] | None = None
        self._started = 0.0
        self._offset = 0.0

    def open(self) -> None:
        self._images = self.recording.images()
        self._started, self._offset = time.monotonic(), 0.0

    def read(self) -> TimedFrame | None:
        if self._images is None:
            raise SourceError(f"the {self.name} is not open")
        entry_image = next(self._images, None)
        if entry_image is None and self.loop and self.recording.frames:
            self._offset += self.recording.frames[-1].t + 0.1
            self._images = self.recording.images()
            entry_image = next(self._images, None)
        if entry_image is None:
            return None
        entry, image = entry_image
        t = entry.t + self._offset
        if self.pace:
            ahead = t - (time.monotonic() - self._started)
            if ahead > 0:
                self.sleep(ahead)
        if image is None:
            raise SourceError(f"frame {entry.file or entry.index} of the {self.name} cannot be read")
        return TimedFrame(image, t, entry)

    def close(self) -> None:
        self._images = None


class ListSource:
    """Frames held in memory (tests, and teach mode's single shots)."""

    def __init__(self, images: list[Frame | None], *, step: float = 0.1, name: str = "frames") -> None:
        self.images = images
        self.step = step
        self.name = name
        self._next = 0

    def open(self) -> None:
        self._next = 0

    def read(self) -> TimedFrame | None:
        if self._next >= len(self.images):
            return None
        n, self._next = self._next, self._next + 1
        image = self.images[n]
        if image is None:
            raise SourceError(f"frame {n} of the {self.name} cannot be read")
        return TimedFrame(image, n * self.step)

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- choosing


def open_source(spec: str, *, size: tuple[int, int] = DEFAULT_SIZE, pace: bool = False) -> FrameSource:
    """The source a command-line text names (not yet opened); SourceError if it names none."""
    text = spec.strip()
    if text in ("picamera", "pi", "picamera2"):
        return PiCameraSource(size)
    if text.isdigit():
        return CaptureSource(int(text), size)
    if text.startswith("/dev/"):
        return CaptureSource(text, size)
    path = Path(text)
    if path.is_dir() or path.suffix == ".json":
        return RecordingSource(path, pace=pace)
    if path.is_file():
        sidecars = (path.with_name(path.name + ".json"), path.with_suffix(".json"))
        if any(candidate.is_file() for candidate in sidecars):
            return RecordingSource(path, pace=pace)
        return CaptureSource(str(path), None)
    raise SourceError(
        f"no frame source {spec!r}: use picamera, a webcam number (0), a device (/dev/video0), "
        "a video file or a recording folder"
    )
