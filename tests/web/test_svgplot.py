"""The Pi's own charts: lines of tied players stay visible."""

from __future__ import annotations

import re

from companion.web.svgplot import TIE_GAP, Series, line_chart


def polylines(svg: str) -> list[list[tuple[float, float]]]:
    return [
        [(float(x), float(y)) for x, y in (pair.split(",") for pair in points.split())]
        for points in re.findall(r'<polyline [^>]*points="([^"]+)"', svg)
    ]


def test_tied_players_lines_are_drawn_apart_where_they_tie_and_true_elsewhere() -> None:
    tied = [(1, 10), (2, 20), (3, 30)]
    alone = Series("Cy", [(1, 5), (2, 25), (3, 12)])
    chart = line_chart("Final scores", [Series("Ann", tied), Series("Bo", tied), alone])
    ann, bo, cy = polylines(chart)
    for (ann_x, ann_y), (bo_x, bo_y) in zip(ann, bo, strict=True):
        assert ann_x == bo_x
        assert abs(ann_y - bo_y) == TIE_GAP, "the second of two tied lines is drawn beside the first"
    # Centred on the true value: the lone line is where it would be drawn without the others.
    assert cy == polylines(line_chart("Final scores", [Series("Ann", tied), alone]))[1]
    assert [(ann_y + bo_y) / 2 for (_, ann_y), (_, bo_y) in zip(ann, bo, strict=True)] == [
        y for _, y in polylines(line_chart("Final scores", [Series("Ann", tied), alone]))[0]
    ]


def test_lines_that_only_cross_are_not_moved() -> None:
    ann = Series("Ann", [(1, 10), (2, 20)])
    bo = Series("Bo", [(1, 20), (2, 10)])
    both = polylines(line_chart("Final scores", [ann, bo]))
    assert both[0] == polylines(line_chart("Final scores", [ann]))[0]
