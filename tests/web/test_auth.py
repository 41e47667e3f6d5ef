"""The host's protection: PIN sign-in, the console's sign-in link, CSRF tokens, expiry, sign-out, and the
toss verdict endpoints behind them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.minotaurus import Toss
from companion.table.inputs import ResumeGame, SubmitAction
from companion.table.referee import Referee
from companion.web.auth import (
    COOKIE_NAME,
    HostAuth,
    TooManyAttemptsError,
    WrongPinError,
    host_auth,
    random_pin,
)

from .conftest import HOST_PIN, event_count, sign_in, start_race
from .played import evidence, record_game, toss_now


def body(response: Any) -> dict[str, Any]:
    data = response.get_json()
    assert isinstance(data, dict), response.data
    return data


def control_urls(app: Flask) -> list[str]:
    """Every URL of the control blueprint, with sample ids filled in."""
    urls = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("control."):
            assert rule.methods is not None and "POST" in rule.methods
            built = rule.build({name: 1 for name in rule.arguments})
            assert built is not None
            urls.append(built[1])
    return sorted(urls)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app: Flask) -> Clock:
    fake = Clock()
    host_auth(app).clock = fake
    return fake


def test_the_control_blueprint_has_the_endpoints_this_file_guards(app: Flask) -> None:
    assert control_urls(app) == [
        "/api/actions",
        "/api/autoplay",
        "/api/games",
        "/api/games/1/resume",
        "/api/tosses/1/confirm",
        "/api/tosses/1/overturn",
        "/api/undo",
    ]


def test_a_viewer_without_the_pin_can_never_act(
    app: Flask, client: FlaskClient, viewer: FlaskClient, db_path: Path
) -> None:
    start_race(client)
    client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 1}})
    before = (event_count(db_path), viewer.get("/api/state").get_json()["seq"])
    for url in control_urls(app):
        response = viewer.post(url, json={"action": {"kind": "step", "by": 1, "size": 1}, "game": "toy-race"})
        assert response.status_code == 403, url
        assert "sign in with the table PIN" in body(response)["error"]
    assert (event_count(db_path), viewer.get("/api/state").get_json()["seq"]) == before


OPEN_TO_EVERYONE = {"auth.sign_in", "club.mark_present"}
"""The requests that change something without a host session: signing in, and a player marking
themselves present at a club table by tapping their club name (it touches no game and no record)."""


def test_every_request_that_changes_anything_in_the_app_refuses_a_viewer(
    app: Flask, viewer: FlaskClient, db_path: Path
) -> None:
    changing = [
        rule
        for rule in app.url_map.iter_rules()
        if rule.methods
        and rule.methods & {"POST", "PUT", "PATCH", "DELETE"}
        and rule.endpoint not in OPEN_TO_EVERYONE
    ]
    assert len(changing) >= len(control_urls(app)) + 1  # the control blueprint, sign-out, and any later one
    for rule in changing:
        built = rule.build({name: 1 for name in rule.arguments})
        assert built is not None
        method = sorted((rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"})[0]
        response = viewer.open(built[1], method=method, json={})
        assert response.status_code == 403, f"{method} {built[1]} ({rule.endpoint}) acts for a viewer"
    assert event_count(db_path) == 0


def test_reading_needs_no_pin(viewer: FlaskClient) -> None:
    assert viewer.get("/api/state").status_code == 200
    assert viewer.get("/api/games").status_code == 200
    assert body(viewer.get("/api/host/session")) == {
        "host": False,
        "expired": False,
        "reason": "only the host may do this: sign in with the table PIN",
    }


def test_signing_in_sets_a_strict_http_only_cookie_and_gives_the_csrf_token(viewer: FlaskClient) -> None:
    response = viewer.post("/api/host/sign-in", json={"pin": HOST_PIN})
    assert response.status_code == 200
    data = body(response)
    assert data["host"] is True and data["expires_in"] == 12 * 3600
    assert len(data["csrf_token"]) >= 32
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert response.headers["Cache-Control"] == "no-store"
    status = body(viewer.get("/api/host/session"))
    assert status["host"] is True and status["csrf_token"] == data["csrf_token"]


@pytest.mark.parametrize(
    ("payload", "status", "says"),
    [
        ({"pin": "9999"}, 403, "wrong table PIN"),
        ({"pin": 4321}, 400, "pin must be the table PIN as a text"),
        ({"pin": "43a1"}, 400, "4 to 12 digits"),
        ({}, 400, "missing field(s) pin"),
        ({"pin": HOST_PIN, "admin": True}, 400, "unknown field(s) admin"),
        ([HOST_PIN], 400, "must be a JSON object"),
    ],
)
def test_a_bad_sign_in_is_refused_and_signs_nobody_in(
    viewer: FlaskClient, payload: Any, status: int, says: str
) -> None:
    response = viewer.post("/api/host/sign-in", json=payload)
    assert response.status_code == status
    assert says in body(response)["error"]
    assert "Set-Cookie" not in response.headers
    assert body(viewer.get("/api/host/session"))["host"] is False


def test_a_malformed_or_oversized_sign_in_gets_a_4xx(viewer: FlaskClient) -> None:
    broken = viewer.post("/api/host/sign-in", data="{pin:", content_type="application/json")
    assert broken.status_code == 400 and "not valid JSON" in body(broken)["error"]
    huge = viewer.post("/api/host/sign-in", data="x" * 20_000, content_type="application/json")
    assert huge.status_code == 413


def test_wrong_pins_lock_the_phone_out_for_a_while(viewer: FlaskClient, clock: Clock) -> None:
    for _ in range(5):
        assert viewer.post("/api/host/sign-in", json={"pin": "0000"}).status_code == 403
    locked = viewer.post("/api/host/sign-in", json={"pin": HOST_PIN})
    assert locked.status_code == 429
    assert locked.headers["Retry-After"] == "60"
    assert "too many wrong PINs" in body(locked)["error"]
    clock.now += 61
    assert viewer.post("/api/host/sign-in", json={"pin": HOST_PIN}).status_code == 200


def sign_in_from(viewer: FlaskClient, address: str, pin: str) -> Any:
    return viewer.post("/api/host/sign-in", json={"pin": pin}, environ_base={"REMOTE_ADDR": address})


def test_wrong_pins_from_many_addresses_make_every_pin_sign_in_wait(
    app: Flask, client: FlaskClient, viewer: FlaskClient, clock: Clock
) -> None:
    limit = app.config["HOST_PIN_TABLE_ATTEMPTS"]
    for n in range(limit):
        clock.now += 1
        assert (
            sign_in_from(viewer, f"10.0.0.{n}", "0000").status_code == 403
        )  # one try each: no address locked
    waiting = sign_in_from(viewer, "10.0.1.1", HOST_PIN)  # the right PIN, from a phone that never erred
    assert waiting.status_code == 429
    assert "too many wrong PINs at this table" in body(waiting)["error"]
    first_failure = 1000.0 + 1
    assert waiting.headers["Retry-After"] == str(round(first_failure + 60 - clock.now))
    assert "Set-Cookie" not in waiting.headers
    # The host signed in before keeps acting; the console's link still signs a phone in.
    assert client.post("/api/games", json={"game": "toy-race"}).status_code == 201
    assert viewer.get(f"/host/sign-in?key={host_auth(app).link_key}").status_code == 303
    clock.now = first_failure + 60  # the oldest wrong PIN is a minute old: one more may be checked
    assert sign_in_from(app.test_client(), "10.0.1.1", HOST_PIN).status_code == 200


def test_a_guesser_rotating_addresses_gets_the_table_limit_and_no_more(
    app: Flask, viewer: FlaskClient, clock: Clock
) -> None:
    """Ten minutes of guessing at a try every 100 ms, each from a new address: the PINs checked are the
    table's limit a minute (before this limit, every one of the 6,000 was checked)."""
    checked = waited = 0
    for n in range(6000):
        clock.now += 0.1
        status = sign_in_from(viewer, f"10.0.{n // 256}.{n % 256}", f"{n % 1000:04d}").status_code
        checked += status == 403
        waited += status == 429
    limit = app.config["HOST_PIN_TABLE_ATTEMPTS"]
    assert checked == 10 * limit and waited == 6000 - checked


