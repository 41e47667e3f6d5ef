from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import State
from companion.record.jsonl import export_record
from companion.record.session import GameSession
from companion.record.store import RecordStore

from .conftest import recorded_game, row_counts

COMPANION = Path(sys.executable).with_name("companion")


def exported(store: RecordStore, game_id: int, path: Path) -> Path:
    path.write_text(export_record(store, game_id), encoding="utf-8")
    return path


def test_replay_prints_state_scores_and_ranking(
    store: RecordStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(store, recorded_game(store).game_id, tmp_path / "game.jsonl")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "game: toy-count (players=2, goal=10, max_add=3)",
        "players: Ann, Zoë",
        "events: 5; the game is in progress, waiting for seat 0 to add",
        "scores:",
        "  Ann  3",
        "  Zoë  2",
        "ranking:",
        "  1. Ann",
        "  2. Zoë",
    ]


def test_replay_json_is_one_object_with_the_whole_outcome(
    store: RecordStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(store, recorded_game(store).game_id, tmp_path / "game.jsonl")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "game": "toy-count",
        "options": {"players": 2, "goal": 10, "max_add": 3},
        "names": ["Ann", "Zoë"],
        "events": 5,
        "over": False,
        "to_act": {"seats": [0], "waiting_for": "seat 0 to add"},
        "scores": [3, 2],
        "ranking": [[0], [1]],
        "public_view": {"total": 5, "goal": 10, "points": [3, 2]},
    }


def test_games_lists_every_recorded_game(
    store: RecordStore, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = recorded_game(store).game_id
    second = GameSession.create(store, "toy-count", {"players": 3, "goal": 1}, ["A", "B", "C"])
    second.apply(second.state.legal_actions()[0], source="host")
    second.apply(second.state.legal_actions()[0], source="host")
    assert main(["games", "--db", str(db_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "id\tgame\tevents\tfinished\tnames",
        f"{first}\ttoy-count\t5\tno\tAnn, Zoë",
        f"{second.game_id}\ttoy-count\t2\tyes\tA, B, C",
    ]


def test_export_of_an_unknown_game_is_refused(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "7", "--db", str(db_path)]) == 1
    assert "no game with id 7" in capsys.readouterr().err


def test_the_database_defaults_to_companion_db_then_var(
    store: RecordStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(store, recorded_game(store).game_id, tmp_path / "game.jsonl")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    assert main(["import", str(path)]) == 0
    assert row_counts(tmp_path / "var" / "companion.db") == (1, 5)

    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "elsewhere" / "games.db"))
    assert main(["import", str(path)]) == 0
    assert main(["import", str(path)]) == 0
    assert row_counts(tmp_path / "elsewhere" / "games.db") == (2, 10)
    capsys.readouterr()
    assert main(["games"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def random_minotaurus_game(store: RecordStore, steps: int) -> GameSession:
    session = GameSession.create(store, "minotaurus", {"players": 3}, ["Ann", "Bob", "Cy"])
    rng = random.Random(7)
    for _ in range(steps):
        state: State = session.state
        if state.to_act().chance:
            session.apply(state.random_chance_action(rng), source="simulator", evidence={"rng": 7})
        else:
            session.apply(rng.choice(state.legal_actions()), source="host")
        if rng.random() < 0.1:
            session.undo(source="host")
    return session


def test_the_installed_command_replays_a_minotaurus_record(
    store: RecordStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = random_minotaurus_game(store, steps=40)
    path = exported(store, session.game_id, tmp_path / "minotaurus.jsonl")

    done = subprocess.run(
        [COMPANION, "replay", str(path), "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["scores"] == session.state.scores()
    assert summary["public_view"] == json.loads(json.dumps(session.state.public_view()))
    assert summary["events"] == session.info.events

    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace('"seq":5', '"seq":50')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = subprocess.run([COMPANION, "replay", str(path)], capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert f"{path}:6: seq 50 is out of order: expected 5" in refused.stderr
