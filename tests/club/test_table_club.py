"""The table's side of club night: the roster from the club's broker, the /club sign-in page, the new-game
form's names, and `companion run --club` (flags, the settings file's [club], a whole table publishing)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from flask.testing import FlaskClient
from paho.mqtt.enums import CallbackAPIVersion

from companion.cli import build_parser, main
from companion.club.messages import EventMessage, Member, Roster, roster_topic, tables_filter
from companion.club.mosquitto import Mosquitto
from companion.club.publisher import BrokerSettings, PublisherError, TablePublisher, attach
from companion.club.publisher_cli import broker_settings, outbox_path
from companion.config import merge_into, parse_settings
from companion.table.referee import Referee
from companion.web import create_app
from companion.web.club import ClubTable, install_club

from .conftest import LEAGUE, TABLE
from .test_publisher import running_referee

CLUB = "lions"
ROSTER = Roster(CLUB, (Member("ann", "Ann Ariadne"), Member("theo", "Theo Theseus"), Member("mi", "Minos")))
PATIENCE = 20.0
ROOT = Path(__file__).resolve().parents[2]


def publish_roster(broker: Mosquitto, roster: Roster) -> None:
    """What the league's organiser does: the roster, retained, with the league's account."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="organiser")
    client.username_pw_set(LEAGUE.username, LEAGUE.password)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish(roster_topic(CLUB), roster.encode(), qos=1, retain=True).wait_for_publish(PATIENCE)
    client.disconnect()
    client.loop_stop()


def table_settings(broker: Mosquitto) -> BrokerSettings:
    return BrokerSettings(
        "127.0.0.1",
        CLUB,
        "t1",
        port=broker.port,
        username=TABLE.username,
        password=TABLE.password,
        reconnect_max_seconds=1,
    )


