"""Past games: the list, full records, step-through replay, JSON-lines and BG Stats exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.record.jsonl import load_record
from companion.record.replay import RecordHeader, replay
from companion.table.referee import Referee

from .conftest import start_race
from .played import Played, record_game


def body(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_data(as_text=True)
    data = response.get_json()
    assert isinstance(data, dict)
    return data


@pytest.fixture
def finished(referee: Referee) -> Played:
    return record_game(referee.store, ["Ann", "Bo", "Cy"], seed=3)


@pytest.fixture
def unfinished(referee: Referee) -> Played:
    return record_game(referee.store, ["Dee", "Ed", "Flo"], seed=4, stop_before_toss=True)


def test_the_list_shows_every_game_newest_first_with_winners_of_finished_ones(
    viewer: FlaskClient, finished: Played, unfinished: Played
) -> None:
    data = body(viewer.get("/api/history"))
    assert data["total"] == 2
    first, second = data["games"]
    assert (first["id"], first["finished"], first["winners"], first["scores"]) == (
        unfinished.game_id,
        False,
        [],
        None,
    )
    assert second["id"] == finished.game_id and second["finished"] is True
    assert second["title"] == "Minotaurus"
    assert second["scores"] == finished.scores
    assert second["winners"] == finished.ranking[0]
    assert second["ranking"] == finished.ranking
    assert second["events"] == finished.events


def test_the_list_pages_and_filters(client: FlaskClient, viewer: FlaskClient, finished: Played) -> None:
    start_race(client)
    everything = body(viewer.get("/api/history"))
    assert [game["game"] for game in everything["games"]] == ["toy-race", "minotaurus"]
    page = body(viewer.get("/api/history?limit=1&offset=1"))
    assert (page["total"], [game["id"] for game in page["games"]]) == (2, [finished.game_id])
    only = body(viewer.get("/api/history?game=toy-race"))
    assert [game["game"] for game in only["games"]] == ["toy-race"]


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("limit=-1", "limit must be a whole number"),
        ("limit=201", "limit must be a whole number from 0 to 200"),
        ("limit=ten", "limit must be a whole number"),
        ("offset=1e9", "offset must be a whole number"),
        ("game=chess", "chess"),
    ],
)
def test_bad_list_queries_get_a_400(viewer: FlaskClient, query: str, says: str) -> None:
    response = viewer.get(f"/api/history?{query}")
    assert response.status_code == 400
    assert says in response.get_json()["error"]


def test_a_finished_game_has_its_full_record_for_everyone(viewer: FlaskClient, finished: Played) -> None:
    data = body(viewer.get(f"/api/history/{finished.game_id}"))
    assert data["game"]["names"] == ["Ann", "Bo", "Cy"] and data["game"]["title"] == "Minotaurus"
    assert [event["seq"] for event in data["events"]] == list(range(1, finished.events + 1))
    assert data["events"][0]["label"].startswith("turn over position")
    tosses = [event for event in data["events"] if event["action"]["kind"] == "toss"]
    assert len(tosses) == len(finished.tosses)
    sensed = [event for event in tosses if event["source"] == "sensor"]
    assert sensed and all(event["evidence"]["judge"] == "beams" for event in sensed)
    assert data["summary"]["winners"] == finished.ranking[0]


def test_an_unfinished_game_is_the_hosts_alone(
    client: FlaskClient, viewer: FlaskClient, unfinished: Played
) -> None:
    paths = ["", "/replay?step=1", "/record.jsonl", "/bgstats.json"]
    for path in paths:
        response = viewer.get(f"/api/history/{unfinished.game_id}{path}")
        assert response.status_code == 403, path
        assert "only the host may read it" in response.get_json()["error"]
    assert client.get(f"/api/history/{unfinished.game_id}").status_code == 200
    assert client.get(f"/api/history/{unfinished.game_id}/replay?step=2").status_code == 200
    assert client.get(f"/api/history/{unfinished.game_id}/record.jsonl").status_code == 200
    response = client.get(f"/api/history/{unfinished.game_id}/bgstats.json")
    assert response.status_code == 409 and "no final ranking" in response.get_json()["error"]


@pytest.mark.parametrize("path", ["", "/replay", "/record.jsonl", "/bgstats.json"])
def test_an_unknown_game_is_a_404(viewer: FlaskClient, path: str) -> None:
    response = viewer.get(f"/api/history/999{path}")
    assert response.status_code == 404
    assert "no game with id 999" in response.get_json()["error"]


def test_the_replay_steps_through_the_game_as_the_record_replays_it(
    viewer: FlaskClient, referee: Referee, finished: Played
) -> None:
    info = referee.store.info(finished.game_id)
    events = referee.store.events(finished.game_id)
    header = RecordHeader(info.game, info.options, info.names, info.created, info.finished)
    start = body(viewer.get(f"/api/history/{finished.game_id}/replay"))
    assert (start["step"], start["steps"], start["event"]) == (0, finished.events, None)
    assert start["view"]["public"] == replay(header, []).state.public_view()
    for step in (1, 2, 40, finished.events):
        data = body(viewer.get(f"/api/history/{finished.game_id}/replay?step={step}"))
        expected = replay(header, events[:step]).state
        assert data["step"] == step and data["event"]["seq"] == step
        assert data["view"]["public"] == expected.public_view()
        assert data["view"]["scores"] == expected.scores()
        assert data["view"]["seq"] == step
        assert "legal" not in data["view"]
    assert data["view"]["ranking"] == finished.ranking and data["view"]["game"]["finished"] is True


@pytest.mark.parametrize("step", ["-1", "x", "10000", "1.5"])
def test_a_replay_step_out_of_range_is_a_400(viewer: FlaskClient, finished: Played, step: str) -> None:
    response = viewer.get(f"/api/history/{finished.game_id}/replay?step={step}")
    assert response.status_code == 400
    assert "step must be a whole number from 0 to" in response.get_json()["error"]


def test_the_jsonl_export_is_the_record_that_companion_import_reads(
    viewer: FlaskClient, finished: Played, tmp_path: Any
) -> None:
    response = viewer.get(f"/api/history/{finished.game_id}/record.jsonl")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    assert (
        response.headers["Content-Disposition"]
        == f'attachment; filename="minotaurus-{finished.game_id}.jsonl"'
    )
    path = tmp_path / "export.jsonl"
    path.write_bytes(response.data)
    record, replayed = load_record(path)
    assert record.header.names == ["Ann", "Bo", "Cy"] and len(record.events) == finished.events
    assert replayed.state.scores() == finished.scores


def test_the_bgstats_export_of_one_game(viewer: FlaskClient, finished: Played) -> None:
    response = viewer.get(f"/api/history/{finished.game_id}/bgstats.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].endswith(f'minotaurus-{finished.game_id}.bgsplay"')
    data = json.loads(response.data)
    assert "Board Game Stats" in data["about"]
    assert [game["name"] for game in data["games"]] == ["Minotaurus"]
    assert [player["name"] for player in data["players"]] == ["Ann", "Bo", "Cy"]
    (play,) = data["plays"]
    assert play["gameRefId"] == data["games"][0]["id"]
    assert play["locationRefId"] == data["locations"][0]["id"]
    assert play["playDate"] == datetime(2026, 11, 1, 18, 0, tzinfo=UTC).astimezone().strftime(
        "%Y-%m-%d %H:%M:%S"
    )
    assert play["durationMin"] == -(-finished.events * 10 // 60)
    scores = sorted(play["playerScores"], key=lambda score: score["seatOrder"])
    ids = {player["id"]: player["name"] for player in data["players"]}
    assert [ids[score["playerRefId"]] for score in scores] == ["Ann", "Bo", "Cy"]
    assert [score["score"] for score in scores] == [str(s) for s in finished.scores]
    assert [seat for seat, score in enumerate(scores) if score["winner"]] == finished.ranking[0]
    ranks = {seat: place for place, group in enumerate(finished.ranking, start=1) for seat in group}
    assert [score["rank"] for score in scores] == [ranks[seat] for seat in range(3)]


def test_the_bgstats_export_of_all_games_keeps_identities_stable(
    viewer: FlaskClient, referee: Referee, finished: Played, unfinished: Played
) -> None:
    record_game(referee.store, ["ann ", "Bo", "Gus"], seed=5)
    first = json.loads(viewer.get("/api/history/bgstats.json").data)
    assert len(first["plays"]) == 2  # the unfinished game is not a play yet
    assert [player["name"] for player in first["players"]] == ["Ann", "Bo", "Cy", "Gus"]
    assert len({play["uuid"] for play in first["plays"]}) == 2
    again = json.loads(viewer.get("/api/history/bgstats.json").data)
    assert [play["uuid"] for play in again["plays"]] == [play["uuid"] for play in first["plays"]]
    assert [p["uuid"] for p in again["players"]] == [p["uuid"] for p in first["players"]]
    assert json.loads(viewer.get("/api/history/bgstats.json?game=toy-race").data)["plays"] == []


def test_a_record_that_no_longer_replays_is_listed_with_its_error(
    viewer: FlaskClient, referee: Referee
) -> None:
    from companion.record.store import Event

    broken = Event(0, 1, "2026-11-01T18:00:10.000+00:00", "action", "host", {"kind": "claim", "by": 1})
    game_id = referee.store.import_game(
        "minotaurus", {"players": 3}, ["A", "B", "C"], "2026-11-01T18:00:00.000+00:00", True, [broken]
    )
    listed = body(viewer.get("/api/history"))["games"][0]
    assert listed["id"] == game_id and "does not replay" in listed["error"]
    response = viewer.get(f"/api/history/{game_id}/replay?step=1")
    assert response.status_code == 409 and "cannot be replayed" in response.get_json()["error"]
    assert body(viewer.get("/api/stats"))["games"] == 0
