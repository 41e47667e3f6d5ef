"""The log fades what the table can hide again (a piece turned face down) and keeps what stays public."""

from __future__ import annotations

from companion.games import CHANCE, Action, get_game
from companion.games.minotaurus import Challenge, Claim, Flip, ReturnFaceDown, Reveal, Toss
from companion.record.store import Event, GameInfo
from companion.table.view import GameLog

GAME = get_game("minotaurus")


def log_of(actions: list[Action]) -> list[str]:
    info = GameInfo(1, GAME.name, GAME.validate_options({"players": 3}), ["A", "B", "C"], "", False, 0)
    events = [
        Event(1, seq, "", "action", "host", action.to_json()) for seq, action in enumerate(actions, start=1)
    ]
    return [entry["label"] for entry in GameLog.from_record(GAME, info, events).recent_json()]


def test_old_reveals_fade_but_toss_verdicts_stay() -> None:
    turn = [
        Flip(0, 0), Reveal(CHANCE, 0, "blue", 1, "left"), Flip(0, 1), Reveal(CHANCE, 1, "blue", 3, "right"),
        Claim(0),
        Flip(1, 2), Reveal(CHANCE, 2, "blue", 3, "left"), Flip(1, 3), Reveal(CHANCE, 3, "blue", 5, "right"),
        Claim(1),
        Flip(2, 4), Reveal(CHANCE, 4, "red", 1, "left"), Flip(2, 5), Reveal(CHANCE, 5, "red", 3, "left"),
        ReturnFaceDown(2),
        Challenge(0, 1, "blue", 5), Toss(CHANCE, 0, True), Toss(CHANCE, 1, False),
        Flip(1, 4),
    ]  # fmt: skip
    log = log_of(turn)
    assert "position 4 shows red 1 left" not in log, "a piece returned face down leaves the log"
    assert "answered the table to show the piece at position 4 (hidden now)" in log
    assert "seat 0's toss lands on a horn" in log and "seat 1's toss misses" in log, "verdicts are public"
    assert log[-1] == "turn over position 4"
