"""Teach mode: the host shows the camera each kind of piece, the recogniser learns from the shots.

Every edition's pieces look a little different, so before playing with a new
set the host walks through a short plan on the phone: for each kind of piece
(each colour, value and horn shape of Minotaurus, each symbol of the Minos
dice, ...) the page names a spot on the table; the host lays the piece there
and taps "shot". The shot is the camera's present top-down plane, with the
step's labels as truth; the game's recogniser `teach`es its profile from it,
and the profile is saved at once under var/vision/profiles/<game>/<edition>.json,
so an interrupted session keeps what it learned. Nothing is downloaded.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.vision.base import (
    Frame,
    Layout,
    Profile,
    Recogniser,
    VisionError,
    load_profile,
    recogniser_for,
    save_profile,
)
from companion.vision.pipeline import PlaneReader
from companion.vision.stability import SceneChecker

EMPTY_PROMPT = (
    "First clear the play area (no pieces on it, the table as you will play on it) and tap shot: the "
    "companion learns the empty table, so that what it learns of the pieces carries to any table."
)


class TeachError(VisionError):
    """A shot that cannot be taught from (no camera, no markers, a hand in view) or a bad request."""


@dataclasses.dataclass(frozen=True)
class TeachStep:
    prompt: str
    """What the host is to lay down, and where."""
    labels: dict[str, str]
    """The truth of the shot: item id → label."""


# ---------------------------------------------------------------- plans per game


def _first(layout: Layout, prefix: str) -> str:
    for item in layout.items:
        if item.startswith(prefix):
            return item
    raise TeachError(f"the layout has no item {prefix}...: cannot plan the lessons")


def _spot(item: str) -> str:
    kind, _, where = item.partition(":")
    return f"{kind} {where}" if where else kind


def _minotaurus(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    from companion.games.minotaurus import COLOURS, HORNS, SETUPS

    cell = _first(layout, "cell:")
    values = list(SETUPS[int(options.get("players", 4))]["values"])
    spot = _spot(cell)
    steps = [
        TeachStep(f"Leave {spot} empty (bare table).", {cell: "empty"}),
        TeachStep(f"Lay any piece face down on {spot}.", {cell: "down"}),
    ]
    # Every colour once; values and horns taken in turn, then whatever values are left, so that every
    # colour, value and horn shape shows at least once.
    shown: set[int] = set()
    for n, colour in enumerate(COLOURS):
        value, horn = values[n % len(values)], HORNS[n % len(HORNS)]
        shown.add(value)
        steps.append(_piece_step(cell, colour, value, horn))
    for n, value in enumerate(v for v in values if v not in shown):
        steps.append(_piece_step(cell, COLOURS[n % len(COLOURS)], value, HORNS[(n + 1) % len(HORNS)]))
    return steps


def _piece_step(cell: str, colour: str, value: int, horn: str) -> TeachStep:
    prompt = f"Lay the {colour} {value} ({horn} horn) face up on {_spot(cell)}."
    return TeachStep(prompt, {cell: f"{colour}-{value}-{horn}"})


def _toss(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    horns = [item for item in layout.items if item.startswith("horn:")]
    steps = [TeachStep("Take every ring off the horn figure.", {h: "clear" for h in horns})]
    for horn in horns:
        others = {h: "clear" for h in horns if h != horn}
        prompt = f"Lay a ring over the {horn.split(':', 1)[1]} horn only."
        steps.append(TeachStep(prompt, {horn: "ring", **others}))
    return steps


def _minos(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    from companion.games.minos.data import ACTION_SYMBOLS, JOKER, STERN

    die = _first(layout, "die:")
    return [
        TeachStep(f"Lay a die showing {symbol} in the place of {_spot(die)}.", {die: symbol})
        for symbol in (*ACTION_SYMBOLS, JOKER, STERN)
    ]


HORNOCHSEN_LESSONS = (10, 23, 45, 67, 89, 1, 34, 56, 78, 92, 55, 30, 60, 80, 31)
"""Tiles that show every digit in both places (a 1 as units digit in 31 only), a single digit, and the
bull-head kinds (5s, 10s, doubles, 55); a 0 four times, once beside an 8: with one 0 taught (10), a
taught edition's 0 moved little from the built-in one (with 0 taught three times, travel still read two
50s as 58 on dev seeds 5-9)."""


def _hornochsen(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    played = [item for item in layout.items if item.startswith("played:")]
    spot = played[0] if played else next(iter(layout.items))
    steps = [
        TeachStep(f"Leave the place of {_spot(spot)} empty.", {spot: "empty"}),
        TeachStep(f"Lay any tile face down in the place of {_spot(spot)}.", {spot: "down"}),
    ]
    steps += [
        TeachStep(f"Lay tile {tile} face up in the place of {_spot(spot)}.", {spot: str(tile)})
        for tile in HORNOCHSEN_LESSONS
    ]
    return steps


def _asterion(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    from companion.games.asterion.tiles import COLOURS, DESIGNS

    cells = [item for item in layout.items if item.startswith("cell:") and item != "cell:0,0"]
    if not cells:
        raise TeachError("the layout has no cell beside the Minotaur's: cannot plan the lessons")
    cell, spot = cells[0], _spot(cells[0])
    upright = "upright (its printed top to the far side)"
    steps = [TeachStep(f"Leave {spot} empty.", {cell: "empty"})]
    if "cell:0,0" in layout.items:
        steps.append(TeachStep("Lay the Minotaur tile on cell 0,0.", {"cell:0,0": "minotaur@0"}))
    # Every design in the first set's colour, then one tile of each other set for its colour.
    first, others = COLOURS[0], COLOURS[1:]
    steps += [
        TeachStep(f"Lay a {first} {d.name} tile on {spot}, {upright}.", {cell: f"{first}:{d.name}@0"})
        for d in DESIGNS
    ]
    steps += [
        TeachStep(
            f"Lay a {colour} {DESIGNS[0].name} tile on {spot}, {upright}.",
            {cell: f"{colour}:{DESIGNS[0].name}@0"},
        )
        for colour in others
    ]
    return steps


def _minoa(layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    from companion.games.minoa import BOARD, COLOURS

    # Sticks lie on interior lines, pieces on the edge: each is taught where it is played.
    interior = next((f"line:{n}" for n in BOARD.interior_lines if f"line:{n}" in layout.items), None)
    edge = next((f"line:{n}" for n in BOARD.edge_lines if f"line:{n}" in layout.items), None)
    if interior is None or edge is None:
        raise TeachError("the layout lacks an interior or an edge line: cannot plan the lessons")
    steps = [
        TeachStep(f"Leave {_spot(interior)} empty.", {interior: "empty"}),
        TeachStep(f"Lay a black stick on {_spot(interior)}.", {interior: "stick"}),
    ]
    steps += [
        TeachStep(f"Lay a {colour} piece on {_spot(edge)} (the edge).", {edge: colour}) for colour in COLOURS
    ]
    return steps


PLANS: dict[str, Callable[[Layout, Mapping[str, Any]], list[TeachStep]]] = {
    "minotaurus": _minotaurus,
    "toss": _toss,
    "minos": _minos,
    "hornochsen": _hornochsen,
    "asterion": _asterion,
    "minoa": _minoa,
}


def teach_plan(game: str, layout: Layout, options: Mapping[str, Any]) -> list[TeachStep]:
    plan = PLANS.get(game)
    if plan is None:
        raise TeachError(f"no lessons for {game!r}: teach mode knows {', '.join(sorted(PLANS))}")
    return plan(layout, options)


# ---------------------------------------------------------------- a session


class TeachSession:
    """One walk through a game's lessons; `shot` learns from the camera's present frame."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        edition: str,
        grab: Callable[[], Frame | None],
        *,
        profiles_root: Path | None = None,
        recogniser: Recogniser | None = None,
        settle_seconds: float = 0.3,
        sleep: Callable[[float], None] = time.sleep,
        empty_first: bool = False,
    ) -> None:
        self.game = game
        self.options = dict(options)
        self.edition = edition
        self.grab = grab
        self.profiles_root = profiles_root
        self.recogniser = recogniser or recogniser_for(game)
        self.reader = PlaneReader(game, self.options, recogniser=self.recogniser)
        self.layout = self.reader.layout
        self.empty_first = empty_first
        """Learn the empty table before the first lesson, so the shots are taught on planes normalised
        against it (tablecloth gone, light corrected) and the edition then reads on any table."""
        self.steps = teach_plan(game, self.layout, self.options)
        self.profile = load_profile(game, edition, profiles_root) or Profile(game, edition)
        self.index = 0
        self.taught = 0
        self.last_check: dict[str, Any] | None = None
        self.settle_seconds = settle_seconds
        """A shot is two frames this far apart that must agree: a hand or a piece still moving is refused."""
        self.sleep = sleep
        self._lock = threading.Lock()

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def needs_empty(self) -> bool:
        return self.empty_first and self.reader.reference is None

    def to_json(self) -> dict[str, Any]:
        step = None if self.done else self.steps[self.index]
        return {
            "game": self.game,
            "edition": self.edition,
            "options": self.options,
            "step": self.index,
            "steps": len(self.steps),
            "done": self.done,
            "prompt": EMPTY_PROMPT
            if self.needs_empty
            else step.prompt
            if step
            else "Every kind of piece is taught: the profile is saved.",
            "needs_empty": self.needs_empty,
            "labels": step.labels if step else {},
            "taught": self.taught,
            "profile_shots": self.profile.shots,
            "last_check": self.last_check,
        }

    def plane(self) -> Frame:
        """The camera's present top-down plane (TeachError if there is no frame or no markers)."""
        return self._planes(1)[0]

    def _frames(self, count: int) -> list[Frame]:
        """`count` frames `settle_seconds` apart."""
        frames: list[Frame] = []
        for n in range(count):
            if n:
                self.sleep(self.settle_seconds)
            frame = self.grab()
            if frame is None:
                raise TeachError("the camera gives no picture: is it connected?")
            frames.append(frame)
        return frames

    def _planes(self, count: int) -> list[Frame]:
        """`count` planes of frames `settle_seconds` apart, as the recogniser reads them (normalised
        against the empty table once it is learned)."""
        planes: list[Frame] = []
        for frame in self._frames(count):
            calibration, _plane = self.reader.plane(frame)
            if calibration.homography is None:
                why = calibration.message or "the corner markers are not in view"
                raise TeachError(f"cannot see the table: {why}")
            plane = self.reader.normalised_plane(frame)
            if plane is None:
                raise TeachError("a hand or something new is over the table: clear it and tap shot again")
            planes.append(plane)
        return planes

    def _learn_empty(self) -> dict[str, Any]:
        result = self.reader.learn_reference(self._frames(2))
        if not result.learned:
            raise TeachError(result.message)
        return self.to_json()

    def shot(self) -> dict[str, Any]:
        """Learn the present step from the camera's frame, save the profile, and go on to the next step."""
        with self._lock:
            if self.done:
                raise TeachError("every lesson is done: start again to teach more shots")
            if self.needs_empty:
                return self._learn_empty()
            step = self.steps[self.index]
            first, plane = self._planes(2)
            checker = SceneChecker(self.layout)
            checker.check(first, previous=True)
            if checker.check(plane, previous=True).motion:
                raise TeachError("something moves over the table: take your hand away and tap shot again")
            profile = self.recogniser.teach(plane, self.layout, step.labels, self.profile)
            # One more shot, whether or not the recogniser counted it already.
            shots = max(profile.shots, self.profile.shots + 1)
            profile = dataclasses.replace(profile, game=self.game, edition=self.edition, shots=shots)
            save_profile(profile, self.profiles_root)
            reading = self.recogniser.read(plane, self.layout, profile)
            self.last_check = {
                "expected": step.labels,
                "read": {item: reading.items.get(item) for item in step.labels},
                "right": all(reading.items.get(item) == label for item, label in step.labels.items()),
            }
            self.profile = profile
            self.index += 1
            self.taught += 1
            return self.to_json()

    def skip(self) -> dict[str, Any]:
        with self._lock:
            if not self.done:
                self.index += 1
            return self.to_json()

    def back(self) -> dict[str, Any]:
        """Repeat the previous step (another shot of the same piece teaches it better)."""
        with self._lock:
            self.index = max(0, self.index - 1)
            return self.to_json()
