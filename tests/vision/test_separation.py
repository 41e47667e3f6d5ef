"""The generator and the recognisers stand apart (issue 12, plan contract 7).

The generator is the world the recognisers are tested in; a recogniser that imported its drawing would
be tested against itself. So no module that reads a table at run time (every recogniser, and the
pipeline around them) imports companion.vision.generate, companion.vision.training (which uses the
generator to write the recognisers' shipped data) or companion.sim, not even lazily inside a function.
Only the offline tools that make generated frames (OFFLINE_TOOLS) may.

The other way round too: a generator that drew the recognisers' own sizes would draw a wrong size just
as wrongly, and the bench could not see it. So no generator module imports companion.vision.recognisers;
both sides read the pieces' sizes from the seeds (companion.vision.components) and the labels' spelling
from companion.vision.vocabulary, and the recognisers' constants must equal the seeds' values.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.seeddata import SeedError, load_seed
from companion.vision import vocabulary
from companion.vision.components import (
    dimension_mm,
    dimensions_mm,
    hornochsen_board_box_mm,
    minos_tray_mm,
    piece_height_mm,
)

ROOT = Path(__file__).resolve().parents[2]
VISION = ROOT / "companion" / "vision"
FORBIDDEN = ("companion.vision.generate", "companion.vision.training", "companion.sim")
OFFLINE_TOOLS = ("benchmark", "cli")
"""The modules of companion/vision that may drive the generator: `companion bench vision` and
`companion vision generate` make frames on a developer's machine. Every other module may run on a Pi."""
NAMED_IN_ISSUE = ("pipeline", "calibration", "base", "watcher", "observe", "stability", "tosscheck", "teach")


def run_time_files() -> list[Path]:
    """Every recogniser module, and every module of companion/vision but the offline tools (new ones too)."""
    recognisers = sorted((VISION / "recognisers").rglob("*.py"))
    others = sorted(path for path in VISION.glob("*.py") if path.stem not in OFFLINE_TOOLS)
    return recognisers + others


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an import-from names, with a relative one (from . import x) resolved."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imported_modules(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module the source imports, anywhere in it (inside functions too), with its line: plain and
    from-imports (each name of `from a import b` as a.b too, as b may be a module), and
    importlib.import_module / __import__ called with a constant name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def forbidden_imports(path: Path, forbidden: tuple[str, ...] = FORBIDDEN) -> list[str]:
    module = module_name(path)
    imports = imported_modules(path.read_text(), module, path.name == "__init__.py")
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for line, name in imports
        if any(name == banned or name.startswith(f"{banned}.") for banned in forbidden)
    ]


def test_the_checker_finds_imports_wherever_they_hide() -> None:
    """The AST walk sees top-level, lazy, relative and importlib imports (else the test below proves
    nothing)."""
    source = textwrap.dedent(
        """
        import companion.sim.physics
        from companion.vision import generate

        def later():
            from ..generate.minos import die_face
            from .. import training
            import importlib
            importlib.import_module("companion.vision.generate.effects")
            return die_face
        """
    )
    names = {name for _, name in imported_modules(source, "companion.vision.recognisers.minos")}
    assert {
        "companion.sim.physics",
        "companion.vision.generate",
        "companion.vision.generate.minos",
        "companion.vision.training",
        "companion.vision.generate.effects",
    } <= names
    names = {
        name for _, name in imported_modules("from .. import generate", "companion.vision.recognisers", True)
    }
    assert "companion.vision.generate" in names, "a package's own relative imports start at itself"


def test_every_run_time_module_is_checked() -> None:
    files = run_time_files()
    assert all(path.exists() for path in files), [str(p) for p in files if not p.exists()]
    names = {path.stem for path in files}
    assert {"minotaurus", "minos", "asterion", "hornochsen", "minoa", "toss", *NAMED_IN_ISSUE} <= names


@pytest.mark.parametrize("path", run_time_files(), ids=lambda path: str(path.relative_to(VISION)))
def test_no_run_time_module_imports_the_generator_training_or_the_simulator(path: Path) -> None:
    assert forbidden_imports(path) == []


BLOCKED_READ = textwrap.dedent(
    """
    import sys

    import numpy

    for banned in {forbidden!r}:
        sys.modules[banned] = None  # importing it now raises ImportError
    from companion.vision.base import recogniser_for

    recogniser = recogniser_for({game!r})
    layout = recogniser.layout({{}})
    width, height = layout.plane_size_px()
    # Noise: every colour turns up somewhere, so a recogniser looks at pieces, glyphs and digits too.
    plane = numpy.random.default_rng(1).integers(0, 256, (height, width, 3), dtype=numpy.uint8)
    reading = recogniser.read(plane, layout, None)
    assert set(reading.items) == set(layout.items)
    """
)


