"""Plays a toy game against the record forever, as the referee would, for the kill -9 test.

Each line on stdout is one acknowledgement, "seq kind action-json", printed
only after `append` has returned: what a player would have been told.
Usage: python append_loop.py DB GAME_ID SEED
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from toy import TOY_GAME

from companion.games import register
from companion.record.session import GameSession
from companion.record.store import RecordStore

UNDO_SHARE = 0.2


def main(db: str, game_id: int, seed: int) -> None:
    register(TOY_GAME)
    session = GameSession.load(RecordStore(db), game_id)
    rng = random.Random(seed)
    while True:
        if session.history and rng.random() < UNDO_SHARE:
            event = session.undo(source="host")
        else:
            action = rng.choice(session.state.legal_actions())
            event = session.apply(action, source="simulator", evidence={"seed": seed})
        print(event.seq, event.kind, json.dumps(event.action), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
