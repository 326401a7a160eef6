"""The pure core imports nothing from vision, devices, display or the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = [
    "cards",
    "scoring",
    "pegging",
    "game",
    "actions",
    "records",
    "snapshot",
    "simulate",
    "errors",
    "coach",
    "i18n",
    "numbers",
    "catalogue",
    "players",
]
PACKAGE = Path(__file__).resolve().parents[1] / "crib_pi"
ALLOWED = {f"crib_pi.{name}" for name in CORE} | {"crib_pi"}


def test_core_modules_import_only_the_core() -> None:
    for name in CORE:
        tree = ast.parse((PACKAGE / f"{name}.py").read_text())
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and module.startswith("crib_pi"):
                assert module in ALLOWED, f"crib_pi.{name} imports {module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith(("cv2", "pygame", "gpiozero")), name


def test_importing_the_core_loads_no_device_library() -> None:
    code = (
        "import sys\n"
        + "".join(f"import crib_pi.{n}\n" for n in CORE)
        + "bad = [m for m in sys.modules if m.split('.')[0] in ('cv2', 'pygame', 'gpiozero')"
        " or m.startswith(('crib_pi.devices', 'crib_pi.vision', 'crib_pi.app'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