@pytest.mark.parametrize("game", ["asterion", "hornochsen", "minoa", "minos", "minotaurus", "toss"])
def test_each_recogniser_reads_with_the_generator_and_training_unimportable(game: str) -> None:
    """A Pi could be shipped without the generator: each recogniser loads its built-in data and reads."""
    code = BLOCKED_READ.format(forbidden=FORBIDDEN, game=game)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


# ---------------------------------------------------------------- the generator does not read the recognisers

GENERATOR = VISION / "generate"
RECOGNISERS = ("companion.vision.recognisers",)


def generator_files() -> list[Path]:
    return sorted(GENERATOR.rglob("*.py"))


def test_every_generator_module_is_checked() -> None:
    names = {path.stem for path in generator_files()}
    assert {"asterion", "hornochsen", "minoa", "minos", "minotaurus", "session", "world", "toss"} <= names


def test_the_checker_finds_a_generator_reading_a_recogniser(tmp_path: Path) -> None:
    """The check below would see a recogniser's size taken by name, by module or lazily."""
    drawn = tmp_path / "asterion.py"
    drawn.write_text("from companion.vision.recognisers.asterion import TILE_MM\n")
    relative = tmp_path / "minos.py"
    relative.write_text("def later():\n    from ..recognisers import _minos_dice\n    return _minos_dice\n")
    names = {name for _, name in imported_modules(relative.read_text(), "companion.vision.generate.minos")}
    assert "companion.vision.recognisers._minos_dice" in names
    source = drawn.read_text()
    assert any(
        name.startswith(RECOGNISERS[0]) for _, name in imported_modules(source, "companion.vision.generate.x")
    )


@pytest.mark.parametrize("path", generator_files(), ids=lambda path: str(path.relative_to(VISION)))
def test_no_generator_module_imports_a_recogniser(path: Path) -> None:
    assert forbidden_imports(path, RECOGNISERS) == []


# ---------------------------------------------------------------- one set of sizes, in the seeds

GAMES = ("asterion", "hornochsen", "minoa", "minos", "minotaurus")


def _recogniser_sizes() -> list[tuple[str, object, object]]:
    """(recogniser constant, its value, the seeds' value) for every physical size a recogniser holds."""
    from companion.vision.recognisers import (
        _asterion_grid,
        _hornochsen_digits,
        _minos_dice,
        hornochsen,
        minoa,
        minos,
        minotaurus,
    )

    sizes = [
        (_asterion_grid, "TILE_MM", "asterion", "tile"),
        (_asterion_grid, "CELL_MM", "asterion", "cell"),
        (_hornochsen_digits, "TILE_MM", "hornochsen", "tile"),
        (hornochsen, "SQUARE_PITCH_MM", "hornochsen", "square_pitch"),
        (hornochsen, "ROW_PITCH_MM", "hornochsen", "row_pitch"),
        (hornochsen, "BLOCK_GAP_MM", "hornochsen", "block_gap"),
        (minoa, "UNIT_MM", "minoa", "unit"),
        (minoa, "STICK_WIDTH_MM", "minoa", "stick_width"),
        (minoa, "PIECE_WIDTH_MM", "minoa", "piece_width"),
        (_minos_dice, "DIE_MM", "minos", "die"),
        (minotaurus, "TILE_MM", "minotaurus", "piece"),
        (minotaurus, "PITCH_MM", "minotaurus", "pitch"),
    ]
    found: list[tuple[str, object, object]] = [
        (f"{module.__name__}.{name}", getattr(module, name), dimension_mm(game, dimension))
        for module, name, game, dimension in sizes
    ]
    found.append((f"{_minos_dice.__name__}.TRAY_MM", _minos_dice.TRAY_MM, minos_tray_mm(minos.PLANE_MM)))
    return found


def test_each_recogniser_size_is_the_seeds() -> None:
    """A recogniser's own size that drifted from the seeds (which the generator draws) fails here."""
    differ = [f"{name} = {mine}, seeds {seeds}" for name, mine, seeds in _recogniser_sizes() if mine != seeds]
    assert differ == []


def test_the_hornochsen_board_outline_is_the_same_for_both_sides() -> None:
    from companion.vision.recognisers.hornochsen import board_box_mm, hornochsen_layout

    for players in (2, 8):
        layout = hornochsen_layout(players)
        assert board_box_mm(layout) == hornochsen_board_box_mm(layout)


