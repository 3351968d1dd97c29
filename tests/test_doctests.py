"""Every module of the package whose docstrings show examples runs them here, so no
module's examples go untested because no test file thought to call them (the
modules' own test files run some of them again, beside the cases they explain)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import optimal_mm


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(optimal_mm.__path__, "optimal_mm."):
        if info.name.endswith("__main__"):
            continue  # (runs the command line when imported)
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(".py"):
            with open(origin, encoding="utf-8") as source:
                if ">>> " in source.read():
                    names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples_to_run():
    assert len(MODULES) > 40 and "optimal_mm.game" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed, result
