from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from table.toygame import SECRET_KEY

from companion.table.referee import Referee
from companion.web import create_app

from .conftest import TEST_CONFIG, event_count, sign_in, start_race


def body(response: Any) -> dict[str, Any]:
    data = response.get_json()
    assert isinstance(data, dict), response.data
    return data


def test_the_state_of_an_empty_table_says_what_it_waits_for(client: FlaskClient) -> None:
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    state = body(response)
    assert state["game"] is None
    assert state["to_act"]["waiting_for"] == "a new game"
    assert state["table"] == {"simulate": False, "autoplay": False, "unfinished": []}


def test_games_are_described_for_the_new_game_form(client: FlaskClient) -> None:
    games = {game["name"]: game for game in body(client.get("/api/games"))["games"]}
    assert games["toy-race"]["title"] == "Toy race"
    assert [option["name"] for option in games["toy-race"]["options"]] == ["players", "goal"]


def test_a_new_game_is_created_and_becomes_the_table_state(client: FlaskClient) -> None:
    game_id = start_race(client)
    state = body(client.get("/api/state"))
    assert state["game"]["id"] == game_id
    assert state["game"]["names"] == ["Ann", "Bo"]
    assert state["to_act"] == {"seats": [0], "waiting_for": "seat 0 to step", "chance": False}
    assert state["legal"] == [
        {"by": 0, "label": "step 1", "action": {"kind": "step", "by": 0, "size": 1}},
        {"by": 0, "label": "step 2", "action": {"kind": "step", "by": 0, "size": 2}},
    ]


def test_a_new_game_without_names_gets_one_per_seat(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"game": "toy-race", "options": {"players": 3}})
    assert response.status_code == 201
    assert body(response)["state"]["game"]["names"] == ["Seat 0", "Seat 1", "Seat 2"]


def test_actions_and_undo_are_applied_and_recorded(client: FlaskClient, db_path: Path) -> None:
    game_id = start_race(client)
    response = client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 2}, "after": 0})
    assert response.status_code == 200
    reply = body(response)
    assert reply["event"]["seq"] == 1 and reply["event"]["source"] == "host"
    assert reply["state"]["public"] == {"places": [2, 0], "goal": 6}
    coin = {"kind": "coin", "by": -1, "heads": True}
    assert client.post("/api/actions", json={"action": coin, "game_id": game_id}).status_code == 200

    response = client.post("/api/undo", json={"after": 2})
    assert response.status_code == 200
    assert body(response)["event"]["kind"] == "undo"
    assert body(response)["state"]["public"]["places"] == [2, 0]
    assert event_count(db_path) == 3
    assert SECRET_KEY not in client.get("/api/state").get_data(as_text=True)


REFUSALS = [
    ("/api/actions", {"action": {"kind": "step", "by": 1, "size": 1}}, 409, "turn order"),
    ("/api/actions", {"action": {"kind": "step", "by": 0, "size": 5}}, 409, "step size"),
    ("/api/actions", {"action": {"kind": "step", "by": 0, "size": 1}, "after": 4}, 409, "decided at event 4"),
    ("/api/actions", {"action": {"kind": "step", "by": 0, "size": 1}, "game_id": 77}, 409, "game 77"),
    ("/api/actions", {"action": {"kind": "jump", "by": 0}}, 400, "unknown action kind"),
    ("/api/actions", {"action": {"kind": "step", "by": 0}}, 400, "missing field"),
    ("/api/actions", {"action": "step 1"}, 400, "action must be an object"),
    ("/api/actions", {"action": {"kind": "step", "by": 0, "size": 1}, "after": "0"}, 400, "whole number"),
    ("/api/actions", {"action": {"kind": "step", "by": 0, "size": 1}, "colour": "red"}, 400, "unknown field"),
    ("/api/actions", {}, 400, "missing field(s) action"),
    ("/api/actions", [1, 2], 400, "must be a JSON object"),
    ("/api/undo", {}, 409, "nothing to undo"),
    ("/api/undo", {"after": True}, 400, "whole number"),
    ("/api/autoplay", {"on": True}, 409, "only in simulation"),
    ("/api/autoplay", {"on": "yes"}, 400, "true or false"),
    ("/api/games", {"game": "toy-race", "options": {"goal": 0}}, 400, "goal=0 is invalid"),
    ("/api/games", {"game": "toy-race", "options": {"goal": 3}, "names": ["Ann"]}, 400, "one name per seat"),
    ("/api/games", {"game": "toy-race", "names": "Ann and Bo"}, 400, "names must be a list"),
    ("/api/games", {"game": "chess"}, 400, "unknown game"),
    ("/api/games", {"game": 7}, 400, "game must be"),
    ("/api/games", {"options": {}}, 400, "missing field(s) game"),
    ("/api/games/77/resume", {}, 404, "no game with id 77"),
]