def test_the_table_limit_is_a_setting(referee: Referee) -> None:
    from companion.web import create_app

    from .conftest import TEST_CONFIG

    app = create_app(
        {**TEST_CONFIG, "HOST_PIN_TABLE_ATTEMPTS": 3, "HOST_PIN_TABLE_WINDOW": 10}, referee=referee
    )
    auth = host_auth(app)
    for n in range(3):
        with pytest.raises(WrongPinError):
            auth.sign_in_with_pin("0000", f"10.0.0.{n}")
    with pytest.raises(TooManyAttemptsError) as raised:
        auth.sign_in_with_pin(HOST_PIN, "10.0.0.9")
    assert 9 < raised.value.retry_after <= 10


def test_a_right_pin_clears_the_count_of_wrong_ones(viewer: FlaskClient) -> None:
    for _ in range(4):
        viewer.post("/api/host/sign-in", json={"pin": "0000"})
    assert viewer.post("/api/host/sign-in", json={"pin": HOST_PIN}).status_code == 200
    for _ in range(4):
        assert viewer.post("/api/host/sign-in", json={"pin": "0000"}).status_code == 403
    assert viewer.post("/api/host/sign-in", json={"pin": HOST_PIN}).status_code == 200


def test_a_control_request_without_the_csrf_token_is_refused(client: FlaskClient, db_path: Path) -> None:
    start_race(client)
    before = event_count(db_path)
    step = {"action": {"kind": "step", "by": 0, "size": 1}}
    del client.environ_base["HTTP_X_CSRF_TOKEN"]
    missing = client.post("/api/actions", json=step)
    assert missing.status_code == 403 and "X-CSRF-Token header is missing" in body(missing)["error"]
    wrong = client.post("/api/actions", json=step, headers={"X-CSRF-Token": "forged"})
    assert wrong.status_code == 403 and "does not match" in body(wrong)["error"]
    assert event_count(db_path) == before


