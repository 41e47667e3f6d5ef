"""The vision contract: frames, layouts, readings, profiles and the recogniser interface.

Every camera-side module speaks these types. A frame is a plain numpy array
(H, W, 3) uint8 in BGR order, as picamera2 and OpenCV deliver it. Four ArUco
markers (DICT_4X4_50, ids 0-3 at the top-left, top-right, bottom-right and
bottom-left corners of the play area) give the homography from the camera
frame to a canonical top-down image of the play area, the *plane*, drawn at
`PLANE_PX_PER_MM` pixels per millimetre. Each game declares where its items
lie in that plane (a `Layout`), and its `Recogniser` turns a plane into a
`Reading`: item id → label, with a confidence per item.

What a recogniser learns from the user's shots (teach mode) is a `Profile`,
one per game and edition, saved as JSON under var/vision/profiles/.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy
import numpy.typing

Frame = numpy.typing.NDArray[numpy.uint8]
"""A BGR image, shape (H, W, 3), dtype uint8 (a camera frame or a plane)."""

PLANE_PX_PER_MM = 2.0
"""Resolution of the canonical top-down plane."""

ARUCO_DICTIONARY = "DICT_4X4_50"
"""The cv2.aruco predefined dictionary of the table markers."""

CORNER_MARKER_IDS: tuple[int, int, int, int] = (0, 1, 2, 3)
"""Marker ids at the plane's top-left, top-right, bottom-right and bottom-left corners."""

MARKER_SIDE_MM = 30.0
"""Side of each printed marker's black square (the ArUco marker including its black border).

Each marker lies inside the plane at its corner, its outer edges along the plane's edges, so its
centre is at (MARKER_SIDE_MM / 2, MARKER_SIDE_MM / 2) in from that corner; items keep clear of these
corner squares. The homography is fitted to the markers' centres, so a marker stuck on slightly
turned still calibrates right.
"""


def marker_centres_mm(plane_mm: tuple[float, float]) -> dict[int, tuple[float, float]]:
    """Where each corner marker's centre lies in the plane, by marker id."""
    width, height = plane_mm
    inset = MARKER_SIDE_MM / 2
    top_left, top_right, bottom_right, bottom_left = CORNER_MARKER_IDS
    return {
        top_left: (inset, inset),
        top_right: (width - inset, inset),
        bottom_right: (width - inset, height - inset),
        bottom_left: (inset, height - inset),
    }


class VisionError(ValueError):
    """Base of every error the vision side raises for bad input."""


class ProfileError(VisionError):
    """A profile file that is missing, unreadable or for another game."""


class UnknownGameError(VisionError):
    """No recogniser is registered for the game."""


# ---------------------------------------------------------------- layout


@dataclasses.dataclass(frozen=True)
class ItemRegion:
    """Where one item lies in the plane: its centre and size in millimetres.

    `rotation_deg` turns the region counter-clockwise about its centre (as seen
    in the top-down plane, x to the right, y downwards).
    """

    centre_mm: tuple[float, float]
    size_mm: tuple[float, float]
    rotation_deg: float = 0.0

    def centre_px(self) -> tuple[float, float]:
        return (self.centre_mm[0] * PLANE_PX_PER_MM, self.centre_mm[1] * PLANE_PX_PER_MM)

    def box_px(self) -> tuple[int, int, int, int]:
        """The axis-aligned pixel box (x0, y0, x1, y1) around the region, ignoring rotation."""
        cx, cy = self.centre_px()
        half_w = self.size_mm[0] * PLANE_PX_PER_MM / 2
        half_h = self.size_mm[1] * PLANE_PX_PER_MM / 2
        return (round(cx - half_w), round(cy - half_h), round(cx + half_w), round(cy + half_h))


