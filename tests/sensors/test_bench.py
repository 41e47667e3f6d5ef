"""`companion bench toss` runs both paths end to end on physical tosses (its figures are for people)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.sensors.benchmark import TOLERANCE_CASES


def test_bench_toss_prints_the_figures_the_issue_names_for_both_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "toss", "--json", "--tosses", "12", "--tolerance-tosses", "2", "--seed", "4"]
    assert main([*args, "--source", "both"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert "simulating 12 tosses" in captured.err  # progress, on stderr
    # Every simulated and judged toss moved the bar: it ends full, with nothing left over.
    done, total = captured.err.strip().splitlines()[-1].split("(")[-1].rstrip(")").split("/")
    assert done == total and int(total) == 12 + 2 * (12 + len(TOLERANCE_CASES) * 2)
    assert sum(report["kinds"].values()) == 12
    assert [r["source"] for r in report["results"]] == ["gpio", "node"]
    for result in report["results"]:
        assert result["tosses"] == 12
        # Every toss is counted: right, silently wrong, or sent to the host; none is set aside.
        assert result["right"] + result["silent_wrong"] + result["asked_host"] == 12
        assert sum(sum(v.values()) for v in result["by_kind"].values()) == 12
        assert set(result["rest_to_verdict_ms"]) == {"success", "failure"}
        for figures in result["rest_to_verdict_ms"].values():
            assert set(figures) == {"p50", "p99"}
        assert result["edges"]["missed"] == 0 and result["edges"]["changes"] > 12
        assert [t["name"] for t in result["tolerance"]] == [c.name for c in TOLERANCE_CASES]
        for case in result["tolerance"]:
            assert case["tosses"] == 2 and case["right"] + case["silent_wrong"] + case["asked_host"] == 2
            assert {"beam_height_offset_mm", "cord_diameter_mm", "receiver_threshold"} <= set(case)
    # Both sources judged the same physical tosses.
    assert report["results"][0]["by_kind"].keys() == report["results"][1]["by_kind"].keys()


def test_bench_toss_prints_a_line_per_source_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "toss", "--tosses", "3", "--tolerance-tosses", "1", "--source", "gpio"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gpio: 3 tosses, ") and "silently wrong" in out and "rope 4 mm" in out