def test_each_recogniser_spells_labels_as_the_vocabulary() -> None:
    """The recordings' item ids and labels: what the generator writes is what the recognisers read."""
    from companion.games.asterion.tiles import COLOURS, DESIGNS, MINOTAUR_DESIGN
    from companion.vision.recognisers import _asterion_labels, hornochsen, minoa, minos, minotaurus

    tiles = [
        (colour, design) for colour in COLOURS for design in range(len(DESIGNS)) if design != MINOTAUR_DESIGN
    ]
    for colour, design in [*tiles, (None, MINOTAUR_DESIGN)]:
        for turn in range(4):
            label = vocabulary.asterion_tile_label(colour, design, turn)
            assert label == _asterion_labels.tile_label(colour, design, turn)
            assert vocabulary.parse_asterion_label(label) == _asterion_labels.parse_label(label)
    assert vocabulary.asterion_cell("cell:-2,3") == _asterion_labels.parse_cell("cell:-2,3") == (-2, 3)
    assert (vocabulary.EMPTY, vocabulary.MINOTAUR) == (_asterion_labels.EMPTY, _asterion_labels.MINOTAUR)
    for item_id in hornochsen.hornochsen_layout(8).items:
        assert vocabulary.hornochsen_square(item_id) == hornochsen.parse_square(item_id)
    assert [vocabulary.hornochsen_played_slot(s, d) for s in range(8) for d in (False, True)] == [
        hornochsen.played_slot(s, d) for s in range(8) for d in (False, True)
    ]
    assert (vocabulary.EMPTY, vocabulary.DOWN) == (hornochsen.EMPTY, hornochsen.DOWN)
    assert (vocabulary.EMPTY, vocabulary.STICK) == (minoa.EMPTY, minoa.STICK)
    label = vocabulary.minotaurus_piece_label("blue", 3, "left")
    assert label == minotaurus.piece_label("blue", 3, "left")
    assert vocabulary.parse_minotaurus_piece(label, minotaurus.HORNS) == minotaurus.parse_piece(label)
    seeds = {game: load_seed(game) for game in ("minos", "minotaurus")}
    assert tuple(seeds["minos"]["dice"]["faces"]) == minos.SYMBOLS
    assert tuple(colour["name"] for colour in seeds["minotaurus"]["colours"]) == minotaurus.COLOURS


@pytest.mark.parametrize("game", GAMES)
def test_every_size_in_the_seeds_says_where_it_comes_from(game: str) -> None:
    dimensions = load_seed(game)["dimensions"]
    assert "height" in dimensions and piece_height_mm(game) > 0
    for name, entry in dimensions.items():
        assert entry["source"].split(":")[0] in ("rule text", "derived", "assumption"), name
        sizes = entry["mm"] if isinstance(entry["mm"], list) else [entry["mm"]]
        assert all(size > 0 for size in sizes), name


def test_a_size_missing_or_not_a_length_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "minos.toml").write_text(
        '[dimensions]\ndie = { mm = -1.0, source = "assumption: x" }\n'
        'tray = { mm = 200.0, source = "assumption: x" }\nheight = { mm = 18.0 }\n'
    )
    monkeypatch.setenv("COMPANION_SEEDS", str(tmp_path))
    load_seed.cache_clear()
    try:
        with pytest.raises(SeedError, match="positive"):
            dimension_mm("minos", "die")
        with pytest.raises(SeedError, match="list"):
            dimensions_mm("minos", "tray")
        with pytest.raises(SeedError, match="source"):
            dimension_mm("minos", "height")
        with pytest.raises(SeedError, match="unit"):
            dimension_mm("minos", "unit")
        assert piece_height_mm("toss") == 0.0  # a game without seeds stands flat
    finally:
        monkeypatch.undo()
        load_seed.cache_clear()


GENERATOR_FROM_SEEDS = textwrap.dedent(
    """
    from companion.vision.base import PLANE_PX_PER_MM
    from companion.vision.generate.hornochsen import draw_tile_face
    from companion.vision.generate.minos import die_face
    from companion.vision.generate.minotaurus import piece_face

    sides = (die_face("Stern", PLANE_PX_PER_MM), draw_tile_face(7)[0], piece_face("down", PLANE_PX_PER_MM))
    print(*(side.shape[0] for side in sides))
    """
)


def test_the_generator_draws_the_seeds_sizes(tmp_path: Path) -> None:
    """Seeds with larger dice, tiles and pieces: the generator draws them larger (it reads the seeds)."""
    for game, name, size in (
        ("minos", "die", 24.0),
        ("hornochsen", "tile", 32.0),
        ("minotaurus", "piece", 36.0),
    ):
        text = (ROOT / "seeds" / f"{game}.toml").read_text()
        old = f"{name} = {{ mm = {dimension_mm(game, name)},"
        assert old in text
        (tmp_path / f"{game}.toml").write_text(text.replace(old, f"{name} = {{ mm = {size},"))
    for other in ROOT.joinpath("seeds").glob("*.toml"):
        if not (tmp_path / other.name).exists():
            (tmp_path / other.name).write_text(other.read_text())
    sides = []
    for seeds in (ROOT / "seeds", tmp_path):
        done = subprocess.run(
            [sys.executable, "-c", GENERATOR_FROM_SEEDS],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "COMPANION_SEEDS": str(seeds)},
        )
        assert done.returncode == 0, done.stderr[-2000:]
        sides.append([int(side) for side in done.stdout.split()])
    # Dice and pieces at the plane's 2 px/mm; a tile's sprite at 4 px/mm, its sides odd.
    assert sides[0] == [36, 105, 60]
    assert sides[1] == [48, 129, 72]
