"""The `companion` command itself: what a newcomer sees before choosing a subcommand."""

from __future__ import annotations

import pytest

from companion import __version__
from companion.cli import main


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
