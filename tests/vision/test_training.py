"""companion.vision.training: the recognisers' shipped built-in data, and what they say when it is missing.

The files drawn from the generator (faces, tiles, colours) are cheap to write: each is written afresh
here and compared with the shipped one, so a change to the built-in edition's drawing (or to how the
data is cut from it) shows as a stale file. The files learned from generated frames are checked in
test_shipped_prototypes.py (Minotaurus) or too slow to learn in a test (Hornochsen's camera digits: 600
hard frames; Asterion's tiles, Minoa's colours and the normalised-plane data: 14 generated sessions);
their "about" still has to name the command that rewrites them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy
import pytest

from companion.vision import training
from companion.vision.recognisers import (
    _asterion_looks,
    _hornochsen_digits,
    _minotaurus_prototypes,
    minoa,
    minos,
    minotaurus,
)
from companion.vision.recognisers._shipped import SHIPPED_DIR, ShippedDataError, rewrite_command
from companion.vision.training import __main__ as training_cli

DRAWN = {
    "minotaurus": "minotaurus_faces",
    "minos": "minos_faces",
    "hornochsen": "hornochsen_tiles",
}
"""Per game, its shipped file drawn from the generator (no generated frames: seconds to write)."""


@pytest.mark.parametrize("game", sorted(DRAWN))
def test_the_shipped_drawn_data_is_what_training_writes_now(game: str, tmp_path: Path) -> None:
    shipped = SHIPPED_DIR / f"{DRAWN[game]}.json"
    written = training.writers(game)[DRAWN[game]](tmp_path / shipped.name)
    assert json.loads(written.read_text()) == json.loads(shipped.read_text()), (
        f"{shipped.name} is stale: {rewrite_command(game)}"
    )


def test_every_shipped_file_is_written_by_training_and_names_its_rewrite() -> None:
    written = {name: game for game in training.GAMES for name in training.writers(game)}
    shipped = {path.stem for path in SHIPPED_DIR.glob("*.json")}
    assert set(written) <= shipped, "every writer's file is shipped"
    for name, game in written.items():
        about = json.loads((SHIPPED_DIR / f"{name}.json").read_text())["about"]
        assert about.endswith(f": {rewrite_command(game)}"), (
            f"{name}'s about should end with how to rewrite it"
        )


def test_the_command_lists_and_refuses_what_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    assert training_cli.main(["--list", "minos", "hornochsen"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed == [
        "minos: minos_faces, minos_normalised",
        "hornochsen: hornochsen_tiles, hornochsen_digits",
    ]
    assert training_cli.main(["chess"]) == 2
    assert "no training for 'chess'" in capsys.readouterr().err
    assert training_cli.main(["minos", "--only", "minos_dice"]) == 2
    assert "minos writes minos_faces, minos_normalised, not 'minos_dice'" in capsys.readouterr().err


def test_the_command_rewrites_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision.training import minos as train_minos

    target = tmp_path / "minos_faces.json"
    monkeypatch.setitem(
        train_minos.WRITERS, "minos_faces", functools.partial(train_minos.write_faces, target)
    )
    assert training_cli.main(["minos", "--only", "minos_faces"]) == 0
    assert json.loads(target.read_text()) == json.loads((SHIPPED_DIR / "minos_faces.json").read_text())


MISSING: dict[str, tuple[Any, str, Callable[[], object]]] = {
    "minotaurus faces": (minotaurus, "FACES_FILE", lambda: minotaurus._shipped_faces.__wrapped__()),
    "minotaurus prototypes": (
        _minotaurus_prototypes,
        "PROTOTYPES_FILE",
        lambda: _minotaurus_prototypes.default_prototypes.__wrapped__(),
    ),
    "minos faces": (minos, "FACES_FILE", lambda: minos.default_faces.__wrapped__()),
    "asterion tiles": (
        _asterion_looks,
        "TILES_FILE",
        lambda: _asterion_looks.built_in_templates.__wrapped__(),
    ),
    "minoa colours": (minoa, "COLOURS_FILE", minoa.default_colours),
    "hornochsen tiles": (
        _hornochsen_digits,
        "TILES_FILE",
        lambda: _hornochsen_digits.built_in_templates.__wrapped__(),
    ),
    "hornochsen camera digits": (
        _hornochsen_digits,
        "CAMERA_DIGITS",
        lambda: _hornochsen_digits._camera_classifier.__wrapped__(),
    ),
}


@pytest.mark.parametrize("case", sorted(MISSING))
def test_a_missing_shipped_file_is_named_with_the_command_that_writes_it(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recogniser neither guesses nor learns the built-in look at run time: it says what to do."""
    module, attribute, load = MISSING[case]
    monkeypatch.setattr(module, attribute, tmp_path / "gone.json")
    with pytest.raises(
        ShippedDataError, match=r"gone\.json is missing.*python -m companion\.vision\.training"
    ):
        load()


def test_a_file_written_for_another_scale_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads(minos.FACES_FILE.read_text())
    document["px_per_mm"] = 4.0
    other = tmp_path / "minos_faces.json"
    other.write_text(json.dumps(document))
    monkeypatch.setattr(minos, "FACES_FILE", other)
    with pytest.raises(ShippedDataError, match=r"written for px_per_mm 4\.0, not 2\.0"):
        minos.default_faces.__wrapped__()


def test_a_colour_file_lacking_a_label_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads(minoa.COLOURS_FILE.read_text())
    del document["colours"]["stick"]
    partial = tmp_path / "minoa_colours.json"
    partial.write_text(json.dumps(document))
    monkeypatch.setattr(minoa, "COLOURS_FILE", partial)
    with pytest.raises(ShippedDataError, match="lacks the colours stick"):
        minoa.MinoaRecogniser().default_profile()


def test_training_sees_generated_sessions_as_the_recogniser_reads_them() -> None:
    from companion.vision.base import recogniser_for
    from companion.vision.reference import NEUTRAL_BGR
    from companion.vision.training.sessions import hard_set_sittings, normalised_shots

    sittings = hard_set_sittings([3, 4])
    shots = list(normalised_shots("minos", sittings, frames=4))
    layout = recogniser_for("minos").layout({})
    width, height = layout.plane_size_px()
    assert shots, "every session's frames at rest are yielded"
    for plane, labels in shots:
        assert plane.shape == (height, width, 3) and set(labels) <= set(layout.items)
        # Normalised against the session's empty tray: the tray and table are the neutral background.
        assert (plane == numpy.array(NEUTRAL_BGR, numpy.uint8)).all(axis=2).mean() > 0.3


def test_the_table_rounds_meet_every_table_with_both_marker_placements() -> None:
    from companion.vision.generate.marker_sheets import PLACEMENTS
    from companion.vision.generate.tables import TABLE_KINDS
    from companion.vision.training.sessions import table_round_sittings

    sittings = table_round_sittings(5, 2 * len(TABLE_KINDS))
    assert [seed for seed, _, _ in sittings] == list(range(5, 5 + 2 * len(TABLE_KINDS)))
    assert {(table, placement) for _, table, placement in sittings} == {
        (table, placement) for table in TABLE_KINDS for placement in PLACEMENTS
    }
