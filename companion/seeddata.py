"""Read the games' data files in seeds/ (TOML, every value marked with its source)."""

from __future__ import annotations

import functools
import os
import tomllib
from pathlib import Path
from typing import Any

from companion.datafiles import data_dir

SEEDS_DIR = data_dir("seeds")


class SeedError(ValueError):
    """A seed file that is missing or does not hold what its game needs."""


def seeds_dir() -> Path:
    return Path(os.environ.get("COMPANION_SEEDS", SEEDS_DIR))


@functools.cache
def load_seed(name: str) -> dict[str, Any]:
    path = seeds_dir() / f"{name}.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise SeedError(f"seed file {path} is missing") from None
    except tomllib.TOMLDecodeError as e:
        raise SeedError(f"seed file {path} is not valid TOML: {e}") from None
