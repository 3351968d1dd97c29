"""The sources pass the linter as ``pyproject.toml`` configures it ([tool.ruff]):
pyflakes' checks (names imported or assigned and never used, names never defined)
and pycodestyle's (layout, lines of at most 100 columns), on the package, the
scripts and the tests. Ruff is a test dependency: a well-kept linter, one binary,
a second for the whole tree."""

import subprocess
from pathlib import Path

from ruff import find_ruff_bin

ROOT = Path(__file__).resolve().parent.parent


def run_ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([find_ruff_bin(), "check", "--no-cache", "--output-format",
                           "concise", *args], cwd=ROOT, capture_output=True, text=True)


def test_sources_pass_the_linter():
    result = run_ruff("optimal_mm", "scripts", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_reads_the_projects_settings(tmp_path):
    """The check above is not vacuous: the settings reach a file outside the tree (an
    unused import and a line of 101 columns are both found)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\nx = '" + "a" * 95 + "'\n")
    result = run_ruff("--config", str(ROOT / "pyproject.toml"), str(bad))
    assert result.returncode == 1
    assert "F401" in result.stdout and "E501" in result.stdout, result.stdout