@dataclasses.dataclass(frozen=True)
class Layout:
    """A game's play area in millimetres and where each of its items lies in it."""

    plane_mm: tuple[float, float]
    items: dict[str, ItemRegion]
    raised_mm: float = 0.0
    """Height above the markers' plane of the plane the recogniser reads (mm). Things standing above the
    markers (the toss figure's head, 40-80 mm up, where the rings rest) are seen off their plane position
    by parallax; the pipeline warps the frame to this raised plane, using the camera pose the markers
    give (companion/vision/pose.py), so what lies on it is read where it really is."""
    joined_gap_mm: float = 0.0
    """Gaps in what differs from the table narrower than this (mm) are piece in the normalised plane: for
    a game whose pieces lie edge to edge (components.py's `JOINED_GAP_MM`), where no table shows between
    two of them; 0 (the default): pieces stand apart and every gap keeps the table."""

    def plane_size_px(self) -> tuple[int, int]:
        """(width, height) of the plane image in pixels."""
        return (round(self.plane_mm[0] * PLANE_PX_PER_MM), round(self.plane_mm[1] * PLANE_PX_PER_MM))

    def crop(self, plane: Frame, item_id: str) -> Frame:
        """The axis-aligned part of the plane under one item, clipped to the plane."""
        x0, y0, x1, y1 = self.items[item_id].box_px()
        height, width = plane.shape[:2]
        return plane[max(0, y0) : min(height, y1), max(0, x0) : min(width, x1)]


# ---------------------------------------------------------------- reading


@dataclasses.dataclass(frozen=True)
class Reading:
    """What a recogniser saw: item id → label, and its confidence in each (0..1).

    Labels per game: Minotaurus "cell:12" → "down" | "empty" | "blue-3-left";
    the toss "horn:left" → "ring" | "clear"; Minos "die:0" → symbol name;
    Hornochsen "row:2:square:3" → "57" | "empty", "played:seat1" → "57";
    Asterion "cell:x,y" → "<tile design id>@<rotation 0-3>" | "empty";
    Minoa "line:17" → "stick" | "red" | ... | "empty".
    """

    items: dict[str, str]
    confidence: dict[str, float] = dataclasses.field(default_factory=dict)


# ---------------------------------------------------------------- profile


