"""The `companion` command itself: what a newcomer sees before choosing a subcommand."""

from __future__ import annotations

import pytest

from companion import __version__
from companion.cli import main
from companion.games import BUILTIN_GAMES


def test_bare_companion_prints_the_help_with_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: companion")
    for command in ("run", "games", "bench", "vision"):
        assert command in out


def test_version_names_the_release(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"


def test_run_help_names_every_game_the_simulation_plays(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    # argparse wraps help lines; the names are read with the wrapping undone.
    out = " ".join(capsys.readouterr().out.split())
    assert f"game the simulation plays: {', '.join(BUILTIN_GAMES)}" in out