def test_a_token_of_another_session_does_not_pass(app: Flask, client: FlaskClient, db_path: Path) -> None:
    start_race(client)
    other = app.test_client()
    other_token = sign_in(other)
    response = client.post(
        "/api/actions",
        json={"action": {"kind": "step", "by": 0, "size": 1}},
        headers={"X-CSRF-Token": other_token},
    )
    assert response.status_code == 403
    assert event_count(db_path) == 0


def test_a_request_from_another_site_is_refused_even_with_cookie_and_token(
    client: FlaskClient, db_path: Path
) -> None:
    for origin in ("http://evil.example", "null"):
        response = client.post("/api/games", json={"game": "toy-race"}, headers={"Origin": origin})
        assert response.status_code == 403, origin
        assert "another site" in body(response)["error"]
    same_site = client.post("/api/games", json={"game": "toy-race"}, headers={"Origin": "http://localhost"})
    assert same_site.status_code == 201


def test_a_sign_in_from_another_site_is_refused(viewer: FlaskClient) -> None:
    response = viewer.post(
        "/api/host/sign-in", json={"pin": HOST_PIN}, headers={"Origin": "http://evil.example"}
    )
    assert response.status_code == 403
    assert body(viewer.get("/api/host/session"))["host"] is False


def test_sessions_expire(app: Flask, clock: Clock, db_path: Path) -> None:
    host = app.test_client()
    sign_in(host)
    clock.now += 12 * 3600 - 1
    assert start_race(host)
    clock.now += 2
    response = host.post("/api/undo")
    assert response.status_code == 403
    assert "expired" in body(response)["error"]
    status = body(host.get("/api/host/session"))
    assert status["host"] is False
    assert event_count(db_path) == 0


