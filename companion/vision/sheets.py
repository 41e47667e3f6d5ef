"""What the host prints: the corner markers' sheet, and a mat of each game's play area at true size.

The marker sheet cannot be laid by the wrong edge: each marker is cut out along its black square's two
outer edges, so the paper's edge *is* the black square's edge, and laying it by the paper lays it right.
Its other two sides keep a white margin (the detector needs white around the black square) that carries
its corner's name, its arrow and bold marks on the alignment edges. Where the table or the board's rim
around a corner is dark, the black edge would melt into it and the marker would not be found, so the
sheet also gives four white L-shaped strips to lay outside the play area against those edges (any strip
fits any corner; where they lie exactly does not matter).

A mat (`mat_svg`) is the play area itself: its edges, the four markers printed in place, and every item's
region outlined lightly, for a table without the game's board or to check the layout against the board;
`mat_pages` tiles it over A4 pages that overlap, with crosses to lay them by and page numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.vision.base import CORNER_MARKER_IDS, MARKER_SIDE_MM, Layout, recogniser_for
from companion.vision.calibration import CORNER_NAMES, marker_bits, marker_corners_mm
from companion.vision.overlay import region_corners_mm

A4_MM = (210.0, 297.0)
"""A4 portrait."""
INNER_MARGIN_MM = 16.0
"""White paper on a marker's two inner sides: the detector's quiet zone (a cell, 5 mm) and its words."""
QUIET_MM = 6.0
"""Nothing is printed this near the black square (more than the cell of white the detector needs)."""
STRIP_MM = 12.0
"""Width of the white strips laid outside the play area against the markers' outer edges."""
PAGE_MARGIN_MM = 10.0
"""A printer's unprintable edge and then some: a mat's pages print nothing nearer the paper's edge."""
OVERLAP_MM = 15.0
"""Mat pages repeat this much of their neighbour's edge, to lay one over the other by the crosses."""
OUTER_SIDES = (("top", "left"), ("top", "right"), ("bottom", "right"), ("bottom", "left"))
"""The black square's outer edges per corner (TL, TR, BR, BL): those lying on the play area's edges."""


def _svg_open(width: float, height: float, title: str) -> list[str]:
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f"<title>{title}</title>",
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="white"/>',
    ]


def _text(x: float, y: float, size: float, words: str, anchor: str = "start", weight: str = "normal") -> str:
    return (
        f'<text x="{x:.3f}" y="{y:.3f}" font-family="sans-serif" font-size="{size:g}" '
        f'font-weight="{weight}" text-anchor="{anchor}">{words}</text>'
    )


def marker_cells(marker_id: int, x0: float, y0: float, side_mm: float) -> str:
    """The marker's black cells as one group of squares, its top-left corner at (x0, y0) mm."""
    bits = marker_bits(marker_id)
    cells = bits.shape[0]
    cell = side_mm / cells
    out = [f'<g id="marker-{marker_id}" fill="black">']
    for y in range(cells):
        for x in range(cells):
            if bits[y, x]:
                left, top = x0 + x * cell, y0 + y * cell
                out.append(f'<rect x="{left:.3f}" y="{top:.3f}" width="{cell:.3f}" height="{cell:.3f}"/>')
    out.append("</g>")
    return "\n".join(out)


# ---------------------------------------------------------------- the marker sheet


