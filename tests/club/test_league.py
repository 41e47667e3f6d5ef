"""The league store: idempotent ingest (twice, out of order, duplicates), malformed messages and records that
do not replay refused with nothing written, ratings equal to openskill run independently over a replay of
the records, two tables starting games at the same moment, a restart keeping everything."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from companion.club.league import League, LeagueError
from companion.club.league_figures import league_from_records
from companion.club.messages import Member, RecordMessage, events_topic, online_topic, record_topic
from companion.record.jsonl import parse_record
from companion.record.replay import replay

from .league_games import CLUB, EVENING, TableGame, play_games

NAMES = [["Ann", "Bo", "Cy"], ["bo ", "Dee", "Ann"], ["Cy", "Dee", "Eve"]]


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> list[TableGame]:
    folder = tmp_path_factory.mktemp("games")
    return [
        *play_games(folder, "t1", NAMES, seed=10),
        *play_games(folder, "t2", [NAMES[2], NAMES[0]], seed=30),
    ]


def ingest_all(league: League, messages: list[tuple[str, bytes]]) -> list[str]:
    return [league.ingest(topic, payload) for topic, payload in messages]


def expected_ratings(records: list[RecordMessage], members: dict[str, str]) -> dict[str, float]:
    """openskill over each record's replayed ranking, in created/table/game_id order, written apart from
    league_figures so that a mistake there shows here."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    rows = []
    for record in records:
        parsed = parse_record(record.lines)
        state = replay(parsed.header, parsed.events).state
        rows.append(
            (parsed.header.created, record.table, record.game_id, parsed.header.names, state.ranking())
        )
    for _created, _table, _game_id, names, ranking in sorted(rows):
        ids = [members.get(name.strip().casefold(), "guest-" + name.strip().casefold()) for name in names]
        ranks = [0] * len(names)
        for place, group in enumerate(ranking, start=1):
            for seat in group:
                ranks[seat] = place
        teams = [[ratings.get(i) or model.rating()] for i in ids]
        for player, team in zip(ids, model.rate(teams, ranks=ranks), strict=True):  # type: ignore[arg-type]
            ratings[player] = team[0]
    return {player: round(rating.ordinal(), 6) for player, rating in ratings.items()}  # type: ignore[attr-defined]


def test_ratings_equal_openskill_over_a_replay_of_the_records(
    tmp_path: Path, evening: list[TableGame]
) -> None:
    league = League(tmp_path / "league.db", CLUB)
    league.add_member("Ann")
    league.add_member("Bo")
    for game in evening:
        assert ingest_all(league, game.messages())[-1] == "record"
    figures = league.figures()
    overall = {line["player"]: line["ordinal"] for line in figures["overall"]}
    assert overall == expected_ratings([g.record for g in evening], {"ann": "ann", "bo": "bo"})
    assert len(figures["games"]) == len(evening)
    # 'bo ' at table 1's second game is the member Bo; Dee, never on the roster, a marked guest.
    lines = {line["player"]: line for line in figures["overall"]}
    assert lines["bo"]["games"] == 3 and not lines["bo"]["guest"]
    assert lines["guest-dee"]["guest"] and lines["guest-dee"]["name"] == "Dee"
    assert [h["table"] for h in figures["history"]["ann"]] == ["t1", "t1", "t2"]  # created time, then table
    assert figures == league_from_records([g.record for g in evening], league.roster().members)
    league.close()


def test_ingest_in_any_order_twice_and_after_a_restart_gives_the_same_league(
    tmp_path: Path, evening: list[TableGame]
) -> None:
    in_order = League(tmp_path / "a.db", CLUB)
    for game in evening:
        ingest_all(in_order, game.messages())
    expected = in_order.figures()
    received = in_order.received()
    in_order.close()

    messages = [message for game in evening for message in game.messages()]
    shuffled = messages * 2
    random.Random(3).shuffle(shuffled)
    league = League(tmp_path / "b.db", CLUB)
    outcomes = ingest_all(league, shuffled)
    assert outcomes.count("event") == len(received) and outcomes.count("record") == len(evening)
    assert outcomes.count("duplicate") == len(received) and outcomes.count("record kept") == len(evening)
    assert league.figures() == expected and league.received() == received
    league.close()

    restarted = League(tmp_path / "b.db")
    assert restarted.club == CLUB
    assert restarted.figures() == expected
    assert ingest_all(restarted, messages).count("event") == 0
    assert restarted.figures() == expected
    restarted.close()


def test_the_live_view_moves_only_forward(tmp_path: Path, evening: list[TableGame]) -> None:
    league = League(tmp_path / "league.db", CLUB)
    first, second = evening[0], evening[1]
    events = first.event_messages()
    ingest_all(league, events[:5])
    assert league.tables()[0]["seq"] == 5
    ingest_all(league, [events[2], events[1]])  # duplicates
    ingest_all(league, second.event_messages()[:3])
    ingest_all(league, events[5:9])  # the older game's events arrive late: kept, the view stays
    table = league.tables()[0]
    assert (table["game_id"], table["seq"]) == (second.game_id, 3)
    assert table["names"] == NAMES[1] and len(table["scores"]) == 3
    assert table["turn"] or table["waiting_for"]
    assert (first.table, first.game_id, 9) in league.received()
    league.close()


