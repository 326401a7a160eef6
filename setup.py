"""The build compiles the ``.po`` catalogues to ``.mo`` (everything else is in pyproject.toml).

A wheel gets the ``.mo`` files in its build folder; an editable install (``pip install -e``,
what scripts/_venv.sh does) gets them written next to the ``.po`` files in the source tree.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "crib_pi"))
from catalogue import compile_all  # noqa: E402  (crib_pi itself needs numpy, not there yet)


class BuildWithCatalogues(build_py):
    """``build_py`` that also compiles the catalogues."""

    def run(self) -> None:
        super().run()
        self.compile_catalogues()

    def compile_catalogues(self) -> list[Path]:
        source = HERE / "crib_pi" / "locale"
        if getattr(self, "editable_mode", False):
            return compile_all(source)
        return compile_all(source, Path(self.build_lib) / "crib_pi" / "locale")


if __name__ == "__main__":  # setuptools runs this file as __main__
    setup(cmdclass={"build_py": BuildWithCatalogues})
