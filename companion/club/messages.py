"""The topics and messages that tables and the league agree on: one place, checked on both sides.

Topics (`club` and `table` are short ids: lower-case letters, digits and dashes):

    minotaur/<club>/roster                             retained; the organiser's list of the club's players
    minotaur/<club>/tables/<table>/events              QoS 1; one message per recorded event, in order
    minotaur/<club>/tables/<table>/records/<game_id>   retained, QoS 1; a finished game's whole record
    minotaur/<club>/tables/<table>/online              retained; "1", or "0" (also the table's last will)

What leaves a table is what its public scoreboard shows: an event message carries the event's place in
the record (seq, time, kind, who entered it), its words as the scoreboard's log shows them, and the
public view after it - never the action's data or the sensors' evidence, from which a memory game's
face-down pieces could be rebuilt while it is played. The record itself, every event in the record's own
format, is published once the game is finished, when the history page shows it to everyone too.

A malformed message is refused with ClubMessageError naming what is wrong; the reader counts and skips it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any

PREFIX = "minotaur"
VERSION = 1
ID_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?")
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""The largest message read: a long game's record is well below a megabyte."""


class ClubMessageError(ValueError):
    """A message or topic that is not what the club's tables and league agree on."""


def check_id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise ClubMessageError(
            f"{what} {value!r} is not an id: 1 to 32 lower-case letters, digits and dashes, "
            "starting and ending with a letter or digit"
        )
    return value


def roster_topic(club: str) -> str:
    return f"{PREFIX}/{check_id(club, 'club')}/roster"


def events_topic(club: str, table: str) -> str:
    return f"{PREFIX}/{check_id(club, 'club')}/tables/{check_id(table, 'table')}/events"


def record_topic(club: str, table: str, game_id: int) -> str:
    return f"{PREFIX}/{check_id(club, 'club')}/tables/{check_id(table, 'table')}/records/{game_id}"


def online_topic(club: str, table: str) -> str:
    return f"{PREFIX}/{check_id(club, 'club')}/tables/{check_id(table, 'table')}/online"


def tables_filter(club: str) -> str:
    """What the league subscribes to: every table's messages."""
    return f"{PREFIX}/{check_id(club, 'club')}/tables/#"


@dataclasses.dataclass(frozen=True)
class TopicParts:
    club: str
    table: str
    kind: str
    """"events", "records" or "online"."""
    game_id: int | None = None


def parse_topic(topic: str) -> TopicParts:
    """A table's topic in parts; ClubMessageError for anything else (the roster is not a table's)."""
    parts = topic.split("/")
    if len(parts) < 5 or parts[0] != PREFIX or parts[2] != "tables":
        raise ClubMessageError(f"topic {topic!r} is not a table's ({PREFIX}/<club>/tables/<table>/...)")
    club, table = check_id(parts[1], "club"), check_id(parts[3], "table")
    if parts[4] in ("events", "online") and len(parts) == 5:
        return TopicParts(club, table, parts[4])
    if parts[4] == "records" and len(parts) == 6 and parts[5].isdigit() and len(parts[5]) < 16:
        return TopicParts(club, table, "records", int(parts[5]))
    raise ClubMessageError(f"topic {topic!r} names nothing a table publishes")


# ---------------------------------------------------------------- messages


def _object(payload: bytes, what: str) -> dict[str, Any]:
    if len(payload) > MAX_MESSAGE_BYTES:
        raise ClubMessageError(f"{what}: {len(payload)} bytes, more than {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ClubMessageError(f"{what}: not UTF-8 JSON ({error})") from None
    if not isinstance(data, dict):
        raise ClubMessageError(f"{what}: a JSON object was expected, not {type(data).__name__}")
    if data.get("v") != VERSION:
        raise ClubMessageError(f"{what}: version {data.get('v')!r}, this league reads version {VERSION}")
    return data


def _no_constant(name: str) -> Any:
    raise ClubMessageError(f"{name} is not a number")


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ClubMessageError(f"{what}: {name} is missing or not {getattr(kind, '__name__', kind)}")
    return value


def _encode(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


@dataclasses.dataclass(frozen=True)
class EventMessage:
    """One recorded event of a table, as its scoreboard shows it, with the public view after it."""

    table: str
    game_id: int
    seq: int
    at: str
    kind: str
    source: str
    label: str | None
    game: str
    names: tuple[str, ...]
    finished: bool
    view: dict[str, Any]
    """The table's public view after this event (what /api/state serves everyone)."""

    def encode(self) -> bytes:
        return _encode({"v": VERSION, **dataclasses.asdict(self), "names": list(self.names)})

    @classmethod
    def decode(cls, payload: bytes) -> EventMessage:
        data = _object(payload, "event message")
        what = "event message"
        game_id, seq = _field(data, "game_id", int, what), _field(data, "seq", int, what)
        if game_id < 1 or seq < 1:
            raise ClubMessageError(f"{what}: game_id and seq count from 1")
        names = _field(data, "names", list, what)
        if not names or not all(isinstance(name, str) and name for name in names):
            raise ClubMessageError(f"{what}: names must be the players' names")
        label = data.get("label")
        if label is not None and not isinstance(label, str):
            raise ClubMessageError(f"{what}: label is not text")
        return cls(
            table=check_id(data.get("table"), "table"),
            game_id=game_id,
            seq=seq,
            at=_field(data, "at", str, what),
            kind=_field(data, "kind", str, what),
            source=_field(data, "source", str, what),
            label=label,
            game=_field(data, "game", str, what),
            names=tuple(names),
            finished=_field(data, "finished", bool, what),
            view=_field(data, "view", dict, what),
        )


@dataclasses.dataclass(frozen=True)
class RecordMessage:
    """A finished game's whole record: its JSON lines (companion/record/jsonl.py), header first."""

    table: str
    game_id: int
    lines: tuple[str, ...]

    def encode(self) -> bytes:
        data = {"v": VERSION, "table": self.table, "game_id": self.game_id, "lines": list(self.lines)}
        return _encode(data)

    @classmethod
    def decode(cls, payload: bytes) -> RecordMessage:
        data = _object(payload, "record message")
        lines = _field(data, "lines", list, "record message")
        if not lines or not all(isinstance(line, str) for line in lines):
            raise ClubMessageError("record message: lines must be the record's JSON lines, header first")
        game_id = _field(data, "game_id", int, "record message")
        if game_id < 1:
            raise ClubMessageError("record message: game_id counts from 1")
        return cls(check_id(data.get("table"), "table"), game_id, tuple(lines))


@dataclasses.dataclass(frozen=True)
class Member:
    """A player of the club: the same person at every table."""

    id: str
    name: str


@dataclasses.dataclass(frozen=True)
class Roster:
    club: str
    members: tuple[Member, ...]

    def encode(self) -> bytes:
        members = [{"id": member.id, "name": member.name} for member in self.members]
        return _encode({"v": VERSION, "club": self.club, "members": members})

    @classmethod
    def decode(cls, payload: bytes) -> Roster:
        data = _object(payload, "roster")
        members = []
        for entry in _field(data, "members", list, "roster"):
            if not isinstance(entry, dict):
                raise ClubMessageError("roster: each member is an object with id and name")
            name = _field(entry, "name", str, "roster member")
            if not name.strip():
                raise ClubMessageError("roster: a member's name is empty")
            members.append(Member(check_id(entry.get("id"), "member"), name))
        if len({member.id for member in members}) != len(members):
            raise ClubMessageError("roster: two members share an id")
        return cls(check_id(data.get("club"), "club"), tuple(members))
