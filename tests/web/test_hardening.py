"""Malformed and oddly typed bodies swept over every POST route: a 4xx with a clear JSON error, never a 500,
and nothing written. The host is signed in with the CSRF token, so the sign-in check does not hide a bug
further in; a game is running, so actions reach the game's own parser."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import ActionFormatError
from companion.games.base import action_from_json
from companion.table.referee import Referee
from companion.web.common import MAX_JSON_DEPTH, MAX_NAME_LENGTH
from companion.web.teach import VisionServices, install_vision

from .conftest import start_race

DEEP = 5000
"""Nesting that Python's json cannot parse (it raises RecursionError), yet a body under the 16 KB limit."""


def deep_list(levels: int) -> str:
    return "[" * levels + "]" * levels


def deep_object(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


MALFORMED_BODIES: list[tuple[str, bytes, str]] = [
    ("deep list", deep_list(DEEP).encode(), "application/json"),
    ("deep object", deep_object(1500).encode(), "application/json"),
    ("list", b"[]", "application/json"),
    ("string", b'"game"', "application/json"),
    ("number", b"3", "application/json"),
    ("float", b"1.5", "application/json"),
    ("null", b"null", "application/json"),
    ("true", b"true", "application/json"),
    ("broken", b'{"game": ', "application/json"),
    ("single quotes", b"{'game': 'toy-race'}", "application/json"),
    ("invalid UTF-8", b'{"game": "\xff\xfe"}', "application/json"),
    ("UTF-16", '{"game": "toy-race"}'.encode("utf-16"), "application/json"),
    ("NaN", b'{"game": NaN}', "application/json"),
    ("Infinity", b'{"game": -Infinity}', "application/json"),
    ("overflowing float", b'{"game": 1e400}', "application/json"),
    ("5000 digits", b'{"game": 1' + b"0" * 5000 + b"}", "application/json"),
    ("lone surrogate key", b'{"\\ud800": 1}', "application/json"),
    ("form", b"game=toy-race", "application/x-www-form-urlencoded"),
    ("JSON as text/plain", b'{"game": "toy-race"}', "text/plain"),
    ("JSON without a type", b'{"game": "toy-race"}', ""),
]

BASELINE: dict[str, Any] = {
    "game": "toy-race",
    "options": {"goal": 6},
    "names": ["Ann", "Bo"],
    "action": {"kind": "step", "by": 0, "size": 1},
    "after": 0,
    "game_id": 1,
    "on": False,
    "horn": "left",
    "pin": "0000",
    "edition": "default",
    "success": True,
    "member": "ann",
    "present": True,
}
"""A plausible value of every field a POST route takes, into which one odd value at a time is put."""

ODD_VALUES: list[tuple[str, str]] = [
    ("object", "{}"),
    ("list", "[]"),
    ("list of lists", "[[1], [2]]"),
    ("deep list", deep_list(900)),
    ("huge int", str(10**30)),
    ("negative huge int", str(-(10**30))),
    ("beyond 2^53", str(2**53 + 1)),
    ("float", "1.5"),
    ("big float", "1e308"),
    ("true", "true"),
    ("false", "false"),
    ("empty text", '""'),
    ("lone surrogate", '"\\ud800"'),
    ("NUL", '"\\u0000"'),
    ("long text", json.dumps("x" * 10_000)),
]

NESTED_ODD: dict[str, list[str]] = {
    "action": [
        '{"kind": {}, "by": 0, "size": 1}',
        '{"kind": ["step"], "by": 0, "size": 1}',
        '{"kind": "step", "by": {}, "size": 1}',
        '{"kind": "step", "by": 0, "size": [1]}',
        '{"kind": "step", "by": 0, "size": 1e308}',
        '{"kind": "step", "by": 0, "size": true}',
        '{"kind": "step", "by": 1000000000000000000000000000000, "size": 1}',
        '{"kind": "coin", "by": -1, "heads": "\\ud800"}',
        '{"kind": "step", "by": 0, "size": 1, "\\udfff": 2}',
    ],
    "options": [
        '{"goal": {}}',
        '{"goal": [6]}',
        '{"goal": 1e308}',
        '{"goal": 1000000000000000000000000000000}',
        '{"goal": "6"}',
        '{"players": true}',
        '{"\\ud800": 1}',
    ],
    "names": [
        '[{}, "Bo"]',
        '[["Ann"], "Bo"]',
        "[1, 2]",
        '["\\ud800", "Bo"]',
        '["Ann\\u0007", "Bo"]',
        json.dumps(["A" * (MAX_NAME_LENGTH + 1), "Bo"]),
        '"Ann"',
    ],
}


@pytest.fixture
def host(app: Flask, client: FlaskClient) -> FlaskClient:
    """The signed-in host, a race running, and a camera service that has no picture (so the camera's routes
    read their bodies rather than refuse for want of a camera)."""
    install_vision(app, VisionServices(grab=lambda: None))
    start_race(client)
    return client


def post_routes(app: Flask, *, api: bool = True) -> list[str]:
    """Every POST route of the app's JSON API (`api`), or of its pages' forms, with sample ids filled in:
    a new route is swept without being listed here."""
    urls = []
    for rule in app.url_map.iter_rules():
        if rule.methods and "POST" in rule.methods and rule.rule.startswith("/api/") == api:
            built = rule.build({name: 1 for name in rule.arguments})
            assert built is not None
            urls.append(built[1])
    return sorted(urls)


def fields_of(host: FlaskClient, url: str) -> list[str]:
    """The fields a route takes, as its refusal of an unknown field lists them."""
    refusal = host.post(url, json={"no_such_field": 1})
    assert refusal.status_code == 400, (url, refusal.get_json())
    error = refusal.get_json()["error"]
    if "takes no fields" in error:
        return []
    listed = re.search(r"expected (.+)$", error)
    assert listed is not None, (url, error)
    return listed.group(1).split(", ")


def table_record(path: Path) -> tuple[Any, ...]:
    with closing(sqlite3.connect(path)) as connection:
        return tuple(
            connection.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("games", "events")
        )


class Sweep:
    """Posts bodies and collects every answer that is not a clear 4xx leaving the record as it was."""

    def __init__(self, host: FlaskClient, db_path: Path) -> None:
        self.host = host
        self.db_path = db_path
        self.wrong: list[str] = []

    def post(
        self,
        url: str,
        label: str,
        data: bytes,
        content_type: str,
        *,
        may_succeed: bool = False,
        page: bool = False,
    ) -> None:
        """`page`: a form of an HTML page, which answers in HTML, not JSON."""
        before = table_record(self.db_path)
        headers = {"Content-Type": content_type} if content_type else {}
        response = self.host.post(url, data=data, headers=headers)
        status = response.status_code
        reply = response.get_json(silent=True)
        if status < 400 and may_succeed:
            return
        if not 400 <= status < 500:
            self.wrong.append(f"{url} {label}: {status} {response.get_data()[:160]!r}")
        elif not page and (
            not isinstance(reply, dict) or not isinstance(reply.get("error"), str) or len(reply["error"]) < 10
        ):
            self.wrong.append(f"{url} {label}: {status} without a clear error: {response.get_data()[:160]!r}")
        elif table_record(self.db_path) != before:
            self.wrong.append(f"{url} {label}: {status} but the record changed")


@pytest.fixture
def sweep(host: FlaskClient, db_path: Path) -> Iterator[Sweep]:
    swept = Sweep(host, db_path)
    yield swept
    assert swept.host.get("/api/host/session").get_json()["host"] is True  # no body signed the host out


def test_the_sweep_covers_every_post_route(app: Flask, host: FlaskClient) -> None:
    routes = post_routes(app)
    assert {"/api/games", "/api/actions", "/api/host/sign-in", "/api/teach/start", "/api/setup/empty"} <= set(
        routes
    )
    for url in routes:
        assert set(fields_of(host, url)) <= set(BASELINE), f"{url} takes a field the sweep has no value for"


def test_every_malformed_body_on_every_post_route_is_a_clear_4xx_that_writes_nothing(
    app: Flask, sweep: Sweep
) -> None:
    for url in post_routes(app):
        for label, data, content_type in MALFORMED_BODIES:
            sweep.post(url, label, data, content_type)
    for url in post_routes(app, api=False):  # a page's form (claiming a new table): an HTML 4xx
        for label, data, content_type in MALFORMED_BODIES:
            sweep.post(url, label, data, content_type, page=True)
    assert sweep.wrong == []


def test_every_odd_field_value_on_every_post_route_is_a_clear_4xx_that_writes_nothing(
    app: Flask, host: FlaskClient, sweep: Sweep
) -> None:
    for url in post_routes(app):
        fields = fields_of(host, url)
        for field in fields:
            odd = [(label, raw) for label, raw in ODD_VALUES] + [
                (f"nested {raw}", raw) for raw in NESTED_ODD.get(field, [])
            ]
            for label, raw in odd:
                others = ", ".join(
                    f"{json.dumps(name)}: {json.dumps(BASELINE[name])}" for name in fields if name != field
                )
                body = "{" + (others + ", " if others else "") + f'"{field}": {raw}' + "}"
                # An empty object or false can be a valid options or autoplay; what matters is no 500.
                sweep.post(
                    url,
                    f"{field}={label}",
                    body.encode(),
                    "application/json",
                    may_succeed=raw in ("{}", "false"),
                )
    assert sweep.wrong == []


def test_the_errors_say_what_is_wrong(host: FlaskClient) -> None:
    def error(data: bytes, content_type: str = "application/json") -> str:
        response = host.post("/api/games", data=data, headers={"Content-Type": content_type})
        assert response.status_code == 400
        message: str = response.get_json()["error"]
        return message

    assert f"at most {MAX_JSON_DEPTH}" in error(deep_list(DEEP).encode())
    assert f"at most {MAX_JSON_DEPTH}" in error(f'{{"options": {deep_list(900)}}}'.encode())
    assert "must be a JSON object, not a list" in error(b"[]")
    assert "not valid UTF-8" in error(b'{"game": "\xff"}')
    assert "NaN" in error(b'{"game": NaN}')
    assert "too large" in error(b'{"game": 1e400}')
    assert "whole number" in error(str(2**53 + 1).join(['{"game": ', "}"]).encode())
    assert "lone surrogate" in error(b'{"game": "\\ud800"}')
    assert "application/json" in error(b'{"game": "toy-race"}', "text/plain")


def test_an_empty_body_is_an_empty_object_and_a_missing_field_is_named(host: FlaskClient) -> None:
    response = host.post("/api/games", data=b"", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "missing field(s) game" in response.get_json()["error"]
    host.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 1}})
    assert host.post("/api/undo").status_code == 200  # no body, no type: a bare POST reads as {}


