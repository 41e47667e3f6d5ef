"""The colour prototypes shipped as JSON beside the Minotaurus and toss recognisers.

Learning them from generated shots takes seconds of CPU, too long at the moment a game starts, so they are
learned offline (Minotaurus: companion.vision.training.minotaurus) and shipped; these tests keep the shipped
files equal to what the learning gives now.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy
import pytest

from companion.vision.recognisers import minotaurus, toss
from companion.vision.recognisers._shipped import ShippedDataError
from companion.vision.training import minotaurus as train_minotaurus


@dataclass(frozen=True)
class Shipped:
    """How one recogniser ships its prototypes: the module, its file's attribute, the document's key for the
    prototypes, the names of its default (cached), learning and writing functions, and the module those two
    are in (the training module, or the recogniser's own if it still learns them itself)."""

    module: ModuleType
    file_attribute: str
    key: str
    default: str
    learn: str
    write: str
    learner: ModuleType | None = None

    def learning_module(self) -> ModuleType:
        return self.learner or self.module

    def file(self) -> Path:
        path: Path = getattr(self.module, self.file_attribute)
        return path

    def uncached_default(self) -> dict[str, list[list[float]]]:
        """The default prototypes as the recogniser gets them, read afresh (past functools.cache)."""
        result: dict[str, list[list[float]]] = getattr(self.module, self.default).__wrapped__()
        return result


SHIPPED = {
    "minotaurus": Shipped(
        minotaurus,
        "PROTOTYPES_FILE",
        "prototypes",
        "default_prototypes",
        "learn_prototypes",
        "write_prototypes",
        train_minotaurus,
    ),
    "toss": Shipped(toss, "COLOURS_FILE", "colours", "default_colours", "learn_colours", "write_colours"),
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
    written = getattr(shipped.learning_module(), shipped.write)(tmp_path / shipped.file().name)
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


def test_without_the_file_the_minotaurus_recogniser_names_it_and_its_rewrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recogniser never learns from the generator at run time: a missing file is a broken install."""
    missing = tmp_path / "minotaurus_prototypes.json"
    monkeypatch.setattr(minotaurus, "PROTOTYPES_FILE", missing)
    with pytest.raises(
        ShippedDataError, match=r"minotaurus_prototypes\.json is missing.*training minotaurus"
    ):
        SHIPPED["minotaurus"].uncached_default()


@pytest.mark.parametrize("game", sorted(game for game, shipped in SHIPPED.items() if shipped.learner is None))
def test_without_the_file_the_prototypes_are_learned(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = SHIPPED[game]
    learned = {"stand-in": [[1.0, 2.0, 3.0]]}
    calls = []

    def learn() -> dict[str, list[list[float]]]:  # stands in for seconds of learning
        calls.append(learned)
        return learned

    monkeypatch.setattr(shipped.module, shipped.file_attribute, tmp_path / "missing.json")
    monkeypatch.setattr(shipped.module, shipped.learn, learn)
    assert shipped.uncached_default() == learned
    assert calls == [learned]
