"""What tables and the league agree on: topics and messages, and a clear refusal of anything else."""

from __future__ import annotations

import json

import pytest

from companion.club.messages import (
    ClubMessageError,
    EventMessage,
    Member,
    RecordMessage,
    Roster,
    events_topic,
    parse_topic,
    record_topic,
    tables_filter,
)

EVENT = EventMessage(
    table="table-3",
    game_id=2,
    seq=7,
    at="2026-11-27T19:00:00.000+00:00",
    kind="action",
    source="host",
    label="Ann: black stick on line 12",
    game="minoa",
    names=("Ann", "Bo"),
    finished=False,
    view={"game": {"id": 2}, "scores": [3, 1]},
)


def test_messages_come_back_as_they_were_sent() -> None:
    assert EventMessage.decode(EVENT.encode()) == EVENT
    record = RecordMessage("table-3", 2, ('{"format":"x"}', '{"seq":1}'))
    assert RecordMessage.decode(record.encode()) == record
    roster = Roster("lions", (Member("ann", "Ann Müller"), Member("bo", "Bo")))
    assert Roster.decode(roster.encode()) == roster


def test_topics_name_the_club_the_table_and_what_it_is() -> None:
    assert events_topic("lions", "table-3") == "minotaur/lions/tables/table-3/events"
    parts = parse_topic(record_topic("lions", "table-3", 12))
    assert (parts.club, parts.table, parts.kind, parts.game_id) == ("lions", "table-3", "records", 12)
    assert parse_topic(events_topic("lions", "t1")).kind == "events"
    assert tables_filter("lions") == "minotaur/lions/tables/#"


@pytest.mark.parametrize(
    "topic",
    [
        "minotaur/lions/roster",
        "other/lions/tables/t1/events",
        "minotaur/Lions/tables/t1/events",
        "minotaur/lions/tables/t1/records/x",
        "minotaur/lions/tables/t1/secrets",
        "minotaur/lions/tables/-t/events",
    ],
)
def test_a_topic_no_table_publishes_is_refused(topic: str) -> None:
    with pytest.raises(ClubMessageError):
        parse_topic(topic)


def tampered(**changes: object) -> bytes:
    data = json.loads(EVENT.encode())
    data.update(changes)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        (b"\xff\xfe", "not UTF-8 JSON"),
        (b"[1, 2]", "JSON object"),
        (b"{" * 100_000, "not UTF-8 JSON"),
        (tampered(v=2), "version 2"),
        (tampered(seq=0), "count from 1"),
        (tampered(seq=True), "seq is missing"),
        (tampered(names=[]), "names"),
        (tampered(table="Table 3"), "not an id"),
        (tampered(view=None), "view"),
        (tampered(label=5), "label"),
        (b'{"v": 1, "seq": NaN}', "NaN is not a number"),
    ],
)
def test_a_malformed_event_is_refused_naming_what_is_wrong(payload: bytes, says: str) -> None:
    with pytest.raises(ClubMessageError, match=says):
        EventMessage.decode(payload)


def test_a_roster_with_two_members_of_one_id_is_refused() -> None:
    roster = Roster("lions", (Member("ann", "Ann"), Member("ann", "Anna")))
    with pytest.raises(ClubMessageError, match="share an id"):
        Roster.decode(roster.encode())