def test_huge_ids_in_the_address_are_no_such_thing_rather_than_a_crash(
    host: FlaskClient, referee: Referee
) -> None:
    seq = referee.snapshot().seq
    huge = 10**30
    for url in (f"/api/games/{huge}/resume", f"/api/tosses/{huge}/confirm", f"/api/tosses/{huge}/overturn"):
        response = host.post(url)
        assert response.status_code == 404, url
        assert "error" in response.get_json()
    assert host.get(f"/api/history/{huge}").status_code == 404
    assert referee.snapshot().seq == seq


# ---------------------------------------------------------------- player names


@pytest.mark.parametrize(
    ("names", "says"),
    [
        ('["\\ud800", "Bo"]', "lone surrogate"),
        ('["Ann\\udc00x", "Bo"]', "lone surrogate"),
        ('["Ann\\u0000", "Bo"]', "control character U+0000"),
        ('["Ann\\nBo", "Cy"]', "control character U+000A"),
        ('["Ann\\u202e", "Bo"]', "control character U+202E"),
        (json.dumps(["A" * (MAX_NAME_LENGTH + 1), "Bo"]), f"at most {MAX_NAME_LENGTH} characters"),
        ('["   ", "Bo"]', "non-empty"),
    ],
)
def test_a_name_that_is_no_valid_text_is_refused_and_no_game_is_stored(
    host: FlaskClient, db_path: Path, names: str, says: str
) -> None:
    before = table_record(db_path)
    response = host.post(
        "/api/games",
        data=f'{{"game": "toy-race", "names": {names}}}'.encode(),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert says in response.get_json()["error"]
    assert table_record(db_path) == before


def test_names_of_every_script_and_emoji_are_kept(host: FlaskClient, referee: Referee) -> None:
    names = ["Zoë 👩‍👩‍👧", "Ἀριάδνη " + "x" * (MAX_NAME_LENGTH - 9)]
    response = host.post("/api/games", json={"game": "toy-race", "names": names})
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["game_id"]
    assert referee.store.info(game_id).names == names


# ---------------------------------------------------------------- the engine's action parser


class _Odd:
    """Not JSON at all: what a caller outside the web layer might hand the parser."""


@pytest.mark.parametrize(
    "data",
    [
        {"kind": {}, "by": 0, "size": 1},
        {"kind": ["step"], "by": 0, "size": 1},
        {"kind": None, "by": 0, "size": 1},
        {"kind": "step", "by": {}, "size": 1},
        {"kind": "step", "by": 0, "size": [1]},
        {"kind": "step", "by": 0, "size": float("nan")},
        {"kind": "step", "by": 0, "size": _Odd()},
        {"kind": "step", 3: 0, "by": 0, "size": 1},
        [("kind", "step")],
        "step",
        None,
    ],
)
def test_the_action_parser_turns_any_odd_value_into_an_action_format_error(data: Any) -> None:
    from table.toygame import RACE

    with pytest.raises(ActionFormatError):
        action_from_json(RACE.action_types, data)


# ---------------------------------------------------------------- query strings

ODD_QUERIES = [
    "",
    "x",
    "-1",
    "1.5",
    "1e400",
    "NaN",
    str(10**30),
    "1" * 5000,
    "%ED%A0%80",
    "%FF",
    "[[[[",
    "{}",
    "null",
]
QUERY_NAMES = ["game", "options", "step", "player", "since", "key", "next"]


def test_odd_query_values_on_every_page_and_read_are_never_a_server_error(
    app: Flask, host: FlaskClient
) -> None:
    wrong = []
    for rule in app.url_map.iter_rules():
        if (
            not rule.methods
            or "GET" not in rule.methods
            or rule.endpoint in ("static", "events.stream_events")
        ):
            continue
        built = rule.build({name: 1 for name in rule.arguments})
        assert built is not None
        for name in QUERY_NAMES:
            for value in ODD_QUERIES:
                status = host.get(f"{built[1]}?{name}={value}").status_code
                if status >= 500:
                    wrong.append(f"{built[1]}?{name}={value[:20]}: {status}")
    assert wrong == []
