"""`companion bench toss` runs both paths end to end (its figures are for people; here only that it works)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_bench_toss_prints_figures_for_both_sources(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "toss", "--json", "--tosses", "25", "--source", "both", "--seed", "4"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["source"] for r in report["results"]] == ["gpio", "node"]
    for result in report["results"]:
        assert result["tosses"] == 25
        assert result["right"] == result["decidable_tosses"] and result["false_success"] == 0
        assert result["edges"]["missed"] == 0 and result["edges"]["occlusions_1ms_or_longer"] > 25
        assert result["settle_end_to_verdict_ms"]["n"] > 0


def test_bench_toss_prints_a_line_per_source_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "toss", "--tosses", "5", "--source", "gpio"]) == 0
    assert capsys.readouterr().out.startswith("gpio: ")