def test_the_session_length_is_a_setting(referee: Referee) -> None:
    from companion.web import create_app

    from .conftest import TEST_CONFIG

    app = create_app({**TEST_CONFIG, "HOST_SESSION_SECONDS": 60}, referee=referee)
    clock = Clock()
    host_auth(app).clock = clock
    host = app.test_client()
    sign_in(host)
    assert body(host.get("/api/host/session"))["expires_in"] == 60
    clock.now += 60
    assert host.post("/api/games", json={"game": "toy-race"}).status_code == 403


def test_signing_out_ends_the_session(client: FlaskClient) -> None:
    token = client.environ_base["HTTP_X_CSRF_TOKEN"]
    response = client.post("/api/host/sign-out")
    assert response.status_code == 200 and body(response) == {"host": False}
    assert f"{COOKIE_NAME}=;" in response.headers["Set-Cookie"]
    refused = client.post("/api/games", json={"game": "toy-race"}, headers={"X-CSRF-Token": token})
    assert refused.status_code == 403


def test_signing_out_needs_the_session_and_its_token(app: Flask, viewer: FlaskClient) -> None:
    assert viewer.post("/api/host/sign-out").status_code == 403
    host = app.test_client()
    sign_in(host)
    del host.environ_base["HTTP_X_CSRF_TOKEN"]
    assert host.post("/api/host/sign-out").status_code == 403  # a cross-site page cannot sign the host out
    assert body(host.get("/api/host/session"))["host"] is True


def test_the_console_link_signs_in_and_leads_to_the_control_page(app: Flask, viewer: FlaskClient) -> None:
    key = host_auth(app).link_key
    response = viewer.get(f"/host/sign-in?key={key}")
    assert response.status_code == 303
    assert response.headers["Location"] == "/host"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "HttpOnly" in response.headers["Set-Cookie"]
    status = body(viewer.get("/api/host/session"))
    assert status["host"] is True
    viewer.environ_base["HTTP_X_CSRF_TOKEN"] = status["csrf_token"]
    assert viewer.post("/api/games", json={"game": "toy-race"}).status_code == 201


@pytest.mark.parametrize("query", ["", "?key=", "?key=guessed", f"?key={HOST_PIN}"])
def test_a_wrong_link_signs_nobody_in(viewer: FlaskClient, query: str) -> None:
    response = viewer.get(f"/host/sign-in{query}")
    assert response.status_code == 403
    assert "Set-Cookie" not in response.headers
    assert body(viewer.get("/api/host/session"))["host"] is False


def test_pins_are_digits() -> None:
    assert len(random_pin()) == 6 and random_pin().isdigit()
    with pytest.raises(ValueError, match="4 to 12 digits"):
        HostAuth("12ab", 60)


def test_an_app_without_a_configured_pin_makes_one_up(referee: Referee) -> None:
    from companion.web import create_app

    app = create_app({"TESTING": True}, referee=referee)
    pin = app.config["HOST_PIN"]
    assert pin.isdigit() and len(pin) == 6
    assert host_auth(app).pin == pin


# ---------------------------------------------------------------- toss verdicts


@pytest.fixture
def toss_game(client: FlaskClient, referee: Referee) -> int:
    """A Minotaurus game at the table whose latest action is the sensors' verdict of a failed toss."""
    played = record_game(referee.store, ["Ann", "Bo", "Cy"], seed=2, stop_before_toss=True)
    assert referee.call(ResumeGame(played.game_id), source="host").ok
    state = referee.snapshot().state
    assert state is not None
    (seat,) = {toss.player for toss in state.legal_actions() if isinstance(toss, Toss)}
    reply = referee.call(SubmitAction(toss_now(seat, False), evidence=evidence(False, None)), source="sensor")
    assert reply.ok and reply.event is not None
    return reply.event.seq


