"""`companion bench scoreboard` runs end to end (few phones, few events); its figures are not judged here."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_the_scoreboard_bench_delivers_every_event_to_every_phone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "scoreboard", "--json", "--phones", "3", "--events", "6"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["phones"], report["events"], report["deliveries"], report["missed"]) == (3, 6, 18, 0)
    assert set(report["event_to_phone_ms"]) == {"p50", "p99", "max", "mean"}
    assert report["daemon_memory"]["rss_mb"] <= report["daemon_memory"]["peak_rss_mb"]


def test_the_scoreboard_bench_prints_one_line_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "scoreboard", "--phones", "2", "--events", "2"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("2 phones, 2 events: event to phone p50 ") and "0 missed" in line
