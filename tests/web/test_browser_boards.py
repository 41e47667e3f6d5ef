"""Every game's board drawn as a picture, on a phone and on a desk, and moves entered by tapping it.

Each game is recorded part-played (seeded random moves and table answers), resumed at the table, and
looked at on the scoreboard and the host page at 375 and 1280 px: no horizontal scroll, and the
board's picture holds as many drawn things as the public view says (sticks, ships, tiles...).
Screenshots go to test-artifacts/browser/boards-*.png.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.games import get_game
from companion.games.minoa.board import build_board
from companion.record.store import Event, RecordStore

from .browser_fixtures import PIN, HostClient, TableServer, browser, screenshot
from .test_i18n import german

__all__ = ["browser"]  # a fixture

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

NAMES = ["Ann", "Bo", "Cy", "Di"]
STEPS = {"minotaurus": 13, "hornochsen": 47, "asterion": 34, "minos": 51, "minoa": 40}
"""How far each game is played before it is looked at: far enough that its board holds things."""

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"

EVERY_TARGET_DRAWN = """async () => {
    const view = await (await fetch("/api/state")).json();
    const answers = await (await fetch("/api/answers")).json();
    const renderer = Companion.rendererFor(view);
    const moves = [...view.legal, ...(answers.answers || [])];
    const keys = new Set(moves.flatMap((legal) => renderer.targets(legal.action)));
    const drawn = [...document.querySelectorAll("#scoreboard [data-target]")]
        .map((node) => node.dataset.target);
    return { keys: keys.size, missing: [...keys].filter((key) => !drawn.includes(key)) };
}"""
"""Every board key a legal move or table answer touches (the renderer's targets) is drawn to be tapped."""


def record_part_played(store: RecordStore, name: str, steps: int, seed: int) -> int:
    """An unfinished game of `name` after `steps` random moves and table answers, written to the record."""
    game = get_game(name)
    players = 3 if name in ("minotaurus", "hornochsen") else game.min_players
    options = game.validate_options({"players": players})
    state = game.setup(options)
    rng = random.Random(seed)
    events: list[Event] = []
    while len(events) < steps and not state.is_over():
        chance = state.to_act().chance
        action = state.random_chance_action(rng) if chance else rng.choice(state.legal_actions())
        at = f"2026-11-20T18:{len(events) // 60:02d}:{len(events) % 60:02d}.000+00:00"
        events.append(Event(0, len(events) + 1, at, "action", "host", action.to_json(), None))
        state = state.apply(action)
    assert not state.is_over(), f"{name} ended within {steps} moves: choose fewer"
    return store.import_game(name, options, NAMES[: state.num_players], events[0].at, False, events)


@pytest.fixture(scope="module")
def boards_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TableServer, dict[str, int]]]:
    db = tmp_path_factory.mktemp("boards") / "boards.db"
    store = RecordStore(db)
    try:
        game_ids = {name: record_part_played(store, name, steps, 7) for name, steps in STEPS.items()}
    finally:
        store.close()
    server = TableServer(db)
    server.start()
    try:
        yield server, game_ids
    finally:
        server.stop()


def device(browser: Any, width: int, language: str = "en") -> Any:
    phone = width < 600
    return browser.new_context(
        viewport={"width": width, "height": 800 if phone else 900},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale={"de": "de-DE", "en": "en-GB"}[language],  # the phone's Accept-Language
    )


def sign_in(page: Any, server: TableServer) -> None:
    page.goto(f"{server.url}/host")
    page.fill("#pin", PIN)
    page.locator("#sign-in button[type=submit]").click()  # its words are in the phone's language
    expect(page.locator("#controls")).to_be_visible()


def drawn_counts(page: Any, name: str) -> dict[str, Any]:
    """What the page's board picture holds, counted in the page."""
    return dict(
        page.evaluate(
            """(name) => {
                const count = (selector) =>
                    document.querySelectorAll(`#board ${selector}, #status-section ${selector}`).length;
                const size = (selector) => {
                    const box = document.querySelector(selector);
                    return box ? box.getBoundingClientRect().width : 0;
                };
                return {
                    lines: count("#minoa-board .line"), sticks: count("#minoa-board .line.stick"),
                    pieces: count("#minoa-board .line.piece"), triangles: count("#minoa-board .triangle"),
                    claimed: count("#minoa-board .triangle.claimed"),
                    settlements: count("#minos-map .settlement"), sea: count("#minos-map .sea"),
                    ships: count("#minos-map .ship"), dice: count("#dice-faces .die"),
                    dice_words: [...document.querySelectorAll("#dice-faces .die")]
                        .map((die) => die.getAttribute("aria-label")),
                    tiles: count("#labyrinth .tile-cell:not(.free)"),
                    tile_px: size("#labyrinth .tile-cell:not(.free) .ground"),
                    labyrinth_box_fits: (() => {
                        const box = document.querySelector("#labyrinth");
                        return !box || box.parentElement.getBoundingClientRect().right <= window.innerWidth;
                    })(),
                    rows: count("#rows .row-line"), row_tiles: count("#rows .tile[data-target]"),
                    cells: count("#pieces .cell"),
                    board_width: size("#board"),
                };
            }""",
            name,
        )
    )