def wait_for_roster(publisher: TablePublisher, members: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while publisher.roster is None or len(publisher.roster.members) != members:
        assert time.monotonic() < deadline, f"the table has roster {publisher.roster}"
        time.sleep(0.05)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    with running_referee(tmp_path) as started:
        yield started


@pytest.fixture
def club_table(club_broker: Mosquitto, referee: Referee) -> Iterator[tuple[FlaskClient, TablePublisher]]:
    publish_roster(club_broker, ROSTER)
    publisher = attach(referee, table_settings(club_broker), outbox_path(referee.db_path))
    app = create_app({"TESTING": True}, referee=referee)
    install_club(app, ClubTable(CLUB, "t1", publisher))
    wait_for_roster(publisher, 3)
    yield app.test_client(), publisher
    publisher.stop()


def test_the_club_page_lists_the_roster_and_marks_a_player_present(
    club_table: tuple[FlaskClient, TablePublisher],
) -> None:
    client, _publisher = club_table
    page = client.get("/club").get_data(as_text=True)
    for member in ROSTER.members:
        assert f'data-member="{member.id}"' in page and member.name in page
    assert 'aria-pressed="true"' not in page

    answer = client.post("/api/club/present", json={"member": "theo"})
    assert answer.status_code == 200
    assert answer.get_json()["present"] == ["Theo Theseus"]
    client.post("/api/club/present", json={"member": "ann", "present": True})
    state = client.get("/api/club").get_json()
    assert state["present"] == ["Theo Theseus", "Ann Ariadne"], "in the order they signed in"
    assert [m["present"] for m in state["members"]] == [True, True, False]
    page = client.get("/club").get_data(as_text=True)
    assert page.count('aria-pressed="true"') == 2 and "Theo Theseus, Ann Ariadne" in page

    client.post("/api/club/present", json={"member": "theo", "present": False})
    assert client.get("/api/club").get_json()["present"] == ["Ann Ariadne"], "a second tap signs out"
    # The scoreboard offers the sign-in, by a QR code of the page's address.
    scoreboard = client.get("/").get_data(as_text=True)
    assert 'id="club-join"' in scoreboard and "/api/club/qr.svg" in scoreboard
    qr = client.get("/api/club/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"


def test_a_sign_in_the_roster_does_not_hold_is_refused_and_changes_nothing(
    club_table: tuple[FlaskClient, TablePublisher],
) -> None:
    client, _publisher = club_table
    refused = client.post("/api/club/present", json={"member": "stranger"})
    assert refused.status_code == 404 and "stranger" in refused.get_json()["error"]
    for body in ({"member": 3}, {"member": "ann", "present": "yes"}, {"who": "ann"}):
        assert client.post("/api/club/present", json=body).status_code == 400, body
    elsewhere = client.post(
        "/api/club/present", json={"member": "ann"}, headers={"Origin": "http://evil.example"}
    )
    assert elsewhere.status_code == 403
    assert client.get("/api/club").get_json()["present"] == []


def test_a_new_roster_reaches_the_table_and_stays_while_the_broker_is_away(
    club_broker: Mosquitto, referee: Referee
) -> None:
    publish_roster(club_broker, ROSTER)
    publisher = attach(referee, table_settings(club_broker), outbox_path(referee.db_path))
    try:
        wait_for_roster(publisher, 3)
        publish_roster(club_broker, Roster(CLUB, (*ROSTER.members, Member("pasi", "Pasiphae"))))
        wait_for_roster(publisher, 4)
    finally:
        publisher.stop()
    club_broker.stop()
    again = attach(referee, table_settings(club_broker), outbox_path(referee.db_path))
    try:
        assert again.roster is not None and again.roster.members[-1].name == "Pasiphae"
        assert not again.connected
    finally:
        again.stop()


def test_a_table_outside_a_club_says_so(referee: Referee) -> None:
    client = create_app({"TESTING": True}, referee=referee).test_client()
    assert "not in a club" in client.get("/club").get_data(as_text=True)
    assert client.get("/api/club").get_json()["club"] is None
    assert client.post("/api/club/present", json={"member": "ann"}).status_code == 404
    assert 'id="club-join"' not in client.get("/").get_data(as_text=True)


def test_the_new_game_form_offers_the_club_names() -> None:
    script = (ROOT / "companion" / "web" / "static" / "newgame.js").read_text()
    assert 'list: "club-names"' in script and 'el("datalist", { id: "club-names" }' in script
    assert 'fetch("/api/club")' in script


# ---------------------------------------------------------------- companion run --club


def run_args(*flags: str, settings: dict[str, object] | None = None) -> BrokerSettings | None:
    args = build_parser().parse_args(["run", *flags])
    merge_into(args, parse_settings(settings or {}))
    return broker_settings(args)


def test_the_club_comes_from_the_flags_or_the_settings_files_club_table(tmp_path: Path) -> None:
    assert run_args() is None
    flags = run_args("--club", "mqtt://table:key@club.local:1884", "--club-id", "lions", "--table-id", "t3")
    assert flags is not None and (flags.host, flags.port, flags.club, flags.table) == (
        "club.local",
        1884,
        "lions",
        "t3",
    )
    assert (flags.username, flags.password) == ("table", "key")
    section = {
        "broker": "mqtts://club.local",
        "club": "lions",
        "table": "t2",
        "username": "table",
        "password": "k",
    }
    from_file = run_args(settings={"club": section})
    assert from_file is not None and from_file.tls and (from_file.table, from_file.password) == ("t2", "k")
    overridden = run_args("--table-id", "t9", settings={"club": section})
    assert overridden is not None and overridden.table == "t9", "a flag beats the file"
    with pytest.raises(PublisherError, match="--table-id"):
        run_args("--club", "mqtt://club.local", "--club-id", "lions")
    with pytest.raises(PublisherError, match="need the club's broker"):
        run_args("--club-id", "lions")
    with pytest.raises(ValueError, match="table"):
        run_args("--club", "mqtt://club.local", "--club-id", "lions", "--table-id", "Table One")


def test_a_wrong_club_setting_stops_the_start_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(
        '[club]\nbroker = "http://club.local"\nclub = "lions"\ntable = "t1"\npassword = "secret"\n'
    )
    db = tmp_path / "var" / "t.db"
    assert main(["run", "--config", str(config), "--db", str(db)]) == 2
    error = capsys.readouterr().err
    assert "[club]" in error and "mqtt://" in error and "secret" not in error, "the key is never printed"
    code = main(["run", "--club", "mqtt://club.local", "--club-id", "lions", "--db", str(db)])
    assert code == 2 and "--table-id" in capsys.readouterr().err
    assert not db.parent.exists()


class Listener:
    """The league's side, as a bare persistent subscriber: every event and online flag, in arrival order."""

    def __init__(self, broker: Mosquitto) -> None:
        self.events: list[EventMessage] = []
        self.online: list[str] = []
        self.changed = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="league", clean_session=False)
        self.client.username_pw_set(LEAGUE.username, LEAGUE.password)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.subscribe(tables_filter(CLUB), qos=1)
        self.client.loop_start()

    def _on_message(self, _c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        with self.changed:
            if message.topic.endswith("/events"):
                self.events.append(EventMessage.decode(message.payload))
            elif message.topic.endswith("/online"):
                self.online.append(message.payload.decode())
            self.changed.notify_all()

    def wait_for_events(self, count: int, table: subprocess.Popen[bytes]) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.events) >= count, PATIENCE):
                table.kill()
                pytest.fail(
                    f"{len(self.events)} events from companion run: {table.communicate()[1].decode()}"
                )

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def club_table_process(broker: Mosquitto, tmp_path: Path, table: str) -> subprocess.Popen[bytes]:
    """`companion run --simulate --club ...`: simulated players at a table of the club."""
    url = f"mqtt://{TABLE.username}:{TABLE.password}@127.0.0.1:{broker.port}"
    command = [sys.executable, "-m", "companion", "run", "--simulate"]
    command += ["--delay", "0.05", "--port", "0", "--no-mdns", "--db", str(tmp_path / "sim.db")]
    command += ["--club", url, "--club-id", CLUB, "--table-id", table]
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_CONFIG": ""}
    return subprocess.Popen(
        command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def test_companion_run_with_a_club_publishes_its_games(club_broker: Mosquitto, tmp_path: Path) -> None:
    league = Listener(club_broker)
    table = club_table_process(club_broker, tmp_path, "t7")
    try:
        league.wait_for_events(5, table)
    finally:
        table.terminate()
        output, _errors = table.communicate(timeout=PATIENCE)
        league.close()
    assert [event.seq for event in league.events[:5]] == [1, 2, 3, 4, 5]
    assert {event.table for event in league.events} == {"t7"} and "1" in league.online
    assert b"Club lions, table t7" in output and b"/club" in output
    assert (tmp_path / "sim.club-outbox.db").exists()


def test_a_table_killed_mid_game_resumes_publishing_without_a_gap(
    club_broker: Mosquitto, tmp_path: Path
) -> None:
    league = Listener(club_broker)
    try:
        table = club_table_process(club_broker, tmp_path, "t8")
        league.wait_for_events(12, table)
        table.kill()  # a power cut: no goodbye, nothing drained
        table.communicate(timeout=PATIENCE)
        before = max(event.seq for event in league.events)
        table = club_table_process(club_broker, tmp_path, "t8")
        league.wait_for_events(len(league.events) + 12, table)
        table.terminate()
        table.communicate(timeout=PATIENCE)
    finally:
        league.close()
    games = {event.game_id for event in league.events}
    for game_id in games:
        arrived = [event.seq for event in league.events if event.game_id == game_id]
        kept = list(dict.fromkeys(arrived))  # the league keeps the first of each seq
        assert kept == list(range(1, len(kept) + 1)), f"game {game_id}: a gap or a step back: {arrived}"
    assert max(event.seq for event in league.events) > before, "the restarted table played on and published"
    assert league.online[:3] == ["1", "0", "1"], "online, gone (the killed table's last will), online again"


# ---------------------------------------------------------------- on a phone


def test_a_player_signs_in_on_a_phone_and_the_host_is_offered_the_name(
    club_broker: Mosquitto, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from tests.web.browser_fixtures import PIN, TableServer, launch_browser, screenshot

    publish_roster(club_broker, ROSTER)
    url = f"mqtt://{TABLE.username}:{TABLE.password}@127.0.0.1:{club_broker.port}"
    server = TableServer(tmp_path / "table.db", "--club", url, "--club-id", CLUB, "--table-id", "t1")
    playwright, browser = launch_browser()
    server.start()
    try:
        context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(server.url)
        page.locator("#club-join summary").click()
        expect(page.locator("#club-join")).to_contain_text("Sign in for the club league")
        assert page.locator("#club-qr").evaluate("img => img.complete && img.naturalWidth > 0")
        page.locator("#club-join a[href='/club']").click()
        deadline = time.monotonic() + PATIENCE
        while page.locator("button[data-member='theo']").count() == 0:  # the roster comes over the broker
            assert time.monotonic() < deadline, "the roster never reached the page"
            time.sleep(0.2)
            page.reload()
        theo = page.locator("button[data-member='theo']")
        theo.click()
        expect(theo).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#club-present")).to_have_text("Signed in here: Theo Theseus")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            "no sideways scroll"
        )
        screenshot(page, "club-sign-in-375")

        host = context.new_page()
        host.goto(f"{server.url}/host")
        host.fill("#pin", PIN)
        host.get_by_role("button", name="Sign in").click()
        expect(host.locator("#club-present-names")).to_contain_text("Theo Theseus")
        offered = host.locator("#club-names option").evaluate_all("options => options.map(o => o.value)")
        assert offered == ["Theo Theseus", "Ann Ariadne", "Minos"], "signed-in players first, then the roster"
        assert host.locator("#new-game-names input").first.get_attribute("list") == "club-names"
        context.close()
    finally:
        server.stop()
        browser.close()
        playwright.stop()
