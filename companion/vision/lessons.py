"""Teach mode's lessons taken from a recorded session instead of the live camera (the hard bench's
"edition taught on one table").

A user at /teach lays, for each lesson of the game's teach plan (companion/vision/teach.py), the piece
it asks for and takes one shot. Here each lesson's shot is the first frame of the session at rest that
shows the lesson's label on any item (a tile's number reads the same in a row as on a seat's place;
the spot the plan names is only where the user lays it): the recogniser's `teach` gets that frame's
plane, made by the same pipeline that reads (with the session's empty-area frames learned first, where
the reader learns them), and only that one item's label, as the teach page gives it. A lesson no frame
shows is reported missing, not invented; a shot the recogniser refuses (VisionError) is passed over for
the next frame that shows the label, as a user would take the shot again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from companion.vision.base import Frame, Profile, VisionError
from companion.vision.pipeline import PlaneReader
from companion.vision.recording import RecordedFrame, Recording
from companion.vision.teach import TeachError, teach_plan


@dataclasses.dataclass(frozen=True)
class Taught:
    profile: Profile
    lessons: int
    """Lessons in the plan."""
    missing: tuple[str, ...]
    """The labels of lessons no frame of the session showed (or whose every shot was refused)."""


def lesson_labels(recording: Recording, reader: PlaneReader) -> list[str]:
    """The label each lesson teaches: the game's teach plan's, or for a game without a plan, every label
    the session shows, once each."""
    assert recording.game is not None
    try:
        steps = teach_plan(recording.game, reader.layout, recording.options)
        return list(dict.fromkeys(label for step in steps for label in step.labels.values()))
    except TeachError:
        seen = (
            label
            for entry in recording.frames
            if not entry.reference
            for label in (entry.labels or {}).values()
        )
        return list(dict.fromkeys(seen))


def at_rest(recording: Recording, reader: PlaneReader) -> Iterator[tuple[RecordedFrame, Frame]]:
    """The session's labelled frames without hand or motion, the reference learned from its empty frames."""
    references: list[Frame] = []
    for entry, image in recording.images():
        if image is None:
            continue
        if entry.reference:
            references.append(image)  # the run of them learned together, as the evaluation does
            reader.learn_reference(list(references))
            continue
        references.clear()
        if not (entry.hand or entry.motion or entry.labels is None):
            yield entry, image


def teach_from_recording(recording: Recording, edition: str) -> Taught:
    """A profile of `edition` taught from one session's frames, one shot per lesson of the teach plan."""
    if recording.game is None:
        raise TeachError(f"{recording.root}: the recording names no game, so there is nothing to teach")
    game = recording.game
    reader = PlaneReader(game, recording.options)
    wanted = lesson_labels(recording, reader)
    left = set(wanted)
    profile = Profile(game, edition)
    for entry, image in at_rest(recording, reader):
        assert entry.labels is not None
        # One item per label still to teach: the first that shows it.
        lessons = list(
            {label: item for item, label in reversed(entry.labels.items()) if label in left}.items()
        )
        if not lessons:
            continue
        plane = reader.read(image).plane
        if plane is None:
            continue
        for label, item in lessons:
            try:
                taught = reader.recogniser.teach(plane, reader.layout, {item: label}, profile)
            except VisionError:
                continue  # the shot is refused: a later frame showing the label may do
            # One more shot, whether or not the recogniser counted it already (as TeachSession counts).
            shots = max(taught.shots, profile.shots + 1)
            profile = dataclasses.replace(taught, game=game, edition=edition, shots=shots)
            left.discard(label)
    missing = tuple(label for label in wanted if label in left)
    return Taught(profile, len(wanted), missing)
