"""Every registered game on a phone, live and in the history; toss verdicts overturned and confirmed by hand.

Each game must be drawn by its own renderer (static/games/<name>.js); a game without one still gets
the generic rendering, which shows any public view readably.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from table.toygame import RACE

from companion.games import Game, all_games, get_game
from companion.record.store import Event, RecordStore

from .browser_fixtures import PIN, HostClient, TableServer, browser, phone, screenshot
from .played import record_game

__all__ = ["browser"]  # a fixture

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def registered_games() -> list[Game]:
    """The games `companion run` knows (this package's tests register a toy game in this process only)."""
    return [game for game in all_games() if game.name != RACE.name]


def record_random_game(store: RecordStore, name: str, seed: int) -> int:
    """A finished game of `name` with random moves and random table answers, written to the record
    (with the fewest players: the shortest games)."""
    game = get_game(name)
    options = game.validate_options({"players": game.min_players})
    state = game.setup(options)
    rng = random.Random(seed)
    events: list[Event] = []
    while not state.is_over():
        to_act = state.to_act()
        action = state.random_chance_action(rng) if to_act.chance else rng.choice(state.legal_actions())
        at = f"2026-11-0{1 + seed % 9}T18:{len(events) // 60 % 60:02d}:{len(events) % 60:02d}.000+00:00"
        events.append(Event(0, len(events) + 1, at, "action", "host", action.to_json(), None))
        state = state.apply(action)
    names = NAMES[: state.num_players]
    return store.import_game(name, options, names, events[0].at, True, events)


def test_every_game_is_drawn_by_its_own_renderer_as_it_is_played(browser: Any, tmp_path: Path) -> None:
    server = TableServer(tmp_path / "games.db")
    server.start()
    context = phone(browser)
    try:
        host = HostClient(server)
        watcher = context.new_page()
        watcher.goto(f"{server.url}/")
        watcher.evaluate("window.__loaded_once = true")
        for index, game in enumerate(registered_games()):
            players = game.setup({}).num_players
            host.post("/api/games", {"game": game.name, "names": NAMES[:players]})
            board = watcher.locator("#board")
            expect(board).to_have_attribute("data-game", game.name)
            expect(board).to_have_attribute("data-renderer", game.name)
            expect(watcher.locator(".player-name")).to_have_text(NAMES[:players])
            if index % 2:
                watcher.click("#theme")
            screenshot(watcher, f"live-{game.name}")
        assert watcher.evaluate("window.__loaded_once") is True, "the page reloaded"

        # A game without a renderer of its own: the generic rendering shows its whole public view.
        generic = watcher.evaluate(
            """async () => {
                const view = await (await fetch("/api/state")).json();
                view.game.name = "a-game-without-a-renderer";
                const root = document.createElement("div");
                Companion.renderScoreboard(root, view);
                const board = root.querySelector("#board");
                return {
                    renderer: board.dataset.renderer,
                    keys: [...board.querySelectorAll("dt")].map((d) => d.textContent),
                    players: root.querySelectorAll(".player").length,
                };
            }"""
        )
        last = registered_games()[-1]
        assert generic["renderer"] == "generic"
        assert generic["players"] == last.setup({}).num_players
        assert generic["keys"], "the generic rendering shows the public view's fields"
    finally:
        context.close()
        server.stop()


def test_the_history_replays_every_game_step_by_step_with_exports_and_statistics(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "history.db"
    store = RecordStore(db)
    game_ids = {}
    try:
        for seed, game in enumerate(registered_games()):
            if game.name == "minotaurus":
                game_ids[game.name] = record_game(store, ["Ann", "Bo", "Cy"], seed=seed).game_id
            else:
                game_ids[game.name] = record_random_game(store, game.name, seed)
    finally:
        store.close()
    server = TableServer(db)
    server.start()
    context = phone(browser, dark=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/history")
        expect(page.locator("#games tbody tr")).to_have_count(len(game_ids))
        for name, game_id in game_ids.items():
            page.locator(f'#games tr[data-game="{game_id}"] button').click()
            replay = page.locator("#replay")
            expect(replay.locator("#board")).to_have_attribute("data-renderer", name)
            expect(replay.locator("#ranking")).to_be_visible()
            expect(page.locator("#step-label")).to_contain_text("Event")
            screenshot(page, f"history-{name}", whole_page=False)

        # Step through the last game shown: back one event, then to the start.
        label = page.locator("#step-label")
        steps = int(page.locator("#step").get_attribute("max") or 0)
        expect(label).to_contain_text(f"Event {steps} of {steps}")
        page.click("#back")
        expect(label).to_contain_text(f"Event {steps - 1} of {steps}")
        expect(page.locator("#replay #ranking")).to_have_count(0)
        page.click("#first")
        expect(label).to_have_text(f"The start ({steps} events in all)")

        last_id = list(game_ids.values())[-1]
        jsonl = page.locator("#exports a", has_text="JSON lines")
        expect(jsonl).to_have_attribute("href", f"/api/history/{last_id}/record.jsonl")
        download = page.request.get(f"{server.url}/api/history/{last_id}/record.jsonl")
        assert download.status == 200 and len(download.text().splitlines()) == steps + 1
        expect(page.locator("#exports a", has_text="BG Stats")).to_have_attribute(
            "href", f"/api/history/{last_id}/bgstats.json"
        )

        # Statistics: one row per player, and the plots drawn by the Pi itself.
        expect(page.locator("#stats-table tbody tr").first).to_be_visible()
        assert "Ann" in page.locator("#stats-table").inner_text()
        page.wait_for_function(
            "[...document.querySelectorAll('img.plot')].every((img) => img.complete && img.naturalWidth > 0)"
        )
        assert page.locator("img.plot").count() == 3 + len(game_ids), (
            "wins, tosses, horns, and scores per game"
        )
        screenshot(page, "history-statistics")

        # Statistics of one game: its own plots only.
        page.select_option("#stats-game", "minotaurus")
        expect(page.locator("img.plot")).to_have_count(4)
        expect(page.locator("img.plot").last).to_have_attribute(
            "src", "/api/stats/plots/scores.svg?game=minotaurus"
        )
    finally:
        context.close()
        server.stop()


def test_the_host_overturns_a_toss_verdict_and_confirms_the_next_on_every_phone(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "toss.db"
    store = RecordStore(db)
    try:
        record_game(store, ["Ann", "Bo", "Cy"], seed=3, stop_before_toss=True)
    finally:
        store.close()
    server = TableServer(db)
    server.start()
    contexts = [phone(browser), phone(browser)]
    try:
        watcher, host = (context.new_page() for context in contexts)
        watcher.goto(f"{server.url}/")
        expect(watcher.locator("#challenge")).to_be_visible()
        tosser = watcher.locator("#challenge .toss.pending")
        expect(tosser).to_contain_text("tossing")
        name = (tosser.text_content() or "").split(":")[0]

        host.goto(f"{server.url}/host")
        host.fill("#pin", PIN)
        host.get_by_role("button", name="Sign in").click()
        answers = host.locator("#table-answers")
        answers.locator("summary").click()
        answers.get_by_role("button", name=f"{name}'s toss lands on a horn").click()
        expect(watcher.locator("#challenge .toss.hit")).to_have_text(f"{name}: hit ✔")

        verdict = host.locator("#verdict-box")
        expect(verdict).to_contain_text(f"{name}'s toss lands on a horn")
        screenshot(host, "host-verdict")
        verdict.get_by_role("button", name="Overturn: a miss").click()
        expect(watcher.locator("#challenge .toss.miss")).to_have_text(f"{name}: miss ✘")
        expect(watcher.locator("#log")).to_contain_text(f"undo: {name}'s toss lands on a horn")
        expect(verdict).to_contain_text(f"{name}'s toss misses")

        verdict.get_by_role("button", name="Confirm").click()
        expect(host.locator("#verdict-box")).to_have_count(0)
        expect(watcher.locator("#devices")).to_contain_text("The host confirmed the verdict.")
        screenshot(watcher, "watcher-verdict-confirmed")

        # The confirmation is about that toss: once the table moves on, the phones stop showing it.
        host.get_by_role("button", name=f"Undo: {name}'s toss misses").click()
        expect(watcher.locator("#devices")).to_have_count(0)
    finally:
        for context in contexts:
            context.close()
        server.stop()
