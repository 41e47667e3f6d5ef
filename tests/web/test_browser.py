"""Two phones watch while a third is the host, in Debian's chromium against a real `companion run`.

The watchers never reload: each change reaches them over the live stream. The host signs in with
the PIN, sets up Minotaurus from the game's own options, and plays by hand, the table's answers
(reveals) included. A piece turned face down again must never be named in any payload that reaches
a watcher afterwards, even while the table waits to show it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .browser_fixtures import PIN, HostClient, TableServer, browser, payloads, phone, screenshot, table

__all__ = ["browser", "table"]  # fixtures

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

RETURNED = "blue 1 left"
RETURNED_JSON = '"colour":"blue","value":1,"horn":"left"'


def enter_move(page: Any, seat_name: str, label: str) -> None:
    """Choose `label` among the moves of `seat_name` (a button, or the long list's Enter; moves on the
    board are listed folded, under the board's taps)."""
    group = page.locator(".moves-group", has=page.locator("h3", has_text=seat_name))
    button = group.get_by_role("button", name=label, exact=True)
    listed = group.locator("select").filter(has=page.get_by_role("option", name=label, exact=True))
    expect(button.or_(listed)).to_be_attached()  # the page may still be drawing the move before
    named = page.get_by_role("option", name=label, exact=True).or_(
        page.get_by_role("button", name=label, exact=True)
    )
    folded = group.locator("details.all-choices:not([open])", has=named)
    if folded.count():
        folded.locator("summary").click()
    if button.count():
        button.click()
        return
    listed.select_option(label=label)
    group.get_by_role("button", name="Enter").click()


def table_shows(page: Any, label: str) -> None:
    """Enter a table answer by hand, as the host does when no camera reports it."""
    answers = page.locator("#table-answers")
    if answers.get_attribute("open") is None:
        answers.locator("summary").click()
    answers.locator("select").select_option(label=label)
    answers.get_by_role("button", name="Enter").click()


def watchers_see(watchers: list[Any], text: str) -> None:
    for watcher in watchers:
        expect(watcher.locator("#waiting")).to_have_text(text)


def test_two_phones_watch_the_host_play_and_never_learn_a_piece_turned_face_down(
    browser: Any, table: TableServer
) -> None:
    contexts = [phone(browser), phone(browser, dark=True), phone(browser)]
    try:
        watchers = [context.new_page() for context in contexts[:2]]
        host = contexts[2].new_page()
        for watcher in watchers:
            watcher.goto(f"{table.url}/")
            watcher.evaluate("window.__loaded_once = true")  # gone if the page ever reloads
        watchers_see(watchers, "No game yet: the host starts one.")
        for watcher in watchers:
            expect(watcher.locator("#live")).to_have_attribute("data-state", "live")

        # The host signs in with the PIN; without it there is nothing to press.
        host.goto(f"{table.url}/host")
        expect(host.locator("#sign-in-section")).to_be_visible()
        expect(host.locator("#controls")).to_be_hidden()
        host.fill("#pin", "0000")
        host.get_by_role("button", name="Sign in").click()
        expect(host.locator("#sign-in-error")).to_contain_text("wrong table PIN")
        host.fill("#pin", PIN)
        host.get_by_role("button", name="Sign in").click()
        expect(host.locator("#controls")).to_be_visible()

        # A new game from Minotaurus' own options: three players, seat order changed once.
        expect(host.locator("#new-game-box")).to_have_attribute("open", "")  # no game yet: the setup is open
        host.select_option("#new-game-name", "minotaurus")
        host.fill('[data-option="players"]', "3")
        names = host.locator("#new-game-names input")
        expect(names).to_have_count(3)
        for index, name in enumerate(["Bo", "Ann", "Cy"]):
            names.nth(index).fill(name)
        host.get_by_role("button", name="Move player 1 down").click()
        host.get_by_role("button", name="Start the game").click()
        watchers_see(watchers, "Waiting for Ann to turn over a piece or challenge.")
        expect(watchers[0].locator(".player-name")).to_have_text(["Ann", "Bo", "Cy"])
        expect(watchers[0].locator(".player.to-act .player-name")).to_have_text("Ann")
        screenshot(watchers[0], "watcher-light-new-game")

        # Ann turns over position 0; the table shows it (entered by hand); then position 1, no match.
        enter_move(host, "Ann", "turn over position 0")
        watchers_see(watchers, "Waiting for the table to show the piece at position 0.")
        table_shows(host, f"position 0 shows {RETURNED}")
        for watcher in watchers:
            expect(watcher.locator("#pieces .cell").nth(0)).to_have_attribute(
                "title", f"position 0: {RETURNED}"
            )
        host.locator("#raw-box summary").click()  # any action at all, typed as JSON
        host.fill("#raw", '{"kind": "flip", "by": 0, "position": 1}')
        host.get_by_role("button", name="Enter this move").click()
        table_shows(host, "position 1 shows red 3 right")
        watchers_see(watchers, "Waiting for Ann to claim the pair or return it.")
        screenshot(watchers[1], "watcher-dark-pair-shown")
        screenshot(host, "host-pair-shown")

        seen_before_return = [len(payloads(watcher)) for watcher in watchers]
        host_seen_before_return = len(payloads(host))
        enter_move(host, "Ann", "return both face down")
        watchers_see(watchers, "Waiting for Bo to turn over a piece or challenge.")
        for watcher in watchers:
            expect(watcher.locator("#pieces .cell").nth(0)).to_have_class("cell down")

        # Bo turns over the same position: the table knows what it must show, the phones must not.
        bo = host.locator(".moves-group", has=host.locator("h3", has_text="Bo may"))
        bo.locator("details.all-choices > summary").click()  # turning over is a move on the board
        bo.get_by_placeholder("Filter").fill("over position 0")  # the first choice left is taken
        bo.get_by_role("button", name="Enter").click()
        watchers_see(watchers, "Waiting for the table to show the piece at position 0.")
        expect(host.locator("#host-waiting")).to_have_text(
            "Waiting for the table to show the piece at position 0."
        )
        screenshot(watchers[0], "watcher-light-turning-again")
        for watcher, seen in zip(watchers, seen_before_return, strict=True):
            later = payloads(watcher)[seen:]
            assert any("/api/events" in chunk["url"] for chunk in later), "the watcher got no live update"
            for chunk in later:
                assert RETURNED not in chunk["text"] and RETURNED_JSON not in chunk["text"], chunk
        for chunk in payloads(host)[host_seen_before_return:]:
            if "/api/answers" not in chunk["url"]:  # the host-only table answers, asked for by hand
                assert RETURNED not in chunk["text"] and RETURNED_JSON not in chunk["text"], chunk

        # Undo, as often as needed: Bo's turn again, then Ann's decision again.
        host.get_by_role("button", name="Undo: Bo: turn over position 0").click()
        watchers_see(watchers, "Waiting for Bo to turn over a piece or challenge.")
        host.get_by_role("button", name="Undo: Ann: return both face down").click()
        watchers_see(watchers, "Waiting for Ann to claim the pair or return it.")
        for watcher in watchers:
            assert watcher.evaluate("window.__loaded_once") is True, "the page reloaded"
    finally:
        for context in contexts:
            context.close()


def test_a_simulated_game_shows_the_challenge_and_the_sensors_as_the_tosses_happen(
    browser: Any, tmp_path: Path
) -> None:
    server = TableServer(
        tmp_path / "simulated.db", "--simulate", "--delay", "0.02", "--seed", "3", "--players", "3"
    )
    server.start()
    context = phone(browser)
    try:
        watcher = context.new_page()
        watcher.goto(f"{server.url}/")
        armed = watcher.locator('#devices[data-state="armed"]')
        expect(armed).to_contain_text("Toss now:", timeout=60_000)
        expect(watcher.locator("#challenge")).to_contain_text("challenges")
        screenshot(watcher, "watcher-simulated-toss")
        expect(watcher.locator("#challenge .toss.hit, #challenge .toss.miss").first).to_be_visible(
            timeout=60_000
        )
        # Whatever the simulated table did, no payload carried the state's full record of the table.
        received = payloads(watcher)
        assert any("/api/events" in chunk["url"] for chunk in received)
        for chunk in received:
            assert '"seen":' not in chunk["text"] and '"flipped":' not in chunk["text"], chunk
    finally:
        context.close()
        server.stop()


def test_the_theme_toggle_is_remembered_and_the_join_code_is_on_the_page(
    browser: Any, table: TableServer
) -> None:
    context = phone(browser, dark=True)
    try:
        page = context.new_page()
        page.goto(f"{table.url}/")
        background = "getComputedStyle(document.body).backgroundColor"
        dark = page.evaluate(background)
        page.click("#theme")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        assert page.evaluate(background) != dark
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")

        # The address and QR code to bring another phone in, drawn by the Pi.
        page.locator("#join summary").click()
        expect(page.locator("#join-url")).to_have_text(f"{table.url}/")
        page.wait_for_function("document.getElementById('join-qr').naturalWidth > 0")
        screenshot(page, "watcher-toggled-light-join")
    finally:
        context.close()


def test_a_phone_that_loses_the_network_or_the_server_reconnects_and_catches_up(
    browser: Any, table: TableServer
) -> None:
    host = HostClient(table)
    host.post("/api/games", {"game": "minotaurus", "options": {"players": 3}, "names": ["Ann", "Bo", "Cy"]})
    context = phone(browser)
    try:
        watcher = context.new_page()
        watcher.goto(f"{table.url}/")
        watcher.evaluate("window.__loaded_once = true")
        expect(watcher.locator("#waiting")).to_have_text("Waiting for Ann to turn over a piece or challenge.")

        # Wi-Fi gone: the page says so, and misses a move.
        context.set_offline(True)
        expect(watcher.locator("#live")).to_have_attribute("data-state", "offline")
        expect(watcher.locator("#stale")).to_contain_text("No network")
        screenshot(watcher, "watcher-offline")
        host.post("/api/actions", {"action": {"kind": "flip", "by": 0, "position": 7}})
        context.set_offline(False)
        expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
        expect(watcher.locator("#stale")).to_be_hidden()
        expect(watcher.locator("#waiting")).to_have_text(
            "Waiting for the table to show the piece at position 7."
        )

        # The server goes away (its streams drop) and comes back on the same record.
        table.stop()
        expect(watcher.locator("#live")).to_have_attribute("data-state", "reconnecting")
        expect(watcher.locator("#stale")).to_have_text("Connection to the table lost: reconnecting…")
        screenshot(watcher, "watcher-reconnecting")
        table.start()
        host = HostClient(table)  # sessions live in memory: the host signs in again
        host.post(
            "/api/actions",
            {
                "action": {
                    "kind": "reveal",
                    "by": -1,
                    "position": 7,
                    "colour": "green",
                    "value": 3,
                    "horn": "right",
                }
            },
        )
        expect(watcher.locator("#live")).to_have_attribute("data-state", "live")
        expect(watcher.locator("#waiting")).to_have_text("Waiting for Ann to turn over a second piece.")
        expect(watcher.locator("#pieces .cell").nth(7)).to_have_attribute(
            "title", "position 7: green 3 right"
        )
        assert watcher.evaluate("window.__loaded_once") is True, "the page reloaded"
    finally:
        context.close()


def test_a_host_whose_session_ended_is_asked_for_the_pin_again_and_nothing_changes(
    browser: Any, table: TableServer
) -> None:
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{table.url}/host")
        page.fill("#pin", PIN)
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator("#controls")).to_be_visible()
        # The session ends behind the page's back (signed out in another tab, or expired).
        page.evaluate(
            """async () => {
                const session = await (await fetch("/api/host/session")).json();
                await fetch("/api/host/sign-out", { method: "POST", body: "{}",
                  headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf_token } });
            }"""
        )
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#sign-in-section")).to_be_visible()
        expect(page.locator("#sign-in-reason")).to_contain_text("sign in with the table PIN")
        expect(page.locator("#controls")).to_be_hidden()
        expect(page.locator("#waiting")).to_have_text("No game yet: the host starts one.")
    finally:
        context.close()