def test_the_host_overturns_a_verdict_by_recording_an_undo_and_the_corrected_toss(
    client: FlaskClient, referee: Referee, toss_game: int
) -> None:
    game_id = referee.snapshot().game_id
    response = client.post(f"/api/tosses/{toss_game}/overturn", json={"horn": "left", "game_id": game_id})
    assert response.status_code == 200, response.json
    assert body(response)["event"]["seq"] == toss_game + 2
    assert game_id is not None
    events = referee.store.events(game_id)
    toss, undo, corrected = events[-3:]
    assert toss.action is not None and toss.action["success"] is False and toss.source == "sensor"
    assert undo.kind == "undo" and undo.source == "host"
    assert corrected.action == {**toss.action, "success": True}
    assert corrected.evidence == {
        "judge": "host",
        "overturns": {"seq": toss_game, "source": "sensor", "success": False},
        "horn": "left",
    }
    log = body(client.get("/api/state"))["log"]
    assert [entry["seq"] for entry in log[-3:]] == [toss_game, toss_game + 1, toss_game + 2]


@pytest.mark.parametrize(
    ("path", "payload", "status", "says"),
    [
        ("/api/tosses/{seq}/overturn", {"horn": "left; drop table"}, 400, "horn must be a horn's name"),
        ("/api/tosses/{seq}/overturn", {"horn": 3}, 400, "horn must be a horn's name"),
        ("/api/tosses/{seq}/overturn", {"success": True}, 400, "unknown field(s) success"),
        ("/api/tosses/{seq}/overturn", {"game_id": 999}, 409, "meant for game 999"),
        ("/api/tosses/{before}/overturn", {}, 409, "is not the latest action"),
        ("/api/tosses/{before}/confirm", {}, 409, "is not the latest action"),
        ("/api/tosses/{seq}/confirm", {"game_id": "1"}, 400, "game_id must be a whole number"),
    ],
)
def test_bad_verdict_requests_change_nothing(
    client: FlaskClient, referee: Referee, toss_game: int, path: str, payload: Any, status: int, says: str
) -> None:
    seq_before = referee.snapshot().seq
    response = client.post(path.format(seq=toss_game, before=toss_game - 1), json=payload)
    assert response.status_code == status
    assert says in body(response)["error"]
    assert referee.snapshot().seq == seq_before


def test_a_verdict_made_a_miss_takes_no_horn(client: FlaskClient, referee: Referee, toss_game: int) -> None:
    assert client.post(f"/api/tosses/{toss_game}/overturn").status_code == 200
    response = client.post(f"/api/tosses/{toss_game + 2}/overturn", json={"horn": "right"})
    assert response.status_code == 400 and "a horn is given only" in body(response)["error"]
    back = client.post(f"/api/tosses/{toss_game + 2}/overturn")
    assert back.status_code == 200
    game_id = referee.snapshot().game_id
    assert game_id is not None
    last = referee.store.events(game_id)[-1]
    assert last.action is not None and last.action["success"] is False and last.evidence is not None
    assert last.evidence["overturns"] == {"seq": toss_game + 2, "source": "host", "success": True}


def test_only_a_toss_can_be_overturned(client: FlaskClient) -> None:
    start_race(client)
    client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 1}})
    response = client.post("/api/tosses/1/overturn")
    assert response.status_code == 409 and "is not a toss verdict" in body(response)["error"]


def test_no_verdict_without_a_game(client: FlaskClient) -> None:
    response = client.post("/api/tosses/1/confirm")
    assert response.status_code == 409 and "no game at the table" in body(response)["error"]


def test_the_host_confirms_a_verdict_for_every_phone_to_see(
    client: FlaskClient, viewer: FlaskClient, referee: Referee, toss_game: int
) -> None:
    response = client.post(f"/api/tosses/{toss_game}/confirm")
    assert response.status_code == 200
    status = body(viewer.get("/api/state"))["table"]["status"]["verdict"]
    assert status["state"] == "confirmed" and status["seq"] == toss_game and status["success"] is False
    assert referee.snapshot().seq == toss_game  # nothing new in the record: the verdict stands as recorded
