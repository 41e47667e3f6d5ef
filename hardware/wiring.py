"""Draws hardware/wiring.svg from hardware/pinmap.json: both ways to wire the beams and the knock sensor.

Run `python hardware/wiring.py` after changing the pin map; a test checks that
the committed SVG is what this script makes of the committed pin map.
Only the standard library, so it runs anywhere.
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# Physical header pins of the Pi's 40-pin header, by BCM number, and the Pico's pads by GP number.
PI_HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
    14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
PICO_PADS = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
    15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}  # fmt: skip

ROW = 34
WIDTH = 1080
FONT = "font-family='DejaVu Sans, Arial, sans-serif' font-size='13'"


def text(x: float, y: float, words: str, anchor: str = "start", weight: str = "normal") -> str:
    return (
        f"<text x='{x}' y='{y}' {FONT} text-anchor='{anchor}' font-weight='{weight}'>{escape(words)}</text>"
    )


def box(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='6' fill='{fill}' stroke='#333'/>"


def line(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    return f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='{colour}' stroke-width='2'/>"


Row = tuple[str, str]


def panel(
    top: float,
    title: str,
    board: str,
    pins: list[Row],
    emitter_pin: str,
    power: tuple[str, str, str],
    emitters: int,
) -> tuple[list[str], float]:
    """One wiring option: the board's pins on the left, the receivers, the knock module and the emitter
    switch on the right."""
    out = [text(20, top, title, weight="bold")]
    rows = len(pins) + 4
    y0 = top + 20
    out.append(box(20, y0, 250, rows * ROW, "#e8f0e0"))
    out.append(text(145, y0 + 22, board, "middle", "bold"))
    out.append(box(620, y0, 440, rows * ROW, "#f4f4f4"))
    out.append(text(840, y0 + 22, "receivers, knock module (open collector, low = on)", "middle", "bold"))
    for i, (pin_label, beam_label) in enumerate(pins):
        y = y0 + 50 + i * ROW
        out.append(text(30, y + 5, pin_label))
        out.append(line(270, y, 620, y, "#1565c0"))
        out.append(f"<circle cx='270' cy='{y}' r='4' fill='#1565c0'/>")
        out.append(text(630, y + 5, beam_label))
    y = y0 + 50 + len(pins) * ROW
    three_v3, five_v, ground = power
    out.append(text(30, y + 5, three_v3))
    out.append(line(270, y, 620, y, "#c62828"))
    out.append(text(630, y + 5, "receivers + knock module VCC (10 kOhm pull-ups optional)"))
    y += ROW
    out.append(text(30, y + 5, five_v))
    out.append(line(270, y, 620, y, "#ef6c00"))
    out.append(text(630, y + 5, f"emitters VCC (all {emitters} in parallel, {20 * emitters} mA)"))
    y += ROW
    out.append(text(30, y + 5, emitter_pin))
    out.append(line(270, y, 420, y, "#6a1b9a"))
    out.append(text(430, y + 5, "100 Ohm -> gate of IRLB8721 (100 kOhm to GND); drain <- emitters GND"))
    y += ROW
    out.append(text(30, y + 5, ground))
    out.append(line(270, y, 620, y, "#222"))
    out.append(text(630, y + 5, "receivers + knock module GND, IRLB8721 source"))
    return out, y0 + rows * ROW + 40


def _what(beam: dict[str, Any]) -> str:
    if beam["level"] == "knock":
        return "knock sensor: piezo + comparator"
    horn = "both horns" if beam["horn"] == "both" else f"{beam['horn']} horn"
    return f"{horn}, {beam['level']} beam"


def _beam_rows(beams: list[dict[str, Any]], key: str, name: str, pads: dict[int, int], pad: str) -> list[Row]:
    return [(f"{name}{b[key]} ({pad} {pads[b[key]]})", f"{b['name']}  ({_what(b)})") for b in beams]


def draw(pinmap: dict[str, Any]) -> str:
    beams: list[dict[str, Any]] = pinmap["beams"]
    emitters: dict[str, Any] = pinmap.get("emitters") or {}
    node: dict[str, Any] = pinmap["node"]
    lit = sum(1 for b in beams if b["level"] != "knock")
    parts = [text(20, 24, "Minotaur Companion: ring-toss beams, from hardware/pinmap.json", weight="bold")]
    pi_emitter = f"GPIO{emitters['pi_gpio']} (pin {PI_HEADER[emitters['pi_gpio']]})" if emitters else "(none)"
    drawn, y = panel(
        50,
        "Option A: beams on the Raspberry Pi's GPIO (internal pull-ups on)",
        "Raspberry Pi 40-pin header",
        _beam_rows(beams, "pi_gpio", "GPIO", PI_HEADER, "pin"),
        pi_emitter,
        ("3V3 (pin 1)", "5V (pin 2)", "GND (pin 6)"),
        lit,
    )
    parts += drawn
    pico_emitter = (
        f"GP{emitters['node_gpio']} (pad {PICO_PADS[emitters['node_gpio']]})" if emitters else "(none)"
    )
    drawn, y = panel(
        y + 10,
        f"Option B: beams on a Raspberry Pi Pico sensor node, USB to the Pi (VID {node['usb_vid']}, "
        f"{node['baud']} baud, heartbeat {node['heartbeat_ms']} ms)",
        "Raspberry Pi Pico",
        _beam_rows(beams, "node_gpio", "GP", PICO_PADS, "pad"),
        pico_emitter,
        ("3V3(OUT) (pad 36)", "VBUS 5V (pad 40)", "GND (pad 38)"),
        lit,
    )
    parts += drawn
    height = int(y)
    body = "\n".join(parts)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' "
        f"viewBox='0 0 {WIDTH} {height}'>\n<rect width='100%' height='100%' fill='white'/>\n{body}\n</svg>\n"
    )


def main(argv: list[str]) -> int:
    pinmap_path = Path(argv[1]) if len(argv) > 1 else HERE / "pinmap.json"
    out = Path(argv[2]) if len(argv) > 2 else HERE / "wiring.svg"
    out.write_text(draw(json.loads(pinmap_path.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