def _card(n: int, left: float, top: float, side: float) -> list[str]:
    """Corner n's marker card, its top-left at (left, top): the black square in its outer corner, the
    white margin on the inner sides, bold marks and arrows on the outer edges, words in the margin."""
    marker_id = CORNER_MARKER_IDS[n]
    vertical, horizontal = OUTER_SIDES[n]
    size = side + INNER_MARGIN_MM
    sx = left if horizontal == "left" else left + INNER_MARGIN_MM
    sy = top if vertical == "top" else top + INNER_MARGIN_MM
    name = CORNER_NAMES[n]
    out = [
        _text(left + size / 2, top - 9, 4.2, f"{name.upper()} corner", "middle", "bold"),
        _text(left + size / 2, top - 4, 2.8, "cut along the solid line and right along the black", "middle"),
        f'<rect id="card-{marker_id}" x="{left:.3f}" y="{top:.3f}" width="{size:.3f}" height="{size:.3f}" '
        'fill="none" stroke="#555" stroke-width="0.25"/>',
        marker_cells(marker_id, sx, sy, side),
    ]
    # The bold marks continue each outer edge over the margin, a quiet zone away from the black square,
    # with an arrow pointing out of the edge: "this edge on the play area's edge".
    bar = 1.6
    mark_from = side + QUIET_MM
    edge_y = top if vertical == "top" else top + size - bar
    bar_x = left + mark_from if horizontal == "left" else left
    out.append(
        f'<rect x="{bar_x:.3f}" y="{edge_y:.3f}" width="{size - mark_from:.3f}" height="{bar}" fill="black"/>'
    )
    edge_x = left if horizontal == "left" else left + size - bar
    bar_y = top + mark_from if vertical == "top" else top
    out.append(
        f'<rect x="{edge_x:.3f}" y="{bar_y:.3f}" width="{bar}" height="{size - mark_from:.3f}" fill="black"/>'
    )
    out += _edge_arrows(n, left, top, size, mark_from, bar)
    # The words, in the inner margin's far half (clear of the quiet zone and of the edge's arrow).
    text_y = (top + side + QUIET_MM + 3.2) if vertical == "top" else (top + INNER_MARGIN_MM - QUIET_MM - 4.6)
    clear = QUIET_MM + 1
    text_x = left + (clear + size) / 2 if horizontal == "left" else left + (size - clear) / 2
    out.append(_text(text_x, text_y, 2.9, f"{name} · id {marker_id}", "middle", "bold"))
    out.append(_text(text_x, text_y + 3.6, 2.0, "bold edges on the area's edges", "middle"))
    # The marker's upright arrow, in the other inner margin: to the far side of the table.
    if horizontal == "left":
        arrow_x = left + side + QUIET_MM + 4.5
    else:
        arrow_x = left + INNER_MARGIN_MM - QUIET_MM - 4.5
    arrow_top, arrow_bottom = sy + 8, sy + side - 12
    out.append(
        f'<path d="M {arrow_x:.3f} {arrow_bottom:.3f} L {arrow_x:.3f} {arrow_top:.3f} M {arrow_x - 2:.3f} '
        f'{arrow_top + 3:.3f} L {arrow_x:.3f} {arrow_top:.3f} L {arrow_x + 2:.3f} {arrow_top + 3:.3f}" '
        'stroke="black" stroke-width="0.5" fill="none"/>'
    )
    out.append(_text(arrow_x, sy + side - 8, 2.0, "far side", "middle"))
    return out


def _edge_arrows(n: int, left: float, top: float, size: float, mark_from: float, bar: float) -> list[str]:
    """Triangles on the bold marks, pointing out across each outer edge."""
    vertical, horizontal = OUTER_SIDES[n]
    out = []
    middle = mark_from + (size - mark_from) / 2
    # Along the top or bottom edge: the arrow points up or down.
    x = left + middle if horizontal == "left" else left + size - middle
    base_y, tip_y = (
        (top + bar + 3.5, top + bar) if vertical == "top" else (top + size - bar - 3.5, top + size - bar)
    )
    out.append(f'<path d="M {x - 2:.3f} {base_y:.3f} L {x + 2:.3f} {base_y:.3f} L {x:.3f} {tip_y:.3f} Z"/>')
    # Along the left or right edge: the arrow points left or right.
    y = top + middle if vertical == "top" else top + size - middle
    base_x, tip_x = (
        (left + bar + 3.5, left + bar)
        if horizontal == "left"
        else (left + size - bar - 3.5, left + size - bar)
    )
    out.append(f'<path d="M {base_x:.3f} {y - 2:.3f} L {base_x:.3f} {y + 2:.3f} L {tip_x:.3f} {y:.3f} Z"/>')
    return out


def _strip(left: float, top: float, side: float) -> list[str]:
    """One white L strip (cut out along its outline): its inner corner takes a marker's outer corner."""
    arm = side + STRIP_MM
    w = STRIP_MM
    outline = f"M {left:.3f} {top:.3f} h {arm:.3f} v {w:.3f} h {-(arm - w):.3f} v {arm - w:.3f} h {-w:.3f} Z"
    return [
        f'<path class="strip" d="{outline}" fill="white" stroke="#555" stroke-width="0.25"/>',
        f'<path d="M {left + w:.3f} {top + w + 6:.3f} V {top + w:.3f} H {left + w + 6:.3f}" '
        'stroke="#999" stroke-width="0.2" stroke-dasharray="1 1" fill="none"/>',
    ]


