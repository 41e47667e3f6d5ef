from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.record.jsonl import export_record
from companion.record.session import GameSession
from companion.record.store import RecordStore

from .conftest import play, recorded_game, row_counts

Lines = list[str]


def edit_line(line: int, **changes: object) -> Callable[[Lines], None]:
    """Change fields of one line's object; a change to None removes the field."""

    def edit(lines: Lines) -> None:
        data = {**json.loads(lines[line - 1]), **changes}
        lines[line - 1] = json.dumps({key: value for key, value in data.items() if value is not None})

    return edit


def edit_header(**changes: object) -> Callable[[Lines], None]:
    return edit_line(1, **changes)


edit_event = edit_line


def replace_line(line: int, text: str) -> Callable[[Lines], None]:
    def edit(lines: Lines) -> None:
        lines[line - 1] = text

    return edit


MALFORMED: dict[str, tuple[Callable[[Lines], None], int, str]] = {
    "bad json": (replace_line(3, '{"seq": 2,'), 3, "bad JSON"),
    "header not an object": (replace_line(1, "[1, 2]"), 1, "the header must be a JSON object"),
    "wrong format": (edit_header(format="chess-pgn"), 1, "not a minotaur-companion-record file"),
    "wrong version": (edit_header(version=2), 1, "unsupported format version 2"),
    "missing header field": (edit_header(finished=None), 1, "missing field(s) finished"),
    "unknown game": (edit_header(game="chess"), 1, "unknown game 'chess'"),
    "invalid options": (edit_header(options={"goal": 0}), 1, "invalid setup: option goal=0 is invalid"),
    "unknown option": (edit_header(options={"speed": 1}), 1, "invalid setup: unknown option(s) speed"),
    "names per seat": (edit_header(names=["Ann"]), 1, "1 name(s) given for 2 seat(s)"),
    "created not utc": (
        edit_header(created="2024-05-01T12:00:00"),
        1,
        "created must be an ISO 8601 time in UTC",
    ),
    "unknown action": (
        edit_event(3, action={"kind": "jump", "by": 0}),
        3,
        "ill-formed action: unknown action kind 'jump'",
    ),
    "ill-formed action": (
        edit_event(3, action={"kind": "add", "by": 0}),
        3,
        "ill-formed action: add is missing field(s) amount",
    ),
    "action not an object": (edit_event(3, action=[1]), 3, "an action event needs an action object"),
    "illegal action": (
        edit_event(3, action={"kind": "add", "by": 0, "amount": 7}),
        3,
        "add 1 to 3, not 7 (rule: add)",
    ),
    "out of turn": (edit_event(3, action={"kind": "add", "by": 1, "amount": 1}), 3, "not seat 1's turn"),
    "seq out of order": (edit_event(4, seq=4), 4, "seq 4 is out of order: expected 3"),
    "seq repeated": (edit_event(3, seq=1), 3, "seq 1 is out of order: expected 2"),
    "nothing to undo": (
        edit_event(2, kind="undo", action=None, evidence=None),
        2,
        "undo with nothing to undo",
    ),
    "undo with action": (
        edit_event(5, action={"kind": "add", "by": 0, "amount": 1}),
        5,
        "an undo event carries no action",
    ),
    "unknown event kind": (edit_event(4, kind="redo"), 4, "unknown event kind 'redo'"),
    "unknown event field": (edit_event(4, player="Ann"), 4, "unknown field(s) player"),
    "missing source": (edit_event(4, source=None), 4, "missing field(s) source"),
    "at not utc": (edit_event(3, at="2024-05-01T14:00:00+02:00"), 3, "at must be an ISO 8601 time in UTC"),
    "evidence not an object": (edit_event(2, evidence="beam 1"), 2, "evidence must be an object"),
    "empty line": (lambda lines: lines.insert(2, ""), 3, "empty line"),
    "empty file": (lambda lines: lines.clear(), 1, "the header line is missing"),
}


def write(path: Path, lines: Lines) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", MALFORMED)
def test_import_refuses_a_malformed_record_and_writes_nothing(
    case: str, store: RecordStore, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = export_record(store, recorded_game(store).game_id).splitlines()
    edit, line, reason = MALFORMED[case]
    edit(lines)
    path = write(tmp_path / "bad.jsonl", lines)
    before = row_counts(db_path)

    assert main(["import", str(path), "--db", str(db_path)]) == 1
    error = capsys.readouterr().err
    assert f"{path}:{line}: " in error and reason in error, error
    assert "nothing was imported" in error
    assert row_counts(db_path) == before

    assert main(["replay", str(path)]) == 1
    assert f"{path}:{line}: " in capsys.readouterr().err


def test_a_record_that_is_not_utf8_is_refused_with_its_line(
    store: RecordStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = export_record(store, recorded_game(store).game_id).encode().splitlines()
    lines[2] = lines[2].replace(b"host", b"h\xf8st")
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", str(path)]) == 1
    assert f"{path}:3: not UTF-8 text" in capsys.readouterr().err


def test_a_missing_file_is_refused(db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "none.jsonl"), "--db", str(db_path)]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert not db_path.exists()


def test_export_import_export_is_identical(
    store: RecordStore, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = recorded_game(store).game_id
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert main(["export", str(game_id), "--db", str(db_path), "-o", str(first)]) == 0

    assert main(["import", str(first), "--db", str(db_path)]) == 0
    imported = int(capsys.readouterr().out)
    assert imported != game_id
    assert main(["export", str(imported), "--db", str(db_path), "-o", str(second)]) == 0

    assert second.read_bytes() == first.read_bytes()
    assert (
        GameSession.load(store, imported).state.to_json() == GameSession.load(store, game_id).state.to_json()
    )
    assert main(["export", str(imported), "--db", str(db_path)]) == 0
    assert capsys.readouterr().out == first.read_text(encoding="utf-8")


def test_exported_lines_follow_the_format(store: RecordStore) -> None:
    session = recorded_game(store)
    lines = [json.loads(line) for line in export_record(store, session.game_id).splitlines()]
    info = store.info(session.game_id)
    assert lines[0] == {
        "format": "minotaur-companion-record",
        "version": 1,
        "game": "toy-count",
        "options": {"players": 2, "goal": 10, "max_add": 3},
        "names": ["Ann", "Zoë"],
        "created": info.created,
        "finished": False,
    }
    assert [list(line) for line in lines[1:3]] == [
        ["seq", "at", "kind", "source", "action", "evidence"],
        ["seq", "at", "kind", "source", "action"],
    ]
    assert lines[1]["evidence"] == {"frame": 17} and lines[1]["source"] == "camera"
    assert [line["kind"] for line in lines[1:]] == ["action", "action", "action", "undo", "action"]
    assert lines[4] == {"seq": 4, "at": lines[4]["at"], "kind": "undo", "source": "host"}


def test_import_stores_actions_in_canonical_form_and_the_finished_flag(
    store: RecordStore, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = recorded_game(store)
    play(session, 3, 3)
    assert session.state.is_over()
    lines = export_record(store, session.game_id).splitlines()
    lines[0] = lines[0].replace('"finished":true', '"finished":false')
    lines[2] = json.dumps({**json.loads(lines[2]), "action": {"amount": 3, "by": 0, "kind": "add"}})
    assert main(["import", str(write(tmp_path / "game.jsonl", lines)), "--db", str(db_path)]) == 0
    imported = int(capsys.readouterr().out)

    assert store.info(imported).finished, "a record whose replay is over is a finished game"
    assert store.events(imported)[1].action == {"kind": "add", "by": 0, "amount": 3}
