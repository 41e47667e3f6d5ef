"""The generator and the recognisers stand apart (issue 12, plan contract 7).

The generator is the world the recognisers are tested in; a recogniser that imported its drawing would
be tested against itself. So no module that reads a table at run time (every recogniser, and the
pipeline around them) imports companion.vision.generate, companion.vision.training (which uses the
generator to write the recognisers' shipped data) or companion.sim, not even lazily inside a function.
Only the offline tools that make generated frames (OFFLINE_TOOLS) may.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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


def forbidden_imports(path: Path) -> list[str]:
    module = module_name(path)
    imports = imported_modules(path.read_text(), module, path.name == "__init__.py")
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for line, name in imports
        if any(name == banned or name.startswith(f"{banned}.") for banned in FORBIDDEN)
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
