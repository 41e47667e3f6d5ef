"""The history page in words for people: no stray values, only the charts that fit the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from companion.record.store import RecordStore

from .browser_fixtures import PIN, TableServer, browser, phone
from .played import record_game
from .test_browser_games import record_random_game

__all__ = ["browser"]  # a fixture

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit


def test_unfinished_replays_and_games_without_tosses_show_what_fits(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    store = RecordStore(db)
    try:
        tossing = record_game(store, ["Ann", "Bo", "Cy"], seed=4).game_id
        record_random_game(store, "minoa", 5)
        unfinished = record_game(store, ["Ann", "Bo", "Cy"], seed=6, stop_before_toss=True).game_id
    finally:
        store.close()
    server = TableServer(db)
    server.start()
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/host")
        page.fill("#pin", PIN)
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator("#controls")).to_be_visible()

        # An unfinished game (the host's alone): its one export, and nothing where the other would be.
        page.goto(f"{server.url}/history#game={unfinished}")
        expect(page.locator("#exports a")).to_have_count(1)
        assert page.locator("#exports").inner_text().strip() == "Export JSON lines"
        assert "null" not in page.locator("#replay-section").inner_text()

        # A game with ring tosses has its toss column and charts; Minoa has none.
        expect(page.locator("#stats-table")).to_be_visible()
        page.select_option("#stats-game", "minotaurus")
        expect(page.locator("img.plot")).to_have_count(4)  # wins, tosses, horns, scores
        expect(page.locator("#stats-table th", has_text="Tosses")).to_have_count(1)
        page.select_option("#stats-game", "minoa")
        expect(page.locator("img.plot")).to_have_count(2)  # wins and scores
        expect(page.locator("#stats-table th", has_text="Tosses")).to_have_count(0)
        assert all(
            "toss" not in (src or "") and "horn" not in (src or "")
            for src in (page.locator("img.plot").nth(index).get_attribute("src") for index in range(2))
        )
        assert tossing != unfinished
    finally:
        context.close()
        server.stop()