def expected_counts(name: str, pub: dict[str, Any]) -> dict[str, Any]:
    """The same things as the public view has them."""
    if name == "minoa":
        claimed = sum(area["size"] for area in pub["areas"] if area["claimed_by"])
        return {
            "lines": 156,
            "triangles": 96,
            "sticks": pub["lines"].count("stick"),
            "pieces": sum(1 for line in pub["lines"] if line not in (None, "stick")),
            "claimed": claimed,
        }
    if name == "minos":
        ships = sum(player["ships_on_board"] for player in pub["players"])
        return {
            "settlements": len(pub["map"]["settlements"]),
            "sea": len(pub["map"]["sea"]),
            "ships": ships,
            "dice": len(pub["turn"]["dice"]) if pub["turn"] else 0,
        }
    if name == "asterion":
        return {"tiles": len(pub["board"])}
    if name == "hornochsen":
        return {"rows": len(pub["board"]["rows"]), "row_tiles": sum(len(row) for row in pub["rows"])}
    return {"cells": len(pub["table"]["cells"])}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [375, 1280])
def test_every_board_is_drawn_and_no_page_is_wider_than_the_screen(
    browser: Any, boards_table: tuple[TableServer, dict[str, int]], width: int, language: str
) -> None:
    """In German too: its longer words must not widen a page either."""
    server, game_ids = boards_table
    host = HostClient(server)
    context = device(browser, width, language)
    players = german("Players") if language == "de" else "Players"
    try:
        watcher = context.new_page()
        watcher.goto(f"{server.url}/")
        host_page = context.new_page()
        sign_in(host_page, server)
        for name, game_id in game_ids.items():
            host.post(f"/api/games/{game_id}/resume", {})
            pub = host.get("/api/state")["public"]
            for page, where in ((watcher, "scoreboard"), (host_page, "host")):
                expect(page.locator("#board")).to_have_attribute("data-game", name)
                expect(page.locator("html")).to_have_attribute("lang", language)
                expect(page.locator("#players-section h2")).to_have_text(players)
                counts = drawn_counts(page, name)
                expected = expected_counts(name, pub)
                assert {key: counts[key] for key in expected} == expected, (name, where, width)
                assert page.evaluate(NO_SIDEWAYS_SCROLL), (
                    f"{name} {where} at {width} px scrolls sideways: "
                    f"{page.evaluate('document.documentElement.scrollWidth')} px"
                )
                if name == "asterion":
                    assert counts["tile_px"] >= 40, f"Asterion tiles {counts['tile_px']} px wide"
                    assert counts["labyrinth_box_fits"], "the labyrinth's box reaches past the screen"
                if name == "minos" and counts["dice"]:
                    words = " ".join(counts["dice_words"])
                    assert "Moewe" not in words and "Gebaeude" not in words, words
                screenshot(page, f"boards-{name}-{where}-{width}-{language}")
            targets = host_page.evaluate(EVERY_TARGET_DRAWN)
            assert targets["missing"] == [], f"{name}: moves touch board elements not drawn: {targets}"
            assert targets["keys"], f"{name}: no move on the board to check"
        # Something wide in a box meant to scroll scrolls there: it never widens the page's column (the
        # Minos host page was 441 px wide at 375 px by its settlements table, inside such a box).
        wide = """() => {
            const box = document.createElement("div");
            box.className = "scroll";
            const cells = "<td>Settlement&nbsp;Buildings&nbsp;Value</td>".repeat(12);
            box.innerHTML = `<table class="plain"><tr>${cells}</tr></table>`;
            document.querySelector("#board").append(box);
        }"""
        host_page.evaluate(wide)
        assert page_scrolls_not(host_page), host_page.evaluate("document.documentElement.scrollWidth")
    finally:
        context.close()


