"""Packs the data kept at the repository's root into the wheel as companion/_data (companion/datafiles.py).

The games' seeds and the figure's files live in seeds/ and hardware/ (the developers' guide keeps them
there; the firmware's deploy tool reads hardware/pinmap.json). An installed companion needs them inside
the package: the build copies them to companion/_data/seeds and companion/_data/hardware. Everything
else is configured in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ROOT_DATA = {
    "seeds": ["*.toml"],
    "hardware": ["pinmap.json", "figure.json"],
}
"""Folder at the repository's root: the files of it the installed package reads."""


class BuildWithRootData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the checkout itself
            return
        for folder, patterns in ROOT_DATA.items():
            target = Path(self.build_lib) / "companion" / "_data" / folder
            self.mkpath(str(target))
            for pattern in patterns:
                sources = sorted((ROOT / folder).glob(pattern))
                if not sources:
                    raise FileNotFoundError(f"{folder}/{pattern} is missing: the wheel would lack it")
                for source in sources:
                    self.copy_file(str(source), str(target / source.name))


setup(cmdclass={"build_py": BuildWithRootData})
