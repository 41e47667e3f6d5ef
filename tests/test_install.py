"""A plain (non-editable) install works from any directory: the wheel carries the seeds, the pin map, the
figure and every web asset, and the installed companion finds them without the repository.

The wheel is built with this venv's setuptools and installed into a folder of its own; the commands run
from another folder with only that folder on PYTHONPATH (the venv supplies the dependencies), and each
check first asserts that the companion imported is the installed one, not the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB_ASSETS = ("companion/web/static", "companion/web/templates", "companion/translations")
TIMEOUT = 120


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the wheel was installed into (`pip install --target`)."""
    work = tmp_path_factory.mktemp("install")
    wheels, target = work / "wheels", work / "site"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet")
    build = (*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT))
    subprocess.run(build, check=True, cwd=ROOT, timeout=TIMEOUT)
    [wheel] = wheels.glob("minotaur_companion-*.whl")
    subprocess.run(
        (*pip, "install", "--no-deps", "--target", str(target), str(wheel)), check=True, timeout=TIMEOUT
    )
    return target


def run_installed(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "COMPANION_"))}
    env["PYTHONPATH"] = str(installed)
    return subprocess.run(
        (sys.executable, *args), cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )


def test_the_installed_commands_run_from_another_directory(installed: Path, tmp_path: Path) -> None:
    where = run_installed(installed, tmp_path, "-c", "import companion; print(companion.__file__)")
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed), "the checkout was imported, not the wheel"
    games = run_installed(installed, tmp_path, "-m", "companion", "games", "--db", str(tmp_path / "t.db"))
    assert games.returncode == 0, games.stderr
    assert games.stdout.startswith("id\tgame")
    usage = run_installed(installed, tmp_path, "-m", "companion", "run", "--help")
    assert usage.returncode == 0, usage.stderr
    assert "minotaurus" in usage.stdout and "--config" in usage.stdout


CHECK = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import companion
    from companion.games import BUILTIN_GAMES
    from companion.seeddata import load_seed, seeds_dir
    from companion.sensors.pinmap import default_pinmap_path, load_pinmap
    from companion.sim.ringtoss.figure import load_figure
    from companion.table.referee import Referee
    from companion.web import create_app

    installed = Path(sys.argv[1])
    for path in (Path(companion.__file__), seeds_dir(), default_pinmap_path()):
        assert path.is_relative_to(installed), f"{path} is not the installed package's"
    for game in BUILTIN_GAMES:
        assert load_seed(game), game
    assert load_pinmap().beam_names
    load_figure()
    referee = Referee(Path(sys.argv[2]))
    referee.start()
    try:
        client = create_app({"TESTING": True, "HOST_PIN": "1234"}, referee=referee).test_client()
        for page in ("/", "/history", "/static/app.js", "/static/style.css", "/static/games/minotaurus.js"):
            response = client.get(page)
            assert response.status_code == 200, (page, response.status_code)
        assert "scoreboard.js" in client.get("/").get_data(as_text=True)
    finally:
        referee.stop()
    print("ok")
    """
)


def test_the_installed_package_reads_its_seeds_pin_map_figure_pages_and_scripts(
    installed: Path, tmp_path: Path
) -> None:
    check = run_installed(installed, tmp_path, "-c", CHECK, str(installed), str(tmp_path / "t.db"))
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip().endswith("ok")


def test_every_web_asset_and_catalog_of_the_repository_is_in_the_wheel(installed: Path) -> None:
    tracked = subprocess.run(
        ("git", "ls-files", *WEB_ASSETS), cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assets = [name for name in tracked if not name.endswith(".py")]
    assert any(name.endswith(".html") for name in assets) and any(name.endswith(".js") for name in assets)
    missing = [name for name in assets if not (installed / name).is_file()]
    assert not missing, f"not in the wheel: {missing}"
