"""Where tests/test_web_page.py keeps a screenshot of every page state it reaches;
tests/conftest.py names the directory in the run's summary."""

from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "browser"
