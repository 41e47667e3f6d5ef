from __future__ import annotations

import socket
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.config import CONFIG_ENV, config_path, load_settings, merge_into


def test_run_defaults_suit_a_demo_on_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    args = build_parser().parse_args(["run"])
    # Unset on the command line, so that a settings file may set them; without one, the defaults apply.
    assert (args.host, args.port) == (None, None)
    merge_into(args, load_settings(config_path(args.config)))
    assert (args.simulate, args.host, args.port, args.db) == (False, "127.0.0.1", 8000, None)
    assert (args.game, args.players, args.skill, args.delay, args.seed) == ("minotaurus", 4, 0.5, 1.0, None)
    assert args.handler.__name__ == "run_table"


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [("--skill", "1.5", "success rate"), ("--port", "70000", "port"), ("--delay", "-1", "seconds")],
)
def test_run_refuses_settings_out_of_range(
    capsys: pytest.CaptureFixture[str], option: str, value: str, says: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["run", "--simulate", option, value])
    assert exit_info.value.code == 2
    assert says in capsys.readouterr().err


def test_run_refuses_a_player_count_the_game_cannot_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "--simulate", "--game", "toy-race", "--players", "5", "--db", str(tmp_path / "t.db")])
    assert code == 2
    assert "players=5 is invalid" in capsys.readouterr().err


def test_run_says_so_when_the_port_is_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["run", "--port", str(port), "--db", str(tmp_path / "t.db")])
    assert code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
