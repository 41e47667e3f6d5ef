"""A German phone in a real browser: the scripts' words come out German, and the switch to English sticks.

Expectations are read from the German catalog, so the test fails when the page's scripts do not go
through Companion.t and the embedded catalog, not when a translation is reworded.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .browser_fixtures import PHONE as PHONE_SETTINGS
from .browser_fixtures import HostClient, TableServer, browser, screenshot, table
from .test_i18n import german

__all__ = ["browser", "table"]  # fixtures

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit


def german_phone(browser: Any) -> Any:
    return browser.new_context(**PHONE_SETTINGS, locale="de-DE")  # Accept-Language: de-DE


def test_a_german_phone_reads_the_scoreboard_in_german_until_it_switches_to_english(
    browser: Any, table: TableServer
) -> None:
    context = german_phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{table.url}/")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("#waiting")).to_have_text(german("No game yet: the host starts one."))
        HostClient(table).post(
            "/api/games", {"game": "minotaurus", "options": {"players": 3}, "names": ["Ann", "Bo", "Cy"]}
        )
        # The game's own English sentence too (Companion.gameText, game_texts.py), with the name in it.
        sentence = german("{who} to turn over a piece or challenge").format(who="Ann")
        expect(page.locator("#waiting")).to_have_text(german("Waiting for {what}.").format(what=sentence))
        expect(page.locator("#players-section h2")).to_have_text(german("Players"))
        screenshot(page, "i18n-german-scoreboard")

        page.get_by_role("link", name="English").click()
        page.wait_for_url(re.compile(r"/$"))
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#waiting")).to_contain_text("Waiting for ")
        page.goto(f"{table.url}/history")  # the choice sticks on other pages, over Accept-Language
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#games-section h2")).to_have_text("Past games")
        page.get_by_role("link", name="Deutsch").click()
        expect(page.locator("#games-section h2")).to_have_text(german("Past games"))
    finally:
        context.close()
