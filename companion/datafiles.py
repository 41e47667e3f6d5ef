"""Where the data kept at the repository's root is read from: the installed package, else the checkout.

The games' seeds (seeds/) and the figure's files (hardware/pinmap.json, hardware/figure.json) stay at the
repository's root, where the developers' guide and the firmware's deploy tool expect them. A wheel
carries copies inside the package as companion/_data/<folder> (setup.py's build step), so an installed
companion reads them from any directory; an editable install or a source tree has no such copy and reads
the checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGED = "_data"
CHECKOUT = Path(__file__).resolve().parent.parent


def data_dir(folder: str) -> Path:
    """The folder `folder` ("seeds" or "hardware") of the installed package, else of the checkout."""
    packaged = resources.files("companion").joinpath(PACKAGED, folder)
    # Installed as files (pip never installs a wheel zipped), a package's resources are real paths.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return CHECKOUT / folder
