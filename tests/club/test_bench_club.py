"""`companion bench club` through its CLI: a short evening of three tables over a real Mosquitto, with the
broker restarted and one table cut off, reports every figure issue 15 names, and loses nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.club.bench import ACL, CLUB

from .conftest import need_mosquitto

SHIPPED_ACL = Path(__file__).resolve().parents[2] / "hardware" / "club" / "acl"


def test_a_short_club_evening_reports_every_figure_and_loses_nothing() -> None:
    need_mosquitto()
    # Six times a human pace, so that the Asterion table finishes a game within the run.
    command = [
        sys.executable,
        "-m",
        "companion",
        "bench",
        "club",
        "--json",
        "--tables",
        "3",
        "--seconds",
        "8",
    ]
    command += ["--offline-minutes", "1", "--speed", "6"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)

    assert report["tables"] == 3
    delay = report["event_to_league_ms"]
    assert delay["events"] > 0
    assert 0 <= delay["p50"] <= delay["p99"] <= delay["max"]
    assert report["events_lost"] == 0
    assert report["broker_restart"]["events_lost"] == 0
    assert report["broker_restart"]["events"] > 0, "the tables played on while the broker was away"
    offline = report["table_offline"]
    assert offline["events_lost"] == 0
    assert offline["events"] > 0, "the cut-off table played on"
    assert offline["table_reconnections"] >= 2, "the table reconnected after the restart and after the cut"
    assert report["games_finished"] >= 1, "no finished game: the league was compared with nothing"
    assert report["league_equals_replay"] is True
    assert report["events"] == report["league_counts"]["event"], "every event ingested once"
    assert report["meets_goals"] is (delay["p99"] <= report["goals"]["event_to_league_p99_ms"])


def test_the_bench_runs_the_shipped_acl() -> None:
    rules = [
        line.replace("CLUB", CLUB)
        for line in SHIPPED_ACL.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert list(ACL) == rules
