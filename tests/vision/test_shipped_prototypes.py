"""The colour prototypes shipped as JSON beside the Minotaurus and toss recognisers.

Learning them from generated shots takes seconds of CPU, too long at the moment a game starts, so they are
learned offline (companion.vision.training.<game>) and shipped; these tests keep the shipped files equal
to what the learning gives now.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy
import pytest

from companion.vision.base import VisionError
from companion.vision.recognisers import _minotaurus_prototypes, toss
from companion.vision.training import minotaurus as train_minotaurus
from companion.vision.training import toss as train_toss


@dataclass(frozen=True)
class Shipped:
    """How one recogniser ships its prototypes: the module, its file's attribute, the document's key for the
    prototypes, the name of its default (cached) function, and its training module with the name of the
    function that learns and writes the file."""

    module: ModuleType
    file_attribute: str
    key: str
    default: str
    learner: ModuleType
    write: str

    def file(self) -> Path:
        path: Path = getattr(self.module, self.file_attribute)
        return path

    def uncached_default(self) -> dict[str, list[list[float]]]:
        """The default prototypes as the recogniser gets them, read afresh (past functools.cache)."""
        result: dict[str, list[list[float]]] = getattr(self.module, self.default).__wrapped__()
        return result


SHIPPED = {
    "minotaurus": Shipped(
        _minotaurus_prototypes,
        "PROTOTYPES_FILE",
        "prototypes",
        "default_prototypes",
        train_minotaurus,
        "write_prototypes",
    ),
    "toss": Shipped(toss, "COLOURS_FILE", "colours", "default_colours", train_toss, "write_colours"),
}


def _same_prototypes(learned: dict[str, list[list[float]]], shipped: dict[str, list[list[float]]]) -> None:
    assert sorted(learned) == sorted(shipped)
    for label in shipped:
        # Values are written rounded to 0.01: another CPU's last bit may tip a rounding, nothing more.
        numpy.testing.assert_allclose(learned[label], shipped[label], rtol=0, atol=0.0101, err_msg=label)


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_shipped_prototypes_are_what_learning_gives_now(game: str, tmp_path: Path) -> None:
    """Learns afresh with the shipped seed and compares (6 s of CPU for Minotaurus, 2 s for the toss)."""
    shipped = SHIPPED[game]
    document = json.loads(shipped.file().read_text())
    written = getattr(shipped.learner, shipped.write)(tmp_path / shipped.file().name)
    fresh = json.loads(written.read_text())
    assert {k: v for k, v in fresh.items() if k != shipped.key} == {
        k: v for k, v in document.items() if k != shipped.key
    }, f"rewrite {shipped.file().name}: {document['about']}"
    _same_prototypes(fresh[shipped.key], document[shipped.key])


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_the_recogniser_reads_the_shipped_prototypes(game: str) -> None:
    shipped = SHIPPED[game]
    assert shipped.file().exists()
    assert shipped.uncached_default() == json.loads(shipped.file().read_text())[shipped.key]


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_without_the_file_the_recogniser_names_it_and_its_rewrite(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recogniser never learns from the generator at run time: a missing file is a broken install, and
    the error says which file and how to write it."""
    shipped = SHIPPED[game]
    monkeypatch.setattr(shipped.module, shipped.file_attribute, tmp_path / "gone.json")
    with pytest.raises(
        VisionError, match=rf"gone\.json is missing.*python -m companion\.vision\.training {game}"
    ):
        shipped.uncached_default()
