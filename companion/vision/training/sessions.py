"""Generated sessions seen as the recognisers see them: the planes they learn their built-in data from.

Each session is generated on its own table with its own way of laying the marker sheets, its empty area
learned from its reference frames as the evaluation learns it; every labelled frame at rest is yielded as
the normalised plane the recogniser reads, with its labels. Frames the reference refuses are passed over,
as the reader passes them over.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from companion.vision.base import Frame

Sitting = tuple[int, str, str]
"""One training session: its generator seed, table kind and marker placement."""


def hard_set_sittings(seeds: Iterable[int]) -> list[Sitting]:
    """The seeds on the tables and placements of the generator's hard set, in its order."""
    from companion.vision.generate.session import hard_set_plan

    return [(seed, *hard_set_plan(n)) for n, seed in enumerate(seeds)]


def table_round_sittings(first_seed: int, sessions: int) -> list[Sitting]:
    """Seeds from `first_seed` on the table kinds in turn, the marker placement swapping after each
    round through them (how the Minos and Minotaurus built-in data were learned)."""
    from companion.vision.generate.marker_sheets import PLACEMENTS
    from companion.vision.generate.tables import TABLE_KINDS

    kinds = len(TABLE_KINDS)
    return [
        (first_seed + n, TABLE_KINDS[n % kinds], PLACEMENTS[(n // kinds) % len(PLACEMENTS)])
        for n in range(sessions)
    ]


def normalised_shots(
    game: str, sittings: Iterable[Sitting], frames: int
) -> Iterator[tuple[Frame, dict[str, str]]]:
    """Each labelled frame at rest of the generated sittings as the recogniser reads it, with its labels."""
    from companion.vision.generate import generate_session
    from companion.vision.lessons import at_rest
    from companion.vision.pipeline import PlaneReader
    from companion.vision.recording import load_recording

    with tempfile.TemporaryDirectory(prefix=f"{game}-training-") as scratch:
        for n, (seed, table, placement) in enumerate(sittings):
            folder = Path(scratch) / f"{n:02d}-{table}"
            path = generate_session(
                game, folder, frames, hard=True, seed=seed, table=table, placement=placement
            )
            recording = load_recording(path)
            reader = PlaneReader(game, recording.options)
            for entry, image in at_rest(recording, reader):
                plane = reader.normalised_plane(image) if reader.reference is not None else None
                if plane is not None and entry.labels is not None:
                    yield plane, entry.labels
