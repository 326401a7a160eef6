"""The build compiles the ``.po`` catalogues to ``.mo`` (everything else is in pyproject.toml).

A wheel gets the ``.mo`` files in its build folder; an editable install (``pip install -e``,
what scripts/_venv.sh does) gets them written next to the ``.po`` files in the source tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "crib_pi"))
from catalogue import compile_all  # (crib_pi itself needs numpy, not there yet)


class BuildWithCatalogues(build_py):
    """``build_py`` that also compiles the catalogues."""

    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "crib_pi" / "locale"
        if self.editable_mode:
            compile_all(source)
        else:
            compile_all(source, Path(self.build_lib) / "crib_pi" / "locale")


setup(cmdclass={"build_py": BuildWithCatalogues})
