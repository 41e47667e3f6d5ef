"""Game records as JSON lines: line 1 a header, then one event a line.

Reading checks the shape of every line here; whether the events make a
legal game is `replay`'s job, and `load_record` does both, so nothing is
written from a file that would not replay to the end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from companion.record.replay import (
    HEADER_LINE,
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordFormatError,
    RecordHeader,
    Replay,
    replay,
)
from companion.record.store import EVENT_KINDS, Event, GameInfo, RecordStore

HEADER_KEYS = ("format", "version", "game", "options", "names", "created", "finished")
EVENT_KEYS = ("seq", "at", "kind", "source", "action", "evidence")
REQUIRED_EVENT_KEYS = ("seq", "at", "kind", "source")


@dataclasses.dataclass(frozen=True)
class Record:
    """A parsed record; `lines[i]` is the line of `events[i]` in its file. Events have game_id 0."""

    header: RecordHeader
    events: list[Event]
    lines: list[int]


# ---------------------------------------------------------------- reading


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _object(line: int, text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except ValueError as error:
        raise RecordFormatError(line, f"bad JSON: {error}") from None
    if not isinstance(value, dict):
        raise RecordFormatError(line, f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def _check_keys(line: int, data: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise RecordFormatError(line, f"unknown field(s) {', '.join(unknown)}")
    missing = [key for key in required if key not in data]
    if missing:
        raise RecordFormatError(line, f"missing field(s) {', '.join(missing)}")


def _utc_time(line: int, field: str, value: Any) -> str:
    offset = None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            offset = datetime.fromisoformat(value).utcoffset()
    if offset is None or offset.total_seconds() != 0:
        raise RecordFormatError(line, f"{field} must be an ISO 8601 time in UTC, not {value!r}")
    return str(value)


def parse_header(text: str, line: int = HEADER_LINE) -> RecordHeader:
    data = _object(line, text, "the header")
    if data.get("format") != RECORD_FORMAT:
        raise RecordFormatError(line, f"not a {RECORD_FORMAT} file (format {data.get('format')!r})")
    version = data.get("version")
    if version != RECORD_VERSION or isinstance(version, bool):
        raise RecordFormatError(
            line, f"unsupported format version {version!r}: this companion reads version {RECORD_VERSION}"
        )
    _check_keys(line, data, HEADER_KEYS, HEADER_KEYS)
    if not isinstance(data["game"], str):
        raise RecordFormatError(line, f"game must be a name, not {data['game']!r}")
    if not isinstance(data["options"], dict):
        raise RecordFormatError(line, f"options must be an object, not {data['options']!r}")
    if not isinstance(data["names"], list):
        raise RecordFormatError(line, f"names must be a list, not {data['names']!r}")
    if not isinstance(data["finished"], bool):
        raise RecordFormatError(line, f"finished must be true or false, not {data['finished']!r}")
    created = _utc_time(line, "created", data["created"])
    return RecordHeader(data["game"], data["options"], data["names"], created, data["finished"])


def parse_event(text: str, line: int) -> Event:
    data = _object(line, text, "an event")
    _check_keys(line, data, EVENT_KEYS, REQUIRED_EVENT_KEYS)
    seq, kind, source = data["seq"], data["kind"], data["source"]
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise RecordFormatError(line, f"seq must be a whole number, not {seq!r}")
    at = _utc_time(line, "at", data["at"])
    if kind not in EVENT_KINDS:
        raise RecordFormatError(
            line, f"unknown event kind {kind!r}; expected one of {', '.join(EVENT_KINDS)}"
        )
    if not isinstance(source, str) or not source:
        raise RecordFormatError(line, f"source must be a non-empty text, not {source!r}")
    action = data.get("action")
    if kind == "action" and not isinstance(action, dict):
        raise RecordFormatError(line, f"an action event needs an action object, not {action!r}")
    if kind == "undo" and "action" in data:
        raise RecordFormatError(line, "an undo event carries no action")
    evidence = data.get("evidence")
    if evidence is not None and not isinstance(evidence, dict):
        raise RecordFormatError(line, f"evidence must be an object, not {evidence!r}")
    return Event(0, seq, at, kind, source, action, evidence)


def parse_record(lines: Iterable[bytes | str]) -> Record:
    """Parse JSON lines (without their line ends) into a record, checking each line's shape."""
    header: RecordHeader | None = None
    events: list[Event] = []
    numbers: list[int] = []
    for number, raw in enumerate(lines, start=HEADER_LINE):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as error:
            raise RecordFormatError(number, f"not UTF-8 text: {error}") from None
        if not text.strip():
            raise RecordFormatError(number, "empty line: every line must be the header or an event")
        if header is None:
            header = parse_header(text, number)
        else:
            events.append(parse_event(text, number))
            numbers.append(number)
    if header is None:
        raise RecordFormatError(HEADER_LINE, "empty record: the header line is missing")
    return Record(header, events, numbers)


def read_record(path: str | Path) -> Record:
    data = Path(path).read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return parse_record(line.removesuffix(b"\r") for line in lines)


def load_record(path: str | Path) -> tuple[Record, Replay]:
    """Read and fully replay a record file; raises `RecordFormatError` on the first bad line."""
    record = read_record(path)
    return record, replay(record.header, record.events, lines=record.lines)


# ---------------------------------------------------------------- writing


def _dumps(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def record_lines(info: GameInfo, events: Iterable[Event]) -> Iterator[str]:
    """The record of one game as JSON lines, each without its line end."""
    yield _dumps(
        {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": info.game,
            "options": info.options,
            "names": info.names,
            "created": info.created,
            "finished": info.finished,
        }
    )
    for event in events:
        line: dict[str, Any] = {"seq": event.seq, "at": event.at, "kind": event.kind, "source": event.source}
        if event.action is not None:
            line["action"] = event.action
        if event.evidence is not None:
            line["evidence"] = event.evidence
        yield _dumps(line)


def write_record(info: GameInfo, events: Iterable[Event], out: IO[str]) -> None:
    for line in record_lines(info, events):
        out.write(line + "\n")


# ---------------------------------------------------------------- store


def import_record(store: RecordStore, record: Record, replayed: Replay) -> int:
    """Write a record checked by `load_record` (which gave `replayed`) in one transaction; returns its id."""
    # Actions are stored in their canonical JSON form, so a hand-written record exports like a live one.
    events = [
        event
        if event.action is None
        else dataclasses.replace(event, action=replayed.game.action_from_json(event.action).to_json())
        for event in record.events
    ]
    finished = record.header.finished or replayed.state.is_over()
    return store.import_game(
        replayed.game.name, replayed.options, replayed.names, record.header.created, finished, events
    )


def export_record(store: RecordStore, game_id: int) -> str:
    """One game's record as the text of a JSON-lines file."""
    info = store.info(game_id)
    return "".join(line + "\n" for line in record_lines(info, store.events(game_id)))