def marker_sheet_svg(side_mm: float = MARKER_SIDE_MM) -> str:
    """An A4 SVG at true size: the four corner markers cut along their black outer edges, four white
    strips for dark tables, and a 100 mm bar to check the printer's scale."""
    width, height = A4_MM
    out = _svg_open(width, height, "Minotaur Companion: table corner markers (ArUco DICT_4X4_50, ids 0-3)")
    out += [
        '<g font-family="sans-serif" fill="black">',
        _text(12, 14, 5.5, 'Table corner markers · print at 100 % (no "fit to page")'),
        _text(
            12, 21, 3.3, "1. Cut each marker out along its solid line, and along its two black edges right on"
        ),
        _text(
            12, 25.5, 3.3, "   the black: no white may be left on those two sides (the bold marks show them)."
        ),
        _text(
            12,
            30,
            3.3,
            "2. Lay each in its corner of the play area, the two black edges on the area's edges,",
        ),
        _text(
            12,
            34.5,
            3.3,
            "   its arrow to the far side of the table. Laying it by the paper's edge lays it right.",
        ),
        "</g>",
    ]
    size = side_mm + INNER_MARGIN_MM
    lefts, tops = (30.0, width - 30.0 - size), (52.0, 52.0 + size + 24.0)
    for n in range(len(CORNER_MARKER_IDS)):
        # Laid out as they lie on the table: top-left at the sheet's top left, and so on.
        column = 0 if OUTER_SIDES[n][1] == "left" else 1
        row = 0 if OUTER_SIDES[n][0] == "top" else 1
        out += _card(n, lefts[column], tops[row], side_mm)
    strips_top = tops[1] + size + 16
    out.append(
        _text(
            12,
            strips_top - 4,
            3.3,
            "3. On a dark table or board rim, cut out these white strips too and lay one "
            "outside the play area",
        )
    )
    out.append(
        _text(
            12,
            strips_top + 0.5,
            3.3,
            "   against each marker's black edges: the camera needs white around the black.",
        )
    )
    strip_arm = side_mm + STRIP_MM
    for n in range(4):
        out += _strip(12 + n * (strip_arm + 8), strips_top + 5, side_mm)
    bar_y = height - 20
    out.append(f'<rect x="55" y="{bar_y:g}" width="100" height="3" fill="black"/>')
    out.append(
        _text(
            105,
            bar_y + 8,
            3.4,
            "this bar must measure 100 mm: otherwise the printer scaled the sheet",
            "middle",
        )
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- mats


MAT_BORDER_MM = 12.0
"""White paper around the play area on a mat: the markers' quiet zone on their outer sides."""


def _mat_body(layout: Layout, game: str) -> list[str]:
    """The mat's drawing in mat mm (the play area's top-left at (MAT_BORDER_MM, MAT_BORDER_MM))."""
    width, height = layout.plane_mm
    b = MAT_BORDER_MM
    out = [
        f'<g id="play-area" transform="translate({b:g} {b:g})">',
        f'<rect x="0" y="0" width="{width:.3f}" height="{height:.3f}" fill="none" stroke="black" '
        'stroke-width="0.3"/>',
        '<g id="items" fill="none" stroke="#c8c8c8" stroke-width="0.3">',
    ]
    for item, region in layout.items.items():
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in region_corners_mm(region))
        out.append(f'<polygon data-item="{item}" points="{points}"/>')
    out.append("</g>")
    for marker_id, corners in marker_corners_mm(layout.plane_mm).items():
        out.append(marker_cells(marker_id, float(corners[0][0]), float(corners[0][1]), MARKER_SIDE_MM))
    out.append("</g>")
    out.append(
        _text(
            b, b + height + 7, 3.2, f"{game} play area · {width:g} x {height:g} mm · print at 100 %", "start"
        )
    )
    return out


def mat_size_mm(layout: Layout) -> tuple[float, float]:
    width, height = layout.plane_mm
    return (width + 2 * MAT_BORDER_MM, height + 2 * MAT_BORDER_MM + 6)


def _layout(game: str, options: Mapping[str, Any] | None) -> Layout:
    return recogniser_for(game).layout(dict(options or {}))


def mat_svg(game: str, options: Mapping[str, Any] | None = None) -> str:
    """The game's play area as one sheet at true size (for a print shop, or a large printer)."""
    layout = _layout(game, options)
    width, height = mat_size_mm(layout)
    out = _svg_open(width, height, f"Minotaur Companion: the {game} play area at true size")
    out += _mat_body(layout, game)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def page_grid(mat_mm: tuple[float, float]) -> tuple[tuple[float, float], list[float], list[float]]:
    """The page size (portrait or landscape A4, whichever takes fewer pages) and the mat offsets (mm)
    where each column and row of pages begins: each page shows its printable area of the mat, and
    repeats OVERLAP_MM of its neighbour's."""
    best: tuple[int, tuple[float, float], list[float], list[float]] | None = None
    for page in (A4_MM, (A4_MM[1], A4_MM[0])):
        window = (page[0] - 2 * PAGE_MARGIN_MM, page[1] - 2 * PAGE_MARGIN_MM)
        starts = []
        for length, shown in zip(mat_mm, window, strict=True):
            count = 1 if length <= shown else 1 + math.ceil((length - shown) / (shown - OVERLAP_MM))
            starts.append([k * (shown - OVERLAP_MM) for k in range(count)])
        pages = len(starts[0]) * len(starts[1])
        if best is None or pages < best[0]:
            best = (pages, page, starts[0], starts[1])
    assert best is not None
    return best[1], best[2], best[3]