@pytest.mark.parametrize(("url", "payload", "status", "says"), REFUSALS)
def test_a_refused_request_gets_a_clear_error_and_changes_nothing(
    client: FlaskClient, db_path: Path, url: str, payload: object, status: int, says: str
) -> None:
    start_race(client)
    before = client.get("/api/state").get_data()

    response = client.post(url, json=payload)

    assert response.status_code == status
    reply = body(response)
    assert says in reply["error"]
    assert reply["status"] == status
    assert event_count(db_path) == 0
    assert client.get("/api/state").get_data() == before


def test_a_rule_refusal_names_the_rule(client: FlaskClient) -> None:
    start_race(client)
    reply = body(client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 3}}))
    assert (reply["type"], reply["rule"]) == ("RuleError", "step size")


def test_a_body_that_is_not_json_is_refused(client: FlaskClient, db_path: Path) -> None:
    start_race(client)
    response = client.post("/api/actions", data="{'kind': 'step'", content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON" in body(response)["error"]
    assert event_count(db_path) == 0


def test_an_oversized_body_is_refused_before_it_is_read(client: FlaskClient, db_path: Path) -> None:
    start_race(client)
    huge = json.dumps({"action": {"kind": "step", "by": 0, "size": 1}, "note": "x" * 100_000})
    response = client.post("/api/actions", data=huge, content_type="application/json")
    assert response.status_code == 413
    assert body(response)["status"] == 413
    assert event_count(db_path) == 0


def test_a_wrong_method_or_path_gets_a_json_error(client: FlaskClient) -> None:
    response = client.get("/api/actions")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert body(response)["status"] == 405
    response = client.delete("/api/state")
    assert response.status_code == 405
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert body(response)["status"] == 404


def test_an_unfinished_game_can_be_resumed(client: FlaskClient) -> None:
    first = start_race(client)
    second = start_race(client)
    state = body(client.get("/api/state"))
    assert state["game"]["id"] == second
    assert state["table"]["unfinished"] == [{"id": first, "title": "Toy race", "names": ["Ann", "Bo"]}]

    response = client.post(f"/api/games/{first}/resume")
    assert response.status_code == 200
    assert body(response)["state"]["game"]["id"] == first


def test_autoplay_is_switched_in_simulation(db_path: Path) -> None:
    referee = Referee(db_path, simulate=True)
    referee.start()
    try:
        client = create_app(TEST_CONFIG, referee=referee).test_client()
        sign_in(client)
        response = client.post("/api/autoplay", json={"on": False})
        assert response.status_code == 200
        assert body(response)["state"]["table"]["autoplay"] is False
        assert body(client.get("/api/state"))["table"]["autoplay"] is False
    finally:
        referee.stop()


def test_the_page_and_its_files_come_from_the_app_itself(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<script src="/static/app.js">' in html
    assert 'href="/static/style.css"' in html
    for path in ("/static/app.js", "/static/style.css"):
        response = client.get(path)
        assert response.status_code == 200
        # SVG's namespace is a name written as an address, never fetched.
        text = response.get_data(as_text=True).replace('"http://www.w3.org/2000/svg"', "")
        assert "http://" not in text and "https://" not in text, f"{path} loads something from the internet"
        response.close()
    assert "http://" not in html and "https://" not in html


def test_control_requests_get_503_while_the_referee_is_not_running(db_path: Path) -> None:
    referee = Referee(db_path)
    referee.start()
    referee.stop()
    client = create_app(TEST_CONFIG, referee=referee).test_client()
    sign_in(client)
    response = client.post("/api/undo")
    assert response.status_code == 503
    assert "not running" in body(response)["error"]
    assert client.get("/api/state").status_code == 200, "the last view stays readable"


def test_an_app_made_without_a_referee_runs_its_own_on_the_configured_record(tmp_path: Path) -> None:
    app = create_app({**TEST_CONFIG, "DATABASE": str(tmp_path / "own.db")})
    try:
        client = app.test_client()
        sign_in(client)
        assert client.post("/api/games", json={"game": "toy-race"}).status_code == 201
        assert event_count(tmp_path / "own.db") == 0
        assert body(client.get("/api/state"))["game"]["name"] == "toy-race"
    finally:
        app.extensions["companion.referee"].stop()
