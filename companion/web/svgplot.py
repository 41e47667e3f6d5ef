"""Small SVG charts drawn on the Pi: a line chart and a bar chart, no plotting library, no outside service.

The charts follow the phone's theme: an embedded style switches colours with
prefers-color-scheme, which works whether the page inlines the SVG or shows it
as an image. Every text is escaped, since player names come from the host.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

WIDTH = 640
HEIGHT = 360
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 40, 64
PALETTE = ("#2f7ed8", "#e4572e", "#29a35a", "#a05195", "#f0a202", "#16a5a5", "#8c564b", "#6c757d")

_STYLE = """
text{font:14px system-ui,sans-serif;fill:#222}
.axis{stroke:#555;stroke-width:1}
.grid{stroke:#ccc;stroke-width:1;stroke-dasharray:3 4}
.bg{fill:#fff}
@media (prefers-color-scheme:dark){text{fill:#eee}.axis{stroke:#aaa}.grid{stroke:#444}.bg{fill:#111}}
"""


@dataclasses.dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[float, float]]
    """(x, y) pairs; x is e.g. a game's number, y the value."""


def nice_top(value: float, steps: int = 4, *, whole: bool = False) -> float:
    """The smallest axis top at or above `value` whose `steps` ticks are 1, 2, 2.5 or 5 times a power of ten
    (whole numbers only, if `whole`: counts and scores)."""
    if value <= 0:
        return float(steps)
    magnitude = 10.0 ** math.floor(math.log10(value / steps))
    candidates = (m * magnitude * scale for scale in (1, 10, 100) for m in (1, 2, 2.5, 5))
    step = next(s for s in candidates if s * steps >= value and (not whole or s == int(s)))
    return step * steps


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _document(title: str, body: list[str], height: int = HEIGHT) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label={quoteattr(title)}>'
        f"<title>{escape(title)}</title><style>{_STYLE}</style>"
        f'<rect class="bg" width="{WIDTH}" height="{height}"/>'
        f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-weight="bold">{escape(title)}</text>'
        + "".join(body)
        + "</svg>"
    )


def _empty(title: str, message: str) -> str:
    return _document(
        title, [f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">{escape(message)}</text>']
    )


def _text(x: float, y: float, content: str, anchor: str = "middle") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(content)}</text>'


def _y_axis(y_max: float, unit: str, plot_bottom: float, plot_top: float, right: float) -> list[str]:
    parts = []
    for step in range(5):
        value = y_max * step / 4
        y = plot_bottom - (plot_bottom - plot_top) * step / 4
        parts.append(f'<line class="grid" x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}"/>')
        parts.append(_text(MARGIN_LEFT - 6, y + 5, f"{_number(value)}{unit}", "end"))
    parts.append(
        f'<line class="axis" x1="{MARGIN_LEFT}" y1="{plot_top}" x2="{MARGIN_LEFT}" y2="{plot_bottom}"/>'
    )
    parts.append(
        f'<line class="axis" x1="{MARGIN_LEFT}" y1="{plot_bottom}" x2="{right}" y2="{plot_bottom}"/>'
    )
    return parts


def _legend(names: Sequence[str], y: float) -> list[str]:
    parts = []
    x = float(MARGIN_LEFT)
    for index, name in enumerate(names):
        colour = PALETTE[index % len(PALETTE)]
        parts.append(f'<rect x="{x:.1f}" y="{y - 11:.1f}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{x + 16:.1f}" y="{y:.1f}">{escape(name)}</text>')
        x += 28 + 8 * len(name)
    return parts


TIE_GAP = 4.0
"""Pixels between the lines of players who tie at a point (same game, same score), so that no line hides
another: drawn exactly, the last player's line covered the others'."""


def _tied_points(series: Sequence[Series]) -> dict[tuple[float, float], list[int]]:
    """For every point, the indexes of the series that pass through it."""
    sharing: dict[tuple[float, float], list[int]] = {}
    for index, line in enumerate(series):
        for point in line.points:
            sharing.setdefault(point, []).append(index)
    return sharing


def _apart(placed: tuple[float, float], index: int, tied: list[int]) -> tuple[float, float]:
    """A point moved up or down by its rank among the series tied there (centred on the true value)."""
    px, py = placed
    return px, py + (tied.index(index) - (len(tied) - 1) / 2) * TIE_GAP


def line_chart(
    title: str,
    series: Sequence[Series],
    *,
    y_max: float | None = None,
    unit: str = "",
    x_label: str = "",
    empty: str = "",
) -> str:
    """One line (with dots) per series over a shared x range; y from 0 to `y_max` (default: a round number
    above the largest value)."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return _empty(title, empty or "nothing to show yet")
    if y_max is None:
        values = [y for s in drawn for _, y in s.points]
        y_max = nice_top(max(values), whole=all(y == int(y) for y in values))
    xs = [x for s in drawn for x, _ in s.points]
    x_min, x_max = min(xs), max(xs)
    right, top, bottom = WIDTH - MARGIN_RIGHT, MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    span = (x_max - x_min) or 1.0

    def place(x: float, y: float) -> tuple[float, float]:
        px = MARGIN_LEFT + (right - MARGIN_LEFT) * ((x - x_min) / span if x_max > x_min else 0.5)
        py = bottom - (bottom - top) * (min(max(y, 0.0), y_max) / y_max if y_max else 0.0)
        return px, py

    body = _y_axis(y_max, unit, bottom, top, right)
    for label_x in sorted({x_min, x_max}):
        px, _ = place(label_x, 0)
        body.append(f'<text x="{px:.1f}" y="{bottom + 18}" text-anchor="middle">{_number(label_x)}</text>')
    if x_label:
        body.append(_text((MARGIN_LEFT + right) / 2, bottom + 18, x_label))
    sharing = _tied_points(drawn)
    for index, line in enumerate(drawn):
        colour = PALETTE[index % len(PALETTE)]
        placed = [_apart(place(x, y), index, sharing[(x, y)]) for x, y in line.points]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in placed)
        body.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{path}"/>')
        body.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>' for px, py in placed)
    body.extend(_legend([s.name for s in drawn], HEIGHT - 14))
    return _document(title, body)


def bar_chart(
    title: str,
    categories: Sequence[str],
    groups: Sequence[Series],
    *,
    y_max: float | None = None,
    unit: str = "",
    empty: str = "",
) -> str:
    """Grouped bars: one bar per group in each category; a group's points are (category index, value)."""
    values = {(s.name, int(x)): y for s in groups for x, y in s.points}
    if not categories or not groups or not values:
        return _empty(title, empty or "nothing to show yet")
    top_value = (
        y_max
        if y_max is not None
        else nice_top(max(values.values()), whole=all(y == int(y) for y in values.values()))
    )
    right, top, bottom = WIDTH - MARGIN_RIGHT, MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    body = _y_axis(top_value, unit, bottom, top, right)
    slot = (right - MARGIN_LEFT) / len(categories)
    bar = slot * 0.8 / len(groups)
    for c, category in enumerate(categories):
        left = MARGIN_LEFT + slot * c + slot * 0.1
        for g, group in enumerate(groups):
            value = values.get((group.name, c))
            if value is None:
                continue
            height = (bottom - top) * min(max(value, 0.0), top_value) / top_value
            x = left + bar * g
            body.append(
                f'<rect x="{x:.1f}" y="{bottom - height:.1f}" width="{bar * 0.92:.1f}" height="{height:.1f}" '
                f'fill="{PALETTE[g % len(PALETTE)]}"><title>{escape(group.name)}, {escape(category)}: '
                f"{_number(value)}{escape(unit)}</title></rect>"
            )
        body.append(_text(left + slot * 0.4, bottom + 18, category))
    if len(groups) > 1 or groups[0].name:
        body.extend(_legend([g.name for g in groups], HEIGHT - 14))
    return _document(title, body)
