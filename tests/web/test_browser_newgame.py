"""The host starts a game from the new-game form in words, on a 375 px phone: no JSON, no seat numbers.

A Minos game with three players, the second to begin and the house rule that each die takes its own
Joker and Stern; the started game must carry exactly those options.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .browser_fixtures import PHONE, PIN, RECORD_PAYLOADS, HostClient, TableServer, browser, screenshot, table

__all__ = ["browser", "table"]  # fixtures

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

NARROW_PHONE = {**PHONE, "viewport": {"width": 375, "height": 740}}
PER_DIE = "Each Pfeil, Möwe, Gebäude or Waage die its own Joker and Stern"


def no_horizontal_scroll(page: Any) -> bool:
    width: bool = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return width


def test_a_minos_game_with_a_house_rule_starts_from_the_form_in_words(
    browser: Any, table: TableServer
) -> None:
    context = browser.new_context(**NARROW_PHONE)
    context.add_init_script(RECORD_PAYLOADS)
    try:
        page = context.new_page()
        page.goto(f"{table.url}/host")
        page.fill("#pin", PIN)
        page.get_by_role("button", name="Sign in").click()
        form = page.locator("#new-game")
        expect(form).to_be_visible()  # no game yet: the setup is open

        # A game with colours shows each seat's colour beside its name.
        page.select_option("#new-game-name", label="Asterion")
        expect(page.locator("#new-game-names .seat-colour")).to_have_text(["yellow", "blue", "red", "green"])
        expect(page.locator("#new-game-house-rules legend")).to_contain_text(
            ["Rotating a tile so it looks the same"]
        )
        names = page.locator("#new-game-names input")
        for index, name in enumerate(["Ann", "Bo", "Cy"]):
            names.nth(index).fill(name)
        screenshot(page, "newgame-asterion-375")

        # Another game keeps the names typed, in their places.
        page.select_option("#new-game-name", label="Minos")
        expect(page.locator("#new-game-names .seat-colour")).to_have_count(0)
        expect(page.locator("#new-game-summary")).to_contain_text("symbol dice")
        page.get_by_label("Players", exact=True).fill("3")
        expect(names).to_have_count(3)
        for index, name in enumerate(["Ann", "Bo", "Cy"]):
            expect(names.nth(index)).to_have_value(name)
        page.get_by_label("Who begins").select_option(label="Bo")
        # Moving Bo up to the first place takes the choice of who begins along.
        page.get_by_role("button", name="Move player 2 up").click()
        for index, name in enumerate(["Bo", "Ann", "Cy"]):
            expect(names.nth(index)).to_have_value(name)
        expect(page.get_by_label("Who begins")).to_have_value("0")

        house_rules = page.locator("#new-game-house-rules")
        expect(house_rules.locator("legend").first).to_have_text(
            "House rules (where players read the rules differently)"
        )
        joker = house_rules.locator('[data-option="joker_and_stern"]')
        expect(joker.locator("legend")).to_have_text("Joker and Stern")
        expect(joker.locator(".option-help")).to_be_visible()  # the explanation is shown, not only on hover
        expect(joker.locator(".option-help")).to_contain_text("nur einmal")
        expect(joker.get_by_label("One Joker and one Stern per symbol per turn")).to_be_checked()
        joker.get_by_label(PER_DIE).check()
        # Settings that are no house rule stay outside the group.
        expect(house_rules.locator('[data-option="cash"]')).to_have_count(0)
        expect(page.locator('[data-option="cash"]')).to_be_visible()

        words = form.inner_text()
        for developer_word in ("JSON", "Seat 0", "seat 0", "per_die", "joker_and_stern", "first_player", "{"):
            assert developer_word not in words, f"the form shows {developer_word!r}"
        assert no_horizontal_scroll(page), "the form is wider than a 375 px phone"
        screenshot(page, "newgame-minos-375")

        # Too many fields out of play for three players: refused, and said beside the button.
        page.get_by_label("Fields out of play for a shorter game").fill("8")
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#new-game-error")).to_contain_text("with 3 players")
        expect(page.locator("#new-game-error")).to_be_in_viewport()
        page.get_by_label("Fields out of play for a shorter game").fill("0")

        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#new-game-box")).not_to_have_attribute("open", "")
        state = HostClient(table).get("/api/state")
        assert state["game"]["name"] == "minos"
        assert state["game"]["names"] == ["Bo", "Ann", "Cy"]
        options = state["game"]["options"]
        assert (options["players"], options["first_player"]) == (3, 0)
        assert options["joker_and_stern"] == "per_die"
        assert options["cash"] == "hidden" and options["shortened"] == 0
        assert no_horizontal_scroll(page), "the host page is wider than a 375 px phone"
    finally:
        context.close()