def mat_pages(game: str, options: Mapping[str, Any] | None = None) -> list[str]:
    """The mat tiled over A4 pages (row by row), each an SVG at true size: page numbers and the
    neighbours in the margin, and crosses in the overlaps to lay the pages over each other by."""
    layout = _layout(game, options)
    mat = mat_size_mm(layout)
    (page_w, page_h), columns, rows = page_grid(mat)
    window = (page_w - 2 * PAGE_MARGIN_MM, page_h - 2 * PAGE_MARGIN_MM)
    body = _mat_body(layout, game) + _crosses(columns, rows, mat)
    total = len(columns) * len(rows)
    pages = []
    for r, oy in enumerate(rows):
        for c, ox in enumerate(columns):
            number = r * len(columns) + c + 1
            out = _svg_open(
                page_w, page_h, f"Minotaur Companion: the {game} play area, page {number} of {total}"
            )
            out += [
                f'<clipPath id="window"><rect x="{PAGE_MARGIN_MM:g}" y="{PAGE_MARGIN_MM:g}" '
                f'width="{window[0]:g}" height="{window[1]:g}"/></clipPath>',
                f'<g clip-path="url(#window)"><g transform="translate({PAGE_MARGIN_MM - ox:.3f} '
                f'{PAGE_MARGIN_MM - oy:.3f})">',
                *body,
                "</g></g>",
                _text(
                    page_w / 2,
                    PAGE_MARGIN_MM - 3,
                    3.2,
                    f"{game} mat · page {number} of {total} (row {r + 1}, column {c + 1}) · print at 100 %",
                    "middle",
                ),
            ]
            if c + 1 < len(columns):  # written up the right margin, clear of the mat
                out.append(
                    f'<g transform="translate({page_w - 4:.3f} {page_h / 2:.3f}) rotate(90)">'
                    + _text(0, 0, 2.8, f"page {number + 1} laps over here", "middle")
                    + "</g>"
                )
            if r + 1 < len(rows):
                out.append(
                    _text(
                        page_w / 2, page_h - 4, 2.8, f"page {number + len(columns)} laps over here", "middle"
                    )
                )
            out.append("</svg>")
            pages.append("\n".join(out) + "\n")
    return pages


def _crosses(columns: list[float], rows: list[float], mat: tuple[float, float]) -> list[str]:
    """Crosses in the middle of every overlap, on both pages that share it: laid over each other, the
    pages join at true size. Each overlap also shows a dashed line where the next page's window begins."""
    out = ['<g id="overlap-marks" stroke="black" stroke-width="0.25" fill="none">']
    width, height = mat
    spots_y = [min(height, y) for y in _every(height, 60.0)]
    spots_x = [min(width, x) for x in _every(width, 60.0)]
    for start in columns[1:]:
        x = start + OVERLAP_MM / 2
        out.append(
            f'<line class="overlap" x1="{start:.3f}" y1="0" x2="{start:.3f}" y2="{height:.3f}" '
            'stroke-dasharray="2 2" stroke="#999"/>'
        )
        out += [_cross(x, y) for y in spots_y]
    for start in rows[1:]:
        y = start + OVERLAP_MM / 2
        out.append(
            f'<line class="overlap" x1="0" y1="{start:.3f}" x2="{width:.3f}" y2="{start:.3f}" '
            'stroke-dasharray="2 2" stroke="#999"/>'
        )
        out += [_cross(x, y) for x in spots_x]
    out.append("</g>")
    return out


def _every(length: float, step: float) -> list[float]:
    count = max(1, round(length / step))
    return [(k + 0.5) * length / count for k in range(count)]


def _cross(x: float, y: float) -> str:
    return (
        f'<path class="cross" d="M {x - 4:.3f} {y:.3f} H {x + 4:.3f} M {x:.3f} {y - 4:.3f} V {y + 4:.3f}"/>'
    )
