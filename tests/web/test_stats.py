"""Per-player statistics and their SVG plots, checked against the games as they were played."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.record.store import Event
from companion.table.referee import Referee
from companion.web.stats import effective_events, toss_of
from companion.web.svgplot import nice_top

from .played import Played, evidence, record_game

SVG = "{http://www.w3.org/2000/svg}"


def body(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_data(as_text=True)
    data = response.get_json()
    assert isinstance(data, dict)
    return data


@pytest.fixture
def games(referee: Referee) -> list[Played]:
    store = referee.store
    return [
        record_game(store, ["Ann", "Bo", "Cy"], seed=1, skills=(0.9, 0.2, 0.5)),
        record_game(store, ["Cy", "ann", "Bo"], seed=2, skills=(0.5, 0.9, 0.2)),
        record_game(store, ["Ann", "Dee", "Bo"], seed=3, skills=(0.9, 0.5, 0.2)),
        record_game(store, ["Ann", "Bo", "Cy"], seed=4, stop_before_toss=True),  # unfinished: not counted
    ]


def expected(games: list[Played], name: str) -> dict[str, Any]:
    wins = tosses = successes = 0
    horns: Counter[str] = Counter()
    scores = []
    played = 0
    for game in games:
        if not game.ranking:
            continue
        seats = [seat for seat, other in enumerate(game.names) if other.casefold() == name.casefold()]
        for seat in seats:
            played += 1
            wins += seat in game.ranking[0]
            scores.append(game.scores[seat])
            mine = [toss for toss in game.tosses if toss.seat == seat]
            tosses += len(mine)
            successes += sum(toss.success for toss in mine)
            horns.update(toss.horn or "by hand" for toss in mine if toss.success)
    return {
        "games": played,
        "wins": wins,
        "scores": scores,
        "tosses": tosses,
        "successes": successes,
        "horns": horns,
    }


def test_statistics_count_games_wins_scores_and_tosses_per_player(
    viewer: FlaskClient, games: list[Played]
) -> None:
    data = body(viewer.get("/api/stats"))
    assert data["games"] == 3
    players = {player["name"]: player for player in data["players"]}
    assert set(players) == {"Ann", "Bo", "Cy", "Dee"}  # "ann" is Ann
    for name, player in players.items():
        want = expected(games, name)
        assert (player["games"], player["wins"]) == (want["games"], want["wins"]), name
        minotaurus = player["by_game"]["minotaurus"]
        assert minotaurus["scores"] == want["scores"]
        assert minotaurus["best"] == max(want["scores"])
        assert minotaurus["mean"] == round(sum(want["scores"]) / len(want["scores"]), 2)
        tosses = player["tosses"]
        assert (tosses["count"], tosses["successes"]) == (want["tosses"], want["successes"]), name
        assert tosses["by_horn"] == dict(want["horns"])
        if want["tosses"]:
            assert tosses["rate"] == round(want["successes"] / want["tosses"], 4)
            assert tosses["rate_by_horn"] == {
                h: round(n / want["tosses"], 4) for h, n in want["horns"].items()
            }
    ranked = [(p["wins"], p["games"]) for p in data["players"]]
    assert ranked == sorted(ranked, key=lambda wins_games: (-wins_games[0], -wins_games[1]))


def test_toss_success_over_time_is_cumulative_game_by_game(viewer: FlaskClient, games: list[Played]) -> None:
    ann = next(p for p in body(viewer.get("/api/stats"))["players"] if p["name"] == "Ann")
    made = successes = 0
    points = []
    for order, game in enumerate(games[:3], start=1):
        seat = [n.casefold() for n in game.names].index("ann")
        mine = [toss for toss in game.tosses if toss.seat == seat]
        if mine:
            made, successes = made + len(mine), successes + sum(toss.success for toss in mine)
            points.append((order, game.game_id, len(mine), round(successes / made, 4)))
    assert [(p["order"], p["game_id"], p["tosses"], p["cumulative_rate"]) for p in ann["over_time"]] == points


def test_statistics_of_one_game_only(viewer: FlaskClient, games: list[Played]) -> None:
    assert body(viewer.get("/api/stats?game=minotaurus"))["games"] == 3
    assert body(viewer.get("/api/stats?game=toy-race")) == {"game": "toy-race", "games": 0, "players": []}
    response = viewer.get("/api/stats?game=chess")
    assert response.status_code == 400 and "chess" in response.get_json()["error"]


def test_an_undone_toss_does_not_count_and_an_overturned_one_counts_as_corrected() -> None:
    def toss(seq: int, success: bool, source: str, proof: dict[str, Any] | None) -> Event:
        action = {"kind": "toss", "by": -1, "player": 1, "success": success}
        return Event(1, seq, "2026-11-01T18:00:00+00:00", "action", source, action, proof)

    undo = Event(1, 0, "2026-11-01T18:00:00+00:00", "undo", "host")
    events = [
        toss(1, True, "sensor", evidence(True, "right")),
        toss(2, False, "sensor", evidence(False, None)),
        undo,
        toss(4, True, "host", {"judge": "host", "overturns": {"seq": 2}, "horn": "left"}),
        toss(5, True, "host", None),
    ]
    outcomes = [toss_of(event) for event in effective_events(events)]
    assert [(o.seq, o.success, o.horn) for o in outcomes if o] == [
        (1, True, "right"),
        (4, True, "left"),
        (5, True, None),
    ]
    assert (
        toss_of(Event(1, 1, "2026-11-01T18:00:00+00:00", "action", "host", {"kind": "claim", "by": 0}))
        is None
    )


def svg(response: Any) -> ElementTree.Element:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "image/svg+xml"
    return ElementTree.fromstring(response.data)


def texts(root: ElementTree.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_the_toss_plot_draws_one_line_per_player_with_a_dot_per_game(
    viewer: FlaskClient, games: list[Played]
) -> None:
    stats = {p["name"]: p for p in body(viewer.get("/api/stats"))["players"]}
    root = svg(viewer.get("/api/stats/plots/tosses.svg?player=Ann&player=bo"))
    assert root.find(f"{SVG}title") is not None
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2 and stats["Ann"]["over_time"] and stats["Bo"]["over_time"]
    assert [len(line.attrib["points"].split()) for line in lines] == [
        len(stats["Ann"]["over_time"]),
        len(stats["Bo"]["over_time"]),
    ]
    assert len(root.findall(f"{SVG}circle")) == len(stats["Ann"]["over_time"]) + len(stats["Bo"]["over_time"])
    assert {"Ann", "Bo", "100%", "0%"} <= set(texts(root))


def test_the_horn_plot_has_a_bar_per_player_and_horn(viewer: FlaskClient, games: list[Played]) -> None:
    ann = next(p for p in body(viewer.get("/api/stats"))["players"] if p["name"] == "Ann")
    root = svg(viewer.get("/api/stats/plots/horns.svg?player=Ann"))
    bars = [rect for rect in root.findall(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    assert len(ann["tosses"]["by_horn"]) >= 2, "the games should show Ann on both horns or by hand"
    assert len(bars) == len(ann["tosses"]["by_horn"])
    for bar in bars:
        title = bar.find(f"{SVG}title")
        assert title is not None and title.text is not None
        horn = title.text.split(", ")[1].split(":")[0]
        share = 100 * ann["tosses"]["by_horn"][horn] / ann["tosses"]["count"]
        assert title.text.endswith(f"{share:.1f}".rstrip("0").rstrip(".") + "%")


def test_the_wins_and_scores_plots(viewer: FlaskClient, games: list[Played]) -> None:
    wins = svg(viewer.get("/api/stats/plots/wins.svg"))
    assert {"Ann", "Bo", "Cy", "Dee", "games", "wins"} <= set(texts(wins))
    scores = svg(viewer.get("/api/stats/plots/scores.svg?game=minotaurus&player=Dee"))
    (line,) = scores.findall(f"{SVG}polyline")
    assert len(line.attrib["points"].split()) == 1
    assert "Final scores: Minotaurus" in texts(scores)


def test_plots_of_an_empty_record_say_so(viewer: FlaskClient) -> None:
    assert "no tosses in finished games yet" in texts(svg(viewer.get("/api/stats/plots/tosses.svg")))
    assert "no finished game yet" in texts(svg(viewer.get("/api/stats/plots/wins.svg")))


def test_names_are_escaped_in_plots(viewer: FlaskClient, referee: Referee) -> None:
    record_game(referee.store, ["<script>alert(1)</script>", "Bo & Co", "Cy"], seed=1)
    response = viewer.get("/api/stats/plots/wins.svg")
    root = svg(response)
    assert "<script>" not in response.get_data(as_text=True)
    assert "<script>alert(1)</script>" in texts(root) and "Bo & Co" in texts(root)


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("tosses.svg?player=Zed", 404, "no finished game of a player called 'Zed'"),
        ("tosses.svg?" + "&".join(f"player=P{i}" for i in range(9)), 400, "at most 8 players"),
        ("horns.svg?player=" + "x" * 65, 400, "at most 64 characters"),
        ("scores.svg", 400, "choose one with ?game="),
        ("wins.svg?game=chess", 400, "chess"),
    ],
)
def test_bad_plot_queries(
    viewer: FlaskClient, games: list[Played], query: str, status: int, says: str
) -> None:
    response = viewer.get(f"/api/stats/plots/{query}")
    assert response.status_code == status
    assert says in response.get_json()["error"]


def test_a_game_is_summed_up_again_only_when_its_record_grew(
    viewer: FlaskClient, referee: Referee, games: list[Played], monkeypatch: pytest.MonkeyPatch
) -> None:
    body(viewer.get("/api/stats"))
    replayed: list[int] = []
    import companion.web.stats as stats

    original = stats.summarize

    def counting(info: Any, events: Any) -> stats.GameSummary:
        replayed.append(info.game_id)
        return original(info, events)

    monkeypatch.setattr(stats, "summarize", counting)
    body(viewer.get("/api/stats"))
    assert replayed == []
    new = record_game(referee.store, ["Ann", "Bo", "Cy"], seed=6)
    assert body(viewer.get("/api/stats"))["games"] == 4
    assert replayed == [new.game_id]


@pytest.mark.parametrize(
    ("value", "whole", "top"),
    [
        (0, False, 4),
        (0.3, False, 0.4),
        (1, False, 1),
        (1, True, 4),
        (5, True, 8),
        (23, True, 40),
        (100, False, 100),
    ],
)
def test_axes_end_at_round_numbers(value: float, whole: bool, top: float) -> None:
    assert nice_top(value, whole=whole) == top
