"""A whole Minotaurus game kept as a record: its replay must keep giving the same outcome.

The game (3 players) has a camera misread undone and corrected by the host,
a mismatch returned face down and remembered, two unresolved blue pairs
settled by a challenge with sensor toss verdicts, and a matching pair returned
by a player who holds its colour already. Theseus 17, Ariadne 15, Daedalus 13.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

GOLDEN = Path(__file__).with_name("data") / "minotaurus-3p-full-game.jsonl"


def test_the_golden_game_replays_to_its_known_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["names"] == ["Ariadne", "Theseus", "Daedalus"]
    assert (summary["events"], summary["over"], summary["to_act"]["seats"]) == (90, True, [])
    assert summary["scores"] == [15, 17, 13]
    assert summary["ranking"] == [[1], [0], [2]]
    holdings = summary["public_view"]["holdings"]
    assert holdings[0]["blue"] == {"left": 1, "right": 1, "resolved": True}, "the challenge swapped a blue 1"
    assert holdings[1]["blue"] == {"left": 3, "right": 3, "resolved": True}

    assert main(["replay", str(GOLDEN)]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == ["  1. Theseus", "  2. Ariadne", "  3. Daedalus"]


def test_the_golden_game_imports_and_exports_unchanged(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(GOLDEN), "--db", str(db_path)]) == 0
    game_id = capsys.readouterr().out.strip()
    exported = tmp_path / "again.jsonl"
    assert main(["export", game_id, "--db", str(db_path), "-o", str(exported)]) == 0
    assert exported.read_bytes() == GOLDEN.read_bytes()