@dataclasses.dataclass(frozen=True)
class Profile:
    """What a recogniser learned about one edition's pieces; JSON-serialisable.

    - `colours`: label → list of CIELAB prototypes [L, a, b] (OpenCV's 8-bit Lab
      scale), one per shot or cluster;
    - `templates`: name → small image as PNG, base64 (see `encode_template`);
    - `params`: anything else a small classifier needs (thresholds, weights),
      as plain JSON values.
    """

    game: str
    edition: str = "default"
    colours: dict[str, list[list[float]]] = dataclasses.field(default_factory=dict)
    templates: dict[str, str] = dataclasses.field(default_factory=dict)
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    shots: int = 0

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def completed_by(self, built_in: Profile) -> Profile:
        """This (taught) profile with the built-in one's colours, templates and params wherever it
        has none of its own: a user who taught only some pieces still reads the others."""
        return Profile(
            game=self.game,
            edition=self.edition,
            colours={**built_in.colours, **self.colours},
            templates={**built_in.templates, **self.templates},
            params={**built_in.params, **self.params},
            shots=self.shots,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Profile:
        try:
            return cls(
                game=str(data["game"]),
                edition=str(data.get("edition", "default")),
                colours={
                    str(k): [[float(x) for x in proto] for proto in v]
                    for k, v in dict(data.get("colours", {})).items()
                },
                templates={str(k): str(v) for k, v in dict(data.get("templates", {})).items()},
                params=dict(data.get("params", {})),
                shots=int(data.get("shots", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ProfileError(f"not a vision profile: {error!r}") from error


def encode_template(image: numpy.typing.NDArray[numpy.uint8]) -> str:
    """A small image (grey or BGR) as base64 PNG, for `Profile.templates`."""
    import cv2

    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise VisionError(f"cannot encode a template of shape {image.shape} as PNG")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_template(text: str) -> numpy.typing.NDArray[numpy.uint8]:
    """The image stored by `encode_template` (grey stays grey, colour stays BGR)."""
    import cv2

    data = numpy.frombuffer(base64.b64decode(text), dtype=numpy.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ProfileError("a profile template is not a readable PNG")
    return numpy.asarray(image, dtype=numpy.uint8)


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def profiles_dir() -> Path:
    """Where profiles live: $COMPANION_VISION_PROFILES or ./var/vision/profiles."""
    return Path(os.environ.get("COMPANION_VISION_PROFILES") or Path("var") / "vision" / "profiles")


def profile_path(game: str, edition: str, root: Path | None = None) -> Path:
    for what, name in (("game", game), ("edition", edition)):
        if not _NAME.match(name):
            raise ProfileError(f"{what} name {name!r} must be 1-64 letters, digits, '.', '_' or '-'")
    return (root or profiles_dir()) / game / f"{edition}.json"


def save_profile(profile: Profile, root: Path | None = None) -> Path:
    """Write the profile to <root>/<game>/<edition>.json atomically; returns the path."""
    path = profile_path(profile.game, profile.edition, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(".json.tmp")
    scratch.write_text(json.dumps(profile.to_json(), indent=1, sort_keys=True), encoding="utf-8")
    scratch.replace(path)
    return path


def load_profile(game: str, edition: str, root: Path | None = None) -> Profile | None:
    """The saved profile, or None when the edition was never taught."""
    path = profile_path(game, edition, root)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ProfileError(f"{path}: cannot read the profile: {error}") from error
    profile = Profile.from_json(data)
    if profile.game != game:
        raise ProfileError(f"{path}: the profile is for {profile.game!r}, not {game!r}")
    return profile


def list_profiles(game: str, root: Path | None = None) -> list[str]:
    """The editions taught for a game, sorted."""
    folder = (root or profiles_dir()) / game
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


# ---------------------------------------------------------------- recogniser


@runtime_checkable
class Recogniser(Protocol):
    """Reads one game's items from the top-down plane."""

    game: str

    def layout(self, options: Mapping[str, Any]) -> Layout:
        """Where the game's items lie, for the game's setup options."""
        ...

    def read(self, plane: Frame, layout: Layout, profile: Profile | None) -> Reading:
        """Every item of the layout read from the plane (profile None: built-in defaults)."""
        ...

    def teach(self, plane: Frame, layout: Layout, labels: Mapping[str, str], profile: Profile) -> Profile:
        """Learn from a shot the user took with known labels; returns the updated profile."""
        ...


@runtime_checkable
class ReadsNormalised(Protocol):
    """A recogniser that also takes, with a normalised plane, where the reference replaced the table by the
    neutral background (reference.py's `normalise_with_table`), rather than finding it again itself."""

    def read_normalised(
        self, plane: Frame, table: numpy.typing.NDArray[numpy.uint8], layout: Layout, profile: Profile | None
    ) -> Reading:
        """As `Recogniser.read` on a normalised plane; `table` is 255 where the plane is the neutral
        background the reference put there, 0 elsewhere (the plane's own pixels)."""
        ...


_FACTORIES: dict[str, Callable[[], Recogniser]] = {}
_INSTANCES: dict[str, Recogniser] = {}

RECOGNISERS_PACKAGE = "companion.vision.recognisers"
"""Each game's recogniser lives in <package>.<game> and calls `register_recogniser` on import."""


def register_recogniser(game: str, factory: Callable[[], Recogniser]) -> None:
    """Make `recogniser_for(game)` build a recogniser with `factory` (the last registration wins)."""
    _FACTORIES[game] = factory
    _INSTANCES.pop(game, None)


def _import_recogniser_module(game: str) -> None:
    import importlib

    module = f"{RECOGNISERS_PACKAGE}.{game}"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        # No module for this game is "unknown game"; a module that fails to import is a real error.
        # A name with a dot ("1.5") asks for a module inside one that does not exist: unknown too.
        if error.name not in (module, RECOGNISERS_PACKAGE) and not module.startswith(f"{error.name}."):
            raise


def recogniser_for(game: str) -> Recogniser:
    """The recogniser registered for the game (one instance per game)."""
    if game not in _FACTORIES and _NAME.match(game):
        _import_recogniser_module(game)
    if game not in _FACTORIES:
        known = ", ".join(registered_games()) or "none"
        raise UnknownGameError(f"no recogniser for game {game!r} (known: {known})")
    if game not in _INSTANCES:
        _INSTANCES[game] = _FACTORIES[game]()
    return _INSTANCES[game]


def registered_games() -> list[str]:
    """Every game with a recogniser module (importing each registers it)."""
    import importlib
    import pkgutil

    try:
        package = importlib.import_module(RECOGNISERS_PACKAGE)
    except ModuleNotFoundError:
        return sorted(_FACTORIES)
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_") and info.name not in _FACTORIES:
            _import_recogniser_module(info.name)
    return sorted(_FACTORIES)
