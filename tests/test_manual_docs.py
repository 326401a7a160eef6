"""The docs read as a manual: the README opens with what a player gets and keeps its figures in
one table whose every row names the command that prints it; docs/vision.md is a reference,
not a journal of rounds."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_opens_with_the_board_the_commands_and_what_to_buy() -> None:
    opening = README.split("## Set-up")[0]
    assert "bash scripts/run" in opening and "bash scripts/test" in opening
    assert "hardware/README.md" in opening
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", opening)
    assert pictures and all((ROOT / p).is_file() for p in pictures)
    assert re.findall(r"\d+(\.\d+)?%", opening) == []  # figures live in the table below


def test_every_figure_names_the_command_that_prints_it() -> None:
    table = README.split("## Measured figures")[1].split("\n## ")[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| what")]
    assert len(rows) >= 15
    for row in rows:
        command = row.rstrip(" |").rsplit("|", 1)[1]
        scripts = re.findall(r"(bench_\w+\.py|tools/\w+\.(?:py|sh))", command)
        assert scripts, row
        for script in scripts:
            path = ROOT / (script if "/" in script else f"benchmarks/{script}")
            assert path.is_file(), f"{script} in {row[:60]!r}"


def test_the_vision_doc_is_a_reference() -> None:
    text = (ROOT / "docs" / "vision.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    for section in ("Finding cards", "How it works", "How it is trained", "How it is measured"):
        assert section in headings
    assert "## Tried and dropped" in text and "## Limits" in text
    assert not re.search(r"\b(first|second|third|fourth|sixth|seventh|eighth) round\b", text)