def test_two_tables_starting_games_at_the_same_moment(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    one = play_games(folder, "t1", [NAMES[0]], seed=50, start=EVENING)
    two = play_games(folder, "t2", [NAMES[0]], seed=50, start=EVENING)  # same game id, same second
    league = League(tmp_path / "league.db", CLUB)
    messages = [m for pair in zip(one[0].messages(), two[0].messages(), strict=True) for m in pair]
    ingest_all(league, messages)
    assert {t["table"]: t["game_id"] for t in league.tables()} == {"t1": 1, "t2": 1}
    figures = league.figures()
    assert [(g["table"], g["game_id"]) for g in figures["games"]] == [("t1", 1), ("t2", 1)]
    reversed_league = League(tmp_path / "reversed.db", CLUB)
    ingest_all(reversed_league, list(reversed(messages)))
    assert reversed_league.figures() == figures
    league.close()
    reversed_league.close()


def test_malformed_messages_are_counted_and_nothing_is_written(
    tmp_path: Path, evening: list[TableGame]
) -> None:
    league = League(tmp_path / "league.db", CLUB)
    topic, payload = evening[0].event_messages()[0]
    bad = [
        (topic, b"not json"),
        (topic, payload.replace(b'"seq":1', b'"seq":0')),
        (events_topic(CLUB, "t9"), payload),  # the table's name differs from its topic's
        (events_topic("bears", "t1"), payload),  # another club
        ("minotaur/lions/elsewhere", payload),
        (online_topic(CLUB, "t1"), b"yes"),
        (record_topic(CLUB, "t1", 1), b'{"v":1,"table":"t1","game_id":1,"lines":[]}'),
    ]
    assert ingest_all(league, bad) == ["malformed"] * len(bad)
    assert league.counts["malformed"] == len(bad)
    assert [league.store.count(what) for what in ("events", "records", "tables", "members")] == [0, 0, 0, 0]
    league.close()


def test_a_record_that_does_not_replay_is_refused(tmp_path: Path, evening: list[TableGame]) -> None:
    league = League(tmp_path / "league.db", CLUB)
    record = evening[0].record
    event = json.loads(record.lines[3])
    event["seq"] = 99
    broken = RecordMessage(
        record.table, record.game_id, (*record.lines[:3], json.dumps(event), *record.lines[4:])
    )
    illegal = RecordMessage(record.table, record.game_id, (*record.lines[:2], record.lines[3]))
    for message in (broken, illegal):
        assert league.ingest(record_topic(CLUB, "t1", 1), message.encode()) == "refused"
    assert league.store.count("records") == 0 and league.figures()["games"] == []
    assert league.counts["refused"] == 2
    league.close()


def test_a_longer_record_of_the_same_game_replaces_a_shorter_one(
    tmp_path: Path, evening: list[TableGame]
) -> None:
    league = League(tmp_path / "league.db", CLUB)
    record = evening[0].record
    last = json.loads(record.lines[-1])
    undo = {"seq": last["seq"] + 1, "at": last["at"], "kind": "undo", "source": "host"}
    undone = RecordMessage(record.table, record.game_id, (*record.lines, json.dumps(undo)))
    topic = record_topic(CLUB, record.table, record.game_id)
    assert league.ingest(topic, record.encode()) == "record"
    assert len(league.figures()["games"]) == 1
    assert league.ingest(topic, undone.encode()) == "record"  # the game is not over any more: not counted
    assert league.figures()["games"] == []
    assert league.ingest(topic, record.encode()) == "record kept"
    assert league.figures()["games"] == []
    league.close()


def test_a_game_with_one_name_at_two_seats_is_listed_but_not_rated(tmp_path: Path) -> None:
    game = play_games(tmp_path / "games", "t1", [["Ann", "ann ", "Bo"]], seed=60)[0]
    figures = league_from_records([game.record])
    assert figures["games"] == [] and figures["overall"] == []
    assert figures["skipped"] == [{"table": "t1", "game_id": 1, "names": ["Ann", "ann ", "Bo"]}]


def test_the_roster_refuses_a_second_member_of_the_same_name(tmp_path: Path) -> None:
    league = League(tmp_path / "league.db", CLUB)
    published = []
    league.roster_listeners.append(published.append)
    ann = league.add_member("Ann")
    with pytest.raises(LeagueError, match="already a member"):
        league.add_member(" ann")
    with pytest.raises(LeagueError, match="1 to 40"):
        league.add_member("  ")
    assert league.rename_member(ann.id, "Anna") == Member("ann", "Anna")
    assert league.roster().members == (Member("ann", "Anna"),)
    assert [len(r.members) for r in published] == [1, 1]
    league.close()