def test_the_minoa_board_numbers_its_lines_as_the_game_does(
    browser: Any, boards_table: tuple[TableServer, dict[str, int]]
) -> None:
    """Each drawn line lies where board.py puts the line of that number (docs/minoa-board.md)."""
    server, game_ids = boards_table
    HostClient(server).post(f"/api/games/{game_ids['minoa']}/resume", {})
    context = device(browser, 375)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        expect(page.locator("#minoa-board")).to_be_visible()
        drawn = page.evaluate(
            """() => [...document.querySelectorAll("#minoa-board .line")].map((group) => {
                const mark = group.querySelector(".mark");
                const ends = ["x1", "y1", "x2", "y2"].map((end) => Number(mark.getAttribute(end)));
                return [Number(group.dataset.line), ...ends];
            })"""
        )
        board = build_board(4)
        # Lattice points as drawn: x in half steps of 10 units, rows sqrt(3)/2 * 10 apart (any scale would do;
        # the ratio of the two is the lattice's, and the left corner is the picture's left edge).
        rows_apart = 10 * math.sqrt(3) / 2
        for number, x1, y1, x2, y2 in drawn:
            ends = {(round((x - 5) / 5) - 8, round((y - 5) / rows_apart)) for x, y in ((x1, y1), (x2, y2))}
            assert ends == set(board.lines[number]), number
        assert len(drawn) == len(board.lines)
        edge = page.locator('#minoa-board [data-line="13"] title')
        expect(edge).to_have_text("edge line 13 (upper right side, 1 of 4 clockwise)")
    finally:
        context.close()


def page_scrolls_not(page: Any) -> bool:
    return bool(page.evaluate(NO_SIDEWAYS_SCROLL))


def tap_and_confirm(host_page: Any, target: str, move: str) -> None:
    host_page.locator(f'#scoreboard [data-target="{target}"]').first.click()
    sheet = host_page.locator("#tap-choice")
    expect(sheet).to_be_visible()
    sheet.get_by_role("button", name=move).click()
    expect(sheet).to_be_hidden()


