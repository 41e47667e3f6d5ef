"""`python -m companion.vision.training <game>...`: rewrite the recognisers' shipped built-in data."""

from __future__ import annotations

import argparse
import sys

from companion.vision.training import GAMES, TrainingError, rewrite, writers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.vision.training",
        description="Learn each game's built-in data from the generator and write it beside its recogniser.",
    )
    parser.add_argument("games", nargs="*", help=f"games to train ({', '.join(GAMES)}); default: all")
    parser.add_argument("--only", default=None, help="write only this file of the game (see --list)")
    parser.add_argument("--list", action="store_true", help="list the files each game writes, and stop")
    args = parser.parse_args(argv)
    try:
        if args.list:
            for game in args.games or GAMES:
                print(f"{game}: {', '.join(writers(game))}")
            return 0
        for game in args.games or GAMES:
            for path in rewrite(game, args.only):
                print(f"{game}: wrote {path}")
    except TrainingError as error:
        print(f"companion.vision.training: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
