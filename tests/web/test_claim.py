"""Claiming a new table from a phone in the first minutes after the start, and the PIN kept for restarts."""

from __future__ import annotations

import http.client
import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.table.referee import Referee
from companion.web import claim as claim_module
from companion.web import create_app
from companion.web.auth import host_auth
from companion.web.claim import PIN_FILE, ClaimError, table_claim

from .conftest import TEST_CONFIG
from .test_joining import PATIENCE, console_until, free_port

CHOSEN = "246813"


def new_table(referee: Referee, state_dir: Path | None, **config: Any) -> Flask:
    """The app of a table started with no PIN configured (unless `config` gives HOST_PIN)."""
    settings = {key: value for key, value in TEST_CONFIG.items() if key != "HOST_PIN"}
    return create_app({**settings, "STATE_DIR": state_dir and str(state_dir), **config}, referee=referee)


def claim(phone: FlaskClient, pin: str = CHOSEN, **headers: str) -> Any:
    return phone.post("/claim", data={"pin": pin}, headers=headers)


def signed_in(phone: FlaskClient) -> bool:
    session = phone.get("/api/host/session").json
    assert session is not None
    return bool(session["host"])


def test_the_first_phone_at_the_control_page_claims_the_table_and_is_signed_in(
    referee: Referee, tmp_path: Path
) -> None:
    app = new_table(referee, tmp_path / "state")
    random_pin = host_auth(app).pin
    phone = app.test_client()
    host_page = phone.get("/host")
    assert host_page.status_code == 303 and host_page.headers["Location"] == "/claim"
    page = phone.get("/claim")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    suggested = re.search(r'name="pin" value="([0-9]+)"', page.get_data(as_text=True))
    assert suggested is not None and 4 <= len(suggested.group(1)) <= 12
    claimed = claim(phone)
    assert claimed.status_code == 303 and claimed.headers["Location"].startswith("/host/sign-in?key=")
    assert phone.get(claimed.headers["Location"]).headers["Location"] == "/host"
    assert signed_in(phone)
    assert phone.get("/host").status_code == 200
    stored = tmp_path / "state" / PIN_FILE
    assert stored.read_text().strip() == CHOSEN
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    other = app.test_client()
    assert other.post("/api/host/sign-in", json={"pin": random_pin}).status_code == 403
    assert other.post("/api/host/sign-in", json={"pin": CHOSEN}).status_code == 200


def test_once_claimed_no_other_phone_can_claim_and_the_control_page_asks_for_the_pin(
    referee: Referee, tmp_path: Path
) -> None:
    app = new_table(referee, tmp_path)
    assert claim(app.test_client()).status_code == 303
    late = app.test_client()
    refused = claim(late, "111111")
    assert refused.status_code == 403 and "claimed already" in refused.get_data(as_text=True)
    assert not signed_in(late)
    assert late.get("/host").status_code == 200  # the sign-in form, no longer the claim
    assert (tmp_path / PIN_FILE).read_text().strip() == CHOSEN
    assert host_auth(app).pin == CHOSEN


def test_after_the_window_the_table_cannot_be_claimed(referee: Referee, tmp_path: Path) -> None:
    app = new_table(referee, tmp_path, CLAIM_SECONDS=600)
    window = table_claim(app)
    window.clock = lambda: window.closes_at + 1
    phone = app.test_client()
    assert phone.get("/host").status_code == 200
    assert "has a host" in phone.get("/claim").get_data(as_text=True)
    refused = claim(phone)
    assert refused.status_code == 403 and "time to claim this table is over" in refused.get_data(as_text=True)
    assert not signed_in(phone) and not (tmp_path / PIN_FILE).exists()
    assert host_auth(app).pin != CHOSEN


def test_the_claimed_pin_is_the_tables_after_a_restart(referee: Referee, tmp_path: Path) -> None:
    assert claim(new_table(referee, tmp_path).test_client()).status_code == 303
    restarted = new_table(referee, tmp_path)
    assert host_auth(restarted).pin == CHOSEN
    assert not table_claim(restarted).is_open
    phone = restarted.test_client()
    assert phone.get("/host").status_code == 200
    assert claim(phone, "111111").status_code == 403
    assert phone.post("/api/host/sign-in", json={"pin": CHOSEN}).status_code == 200


@pytest.mark.parametrize(
    ("pin", "headers", "status", "message"),
    [
        ("12", {}, 400, "4 to 12 digits"),
        ("12ab56", {}, 400, "4 to 12 digits"),
        (CHOSEN, {"Origin": "http://evil.example"}, 403, "another site"),
    ],
)
def test_a_bad_claim_changes_nothing_and_the_window_stays_open(
    referee: Referee, tmp_path: Path, pin: str, headers: dict[str, str], status: int, message: str
) -> None:
    app = new_table(referee, tmp_path)
    phone = app.test_client()
    refused = claim(phone, pin, **headers)
    assert refused.status_code == status and message in refused.get_data(as_text=True)
    assert not (tmp_path / PIN_FILE).exists() and table_claim(app).is_open and not signed_in(phone)


def test_a_pin_that_cannot_be_stored_is_not_taken(
    referee: Referee, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(source: Path, target: Path) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(claim_module.os, "replace", refuse)  # a read-only state directory, even for root
    app = new_table(referee, tmp_path / "state")
    phone = app.test_client()
    failed = claim(phone)
    assert failed.status_code == 500 and "could not be stored" in failed.get_data(as_text=True)
    assert host_auth(app).pin != CHOSEN and table_claim(app).is_open and not signed_in(phone)
    assert list((tmp_path / "state").iterdir()) == []  # not even the partial file is left


def test_a_configured_pin_is_used_as_is_and_nothing_is_claimed_or_stored(
    referee: Referee, tmp_path: Path
) -> None:
    app = new_table(referee, tmp_path, HOST_PIN="0427")
    phone = app.test_client()
    assert phone.get("/host").status_code == 200
    assert claim(phone).status_code == 403
    assert host_auth(app).pin == "0427" and not (tmp_path / PIN_FILE).exists()


def test_without_a_state_directory_nothing_can_be_claimed(referee: Referee) -> None:
    app = new_table(referee, None)
    assert app.test_client().get("/host").status_code == 200
    assert claim(app.test_client()).status_code == 403


def test_a_stored_pin_that_is_no_pin_stops_the_start_with_what_to_do(
    referee: Referee, tmp_path: Path
) -> None:
    (tmp_path / PIN_FILE).write_text("12ab\n")
    with pytest.raises(ClaimError, match="delete it to claim the table again"):
        new_table(referee, tmp_path)


def test_companion_run_without_a_pin_prints_the_claim_link_and_its_qr_code(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("COMPANION_")}
    process = subprocess.Popen(
        (sys.executable, "-m", "companion", "run", "--port", str(port), "--db", str(tmp_path / "t.db")),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        lines = console_until(process, "Game record:")
        [at] = [i for i, line in enumerate(lines) if "claim the table:" in line]
        link = re.search(r"the first phone to open (\S+) within 10 min", lines[at])
        assert link is not None and link.group(1) == f"http://127.0.0.1:{port}/claim"
        qr = [line for line in lines[at - 12 : at] if line.strip() and set(line.rstrip("\n")) <= set("█▀▄ ")]
        assert len(qr) == 12, "the claim link's QR code is printed above it"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        connection.request(
            "POST",
            "/claim",
            body=f"pin={CHOSEN}",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = connection.getresponse()
        response.read()
        assert response.status == 303
        connection.close()
        assert (tmp_path / PIN_FILE).read_text().strip() == CHOSEN  # beside the game record
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(PATIENCE)