def test_the_host_enters_moves_by_tapping_the_board(browser: Any, tmp_path: Path) -> None:
    server = TableServer(tmp_path / "tap.db")
    server.start()
    host = HostClient(server)
    context = device(browser, 375)
    try:
        watcher = context.new_page()
        watcher.goto(f"{server.url}/")
        host_page = context.new_page()
        sign_in(host_page, server)

        # Minoa: Ann taps interior line 124; one move there: confirmed, the stick is drawn on every phone.
        host.post("/api/games", {"game": "minoa", "options": {"players": 2}, "names": ["Ann", "Bo"]})
        expect(host_page.locator("#minoa-board")).to_be_visible()
        expect(host_page.locator("#raw-box")).to_be_visible()
        host_page.locator('#minoa-board [data-target="line:124"]').click()
        sheet = host_page.locator("#tap-choice")
        expect(sheet.locator("h3")).to_have_text("line 124")
        expect(sheet.locator("#tap-confirm")).to_have_text("Confirm: black stick on line 124")
        tapped = host_page.locator('#minoa-board [data-target="line:124"]')
        expect(tapped).to_have_class("line empty selected")
        screenshot(host_page, "boards-tap-minoa-375", whole_page=False)
        sheet.locator("#tap-confirm").click()
        expect(watcher.locator('#minoa-board [data-line="124"]')).to_have_class("line stick")
        expect(watcher.locator("#minoa-board .line.stick")).to_have_count(1)
        # The undo button says what it takes back; taking it back clears the line again.
        undo = host_page.locator("#undo")
        expect(undo).to_have_text("Undo: Ann: black stick on line 124")
        # Bo taps an edge line: a piece in Bo's colour, named by its place on the edge.
        edge_piece = "Confirm: blue piece on edge line 13 (upper right side, 1 of 4 clockwise)"
        tap_and_confirm(host_page, "line:13", edge_piece)
        expect(watcher.locator('#minoa-board [data-line="13"]')).to_have_class("line piece")
        expect(watcher.locator('#minoa-board [data-line="13"] .mark')).to_have_attribute("stroke", "blue")
        undo.click()
        expect(watcher.locator("#minoa-board .line.piece")).to_have_count(0)
        expect(undo).to_have_text("Undo: Ann: black stick on line 124")
        # A stick taken already: nothing to do there, said in words, and nothing sent.
        host_page.locator('#minoa-board [data-target="line:124"]').click()
        expect(sheet).to_contain_text("Nothing can be done at line 124 now.")
        sheet.get_by_role("button", name="Cancel").click()
        expect(sheet).to_be_hidden()

        # Minotaurus: Ann taps position 3 and turns it over; the table's answer is tapped there too,
        # several answers -> one button each.
        three = {"players": 3}
        host.post("/api/games", {"game": "minotaurus", "options": three, "names": ["Ann", "Bo", "Cy"]})
        expect(host_page.locator("#pieces")).to_be_visible()
        tap_and_confirm(host_page, "pos:3", "Confirm: turn over position 3")
        expect(watcher.locator("#waiting")).to_have_text(
            "Waiting for the table to show the piece at position 3."
        )
        host_page.locator('#pieces [data-target="pos:3"]').click()
        options = sheet.locator("button.tap-option")
        expect(options.first).to_be_visible()
        assert options.count() > 1
        choice = options.filter(has_text="position 3 shows red 3 right")
        screenshot(host_page, "boards-tap-minotaurus-375", whole_page=False)
        choice.click()
        expect(watcher.locator('#pieces [data-target="pos:3"]')).to_have_attribute(
            "title", "position 3: red 3 right"
        )

        # Asterion: Ann's tile shown, she taps a free cell beside the Minotaur: two ways to lay it there.
        host.post("/api/games", {"game": "asterion", "options": {"players": 2}, "names": ["Ann", "Bo"]})
        expect(host_page.locator("#labyrinth")).to_be_visible()
        host_page.get_by_role("button", name="place the tile in hand").click()
        answers = host_page.locator("#table-answers")
        answers.locator("summary").click()
        answers.locator("select").select_option(label="yellow's tile is a corridor")
        answers.get_by_role("button", name="Enter").click()
        folded = host_page.locator("#moves details.all-choices")
        expect(folded).to_have_count(1)
        assert folded.get_attribute("open") is None, "the long list stays folded"
        host_page.locator('#labyrinth [data-target="cell:0,-1"]').click()
        expect(sheet.locator("h3")).to_have_text("cell (0, -1)")
        expect(sheet.locator("button.tap-option")).to_have_text(
            ["place it at (0, -1), unturned", "place it at (0, -1), turned 90° clockwise"]
        )
        screenshot(host_page, "boards-tap-asterion-375", whole_page=False)
        sheet.get_by_role("button", name="place it at (0, -1), turned 90° clockwise").click()
        laid = watcher.locator('#labyrinth [data-target="cell:0,-1"]')
        expect(laid).to_have_attribute("aria-label", "cell (0, -1), yellow corridor, 1 prisoner(s)")
        # Turned a quarter, the corridor runs east to west: from both side middles to the tile's middle.
        expect(laid.locator(".corridor")).to_have_attribute("d", "M100,50 L50,50 M0,50 L50,50")
        expect(laid.locator(".prisoner")).to_have_count(1)
        assert page_scrolls_not(host_page) and page_scrolls_not(watcher)
    finally:
        context.close()
        server.stop()


def test_the_host_moves_a_minos_ship_by_tapping_the_sea(
    browser: Any, boards_table: tuple[TableServer, dict[str, int]]
) -> None:
    """Tapping the sea field a ship may sail to offers that move; confirmed, the ship is drawn there."""
    server, game_ids = boards_table
    host = HostClient(server)
    host.post(f"/api/games/{game_ids['minos']}/resume", {})
    state = host.get("/api/state")
    sea = state["public"]["map"]["sea"]
    free = [field for field in sea if field not in state["public"]["sea"]]  # no ship there: no combat
    sail = next(m for m in state["legal"] if m["action"]["kind"] == "move" and m["action"]["target"] in free)
    target = sail["action"]["target"]
    context = device(browser, 375)
    try:
        page = context.new_page()
        sign_in(page, server)
        field = page.locator(f'#minos-map [data-field="{target}"]')
        ships_before = field.locator(".ship").count()
        field.click()
        sheet = page.locator("#tap-choice")
        expect(sheet.locator("h3")).to_have_text(f"sea field {target}")
        label = sail["label"]
        move = sheet.get_by_role("button", name=label, exact=True)
        if not move.count():  # the only move there: one confirm button naming it
            move = sheet.get_by_role("button", name=f"Confirm: {label}")
        screenshot(page, "boards-tap-minos-375", whole_page=False)
        move.click()
        expect(page.locator(f'#minos-map [data-field="{target}"] .ship')).to_have_count(ships_before + 1)
        assert page_scrolls_not(page)
    finally:
        context.close()
