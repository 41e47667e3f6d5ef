"""The league's pages: public and read-only for everyone, the organiser's changes only with the organiser's
PIN (and the session's CSRF token, wrong PINs limited); and in a real browser against `companion club serve`
over a real broker: the page follows the tables live and never scrolls sideways at 375 px or 1920 px."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from companion.club.league import League
from companion.club.league_figures import league_from_records
from companion.club.mosquitto import Mosquitto
from companion.club.web import create_league_app
from tests.web.browser_fixtures import browser, screenshot
from tests.web.test_serve import free_port, read_line

from .conftest import LEAGUE
from .league_games import CLUB, TableGame, play_games
from .test_league_service import Table

__all__ = ["browser"]  # a fixture

PIN = "2468"
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> list[TableGame]:
    folder = tmp_path_factory.mktemp("games")
    long_names = ["Annemarie-Charlotte von Hohenzollern", "Bo", "Cy"]
    return [
        *play_games(folder, "t1", [long_names, ["Dee", "Ann", "Bo"]], seed=20),
        *play_games(folder, "table-two", [["Eve", "Cy", "Dee"]], seed=40),
    ]


@pytest.fixture
def league(tmp_path: Path, evening: list[TableGame]) -> Iterator[League]:
    made = League(tmp_path / "league.db", CLUB)
    for game in evening[:2]:
        for topic, payload in game.messages():
            made.ingest(topic, payload)
    for topic, payload in evening[2].event_messages()[:6]:  # table-two is playing
        made.ingest(topic, payload)
    yield made
    made.close()


@pytest.fixture
def client(league: League) -> FlaskClient:
    return create_league_app(league, pin=PIN).test_client()


def test_the_league_page_is_public(client: FlaskClient, league: League) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "Table table-two" in page and "Eve" in page
    for line in league.figures()["overall"]:
        assert f'href="/player/{quote(line["player"])}"' in page
    data = client.get("/api/league").get_json()
    assert [t["table"] for t in data["tables"]] == ["t1", "table-two"]
    playing = data["tables"][1]
    assert playing["seq"] == 6 and playing["names"] == ["Eve", "Cy", "Dee"] and len(playing["scores"]) == 3
    assert playing["turn"] or playing["waiting_for"]
    assert len(data["games"]) == 2 and "history" not in data
    german = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="de">' in german
    live = client.get("/live")
    assert live.headers["Cache-Control"] == "no-store"
    assert "<html" not in live.get_data(as_text=True) and "Table table-two" in live.get_data(as_text=True)


def test_a_players_page_shows_their_history(client: FlaskClient, league: League) -> None:
    history = league.figures()["history"]["guest-bo"]
    page = client.get("/player/guest-bo").get_data(as_text=True)
    assert page.count("<tr><td>") == len(history) == 2
    assert "<svg" in page
    assert client.get("/player/nobody").status_code == 404
    assert client.get("/api/player/guest-bo").get_json()["history"] == history


def sign_in(client: FlaskClient, pin: str) -> Any:
    return client.post("/api/host/sign-in", json={"pin": pin})


def test_the_organiser_page_refuses_without_the_pin(client: FlaskClient, league: League) -> None:
    assert client.get("/organiser").status_code == 200  # the page asks for the PIN
    assert client.post("/api/organiser/members", json={"name": "Bo"}).status_code == 403
    assert client.get("/api/organiser/roster").status_code == 403
    assert client.post("/api/organiser/rebuild", json={}).status_code == 403
    assert sign_in(client, "1111").status_code == 403
    assert league.roster().members == ()

    answer = sign_in(client, PIN)
    assert answer.status_code == 200
    token = answer.get_json()["csrf_token"]
    assert client.post("/api/organiser/members", json={"name": "Bo"}).status_code == 403  # no CSRF token
    added = client.post("/api/organiser/members", json={"name": "Bo"}, headers={"X-CSRF-Token": token})
    assert added.get_json() == {"id": "bo", "name": "Bo"}
    refused = client.post("/api/organiser/members", json={"name": " bo"}, headers={"X-CSRF-Token": token})
    assert refused.status_code == 400 and "already a member" in refused.get_json()["error"]
    renamed = client.post(
        "/api/organiser/members/bo", json={"name": "Bodil"}, headers={"X-CSRF-Token": token}
    )
    assert renamed.status_code == 200
    assert [m.name for m in league.roster().members] == ["Bodil"]
    # Bo is the member Bodil now, in the games played as Bo too; no broker was given: nothing to rebuild from.
    assert client.get("/player/guest-bo").status_code == 404 and client.get("/player/bo").status_code == 200
    assert client.get("/api/player/bo").get_json()["name"] == "Bodil"
    assert league.figures() == league_from_records(league.records(), league.roster().members, league.aliases)
    assert client.post("/api/organiser/rebuild", json={}, headers={"X-CSRF-Token": token}).status_code == 409


def test_wrong_organiser_pins_are_limited(league: League) -> None:
    client = create_league_app(league, pin=PIN).test_client()
    for _attempt in range(5):
        assert sign_in(client, "0000").status_code == 403
    assert sign_in(client, PIN).status_code == 429  # locked out, even with the right PIN


# ---------------------------------------------------------------- in a real browser


class LeagueServer:
    def __init__(self, db: Path, broker: Mosquitto) -> None:
        self.port = free_port()
        url = f"mqtt://{LEAGUE.username}:{LEAGUE.password}@127.0.0.1:{broker.port}"
        command = [sys.executable, "-m", "companion", "club", "serve", "--broker", url, "--club", CLUB]
        command += ["--db", str(db), "--host", "127.0.0.1", "--port", str(self.port), "--pin", PIN]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        while not read_line(self.process).startswith("League of club"):
            pass

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(20)


def test_the_league_page_in_a_browser_follows_the_tables(
    tmp_path: Path, club_broker: Mosquitto, browser: Any, evening: list[TableGame]
) -> None:
    server = LeagueServer(tmp_path / "league.db", club_broker)
    table = Table(club_broker)
    try:
        table.publish(evening[0].messages())
        context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("#overall a")
        assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate("document.documentElement.scrollWidth")
        table.publish(evening[2].event_messages()[:4])  # a table starts playing: the page shows it by itself
        card = page.locator('.table-card[data-table="table-two"]')
        card.wait_for(timeout=10_000)
        assert "Eve" in card.inner_text()
        assert page.evaluate(NO_SIDEWAYS_SCROLL), page.evaluate("document.documentElement.scrollWidth")
        screenshot(page, "league-375")
        screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        screen.goto(f"http://127.0.0.1:{server.port}/")
        screen.wait_for_selector('.table-card[data-table="table-two"]')
        assert screen.evaluate(NO_SIDEWAYS_SCROLL)
        tables, ratings = (screen.locator(s).bounding_box() for s in ("#tables", "#overall"))
        assert ratings["x"] > tables["x"] + tables["width"] - 1, "the big screen shows them side by side"
        screenshot(screen, "league-1920")

        page.goto(f"http://127.0.0.1:{server.port}/organiser")
        assert page.locator("#roster").is_hidden()
        page.fill("#pin", PIN)
        page.click("#sign-in-form button")
        page.locator("#roster").wait_for()
        page.fill("#new-name", "Eve")
        page.click("#add-member button")
        page.locator('form.rename[data-member="eve"]').wait_for()  # the page reloads with the new member
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        screenshot(page, "league-organiser-375")
        page.goto(f"http://127.0.0.1:{server.port}/")
        eve = page.locator('.table-card[data-table="table-two"] li').first
        assert eve.inner_text().split() == ["Eve", "0"], "Eve is a member now, no longer a guest"
        context.close()
    finally:
        table.close()
        server.stop()
